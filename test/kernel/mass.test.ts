import { describe, expect, it } from 'vitest';
import { GravityBlock, assembleMass, gyroscopic, kineticEnergy, spatialMass, type RigidMass } from '../../kernel/mass';
import { ForceSet, tangentLayout, type ForceBlock } from '../../kernel/forces';
import { System } from '../../kernel/system';
import { pose, retract } from '../../kernel/pose';
import { toMatrix } from '../../kernel/quat';
import { rng as mulberry32 } from '../util/rng';

/** A rigid body made of point masses: its mass properties computed independently. */
function cloud(rand: () => number, n = 7): { points: number[][]; masses: number[]; body: RigidMass } {
  const points: number[][] = [], masses: number[] = [];
  let m = 0;
  const c = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const p = [rand() * 2 - 1, rand() * 2 - 1, rand() * 2 - 1].map((x) => x * 100);
    const mi = 0.5 + rand();
    points.push(p); masses.push(mi); m += mi;
    for (let k = 0; k < 3; k++) c[k] += mi * p[k];
  }
  for (let k = 0; k < 3; k++) c[k] /= m;
  const I = new Array(9).fill(0);
  points.forEach((p, i) => {
    const r = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    const rr = r[0] ** 2 + r[1] ** 2 + r[2] ** 2;
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) I[a * 3 + b] += masses[i] * ((a === b ? rr : 0) - r[a] * r[b]);
  });
  return { points, masses, body: { mass: m, centre: c, inertia: I } };
}

const cross = (a: number[], b: number[]): number[] => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

function randomPose(rand: () => number): Float64Array {
  const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
  const s = Math.hypot(...q);
  return pose([rand() * 200 - 100, rand() * 200 - 100, rand() * 200 - 100], q.map((x) => x / s));
}

describe('rigid-body mass in twist coordinates', () => {
  it('½ ξᵀ M ξ is the kinetic energy of the point masses the body is made of', () => {
    const rand = mulberry32(11);
    for (let trial = 0; trial < 20; trial++) {
      const { points, masses, body } = cloud(rand);
      const M = spatialMass(new Float64Array(36), body);
      const xi = Array.from({ length: 6 }, () => rand() * 4 - 2);
      const w = xi.slice(0, 3), v = xi.slice(3);
      let direct = 0;
      points.forEach((p, i) => {
        const u = cross(w, p).map((x, k) => x + v[k]);
        direct += 0.5 * masses[i] * (u[0] ** 2 + u[1] ** 2 + u[2] ** 2);
      });
      expect(kineticEnergy(M, xi)).toBeCloseTo(direct, 8);
      // symmetric
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) expect(M[i * 6 + j]).toBeCloseTo(M[j * 6 + i], 10);
    }
  });

  it('∂g/∂ξ matches central differences', () => {
    const rand = mulberry32(5);
    const { body } = cloud(rand);
    const M = spatialMass(new Float64Array(36), body);
    const xi = Float64Array.from({ length: 6 }, () => rand() * 2 - 1);
    const J = new Float64Array(36), g = new Float64Array(6);
    gyroscopic(g, M, xi, 0, J);
    const gp = new Float64Array(6), gm = new Float64Array(6), h = 1e-6;
    for (let k = 0; k < 6; k++) {
      const p = Float64Array.from(xi), m = Float64Array.from(xi);
      p[k] += h; m[k] -= h;
      gyroscopic(gp, M, p, 0, null); gyroscopic(gm, M, m, 0, null);
      for (let i = 0; i < 6; i++) expect(Math.abs(J[i * 6 + k] - (gp[i] - gm[i]) / (2 * h)) / Math.max(1, Math.abs(J[i * 6 + k]))).toBeLessThan(1e-6);
    }
  });

  it('a free body moved by M ξ̇ = −g(ξ) keeps its world momentum, angular momentum and energy', () => {
    const rand = mulberry32(3);
    const { body } = cloud(rand);
    const M = spatialMass(new Float64Array(36), body);
    // Minv by Gauss–Jordan (test only)
    const A = Array.from({ length: 6 }, (_, i) => [...Array.from(M.subarray(i * 6, i * 6 + 6)), ...Array.from({ length: 6 }, (_, j) => (i === j ? 1 : 0))]);
    for (let c = 0; c < 6; c++) {
      let p = c;
      for (let r = c + 1; r < 6; r++) if (Math.abs(A[r][c]) > Math.abs(A[p][c])) p = r;
      [A[c], A[p]] = [A[p], A[c]];
      const d = A[c][c];
      for (let j = 0; j < 12; j++) A[c][j] /= d;
      for (let r = 0; r < 6; r++) if (r !== c) { const f = A[r][c]; for (let j = 0; j < 12; j++) A[r][j] -= f * A[c][j]; }
    }
    const Minv = A.map((row) => row.slice(6));
    const accel = (xi: Float64Array): Float64Array => {
      const g = gyroscopic(new Float64Array(6), M, xi, 0, null);
      return Float64Array.from(Minv.map((row) => -row.reduce((s, a, j) => s + a * g[j], 0)));
    };
    const momenta = (x: Float64Array, xi: Float64Array): number[] => {
      const R = toMatrix(new Float64Array(9), x, 3);
      const h = Array.from({ length: 6 }, (_, i) => M.subarray(i * 6, i * 6 + 6).reduce((s, a, j) => s + a * xi[j], 0));
      const rot = (u: number[]): number[] => [0, 1, 2].map((i) => R[i * 3] * u[0] + R[i * 3 + 1] * u[1] + R[i * 3 + 2] * u[2]);
      const p = rot(h.slice(3)), t = [x[0], x[1], x[2]];
      const L = rot(h.slice(0, 3)).map((a, i) => a + cross(t, p)[i]);
      return [...p, ...L];
    };
    let x = randomPose(rand);
    let xi = Float64Array.from({ length: 6 }, () => rand() * 2 - 1);
    const e0 = kineticEnergy(M, xi), m0 = momenta(x, xi);
    // RK4 on the group: stages move the pose by exp of the averaged body twist (Crouch–Grossman would do better; a small step suffices here)
    const dt = 1e-3;
    for (let s = 0; s < 2000; s++) {
      const k1 = accel(xi);
      const xi2 = xi.map((a, i) => a + 0.5 * dt * k1[i]);
      const k2 = accel(xi2);
      const xi3 = xi.map((a, i) => a + 0.5 * dt * k2[i]);
      const k3 = accel(xi3);
      const xi4 = xi.map((a, i) => a + dt * k3[i]);
      const k4 = accel(xi4);
      const step = Float64Array.from({ length: 6 }, (_, i) => (dt / 6) * (xi[i] + 2 * xi2[i] + 2 * xi3[i] + xi4[i]));
      x = retract(new Float64Array(7), x, step);
      xi = xi.map((a, i) => a + (dt / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]));
    }
    expect(kineticEnergy(M, xi)).toBeCloseTo(e0, 6);
    const m1 = momenta(x, xi);
    const scale = Math.max(...m0.map(Math.abs));
    for (let i = 0; i < 6; i++) expect(Math.abs(m1[i] - m0[i]) / scale).toBeLessThan(1e-4);
  });

  it('places each body block at its variable\'s tangent slots', () => {
    const system = new System(100);
    system.addPose('ground', pose(), { fixed: true });
    const a = system.addScalar('angle', 0);
    const b = system.addPose('body', pose([1, 2, 3]));
    const { layout, size } = tangentLayout(system);
    expect([layout[0], layout[a], layout[b], size]).toEqual([-1, 0, 1, 7]);
    const M = spatialMass(new Float64Array(36), { mass: 2, centre: [1, 0, 0], inertia: [1, 0, 0, 0, 2, 0, 0, 0, 3] });
    const out = assembleMass(new Float64Array(49), layout, size, [{ variable: b, M }, { variable: 0, M }]);
    for (let i = 0; i < 7; i++) for (let j = 0; j < 7; j++) {
      const expected = i >= 1 && j >= 1 ? M[(i - 1) * 6 + (j - 1)] : 0;
      expect(out[i * 7 + j] === expected).toBe(true);
    }
  });
});

describe('gravity block and force set', () => {
  it('gravity is −∂V/∂δ and its stiffness matches central differences through the retraction', () => {
    const rand = mulberry32(21);
    const { body } = cloud(rand);
    const system = new System(100);
    const v = system.addPose('body', randomPose(rand));
    const g = [100, -500, -9806.65];
    const block = new GravityBlock('gravity:body', v, body, g);
    const offsets = Int32Array.of(system.variable(v).offset);
    const Q = new Float64Array(6), K = new Float64Array(36), zero = new Float64Array(6);
    block.evaluate(system.state, offsets, zero, 0, Q, K, null);
    const h = 1e-6, snap = system.snapshot();
    const Qp = new Float64Array(6), Qm = new Float64Array(6);
    for (let k = 0; k < 6; k++) {
      const step = new Float64Array(6); step[k] = h;
      system.retractVariable(system.variable(v), step, 0);
      const Vp = block.potential(system.state, offsets);
      block.evaluate(system.state, offsets, zero, 0, Qp, null, null);
      system.restore(snap);
      step[k] = -h;
      system.retractVariable(system.variable(v), step, 0);
      const Vm = block.potential(system.state, offsets);
      block.evaluate(system.state, offsets, zero, 0, Qm, null, null);
      system.restore(snap);
      const scale = Math.max(1, Math.abs(Q[k]));
      expect(Math.abs(Q[k] + (Vp - Vm) / (2 * h)) / scale).toBeLessThan(1e-6);
      for (let i = 0; i < 6; i++) expect(Math.abs(K[i * 6 + k] - (Qp[i] - Qm[i]) / (2 * h)) / Math.max(1, Math.abs(K[i * 6 + k]))).toBeLessThan(1e-5);
    }
  });

  it('assembles blocks into global slots, drops fixed variables, sums potentials and dissipation', () => {
    const system = new System(10);
    const ground = system.addPose('ground', pose(), { fixed: true });
    const s = system.addScalar('slide', 2, { scale: 1 });
    const body = system.addPose('body', pose([0, 0, 5]));
    /** A spring-damper on a scalar and a pose's z, with a fixed pose read (to be dropped). */
    const coupling: ForceBlock = {
      owner: 'coupling', vars: [ground, s, body],
      evaluate(state, offsets, velocity, _t, Q, K, C) {
        Q.fill(0); K?.fill(0); C?.fill(0);
        const x = state[offsets[1]], d = velocity[6];
        Q[6] = -3 * x - 0.5 * d; // on the scalar
        Q[12] = 7;                // on the body's v_z
        Q[0] = 99;                // on the fixed ground: must be dropped
        if (K) K[6 * 13 + 6] = -3;
        if (C) C[6 * 13 + 6] = -0.5;
      },
      potential(state, offsets) { return 1.5 * state[offsets[1]] ** 2; },
      dissipation(_s, _o, velocity) { return 0.5 * velocity[6] ** 2; },
    };
    const gravity = new GravityBlock('gravity', body, { mass: 2, centre: [0, 0, 0], inertia: [0, 0, 0, 0, 0, 0, 0, 0, 0] }, [0, 0, -10]);
    const set = new ForceSet(system);
    set.add(coupling); set.add(gravity);
    expect(set.size).toBe(7);
    const vel = Float64Array.of(4, 0, 0, 0, 0, 0, 0);
    const Q = new Float64Array(7), K = new Float64Array(49), C = new Float64Array(49);
    set.assemble(vel, 0, Q, K, C);
    expect(Array.from(Q)).toEqual([-3 * 2 - 0.5 * 4, 0, 0, 0, 0, 0, 7 - 20]);
    expect(K[0]).toBe(-3);
    expect(C[0]).toBe(-0.5);
    expect(set.potential(0)).toBeCloseTo(1.5 * 4 + 2 * 10 * 5, 12);
    expect(set.dissipation(vel, 0)).toBe(0.5 * 16);
    expect(Array.from(set.slotsOf(0)).slice(0, 7)).toEqual([-1, -1, -1, -1, -1, -1, 0]);
  });

  it('a velocity-free block (gravity) is given no C to write: C keeps the zeros assemble cleared it to, K and Q as its own', () => {
    const system = new System(10);
    const body = system.addPose('body', pose([0, 0, 5]));
    const gravity = new GravityBlock('gravity', body, { mass: 2, centre: [1, 0, 0], inertia: [0, 0, 0, 0, 0, 0, 0, 0, 0] }, [0, 0, -10]);
    expect(gravity.velocityFree).toBe(true);
    let given: Float64Array | null | undefined;
    /** Gravity that records the C it was handed (and would scribble on it). */
    const spy: ForceBlock = {
      owner: 'spy', vars: gravity.vars, velocityFree: true,
      evaluate(state, offsets, velocity, t, Q, K, C) { given = C; gravity.evaluate(state, offsets, velocity, t, Q, K, null); C?.fill(7); },
    };
    const set = new ForceSet(system);
    set.add(spy);
    const Q = new Float64Array(6), K = new Float64Array(36), C = new Float64Array(36).fill(5);
    set.assemble(new Float64Array(6), 0, Q, K, C);
    expect(given).toBeNull();
    expect(Array.from(C)).toEqual(new Array(36).fill(0));
    const q = new Float64Array(6), k = new Float64Array(36);
    gravity.evaluate(system.state, Int32Array.of(system.variables[body].offset), new Float64Array(6), 0, q, k, null);
    // summed into zeros: a −0 of the block's is +0 in the set's
    expect(Array.from(Q)).toEqual(Array.from(q, (x) => x + 0));
    expect(Array.from(K)).toEqual(Array.from(k, (x) => x + 0));
  });
});
