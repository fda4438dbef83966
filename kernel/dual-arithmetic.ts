/**
 * Forward-mode automatic differentiation, the arithmetic: a dual number carries a value and
 * a small vector of derivatives (one per seeded input, e.g. the 6-dof steps of two poses = 12).
 *
 * Every operation writes into a caller-owned `out` (allocated once, e.g. when a residual
 * block is built), so differentiating a block on every Newton iteration allocates nothing.
 * `out` may alias an input: values are read before anything is written, and derivative
 * components are independent of each other.
 *
 * The scalar and 3-vector ops live here with their tangent-mode rules, which call the ops
 * back (so the two cannot be split apart without a cycle). Seeding from posed bodies is
 * dual-seed.ts; the public face of all of it is dual.ts.
 */
import { InternalError } from './errors';
import { Dual, DualVec3, type TangentSeeds } from './dual-number';

export { Dual, DualVec3, fastProperties, narrowedScratch, type TangentSeeds } from './dual-number';

/** A constant: value v, all derivatives zero. */
export function dConst(out: Dual, v: number): Dual {
  if (tangents) tZero(out);
  out.v = v; out.d.fill(0); return out;
}
/** An independent input: value v, derivative one in component k. */
export function dSeed(out: Dual, v: number, k: number): Dual {
  if (tangents) tSeed(out, k);
  out.v = v; out.d.fill(0); out.d[k] = 1; return out;
}
export function dCopy(out: Dual, a: Dual): Dual {
  if (tangents) tCopy(out, a);
  out.v = a.v; out.d.set(a.d); return out;
}
export function dAdd(out: Dual, a: Dual, b: Dual): Dual {
  if (tangents) tAdd(out, a, b, 1);
  out.v = a.v + b.v;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i];
  return out;
}
export function dSub(out: Dual, a: Dual, b: Dual): Dual {
  if (tangents) tAdd(out, a, b, -1);
  out.v = a.v - b.v;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] - bd[i];
  return out;
}
export function dMul(out: Dual, a: Dual, b: Dual): Dual {
  if (tangents) tMul(out, a, b);
  const av = a.v, bv = b.v;
  out.v = av * bv;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * bv + bd[i] * av;
  return out;
}
export function dDiv(out: Dual, a: Dual, b: Dual): Dual {
  if (tangents) tDiv(out, a, b);
  const av = a.v, bv = b.v;
  const q = av / bv;
  out.v = q;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = (ad[i] - q * bd[i]) / bv;
  return out;
}
/** out = a·k for a plain number k. */
export function dScale(out: Dual, a: Dual, k: number): Dual {
  if (tangents) tScale(out, a, k);
  out.v = a.v * k;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * k;
  return out;
}
/** out = a + k for a plain number k. */
export function dAddConst(out: Dual, a: Dual, k: number): Dual {
  if (tangents) tCopy(out, a);
  out.v = a.v + k;
  if (out !== a) out.d.set(a.d);
  return out;
}
/** out = a + b·k (axpy), k a plain number. */
export function dAddScaled(out: Dual, a: Dual, b: Dual, k: number): Dual {
  if (tangents) tAdd(out, a, b, k);
  out.v = a.v + b.v * k;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i] * k;
  return out;
}
export function dNeg(out: Dual, a: Dual): Dual {
  return dScale(out, a, -1);
}
/**
 * Apply a scalar function with known value f and slope df at a.v; ddf (its curvature)
 * is needed only in tangent mode.
 */
export function dChain(out: Dual, a: Dual, f: number, df: number, ddf?: number): Dual {
  if (tangents) tChain(out, a, df, ddf);
  out.v = f;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * df;
  return out;
}
export function dSqrt(out: Dual, a: Dual): Dual {
  const r = Math.sqrt(a.v);
  return dChain(out, a, r, 0.5 / r, -0.25 / (r * a.v));
}
export function dSin(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.sin(x), Math.cos(x), -Math.sin(x));
}
export function dCos(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.cos(x), -Math.sin(x), -Math.cos(x));
}
export function dTan(out: Dual, a: Dual): Dual {
  const t = Math.tan(a.v);
  return dChain(out, a, t, 1 + t * t, 2 * t * (1 + t * t));
}
export function dAtan(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.atan(x), 1 / (1 + x * x), (-2 * x) / ((1 + x * x) * (1 + x * x)));
}
export function dAsin(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.asin(x), 1 / Math.sqrt(1 - x * x), x / Math.pow(1 - x * x, 1.5));
}
export function dAcos(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.acos(x), -1 / Math.sqrt(1 - x * x), -x / Math.pow(1 - x * x, 1.5));
}
/** atan2(y, x) with derivative (x dy − y dx)/(x² + y²). */
export function dAtan2(out: Dual, y: Dual, x: Dual): Dual {
  if (tangents) tAtan2(out, y, x);
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

export function dvConst(out: DualVec3, x: number, y: number, z: number): DualVec3 {
  if (tangents) tvZero(out);
  out.v[0] = x; out.v[1] = y; out.v[2] = z; out.d.fill(0); return out;
}
export function dvConstFrom(out: DualVec3, a: ArrayLike<number>, offset = 0): DualVec3 {
  if (tangents) tvZero(out);
  out.v[0] = a[offset]; out.v[1] = a[offset + 1]; out.v[2] = a[offset + 2]; out.d.fill(0); return out;
}
export function dvCopy(out: DualVec3, a: DualVec3): DualVec3 {
  if (tangents) tvCopy(out, a);
  out.v.set(a.v); out.d.set(a.d); return out;
}
export function dvAdd(out: DualVec3, a: DualVec3, b: DualVec3): DualVec3 {
  if (tangents) tvAdd(out, a, b, 1);
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] + b.v[i];
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i];
  return out;
}
export function dvSub(out: DualVec3, a: DualVec3, b: DualVec3): DualVec3 {
  if (tangents) tvAdd(out, a, b, -1);
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] - b.v[i];
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] - bd[i];
  return out;
}
/** out = a + b·k, k a plain number. */
export function dvAddScaled(out: DualVec3, a: DualVec3, b: DualVec3, k: number): DualVec3 {
  if (tangents) tvAdd(out, a, b, k);
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] + b.v[i] * k;
  const od = out.d, ad = a.d, bd = b.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] + bd[i] * k;
  return out;
}
export function dvScaleConst(out: DualVec3, a: DualVec3, k: number): DualVec3 {
  if (tangents) tvScaleConst(out, a, k);
  for (let i = 0; i < 3; i++) out.v[i] = a.v[i] * k;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * k;
  return out;
}
/** out = a·s for a dual scalar s. */
export function dvScale(out: DualVec3, a: DualVec3, s: Dual): DualVec3 {
  if (tangents) tvScale(out, a, s);
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
  if (tangents) tvAddScaledDual(out, a, b, s);
  const n = out.n, sv = s.v, sd = s.d, ad = a.d, bd = b.d, od = out.d;
  for (let i = 0; i < 3; i++) {
    const bv = b.v[i];
    for (let k = 0; k < n; k++) od[i * n + k] = ad[i * n + k] + bd[i * n + k] * sv + sd[k] * bv;
    out.v[i] = a.v[i] + bv * sv;
  }
  return out;
}
export function dvDot(out: Dual, a: DualVec3, b: DualVec3): Dual {
  if (tangents) tvDot(out, a, b);
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
  if (tangents) tvDotConst(out, a, c);
  const n = out.n, ad = a.d, od = out.d;
  const c0 = c[0], c1 = c[1], c2 = c[2];
  for (let k = 0; k < n; k++) od[k] = ad[k] * c0 + ad[n + k] * c1 + ad[2 * n + k] * c2;
  out.v = a.v[0] * c0 + a.v[1] * c1 + a.v[2] * c2;
  return out;
}
export function dvCross(out: DualVec3, a: DualVec3, b: DualVec3): DualVec3 {
  if (tangents) tvCross(out, a, b);
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
  if (tangents) tvComponent(out, a, i);
  const n = out.n;
  out.v = a.v[i];
  for (let k = 0; k < n; k++) out.d[k] = a.d[i * n + k];
  return out;
}
export function dvSetComponent(out: DualVec3, i: number, s: Dual): DualVec3 {
  if (tangents) tvSetComponent(out, i, s);
  const n = out.n;
  out.v[i] = s.v;
  for (let k = 0; k < n; k++) out.d[i * n + k] = s.d[k];
  return out;
}
/** Euclidean length as a dual (undefined derivative at the zero vector: NaN there). */
export function dvLength(out: Dual, a: DualVec3): Dual {
  if (tangents) tvLength(out, a);
  const n = out.n, ad = a.d, od = out.d;
  const a0 = a.v[0], a1 = a.v[1], a2 = a.v[2];
  const l = Math.hypot(a0, a1, a2);
  for (let k = 0; k < n; k++) od[k] = (a0 * ad[k] + a1 * ad[n + k] + a2 * ad[2 * n + k]) / l;
  out.v = l;
  return out;
}
/** Unit vector along a, as a dual. */
export function dvNormalize(out: DualVec3, a: DualVec3): DualVec3 {
  if (tangents) tvNormalize(out, a);
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

// ---- tangent mode: exact second derivatives along one direction ----
//
// A dual a carries a.t, the derivative of (a.v, a.d) along an outer direction s (a
// hyper-dual restricted to one outer direction): every op above, in tangent mode, first
// writes out.t from the inputs' values and tangents by the product rule — written with the
// first-order ops themselves, tangent mode off — then does its own first-order work. The
// seeds (dSeed, dvRigidPoint, dvRigidDirection) take the outer direction from `seeds`, so a
// residual block evaluated in tangent mode yields d(Jacobian)/ds exactly.

let tangents = false;
let seeds: TangentSeeds | null = null;

/** Whether tangent mode is on (a block with a faster route than its duals takes the duals then; one that writes some derivatives by hand switches to ops that carry tangents). */
export function tangentMode(): boolean {
  return tangents;
}

/** The outer direction of tangent mode while it is on (dual-seed.ts reads it); null outside it. */
export function tangentSeeds(): TangentSeeds | null {
  return seeds;
}

/** Run f with tangent mode on: every dual written carries its tangent along `s`. */
export function withTangents<T>(s: TangentSeeds, f: () => T): T {
  if (tangents) throw new InternalError('withTangents: already in tangent mode');
  tangents = true; seeds = s;
  try { return f(); } finally { tangents = false; seeds = null; }
}

interface Scratch { s: Dual[]; v: DualVec3[]; zero: Dual; zeroV: DualVec3 }
const scratches = new Map<number, Scratch>();
function scratch(n: number): Scratch {
  let sc = scratches.get(n);
  if (!sc) {
    sc = { s: Array.from({ length: 5 }, () => new Dual(n)), v: Array.from({ length: 3 }, () => new DualVec3(n)), zero: new Dual(n), zeroV: new DualVec3(n) };
    scratches.set(n, sc);
  }
  return sc;
}
const T = (a: Dual): Dual => a.t ?? scratch(a.n).zero;
const TV = (a: DualVec3): DualVec3 => a.t ?? scratch(a.n).zeroV;
function put(out: Dual, t: Dual): void {
  const o = (out.t ??= new Dual(out.n));
  o.v = t.v; o.d.set(t.d);
}
function putV(out: DualVec3, t: DualVec3): void {
  const o = (out.t ??= new DualVec3(out.n));
  o.v.set(t.v); o.d.set(t.d);
}
/** Run the first-order ops of a tangent rule with tangent mode off. */
function off(f: () => void): void {
  tangents = false;
  try { f(); } finally { tangents = true; }
}

function tZero(out: Dual): void { if (out.t) dConstRaw(out.t); }
function dConstRaw(a: Dual): void { a.v = 0; a.d.fill(0); }
function tSeed(out: Dual, k: number): void {
  const o = (out.t ??= new Dual(out.n));
  o.v = seeds!.scalar(k); o.d.fill(0);
}
function tCopy(out: Dual, a: Dual): void { put(out, T(a)); }
function tAdd(out: Dual, a: Dual, b: Dual, k: number): void {
  const [t] = scratch(out.n).s;
  off(() => dAddScaled(t, T(a), T(b), k));
  put(out, t);
}
function tMul(out: Dual, a: Dual, b: Dual): void {
  const [t, u] = scratch(out.n).s;
  off(() => { dMul(t, T(a), b); dMul(u, a, T(b)); dAdd(t, t, u); });
  put(out, t);
}
function tDiv(out: Dual, a: Dual, b: Dual): void {
  const [t, q] = scratch(out.n).s;
  // (a/b)' = (a' − (a/b)·b')/b
  off(() => { dDiv(q, a, b); dMul(q, q, T(b)); dSub(t, T(a), q); dDiv(t, t, b); });
  put(out, t);
}
function tScale(out: Dual, a: Dual, k: number): void {
  const [t] = scratch(out.n).s;
  off(() => dScale(t, T(a), k));
  put(out, t);
}
function tChain(out: Dual, a: Dual, df: number, ddf: number | undefined): void {
  const [t, slope] = scratch(out.n).s;
  if (ddf === undefined) {
    // without the curvature only the value's tangent is known: the rest is poisoned (NaN), never silently wrong
    const o = (out.t ??= new Dual(out.n));
    o.v = df * T(a).v; o.d.fill(NaN);
    return;
  }
  // f(a)' = f'(a)·a', f'(a) a dual of value df and derivative ddf·a.d
  off(() => { dChain(slope, a, df, ddf); dMul(t, slope, T(a)); });
  put(out, t);
}
function tAtan2(out: Dual, y: Dual, x: Dual): void {
  const [t, u, r2, w] = scratch(out.n).s;
  // atan2(y, x)' = (x y' − y x')/(x² + y²)
  off(() => { dMul(t, x, T(y)); dMul(u, y, T(x)); dSub(t, t, u); dMul(r2, x, x); dMul(w, y, y); dAdd(r2, r2, w); dDiv(t, t, r2); });
  put(out, t);
}
function tvZero(out: DualVec3): void { if (out.t) { out.t.v.fill(0); out.t.d.fill(0); } }
function tvCopy(out: DualVec3, a: DualVec3): void { putV(out, TV(a)); }
function tvAdd(out: DualVec3, a: DualVec3, b: DualVec3, k: number): void {
  const [t] = scratch(out.n).v;
  off(() => dvAddScaled(t, TV(a), TV(b), k));
  putV(out, t);
}
function tvScaleConst(out: DualVec3, a: DualVec3, k: number): void {
  const [t] = scratch(out.n).v;
  off(() => dvScaleConst(t, TV(a), k));
  putV(out, t);
}
function tvScale(out: DualVec3, a: DualVec3, s: Dual): void {
  const [t, u] = scratch(out.n).v;
  off(() => { dvScale(t, TV(a), s); dvScale(u, a, T(s)); dvAdd(t, t, u); });
  putV(out, t);
}
function tvAddScaledDual(out: DualVec3, a: DualVec3, b: DualVec3, s: Dual): void {
  const [t] = scratch(out.n).v;
  off(() => { dvAddScaledDual(t, TV(a), TV(b), s); dvAddScaledDual(t, t, b, T(s)); });
  putV(out, t);
}
function tvDot(out: Dual, a: DualVec3, b: DualVec3): void {
  const [t, u] = scratch(out.n).s;
  off(() => { dvDot(t, TV(a), b); dvDot(u, a, TV(b)); dAdd(t, t, u); });
  put(out, t);
}
function tvDotConst(out: Dual, a: DualVec3, c: ArrayLike<number>): void {
  const [t] = scratch(out.n).s;
  off(() => dvDotConst(t, TV(a), c));
  put(out, t);
}
function tvCross(out: DualVec3, a: DualVec3, b: DualVec3): void {
  const [t, u] = scratch(out.n).v;
  off(() => { dvCross(t, TV(a), b); dvCross(u, a, TV(b)); dvAdd(t, t, u); });
  putV(out, t);
}
function tvComponent(out: Dual, a: DualVec3, i: number): void {
  const [t] = scratch(out.n).s;
  off(() => dvComponent(t, TV(a), i));
  put(out, t);
}
function tvSetComponent(out: DualVec3, i: number, s: Dual): void {
  const o = (out.t ??= new DualVec3(out.n));
  off(() => dvSetComponent(o, i, T(s)));
}
function tvLength(out: Dual, a: DualVec3): void {
  const [t, l] = scratch(out.n).s;
  // |a|' = a·a'/|a|
  off(() => { dvLength(l, a); dvDot(t, a, TV(a)); dDiv(t, t, l); });
  put(out, t);
}
function tvNormalize(out: DualVec3, a: DualVec3): void {
  const [l, along, one, inv] = scratch(out.n).s;
  const [t, u] = scratch(out.n).v;
  // (a/|a|)' = (a' − u (u·a'))/|a|
  off(() => {
    dvNormalize(u, a); dvLength(l, a); dvDot(along, u, TV(a));
    dvScale(t, u, along); dvSub(t, TV(a), t);
    dConst(one, 1); dDiv(inv, one, l); dvScale(t, t, inv);
  });
  putV(out, t);
}
