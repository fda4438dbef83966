/**
 * Beam axles (`type: solid_axle`, an axle file): one part, `axle`, carries both wheels and is
 * located by two-ball links (distance mates) — a lower link per side, then either an angled
 * upper link per side (four_link), or one central upper link and a Panhard rod (panhard) or
 * a Watt's linkage (watts: a centre link turning on the beam about x, its ends tied to the
 * chassis by two lateral rods). Heave and roll are the beam's two freedoms; a spring's
 * `strut_bottom` is a point of the beam. A De Dion beam is located the same way; only the
 * final drive (not modelled) sits on the chassis, so it has no pinion angle.
 */
import type { Geometry, CornerGeometry, Point3 } from '../files';
import type { Builder } from './builder';
import type { CornerRoles, PointRole, SuspensionRoles } from './roles';

export const BEAM = 'axle';

export function buildSolidAxleCorner(b: Builder, g: Geometry, corner: CornerGeometry, px: string, chassis: string): CornerRoles {
  const hp = corner.hardpoints;
  const points: Record<string, PointRole> = {};
  const onBeam = (name: string) => (points[name] = b.point(BEAM, `${px}${name}`, hp[name]));
  onBeam('axle_inboard');
  onBeam('axle_outboard');
  const link = (name: string) => {
    b.link(`${px}${name}`, chassis, `${px}${name}_chassis`, hp[`${name}_chassis`], BEAM, `${px}${name}_axle`, hp[`${name}_axle`]);
    points[`${name}_chassis`] = `${chassis}.${px}${name}_chassis`;
    points[`${name}_axle`] = `${BEAM}.${px}${name}_axle`;
  };
  link('lower_link');
  if (g.devices?.beam?.locating === 'four_link') link('upper_link');
  const roles: CornerRoles = {
    side: corner.side,
    upright: BEAM,
    points,
    axle: [points.axle_inboard, points.axle_outboard],
    steering_axis: null,
    instant_axis: { type: 'screw' },
    wheel: { offset: g.wheel.offset, tire: { ...g.wheel.tire } },
    holds: { default: null },
  };
  if (Object.hasOwn(hp, 'strut_bottom') && Object.hasOwn(hp, 'strut_top')) {
    onBeam('strut_bottom');
    points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
    roles.damper = [points.strut_bottom, points.strut_top];
  }
  return roles;
}

/** The central links (upper link, Panhard rod, Watt's linkage) and the pinion line of a live beam. */
export function buildSolidAxleCenter(b: Builder, g: Geometry, roles: SuspensionRoles, chassis: string): void {
  const c = g.center ?? {};
  const beam = g.devices?.beam;
  if (!beam) return;
  const centerPoints: Record<string, PointRole> = { ...(roles.devices?.points ?? {}) };
  const link = (name: string, from: Point3, to: Point3) => {
    b.link(name, chassis, `${name}_chassis`, from, BEAM, `${name}_axle`, to);
    centerPoints[`center_${name}_axle`] = `${BEAM}.${name}_axle`;
  };
  if (beam.locating !== 'four_link') link('upper_link', c.upper_link_chassis, c.upper_link_axle);
  if (beam.locating === 'panhard') link('panhard', c.panhard_chassis, c.panhard_axle);
  if (beam.locating === 'watts') {
    const pivot = c.watts_pivot;
    const along: Point3 = [pivot[0] + 1, pivot[1], pivot[2]];
    b.mate('watts_pivot', { type: 'revolute', a: b.axis(BEAM, 'watts_axis', pivot, along), b: b.axis('watts_link', 'watts_axis', pivot, along) });
    centerPoints.center_watts_pivot = b.point(BEAM, 'watts_pivot', pivot);
    b.link('watts_top_rod', 'watts_link', 'watts_top', c.watts_top, chassis, 'watts_top_chassis', c.watts_top_chassis);
    b.link('watts_bottom_rod', 'watts_link', 'watts_bottom', c.watts_bottom, chassis, 'watts_bottom_chassis', c.watts_bottom_chassis);
    centerPoints.center_watts_top = 'watts_link.watts_top';
    centerPoints.center_watts_bottom = 'watts_link.watts_bottom';
  }
  const [left, right] = roles.corners;
  const devices = (roles.devices ??= {});
  devices.points = centerPoints;
  // the beam's pitch: the line from the lower links' beam ends (their midpoint) to the upper
  // ones' (midpoint, or the central link's), symmetric so that roll does not read as pitch
  const mid = (name: string): PointRole => ({ between: [left.points[name] as string, right.points[name] as string], fraction: 0.5 });
  if (beam.type === 'live') devices.pinion = [mid('lower_link_axle'), beam.locating === 'four_link' ? mid('upper_link_axle') : `${BEAM}.upper_link_axle`];
}
