import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel, type MetricValues } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { ackermannOuterAngle, steeringGeometry } from '../../../src/suspension/metrics/steering-geometry';

type AxleMetrics = { axle: MetricValues; left: MetricValues; right: MetricValues };
const DEG = 180 / Math.PI;
const model = (name: string) => new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')))));

describe('steering geometry metrics', () => {
  it('Ackermann 100 % when both wheels are square to lines from one point on the rear axle line (an independent construction)', () => {
    fc.assert(fc.property(fc.double({ min: 3000, max: 30000, noNaN: true }), fc.double({ min: 1200, max: 2000, noNaN: true }), fc.double({ min: 2000, max: 3500, noNaN: true }), (radius, track, wheelbase) => {
      // turn centre on the rear axle line, `radius` left of the car's centre line; front wheels at ±track/2
      const inner = Math.atan2(wheelbase, radius - track / 2) * DEG, outer = Math.atan2(wheelbase, radius + track / 2) * DEG;
      const m = steeringGeometry({ steerLeft: inner, steerRight: outer, rateLeft: null, rateRight: null, rackDisplacement: 0, track, wheelbase });
      expect(m.ackermann_percentage!).toBeCloseTo(100, 6);
      expect(ackermannOuterAngle(inner, track, wheelbase)).toBeCloseTo(outer, 9);
      // the outer wheel's path radius about that centre
      expect(m.turning_radius!).toBeCloseTo(Math.hypot(wheelbase, radius + track / 2), 6);
      expect(m.toe_out_on_turns!).toBeCloseTo(inner - outer, 12);
      // the mirror turn: the right wheel inner, the same numbers
      const r = steeringGeometry({ steerLeft: -outer, steerRight: -inner, rateLeft: null, rateRight: null, rackDisplacement: 0, track, wheelbase });
      expect(r.ackermann_percentage!).toBeCloseTo(100, 6);
    }), { numRuns: 50 });
  });

  it('parallel steer is 0 %, straight ahead undefined', () => {
    const m = steeringGeometry({ steerLeft: 10, steerRight: 10, rateLeft: null, rateRight: null, rackDisplacement: 0, track: 1500, wheelbase: 2500 });
    expect(m.ackermann_percentage).toBe(0);
    expect(m.toe_out_on_turns).toBe(0);
    const s = steeringGeometry({ steerLeft: 0, steerRight: 0, rateLeft: null, rateRight: null, rackDisplacement: 0, track: 1500, wheelbase: 2500 });
    expect([s.ackermann_percentage, s.turning_radius, s.toe_out_on_turns]).toEqual([null, null, null]);
  });

  it('on an axle: toe-out on turns from the wheels, mirror-symmetric; steering ratio equal to central differences of the sweep', () => {
    const sm = model('double_wishbone_axle_steering');
    const run = runSweep(sm, sweepFromShortcut('steer', '-30:30:7'), { noSteering: true });
    for (let i = 0; i < 7; i++) {
      const m = run.steps[i].metrics as AxleMetrics, mirror = run.steps[6 - i].metrics as AxleMetrics;
      const rack = run.steps[i].drivers.rack_displacement;
      expect(m.axle.steering_wheel_angle).toBeCloseTo((360 * rack) / 50, 12);
      if (rack === 0) { expect(m.axle.ackermann_percentage).toBeNull(); continue; }
      const [inner, outer] = rack > 0 ? [m.left.steer_angle!, m.right.steer_angle!] : [m.right.steer_angle!, m.left.steer_angle!];
      expect(m.axle.toe_out_on_turns).toBeCloseTo(Math.abs(inner) - Math.abs(outer), 12);
      expect(m.axle.ackermann_percentage).toBeCloseTo(mirror.axle.ackermann_percentage!, 8);
      expect(m.axle.turning_radius).toBeCloseTo(2500 / Math.sin(Math.abs(outer) / DEG), 6);
    }
    // steering ratio: d(steering wheel angle)/d(mean steer angle), against re-solved states ±h of rack
    const h = 1e-3;
    const at = (rack: number) => {
      const r = runSweep(sm, sweepFromShortcut('steer', `${rack}:${rack}:1`), { noSteering: true });
      const m = r.steps[0].metrics as AxleMetrics;
      return { mean: (m.left.steer_angle! + m.right.steer_angle!) / 2, ratio: m.axle.steering_ratio!, wheel: m.axle.steering_wheel_angle! };
    };
    for (const rack of [0, 15]) {
      const p = at(rack + h), q = at(rack - h), c = at(rack);
      const fd = (p.wheel - q.wheel) / (p.mean - q.mean);
      expect(Math.abs(c.ratio - fd)).toBeLessThan(1e-5 * fd);
      expect(c.ratio).toBeGreaterThan(10);
    }
  });

  it('an axle without a steering wheel (rack travel) has no steering wheel angle or ratio', () => {
    const m = model('double_wishbone_axle').evaluate().metrics as AxleMetrics;
    expect(m.axle.steering_ratio).toBeNull();
    expect(m.axle.steering_wheel_angle).toBeNull();
  });
});
