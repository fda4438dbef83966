/** The simulation examples: each against a closed form, a conservation law or the modes command. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import type { AssemblyDoc } from '../../src/assembly/types';
import { buildDynamics } from '../../src/mechanics/build';
import { modes } from '../../src/mechanics/modes';
import { simulate } from '../../src/mechanics/simulate';

const load = (name: string) => parseAssembly(readFileSync(`examples/${name}`, 'utf8'));
const g = 9806.65;

describe('simulation examples', () => {
  it('double pendulum: undamped with ρ∞ = 1, the total stays within 1e-5 of the energy scale over 2 s', () => {
    const r = simulate(load('double-pendulum.kinemate.json'), { duration: 2, step: 0.0005, rhoInf: 1, every: 20 });
    expect(r.status).toBe('completed');
    const scale = 2 * 1 * (g / 1000) * 1; // 2 kg · g · 1 m, J
    for (const f of r.frames) expect(Math.abs(f.energy.total - r.frames[0].energy.total)).toBeLessThan(1e-5 * scale);
  });

  it('slider-crank under a crank torque: the torque does τ·Δθ and the budget closes (a redundant planar loop)', () => {
    const r = simulate(load('slider-crank-torque.kinemate.json'), { duration: 0.5, step: 0.0005, every: 100 });
    expect(r.status).toBe('completed');
    const last = r.frames.at(-1)!;
    const turn = (((last.state['jA.angle'] as number) - 30) * Math.PI) / 180;
    expect(r.energy_by_element.drive).toBeCloseTo(-0.5 * turn, 3); // 500 N·mm = 0.5 N·m
    expect(Math.abs(last.energy.total - r.frames[0].energy.total)).toBeLessThan(1e-3 * last.energy.external);
    expect(last.energy.dissipated).toBeGreaterThan(0);
    for (const f of r.frames) expect(f.residual).toBeLessThan(1e-9);
  });

  it('quarter car over a bump: the road motion does the work the budget needs (closes to 1e-6 of it)', () => {
    const r = simulate(load('quarter-car-bump.kinemate.json'), { duration: 2, step: 0.001, every: 50 });
    const last = r.frames.at(-1)!;
    expect(last.energy.external).toBeGreaterThan(100);
    for (const f of r.frames) expect(Math.abs(f.energy.total - r.frames[0].energy.total)).toBeLessThan(1e-6 * last.energy.external);
    expect(r.events).toEqual([]);
  });

  it('double wishbone corner over a bump: constraints held, the budget closes to 1e-4 of the road\'s work, the coilover takes it', () => {
    const r = simulate(load('dw-corner-bump.kinemate.json'), { duration: 1, step: 0.0005, every: 50 });
    expect(r.status).toBe('completed');
    const first = r.frames[0].energy, last = r.frames.at(-1)!.energy;
    expect(last.external).toBeGreaterThan(100);
    for (const f of r.frames) {
      expect(f.residual).toBeLessThanOrEqual(1e-10);
      expect(Math.abs(f.energy.total - first.total)).toBeLessThan(1e-4 * last.external);
    }
    // what the road put in has gone into the damper (the corner is back at rest by 1 s)
    expect(Math.abs(last.dissipated - last.external - (first.potential + first.elastic - last.potential - last.elastic)) / last.external).toBeLessThan(1e-3);
  });

  const withDamper = (doc: AssemblyDoc, state?: Record<string, number>, damping = 1.5): AssemblyDoc => ({
    ...doc,
    forces: { ...doc.forces, damper: { type: 'damper', a: 'body.spring_top', b: 'wheel.spring_seat', damping } },
    ...(state ? { state } : {}),
  });

  it('quarter car dropped from its free lengths: the dampers take half the gravity work', () => {
    const r = simulate(withDamper(load('quarter-car.kinemate.json')), { duration: 6, step: 0.001, every: 500 });
    const first = r.frames[0].energy, last = r.frames.at(-1)!.energy;
    const gravityWork = first.potential - last.potential;
    expect(last.dissipated / gravityWork).toBeCloseTo(0.5, 3);
    expect(Math.abs(last.total - first.total)).toBeLessThan(1e-6 * gravityWork);
  });

  it('quarter car dropped on a damped tyre: the tyre\'s damping is counted as dissipated and the budget closes', () => {
    const doc = withDamper(load('quarter-car.kinemate.json'));
    const tyre = { ...(doc.forces!.tyre as object), damping: 0.3 };
    const r = simulate({ ...doc, forces: { ...doc.forces, tyre } } as unknown as AssemblyDoc, { duration: 2, step: 0.0005, every: 100, rhoInf: 1 });
    const first = r.frames[0].energy, last = r.frames.at(-1)!.energy;
    const gravityWork = first.potential - last.potential;
    expect(last.dissipated).toBeGreaterThan(0);
    for (const f of r.frames) expect(Math.abs(f.energy.total - first.total)).toBeLessThan(1e-5 * gravityWork);
  });

  it('quarter car free response: the body rings at the modes command\'s frequency and damping', () => {
    const ms = 250, mu = 35, k = 16, kt = 160;
    const zb = 600 - (ms * g / 1000) / k - ((ms + mu) * g / 1000) / kt, zw = 300 - ((ms + mu) * g / 1000) / kt;
    // light damping (ζ ≈ 0.07), where modal damping ratios are exact enough to compare
    const doc = withDamper(load('quarter-car.kinemate.json'), undefined, 0.3);
    const mode = modes(buildDynamics(doc)).modes[0];
    const r = simulate(withDamper(doc, { 'bodyGuide.slide': zb + 10, 'wheelGuide.slide': zw }, 0.3), { duration: 3, step: 0.0005, every: 4 });
    // zero crossings and peaks of the body's motion about its equilibrium, after the wheel hop has died out
    const x = r.frames.map((f) => (f.state['bodyGuide.slide'] as number) - zb), t = r.frames.map((f) => f.t);
    const ups: number[] = [], peaks: number[] = [];
    for (let i = 1; i < x.length - 1; i++) {
      if (t[i] < 0.3) continue;
      if (x[i - 1] < 0 && x[i] >= 0) ups.push(t[i - 1] + (-x[i - 1] / (x[i] - x[i - 1])) * (t[i] - t[i - 1]));
      if (x[i] > x[i - 1] && x[i] >= x[i + 1] && x[i] > 0) peaks.push(x[i]);
    }
    const period = ups[1] - ups[0];
    const fd = mode.frequency * Math.sqrt(1 - mode.damping_ratio ** 2);
    expect(Math.abs(1 / period - fd) / fd).toBeLessThan(0.01);
    const delta = Math.log(peaks[0] / peaks[1]), zeta = delta / Math.sqrt(4 * Math.PI ** 2 + delta ** 2);
    expect(Math.abs(zeta - mode.damping_ratio) / mode.damping_ratio).toBeLessThan(0.1);
  });
});
