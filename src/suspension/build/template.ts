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
import type { CornerRoles, SuspensionRoles, HoldRole, InstantAxisRole, PointRole } from './roles';
import { Builder, dist, entitySource, axisTipSource, fractionSource, sub } from './builder';
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
  for (const corner of geometry.corners) corners.push(buildCorner(b, geometry, corner, prefix(corner.side), chassis, steered));
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

function buildCorner(b: Builder, g: Geometry, corner: CornerGeometry, px: string, chassis: string, steered: boolean): CornerRoles {
  if (g.topology === 'solid_axle') return buildSolidAxleCorner(b, g, corner, px, chassis);
  const hp = corner.hardpoints;
  const has = (n: string) => Object.hasOwn(hp, n);
  const upright = `${px}upright`;
  const points: Record<string, string | { between: [string, string]; fraction: number }> = {};
  const on = (part: string, n: string) => { points[n] = b.point(part, n, hp[n]); return points[n] as string; };
  const holds: CornerRoles['holds'] = { default: null };
  const warnings: Record<string, string> = {};
  let steeringAxis: [string, string] | null = null;
  let instant: InstantAxisRole = { type: 'screw' };
  let damper: [PointRole, PointRole] | undefined;
  let rocker: CornerRoles['rocker'];
  const mount = g.actuation.mount;
  const partOfMount = (m: string) => (m === 'upright' ? upright : `${px}${m}`);

  // wheel carrier points shared by all topologies
  if (g.topology !== 'trailing_arm') {
    on(upright, 'axle_inboard'); on(upright, 'axle_outboard');
  }
  const trackRod = () => {
    const inboardPart = steered ? 'rack' : chassis;
    points.trackrod_inboard = b.point(inboardPart, `${px}trackrod_inboard`, hp.trackrod_inboard);
    on(upright, 'trackrod_outboard');
    b.mate(`${px}trackrod`, { type: 'distance', a: points.trackrod_inboard, b: points.trackrod_outboard as string, value: dist(hp.trackrod_inboard, hp.trackrod_outboard) });
  };
  const wishbone = (which: 'lower' | 'upper') => {
    const part = `${px}${which}_wishbone`;
    const f = `${which}_wishbone_inboard_front`, r = `${which}_wishbone_inboard_rear`, o = `${which}_wishbone_outboard`;
    points[f] = b.point(chassis, `${px}${f}`, hp[f]);
    points[r] = b.point(chassis, `${px}${r}`, hp[r]);
    b.point(part, f, hp[f]); b.point(part, r, hp[r]);
    b.hinge(`${px}${which}_hinge`, chassis, part, hp[f], hp[r]);
    b.ball(`${px}${which}_ball`, part, upright, o, hp[o]);
    points[o] = `${upright}.${o}`;
    return part;
  };

  switch (g.topology) {
    case 'double_wishbone': {
      wishbone('lower'); wishbone('upper');
      trackRod();
      steeringAxis = [points.lower_wishbone_outboard as string, points.upper_wishbone_outboard as string];
      instant = {
        type: 'planes',
        lower: [points.lower_wishbone_inboard_front, points.lower_wishbone_inboard_rear, points.lower_wishbone_outboard] as [string, string, string],
        upper: [points.upper_wishbone_inboard_front, points.upper_wishbone_inboard_rear, points.upper_wishbone_outboard] as [string, string, string],
      };
      holds.lower_wishbone_angle = [`${px}lower_hinge.angle`];
      holds.upper_wishbone_angle = [`${px}upper_hinge.angle`];
      holds.default = 'lower_wishbone_angle';
      if (g.actuation.type === 'pushrod_rocker' || g.actuation.type === 'pullrod_rocker') {
        const rk = `${px}rocker`;
        points.rocker_axis_a = b.point(chassis, `${px}rocker_axis_a`, hp.rocker_axis_a);
        points.rocker_axis_b = b.point(chassis, `${px}rocker_axis_b`, hp.rocker_axis_b);
        b.hinge(`${px}rocker_hinge`, chassis, rk, hp.rocker_axis_a, hp.rocker_axis_b);
        const rodMount = partOfMount(mount);
        points.pushrod_outboard = b.point(rodMount, 'pushrod_outboard', hp.pushrod_outboard);
        points.pushrod_inboard = b.point(rk, 'pushrod_inboard', hp.pushrod_inboard);
        b.mate(`${px}pushrod`, { type: 'distance', a: points.pushrod_outboard, b: points.pushrod_inboard, value: dist(hp.pushrod_outboard, hp.pushrod_inboard) });
        if (has('strut_bottom')) points.strut_bottom = b.point(rk, 'strut_bottom', hp.strut_bottom);
        if (has('strut_top')) points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
        rocker = { axis: [points.rocker_axis_a, points.rocker_axis_b], point: points.pushrod_inboard };
        if (mount === 'upright') warnings.damper_length = 'the pushrod is on the upright: holding the damper length couples steering into the hold, so the axis is not the kingpin';
      } else if (has('strut_bottom') && has('strut_top')) {
        points.strut_bottom = b.point(partOfMount(mount), 'strut_bottom', hp.strut_bottom);
        points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
      }
      break;
    }
    case 'macpherson': {
      wishbone('lower');
      trackRod();
      on(upright, 'strut_bottom');
      points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
      // strut_top stays on the upright's strut line; the upright turns about it
      b.axis(upright, 'strut_line', hp.strut_bottom, hp.strut_top);
      b.mate(`${px}strut_mount`, { type: 'coincident', a: points.strut_top as string, b: `${upright}.strut_line` });
      steeringAxis = [points.lower_wishbone_outboard as string, points.strut_top as string];
      instant = {
        type: 'plane_and_strut',
        plane: [points.lower_wishbone_inboard_front, points.lower_wishbone_inboard_rear, points.lower_wishbone_outboard] as [string, string, string],
        strut: [points.strut_bottom as string, points.strut_top as string],
      };
      holds.strut_length = [{ length: [points.strut_bottom as string, points.strut_top as string] }];
      holds.lower_arm_angle = [`${px}lower_hinge.angle`];
      holds.default = 'strut_length';
      break;
    }
    case 'multi_link': {
      for (const rod of ['upper_front_link', 'upper_rear_link', 'lower_front_link', 'lower_rear_link']) {
        points[`${rod}_inboard`] = b.point(chassis, `${px}${rod}_inboard`, hp[`${rod}_inboard`]);
        on(upright, `${rod}_outboard`);
        b.mate(`${px}${rod}`, { type: 'distance', a: points[`${rod}_inboard`] as string, b: points[`${rod}_outboard`] as string, value: dist(hp[`${rod}_inboard`], hp[`${rod}_outboard`]) });
      }
      trackRod();
      if (has('strut_bottom') && has('strut_top')) {
        points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
        if (mount === 'upright') points.strut_bottom = b.point(upright, 'strut_bottom', hp.strut_bottom);
        else {
          // on the rod's centreline, at the fraction of strut_bottom's projection on it (it moves with all three)
          const i = hp[`${mount}_inboard`], o = hp[`${mount}_outboard`], s = hp.strut_bottom;
          const d = sub(o, i), len2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
          const f = ((s[0] - i[0]) * d[0] + (s[1] - i[1]) * d[1] + (s[2] - i[2]) * d[2]) / len2;
          const role = { between: [points[`${mount}_inboard`] as string, points[`${mount}_outboard`] as string] as [string, string], fraction: f };
          fractionSource.set(role, s);
          points.strut_bottom = role;
        }
      }
      break;
    }
    case 'trailing_arm': {
      const arm = upright;
      points.trailing_arm_pivot_a = b.point(chassis, `${px}trailing_arm_pivot_a`, hp.trailing_arm_pivot_a);
      points.trailing_arm_pivot_b = b.point(chassis, `${px}trailing_arm_pivot_b`, hp.trailing_arm_pivot_b);
      b.hinge(`${px}arm_hinge`, chassis, arm, hp.trailing_arm_pivot_a, hp.trailing_arm_pivot_b);
      on(arm, 'trailing_arm_outboard'); on(arm, 'axle_inboard'); on(arm, 'axle_outboard');
      if (has('strut_bottom')) on(arm, 'strut_bottom');
      if (has('strut_top')) points.strut_top = b.point(chassis, `${px}strut_top`, hp.strut_top);
      instant = { type: 'line', line: [points.trailing_arm_pivot_a as string, points.trailing_arm_pivot_b as string] };
      break;
    }
  }
  const spring = g.spring;
  if (spring.rate !== undefined && spring.type === 'coilover' && typeof points.strut_bottom === 'string' && typeof points.strut_top === 'string') {
    // strut_top on the chassis (a), strut_bottom on its mount (b); free length defaults to the design length
    const free = spring.free_length ?? dist(hp.strut_top, hp.strut_bottom);
    b.forces[`${px}spring`] = spring.damping !== undefined
      ? { type: 'springdamper', a: points.strut_top, b: points.strut_bottom, stiffness: spring.rate, length: free, preload: spring.preload, damping: spring.damping }
      : { type: 'spring', a: points.strut_top, b: points.strut_bottom, stiffness: spring.rate, length: free, preload: spring.preload };
  }
  if (spring.rate !== undefined && spring.type === 'torsion_bar' && b.mates[`${px}rocker_hinge`]) {
    // the bar twists with the rocker shaft: −rate·(angle − free), free so that it carries `preload` at design
    b.forces[`${px}torsion_bar`] = { type: 'coordinate_spring', coordinate: `${px}rocker_hinge.angle`, stiffness: spring.rate, free: spring.rate > 0 ? (spring.preload ?? 0) / spring.rate : 0 };
  }
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
    upright,
    points,
    axle: [points.axle_inboard, points.axle_outboard],
    steering_axis: steeringAxis,
    instant_axis: instant,
    wheel: { offset: g.wheel.offset, tire: { ...g.wheel.tire } },
    holds,
  };
  if (damper) roles.damper = damper;
  if (devices.torsion_bar) roles.torsion_bar = devices.torsion_bar;
  if (rocker) roles.rocker = rocker;
  if (Object.keys(warnings).length) roles.hold_warnings = warnings;
  return roles;
}
