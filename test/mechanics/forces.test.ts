/** Every force element's K = ∂Q/∂δ and C = ∂Q/∂v (forward AD) against central differences, and its law against closed forms. */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { GravityBlock } from '../../kernel/mass';
import type { ForceBlock } from '../../kernel/forces';
import {
  BodyTorque, BushingForce, CoordinateSpringForce, LinearLaw, PointForce, PointToPointForce, SineLaw, TableLaw, TyreForce,
} from '../../mates/forces';
import { rng } from '../util/rng';
import { forceDerivatives, relativeError } from './helpers';

function randomPose(r: () => number, spread: number): Float64Array {
  const q = [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5];
  return P.pose([(r() - 0.5) * spread, (r() - 0.5) * spread, (r() - 0.5) * spread], q);
}

function twoBodies(seed: number) {
  const r = rng(seed);
  const system = new System(100);
  const a = system.addPose('a', randomPose(r, 50));
  const b = system.addPose('b', randomPose(r, 200));
  const velocity = Float64Array.from({ length: 12 }, () => (r() - 0.5) * 4);
  return { system, a, b, velocity, r };
}

const elements: [string, (s: ReturnType<typeof twoBodies>) => ForceBlock][] = [
  ['linear spring with preload', ({ a, b }) => new PointToPointForce('s', a, [10, 0, 5], b, [0, 20, -3], new LinearLaw(16, 120, 50), null)],
  ['curve spring', ({ a, b }) => new PointToPointForce('s', a, [10, 0, 5], b, [0, 20, -3], new TableLaw([[50, -100], [150, 300], [400, 2000]], true), null)],
  ['linear damper', ({ a, b }) => new PointToPointForce('d', a, [10, 0, 5], b, [0, 20, -3], null, new LinearLaw(2.5))],
  ['springdamper with a damping curve', ({ a, b }) => new PointToPointForce('sd', a, [1, 2, 3], b, [-4, 5, 6], new LinearLaw(30, 100), new TableLaw([[-100, -300], [0, 0], [100, 150]], true))],
  ['bushing', ({ a, b }) => new BushingForce('bu', a, [5, 0, 0], [0.9, 0.1, -0.2, 0.3], b, [0, -7, 2], [1, 0.3, 0, -0.1], [1000, 800, 500], [2e5, 1e5, 3e5], [3, 2, 1], [40, 50, 60])],
  ['force in world axes', ({ b }) => new PointForce('f', b, [3, -4, 5], [10, -20, 30], false, new SineLaw(1, 2, 0.3, 0.5))],
  ['force in part axes', ({ b }) => new PointForce('f', b, [3, -4, 5], [10, -20, 30], true, null)],
  ['torque in world axes', ({ a }) => new BodyTorque('t', a, [100, 0, -50], false, null)],
  ['torque in part axes', ({ a }) => new BodyTorque('t', a, [100, 0, -50], true, new TableLaw([[0, 0], [1, 2]], false))],
  ['gravity', ({ a }) => new GravityBlock('g', a, { mass: 0.25, centre: [5, -3, 2], inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1] }, [0, 0, -9806.65])],
];

describe('force elements: tangent stiffness and damping by forward AD equal central differences', () => {
  for (const [title, make] of elements) {
    it(title, () => {
      for (let seed = 1; seed <= 6; seed++) {
        const s = twoBodies(seed * 7919);
        const block = make(s);
        const velocity = s.velocity.subarray(0, block.vars.length * 6);
        const { Q, K, C, Kfd, Cfd } = forceDerivatives(s.system, block, velocity, 0.37);
        expect(Q.every(Number.isFinite)).toBe(true);
        // derivatives that vanish (a force fixed in the body) are compared against the force's own size
        const floor = 1e-3 * Math.max(...Q.map(Math.abs));
        expect(relativeError(K, Kfd, floor)).toBeLessThan(1e-5);
        expect(relativeError(C, Cfd, floor)).toBeLessThan(1e-5);
      }
    });
  }

  it('bushing at rest (zero deflection, where the rotation log is 0/0) has finite, correct derivatives', () => {
    const system = new System(100);
    const a = system.addPose('a', P.pose([0, 0, 0], [1, 0, 0, 0]));
    const b = system.addPose('b', P.pose([5, 0, 0], [1, 0, 0, 0]));
    const block = new BushingForce('bu', a, [5, 0, 0], [1, 0, 0, 0], b, [0, 0, 0], [1, 0, 0, 0], [1000, 800, 500], [2e5, 1e5, 3e5], [3, 2, 1], [40, 50, 60]);
    const { Q, K, Kfd } = forceDerivatives(system, block, new Float64Array(12), 0);
    expect(Math.max(...Q.map(Math.abs))).toBeLessThan(1e-9);
    expect(relativeError(K, Kfd)).toBeLessThan(1e-6);
    // a pure turn of b about A's z by 0.01 rad gives moment −k_z·0.01 about z on b
    system.setPose(b, P.pose([5, 0, 0], [Math.cos(0.005), 0, 0, Math.sin(0.005)]));
    const Qb = new Float64Array(12);
    block.evaluate(system.state, new Int32Array([0, 7]), new Float64Array(12), 0, Qb, null, null);
    expect(Qb[8]).toBeCloseTo(-3e5 * 0.01, 6);
  });

  it('tyre: stiffness, damping and lift-off', () => {
    const system = new System(300);
    const w = system.addPose('w', P.pose([0, 0, 290], [Math.cos(0.1), Math.sin(0.1), 0.05, 0.02]));
    const tyre = new TyreForce('ty', w, [0, 1, 0], [0, 1, 0], 300, 160, 0.8, 0);
    for (const v of [[0.1, -0.2, 0.3, 1, 2, -50], [0, 0, 0, 0, 0, 0]]) {
      const { Q, K, C, Kfd, Cfd } = forceDerivatives(system, tyre, Float64Array.from(v), 0);
      expect(Q[5]).not.toBe(0);
      expect(relativeError(K, Kfd)).toBeLessThan(1e-6);
      expect(relativeError(C, Cfd)).toBeLessThan(1e-6);
    }
    // an upright wheel 10 mm into the ground at rest carries 1600 N at its centre's foot
    system.setPose(w, P.pose([0, 0, 290], [1, 0, 0, 0]));
    const Q = new Float64Array(6);
    tyre.evaluate(system.state, new Int32Array([0]), new Float64Array(6), 0, Q, null, null);
    expect(Q[5]).toBeCloseTo(1600, 9);
    expect(tyre.last.contact[2]).toBeCloseTo(-10, 9);
    // lifted off: no force, never a pull
    system.setPose(w, P.pose([0, 0, 310], [1, 0, 0, 0]));
    tyre.evaluate(system.state, new Int32Array([0]), new Float64Array(6), 0, Q, null, null);
    expect([...Q].every((x) => x === 0)).toBe(true);
  });

  it('tyre on a road part: derivatives in both bodies, the force equal and opposite, the road\'s height and velocity counted', () => {
    const system = new System(300);
    const w = system.addPose('w', P.pose([0, 0, 290], [Math.cos(0.1), Math.sin(0.1), 0.05, 0.02]));
    const road = system.addPose('road', P.pose([3, -2, 15], [Math.cos(0.05), 0, 0.03, Math.sin(0.05)]));
    const tyre = new TyreForce('ty', w, [0, 1, 0], [0, 1, 0], 300, 160, 0.8, -5, { body: road, point: [10, 20, -3] });
    for (const v of [[0.1, -0.2, 0.3, 1, 2, -50, 0.05, 0.1, -0.2, 3, -4, 20], new Array(12).fill(0)]) {
      const { Q, K, C, Kfd, Cfd } = forceDerivatives(system, tyre, Float64Array.from(v), 0);
      expect(Q[5]).not.toBe(0);
      expect(relativeError(K, Kfd)).toBeLessThan(1e-6);
      expect(relativeError(C, Cfd)).toBeLessThan(1e-6);
    }
    // upright wheel, road translated only: surface at 15 − 3 − 5 = 7 mm, contact at −10 + 7 = −3 ⇒ 10 mm in
    system.setPose(w, P.pose([0, 0, 297], [1, 0, 0, 0]));
    system.setPose(road, P.pose([3, -2, 15], [1, 0, 0, 0]));
    const Q = new Float64Array(12), offsets = new Int32Array([0, 7]);
    tyre.evaluate(system.state, offsets, new Float64Array(12), 0, Q, null, null);
    expect(tyre.last.penetration).toBeCloseTo(10, 9);
    expect(Q[5]).toBeCloseTo(1600, 9);
    expect(Q[11]).toBeCloseTo(-1600, 9);
    // the road rising at 100 mm/s under a wheel at rest: damping 0.8 × 100 more
    const v = new Float64Array(12); v[11] = 100;
    tyre.evaluate(system.state, offsets, v, 0, Q, null, null);
    expect(Q[5]).toBeCloseTo(1600 + 80, 9);
    // the same relative motion from the wheel instead gives the same force
    const v2 = new Float64Array(12); v2[5] = -100;
    tyre.evaluate(system.state, offsets, v2, 0, Q, null, null);
    expect(Q[5]).toBeCloseTo(1680, 9);
  });

  it('coordinate spring', () => {
    const system = new System(100);
    const x = system.addScalar('x', 0.3);
    const block = new CoordinateSpringForce('c', x, 2000, 0.1, 5);
    const { Q, K, C, Kfd, Cfd } = forceDerivatives(system, block, Float64Array.of(0.7), 0);
    expect(Q[0]).toBeCloseTo(-2000 * 0.2 - 5 * 0.7, 9);
    expect(relativeError(K, Kfd)).toBeLessThan(1e-8);
    expect(relativeError(C, Cfd)).toBeLessThan(1e-8);
  });
});

describe('force elements: K alone from the narrower pass (ForceSet hands the slots, a fixed body\'s are −1)', () => {
  // the narrow pass seeds the moving bodies' steps only: its K must be the full pass's, entry by entry
  for (const [title, make] of elements) {
    it(title, () => {
      for (let seed = 1; seed <= 3; seed++) {
        const s = twoBodies(seed * 104729);
        const block = make(s);
        const bodies = block.vars.length, d = 6 * bodies;
        const offsets = new Int32Array(block.vars.map((v) => s.system.variables[v].offset));
        const velocity = s.velocity.subarray(0, d);
        const Q = new Float64Array(d), K = new Float64Array(d * d);
        block.evaluate(s.system.state, offsets, velocity, 0.37, Q, K, null);
        for (let fixed = -1; fixed < bodies; fixed++) {
          const slots = Int32Array.from({ length: d }, (_, i) => (Math.floor(i / 6) === fixed ? -1 : i));
          const q = new Float64Array(d), k = new Float64Array(d * d).fill(NaN);
          block.evaluate(s.system.state, offsets, velocity, 0.37, q, k, null, slots);
          // a moving body's rows and columns bit for bit; a fixed body's written (they are dropped), never left unset
          for (let i = 0; i < d; i++) expect(slots[i] < 0 ? Number.isFinite(q[i]) : q[i] === Q[i]).toBe(true);
          for (let i = 0; i < d * d; i++) expect(slots[i % d] < 0 || slots[Math.floor(i / d)] < 0 ? Number.isFinite(k[i]) : k[i] === K[i]).toBe(true);
        }
      }
    });
  }
});

describe('bushing on a fixed frame at rest: K in closed form (mates/bushing-stiffness.ts)', () => {
  // large turns (the closed J_r⁻¹), small ones (its series below 0.1 rad) and none
  const turns: [string, number][] = [['random', -1], ['0.3 rad', 0.3], ['0.05 rad', 0.05], ['1e-7 rad', 1e-7], ['none', 0]];
  for (const [title, angle] of turns) {
    it(`${title}: the part's block equals the forward-AD pass's and central differences`, () => {
      for (let seed = 1; seed <= 3; seed++) {
        const s = twoBodies(seed * 7907);
        const qa = [0.9, 0.1, -0.2, 0.3], na = Math.hypot(...qa);
        if (angle >= 0) {
          // the part turned by `angle` about an oblique axis from where the frames line up
          const ax = [0.3, -0.5, 0.8], l = Math.hypot(...ax), h = angle / 2;
          s.system.setPose(s.a, P.pose([1, 2, 3], [qa[0] / na, qa[1] / na, qa[2] / na, qa[3] / na]));
          const rel = [Math.cos(h), (Math.sin(h) * ax[0]) / l, (Math.sin(h) * ax[1]) / l, (Math.sin(h) * ax[2]) / l];
          const qb = quatMul(quatMul(qa.map((x) => x / na), [0.9, 0.1, -0.2, 0.3].map((x) => x / na)), quatMul(rel, quatConj([1, 0.3, 0, -0.1].map((x) => x / Math.hypot(1, 0.3, 0.1)))));
          s.system.setPose(s.b, P.pose([4, -3, 9], qb));
        }
        const block = new BushingForce('bu', s.a, [5, 0, 0], [0.9, 0.1, -0.2, 0.3], s.b, [0, -7, 2], [1, 0.3, 0, -0.1], [1000, 800, 500], [2e5, 1e5, 3e5], [3, 2, 1], [40, 50, 60]);
        const rest = new Float64Array(12);
        const { Q, K, Kfd } = forceDerivatives(s.system, block, rest, 0);
        const offsets = new Int32Array([s.system.variables[s.a].offset, s.system.variables[s.b].offset]);
        const slots = Int32Array.from({ length: 12 }, (_, i) => (i < 6 ? -1 : i - 6));
        const q = new Float64Array(12), k = new Float64Array(144);
        block.evaluate(s.system.state, offsets, rest, 0, q, k, null, slots);
        const big = Math.max(...K.map(Math.abs));
        for (let i = 6; i < 12; i++) {
          expect(q[i]).toBe(Q[i]);
          for (let j = 6; j < 12; j++) {
            expect(Math.abs(k[i * 12 + j] - K[i * 12 + j]), `K[${i}][${j}]`).toBeLessThan(1e-12 * big);
            expect(Math.abs(k[i * 12 + j] - Kfd[i * 12 + j]), `K[${i}][${j}] by differences`).toBeLessThan(1e-6 * big);
          }
        }
      }
    });
  }
});

function quatMul(a: number[], b: number[]): number[] {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}
function quatConj(q: number[]): number[] { return [q[0], -q[1], -q[2], -q[3]]; }

describe('force elements: laws and energy', () => {
  it('a spring pulls its ends together with T = k(l − l0) + preload, and its generalized force is −dV/dδ', () => {
    const system = new System(100);
    const a = system.addPose('a', P.pose([0, 0, 0], [1, 0, 0, 0]), { fixed: true });
    const b = system.addPose('b', P.pose([0, 0, 150], [1, 0, 0, 0]));
    const spring = new PointToPointForce('s', a, [0, 0, 0], b, [0, 0, 0], new LinearLaw(16, 100, 20), null);
    const Q = new Float64Array(12);
    spring.evaluate(system.state, new Int32Array([0, 7]), new Float64Array(12), 0, Q, null, null);
    expect(Q[11]).toBeCloseTo(-(16 * 50 + 20), 9); // b pulled down toward a
    expect(spring.last.tension).toBeCloseTo(820, 9);
    // Q = −dV/dδ along a random step of b, by central differences of the potential
    for (const seed of [3, 5, 8]) {
      const r = rng(seed);
      system.setPose(b, randomPose(r, 300));
      const offsets = new Int32Array([0, 7]);
      spring.evaluate(system.state, offsets, new Float64Array(12), 0, Q, null, null);
      const snap = system.snapshot();
      const step = Float64Array.from({ length: 6 }, () => r() - 0.5);
      const h = 1e-5;
      const V = (sign: number) => {
        system.restore(snap);
        system.retractVariable(system.variables[b], step.map((x) => sign * h * x), 0);
        return spring.potential!(system.state, offsets);
      };
      const dV = (V(1) - V(-1)) / (2 * h);
      system.restore(snap);
      let Qdot = 0;
      for (let i = 0; i < 6; i++) Qdot += Q[6 + i] * step[i];
      expect(Qdot).toBeCloseTo(-dV, 5);
    }
  });

  it('a curve spring extends its end segments linearly; the table integral is the area under it', () => {
    const law = new TableLaw([[0, 0], [10, 100], [20, 150]], true);
    const out = new Float64Array(2);
    expect(law.evaluate(25, out)[0]).toBeCloseTo(175, 12);
    expect(law.evaluate(-5, out)[0]).toBeCloseTo(-50, 12);
    expect(law.integral(20)).toBeCloseTo(500 + 1250, 9);
    expect(law.integral(-5)).toBeCloseTo(125, 9); // ∫_0^-5 10x dx = 125
    const held = new TableLaw([[0, 0], [1, 2]], false);
    expect(held.evaluate(5, out)[0]).toBe(2);
    expect(held.evaluate(-1, out)[0]).toBe(0);
  });
});
