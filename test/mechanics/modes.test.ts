/** Vibration modes against closed-form eigenvalues: quarter car, bar on two springs, compound pendulum. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/mechanics/build';
import { modes } from '../../src/mechanics/modes';
import { barOnSprings, pendulum } from './models';

const G = 9806.65;

/** Eigenvalues ω² of the 2×2 problem K φ = ω² M φ, M diagonal, ascending. */
function twoByTwo(m1: number, m2: number, k11: number, k12: number, k22: number): [number, number] {
  const a = m1 * m2, b = -(k11 * m2 + k22 * m1), c = k11 * k22 - k12 * k12;
  const disc = Math.sqrt(b * b - 4 * a * c);
  return [(-b - disc) / (2 * a), (-b + disc) / (2 * a)];
}
const hz = (w2: number) => Math.sqrt(w2) / (2 * Math.PI);

describe('modes', () => {
  it('quarter car: the two undamped frequencies are the closed-form 2-DOF ones, lowest first', () => {
    const dyn = buildDynamics(parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8')));
    const result = modes(dyn);
    expect(result.status).toBe('solved');
    expect(result.modes).toHaveLength(2);
    const ms = 0.25, mu = 0.035, ks = 16, kt = 160; // t, N/mm
    const [w1, w2] = twoByTwo(ms, mu, ks, -ks, ks + kt);
    expect(result.modes[0].frequency).toBeCloseTo(hz(w1), 9);
    expect(result.modes[1].frequency).toBeCloseTo(hz(w2), 9);
    // body bounce ~1.2 Hz, wheel hop ~11 Hz: the first mode moves the body most, the second the wheel
    const body = (m: number) => Math.abs((result.modes[m].shape.body as { translation: number[] }).translation[2]);
    const wheel = (m: number) => Math.abs((result.modes[m].shape.wheel as { translation: number[] }).translation[2]);
    expect(body(0)).toBeGreaterThan(wheel(0));
    expect(wheel(1)).toBeGreaterThan(body(1));
    expect(result.modes.every((m) => m.damping_ratio === 0)).toBe(true);
  });

  it('a damper gives the modal damping ratio c/(2 m ω) on a single mass', () => {
    const doc = parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8'));
    // lock the wheel's travel: the body alone on the spring and a 1.2 N·s/mm damper
    const withDamper = {
      ...doc, held: ['wheelGuide.slide'],
      forces: { ...doc.forces, damper: { type: 'damper' as const, a: 'body.spring_top', b: 'wheel.spring_seat', damping: 1.2 } },
    };
    const result = modes(buildDynamics(parseAssembly(JSON.stringify(withDamper))));
    expect(result.modes).toHaveLength(1);
    const w = Math.sqrt(16 / 0.25);
    expect(result.modes[0].frequency).toBeCloseTo(w / (2 * Math.PI), 9);
    expect(result.modes[0].damping_ratio).toBeCloseTo(1.2 / (2 * 0.25 * w), 9);
  });

  it('a bar on two springs: bounce and pitch from the closed form', () => {
    const p = { m: 40, I: 4e6, a1: 600, a2: 900, k1: 20, k2: 35 };
    const result = modes(buildDynamics(barOnSprings(p)));
    expect(result.status).toBe('solved');
    expect(result.modes).toHaveLength(2);
    const m = p.m / 1000, I = p.I / 1000;
    // coordinates z and θ: spring i at x_i moves z − x_i θ; at the equilibrium the bar is
    // pitched by θ0 (a few mrad), which shortens the arms to x_i cos θ0
    const q = (result.equilibrium.state['bar.pose'] as { rotation: number[] }).rotation;
    const pitch = 2 * Math.asin(q[2] / Math.hypot(...q));
    expect(Math.abs(pitch)).toBeGreaterThan(1e-3);
    const x1 = -p.a1 * Math.cos(pitch), x2 = p.a2 * Math.cos(pitch);
    const [w1, w2] = twoByTwo(m, I, p.k1 + p.k2, -(p.k1 * x1 + p.k2 * x2), p.k1 * x1 * x1 + p.k2 * x2 * x2);
    expect(result.modes[0].frequency / hz(w1) - 1).toBeCloseTo(0, 6);
    expect(result.modes[1].frequency / hz(w2) - 1).toBeCloseTo(0, 6);
  });

  it('compound pendulum: small-oscillation frequency √(m g d / I_pivot), hinge away from the body origin', () => {
    const mass = 2, d = 300, Ic = 4e4;
    for (const offset of [0, 120]) {
      const result = modes(buildDynamics(pendulum({ mass, d, inertia: Ic, angle: 10, held: false, offset })));
      expect(result.status).toBe('solved');
      expect(result.modes).toHaveLength(1);
      const m = mass / 1000, Ip = Ic / 1000 + m * d * d;
      expect(result.modes[0].frequency).toBeCloseTo(hz((m * G * d) / Ip), 9);
      expect(result.equilibrium.state['jP.angle']).toBeCloseTo(0, 9);
    }
  });

  it('a massless moving part is named, never NaN', () => {
    const doc = parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8'));
    const { mass: _m, ...wheel } = doc.parts.wheel;
    const result = modes(buildDynamics(parseAssembly(JSON.stringify({ ...doc, parts: { ...doc.parts, wheel } }))));
    expect(result.status).toBe('failed');
    expect(result.message).toMatch(/part "wheel" \(no mass\)/);
  });
});
