/**
 * Exact hardpoint gradients of a corner's `*_virtual` metrics (the five steering-axis
 * metrics on the screw axis of the steering response, src/suspension/steering.ts):
 * second derivatives, by the tangent pass of the `deriv_*` (derivative-sensitivity.ts
 * `coordinateTangents`), never by differences.
 *
 * At a state driven by the hub-z row and the rack row, the hub and rack motions q̇_h, q̇_r
 * span the mechanism's motions. The steering response (unit rack, the hold still) is
 * q̇_s ∝ q̇_r − c q̇_h with c = h_r / h_h, h_j the hold row's rate along q̇_j (the rack row
 * does not move along q̇_h). The axis is that of the upright's twist along q̇_s, and it does
 * not depend on the twist's scale, so the rack normalisation drops out. Along a hardpoint
 * coordinate every ingredient has a derivative: the upright points' positions and rates
 * (their tangents in the pass), h_j (a coordinate: its entry of dq̇_j/ds; a length: from
 * its end points' tangents), hence c, the twist (from three upright points:
 * ω = (Δr_a × Δr_b)/(Δr_a · Δb), rigid), the axis (point ω × v₀/|ω|², direction ω/|ω|),
 * and the metrics on the wheel frame, which the pass differentiates with the axis.
 *
 * Holds: a coordinate, a length, `wheel_center_height` or `contact_patch` (the upright's
 * material point at the contact centre: its road-normal rate from each direction's twist,
 * the point moving with the contact centre), one row in all; several rows: null.
 */
import { Dual, DualVec3 } from '../../kernel/dual';
import type { TangentSpace } from '../../kernel/analysis';
import { coordinateTangents } from './derivative-sensitivity';
import { driverRowsOf, solve } from './roll-centre-sensitivity';
import { uprightPoints } from './steering';
import type { DriverParameters, SensitivityModel, StateFactors } from './sensitivity';
import type { PointExpr } from './targets';

export const VIRTUAL_METRICS = [
  'caster_virtual', 'kpi_virtual', 'steering_axis_offset_ground_virtual', 'scrub_radius_virtual', 'mechanical_trail_virtual',
] as const;

/** The virtual metrics a model offers on request: a steered corner file's. */
export function virtualMetricsOf(model: SensitivityModel): readonly string[] {
  return model.sides.length === 1 && model.sm.rackHold ? VIRTUAL_METRICS : [];
}

/** A value with its derivative along one hardpoint coordinate. */
export interface T { v: number; t: number }
export type V = [T, T, T];
export const tt = (v: number, t: number): T => ({ v, t });
const add = (a: T, b: T): T => tt(a.v + b.v, a.t + b.t);
const sub = (a: T, b: T): T => tt(a.v - b.v, a.t - b.t);
const mul = (a: T, b: T): T => tt(a.v * b.v, a.t * b.v + a.v * b.t);
const div = (a: T, b: T): T => tt(a.v / b.v, (a.t * b.v - a.v * b.t) / (b.v * b.v));
const vsub = (a: V, b: V): V => [sub(a[0], b[0]), sub(a[1], b[1]), sub(a[2], b[2])];
const vscale = (a: V, k: T): V => [mul(a[0], k), mul(a[1], k), mul(a[2], k)];
const vdiv = (a: V, k: T): V => [div(a[0], k), div(a[1], k), div(a[2], k)];
const dot = (a: V, b: V): T => add(add(mul(a[0], b[0]), mul(a[1], b[1])), mul(a[2], b[2]));
const cross = (a: V, b: V): V => [
  sub(mul(a[1], b[2]), mul(a[2], b[1])), sub(mul(a[2], b[0]), mul(a[0], b[2])), sub(mul(a[0], b[1]), mul(a[1], b[0])),
];
const sqrtT = (a: T): T => { const s = Math.sqrt(a.v); return tt(s, a.t / (2 * s)); };

/** Position of a pass's point dual with its tangent. */
export const position = (p: DualVec3): V => [0, 1, 2].map((i) => tt(p.v[i], p.t ? p.t.v[i] : 0)) as V;
/** Its rate along direction j with its tangent. */
export const rateOf = (p: DualVec3, j: number): V => [0, 1, 2].map((i) => tt(p.d[i * p.n + j], p.t ? p.t.d[i * p.n + j] : 0)) as V;

/** A line as width-n duals whose tangents carry the derivative (for the metrics in tangent mode). */
export function tangentVec(n: number, a: V): DualVec3 {
  const out = new DualVec3(n);
  out.t = new DualVec3(n);
  for (let i = 0; i < 3; i++) { out.v[i] = a[i].v; out.t.v[i] = a[i].t; }
  return out;
}

export type HoldRow = { kind: 'coordinate'; variable: number } | { kind: 'length'; a: PointExpr; b: PointExpr } | { kind: 'wheel_center_height' } | { kind: 'contact_patch' };

/** The twist (ω, velocity at the origin) of a rigid body from its points p and their rates r. */
export function twistOf(p: V[], r: V[]): { w: V; v0: V } | null {
  // the best-conditioned triple for ω = (Δr_a × Δr_b)/(Δr_a · Δb)
  let best: { w: V; score: number } | null = null;
  for (let i = 1; i < p.length; i++) for (let j = i + 1; j < p.length; j++) {
    const da = vsub(p[i], p[0]), db = vsub(p[j], p[0]);
    const ra = vsub(r[i], r[0]), rb = vsub(r[j], r[0]);
    const den = dot(ra, db);
    const n = cross(da, db);
    const score = Math.abs(den.v) / Math.sqrt(dot(n, n).v * dot(ra, ra).v || 1);
    if (!best || score > best.score) best = { w: vdiv(cross(ra, rb), den), score };
  }
  if (!best || !(best.score > 1e-9)) return null;
  return { w: best.w, v0: vsub(r[0], cross(best.w, p[0])) };
}

/**
 * The steering response's screw axis (a corner's, under one hold row) with its tangent along
 * the pass's hardpoint coordinate: dirs = [hub, rack] motions, dirDots their rates; inside
 * the tangent pass (coordinateTangents' run). Null where it has none.
 */
export function steeringResponseAxis(model: SensitivityModel, f: StateFactors, hold: HoldRow, dirs: readonly Float64Array[], dirDots: readonly Float64Array[], space: TangentSpace): { point: V; direction: V } | null {
  const sm = model.sm;
  const dual = (e: PointExpr) => sm.pointDual(e, space, dirs, 2);
  const pts = uprightPoints(sm.corners[0]).exprs.map((e) => dual(e));
  const p = pts.map(position);
  // the hold row's rate along each direction, with its derivative
  let h: [T, T];
  if (hold.kind === 'coordinate') {
    const col = f.layout[hold.variable];
    if (col < 0) return null;
    h = [tt(dirs[0][col], dirDots[0][col]), tt(dirs[1][col], dirDots[1][col])];
  } else if (hold.kind === 'contact_patch') {
    // the road-normal (z: a corner's road is horizontal) rate of the upright's material
    // point now at the contact centre, which moves with the points
    const x = position(sm.evaluate({ rates: space }).corners[0].points.wheel_contact_centre);
    const tw = [0, 1].map((j) => twistOf(p, pts.map((q) => rateOf(q, j))));
    if (!tw[0] || !tw[1]) return null;
    h = [0, 1].map((j) => add(cross(tw[j]!.w, x)[2], tw[j]!.v0[2])) as [T, T];
  } else {
    let a: DualVec3, b: DualVec3 | null = null;
    if (hold.kind === 'length') { a = dual(hold.a); b = dual(hold.b); } else a = sm.evaluate({ rates: space }).corners[0].points.wheel_center;
    const rate = (j: number): T => {
      if (!b) return rateOf(a, j)[2];
      const u = vsub(position(b), position(a));
      return div(dot(u, vsub(rateOf(b, j), rateOf(a, j))), sqrtT(dot(u, u)));
    };
    h = [rate(0), rate(1)];
  }
  if (!(Math.abs(h[0].v) > 0)) return null;
  const c = div(h[1], h[0]);
  const twist = twistOf(p, pts.map((q) => vsub(rateOf(q, 1), vscale(rateOf(q, 0), c))));
  if (!twist) return null;
  const { w, v0 } = twist;
  const ww = dot(w, w);
  const point = vdiv(cross(w, v0), ww);
  const direction = vdiv(w, sqrtT(ww));
  return { point, direction };
}

/** The corner's hold as one row, or null (unsupported or not one row). */
export function holdRow(model: SensitivityModel, holdId: string, corner = 0): HoldRow | null {
  const sm = model.sm;
  const c = sm.corners[corner];
  let id = holdId;
  if (id === 'layout_default') {
    const d = c.roles.holds.default;
    if (typeof d !== 'string') return null;
    id = d;
  }
  const rows: HoldRow[] = [];
  for (const part of id.split('+').map((s) => s.trim()).filter(Boolean)) {
    if (part === 'none') continue;
    if (part === 'wheel_center_height') { rows.push({ kind: 'wheel_center_height' }); continue; }
    if (part === 'contact_patch') { rows.push({ kind: 'contact_patch' }); continue; }
    const spec = c.roles.holds[part];
    if (!Array.isArray(spec)) return null; // an unknown id
    for (const h of spec) {
      if (typeof h === 'string') {
        const info = sm.model.coordinates.get(h);
        if (!info) return null;
        rows.push({ kind: 'coordinate', variable: info.variable });
      } else rows.push({ kind: 'length', a: sm.resolveRole(h.length[0]), b: sm.resolveRole(h.length[1]) });
    }
  }
  return rows.length === 1 ? rows[0] : null;
}

/**
 * `<side>:<name>_virtual` → value and gradient (duals over the hardpoint coordinates) at a
 * corner's state driven by its hub row and rack row, under the sweep's steering hold;
 * empty where not offered (another driver, an axle, an unsupported hold, no valid axis).
 */
export function virtualGradients(model: SensitivityModel, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, holdId: string, names: readonly string[]): Record<string, Dual> {
  const sm = model.sm;
  const wanted = VIRTUAL_METRICS.filter((m) => names.includes(m));
  if (!wanted.length || !virtualMetricsOf(model).length) return {};
  const rows = driverRowsOf(model, f, drivers);
  const hold = holdRow(model, holdId);
  if (!rows || rows.rack < 0 || !hold) return {};
  const dirs = [rows.hub[0], rows.rack].map((r) => { const e = new Float64Array(f.M); e[r] = 1; return solve(f, e); });
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  const side = model.sides[0];
  const P = model.parameterCount;
  const out: Record<string, Dual> = {};
  let failed = false;
  const missing = new Set<string>();
  const done = coordinateTangents(model, f, dirs, rates, (k, run, dirDots) => {
    if (failed) return;
    const metrics = run(() => {
      const axis = steeringResponseAxis(model, f, hold, dirs, dirDots, space);
      if (!axis) return null;
      const { point, direction } = axis;
      const line = { point: tangentVec(2, point), direction: tangentVec(2, direction) };
      return sm.evaluate({ rates: space, virtualAxes: [line] }).corners[0].metrics as unknown as Record<string, Dual | null>;
    });
    if (!metrics) { failed = true; return; }
    for (const m of wanted) {
      const d = metrics[m];
      if (!d || !Number.isFinite(d.v)) { missing.add(m); continue; }
      const o = (out[`${side}:${m}`] ??= new Dual(P, d.v));
      o.d[k] = d.t ? d.t.v : 0;
    }
  });
  for (const m of missing) delete out[`${side}:${m}`];
  return done && !failed ? out : {};
}
