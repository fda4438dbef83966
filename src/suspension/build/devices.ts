/**
 * The reference format's devices as mated parts (`suspension-devices.md`, "How the
 * reference tool models each device"), added to a template's assembly:
 *
 * - a separate linear damper: `damper_rocker` on the rocker, `damper_chassis` on the chassis;
 * - a U-bar: one arm per side hinged on the shared chassis axis, each tied to its rocker by
 *   a droplink (a distance mate). Nothing ties the two arms: the bar is torsionally free
 *   and its twist is an output;
 * - a T-bar: one rigid crossbar balled at the chassis pivot, its ends tied to the rockers by
 *   droplinks and its midpoint kept on the plane Y = 0;
 * - a heave link: an end on each rocker and no mate (its length is an output or a target);
 * - torsion bars: on the rocker shaft (double wishbone) or on a transverse axis through the
 *   trailing arm's pivot — no part, only the twist metric.
 */
import type { Geometry, CornerGeometry, Point3 } from '../files';
import { usesRocker } from '../files';
import type { Builder } from './builder';
import type { CornerRoles, LeverRole, PointRole, SuspensionRoles } from './roles';
import type { ModelPoints, MetricValues } from './runtime';
import type { PointExpr } from './targets';
import { Dual, DualVec3, dSub } from '../../../kernel/dual';
import { fitScrewAxis } from '../../../kernel/screw';
import { heaveLinkLength, leverTransmission, tBarMetrics, torsionBarTwist, uBarArmAngle } from '../metrics/devices';

const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Rocker pickups and torsion bars of one corner; `points` gets the reported points. */
export function buildCornerDevices(
  b: Builder,
  g: Geometry,
  corner: CornerGeometry,
  px: string,
  chassis: string,
  points: Record<string, PointRole>,
): { damper?: [PointRole, PointRole]; torsion_bar?: CornerRoles['torsion_bar'] } {
  const hp = corner.hardpoints;
  const has = (n: string) => Object.hasOwn(hp, n);
  const out: { damper?: [PointRole, PointRole]; torsion_bar?: CornerRoles['torsion_bar'] } = {};
  const rocker = `${px}rocker`;
  if (g.topology === 'double_wishbone' && usesRocker(g.actuation.type)) {
    for (const name of ['droplink_rocker', 'heave_link_rocker', 'damper_rocker']) {
      if (has(name)) points[name] = b.point(rocker, name, hp[name]);
    }
    if (g.devices?.damper === 'linear') {
      points.damper_chassis = b.point(chassis, `${px}damper_chassis`, hp.damper_chassis);
      out.damper = [points.damper_rocker, points.damper_chassis];
    }
    if (g.spring.type === 'torsion_bar') out.torsion_bar = { axis: [points.rocker_axis_a, points.rocker_axis_b], point: points.pushrod_inboard };
  }
  if (g.topology === 'trailing_arm' && g.spring.type === 'torsion_bar') {
    points.torsion_bar_axis_a = b.point(chassis, `${px}torsion_bar_axis_a`, hp.torsion_bar_axis_a);
    points.torsion_bar_axis_b = b.point(chassis, `${px}torsion_bar_axis_b`, hp.torsion_bar_axis_b);
    out.torsion_bar = { axis: [points.torsion_bar_axis_a, points.torsion_bar_axis_b], point: points.trailing_arm_outboard };
  }
  return out;
}

/** Anti-roll bars and the heave link of an axle, and every link/lever pair's roles. */
export function buildAxleDevices(b: Builder, g: Geometry, roles: SuspensionRoles, chassis: string): void {
  const levers: LeverRole[] = [];
  const center = g.center ?? {};
  const corner = (side: 'left' | 'right') => {
    const i = g.corners.findIndex((c) => c.side === side);
    return { hp: g.corners[i]?.hardpoints ?? {}, roles: roles.corners[i] };
  };
  for (const c of roles.corners) {
    const px = roles.scope === 'axle' ? `${c.side}_` : '';
    if (c.rocker && c.points.pushrod_outboard) levers.push({ name: `${px}pushrod_rocker`, axis: c.rocker.axis, pickup: c.rocker.point, link_end: c.points.pushrod_outboard });
  }
  const devices: NonNullable<SuspensionRoles['devices']> = {};
  const centerPoints: Record<string, PointRole> = {};
  const anti = g.devices?.anti_roll ?? 'none';
  if (g.scope === 'axle' && anti === 'u_bar') {
    const a = center.arb_u_bar_axis_a, bb = center.arb_u_bar_axis_b;
    centerPoints.center_arb_u_bar_axis_a = b.point(chassis, 'center_arb_u_bar_axis_a', a);
    centerPoints.center_arb_u_bar_axis_b = b.point(chassis, 'center_arb_u_bar_axis_b', bb);
    const arms = {} as Record<'left' | 'right', PointRole>;
    for (const side of ['left', 'right'] as const) {
      const { hp, roles: cr } = corner(side);
      const arm = `${side}_arb_arm`;
      b.hinge(`${side}_arb_hinge`, chassis, arm, a, bb);
      arms[side] = cr.points.droplink_u_bar = b.point(arm, 'droplink_u_bar', hp.droplink_u_bar);
      b.mate(`${side}_droplink`, { type: 'distance', a: cr.points.droplink_rocker as string, b: arms[side] as string, value: dist(hp.droplink_rocker, hp.droplink_u_bar) });
      const axis: [PointRole, PointRole] = [centerPoints.center_arb_u_bar_axis_a, centerPoints.center_arb_u_bar_axis_b];
      if (cr.rocker) levers.push({ name: `${side}_droplink_rocker`, axis: cr.rocker.axis, pickup: cr.points.droplink_rocker, link_end: arms[side] });
      levers.push({ name: `${side}_droplink_u_bar`, axis, pickup: arms[side], link_end: cr.points.droplink_rocker });
    }
    devices.u_bar = { axis: [centerPoints.center_arb_u_bar_axis_a, centerPoints.center_arb_u_bar_axis_b], arms };
  }
  if (g.scope === 'axle' && anti === 't_bar') {
    const pivot = center.arb_t_bar_pivot;
    const l = corner('left').hp.droplink_t_bar, r = corner('right').hp.droplink_t_bar;
    centerPoints.center_arb_t_bar_pivot = b.point(chassis, 'center_arb_t_bar_pivot', pivot);
    b.ball('t_bar_pivot', chassis, 't_bar', 'arb_t_bar_pivot', pivot);
    // the crossbar's midpoint stays on Y = 0 (a point–plane coincidence)
    const mid: Point3 = [(l[0] + r[0]) / 2, (l[1] + r[1]) / 2, (l[2] + r[2]) / 2];
    b.point('t_bar', 'crossbar_midpoint', mid);
    b.plane(chassis, 'center_plane', [0, 0, 0], [0, 1, 0]);
    b.mate('t_bar_midplane', { type: 'coincident', a: 't_bar.crossbar_midpoint', b: `${chassis}.center_plane` });
    const ends = {} as Record<'left' | 'right', PointRole>;
    for (const side of ['left', 'right'] as const) {
      const { hp, roles: cr } = corner(side);
      ends[side] = cr.points.droplink_t_bar = b.point('t_bar', `${side}_droplink_t_bar`, hp.droplink_t_bar);
      b.mate(`${side}_droplink`, { type: 'distance', a: cr.points.droplink_rocker as string, b: ends[side] as string, value: dist(hp.droplink_rocker, hp.droplink_t_bar) });
      if (cr.rocker) levers.push({ name: `${side}_droplink_rocker`, axis: cr.rocker.axis, pickup: cr.points.droplink_rocker, link_end: ends[side] });
    }
    devices.t_bar = { pivot: centerPoints.center_arb_t_bar_pivot, ends };
  }
  if (g.scope === 'axle' && g.devices?.heave_link === 'rocker_to_rocker') {
    devices.heave_link = { left: corner('left').roles.points.heave_link_rocker, right: corner('right').roles.points.heave_link_rocker };
  }
  if (Object.keys(centerPoints).length) devices.points = centerPoints;
  if (Object.keys(devices).length) roles.devices = devices;
  if (levers.length) roles.levers = levers;
}

/**
 * The devices of a suspension model at run time: their points resolved, their design
 * positions (the "from design" references of every device metric) taken once.
 */
export class DeviceRuntime {
  private readonly torsion: ({ a: PointExpr; b: PointExpr; p: PointExpr; design: Float64Array } | null)[];
  private readonly uBar: { a: PointExpr; b: PointExpr; arms: [PointExpr, PointExpr]; design: [Float64Array, Float64Array] } | null = null;
  private readonly tBar: { pivot: PointExpr; ends: [PointExpr, PointExpr]; design: { left: Float64Array; right: Float64Array; pivot: Float64Array } } | null = null;
  private readonly heave: [PointExpr, PointExpr] | null = null;
  private readonly centerPoints: [string, PointExpr][] = [];
  /** A beam (solid or De Dion) axle: both wheels on one body; its design wheel centres. */
  private readonly beamDesign: [Float64Array, Float64Array] | null = null;
  private readonly pinion: { line: [PointExpr, PointExpr]; design: number } | null = null;
  readonly levers: { name: string; a: PointExpr; b: PointExpr; pickup: PointExpr; end: PointExpr }[];

  /** Null when the model has no device (nothing to add to its evaluation). */
  static of(sm: ModelPoints): DeviceRuntime | null {
    const r = sm.roles;
    if (!r.devices && !r.levers && !r.corners.some((c) => c.torsion_bar) && !isBeamAxle(sm)) return null;
    return new DeviceRuntime(sm);
  }

  /** Built at the design state. */
  private constructor(sm: ModelPoints) {
    const at = (role: PointRole) => sm.resolveRole(role);
    const value = (e: PointExpr) => Float64Array.from(sm.pointValue(e));
    this.torsion = sm.roles.corners.map((c) => {
      if (!c.torsion_bar) return null;
      const p = at(c.torsion_bar.point);
      return { a: at(c.torsion_bar.axis[0]), b: at(c.torsion_bar.axis[1]), p, design: value(p) };
    });
    const d = sm.roles.devices;
    if (d?.u_bar) {
      const arms: [PointExpr, PointExpr] = [at(d.u_bar.arms.left), at(d.u_bar.arms.right)];
      this.uBar = { a: at(d.u_bar.axis[0]), b: at(d.u_bar.axis[1]), arms, design: [value(arms[0]), value(arms[1])] };
    }
    if (d?.t_bar) {
      const ends: [PointExpr, PointExpr] = [at(d.t_bar.ends.left), at(d.t_bar.ends.right)];
      const pivot = at(d.t_bar.pivot);
      this.tBar = { pivot, ends, design: { left: value(ends[0]), right: value(ends[1]), pivot: value(pivot) } };
    }
    if (d?.heave_link) this.heave = [at(d.heave_link.left), at(d.heave_link.right)];
    for (const [name, role] of Object.entries(d?.points ?? {})) this.centerPoints.push([name, at(role)]);
    if (d?.pinion) {
      const line: [PointExpr, PointExpr] = [at(d.pinion[0]), at(d.pinion[1])];
      this.pinion = { line, design: pitchOf(value(line[0]), value(line[1])) };
    }
    if (isBeamAxle(sm)) this.beamDesign = [Float64Array.from(sm.corners[0].design.wheelCenter), Float64Array.from(sm.corners[1].design.wheelCenter)];
    this.levers = (sm.roles.levers ?? []).map((l) => ({ name: l.name, a: at(l.axis[0]), b: at(l.axis[1]), pickup: at(l.pickup), end: at(l.link_end) }));
  }

  /**
   * Adds the device metrics of the current state to `metrics` (flat for a corner, grouped
   * for an axle) and the axle-level points to `positions`. `dual(e)` gives a point with its
   * rates along the evaluation's tangent (direction k < corners = that corner's hub z).
   */
  addMetrics(
    sm: ModelPoints,
    dual: (e: PointExpr) => DualVec3,
    n: number,
    haveDerivatives: boolean,
    metrics: MetricValues | { axle: MetricValues; left: MetricValues; right: MetricValues },
    positions: Record<string, [number, number, number]>,
  ): void {
    const grouped = 'axle' in metrics && typeof metrics.axle === 'object' && metrics.axle !== null;
    const cornerOut = (i: number): MetricValues => (grouped ? (metrics as Record<string, MetricValues>)[sm.corners[i].roles.side] : (metrics as MetricValues));
    const axleOut = grouped ? (metrics as { axle: MetricValues }).axle : (metrics as MetricValues);
    const k = (d: DualVec3 | Float64Array) => (d instanceof DualVec3 ? d : constVec(n, d));
    this.torsion.forEach((t, i) => {
      if (!t) return;
      const twist = torsionBarTwist(dual(t.a), dual(t.b), dual(t.p), k(t.design), sm.corners[i].sigma);
      const out = cornerOut(i);
      out.torsion_bar_twist = twist.v;
      out.deriv_torsion_bar_twist_wrt_hub_z = haveDerivatives ? twist.d[i] : null;
    });
    const perSide = (name: string, value: Dual) => {
      axleOut[name] = value.v;
      axleOut[`deriv_${name}_wrt_hub_z_left`] = haveDerivatives ? value.d[0] : null;
      axleOut[`deriv_${name}_wrt_hub_z_right`] = haveDerivatives ? value.d[1] : null;
    };
    if (this.uBar) {
      const u = this.uBar;
      const a = dual(u.a), b = dual(u.b);
      const left = uBarArmAngle(a, b, dual(u.arms[0]), k(u.design[0])), right = uBarArmAngle(a, b, dual(u.arms[1]), k(u.design[1]));
      cornerOut(0).arb_arm_angle = left.v;
      cornerOut(1).arb_arm_angle = right.v;
      perSide('arb_twist', subDual(left, right));
    }
    if (this.tBar) {
      const t = this.tBar;
      const m = tBarMetrics(dual(t.ends[0]), dual(t.ends[1]), dual(t.pivot), { left: k(t.design.left), right: k(t.design.right), pivot: k(t.design.pivot) });
      perSide('arb_twist', m.arb_twist);
      axleOut.t_bar_heave_angle = m.t_bar_heave_angle.v;
      axleOut.deriv_t_bar_center_x_wrt_hub_z_left = haveDerivatives ? m.t_bar_center_x.d[0] : null;
      axleOut.deriv_t_bar_center_x_wrt_hub_z_right = haveDerivatives ? m.t_bar_center_x.d[1] : null;
    }
    if (this.heave) perSide('heave_link_length', heaveLinkLength(dual(this.heave[0]), dual(this.heave[1])));
    if (this.beamDesign) {
      Object.assign(axleOut, beamAxleMetrics(positions.left_wheel_center, positions.right_wheel_center, this.beamDesign));
      const rc = haveDerivatives ? this.beamRollCenter(sm, dual) : null;
      axleOut.roll_center_linkage_y = rc ? rc[0] : null;
      axleOut.roll_center_linkage_z = rc ? rc[1] : null;
      // the per-upright constructions assume a wheel each: on a beam they are meaningless
      axleOut.roll_center_kinematic_y = null;
      axleOut.roll_center_kinematic_z = null;
      if (this.pinion) axleOut.pinion_angle_change = ((pitchOf(sm.pointValue(this.pinion.line[0]), sm.pointValue(this.pinion.line[1])) - this.pinion.design) * 180) / Math.PI;
    }
    for (const [name, e] of this.centerPoints) {
      const p = sm.pointValue(e);
      positions[name] = [p[0], p[1], p[2]];
    }
  }

  /**
   * A beam axle's roll centre from its locating linkage: under the roll tangent (left hub up,
   * right hub down, each at unit rate) the beam turns about an axis; the roll centre is the
   * point of the plane x = mean wheel-centre x whose lateral and vertical velocities vanish.
   * Null when the beam does not turn about x (ω_x = 0) or the fit is not valid.
   */
  private beamRollCenter(sm: ModelPoints, dual: (e: PointExpr) => DualVec3): [number, number] | null {
    // every point of the beam the corners name (the spin-axis points alone are collinear)
    const beam = sm.corners[0].upright;
    const onBeam = (e: PointExpr) => e.every((t) => t.variable === beam);
    const exprs = [sm.corners[0].axle[0], sm.corners[0].axle[1], sm.corners[1].axle[0], sm.corners[1].axle[1], ...sm.corners.flatMap((c) => [...c.points.values()].filter(onBeam))];
    const n = exprs.length;
    const positions = new Float64Array(3 * n), rates = new Float64Array(3 * n);
    exprs.forEach((e, j) => {
      const p = dual(e);
      for (let i = 0; i < 3; i++) {
        positions[3 * j + i] = p.v[i];
        rates[3 * j + i] = p.d[i * p.n + 0] - p.d[i * p.n + 1];
      }
    });
    const fit = fitScrewAxis(positions, rates, n);
    if (fit.status !== 'valid' && fit.status !== 'near_pure_translation') return null;
    const w = fit.omega, v = fit.v, c = fit.centroid;
    if (!(Math.abs(w[0]) > 1e-12)) return null;
    const x0 = (sm.pointValue(exprs[1])[0] + sm.pointValue(exprs[3])[0]) / 2;
    return [c[1] + (w[1] * (x0 - c[0]) - v[2]) / w[0], c[2] + (v[1] + w[2] * (x0 - c[0])) / w[0]];
  }

  /** The signed transmission ratio of every link/lever pair now (see `leverTransmission`). */
  transmissions(sm: ModelPoints): { name: string; ratio: number }[] {
    return this.levers.map((l) => ({
      name: l.name,
      ratio: leverTransmission(sm.pointValue(l.a, scratch[0]), sm.pointValue(l.b, scratch[1]), sm.pointValue(l.pickup, scratch[2]), sm.pointValue(l.end, scratch[3])),
    }));
  }
}

const scratch = [new Float64Array(3), new Float64Array(3), new Float64Array(3), new Float64Array(3)];

function constVec(n: number, p: Float64Array): DualVec3 {
  const out = new DualVec3(n);
  out.v.set(p);
  return out;
}
function subDual(a: Dual, b: Dual): Dual {
  return dSub(new Dual(a.n), a, b);
}

/** Both corners on one body: a beam axle (live or De Dion). */
function isBeamAxle(sm: ModelPoints): boolean {
  return sm.corners.length === 2 && sm.corners[0].upright === sm.corners[1].upright;
}

/**
 * A beam axle's own motion, from the wheel centres L, R (right → left line):
 * `axle_lateral_shift` = change of the mean of L.y and R.y since design (mm, + = left);
 * `axle_steer` = change of the line's heading atan2(−(L−R).x, (L−R).y) (deg, + = a left
 * turn: in a roll sweep this is the roll steer).
 */
export function beamAxleMetrics(left: ArrayLike<number>, right: ArrayLike<number>, design: [ArrayLike<number>, ArrayLike<number>]): { axle_lateral_shift: number; axle_steer: number } {
  const heading = (l: ArrayLike<number>, r: ArrayLike<number>) => Math.atan2(-(l[0] - r[0]), l[1] - r[1]);
  return {
    axle_lateral_shift: (left[1] + right[1]) / 2 - (design[0][1] + design[1][1]) / 2,
    axle_steer: ((heading(left, right) - heading(design[0], design[1])) * 180) / Math.PI,
  };
}

/** The heading of the line a → b in the x–z plane, measured right-handed about +Y from +z (rad). */
function pitchOf(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.atan2(b[0] - a[0], b[2] - a[2]);
}
