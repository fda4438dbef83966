/**
 * Suspension templates as generators of mated assemblies: a geometry file in, an assembly
 * document (parts, mates, a `suspension` roles section) out. Nothing here solves; the
 * document is solved like any other (it can be saved and run by `kinemate solve`).
 *
 * Every part sits at the identity pose at design, so its points are written in chassis
 * coordinates. Two-ball links (track rods, pushrods, multi-link rods) are distance mates,
 * not parts: their idle spin is then no degree of freedom at all.
 */
import type { AssemblyDoc, ForceDoc, MateDoc, PartDoc } from '../../assembly/types';
import type { Geometry, CornerGeometry, Point3 } from '../files';
import type { CornerRoles, SuspensionRoles, HoldRole, PointRole, ComplianceRoles } from './roles';
import { Builder, dist } from './builder';
import { compliantLinks, dropRemovedHolds } from './compliance';
import { doubleWishbone, macPherson, multiLink, trailingArm, type CornerBuild } from './corner-linkages';
export { Builder, entitySource, axisTipSource, fractionSource } from './builder';
import { buildAxleDevices, buildCornerDevices } from './devices';
import { addDeviceForces } from './device-forces';
import { buildSolidAxleCenter, buildSolidAxleCorner } from './solid-axle';

/** Generate the mated assembly for a geometry (a corner or a whole axle). */
export function suspensionAssembly(geometry: Geometry, name = `${geometry.topology} ${geometry.scope}`): AssemblyDoc {
  const b = new Builder();
  const chassis = 'chassis';
  b.part(chassis, true);
  const steered = geometry.steering === 'rack' && geometry.topology !== 'trailing_arm';
  if (steered) {
    b.part('rack');
    const y: Point3 = [0, 1, 0];
    const origin = geometry.corners[0].hardpoints.trackrod_inboard;
    b.mate('rack_slide', { type: 'slider', a: b.axis(chassis, 'rack_axis', origin, [origin[0] + y[0], origin[1] + y[1], origin[2] + y[2]]), b: b.axis('rack', 'rack_axis', origin, [origin[0], origin[1] + 1, origin[2]]) });
  }
  const corners: CornerRoles[] = [];
  const prefix = (side: string) => (geometry.scope === 'axle' ? `${side}_` : '');
  const complianceRoles: ComplianceRoles = { bushings: {}, links: {} };
  for (const corner of geometry.corners) corners.push(buildCorner(b, geometry, corner, prefix(corner.side), chassis, steered, complianceRoles));
  const roles: SuspensionRoles = {
    scope: geometry.scope,
    topology: geometry.topology,
    chassis,
    steering: steered ? 'rack_slide.slide' : null,
    axle_position: geometry.axle_position,
    vehicle: { ...geometry.vehicle },
    corners,
    ...(geometry.rack_travel_per_revolution !== undefined ? { rack_travel_per_revolution: geometry.rack_travel_per_revolution } : {}),
  };
  buildAxleDevices(b, geometry, roles, chassis);
  addDeviceForces(b, geometry, roles);
  if (geometry.topology === 'solid_axle') buildSolidAxleCenter(b, geometry, roles, chassis);
  if (geometry.compliance) {
    compliantLinks(b, geometry.compliance, geometry.corners.map((c) => prefix(c.side)), complianceRoles);
    roles.compliance = complianceRoles;
  }
  return {
    format: 'kinemate.assembly/1',
    name,
    units: { length: 'mm', angle: 'deg' },
    parts: b.parts_(),
    mates: b.mates,
    state: {},
    held: [],
    suspension: roles,
    ...(Object.keys(b.forces).length ? { forces: b.forces } : {}),
  };
}

function buildCorner(b: Builder, g: Geometry, corner: CornerGeometry, px: string, chassis: string, steered: boolean, complianceRoles: ComplianceRoles): CornerRoles {
  if (g.topology === 'solid_axle') {
    // the beam's coil-overs act as any corner's do (they were left out, and a beam axle's
    // spring rate then moved nothing: the vehicle's live axle hung on its links alone)
    const roles = buildSolidAxleCorner(b, g, corner, px, chassis);
    coiloverSpring(b, g, corner.hardpoints, px, roles.points);
    return roles;
  }
  const c: CornerBuild = {
    b, g, corner, hp: corner.hardpoints, px, chassis, steered, upright: `${px}upright`,
    compliance: g.compliance?.corners[g.corners.indexOf(corner)], complianceRoles,
    points: {}, holds: { default: null }, warnings: {}, steeringAxis: null, instant: { type: 'screw' },
  };
  // wheel carrier points shared by all topologies
  if (g.topology !== 'trailing_arm') {
    b.point(c.upright, 'axle_inboard', c.hp.axle_inboard); c.points.axle_inboard = `${c.upright}.axle_inboard`;
    b.point(c.upright, 'axle_outboard', c.hp.axle_outboard); c.points.axle_outboard = `${c.upright}.axle_outboard`;
  }
  switch (g.topology) {
    case 'double_wishbone': doubleWishbone(c); break;
    case 'macpherson': macPherson(c); break;
    case 'multi_link': multiLink(c); break;
    case 'trailing_arm': trailingArm(c); break;
  }
  cornerSprings(c);
  return cornerRoles(c);
}

/** The geometry's coilover or rocker torsion bar as force elements. */
function cornerSprings(c: CornerBuild): void {
  const { b, g, px } = c;
  const spring = g.spring;
  coiloverSpring(b, g, c.hp, px, c.points);
  if (spring.rate !== undefined && spring.type === 'torsion_bar' && b.mates[`${px}rocker_hinge`]) {
    // the bar twists with the rocker shaft: −rate·(angle − free), free so that it carries `preload` at design
    b.forces[`${px}torsion_bar`] = { type: 'coordinate_spring', coordinate: `${px}rocker_hinge.angle`, stiffness: spring.rate, free: spring.rate > 0 ? (spring.preload ?? 0) / spring.rate : 0 };
  }
}

/** A coilover between strut_top on the chassis (a) and strut_bottom on its mount (b); free length defaults to the design length. */
function coiloverSpring(b: Builder, g: Geometry, hp: Record<string, Point3>, px: string, points: Record<string, PointRole>): void {
  const spring = g.spring;
  if (spring.rate === undefined || spring.type !== 'coilover' || typeof points.strut_bottom !== 'string' || typeof points.strut_top !== 'string') return;
  const free = spring.free_length ?? dist(hp.strut_top, hp.strut_bottom);
  b.forces[`${px}spring`] = spring.damping !== undefined
    ? { type: 'springdamper', a: points.strut_top, b: points.strut_bottom, stiffness: spring.rate, length: free, preload: spring.preload, damping: spring.damping }
    : { type: 'spring', a: points.strut_top, b: points.strut_bottom, stiffness: spring.rate, length: free, preload: spring.preload };
}

/** The corner's devices, damper and holds, and its roles. */
function cornerRoles(c: CornerBuild): CornerRoles {
  const { b, g, corner, px, chassis, points, holds } = c;
  let damper: [PointRole, PointRole] | undefined;
  const devices = buildCornerDevices(b, g, corner, px, chassis, points);
  if (devices.damper) damper = devices.damper;
  else if (points.strut_bottom !== undefined && points.strut_top !== undefined) {
    damper = [points.strut_bottom, points.strut_top as string];
  }
  if (damper) {
    if (g.topology === 'double_wishbone' || g.topology === 'multi_link') {
      holds.damper_length = [{ length: damper } as HoldRole];
      if (g.topology === 'multi_link') holds.default = 'damper_length';
    }
  }
  const roles: CornerRoles = {
    side: corner.side,
    upright: c.upright,
    points,
    axle: [points.axle_inboard, points.axle_outboard],
    steering_axis: c.steeringAxis,
    instant_axis: c.instant,
    wheel: { offset: g.wheel.offset, tire: { ...g.wheel.tire } },
    holds,
  };
  if (c.compliance) dropRemovedHolds(holds, b.mates);
  if (damper) roles.damper = damper;
  if (devices.torsion_bar) roles.torsion_bar = devices.torsion_bar;
  if (c.rocker) roles.rocker = c.rocker;
  if (Object.keys(c.warnings).length) roles.hold_warnings = c.warnings;
  return roles;
}
