/**
 * maxAbs (kernel/solver/linear.ts), the residual and step norm of every Newton iteration:
 * the largest |a[i]| of the first n entries, NaN when any of them is NaN, the entries past
 * n ignored. Checked against a plain reference (Math.max over the absolute values) on
 * random vectors with zeros of both signs, infinities and a NaN at every place.
 */
import { describe, expect, it } from 'vitest';
import { maxAbs } from '../../../kernel/solver/linear';

/** The reference: NaN if any of the first n is NaN, else the largest absolute value (0 for none). */
function reference(a: Float64Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/** A deterministic pseudo-random sequence in [0, 1) (a linear congruential generator). */
function sequence(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

describe('maxAbs', () => {
  it('is the largest absolute value of the first n entries, bit for bit', () => {
    const next = sequence(17);
    for (let trial = 0; trial < 200; trial++) {
      const len = 1 + Math.floor(next() * 30);
      const a = new Float64Array(len);
      for (let i = 0; i < len; i++) {
        const r = next();
        a[i] = r < 0.05 ? 0 : r < 0.1 ? -0 : r < 0.12 ? -Infinity : r < 0.14 ? Infinity : (next() - 0.5) * 10 ** Math.floor(next() * 20 - 10);
      }
      const n = Math.floor(next() * (len + 1));
      expect(Object.is(maxAbs(a, n), reference(a, n))).toBe(true);
    }
  });

  it('is NaN when any of the first n is NaN, wherever it stands, and ignores one past n', () => {
    const a = Float64Array.from([3, -7, 0.5, -0, 2, -9, 1]);
    for (let at = 0; at < a.length; at++) {
      const b = a.slice();
      b[at] = NaN;
      expect(maxAbs(b, a.length)).toBeNaN();
      expect(maxAbs(b, at)).toBe(reference(a, at));
    }
    expect(maxAbs(a, 0)).toBe(0);
    expect(Object.is(maxAbs(Float64Array.from([-0, -0]), 2), 0)).toBe(true);
  });
});
