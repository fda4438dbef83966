/**
 * Forward-mode automatic differentiation: a dual number carries a value and a small
 * vector of derivatives (one per seeded input, e.g. the 6-dof steps of two poses = 12).
 *
 * Every operation writes into a caller-owned `out` (allocated once, e.g. when a residual
 * block is built), so differentiating a block on every Newton iteration allocates nothing.
 * `out` may alias an input: values are read before anything is written, and derivative
 * components are independent of each other.
 */
import { toMatrix } from './quat';

export class Dual {
  v = 0;
  readonly d: Float64Array;
  constructor(readonly n: number, value = 0) {
    this.d = new Float64Array(n);
    this.v = value;
  }
}

/** A constant: value v, all derivatives zero. */
export function dConst(out: Dual, v: number): Dual {
  out.v = v; out.d.fill(0); return out;
}
/** An independent input: value v, derivative one in component k. */
export function dSeed(out: Dual, v: number, k: number): Dual {
  out.v = v; out.d.fill(0); out.d[k] = 1; return out;
}
export function dCopy(out: Dual, a: Dual): Dual {
  out.v = a.v; out.d.set(a.d); return out;
}
export function dAdd(out: Dual, a: Dual, b: Dual): Dual {
  out.v = a.v + b.v;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i];
  return out;
}
export function dSub(out: Dual, a: Dual, b: Dual): Dual {
  out.v = a.v - b.v;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] - bd[i];
  return out;
}
export function dMul(out: Dual, a: Dual, b: Dual): Dual {
  const av = a.v, bv = b.v;
  out.v = av * bv;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * bv + bd[i] * av;
  return out;
}
export function dDiv(out: Dual, a: Dual, b: Dual): Dual {
  const av = a.v, bv = b.v;
  const q = av / bv;
  out.v = q;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = (ad[i] - q * bd[i]) / bv;
  return out;
}
/** out = a·k for a plain number k. */
export function dScale(out: Dual, a: Dual, k: number): Dual {
  out.v = a.v * k;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * k;
  return out;
}
/** out = a + k for a plain number k. */
export function dAddConst(out: Dual, a: Dual, k: number): Dual {
  out.v = a.v + k;
  if (out !== a) out.d.set(a.d);
  return out;
}
/** out = a + b·k (axpy), k a plain number. */
export function dAddScaled(out: Dual, a: Dual, b: Dual, k: number): Dual {
  out.v = a.v + b.v * k;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i] * k;
  return out;
}
export function dNeg(out: Dual, a: Dual): Dual {
  return dScale(out, a, -1);
}
/** Apply a scalar function with known value f and slope df at a.v. */
export function dChain(out: Dual, a: Dual, f: number, df: number): Dual {
  out.v = f;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * df;
  return out;
}
export function dSqrt(out: Dual, a: Dual): Dual {
  const r = Math.sqrt(a.v);
  return dChain(out, a, r, 0.5 / r);
}
export function dSin(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.sin(x), Math.cos(x));
}
export function dCos(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.cos(x), -Math.sin(x));
}
export function dTan(out: Dual, a: Dual): Dual {
  const t = Math.tan(a.v);
  return dChain(out, a, t, 1 + t * t);
}
export function dAtan(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.atan(x), 1 / (1 + x * x));
}
export function dAsin(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.asin(x), 1 / Math.sqrt(1 - x * x));
}
export function dAcos(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.acos(x), -1 / Math.sqrt(1 - x * x));
}
/** atan2(y, x) with derivative (x dy − y dx)/(x² + y²). */
export function dAtan2(out: Dual, y: Dual, x: Dual): Dual {
  const yv = y.v, xv = x.v;
  const r2 = xv * xv + yv * yv;
  out.v = Math.atan2(yv, xv);
  const od = out.d, yd = y.d, xd = x.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = (xv * yd[i] - yv * xd[i]) / r2;
  return out;
}
/** |a| with the derivative's sign taken from a (slope +1 at 0 by convention). */
export function dAbs(out: Dual, a: Dual): Dual {
  return a.v < 0 ? dScale(out, a, -1) : dCopy(out, a);
}

/**
 * A dual 3-vector: values v[0..2] and derivatives d[i·n + k] = ∂v_i/∂x_k.
 */
export class DualVec3 {
  readonly v = new Float64Array(3);
  readonly d: Float64Array;
  constructor(readonly n: number) {
    this.d = new Float64Array(3 * n);
  }
}

/**
 * A fresh dual scratch of width n in place of x (a Dual, a DualVec3, or an array of them);
 * anything else is returned as is. For a block's narrower twin (fewer seeded columns, or
 * none: values only).
 */
export function narrowedScratch(x: unknown, n: number): unknown {
  if (x instanceof Dual) return new Dual(n);
  if (x instanceof DualVec3) return new DualVec3(n);
  if (Array.isArray(x) && x.length > 0 && x.every((y) => y instanceof Dual || y instanceof DualVec3)) return x.map((y) => narrowedScratch(y, n));
  return x;
}

/**
 * An object built by copying many fields (a block's twin) is left in V8's slow dictionary
 * mode; becoming some object's prototype makes it fast again (its map then is its own).
 */
export function fastProperties(o: object): void {
  Object.setPrototypeOf({}, o);
}

export function dvConst(out: DualVec3, x: number, y: number, z: number): DualVec3 {
  out.v[0] = x; out.v[1] = y; out.v[2] = z; out.d.fill(0); return out;
}
export function dvConstFrom(out: DualVec3, a: ArrayLike<number>, offset = 0): DualVec3 {
  out.v[0] = a[offset]; out.v[1] = a[offset + 1]; out.v[2] = a[offset + 2]; out.d.fill(0); return out;
}
export function dvCopy(out: DualVec3, a: DualVec3): DualVec3 {
  out.v.set(a.v); out.d.set(a.d); return out;
}
export function dvAdd(out: DualVec3, a: DualVec3, b: DualVec3): DualVec3 {
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] + b.v[i];
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i];
  return out;
}
export function dvSub(out: DualVec3, a: DualVec3, b: DualVec3): DualVec3 {
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] - b.v[i];
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] - bd[i];
  return out;
}
/** out = a + b·k, k a plain number. */
export function dvAddScaled(out: DualVec3, a: DualVec3, b: DualVec3, k: number): DualVec3 {
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] + b.v[i] * k;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i] * k;
  return out;
}
export function dvScaleConst(out: DualVec3, a: DualVec3, k: number): DualVec3 {
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] * k;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * k;
  return out;
}
/** out = a·s for a dual scalar s. */
export function dvScale(out: DualVec3, a: DualVec3, s: Dual): DualVec3 {
  const n = out.n, sv = s.v, sd = s.d, ad = a.d, od = out.d;
  for (let i = 0; i < 3; i++) {
    const av = a.v[i];
    for (let k = 0; k < n; k++) od[i * n + k] = ad[i * n + k] * sv + sd[k] * av;
    out.v[i] = av * sv;
  }
  return out;
}
/** out = a + b·s for a dual scalar s. */
export function dvAddScaledDual(out: DualVec3, a: DualVec3, b: DualVec3, s: Dual): DualVec3 {
  const n = out.n, sv = s.v, sd = s.d, ad = a.d, bd = b.d, od = out.d;
  for (let i = 0; i < 3; i++) {
    const bv = b.v[i];
    for (let k = 0; k < n; k++) od[i * n + k] = ad[i * n + k] + bd[i * n + k] * sv + sd[k] * bv;
    out.v[i] = a.v[i] + bv * sv;
  }
  return out;
}
export function dvDot(out: Dual, a: DualVec3, b: DualVec3): Dual {
  const n = out.n, ad = a.d, bd = b.d, od = out.d;
  const a0 = a.v[0], a1 = a.v[1], a2 = a.v[2], b0 = b.v[0], b1 = b.v[1], b2 = b.v[2];
  for (let k = 0; k < n; k++) {
    od[k] = ad[k] * b0 + ad[n + k] * b1 + ad[2 * n + k] * b2
      + bd[k] * a0 + bd[n + k] * a1 + bd[2 * n + k] * a2;
  }
  out.v = a0 * b0 + a1 * b1 + a2 * b2;
  return out;
}
/** Dot with a constant vector c. */
export function dvDotConst(out: Dual, a: DualVec3, c: ArrayLike<number>): Dual {
  const n = out.n, ad = a.d, od = out.d;
  const c0 = c[0], c1 = c[1], c2 = c[2];
  for (let k = 0; k < n; k++) od[k] = ad[k] * c0 + ad[n + k] * c1 + ad[2 * n + k] * c2;
  out.v = a.v[0] * c0 + a.v[1] * c1 + a.v[2] * c2;
  return out;
}
export function dvCross(out: DualVec3, a: DualVec3, b: DualVec3): DualVec3 {
  const n = out.n, ad = a.d, bd = b.d, od = out.d;
  const a0 = a.v[0], a1 = a.v[1], a2 = a.v[2], b0 = b.v[0], b1 = b.v[1], b2 = b.v[2];
  for (let k = 0; k < n; k++) {
    const da0 = ad[k], da1 = ad[n + k], da2 = ad[2 * n + k];
    const db0 = bd[k], db1 = bd[n + k], db2 = bd[2 * n + k];
    od[k] = da1 * b2 + a1 * db2 - da2 * b1 - a2 * db1;
    od[n + k] = da2 * b0 + a2 * db0 - da0 * b2 - a0 * db2;
    od[2 * n + k] = da0 * b1 + a0 * db1 - da1 * b0 - a1 * db0;
  }
  out.v[0] = a1 * b2 - a2 * b1; out.v[1] = a2 * b0 - a0 * b2; out.v[2] = a0 * b1 - a1 * b0;
  return out;
}
export function dvComponent(out: Dual, a: DualVec3, i: number): Dual {
  const n = out.n;
  out.v = a.v[i];
  for (let k = 0; k < n; k++) out.d[k] = a.d[i * n + k];
  return out;
}
export function dvSetComponent(out: DualVec3, i: number, s: Dual): DualVec3 {
  const n = out.n;
  out.v[i] = s.v;
  for (let k = 0; k < n; k++) out.d[i * n + k] = s.d[k];
  return out;
}
/** Euclidean length as a dual (undefined derivative at the zero vector: NaN there). */
export function dvLength(out: Dual, a: DualVec3): Dual {
  const n = out.n, ad = a.d, od = out.d;
  const a0 = a.v[0], a1 = a.v[1], a2 = a.v[2];
  const l = Math.hypot(a0, a1, a2);
  for (let k = 0; k < n; k++) od[k] = (a0 * ad[k] + a1 * ad[n + k] + a2 * ad[2 * n + k]) / l;
  out.v = l;
  return out;
}
/** Unit vector along a, as a dual. */
export function dvNormalize(out: DualVec3, a: DualVec3): DualVec3 {
  const n = out.n, ad = a.d, od = out.d;
  const a0 = a.v[0], a1 = a.v[1], a2 = a.v[2];
  const l = Math.hypot(a0, a1, a2);
  const u0 = a0 / l, u1 = a1 / l, u2 = a2 / l;
  for (let k = 0; k < n; k++) {
    const d0 = ad[k], d1 = ad[n + k], d2 = ad[2 * n + k];
    const along = u0 * d0 + u1 * d1 + u2 * d2;
    od[k] = (d0 - u0 * along) / l;
    od[n + k] = (d1 - u1 * along) / l;
    od[2 * n + k] = (d2 - u2 * along) / l;
  }
  out.v[0] = u0; out.v[1] = u1; out.v[2] = u2;
  return out;
}

/**
 * Seed a world point of a posed body: value R(q)·p + t for the pose stored at
 * state[off..off+7] = [tx, ty, tz, qw, qx, qy, qz], with derivatives with respect to the
 * body's twist step δ = (ω, v) (body frame, `x ∘ exp(δ)`) in components col..col+5:
 * ∂/∂ω_j = R(e_j × p), ∂/∂v_j = R e_j. Pass col < 0 for a fixed body (a constant). All
 * other derivative components are zero.
 */
export function dvPosePoint(out: DualVec3, state: ArrayLike<number>, off: number, p: ArrayLike<number>, col: number): DualVec3 {
  return dvRigidPoint(out, rotationMatrix(scratchR, state, off + 3), state, off, p, col);
}
/** Like dvPosePoint for a direction d: value R d, derivative ∂/∂ω_j = R(e_j × d), none in v. */
export function dvPoseDirection(out: DualVec3, state: ArrayLike<number>, off: number, dir: ArrayLike<number>, col: number): DualVec3 {
  return dvRigidDirection(out, rotationMatrix(scratchR, state, off + 3), dir, col);
}

const scratchR = new Float64Array(9);

/**
 * dvPosePoint with the pose's rotation matrix R already computed (a block that reads the
 * same pose several times computes R once).
 */
export function dvRigidPoint(out: DualVec3, R: Float64Array, state: ArrayLike<number>, off: number, p: ArrayLike<number>, col: number): DualVec3 {
  const px = p[0], py = p[1], pz = p[2];
  out.v[0] = R[0] * px + R[1] * py + R[2] * pz + state[off];
  out.v[1] = R[3] * px + R[4] * py + R[5] * pz + state[off + 1];
  out.v[2] = R[6] * px + R[7] * py + R[8] * pz + state[off + 2];
  out.d.fill(0);
  if (col >= 0) seedRigid(out, R, px, py, pz, col, true);
  return out;
}
/** dvPoseDirection with R already computed. */
export function dvRigidDirection(out: DualVec3, R: Float64Array, dir: ArrayLike<number>, col: number): DualVec3 {
  const px = dir[0], py = dir[1], pz = dir[2];
  out.v[0] = R[0] * px + R[1] * py + R[2] * pz;
  out.v[1] = R[3] * px + R[4] * py + R[5] * pz;
  out.v[2] = R[6] * px + R[7] * py + R[8] * pz;
  out.d.fill(0);
  if (col >= 0) seedRigid(out, R, px, py, pz, col, false);
  return out;
}

function seedRigid(out: DualVec3, R: Float64Array, px: number, py: number, pz: number, col: number, withTranslation: boolean): void {
  const n = out.n, d = out.d;
  // e_x × p = (0, −pz, py); e_y × p = (pz, 0, −px); e_z × p = (−py, px, 0)
  for (let i = 0; i < 3; i++) {
    const r0 = R[3 * i], r1 = R[3 * i + 1], r2 = R[3 * i + 2];
    d[i * n + col] = -r1 * pz + r2 * py;
    d[i * n + col + 1] = r0 * pz - r2 * px;
    d[i * n + col + 2] = -r0 * py + r1 * px;
    if (withTranslation) {
      d[i * n + col + 3] = r0;
      d[i * n + col + 4] = r1;
      d[i * n + col + 5] = r2;
    }
  }
}

/** Row-major rotation matrix of the (not necessarily unit) quaternion at q[off..off+4]. */
export function rotationMatrix(out: Float64Array, q: ArrayLike<number>, off: number): Float64Array {
  return toMatrix(out, q, off);
}
