/**
 * The steering's own stiffness (`steering: { rack_stiffness }`, N/mm at the rack): the rack's
 * hold becomes a spring about the held travel. Closed forms: at rest a rack force F moves the
 * rack F s / k (s = k / (k + the rest of what resists the rack), the spring's tangent) and the
 * wheels steer by the rigid linkage's ratio times that; in the turn the understeer gradient
 * gains the K&C compliance steer ratio · F′(ay) / k (F′ the rigid rack's force per g); the
 * exact gradient meets differences of re-solved steps; a step steer through the spring closes
 * its energy budget.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SuspensionFileError } from '../../../src/suspension/files/errors';
import { buildVehicle, STEERING_SPRING } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { frontRack, rackTangent } from '../../../src/suspension/vehicle/rack';
import { rackSetup, rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { steadyTyres } from '../../../src/suspension/vehicle/steady-state';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation, simulateVehicle } from '../../../src/suspension/vehicle/simulate';
import { rackSensitivity } from '../../../src/suspension/vehicle/rack-rates';
import { vehicleModes } from '../../../src/suspension/vehicle/modes';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { extrapolatedDifferences, readVehicle, SEDAN, sedanWith, speedFor } from './vehicle-sources';

const sedan = readFileSync(SEDAN, 'utf8');
/** The sedan with a steering stiffness (N/mm at the rack). */
const withSteering = (k: number, text = sedan) => readVehicle(text.replace(/^tyres:/m, `steering:\n  rack_stiffness: ${k}\ntyres:`));

describe('the vehicle file\'s steering stiffness', () => {
  it('is read as N/mm; a value that is not a positive stiffness, an unknown key or a front axle without a rack is refused naming the field', () => {
    expect(withSteering(150).steering).toEqual({ rack_stiffness: 150 });
    expect(readVehicle().steering).toBeUndefined();
    const refused = (text: string, field: string) => {
      try { readVehicle(text); } catch (e) {
        expect(e).toBeInstanceOf(SuspensionFileError);
        expect((e as SuspensionFileError).problems.map((p) => p.path)).toContain(field);
        return;
      }
      throw new Error(`not refused: ${field}`);
    };
    for (const bad of ['0', '-20', 'soft', '.inf']) refused(sedanWith(/^tyres:/m, `steering:\n  rack_stiffness: ${bad}\ntyres:`), 'steering.rack_stiffness');
    refused(sedanWith(/^tyres:/m, 'steering:\n  rack_stiffness: 100\n  column: 3\ntyres:'), 'steering.column');
    refused(sedanWith(/^tyres:/m, 'steering: 100\ntyres:'), 'steering');
    // the sedan's front without its rack (its track rods on the body)
    const unsteered = (path: string, t: string) => (path.endsWith('double_wishbone_axle_front.yaml') ? t.replace('steering: { type: rack }', 'steering: { type: none }') : t);
    expect(() => readVehicle(sedan, unsteered)).not.toThrow();
    try { readVehicle(sedan.replace(/^tyres:/m, 'steering:\n  rack_stiffness: 100\ntyres:'), unsteered); throw new Error('not refused'); } catch (e) {
      expect((e as SuspensionFileError).problems?.[0].path).toBe('steering.rack_stiffness');
      expect((e as Error).message).toMatch(/no steering rack/);
    }
  });

  it('frees the rack on a spring about its travel at design: not held, the spring on its coordinate', () => {
    const rigid = buildVehicle(readVehicle()), sprung = buildVehicle(withSteering(150));
    const rack = frontRack(rigid, 'test').name;
    expect(rigid.doc.held).toContain(rack);
    expect(sprung.doc.held).not.toContain(rack);
    expect(sprung.doc.forces![STEERING_SPRING]).toEqual({ type: 'coordinate_spring', coordinate: rack, stiffness: 150, free: 0 });
    expect(rigid.doc.forces![STEERING_SPRING]).toBeUndefined();
    // the rack's coordinate is 0 at design: the spring's free travel is the design's
    expect(sprung.dyn.system.getScalar(frontRack(sprung, 'test').variable)).toBe(0);
  });
});

describe('a rack force through the steering\'s spring at rest', () => {
  // 50 N·m about the vertical at each front contact: both wheels pushed to the left, the rack loaded
  const Mz = 5e4;
  const atRest = (k: number | null) => {
    const m = buildVehicle(k === null ? readVehicle() : withSteering(k));
    const rest = solveVehicle(m, { ax: 0, ay: 0 });
    if (rest.status !== 'solved') throw new Error(rest.message);
    const s = solveVehicle(m, { ax: 0, ay: 0 }, (mm) => mm.wheels.forEach((w, i) => { if (w.axle === 'front') mm.contacts[i].loads[6] = Mz; }));
    if (s.status !== 'solved') throw new Error(s.message);
    const rack = frontRack(m, 'test');
    return { m, s, rack, x: m.dyn.system.getScalar(rack.variable) - (rack.spring?.free ?? rack.rest) };
  };

  it('moves the rack F s / k, and the wheels by the rigid linkage\'s ratio times that', () => {
    const k = 200;
    const rigid = atRest(null), stiff = atRest(1e7), soft = atRest(k);
    // F: the rack's load from the wheels (the stiff spring's force, k x, turned around)
    const F = 1e7 * stiff.x;
    expect(Math.abs(F)).toBeGreaterThan(50);
    // s: the held travel's tangent's share at the rack (the rest of the car resists the rack too: the wheels' weight)
    const m = buildVehicle(withSteering(k));
    solveVehicle(m, { ax: 0, ay: 0 });
    const rack = frontRack(m, 'test'), t = rackTangent(m, rack), s = t.delta[t.layout[rack.variable]];
    expect(s).toBeGreaterThan(0.9);
    expect(s).toBeLessThan(1);
    expect(Math.abs(soft.x - (F * s) / k)).toBeLessThan(2e-3 * Math.abs(F / k));
    // the rigid linkage's rate of each wheel's heading per mm of rack (left +), against the extra toe (toe-in +: the left wheel's heading is −toe)
    const setup = rackSetup(buildVehicle(readVehicle()), steadyTyres(rigid.m));
    if ('status' in setup) throw new Error(setup.message);
    const i = rigid.m.wheels.findIndex((w) => w.corner === 'front_left'), j = rigid.m.wheels.findIndex((w) => w.corner === 'front_right');
    const dl = -(soft.s.corners.front_left.toe - rigid.s.corners.front_left.toe), dr = soft.s.corners.front_right.toe - rigid.s.corners.front_right.toe;
    expect(Math.abs(dl)).toBeGreaterThan(0.05);
    expect(Math.abs(dl - setup.gains[i] * soft.x * 180 / Math.PI)).toBeLessThan(0.01 * Math.abs(dl));
    expect(Math.abs(dr - setup.gains[j] * soft.x * 180 / Math.PI)).toBeLessThan(0.01 * Math.abs(dr));
  });
});

describe('steady cornering through the steering\'s spring', () => {
  const R = 40;
  const sweep = (k: number | null, speeds: number[]) => {
    const r = rackSteadySweep(buildVehicle(k === null ? readVehicle() : withSteering(k)), R, speeds);
    return { ...r, steps: r.steps.map((s) => { if (s.status !== 'solved') throw new Error(s.message); return s; }) };
  };

  it('adds the K&C compliance understeer ratio · F′ / k to the rigid rack\'s, and prints the rack\'s give and force', () => {
    const h = 0.01, speeds = [speedFor(h, R), speedFor(2 * h, R)];
    const rigid = sweep(null, speeds), stiff = sweep(1e6, speeds);
    // F′: the rack's force per g at 0 g with the rack (all but) rigid, one-sided and second order
    const F = stiff.steps.map((s) => s.rack_force!), F0 = 1e6 * (stiff.summary!.kinematic_rack - rigid.summary!.kinematic_rack);
    const dF = (-3 * F0 + 4 * F[0] - F[1]) / (2 * h);
    expect(Math.abs(dF)).toBeGreaterThan(100);
    for (const k of [1000, 150]) {
      const sprung = sweep(k, speeds);
      for (const s of sprung.steps) expect(s.rack_force).toBeCloseTo(-k * s.rack_deflection!, 9);
      // the ratio is the rigid linkage's: steer stays rack × ratio, the spring's give is compliance steer
      expect(sprung.summary!.rack_steer_gain).toBeCloseTo(rigid.summary!.rack_steer_gain, 8);
      const added = sprung.summary!.understeer_gradient - rigid.summary!.understeer_gradient;
      const predicted = rigid.summary!.rack_steer_gain * dF / k;
      expect(Math.abs(added - predicted)).toBeLessThan(1e-4 * Math.abs(predicted));
    }
  });

  it('gives the exact understeer gradient of the differences of re-solved steps', () => {
    const h = 0.004, k = 150;
    const r = sweep(k, [speedFor(h, R), speedFor(2 * h, R)]);
    const s0 = r.summary!.kinematic_steer, [s1, s2] = r.steps.map((s) => s.steer!);
    const fd = (-3 * s0 + 4 * s1 - s2) / (2 * h);
    expect(Math.abs(r.summary!.understeer_gradient - fd)).toBeLessThan(2e-3 * Math.abs(fd));
  });

  it('gives the @rack metrics\' exact gradients: Richardson differences of re-read, re-solved cars (a spring rate, the steering arm, one side\'s, the stiffness, two axle points)', () => {
    const spec = withSteering(150), R60 = 60, KMH = 50;
    const metrics = [`vehicle.understeer_gradient@R${R60}@rack`, `vehicle.sideslip_gradient@R${R60}@rack`, `vehicle.kinematic_steer@R${R60}@rack`, `vehicle.steer@${KMH}@R${R60}@rack`, `vehicle.yaw_rate_gain@${KMH}@R${R60}@rack`];
    // the stiffness itself too (its load k per mm of held travel, and s, move with it); h = 2 of 150 N/mm leaves 1.3e-7 of (h/k)⁴
    // the axle points: the wheel's own turn in the spring's ratio (left out: 3e-5 off). The front point toes its wheel ~0.5°/mm,
    // so the yaw-rate gain (1/steer) is curved enough that h = 2 leaves 3e-3 of h⁴ in the differences, 0.25 ~6e-7
    const steps: Record<string, number> = {
      'rear.spring.rate': 0.5, 'front.trackrod_outboard.x': 2, 'front.left.trackrod_outboard.x': 2, 'steering.rack_stiffness': 2, 'front.left.axle_outboard.x': 0.25, 'rear.axle_inboard.x': 2,
    };
    const r = rackSensitivity(() => buildVehicle(spec), Object.keys(steps), metrics);
    if (r.status !== 'solved') throw new Error(r.message);
    const figures = (name: string, d: number) => {
      const x = rackSteadySweep(buildVehicle(movedVehicleSpec(spec, name, d)), R60, [KMH]), st = x.steps[0];
      if (st.status !== 'solved') throw new Error(st.message);
      return [x.summary!.understeer_gradient, x.summary!.sideslip_gradient, x.summary!.kinematic_steer, st.steer!, st.yaw_rate_gain!];
    };
    const f0 = figures('rear.spring.rate', 0);
    metrics.forEach((metric, i) => expect(r.metrics[metric].value, metric).toBeCloseTo(f0[i], 8));
    for (const [name, h] of Object.entries(steps)) {
      const fds = extrapolatedDifferences((d) => figures(name, d), h);
      // floored at 1e-8/h as rack-rates.test.ts (the re-solved rack settles to 1e-10 rad a pass)
      metrics.forEach((metric, i) => expect(Math.abs(r.metrics[metric].gradient[name] - fds[i]), `${name} ${metric}`).toBeLessThan(1e-6 * Math.abs(fds[i]) + 1e-8 / h));
    }
  }, 120_000);
});

describe('the modes on the steering\'s spring', () => {
  it('gain the front wheels\' steer mode, its frequency as √k where the spring is nearly all that holds the rack', () => {
    const rigid = vehicleModes(buildVehicle(readVehicle()));
    expect(rigid.modes.some((md) => md.name === 'steer')).toBe(false);
    const f = [150, 600].map((k) => {
      const r = vehicleModes(buildVehicle(withSteering(k)));
      expect(r.modes.length).toBe(rigid.modes.length + 1);
      expect(r.modes.filter((md) => md.name === 'steer')).toHaveLength(1);
      return r.summary.steer_frequency!;
    });
    // four times the spring, twice the frequency, less what else holds the rack (the wheels' weight: s = 0.98 at
    // 200 N/mm above, 1 %) and the mode's share of body roll (4 % of its energy at 150 N/mm): 1.963 measured
    expect(f[1] / f[0]).toBeGreaterThan(1.94);
    expect(f[1] / f[0]).toBeLessThan(2);
  });
});

describe('a step steer through the steering\'s spring', () => {
  it('moves the held end: the rack lags it, and the budget closes with the spring and the step\'s work in it', () => {
    const text = `${sedan.replace(/^tyres:/m, 'steering:\n  rack_stiffness: 150\ntyres:')}steer:\n  rack: 5\n  start: 0\n  ramp: 0.05\n  speed_kmh: 60\n`;
    const spec = readVehicle(text);
    const result = simulateVehicle(prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec)), { duration: 0.04, step: 0.002, every: 5 });
    expect(result.status).toBe('completed');
    const first = result.frames[0], last = result.frames[result.frames.length - 1];
    const coords = (f: typeof first) => f.state as Record<string, number>;
    // the held end at its ramp's value (4 mm at 40 ms), the rack behind it: the spring in tension
    expect(coords(last)['front_rack_steering_input_slide.slide']).toBeCloseTo(4, 9);
    const rack = coords(last)['front_rack_slide.slide'];
    expect(rack).toBeGreaterThan(0.1);
    expect(rack).toBeLessThan(4);
    expect(last.vehicle.corners.front_left.toe).toBeLessThan(first.vehicle.corners.front_left.toe - 0.1);
    // the budget: the spring's stored energy and the step's work are in it; the method's own share below 1e-3 of the energy in play
    expect(result.energy_by_element[STEERING_SPRING]).toBeDefined();
    expect(Math.abs(result.energy_by_element.steer)).toBeGreaterThan(0.1);
    expect(result.numerical_dissipation).toBeCloseTo(last.energy.total - first.energy.total, 9);
    expect(Math.abs(result.numerical_dissipation)).toBeLessThan(1e-3 * first.energy.kinetic);
  }, 60_000);
});
