/**
 * The slipping tyre element: its forces against the tyre model at slips set up by hand
 * (spin, side velocity, camber; closed forms of κ and α), prescribed slips, the power it
 * takes, and its K = ∂Q/∂δ and C = ∂Q/∂v by the duals against central differences.
 */
import { describe, expect, it } from 'vitest';
import { withTangents } from '../../../kernel/dual';
import { System } from '../../../kernel/system';
import * as P from '../../../kernel/pose';
import { LinearTyre, SlipTyreForce, steadyForces } from '../../../mates/tyres';
import { forceDerivatives, relativeError } from '../../mechanics/helpers';
import { SAMPLE, sampleTyre, withKey } from './sample';

const tyre = sampleTyre();
/** The sample without the formula's |γ| terms (PKY3, QBZ5): smooth through zero camber, where |γ| has a kink. */
const smooth = sampleTyre(withKey('QBZ5', 0, withKey('PKY3', 0, SAMPLE)));
const R0 = tyre.unloadedRadius, K = tyre.verticalStiffness;

/** A wheel (body 0) with its centre at height R0 − 20, turned by quaternion q; the spin axis is the part's y. */
function wheel(q: readonly number[] = [1, 0, 0, 0], road = false, model = tyre) {
  const system = new System(500);
  const w = system.addPose('w', P.pose([0, 0, R0 - 20], q));
  const r = road ? system.addPose('road', P.pose([5, -3, 2], [Math.cos(0.02), 0.01, 0.02, Math.sin(0.02)])) : -1;
  const element = new SlipTyreForce('tyre', w, [0, 0, 0], [0, 1, 0], model, { damping: 0.5, ...(road ? { road: { body: r, point: [0, 0, 0] } } : {}) });
  return { system, element, offsets: new Int32Array(road ? [0, 7] : [0]) };
}

function evaluate(s: ReturnType<typeof wheel>, velocity: Float64Array): Float64Array {
  const Q = new Float64Array(velocity.length);
  s.element.evaluate(s.system.state, s.offsets, velocity, 0, Q, null, null);
  return Q;
}

describe('slipping tyre: forces from the contact\'s slip', () => {
  it('driving: spin faster than rolling gives κ = (ωR − V)/√(V² + v_low²) and the model\'s fx, at the contact, with Fz = k·p', () => {
    const s = wheel();
    const V = 20000, Rl = R0 - 20, omega = (V * 1.05) / Rl;
    const Q = evaluate(s, Float64Array.of(0, omega, 0, V, 0, 0));
    const kappa = (omega * Rl - V) / Math.hypot(V, 1000);
    expect(s.element.slip.slipRatio).toBeCloseTo(kappa, 12);
    const f = steadyForces(tyre, 0, kappa, K * 20, 0);
    expect(Q[3]).toBeCloseTo(f.fx, 6);
    expect(Q[4]).toBeCloseTo(f.fy, 6);
    expect(Q[5]).toBeCloseTo(K * 20, 6);
    // moments about the centre: the contact 20 mm below R0 … (R_l fy, −R_l fx, mz)
    expect(Q[0]).toBeCloseTo(Rl * f.fy, 4);
    expect(Q[1]).toBeCloseTo(-Rl * f.fx, 4);
    expect(Q[2]).toBeCloseTo(f.mz, 6);
    expect(Q[3]).toBeGreaterThan(0);
  });

  it('sliding to the left gives α = atan(V_y/√(V² + v_low²)) > 0 and a side force to the right; camber leans the force', () => {
    const s = wheel();
    const V = 15000, Vy = 700, Rl = R0 - 20;
    const Q = evaluate(s, Float64Array.of(0, V / Rl, 0, V, Vy, 0));
    const alpha = Math.atan(Vy / Math.hypot(V, 1000));
    expect(s.element.slip.slipAngle).toBeCloseTo(alpha, 12);
    expect(s.element.slip.slipRatio).toBeCloseTo(0, 12);
    expect(Q[4]).toBeCloseTo(steadyForces(tyre, alpha, 0, K * 20, 0).fy, 6);
    expect(Q[4]).toBeLessThan(-1000);
    // top of the wheel 3° to the right (a turn about +x): γ = +3°, at the same penetration of its rim
    const g = (3 * Math.PI) / 180;
    const c = wheel([Math.cos(g / 2), Math.sin(g / 2), 0, 0]);
    evaluate(c, Float64Array.of(0, V / Rl, 0, V, 0, 0));
    expect(c.element.slip.camber).toBeCloseTo(g, 12);
    expect(c.element.slip.fy).toBeCloseTo(steadyForces(tyre, c.element.slip.slipAngle, c.element.slip.slipRatio, c.element.slip.load, g).fy, 6);
  });

  it('prescribed slips (quasi-static use) replace the velocities\'; the load still follows the pose', () => {
    const s = wheel([1, 0, 0, 0], false, smooth);
    s.element.input.prescribed = { slipAngle: 0.05, slipRatio: -0.02 };
    const Q = evaluate(s, new Float64Array(6));
    const f = steadyForces(smooth, 0.05, -0.02, K * 20, 0);
    expect([Q[3], Q[4], Q[5]]).toEqual([f.fx, f.fy, K * 20].map((x) => expect.closeTo(x, 6)));
    const { K: Kad, Kfd } = forceDerivatives(s.system, s.element, new Float64Array(6), 0);
    expect(relativeError(Kad, Kfd, 1)).toBeLessThan(1e-5);
  });

  it('anchored at rest (statics, modes): the tread springs hold the contact, with their energy and stiffness', () => {
    const s = wheel([Math.cos(0.02), 0, 0, Math.sin(0.02)], false, smooth);
    const at = [-3, 2] as const, k = [300, 150] as const;
    s.element.input.anchor = { at, stiffness: k };
    const Q = evaluate(s, new Float64Array(6));
    const free = steadyForces(smooth, 0, 0, K * 20, 0);
    const ex = s.element.slip.forward, ey = s.element.slip.lateral;
    // the contact is under the centre (0, 0): Δ = (3, −2) from the anchor
    const dx = 3 * ex[0] - 2 * ex[1], dy = 3 * ey[0] - 2 * ey[1];
    // Q's force is in the wheel's axes: for a wheel turned about z only, its x and y are e_x and e_y
    expect(Q[3]).toBeCloseTo(free.fx - k[0] * dx, 6);
    expect(Q[4]).toBeCloseTo(free.fy - k[1] * dy, 6);
    const vertical = 0.5 * K * 20 * 20;
    expect(s.element.potential(s.system.state, s.offsets)).toBeCloseTo(vertical + 0.5 * (k[0] * dx * dx + k[1] * dy * dy), 6);
    const { K: Kad, Kfd } = forceDerivatives(s.system, s.element, new Float64Array(6), 0);
    expect(relativeError(Kad, Kfd, 1)).toBeLessThan(1e-5);
    // the horizontal stiffness is there: a step along world x meets about −k_x
    expect(Kad[3 * 6 + 3]).toBeLessThan(-0.9 * k[0]);
    s.element.input.anchor = null;
    expect(evaluate(s, new Float64Array(6))[3]).toBeCloseTo(free.fx, 6);
  });

  it('takes power −(fx V_sx + fy V_sy + mz ω_z) from the motion: positive for a linear tyre sliding sideways', () => {
    const system = new System(500);
    const w = system.addPose('w', P.pose([0, 0, 280], [1, 0, 0, 0]));
    const lin = new LinearTyre({ corneringStiffness: 50000, longitudinalStiffness: 80000, verticalStiffness: 200, unloadedRadius: 300 });
    const element = new SlipTyreForce('t', w, [0, 0, 0], [0, 1, 0], lin);
    const v = Float64Array.of(0, 10000 / 280, 0.1, 10000, 500, 0);
    const power = element.dissipation(system.state, new Int32Array([0]), v);
    const s = element.slip;
    expect(power).toBeCloseTo(-(s.fx * s.vsx + s.fy * s.vsy + s.mz * s.wz), 9);
    expect(s.vsy).toBeCloseTo(500 + 0.1 * 0, 9);
    expect(power).toBeGreaterThan(0);
  });
});

describe('slipping tyre: exact tangent', () => {
  // an upright wheel sits on the kink of the formula's |γ| terms: compared with them zeroed
  const cases: [string, readonly number[], boolean, typeof tyre][] = [
    ['upright, driving and sliding (|γ| terms zeroed)', [1, 0, 0, 0], false, smooth],
    ['cambered and steered', [Math.cos(0.05), 0.04, 0.01, 0.06], false, tyre],
    ['on a moving road part', [Math.cos(0.03), 0.02, -0.01, 0.05], true, tyre],
  ];
  for (const [title, q, road, model] of cases) {
    it(`K and C by the duals equal central differences: ${title}`, () => {
      const s = wheel(q, road, model);
      const v = [0.3, 12000 / (R0 - 20) * 1.03, -0.2, 12000, 350, -40];
      const velocity = Float64Array.from(road ? [...v, 0.01, -0.02, 0.03, 200, -100, 30] : v);
      const { Q, K: Kad, C, Kfd, Cfd } = forceDerivatives(s.system, s.element, velocity, 0, 1e-5);
      expect(Math.abs(Q[4])).toBeGreaterThan(100);
      const scale = Math.max(...Q.map(Math.abs));
      expect(relativeError(Kad, Kfd, scale)).toBeLessThan(1e-5);
      expect(relativeError(C, Cfd, 1e-3 * scale)).toBeLessThan(1e-5);
    });
  }
});

describe('slipping tyre: second derivatives in the kernel\'s tangent mode', () => {
  it('d(K, C)/ds along a pose direction equal central differences of K and C (the full-width route)', () => {
    const s = wheel([Math.cos(0.05), 0.04, 0.01, 0.06], false, tyre);
    const velocity = Float64Array.of(0.3, 12000 / (R0 - 20) * 1.03, -0.2, 12000, 350, -40);
    const dir = Float64Array.of(0.02, -0.01, 0.03, 0.4, -0.3, 0.5);
    const Q = new Float64Array(6), Kad = new Float64Array(36), C = new Float64Array(36);
    const seeds = { pose: (col: number) => (col === 0 ? dir : null), local: () => null, scalar: () => 0 };
    const duals = withTangents(seeds, () => { s.element.evaluate(s.system.state, s.offsets, velocity, 0, Q, Kad, C); return s.element.duals(); });
    const dK = new Float64Array(36), dC = new Float64Array(36);
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) { dK[i * 6 + j] = duals[i].t!.d[j]; dC[i * 6 + j] = duals[i].t!.d[6 + j]; }
    const h = 1e-5, snapshot = s.system.snapshot(), variable = s.system.variables[0];
    const at = (sign: number) => {
      s.system.retractVariable(variable, dir.map((x) => sign * h * x), 0);
      const q = new Float64Array(6), k = new Float64Array(36), c = new Float64Array(36);
      s.element.evaluate(s.system.state, s.offsets, velocity, 0, q, k, c);
      s.system.restore(snapshot);
      return { k, c };
    };
    const up = at(1), down = at(-1);
    const fdK = up.k.map((x, i) => (x - down.k[i]) / (2 * h)), fdC = up.c.map((x, i) => (x - down.c[i]) / (2 * h));
    expect(relativeError(dK, fdK, 1e-3 * Math.max(...fdK.map(Math.abs)))).toBeLessThan(1e-4);
    expect(relativeError(dC, fdC, 1e-3 * Math.max(...fdC.map(Math.abs)))).toBeLessThan(1e-4);
    // and the tangent of Q itself is K·dir
    for (let i = 0; i < 6; i++) expect(duals[i].t!.v).toBeCloseTo(Kad.slice(6 * i, 6 * i + 6).reduce((a, k, j) => a + k * dir[j], 0), 6);
  });
});
