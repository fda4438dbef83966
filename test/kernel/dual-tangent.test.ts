import { describe, expect, it } from 'vitest';
import {
  Dual, DualVec3, withTangents, dSeed, dMul, dDiv, dAdd, dSub, dScale, dAddConst, dAddScaled, dSqrt, dSin, dCos, dTan, dAtan, dAsin, dAcos, dAtan2,
  dvSetComponent, dvCross, dvNormalize, dvLength, dvDot, dvScale, dvAddScaledDual, dvComponent, dvDotConst, dvRigidPoint, dvRigidDirection, rotationMatrix,
} from '../../kernel/dual';

const N = 4;
/** A scalar function of 4 inputs that goes through every tangent rule; first-order duals out. */
function f(x: ArrayLike<number>): Dual {
  const s = Array.from({ length: 12 }, () => new Dual(N));
  const a = new DualVec3(N), b = new DualVec3(N), c = new DualVec3(N);
  for (let k = 0; k < N; k++) dSeed(s[k], x[k], k);
  dvSetComponent(a, 0, s[0]); dvSetComponent(a, 1, s[1]); dvSetComponent(a, 2, s[2]);
  dvSetComponent(b, 0, s[3]); dvSetComponent(b, 1, s[0]); dvSetComponent(b, 2, s[1]);
  dvCross(c, a, b); dvNormalize(c, c); dvAddScaledDual(c, c, a, s[2]); dvScale(c, c, s[3]);
  dvLength(s[4], c); dvDot(s[5], a, b); dAtan2(s[6], s[4], s[5]);
  dMul(s[7], s[0], s[1]); dDiv(s[7], s[7], s[4]); dSqrt(s[8], s[4]); dSin(s[9], s[7]); dCos(s[10], s[8]);
  dAdd(s[6], s[6], s[9]); dSub(s[6], s[6], s[10]); dScale(s[11], s[0], 0.3); dTan(s[11], s[11]); dAddScaled(s[6], s[6], s[11], 2);
  dScale(s[11], s[1], 0.2); dAtan(s[11], s[11]); dAdd(s[6], s[6], s[11]);
  dScale(s[11], s[2], 0.1); dAsin(s[11], s[11]); dAdd(s[6], s[6], s[11]);
  dScale(s[11], s[3], 0.1); dAcos(s[11], s[11]); dAdd(s[6], s[6], s[11]);
  dvComponent(s[11], c, 1); dMul(s[6], s[6], s[11]); dvDotConst(s[11], a, [0.3, -1, 2]); dAdd(s[6], s[6], s[11]); dAddConst(s[6], s[6], 5);
  return s[6];
}

describe('dual tangent mode (exact second derivatives along one direction)', () => {
  it('the tangent of the gradient equals central differences of the gradient along the direction, every op', () => {
    const x = [0.7, -0.4, 1.3, 0.9], u = [0.3, -1.1, 0.5, 0.8];
    const hv = withTangents({ pose: () => null, local: () => null, scalar: (k) => u[k] }, () => {
      const r = f(x);
      return { v: r.v, tv: r.t!.v, td: Float64Array.from(r.t!.d), d: Float64Array.from(r.d) };
    });
    const plain = f(x);
    expect(hv.v).toBe(plain.v);
    // the value's tangent is the directional derivative
    expect(hv.tv).toBeCloseTo(plain.d.reduce((s, d, k) => s + d * u[k], 0), 12);
    const h = 1e-5;
    for (let j = 0; j < N; j++) {
      const gp = f(x.map((xi, k) => xi + h * u[k])).d[j], gm = f(x.map((xi, k) => xi - h * u[k])).d[j];
      const fd = (gp - gm) / (2 * h);
      expect(Math.abs(hv.td[j] - fd)).toBeLessThan(1e-7 * Math.max(1, Math.abs(fd)));
    }
  });
  it('a posed point and direction: seeds and values move with the pose twist and the local move', () => {
    // pose with a turn; body twist w, local point move ξ (turn and shift)
    const q = [0.9, 0.2, -0.3, 0.25], t = [10, -20, 5];
    const norm = Math.hypot(...q);
    const state = Float64Array.from([...t, ...q.map((c) => c / norm)]);
    const p = [30, -12, 44], dir = [0.2, 0.9, -0.4];
    const w = [0.3, -0.2, 0.5, 1.5, -0.7, 2.0], xi = [-0.4, 0.1, 0.25, 0.6, 0.3, -0.9];
    const R = rotationMatrix(new Float64Array(9), state, 3);
    const eval1 = (st: Float64Array, pl: number[], dl: number[]) => {
      const Rm = rotationMatrix(new Float64Array(9), st, 3);
      const P = dvRigidPoint(new DualVec3(6), Rm, st, 0, pl, 0), D = dvRigidDirection(new DualVec3(6), Rm, dl, 0);
      return { P, D };
    };
    const got = withTangents({ pose: () => w, local: () => xi, scalar: () => 0 }, () => {
      const { P, D } = eval1(state, p, dir);
      return { P: P.t!, D: D.t! };
    });
    void R;
    // moved: pose x ∘ exp(s w) (quaternion step), local geometry by exp(s ξ) to first order (p + s(ω_ξ × p + v_ξ))
    const moved = (s: number) => {
      const [wx, wy, wz] = w.slice(0, 3).map((c) => c * s);
      const th = Math.hypot(wx, wy, wz), k = th > 0 ? Math.sin(th / 2) / th : 0.5;
      const dq = [Math.cos(th / 2), k * wx, k * wy, k * wz];
      const q0 = Array.from(state.subarray(3, 7));
      const qm = [q0[0] * dq[0] - q0[1] * dq[1] - q0[2] * dq[2] - q0[3] * dq[3], q0[0] * dq[1] + q0[1] * dq[0] + q0[2] * dq[3] - q0[3] * dq[2], q0[0] * dq[2] - q0[1] * dq[3] + q0[2] * dq[0] + q0[3] * dq[1], q0[0] * dq[3] + q0[1] * dq[2] - q0[2] * dq[1] + q0[3] * dq[0]];
      const Rm = rotationMatrix(new Float64Array(9), state, 3);
      const vs = w.slice(3).map((c) => c * s);
      const st = Float64Array.from([...[0, 1, 2].map((i) => state[i] + Rm[3 * i] * vs[0] + Rm[3 * i + 1] * vs[1] + Rm[3 * i + 2] * vs[2]), ...qm]);
      const cr = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
      const pw = cr(xi.slice(0, 3), p), dw = cr(xi.slice(0, 3), dir);
      return eval1(st, p.map((c, i) => c + s * (pw[i] + xi[3 + i])), dir.map((c, i) => c + s * dw[i]));
    };
    const h = 1e-6;
    const a = moved(h), b = moved(-h);
    for (let i = 0; i < 3; i++) {
      expect(got.P.v[i]).toBeCloseTo((a.P.v[i] - b.P.v[i]) / (2 * h), 6);
      expect(got.D.v[i]).toBeCloseTo((a.D.v[i] - b.D.v[i]) / (2 * h), 6);
    }
    for (let k = 0; k < 18; k++) {
      expect(got.P.d[k]).toBeCloseTo((a.P.d[k] - b.P.d[k]) / (2 * h), 6);
      expect(got.D.d[k]).toBeCloseTo((a.D.d[k] - b.D.d[k]) / (2 * h), 6);
    }
  });
  it('tangent mode is off outside withTangents: no tangent is written', () => {
    const a = new Dual(2);
    dSeed(a, 1, 0);
    expect(a.t).toBeNull();
  });
});
