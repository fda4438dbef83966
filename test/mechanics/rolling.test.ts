/**
 * Rolling in time (dynamics.md "the rolling incline closed forms"): a disc and a ring let go
 * on a straight incline roll down with a = g sin α / (1 + I/(m r²)), pressing on it with
 * m g cos α, their energy kept; the pinewood car on its straight ramp with
 * a = M g sin α / (M + Σ I/r²) (g sin α without wheel inertia).
 * The run's step keeps h·ω small (ω the wheels' spin: 75 rad/s for the disc at 0.5 s).
 */
import { describe, expect, it } from 'vitest';
import { PINEWOOD_CAR, PINEWOOD_TRACK, pinewoodDoc } from '../../examples/mechanisms/pinewood';
import { validateAssembly } from '../../src/assembly';
import { simulate } from '../../src/mechanics/simulate';
import type { Wrench } from '../../src/mechanics/statics';
import { wheelOnTrack } from '../mates/rolling-models';

const g = 9806.65; // mm/s²

describe('rolling down an incline', () => {
  for (const { label, k } of [{ label: 'a disc (I = m r²/2)', k: 0.5 }, { label: 'a ring (I = m r²)', k: 1 }]) {
    it(`${label}: travel ½ a t² with a = g sin α / (1 + I/(m r²)), normal m g cos α, energy kept`, () => {
      const alpha = (20 * Math.PI) / 180, radius = 15, mass = 0.1, length = 3000;
      const points = [[0, 0], [length * Math.cos(alpha), -length * Math.sin(alpha)]] as const;
      const start = 500;
      const centre: [number, number] = [start * Math.cos(alpha) + radius * Math.sin(alpha), -start * Math.sin(alpha) + radius * Math.cos(alpha)];
      const doc = validateAssembly(wheelOnTrack({ radius, mass, inertia: k * mass * radius * radius, centre, track: { points, smooth: false } }));
      const run = simulate(doc, { duration: 0.3, step: 1.25e-4, every: 400 });
      expect(run.status).toBe('completed');
      const a = (g * Math.sin(alpha)) / (1 + k);
      const weight = (mass * g) / 1000; // N (kg·mm/s² = mN)
      const e0 = run.frames[0].energy.total;
      for (const f of run.frames) {
        const travel = (f.state['roll.u'] as number) - start;
        expect(Math.abs(travel - 0.5 * a * f.t * f.t)).toBeLessThan(1e-4 * (1 + 0.5 * a * f.t * f.t));
        expect((f.reactions.roll as Wrench).normal! / (weight * Math.cos(alpha))).toBeCloseTo(1, 4);
        expect(Math.abs(f.energy.total - e0)).toBeLessThan(1e-5 * Math.abs(f.energy.potential));
      }
    });
  }
});

describe('the pinewood car on its straight ramp', () => {
  const car = PINEWOOD_CAR;
  const alpha = (PINEWOOD_TRACK.rampDegrees * Math.PI) / 180;
  const M = car.bodyMass + 2 * car.axleMass;
  for (const { label, inertia } of [{ label: 'with its wheels\' spin', inertia: car.axleInertia }, { label: 'without (simple physics)', inertia: 0 }]) {
    it(`${label}: speed a t with a = M g sin α / (M + Σ I/r²), energy kept`, () => {
      const doc = validateAssembly(pinewoodDoc({ axleInertia: inertia }, { resistances: false }));
      const run = simulate(doc, { duration: 0.2, step: 1e-4, every: 500 });
      expect(run.status).toBe('completed');
      const a = (M * g * Math.sin(alpha)) / (M + (2 * inertia) / (car.wheelRadius * car.wheelRadius));
      for (const f of run.frames) {
        const v = (f.velocities['body.pose'] as { linear: number[] }).linear;
        expect(Math.abs(Math.hypot(v[0], v[1], v[2]) - a * f.t)).toBeLessThan(1e-5 * a);
        expect(Math.abs(f.energy.total - run.frames[0].energy.total)).toBeLessThan(1e-7);
      }
    });
  }
});

describe('the pinewood car\'s resistances', () => {
  it('bearing friction on the ramp: a = (M g sin α − F_rear − F_front) / (M + Σ I/r²); the budget closes with what the bearings and the air took', () => {
    const car = PINEWOOD_CAR;
    const alpha = (PINEWOOD_TRACK.rampDegrees * Math.PI) / 180;
    const M = car.bodyMass + 2 * car.axleMass;
    const doc = validateAssembly(pinewoodDoc({ cd: 0 }));
    const forces = doc.forces as Record<string, { force: number }>;
    const friction = (forces.rearBearing.force + forces.frontBearing.force) * 1000; // N → kg·mm/s²
    const run = simulate(doc, { duration: 0.2, step: 1e-4, every: 500 });
    expect(run.status).toBe('completed');
    const a = (M * g * Math.sin(alpha) - friction) / (M + (2 * car.axleInertia) / (car.wheelRadius * car.wheelRadius));
    const last = run.frames[run.frames.length - 1];
    const v = (last.velocities['body.pose'] as { linear: number[] }).linear;
    // the tanh sign settles within the first millisecond (1 mm/s): a few hundredths of a mm/s
    expect(Math.abs(Math.hypot(v[0], v[1], v[2]) - a * last.t)).toBeLessThan(0.1);
    // what the bearings took: F·(distance rolled)
    const travelled = (last.state['rearRoll.u'] as number) - (run.frames[0].state['rearRoll.u'] as number);
    expect(run.energy_by_element.rearBearing / (forces.rearBearing.force * travelled / 1000)).toBeCloseTo(1, 3);
    expect(last.energy.dissipated).toBeGreaterThan(0);
    expect(Math.abs(last.energy.total - run.frames[0].energy.total)).toBeLessThan(1e-6 * Math.abs(last.energy.potential - run.frames[0].energy.potential));
  });
});

describe('rolling contact events', () => {
  it('a wheel pulled up by more than its weight would lift off: lift_off when the pull passes m g, touch_down when it falls back', () => {
    const mass = 0.05, weight = (mass * g) / 1000;
    const doc = wheelOnTrack({ radius: 20, mass, centre: [0, 20], track: 'plane', extra: {} }) as unknown as { parts: { wheel: Record<string, unknown> } } & Record<string, unknown>;
    doc.parts.wheel.points = { c: [0, 0, 0] };
    doc.forces = { pull: { type: 'force', at: 'wheel.c', vector: [0, 0, weight], scale: { table: [[0, 0], [0.1, 2], [0.2, 0]] } } };
    const run = simulate(validateAssembly(doc), { duration: 0.25, step: 1e-3, every: 50 });
    expect(run.status).toBe('completed');
    const events = run.events.filter((e) => e.element === 'roll');
    expect(events.map((e) => e.type)).toEqual(['lift_off', 'touch_down']);
    expect(events[0].t).toBeCloseTo(0.05, 2);
    expect(events[1].t).toBeCloseTo(0.15, 2);
  });
});

describe('kinemate simulate on the pinewood car', () => {
  it('CSV carries each rolling mate\'s normal force; at rest on the ramp, released, the axles share M g cos α', async () => {
    const { kinemate } = await import('../cli/helpers');
    const run = await kinemate(['simulate', 'examples/pinewood.kinemate.json', '--duration', '0.002', '--step', '0.0001', '--every', '10', '--format', 'csv']);
    expect(run.code).toBe(0);
    const [header, first] = run.stdout.trim().split('\n');
    const names = header.split(','), values = first.split(',').map(Number);
    const rear = values[names.indexOf('rearRoll.normal')], front = values[names.indexOf('frontRoll.normal')];
    const car = PINEWOOD_CAR, alpha = (PINEWOOD_TRACK.rampDegrees * Math.PI) / 180;
    // released on a straight ramp the car's pitch stays put: the normal forces sum to M g cos α
    expect((rear + front) / ((car.bodyMass + 2 * car.axleMass) * 9.80665 * Math.cos(alpha))).toBeCloseTo(1, 6);
  }, 60_000);
});
