/**
 * The devices' rates as force elements (docs/suspension-devices.md, "Rates"), so statics,
 * equilibrium, modes and the suspension rates see them like any other element:
 * - a U-bar's torsional rate: a bushing between the two arms, stiff only in turn about the
 *   bar axis (both arms turn about that one axis, so its rotation is exactly the twist);
 * - a T-bar's: a bushing between the chassis and the crossbar at the pivot, stiff only in
 *   turn about the stem (pivot → crossbar midpoint at design): exact in roll, the heave
 *   turn (about y) is free;
 * - a heave spring on the rocker-to-rocker heave link; a linear damper's rate;
 * - a trailing arm's torsion bar: a coordinate spring on the arm's hinge.
 * Nothing is added for a device whose file gives no rate.
 */
import type { Geometry, Point3 } from '../files';
import type { SuspensionRoles } from './roles';
import type { Builder } from './builder';

const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

export function addDeviceForces(b: Builder, g: Geometry, roles: SuspensionRoles): void {
  const d = g.devices;
  const center = g.center ?? {};
  const prefix = (side: string) => (g.scope === 'axle' ? `${side}_` : '');
  const hp = (side: string) => g.corners.find((c) => c.side === side)!.hardpoints;
  if (d?.anti_roll === 'u_bar' && d.anti_roll_rate !== undefined && g.scope === 'axle') {
    const a = center.arb_u_bar_axis_a, axis = sub(center.arb_u_bar_axis_b, a);
    b.forces.arb = {
      type: 'bushing', a: b.frame('left_arb_arm', 'arb_torsion', a, axis), b: b.frame('right_arb_arm', 'arb_torsion', a, axis),
      stiffness: [0, 0, 0], rotational_stiffness: [d.anti_roll_rate, 0, 0],
    };
  }
  if (d?.anti_roll === 't_bar' && d.anti_roll_rate !== undefined && g.scope === 'axle') {
    const pivot = center.arb_t_bar_pivot, l = hp('left').droplink_t_bar, r = hp('right').droplink_t_bar;
    const stem = sub([(l[0] + r[0]) / 2, (l[1] + r[1]) / 2, (l[2] + r[2]) / 2], pivot);
    b.forces.arb = {
      type: 'bushing', a: b.frame(roles.chassis, 'arb_t_bar_stem', pivot, stem), b: b.frame('t_bar', 'stem', pivot, stem),
      stiffness: [0, 0, 0], rotational_stiffness: [d.anti_roll_rate, 0, 0],
    };
  }
  const heave = d?.heave_spring;
  if (d?.heave_link === 'rocker_to_rocker' && heave && g.scope === 'axle') {
    const ends = roles.devices!.heave_link!;
    const free = heave.free_length ?? dist(hp('left').heave_link_rocker, hp('right').heave_link_rocker);
    const spring = { a: ends.left as string, b: ends.right as string, stiffness: heave.rate, length: free, ...(heave.preload !== undefined ? { preload: heave.preload } : {}) };
    b.forces.heave_spring = heave.damping !== undefined ? { type: 'springdamper', ...spring, damping: heave.damping } : { type: 'spring', ...spring };
  }
  for (const c of roles.corners) {
    const px = prefix(c.side);
    if (d?.damper === 'linear' && d.damper_rate !== undefined && c.damper) {
      b.forces[`${px}damper`] = { type: 'damper', a: c.damper[1] as string, b: c.damper[0] as string, damping: d.damper_rate };
    }
    const spring = g.spring;
    if (g.topology === 'trailing_arm' && spring.type === 'torsion_bar' && spring.rate !== undefined && b.mates[`${px}arm_hinge`]) {
      // the bar twists with the arm about its pivot axis: −rate·(angle − free), carrying `preload` at design
      b.forces[`${px}torsion_bar`] = { type: 'coordinate_spring', coordinate: `${px}arm_hinge.angle`, stiffness: spring.rate, free: spring.rate > 0 ? (spring.preload ?? 0) / spring.rate : 0 };
    }
  }
}

function sub(a: Point3, b: Point3): Point3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
