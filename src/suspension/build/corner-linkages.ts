/**
 * The linkage of one corner per topology (double wishbone, MacPherson, multi-link,
 * trailing arm): its parts, points and mates, written through a `CornerBuild` that
 * collects the roles. Arm pivots go through compliance.ts (a hinge, or bushings and a
 * ball where the file has bushings). Creation order is the order the rigid build always
 * had: the solver's structure, and so every figure, follows it.
 */
import type { Geometry, CornerGeometry, Point3 } from '../files';
import type { CornerCompliance } from '../files/compliance';
import type { CornerRoles, InstantAxisRole, PointRole, ComplianceRoles } from './roles';
import { dist, fractionSource, sub, type Builder } from './builder';
import { addBushing, armPivots } from './compliance';

/** What a corner's builders share and fill in. */
export interface CornerBuild {
  b: Builder;
  g: Geometry;
  corner: CornerGeometry;
  hp: Record<string, Point3>;
  /** `left_`/`right_` on an axle, '' on a corner. */
  px: string;
  chassis: string;
  steered: boolean;
  upright: string;
  compliance: CornerCompliance | undefined;
  complianceRoles: ComplianceRoles;
  points: Record<string, PointRole>;
  holds: CornerRoles['holds'];
  warnings: Record<string, string>;
  steeringAxis: [string, string] | null;
  instant: InstantAxisRole;
  rocker?: CornerRoles['rocker'];
}

const has = (c: CornerBuild, n: string) => Object.hasOwn(c.hp, n);
/** A hardpoint as a point of `part`, recorded in the roles under its own name. */
const on = (c: CornerBuild, part: string, n: string): string => (c.points[n] = c.b.point(part, n, c.hp[n])) as string;
const partOfMount = (c: CornerBuild, m: string) => (m === 'upright' ? c.upright : `${c.px}${m}`);

function trackRod(c: CornerBuild): void {
  const { b, hp, px } = c;
  const inboardPart = c.steered ? 'rack' : c.chassis;
  c.points.trackrod_inboard = b.point(inboardPart, `${px}trackrod_inboard`, hp.trackrod_inboard);
  on(c, c.upright, 'trackrod_outboard');
  b.mate(`${px}trackrod`, { type: 'distance', a: c.points.trackrod_inboard, b: c.points.trackrod_outboard as string, value: dist(hp.trackrod_inboard, hp.trackrod_outboard) });
}

function wishbone(c: CornerBuild, which: 'lower' | 'upper'): string {
  const { b, hp, px, chassis } = c;
  const part = `${px}${which}_wishbone`;
  const f = `${which}_wishbone_inboard_front`, r = `${which}_wishbone_inboard_rear`, o = `${which}_wishbone_outboard`;
  c.points[f] = b.point(chassis, `${px}${f}`, hp[f]);
  c.points[r] = b.point(chassis, `${px}${r}`, hp[r]);
  b.point(part, f, hp[f]); b.point(part, r, hp[r]);
  armPivots(b, c.compliance, c.complianceRoles, c.corner.side, px, `${px}${which}_hinge`, chassis, part, hp, [f, r]);
  b.ball(`${px}${which}_ball`, part, c.upright, o, hp[o]);
  c.points[o] = `${c.upright}.${o}`;
  return part;
}

function rockerActuation(c: CornerBuild): void {
  const { b, hp, px, chassis } = c;
  const mount = c.g.actuation.mount;
  const rk = `${px}rocker`;
  c.points.rocker_axis_a = b.point(chassis, `${px}rocker_axis_a`, hp.rocker_axis_a);
  c.points.rocker_axis_b = b.point(chassis, `${px}rocker_axis_b`, hp.rocker_axis_b);
  armPivots(b, c.compliance, c.complianceRoles, c.corner.side, px, `${px}rocker_hinge`, chassis, rk, hp, ['rocker_axis_a', 'rocker_axis_b']);
  const rodMount = partOfMount(c, mount);
  c.points.pushrod_outboard = b.point(rodMount, 'pushrod_outboard', hp.pushrod_outboard);
  c.points.pushrod_inboard = b.point(rk, 'pushrod_inboard', hp.pushrod_inboard);
  b.mate(`${px}pushrod`, { type: 'distance', a: c.points.pushrod_outboard, b: c.points.pushrod_inboard, value: dist(hp.pushrod_outboard, hp.pushrod_inboard) });
  if (has(c, 'strut_bottom')) c.points.strut_bottom = b.point(rk, 'strut_bottom', hp.strut_bottom);
  if (has(c, 'strut_top')) c.points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
  c.rocker = { axis: [c.points.rocker_axis_a, c.points.rocker_axis_b], point: c.points.pushrod_inboard };
  if (mount === 'upright') c.warnings.damper_length = 'the pushrod is on the upright: holding the damper length couples steering into the hold, so the axis is not the kingpin';
}

export function doubleWishbone(c: CornerBuild): void {
  const { points, px } = c;
  wishbone(c, 'lower'); wishbone(c, 'upper');
  trackRod(c);
  c.steeringAxis = [points.lower_wishbone_outboard as string, points.upper_wishbone_outboard as string];
  c.instant = {
    type: 'planes',
    lower: [points.lower_wishbone_inboard_front, points.lower_wishbone_inboard_rear, points.lower_wishbone_outboard] as [string, string, string],
    upper: [points.upper_wishbone_inboard_front, points.upper_wishbone_inboard_rear, points.upper_wishbone_outboard] as [string, string, string],
  };
  c.holds.lower_wishbone_angle = [`${px}lower_hinge.angle`];
  c.holds.upper_wishbone_angle = [`${px}upper_hinge.angle`];
  c.holds.default = 'lower_wishbone_angle';
  const act = c.g.actuation.type;
  if (act === 'pushrod_rocker' || act === 'pullrod_rocker') rockerActuation(c);
  else if (has(c, 'strut_bottom') && has(c, 'strut_top')) {
    points.strut_bottom = c.b.point(partOfMount(c, c.g.actuation.mount), 'strut_bottom', c.hp.strut_bottom);
    points.strut_top = c.b.point(c.chassis, `${px}strut_top`, c.hp.strut_top);
  }
}

export function macPherson(c: CornerBuild): void {
  const { b, hp, px, points, upright } = c;
  wishbone(c, 'lower');
  trackRod(c);
  on(c, upright, 'strut_bottom');
  const topBushing = c.compliance?.bushings.strut_top;
  if (topBushing) {
    // the strut: a part sliding in the upright along the strut line, held to the chassis by the top-mount bushing
    const strut = `${px}strut`;
    b.axis(upright, 'strut_line', hp.strut_bottom, hp.strut_top);
    b.axis(strut, 'strut_line', hp.strut_bottom, hp.strut_top);
    b.mate(`${px}strut_slide`, { type: 'slider', a: `${upright}.strut_line`, b: `${strut}.strut_line` });
    points.strut_top = b.point(strut, 'strut_top', hp.strut_top);
    addBushing(b, c.complianceRoles, c.corner.side, px, 'strut_top', c.chassis, strut, hp, topBushing, sub(hp.strut_top, hp.strut_bottom));
  } else {
    points.strut_top = b.point(c.chassis, `${px}strut_top`, hp.strut_top);
    // strut_top stays on the upright's strut line; the upright turns about it
    b.axis(upright, 'strut_line', hp.strut_bottom, hp.strut_top);
    b.mate(`${px}strut_mount`, { type: 'coincident', a: points.strut_top as string, b: `${upright}.strut_line` });
  }
  c.steeringAxis = [points.lower_wishbone_outboard as string, points.strut_top as string];
  c.instant = {
    type: 'plane_and_strut',
    plane: [points.lower_wishbone_inboard_front, points.lower_wishbone_inboard_rear, points.lower_wishbone_outboard] as [string, string, string],
    strut: [points.strut_bottom as string, points.strut_top as string],
  };
  c.holds.strut_length = [{ length: [points.strut_bottom as string, points.strut_top as string] }];
  c.holds.lower_arm_angle = [`${px}lower_hinge.angle`];
  c.holds.default = 'strut_length';
}

export function multiLink(c: CornerBuild): void {
  const { b, hp, px, points, chassis, upright } = c;
  for (const rod of ['upper_front_link', 'upper_rear_link', 'lower_front_link', 'lower_rear_link']) {
    points[`${rod}_inboard`] = b.point(chassis, `${px}${rod}_inboard`, hp[`${rod}_inboard`]);
    on(c, upright, `${rod}_outboard`);
    b.mate(`${px}${rod}`, { type: 'distance', a: points[`${rod}_inboard`] as string, b: points[`${rod}_outboard`] as string, value: dist(hp[`${rod}_inboard`], hp[`${rod}_outboard`]) });
  }
  trackRod(c);
  if (!has(c, 'strut_bottom') || !has(c, 'strut_top')) return;
  const mount = c.g.actuation.mount;
  points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
  if (mount === 'upright') { points.strut_bottom = b.point(upright, 'strut_bottom', hp.strut_bottom); return; }
  // on the rod's centreline, at the fraction of strut_bottom's projection on it (it moves with all three)
  const i = hp[`${mount}_inboard`], o = hp[`${mount}_outboard`], s = hp.strut_bottom;
  const d = sub(o, i), len2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
  const f = ((s[0] - i[0]) * d[0] + (s[1] - i[1]) * d[1] + (s[2] - i[2]) * d[2]) / len2;
  const role = { between: [points[`${mount}_inboard`] as string, points[`${mount}_outboard`] as string] as [string, string], fraction: f };
  fractionSource.set(role, s);
  points.strut_bottom = role;
}

export function trailingArm(c: CornerBuild): void {
  const { b, hp, px, points, chassis } = c;
  const arm = c.upright;
  points.trailing_arm_pivot_a = b.point(chassis, `${px}trailing_arm_pivot_a`, hp.trailing_arm_pivot_a);
  points.trailing_arm_pivot_b = b.point(chassis, `${px}trailing_arm_pivot_b`, hp.trailing_arm_pivot_b);
  armPivots(b, c.compliance, c.complianceRoles, c.corner.side, px, `${px}arm_hinge`, chassis, arm, hp, ['trailing_arm_pivot_a', 'trailing_arm_pivot_b']);
  on(c, arm, 'trailing_arm_outboard'); on(c, arm, 'axle_inboard'); on(c, arm, 'axle_outboard');
  if (has(c, 'strut_bottom')) on(c, arm, 'strut_bottom');
  if (has(c, 'strut_top')) points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
  c.instant = { type: 'line', line: [points.trailing_arm_pivot_a as string, points.trailing_arm_pivot_b as string] };
}
