import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as D from '../../kernel/dual';

const x = () => fc.double({ min: -3, max: 3, noNaN: true, noDefaultInfinity: true });

/** Check a dual op against central differences in each of its 2 seeded inputs. */
function checkBinary(op: (out: D.Dual, a: D.Dual, b: D.Dual) => D.Dual, f: (a: number, b: number) => number, a: number, b: number) {
  const da = D.dSeed(new D.Dual(2), a, 0), db = D.dSeed(new D.Dual(2), b, 1);
  const out = op(new D.Dual(2), da, db);
  const h = 1e-6;
  expect(out.v).toBeCloseTo(f(a, b), 12);
  expect(out.d[0]).toBeCloseTo((f(a + h, b) - f(a - h, b)) / (2 * h), 5);
  expect(out.d[1]).toBeCloseTo((f(a, b + h) - f(a, b - h)) / (2 * h), 5);
  // aliasing: out = a
  const alias = D.dSeed(new D.Dual(2), a, 0);
  op(alias, alias, db);
  expect(alias.v).toBe(out.v);
  expect(Array.from(alias.d)).toEqual(Array.from(out.d));
}

describe('dual numbers', () => {
  it('differentiate the arithmetic exactly (checked by central differences)', () => {
    fc.assert(fc.property(x(), x(), (a, b) => {
      checkBinary(D.dAdd, (p, q) => p + q, a, b);
      checkBinary(D.dSub, (p, q) => p - q, a, b);
      checkBinary(D.dMul, (p, q) => p * q, a, b);
      if (Math.abs(b) > 0.1) checkBinary(D.dDiv, (p, q) => p / q, a, b);
      if (Math.hypot(a, b) > 0.1 && !(b < 0 && Math.abs(a) < 1e-3)) checkBinary(D.dAtan2, (p, q) => Math.atan2(p, q), a, b);
    }));
  });

  it('differentiate the elementary functions', () => {
    const unary: [(o: D.Dual, a: D.Dual) => D.Dual, (v: number) => number, (v: number) => boolean][] = [
      [D.dSin, Math.sin, () => true], [D.dCos, Math.cos, () => true], [D.dTan, Math.tan, (v) => Math.abs(Math.cos(v)) > 0.2],
      [D.dAtan, Math.atan, () => true], [D.dSqrt, Math.sqrt, (v) => v > 0.1], [D.dAsin, Math.asin, (v) => Math.abs(v) < 0.9],
      [D.dAcos, Math.acos, (v) => Math.abs(v) < 0.9],
    ];
    fc.assert(fc.property(x(), (a) => {
      for (const [op, f, ok] of unary) {
        if (!ok(a)) continue;
        const out = op(new D.Dual(1), D.dSeed(new D.Dual(1), a, 0));
        expect(out.v).toBeCloseTo(f(a), 12);
        expect(out.d[0]).toBeCloseTo((f(a + 1e-6) - f(a - 1e-6)) / 2e-6, 5);
      }
    }));
  });

  it('differentiate vector operations (dot, cross, length, normalize, posed points)', () => {
    fc.assert(fc.property(fc.array(x(), { minLength: 6, maxLength: 6 }), (v) => {
      const n = 6;
      const seed = (vals: number[]) => {
        const a = new D.DualVec3(n), b = new D.DualVec3(n);
        for (let i = 0; i < 3; i++) { a.v[i] = vals[i]; b.v[i] = vals[3 + i]; a.d[i * n + i] = 1; b.d[i * n + 3 + i] = 1; }
        return [a, b] as const;
      };
      const [a, b] = seed(v);
      const fns: [(vals: number[]) => number[], (a: D.DualVec3, b: D.DualVec3) => { v: ArrayLike<number>; d: ArrayLike<number>; len: number }][] = [
        [(q) => [q[0] * q[3] + q[1] * q[4] + q[2] * q[5]], (p, r) => { const o = D.dvDot(new D.Dual(n), p, r); return { v: [o.v], d: o.d, len: 1 }; }],
        [(q) => [q[1] * q[5] - q[2] * q[4], q[2] * q[3] - q[0] * q[5], q[0] * q[4] - q[1] * q[3]], (p, r) => { const o = D.dvCross(new D.DualVec3(n), p, r); return { v: o.v, d: o.d, len: 3 }; }],
        [(q) => [Math.hypot(q[0], q[1], q[2])], (p) => { const o = D.dvLength(new D.Dual(n), p); return { v: [o.v], d: o.d, len: 1 }; }],
        [(q) => { const l = Math.hypot(q[0], q[1], q[2]); return [q[0] / l, q[1] / l, q[2] / l]; }, (p) => { const o = D.dvNormalize(new D.DualVec3(n), p); return { v: o.v, d: o.d, len: 3 }; }],
      ];
      if (Math.hypot(v[0], v[1], v[2]) < 0.1) return;
      for (const [f, op] of fns) {
        const out = op(a, b);
        const f0 = f(v);
        for (let i = 0; i < out.len; i++) {
          expect(out.v[i]).toBeCloseTo(f0[i], 12);
          for (let k = 0; k < n; k++) {
            const vp = v.slice(), vm = v.slice();
            vp[k] += 1e-6; vm[k] -= 1e-6;
            expect(out.d[i * n + k]).toBeCloseTo((f(vp)[i] - f(vm)[i]) / 2e-6, 5);
          }
        }
      }
    }));
  });
});
