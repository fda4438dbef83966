/**
 * Exact hardpoint gradients of the `*_virtual` metrics (the five steering-axis metrics on
 * the screw axis of the steering response, src/suspension/metrics/steering.ts) of a steered corner
 * or axle: second derivatives, by the tangent pass of the `deriv_*`
 * (derivative-sensitivity.ts `coordinateTangents`), never by differences.
 *
 * At a state driven by the hub-z rows (one per corner) and the rack row, the hub motions
 * q̇_h1…q̇_hn and the rack's q̇_r span the mechanism's motions. The steering response (unit
 * rack, every hold row still) is q̇_s ∝ q̇_r − Σ c_j q̇_hj with H c = b: H_ij the hold row i's
 * rate along q̇_hj, b_i its rate along q̇_r (the rack row does not move along a hub). As many
 * rows as hubs (a corner's one row: c = h_r/h_h): H is square; more rows (redundant holds,
 * which steeringTangent accepts when they agree): the least-squares solution by the normal
 * equations, exact when they agree, null when they do not (the sweep's `inconsistent`) or do
 * not fix c (`not_unique`). The axis is that of the upright's twist along q̇_s, and it does
 * not depend on the twist's scale, so the rack normalisation drops out. Along a hardpoint
 * coordinate every ingredient has a derivative: the upright points' positions and rates
 * (their tangents in the pass), the hold rates (a coordinate: its entry of dq̇_j/ds; a length:
 * from its end points' tangents), hence c (the solve carried in tangent arithmetic), the
 * twist (from three upright points: ω = (Δr_a × Δr_b)/(Δr_a · Δb), rigid), the axis (point
 * ω × v₀/|ω|², direction ω/|ω|), and the metrics on the wheel frame.
 *
 * Holds: a coordinate, a length, `wheel_center_height` or `contact_patch` (the upright's
 * material point at the contact centre: its road-normal rate from each direction's twist,
 * the point moving with the contact centre), any number of rows per corner.
 *
 * An axle's road is the plane tangent to both wheels (metrics/axle.ts): its angle θ solves
 * g(θ, p) = 0, so θ' = −g_p/g_θ, built here (the model's evaluation carries no tangent of it);
 * the ground metrics and the contact-patch hold move with it.
 */
import { Dual, DualVec3 } from '../../../kernel/dual';
import { add, cross, div, dot, mul, position, rateOf, sqrtT, sub, tangentVec, tt, vdiv, vscale, vsub, type T, type V } from './tangent-ops';
import type { TangentSpace } from '../../../kernel/analysis';
import { coordinateTangents } from './derivatives';
import { driverRowsOf, solve } from './roll-centre';
import { holdParts, uprightPoints } from '../metrics/steering';
import { axleRoadPlane, steeringAxisMetrics, wheelAxis, wheelFrame, type RoadInput, type WheelFrame } from '../metrics';
import type { DriverParameters, SensitivityContext, StateFactors } from './types';
import type { PointExpr } from '../build/targets';

export const VIRTUAL_METRICS = [
  'caster_virtual', 'kpi_virtual', 'steering_axis_offset_ground_virtual', 'scrub_radius_virtual', 'mechanical_trail_virtual',
] as const;

/**
 * The virtual metrics a model offers on request (per side). Without a rack there is no
 * steering response: `kinemate sweep` prints them null, and so do the gradients.
 */
export function virtualMetricsOf(_model: SensitivityContext): readonly string[] {
  return VIRTUAL_METRICS;
}

export type HoldRow = { corner: number } & ({ kind: 'coordinate'; variable: number } | { kind: 'length'; a: PointExpr; b: PointExpr } | { kind: 'wheel_center_height' } | { kind: 'contact_patch' });

/** The twist (ω, velocity at the origin) of a rigid body from its points p and their rates r. */
export function twistOf(p: V[], r: V[]): { w: V; v0: V } | null {
  // a body at rest along this direction (an axle's other hub; an exact solve gives exact
  // zeros there, not rounding noise): ω = 0, and its derivative is the twist of the rates'
  // derivatives (the twist is linear in the rates), zero where those tell none either
  if (r.every((x) => x.every((c) => c.v === 0))) {
    const plain = (x: V): V => [tt(x[0].v, 0), tt(x[1].v, 0), tt(x[2].v, 0)];
    const moving = r.some((x) => x.some((c) => c.t !== 0));
    const d = moving ? twistOf(p.map(plain), r.map((x) => [tt(x[0].t, 0), tt(x[1].t, 0), tt(x[2].t, 0)] as V)) : null;
    const lift = (x: V | undefined): V => [tt(0, x ? x[0].v : 0), tt(0, x ? x[1].v : 0), tt(0, x ? x[2].v : 0)];
    return { w: lift(d?.w), v0: lift(d?.v0) };
  }
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

/** Every corner's hold rows (as steeringTangent builds them), or null (an unknown hold). */
export function holdRows(model: SensitivityContext, holdId: string): HoldRow[] | null {
  const sm = model.sm;
  const rows: HoldRow[] = [];
  for (let corner = 0; corner < sm.corners.length; corner++) {
    const c = sm.corners[corner];
    const hold = holdParts(sm, corner, holdId);
    if (!hold) continue; // no rows: the motion is not fixed (null below)
    for (const part of hold.parts) {
      if (part === 'wheel_center_height' || part === 'contact_patch') { rows.push({ corner, kind: part }); continue; }
      const spec = c.roles.holds[part];
      if (!Array.isArray(spec)) return null; // an unknown id
      for (const h of spec) {
        if (typeof h === 'string') {
          const info = sm.model.coordinates.get(h);
          if (!info) return null;
          rows.push({ corner, kind: 'coordinate', variable: info.variable });
        } else rows.push({ corner, kind: 'length', a: sm.resolveRole(h.length[0]), b: sm.resolveRole(h.length[1]) });
      }
    }
  }
  return rows;
}

/**
 * c with H c = b (H: rows × hubs), in tangent arithmetic: square, by elimination; more rows,
 * the normal equations, then checked to satisfy every row (redundant holds must agree); null
 * when c is not fixed or the rows disagree.
 */
function holdShares(H: T[][], b: T[], hubs: number): T[] | null {
  const m = H.length;
  if (m < hubs) return null;
  let A = H, y = b;
  if (m > hubs) {
    const sum = (f: (r: number) => T): T => { let s = f(0); for (let r = 1; r < m; r++) s = add(s, f(r)); return s; };
    A = H[0].map((_, i) => H[0].map((__, j) => sum((r) => mul(H[r][i], H[r][j]))));
    y = H[0].map((_, i) => sum((r) => mul(H[r][i], b[r])));
  }
  const c = eliminate(A, y);
  if (!c || m === hubs) return c;
  // each row's residual against the row's own size (as the steering tangent's least-squares
  // residual: rows that barely move along the rack agree)
  for (let r = 0; r < m; r++) {
    let s = -b[r].v, size = Math.abs(b[r].v);
    for (let j = 0; j < hubs; j++) { s += H[r][j].v * c[j].v; size = Math.max(size, Math.abs(H[r][j].v)); }
    if (!(Math.abs(s) <= 1e-8 * size)) return null;
  }
  return c;
}

/** Gaussian elimination with partial pivoting on tangent values; null for a (near) singular matrix. */
function eliminate(A0: T[][], y0: T[]): T[] | null {
  const n = y0.length;
  const A = A0.map((r) => r.slice()), y = y0.slice();
  let big = 0;
  for (const r of A) for (const a of r) big = Math.max(big, Math.abs(a.v));
  for (let i = 0; i < n; i++) {
    let p = i;
    for (let r = i + 1; r < n; r++) if (Math.abs(A[r][i].v) > Math.abs(A[p][i].v)) p = r;
    if (!(Math.abs(A[p][i].v) > 1e-12 * big)) return null;
    [A[i], A[p]] = [A[p], A[i]];
    [y[i], y[p]] = [y[p], y[i]];
    for (let r = i + 1; r < n; r++) {
      const f = div(A[r][i], A[i][i]);
      for (let j = i + 1; j < n; j++) A[r][j] = sub(A[r][j], mul(f, A[i][j]));
      y[r] = sub(y[r], mul(f, y[i]));
    }
  }
  const x: T[] = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let j = i + 1; j < n; j++) s = sub(s, mul(A[i][j], x[j]));
    x[i] = div(s, A[i][i]);
  }
  return x;
}

/**
 * The axle's road plane with its tangent: axleRoadPlane's θ solves g(θ, p) = 0 with
 * g = n₀·(WC_L − WC_R) − R_L √(1 − (n₀·a_L)²) + R_R √(1 − (n₀·a_R)²), n₀ = (0, sin θ, cos θ);
 * θ' = −g_p/g_θ, g_p taken at θ fixed from the wheels' tangents.
 */
function roadWithTangent(L: { wheelCenter: DualVec3; spin: DualVec3; tireRadius: number }, R: { wheelCenter: DualVec3; spin: DualVec3; tireRadius: number }): RoadInput | null {
  const road = axleRoadPlane(L, R);
  if (!road) return null;
  const th = road.theta.v, s = Math.sin(th), c = Math.cos(th);
  const n0: V = [tt(0, 0), tt(s, 0), tt(c, 0)];
  const n1: V = [tt(0, 0), tt(c, 0), tt(-s, 0)]; // dn₀/dθ
  const support = (a: V, r: number): { g: T; slope: number } => {
    const m = dot(n0, a);
    const q = sqrtT(sub(tt(1, 0), mul(m, m)));
    return { g: mul(tt(r, 0), q), slope: (-r * m.v * dot(n1, a).v) / q.v };
  };
  const dw = vsub(position(L.wheelCenter), position(R.wheelCenter));
  const sl = support(position(L.spin), L.tireRadius), sr = support(position(R.spin), R.tireRadius);
  const g = add(sub(dot(n0, dw), sl.g), sr.g);
  const slope = dot(n1, dw).v - sl.slope + sr.slope;
  const thetaRate = -g.t / slope;
  const n = road.normal.n;
  const normal = new DualVec3(n);
  normal.v.set(road.normal.v);
  normal.d.set(road.normal.d);
  normal.t = new DualVec3(n);
  normal.t.v[1] = c * thetaRate;
  normal.t.v[2] = -s * thetaRate;
  // the point keeps its tangent with the normal held: turning the normal moves each contact
  // centre (the disc's lowest point) along the road only, so the plane is exact
  return { normal, point: road.point };
}

/**
 * The steering response's screw axis of each corner (null where it has none), with its
 * tangent along the pass's hardpoint coordinate, inside the tangent pass (coordinateTangents'
 * run): the rack's motion less each hub's share c that keeps every hold row still (H c = b,
 * holdShares). dirs = each corner's hub motion, then the rack's; dirDots their rates; frames
 * the wheel frames with tangents (wheelFrames). Null when the shares are not fixed or the rows
 * disagree (the sweep's null).
 */
export function steeringResponseAxes(model: SensitivityContext, f: StateFactors, hold: readonly HoldRow[], dirs: readonly Float64Array[], dirDots: readonly Float64Array[], space: TangentSpace, frames: readonly WheelFrame[]): ({ point: V; direction: V } | null)[] | null {
  const sm = model.sm;
  const nc = sm.corners.length, nd = dirs.length, rack = nc;
  const dual = (e: PointExpr) => sm.pointDual(e, space, dirs, nd);
  const pts = sm.corners.map((c) => uprightPoints(c).exprs.map(dual));
  const p = pts.map((ps) => ps.map(position));
  const twists = new Map<number, { w: V; v0: V } | null>();
  const twist = (ci: number, j: number) => {
    const key = ci * nd + j;
    if (!twists.has(key)) twists.set(key, twistOf(p[ci], pts[ci].map((q) => rateOf(q, j))));
    return twists.get(key)!;
  };
  // each hold row's rate along each direction, with its derivative
  const rateRow = (row: HoldRow): T[] | null => {
    const js = dirs.map((_, j) => j);
    if (row.kind === 'coordinate') {
      const col = f.layout[row.variable];
      return col < 0 ? null : js.map((j) => tt(dirs[j][col], dirDots[j][col]));
    }
    if (row.kind === 'contact_patch') {
      // the road-normal rate of the upright's material point now at the contact centre,
      // which moves with the points (an axle's road normal moves too)
      const x = position(frames[row.corner].contact), nrm = position(frames[row.corner].normal);
      const out: T[] = [];
      for (const j of js) {
        const tw = twist(row.corner, j);
        if (!tw) return null;
        out.push(dot(nrm, [0, 1, 2].map((i) => add(cross(tw.w, x)[i], tw.v0[i])) as V));
      }
      return out;
    }
    if (row.kind === 'wheel_center_height') return js.map((j) => rateOf(frames[row.corner].wheelCenter, j)[2]);
    const a = dual(row.a), b = dual(row.b);
    const u = vsub(position(b), position(a));
    return js.map((j) => div(dot(u, vsub(rateOf(b, j), rateOf(a, j))), sqrtT(dot(u, u))));
  };
  const H: T[][] = [], bv: T[] = [];
  for (const row of hold) {
    const h = rateRow(row);
    if (!h) return null;
    H.push(h.slice(0, nc));
    bv.push(h[rack]);
  }
  const c = holdShares(H, bv, nc);
  if (!c) return null;
  return sm.corners.map((_, ci) => {
    const steer = pts[ci].map((q) => {
      let r = rateOf(q, rack);
      for (let j = 0; j < nc; j++) r = vsub(r, vscale(rateOf(q, j), c[j]));
      return r;
    });
    const tw = twistOf(p[ci], steer);
    if (!tw) return null;
    const { w, v0 } = tw;
    const ww = dot(w, w);
    const point = vdiv(cross(w, v0), ww);
    const direction = vdiv(w, sqrtT(ww));
    return { point, direction };
  });
}

/**
 * `<side>:<name>_virtual` → value and gradient (duals over the hardpoint coordinates) at a
 * corner's or axle's state driven by its hub rows and rack row, under the sweep's steering
 * hold; empty where not offered (another driver, an unsteered linkage, an unsupported hold, no
 * valid axis: the sweep's value is null there too).
 */
export function virtualGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, holdId: string, names: readonly string[]): Record<string, Dual> {
  const sm = model.sm;
  const wanted = VIRTUAL_METRICS.filter((m) => names.includes(m));
  if (!wanted.length || !model.sm.rackHold) return {};
  const rows = driverRowsOf(model, f, drivers);
  const hold = holdRows(model, holdId);
  if (!rows || rows.rack < 0 || !hold) return {};
  const nc = sm.corners.length;
  // directions: each corner's hub, then the rack
  const dirs = [...rows.hub, rows.rack].map((r) => { const e = new Float64Array(f.M); e[r] = 1; return solve(f, e); });
  const nd = dirs.length, rack = nc;
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  const P = model.parameterCount;
  const out: Record<string, Dual> = {};
  let failed = false;
  const missing = new Set<string>();
  const done = coordinateTangents(model, f, dirs, rates, (k, run, dirDots) => {
    if (failed) return;
    const metrics = run(() => {
      const frames = wheelFrames(model, (e: PointExpr) => sm.pointDual(e, space, dirs, nd), nd);
      if (!frames) return null;
      const axes = steeringResponseAxes(model, f, hold, dirs, dirDots, space, frames);
      if (!axes) return null;
      return axes.map((axis, ci) => {
        if (!axis) return null;
        const m = steeringAxisMetrics(tangentVec(nd, axis.point), tangentVec(nd, axis.direction), frames[ci]);
        return Object.fromEntries(Object.entries(m).map(([name, d]) => [`${name}_virtual`, d])) as Record<string, Dual | null>;
      });
    });
    if (!metrics) { failed = true; return; }
    metrics.forEach((cm, ci) => {
      const side = model.sides[ci];
      for (const m of wanted) {
        const d = cm?.[m];
        if (!d || !Number.isFinite(d.v)) { missing.add(`${side}:${m}`); continue; }
        const o = (out[`${side}:${m}`] ??= new Dual(P, d.v));
        o.d[k] = d.t ? d.t.v : 0;
      }
    });
  });
  for (const key of missing) delete out[key];
  return done && !failed ? out : {};
}

/** Every corner's wheel frame with tangents (an axle's road plane included); null without a road plane. */
export function wheelFrames(model: SensitivityContext, dual: (e: PointExpr) => DualVec3, n: number): WheelFrame[] | null {
  const sm = model.sm;
  const axles = sm.corners.map((c) => [dual(c.axle[0]), dual(c.axle[1])]);
  let road: RoadInput | null = null;
  if (model.sides.length === 2) {
    const [L, R] = sm.corners.map((c, i) => ({ ...wheelAxis(axles[i][0], axles[i][1], c.roles.wheel.offset), tireRadius: c.tireRadius }));
    road = roadWithTangent(L, R);
    if (!road) return null;
  }
  return sm.corners.map((c, i) => wheelFrame(c.roles.side, axles[i][0], axles[i][1], {
    offset: c.roles.wheel.offset, tireRadius: c.tireRadius, sectionWidth: c.roles.wheel.tire.section_width,
  }, road, n));
}
