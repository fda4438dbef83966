import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gyroscopic, massPattern, massTimes, rigidDynamics, spatialMass } from '../../kernel/mass';

/** A mass block with some entries zeroed (a point mass, a centre on an axis), from random numbers. */
const sparseMass = fc.tuple(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 36, maxLength: 36 }), fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }))
  .map(([x, keep]) => Float64Array.from(x, (v, i) => (keep[i] ? v : 0)));
const twist = fc.array(fc.double({ min: -1e4, max: 1e4, noNaN: true }), { minLength: 6, maxLength: 6 });

/** Whether out is M ξ's dense sums, row by row from +0 in column order, to the bit (signed zeros too). */
function isDenseSums(out: Float64Array, M: Float64Array, xi: ArrayLike<number>): boolean {
  for (let i = 0; i < 6; i++) {
    let s = 0;
    for (let j = 0; j < 6; j++) s += M[i * 6 + j] * xi[j];
    if (!Object.is(out[i], s)) return false;
  }
  return true;
}

// the integrator's products with M skip its zeros (kernel/integrator/iteration.ts): they must stay the dense sums' bits
describe('mass products over the block\'s nonzeros', () => {
  it('M ξ over the pattern is the dense product bit for bit', () => {
    fc.assert(fc.property(sparseMass, twist, (M, xi) => {
      const sparse = massTimes(new Float64Array(6), M, massPattern(M), xi, 0);
      for (let i = 0; i < 6; i++) {
        let s = 0;
        for (let j = 0; j < 6; j++) s += M[i * 6 + j] * xi[j];
        if (!Object.is(sparse[i] + 0, s + 0)) return false;
      }
      return true;
    }), { numRuns: 2000 });
  });

  it('M ξ written out over all 36 (a `dense` pattern) and over the lists are the dense sums to the bit, signed zeros too', () => {
    fc.assert(fc.property(sparseMass, twist, fc.boolean(), (M, xi, dense) => {
      return isDenseSums(massTimes(new Float64Array(6), M, { ...massPattern(M), dense }, xi, 0), M, xi);
    }), { numRuns: 4000 });
    // a car's parts (16–24 nonzeros) take the written-out product, a point mass the lists
    const part = spatialMass(new Float64Array(36), { mass: 2, centre: [10, 0, 5], inertia: [3, 0, 0.5, 0, 4, 0, 0.5, 0, 5] });
    expect(massPattern(part).dense).toBe(true);
    expect(massPattern(spatialMass(new Float64Array(36), { mass: 2, centre: [0, 0, 0], inertia: [0, 0, 0, 0, 0, 0, 0, 0, 0] })).dense).toBe(false);
  });

  it('a rigid body\'s block (its 12 structural zeros) over its other 24 entries: the dense sums to the bit, signed zeros too', () => {
    const zeros = new Set([3, 10, 17, 18, 25, 32, 22, 23, 27, 29, 33, 34]);
    // numbers of like magnitude at the 24 places (whose sums round: fast-check's doubles spread over
    // every exponent, and a sum of such is mostly exact), some of them zero (a centre on an axis)
    const like = (scale: number) => fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map((k) => k * scale), fc.constant(0));
    const rigidMass = fc.array(like(Math.PI / 3000), { minLength: 36, maxLength: 36 }).map((x) => Float64Array.from(x, (v, e) => (zeros.has(e) ? 0 : v)));
    const rounding = fc.array(like(Math.E / 200), { minLength: 6, maxLength: 6 });
    fc.assert(fc.property(rigidMass, rounding, (M, xi) => {
      const p = massPattern(M);
      if (p.dense && !p.rigid) return false;
      return isDenseSums(massTimes(new Float64Array(6), M, p, xi, 0), M, xi);
    }), { numRuns: 4000 });
    const part = spatialMass(new Float64Array(36), { mass: 2, centre: [10, -3, 5], inertia: [3, 0.2, 0.5, 0.2, 4, 0.1, 0.5, 0.1, 5] });
    expect(massPattern(part).rigid).toBe(true);
    part[22] = 1e-3;
    expect(massPattern(part).rigid).toBe(false);
  });

  it('the gyroscopic force and its Jacobian with the pattern are the dense ones bit for bit', () => {
    fc.assert(fc.property(sparseMass, twist, (M, xi) => {
      const g1 = new Float64Array(6), g2 = new Float64Array(6), J1 = new Float64Array(36), J2 = new Float64Array(36);
      gyroscopic(g1, M, xi, 0, J1);
      gyroscopic(g2, M, xi, 0, J2, massPattern(M));
      return g1.every((x, i) => x === g2[i]) && J1.every((x, i) => x === J2[i]);
    }), { numRuns: 2000 });
  });

  it('a rigid body\'s g(ξ) and M ξ̇ in one call (rigidDynamics) are gyroscopic\'s and massTimes\'s to the bit, signed zeros too', () => {
    const zeros = new Set([3, 10, 17, 18, 25, 32, 22, 23, 27, 29, 33, 34]);
    const like = (scale: number) => fc.oneof(fc.integer({ min: -1e6, max: 1e6 }).map((k) => k * scale), fc.constant(0), fc.constant(-0));
    const rigidMass = fc.array(like(Math.PI / 3000), { minLength: 36, maxLength: 36 }).map((x) => Float64Array.from(x, (v, e) => (zeros.has(e) ? 0 : v)));
    const rounding = fc.array(like(Math.E / 200), { minLength: 12, maxLength: 12 });
    fc.assert(fc.property(rigidMass, rounding, fc.integer({ min: 0, max: 6 }), (M, x, off) => {
      const p = massPattern(M);
      if (!p.rigid) return true;
      const xi = new Float64Array(12), xiDot = new Float64Array(12);
      for (let k = 0; k < 6; k++) { xi[off + k] = x[k]; xiDot[off + k] = x[6 + k]; }
      const g = new Float64Array(6), s = new Float64Array(6);
      rigidDynamics(g, s, M, p, xi, xiDot, off);
      const g0 = gyroscopic(new Float64Array(6), M, xi, off, null, p), s0 = massTimes(new Float64Array(6), M, p, xiDot, off);
      return g.every((v, i) => Object.is(v, g0[i])) && s.every((v, i) => Object.is(v, s0[i]));
    }), { numRuns: 4000 });
  });

  it('a point mass at its origin keeps only its three translational entries', () => {
    const M = spatialMass(new Float64Array(36), { mass: 2, centre: [0, 0, 0], inertia: [0, 0, 0, 0, 0, 0, 0, 0, 0] });
    const p = massPattern(M);
    expect(Array.from(p.start)).toEqual([0, 0, 0, 0, 1, 2, 3]);
    expect(Array.from(p.col)).toEqual([3, 4, 5]);
  });
});
