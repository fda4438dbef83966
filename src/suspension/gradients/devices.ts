/**
 * Hardpoint gradients of the device, beam-axle and steering-geometry metrics (issue 14):
 * the same formulas as `kinemate sweep` (metrics/devices.ts, devices.ts, metrics/
 * steering-geometry.ts), written once more over duals so the adjoint of sensitivity.ts can
 * take them. Each is a first-order function of the state and of the points; a metric
 * measured "from design" takes its design reference's own move with the points (at design
 * every part sits at the identity, so a design position is its local point and moves by
 * that point's own move, as rocker_angle's reference does).
 */
import { Dual, DualVec3 } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import { add, atan, atan2, comp, deg, div, konst, midpoint, neg, scale, sin, sub, vadd, vconst } from '../metrics/dualops';
import { turnAboutAxis } from '../metrics/corner';
import { heaveLinkLength, tBarAngle, torsionBarTwist, uBarArmAngle } from '../metrics/devices';
import type { CornerMetrics } from '../metrics';
import type { Geometry } from '../files';
import type { SuspensionRoles } from '../build/roles';
import type { PointExpr } from '../build/targets';
import type { DriverParameters, SensitivityContext, StateFactors } from './types';
import { coordinateTangents } from './derivatives';
import { driverRowsOf, solve } from './roll-centre';
import { suspensionAssembly } from '../build/template';

/** The devices' rates (second derivatives): computed only when asked for. */
export const DEVICE_RATE_METRICS: readonly string[] = ['deriv_torsion_bar_twist_wrt_hub_z', ...['arb_twist', 'heave_link_length', 't_bar_center_x'].flatMap((m) => [`deriv_${m}_wrt_hub_z_left`, `deriv_${m}_wrt_hub_z_right`])];

/** The roles of a geometry's model (cheap: the template's document, nothing solved). */
function rolesOf(geometry: Geometry): SuspensionRoles {
  return suspensionAssembly(geometry).suspension as SuspensionRoles;
}

/**
 * The device, beam and steering-geometry metrics a geometry defines: offered only where they
 * exist, so a file without them prints what it printed before.
 */
export function deviceMetricsOf(geometry: Geometry): { side: string[]; axle: string[] } {
  // asked once per state by the sweeps: the template is built once per geometry
  let known = offeredByGeometry.get(geometry);
  if (!known) offeredByGeometry.set(geometry, (known = offeredOf(geometry)));
  return known;
}
const offeredByGeometry = new WeakMap<Geometry, { side: string[]; axle: string[] }>();

function offeredOf(geometry: Geometry): { side: string[]; axle: string[] } {
  const roles = rolesOf(geometry);
  const side: string[] = [], axle: string[] = [];
  if (roles.corners.some((c) => c.torsion_bar)) side.push('torsion_bar_twist', 'deriv_torsion_bar_twist_wrt_hub_z');
  const d = roles.devices;
  const hubs = (name: string) => [`deriv_${name}_wrt_hub_z_left`, `deriv_${name}_wrt_hub_z_right`];
  if (d?.u_bar) side.push('arb_arm_angle');
  if (d?.u_bar || d?.t_bar) axle.push('arb_twist', ...hubs('arb_twist'));
  if (d?.heave_link) axle.push('heave_link_length', ...hubs('heave_link_length'));
  if (d?.t_bar) axle.push('t_bar_heave_angle', ...hubs('t_bar_center_x'));
  if (geometry.scope === 'axle') {
    const uprights = roles.corners.map((c) => c.upright);
    if (uprights.length === 2 && uprights[0] === uprights[1]) {
      axle.push('axle_lateral_shift', 'axle_steer', 'roll_center_linkage_y', 'roll_center_linkage_z');
      if (d?.pinion) axle.push('pinion_angle_change');
    }
    // all five, as kinemate sweep prints them: null without the wheelbase or the rack travel per turn
    if (roles.steering && roles.axle_position === 'front') axle.push('ackermann_percentage', 'toe_out_on_turns', 'turning_radius', 'steering_wheel_angle', 'steering_ratio');
  }
  return { side, axle };
}

/**
 * Device and beam-axle metrics at the current state as duals over `rates` (the caller has
 * the model's explicit point rates on, so a point's dual carries its own move at columns
 * base + k), keyed `<side>:<name>` or `axle:<name>`.
 */
export function deviceMetricDuals(model: SensitivityContext, rates: TangentSpace, base: number, corners: readonly CornerMetrics[]): Map<string, Dual> {
  const sm = model.sm;
  const n = rates.rates.length;
  const out = new Map<string, Dual>();
  // most linkages have none of them: no closures made per state for nothing
  if (!sm.roles.devices && sm.roles.corners.every((c) => !c.torsion_bar) && !(sm.corners.length === 2 && sm.corners[0].upright === sm.corners[1].upright)) return out;
  const now = (role: Parameters<typeof sm.resolveRole>[0]) => sm.pointDual(sm.resolveRole(role), rates, rates.rates, n);
  const design = (role: Parameters<typeof sm.resolveRole>[0]) => designDual(model, sm.resolveRole(role), n, base);
  const side = (i: number) => model.sides[i];
  sm.roles.corners.forEach((c, i) => {
    if (!c.torsion_bar) return;
    const t = c.torsion_bar;
    out.set(`${side(i)}:torsion_bar_twist`, torsionBarTwist(now(t.axis[0]), now(t.axis[1]), now(t.point), design(t.point), sm.corners[i].sigma));
  });
  const d = sm.roles.devices;
  if (d?.u_bar) {
    const a = now(d.u_bar.axis[0]), b = now(d.u_bar.axis[1]);
    const arms = [d.u_bar.arms.left, d.u_bar.arms.right].map((r) => uBarArmAngle(a, b, now(r), design(r)));
    model.sides.forEach((s, i) => out.set(`${s}:arb_arm_angle`, arms[i]));
    out.set('axle:arb_twist', sub(arms[0], arms[1]));
  }
  if (d?.t_bar) {
    const [l, r, p] = [now(d.t_bar.ends.left), now(d.t_bar.ends.right), now(d.t_bar.pivot)];
    const [l0, r0, p0] = [design(d.t_bar.ends.left), design(d.t_bar.ends.right), design(d.t_bar.pivot)];
    out.set('axle:arb_twist', deg(sub(tBarAngle(l, r, p), tBarAngle(l0, r0, p0))));
    // the turn of the midpoint about the design pivot's +Y line: that line moves with the pivot
    out.set('axle:t_bar_heave_angle', deg(turnAboutAxis(p0, vadd(p0, vconst(n, 0, 1, 0)), midpoint(l, r), midpoint(l0, r0))));
  }
  if (d?.heave_link) out.set('axle:heave_link_length', heaveLinkLength(now(d.heave_link.left), now(d.heave_link.right)));
  if (sm.corners.length === 2 && sm.corners[0].upright === sm.corners[1].upright) {
    const L = corners[0].points.wheel_center, R = corners[1].points.wheel_center;
    const [L0, R0] = [0, 1].map((ci) => {
      const v = new DualVec3(n);
      v.v.set(sm.corners[ci].design.wheelCenter);
      const P = model.parameterCount, wr = model.wheelCenterRatesByCorner[ci];
      for (let i = 0; i < 3; i++) for (let k = 0; k < P; k++) v.d[i * n + base + k] = wr[i * P + k];
      return v;
    });
    out.set('axle:axle_lateral_shift', sub(comp(midpoint(L, R), 1), comp(midpoint(L0, R0), 1)));
    const heading = (a: DualVec3, b: DualVec3) => atan2(neg(sub(comp(a, 0), comp(b, 0))), sub(comp(a, 1), comp(b, 1)));
    out.set('axle:axle_steer', deg(sub(heading(L, R), heading(L0, R0))));
    if (d?.pinion) {
      const pitch = (a: DualVec3, b: DualVec3) => atan2(sub(comp(b, 0), comp(a, 0)), sub(comp(b, 2), comp(a, 2)));
      out.set('axle:pinion_angle_change', deg(sub(pitch(now(d.pinion[0]), now(d.pinion[1])), pitch(design(d.pinion[0]), design(d.pinion[1])))));
    }
  }
  return out;
}

/** A point's design position (its local point: parts at the identity) with its own move per parameter at columns base + k. */
function designDual(model: SensitivityContext, expr: PointExpr, n: number, base: number): DualVec3 {
  const out = new DualVec3(n);
  const lr = new Float64Array(3);
  for (const t of expr) {
    for (let i = 0; i < 3; i++) out.v[i] += t.weight * t.local[i];
    for (let k = 0; k < model.parameterCount; k++) {
      model.localRate(lr, t.variable, t.local, k);
      for (let i = 0; i < 3; i++) out.d[i * n + base + k] += t.weight * lr[i];
    }
  }
  return out;
}

const STRAIGHT_DEG = 1e-6;
const RAD = Math.PI / 180;

/**
 * The steering geometry of a steered front axle as duals (metrics/steering-geometry.ts's
 * formulas): the wheels' steer angles, the rack and the design track carry their gradients.
 */
export function steeringGeometryDuals(
  steerLeft: Dual, steerRight: Dual, rack: Dual | null, track: Dual,
  wheelbase: number | undefined, travel: number | undefined,
): Record<string, Dual | null> {
  const n = steerLeft.n;
  const leftInner = steerLeft.v + steerRight.v >= 0;
  const signed = (x: Dual) => (x.v < 0 ? neg(x) : x);
  const inner = signed(leftInner ? steerLeft : steerRight), outer = signed(leftInner ? steerRight : steerLeft);
  const turning = inner.v > STRAIGHT_DEG;
  const out: Record<string, Dual | null> = { ackermann_percentage: null, toe_out_on_turns: turning ? sub(inner, outer) : null, turning_radius: null, steering_wheel_angle: null };
  if (turning && wheelbase !== undefined) {
    // ideal outer angle: cot δo* = cot δi + t/L
    const cot = div(konst(n, 1), tanD(scale(inner, RAD)));
    const ideal = scale(atan(div(konst(n, 1), add(cot, scale(track, 1 / wheelbase)))), 1 / RAD);
    out.ackermann_percentage = div(scale(sub(inner, outer), 100), sub(inner, ideal));
    if (outer.v > STRAIGHT_DEG) out.turning_radius = div(konst(n, wheelbase), sin(scale(outer, RAD)));
  }
  if (travel !== undefined && rack) out.steering_wheel_angle = scale(rack, 360 / travel);
  return out;
}

const tanD = (a: Dual): Dual => {
  const c = Math.cos(a.v);
  const t = new Dual(a.n, Math.tan(a.v));
  for (let k = 0; k < a.n; k++) t.d[k] = a.d[k] / (c * c);
  return t;
};

/**
 * steering_ratio = (360/c) / mean(dδ/d rack) from each side's rack rate of steer angle and
 * its gradient (derivative-sensitivity.ts); null where the mean rate is zero (as the sweep).
 */
export function steeringRatioGradient(left: { value: number; g: Float64Array }, right: { value: number; g: Float64Array }, travel: number): { value: number; g: Float64Array } | null {
  const mean = (left.value + right.value) / 2;
  if (mean === 0) return null;
  const value = 360 / travel / mean;
  // d(value) = −value/mean · d(mean)
  const g = new Float64Array(left.g.length);
  for (let k = 0; k < g.length; k++) g[k] = (-value / mean) * ((left.g[k] + right.g[k]) / 2);
  return { value, g };
}

/**
 * The devices' own rates (`deriv_torsion_bar_twist_wrt_hub_z` per side; an axle's
 * `deriv_arb_twist_wrt_hub_z_left|right`, `deriv_heave_link_length_…`,
 * `deriv_t_bar_center_x_…`): second derivatives, from the tangent pass of the `deriv_*`
 * (derivative-sensitivity.ts coordinateTangents), the device formulas evaluated on points
 * whose tangent is their derivative along each coordinate. A rate does not depend on the
 * metric's design reference (a turn's rate is (u × r)·ṙ/|r|², φ − φ₀'s is φ̇), so the fixed
 * references are exact here.
 */
export function deviceRateGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, names: readonly string[]): Record<string, Dual> {
  const sm = model.sm;
  const rows = driverRowsOf(model, f, drivers);
  const d = sm.roles.devices;
  const torsion = sm.roles.corners.some((c) => c.torsion_bar);
  if (!rows || (!torsion && !d?.u_bar && !d?.t_bar && !d?.heave_link)) return {};
  const nc = sm.corners.length;
  const dirs = rows.hub.map((r) => { const e = new Float64Array(f.M); e[r] = 1; return solve(f, e); });
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  const P = model.parameterCount;
  const want = (m: string) => names.length === 0 || names.includes(m);
  const out: Record<string, Dual> = {};
  const put = (key: string, m: Dual, j: number, k: number) => {
    const o = (out[key] ??= new Dual(P));
    o.v = m.d[j];
    o.d[k] = m.t ? m.t.d[j] : 0;
  };
  const ok = coordinateTangents(model, f, dirs, rates, (k, run) => run(() => {
    const now = (role: Parameters<typeof sm.resolveRole>[0]) => sm.pointDual(sm.resolveRole(role), space, space.rates, nc);
    const fixed = (role: Parameters<typeof sm.resolveRole>[0]) => { const e = sm.resolveRole(role); const v = new DualVec3(nc); for (const t of e) for (let i = 0; i < 3; i++) v.v[i] += t.weight * t.local[i]; return v; };
    if (want('deriv_torsion_bar_twist_wrt_hub_z')) sm.roles.corners.forEach((c, i) => {
      if (c.torsion_bar) put(`${model.sides[i]}:deriv_torsion_bar_twist_wrt_hub_z`, torsionBarTwist(now(c.torsion_bar.axis[0]), now(c.torsion_bar.axis[1]), now(c.torsion_bar.point), fixed(c.torsion_bar.point), sm.corners[i].sigma), i, k);
    });
    const perSide = (name: string, m: Dual) => { for (const [j, s] of [[0, 'left'], [1, 'right']] as const) if (want(`deriv_${name}_wrt_hub_z_${s}`)) put(`axle:deriv_${name}_wrt_hub_z_${s}`, m, j, k); };
    if (d?.u_bar) {
      const a = now(d.u_bar.axis[0]), b = now(d.u_bar.axis[1]);
      const [l, r] = [d.u_bar.arms.left, d.u_bar.arms.right].map((e) => uBarArmAngle(a, b, now(e), fixed(e)));
      perSide('arb_twist', sub(l, r));
    }
    if (d?.t_bar) {
      const l = now(d.t_bar.ends.left), r = now(d.t_bar.ends.right);
      perSide('arb_twist', deg(tBarAngle(l, r, now(d.t_bar.pivot))));
      perSide('t_bar_center_x', comp(midpoint(l, r), 0));
    }
    if (d?.heave_link) perSide('heave_link_length', heaveLinkLength(now(d.heave_link.left), now(d.heave_link.right)));
  }));
  return ok ? out : {};
}
