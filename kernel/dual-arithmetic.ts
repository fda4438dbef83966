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

export { Dual, DualVec3, narrowedScratch, type TangentSeeds } from './dual-number';

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
 * is needed only in tangent mode, dddf (its third derivative) only at the second level.
 */
export function dChain(out: Dual, a: Dual, f: number, df: number, ddf?: number, dddf?: number): Dual {
  if (tangents) tChain(out, a, df, ddf, dddf);
  out.v = f;
  const od = out.d, ad = a.d;
  for (let i = 0, len = od.length; i < len; i++) od[i] = ad[i] * df;
  return out;
}
export function dSqrt(out: Dual, a: Dual): Dual {
  const r = Math.sqrt(a.v);
  return dChain(out, a, r, 0.5 / r, -0.25 / (r * a.v), 0.375 / (r * a.v * a.v));
}
export function dSin(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.sin(x), Math.cos(x), -Math.sin(x), -Math.cos(x));
}
export function dCos(out: Dual, a: Dual): Dual {
  const x = a.v;
  return dChain(out, a, Math.cos(x), -Math.sin(x), -Math.cos(x), Math.sin(x));
}
export function dTan(out: Dual, a: Dual): Dual {
  const t = Math.tan(a.v);
  return dChain(out, a, t, 1 + t * t, 2 * t * (1 + t * t), 2 * (1 + t * t) * (1 + 3 * t * t));
}
export function dAtan(out: Dual, a: Dual): Dual {
  const x = a.v;
  const s = 1 + x * x;
  return dChain(out, a, Math.atan(x), 1 / s, (-2 * x) / (s * s), (6 * x * x - 2) / (s * s * s));
}
export function dAsin(out: Dual, a: Dual): Dual {
  const x = a.v;
  const c = 1 - x * x;
  return dChain(out, a, Math.asin(x), 1 / Math.sqrt(c), x / Math.pow(c, 1.5), (1 + 2 * x * x) / Math.pow(c, 2.5));
}
export function dAcos(out: Dual, a: Dual): Dual {
  const x = a.v;
  const c = 1 - x * x;
  return dChain(out, a, Math.acos(x), -1 / Math.sqrt(c), -x / Math.pow(c, 1.5), -(1 + 2 * x * x) / Math.pow(c, 2.5));
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

// ---- tangent mode: exact second derivatives along an outer direction, and mixed third ----
//
// A dual a carries a.t, the derivative of (a.v, a.d) along an outer direction s (a
// hyper-dual restricted to one outer direction): every op above, in tangent mode, first
// writes out.t from the inputs' values and tangents by the product rule — written with the
// first-order ops themselves — then does its own first-order work. The seeds (dSeed,
// dvRigidPoint, dvRigidDirection) take the outer direction from `seeds`, so a residual block
// evaluated in tangent mode yields d(Jacobian)/ds exactly.
//
// The second level (withSecondTangents) adds a second outer direction r, applied before s
// (the state at q∘exp(r·w_r)∘exp(s·w_s)): a.t2, the derivative of (a.v, a.d) along r, and
// a.t.t2, that of a.t along r — so a block yields d²(Jacobian)/dr ds, the constraints' third
// derivatives a loaded state's curvature needs as it moves. Each rule runs once per level on:
// level 1's with level 2 still on (its ops then carry t2, which is the mixed term), level 2's
// with both off. Each level has its own scratch.

let tangents = false; // some level on: the ops' one test
let on1 = false, on2 = false;
let seeds: TangentSeeds | null = null, seeds2: TangentSeeds | null = null;
/** The level the running rule writes: 1 → a.t, 2 → a.t2. */
let cur: 1 | 2 = 1;

/** Whether tangent mode is on (a block with a faster route than its duals takes the duals then; one that writes some derivatives by hand switches to ops that carry tangents). */
export function tangentMode(): boolean {
  return tangents;
}

/** The outer direction of tangent mode while it is on (dual-seed.ts reads it); null outside it. */
export function tangentSeeds(): TangentSeeds | null {
  return on1 ? seeds : null;
}

/** The second level's outer direction while it is on (dual-seed.ts reads it); null outside it. */
export function secondTangentSeeds(): TangentSeeds | null {
  return on2 ? seeds2 : null;
}

/** Run f with tangent mode on: every dual written carries its tangent along `s`. */
export function withTangents<T>(s: TangentSeeds, f: () => T): T {
  if (tangents) throw new InternalError('withTangents: already in tangent mode');
  tangents = on1 = true; seeds = s;
  try { return f(); } finally { tangents = on1 = false; seeds = null; }
}

/**
 * Run f with both levels on: every dual written carries a.t along `s`, a.t2 along `r` and
 * a.t.t2, the derivative of a.t along r (r moves the state first, then s from there).
 */
export function withSecondTangents<T>(s: TangentSeeds, r: TangentSeeds, f: () => T): T {
  if (tangents) throw new InternalError('withSecondTangents: already in tangent mode');
  tangents = on1 = on2 = true; seeds = s; seeds2 = r;
  try { return f(); } finally { tangents = on1 = on2 = false; seeds = seeds2 = null; }
}

/** Run a rule once per level on: level 1's with level 2 still on, level 2's with both off. */
function rule(body: () => void): void {
  const w1 = on1, w2 = on2, wc = cur;
  try {
    if (w1) { on1 = false; tangents = w2; cur = 1; body(); }
    if (w2) { on1 = on2 = tangents = false; cur = 2; body(); }
  } finally { on1 = w1; on2 = w2; tangents = w1 || w2; cur = wc; }
}

interface Scratch { s: Dual[]; v: DualVec3[]; zero: Dual; zeroV: DualVec3 }
const scratches = [new Map<number, Scratch>(), new Map<number, Scratch>()];
function scratch(n: number): Scratch {
  const pool = scratches[cur - 1];
  let sc = pool.get(n);
  if (!sc) {
    sc = { s: Array.from({ length: 5 }, () => new Dual(n)), v: Array.from({ length: 3 }, () => new DualVec3(n)), zero: new Dual(n), zeroV: new DualVec3(n) };
    pool.set(n, sc);
  }
  return sc;
}
/** The running level's tangent of a (zero where it has none). */
const T = (a: Dual): Dual => (cur === 1 ? a.t : a.t2) ?? scratch(a.n).zero;
const TV = (a: DualVec3): DualVec3 => (cur === 1 ? a.t : a.t2) ?? scratch(a.n).zeroV;
/** The running level's tangent of out, made where it has none. */
const own = (out: Dual): Dual => (cur === 1 ? (out.t ??= new Dual(out.n)) : (out.t2 ??= new Dual(out.n)));
const ownV = (out: DualVec3): DualVec3 => (cur === 1 ? (out.t ??= new DualVec3(out.n)) : (out.t2 ??= new DualVec3(out.n)));
function put(out: Dual, t: Dual): void {
  const o = own(out);
  o.v = t.v; o.d.set(t.d);
  // level 1 under level 2: the tangent's own rate along r
  if (cur === 1 && on2) { const m = (o.t2 ??= new Dual(o.n)), r = t.t2; if (r) { m.v = r.v; m.d.set(r.d); } else { m.v = 0; m.d.fill(0); } }
}
function putV(out: DualVec3, t: DualVec3): void {
  const o = ownV(out);
  o.v.set(t.v); o.d.set(t.d);
  if (cur === 1 && on2) { const m = (o.t2 ??= new DualVec3(o.n)), r = t.t2; if (r) { m.v.set(r.v); m.d.set(r.d); } else { m.v.fill(0); m.d.fill(0); } }
}

function tZero(out: Dual): void {
  rule(() => { const o = cur === 1 ? out.t : out.t2; if (o) { o.v = 0; o.d.fill(0); if (cur === 1 && on2 && o.t2) { o.t2.v = 0; o.t2.d.fill(0); } } });
}
function tSeed(out: Dual, k: number): void {
  rule(() => { const [t] = scratch(out.n).s; dConst(t, (cur === 1 ? seeds : seeds2)!.scalar(k)); put(out, t); });
}
function tCopy(out: Dual, a: Dual): void { rule(() => put(out, T(a))); }
function tAdd(out: Dual, a: Dual, b: Dual, k: number): void {
  rule(() => { const [t] = scratch(out.n).s; dAddScaled(t, T(a), T(b), k); put(out, t); });
}
function tMul(out: Dual, a: Dual, b: Dual): void {
  rule(() => { const [t, u] = scratch(out.n).s; dMul(t, T(a), b); dMul(u, a, T(b)); dAdd(t, t, u); put(out, t); });
}
function tDiv(out: Dual, a: Dual, b: Dual): void {
  // (a/b)' = (a' − (a/b)·b')/b
  rule(() => { const [t, q] = scratch(out.n).s; dDiv(q, a, b); dMul(q, q, T(b)); dSub(t, T(a), q); dDiv(t, t, b); put(out, t); });
}
function tScale(out: Dual, a: Dual, k: number): void {
  rule(() => { const [t] = scratch(out.n).s; dScale(t, T(a), k); put(out, t); });
}
function tChain(out: Dual, a: Dual, df: number, ddf: number | undefined, dddf: number | undefined): void {
  rule(() => {
    const [t, slope] = scratch(out.n).s;
    if (ddf === undefined) {
      // without the curvature only the value's tangent is known: the rest is poisoned (NaN), never silently wrong
      const o = own(out);
      o.v = df * T(a).v; o.d.fill(NaN);
      if (cur === 1 && on2) { const m = (o.t2 ??= new Dual(o.n)); m.v = NaN; m.d.fill(NaN); }
      return;
    }
    // f(a)' = f'(a)·a', f'(a) a dual of value df and derivative ddf·a.d (and, under level 2, curvature dddf)
    dChain(slope, a, df, ddf, dddf); dMul(t, slope, T(a)); put(out, t);
  });
}
function tAtan2(out: Dual, y: Dual, x: Dual): void {
  // atan2(y, x)' = (x y' − y x')/(x² + y²)
  rule(() => {
    const [t, u, r2, w] = scratch(out.n).s;
    dMul(t, x, T(y)); dMul(u, y, T(x)); dSub(t, t, u); dMul(r2, x, x); dMul(w, y, y); dAdd(r2, r2, w); dDiv(t, t, r2);
    put(out, t);
  });
}
function tvZero(out: DualVec3): void {
  rule(() => { const o = cur === 1 ? out.t : out.t2; if (o) { o.v.fill(0); o.d.fill(0); if (cur === 1 && on2 && o.t2) { o.t2.v.fill(0); o.t2.d.fill(0); } } });
}
function tvCopy(out: DualVec3, a: DualVec3): void { rule(() => putV(out, TV(a))); }
function tvAdd(out: DualVec3, a: DualVec3, b: DualVec3, k: number): void {
  rule(() => { const [t] = scratch(out.n).v; dvAddScaled(t, TV(a), TV(b), k); putV(out, t); });
}
function tvScaleConst(out: DualVec3, a: DualVec3, k: number): void {
  rule(() => { const [t] = scratch(out.n).v; dvScaleConst(t, TV(a), k); putV(out, t); });
}
function tvScale(out: DualVec3, a: DualVec3, s: Dual): void {
  rule(() => { const [t, u] = scratch(out.n).v; dvScale(t, TV(a), s); dvScale(u, a, T(s)); dvAdd(t, t, u); putV(out, t); });
}
function tvAddScaledDual(out: DualVec3, a: DualVec3, b: DualVec3, s: Dual): void {
  rule(() => { const [t] = scratch(out.n).v; dvAddScaledDual(t, TV(a), TV(b), s); dvAddScaledDual(t, t, b, T(s)); putV(out, t); });
}
function tvDot(out: Dual, a: DualVec3, b: DualVec3): void {
  rule(() => { const [t, u] = scratch(out.n).s; dvDot(t, TV(a), b); dvDot(u, a, TV(b)); dAdd(t, t, u); put(out, t); });
}
function tvDotConst(out: Dual, a: DualVec3, c: ArrayLike<number>): void {
  rule(() => { const [t] = scratch(out.n).s; dvDotConst(t, TV(a), c); put(out, t); });
}
function tvCross(out: DualVec3, a: DualVec3, b: DualVec3): void {
  rule(() => { const [t, u] = scratch(out.n).v; dvCross(t, TV(a), b); dvCross(u, a, TV(b)); dvAdd(t, t, u); putV(out, t); });
}
function tvComponent(out: Dual, a: DualVec3, i: number): void {
  rule(() => { const [t] = scratch(out.n).s; dvComponent(t, TV(a), i); put(out, t); });
}
function tvSetComponent(out: DualVec3, i: number, s: Dual): void {
  rule(() => dvSetComponent(ownV(out), i, T(s)));
}
function tvLength(out: Dual, a: DualVec3): void {
  // |a|' = a·a'/|a|
  rule(() => { const [t, l] = scratch(out.n).s; dvLength(l, a); dvDot(t, a, TV(a)); dDiv(t, t, l); put(out, t); });
}
function tvNormalize(out: DualVec3, a: DualVec3): void {
  // (a/|a|)' = (a' − u (u·a'))/|a|
  rule(() => {
    const [l, along, one, inv] = scratch(out.n).s;
    const [t, u] = scratch(out.n).v;
    dvNormalize(u, a); dvLength(l, a); dvDot(along, u, TV(a));
    dvScale(t, u, along); dvSub(t, TV(a), t);
    dConst(one, 1); dDiv(inv, one, l); dvScale(t, t, inv);
    putV(out, t);
  });
}
