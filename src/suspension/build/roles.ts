/**
 * The `suspension` section of an assembly file: what the parts of a linkage mean. With it,
 * every sweep, metric, derivative and steering response runs on any mated linkage — a
 * template's or one assembled by hand. Templates are only generators of such assemblies.
 *
 * References are `part.point` (a point entity of a part). A point may also be a derived
 * point between two references: `{ "between": [refA, refB], "fraction": f }` (a damper
 * end on a rod's centreline, where the rod itself is a distance mate, not a part).
 */
import { KinemateError } from '../../../kernel/errors.ts';
import type { Side, AxlePosition } from '../files';

export type PointRole = string | { between: [string, string]; fraction: number };
/** A hold: a coordinate name (`lowerHinge.angle`) or a length between two points to keep. */
export type HoldRole = string | { length: [PointRole, PointRole] };

export type InstantAxisRole =
  /** double wishbone: the line where the two wishbone planes (three points each) meet */
  | { type: 'planes'; lower: [PointRole, PointRole, PointRole]; upper: [PointRole, PointRole, PointRole] }
  /** MacPherson: the lower-arm plane met with the plane through `top` normal to bottom→top */
  | { type: 'plane_and_strut'; plane: [PointRole, PointRole, PointRole]; strut: [PointRole, PointRole] }
  /** trailing arm: a fixed pivot line */
  | { type: 'line'; line: [PointRole, PointRole] }
  /** anything else (multi-link, hand-made): the screw axis of the upright's bump response */
  | { type: 'screw' };

export interface CornerRoles {
  side: Side;
  /** The part whose motion is the wheel's (the upright, hub carrier or trailing arm). */
  upright: string;
  /** Named points reported with every state (hardpoint names for a template). */
  points: Record<string, PointRole>;
  /** Spin axis: axle_inboard → axle_outboard. */
  axle: [PointRole, PointRole];
  /** Physical steering axis lower → upper, or null (multi-link: virtual only). */
  steering_axis: [PointRole, PointRole] | null;
  instant_axis: InstantAxisRole;
  wheel: { offset: number; tire: { aspect_ratio: number; section_width: number; rim_diameter: number } };
  /** Damper ends, when fitted. */
  damper?: [PointRole, PointRole];
  /** Rocker axis and the point whose turn is the rocker angle, when fitted. */
  rocker?: { axis: [PointRole, PointRole]; point: PointRole };
  /** A torsion bar: its chassis axis a→b and a point turning with it (`torsion_bar_twist`). */
  torsion_bar?: { axis: [PointRole, PointRole]; point: PointRole };
  /** Steering holds by id; `default` names the layout default. */
  holds: { default: string | null } & Record<string, HoldRole[] | string | null>;
  /** Warnings attached to holds (e.g. damper_length with the pushrod on the upright). */
  hold_warnings?: Record<string, string>;
}

export interface SuspensionRoles {
  scope: 'corner' | 'axle';
  topology?: string;
  chassis: string;
  /** The steering coordinate (rack slide, + toward +y), or null when unsteered. */
  steering: string | null;
  axle_position: AxlePosition;
  vehicle: { cg_position?: [number, number, number]; wheelbase?: number; front_brake_bias?: number; driven_axle?: AxlePosition };
  /** Left first. */
  corners: CornerRoles[];
  /** Rack travel per steering-wheel turn, mm: enables `steering_wheel_angle` and `steering_ratio`. */
  rack_travel_per_revolution?: number;
  /** Axle devices (anti-roll bar, heave link), for their metrics. */
  devices?: DeviceRoles;
  /**
   * Link/lever pairs (a two-ball link driving a body about a chassis axis): the branch
   * and transmission-margin diagnostics of every step.
   */
  levers?: LeverRole[];
  /** What `compliance:` made (src/suspension/build/compliance.ts): absent on a rigid suspension. */
  compliance?: ComplianceRoles;
}

/** The bushing elements by force id (their corner side and pickup) and the compliant links' springs by force id (their link id). */
export interface ComplianceRoles {
  bushings: Record<string, { side: string; pickup: string }>;
  links: Record<string, string>;
}

/** The ends of a device on each side of an axle. */
export interface SidePair { left: PointRole; right: PointRole }

export interface DeviceRoles {
  /** A U-bar: its chassis torsion axis a→b and the arm ends (`droplink_u_bar`) of each side. */
  u_bar?: { axis: [PointRole, PointRole]; arms: SidePair };
  /** A T-bar: its chassis pivot and the crossbar ends (`droplink_t_bar`). */
  t_bar?: { pivot: PointRole; ends: SidePair };
  /** A rocker-to-rocker heave link: its two ends. */
  heave_link?: SidePair;
  /** A live beam axle: two beam points whose line's turn about +Y is `pinion_angle_change`. */
  pinion?: [PointRole, PointRole];
  /** Axle-level points reported with every state (`center_…`). */
  points?: Record<string, PointRole>;
}

export interface LeverRole {
  /** Reported name, e.g. `left_pushrod_rocker`. */
  name: string;
  /** The lever's chassis axis a→b. */
  axis: [PointRole, PointRole];
  /** The link's end on the lever. */
  pickup: PointRole;
  /** The link's other end. */
  link_end: PointRole;
}

export class RolesError extends KinemateError {
  override name = 'RolesError';
}

/** Check a `suspension` section's shape (references are checked when the model is built). */
export function validateRoles(value: unknown, path = 'suspension'): SuspensionRoles {
  const obj = (v: unknown, p: string): Record<string, unknown> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RolesError(p, 'expected an object');
    return v as Record<string, unknown>;
  };
  const s = obj(value, path);
  const str = (v: unknown, p: string): string => { if (typeof v !== 'string' || !v) throw new RolesError(p, 'expected a non-empty string'); return v; };
  const scope = s.scope ?? 'corner';
  if (scope !== 'corner' && scope !== 'axle') throw new RolesError(`${path}.scope`, `expected "corner" or "axle", got ${JSON.stringify(scope)}`);
  str(s.chassis, `${path}.chassis`);
  if (s.steering !== null && s.steering !== undefined) str(s.steering, `${path}.steering`);
  if (!Array.isArray(s.corners) || s.corners.length === 0) throw new RolesError(`${path}.corners`, 'expected a non-empty array of corners');
  s.corners.forEach((c, i) => {
    const cp = `${path}.corners[${i}]`;
    const corner = obj(c, cp);
    if (corner.side !== 'left' && corner.side !== 'right') throw new RolesError(`${cp}.side`, 'expected "left" or "right"');
    str(corner.upright, `${cp}.upright`);
    obj(corner.points ?? {}, `${cp}.points`);
    if (!Array.isArray(corner.axle) || corner.axle.length !== 2) throw new RolesError(`${cp}.axle`, 'expected [axle_inboard, axle_outboard]');
    const wheel = obj(corner.wheel, `${cp}.wheel`);
    const tire = obj(wheel.tire, `${cp}.wheel.tire`);
    for (const k of ['aspect_ratio', 'section_width', 'rim_diameter']) {
      if (typeof tire[k] !== 'number' || !(tire[k] as number > 0)) throw new RolesError(`${cp}.wheel.tire.${k}`, 'expected a positive number');
    }
    obj(corner.holds ?? { default: null }, `${cp}.holds`);
  });
  if (scope === 'axle' && s.corners.length !== 2) throw new RolesError(`${path}.corners`, 'an axle has two corners, left first');
  const c0 = s.corners as CornerRoles[];
  for (const c of c0) {
    if (!c.instant_axis) (c as { instant_axis: InstantAxisRole }).instant_axis = { type: 'screw' };
    if (!c.holds) (c as { holds: CornerRoles['holds'] }).holds = { default: null };
    if (c.steering_axis === undefined) (c as { steering_axis: null }).steering_axis = null;
  }
  return {
    scope,
    topology: typeof s.topology === 'string' ? s.topology : undefined,
    chassis: s.chassis as string,
    steering: (s.steering as string | null | undefined) ?? null,
    axle_position: s.axle_position === 'rear' ? 'rear' : 'front',
    vehicle: (s.vehicle as SuspensionRoles['vehicle']) ?? {},
    corners: c0,
    ...(typeof s.rack_travel_per_revolution === 'number' && s.rack_travel_per_revolution > 0 ? { rack_travel_per_revolution: s.rack_travel_per_revolution } : {}),
    ...(s.devices !== undefined ? { devices: obj(s.devices, `${path}.devices`) as DeviceRoles } : {}),
    ...(s.levers !== undefined ? { levers: checkLevers(s.levers, `${path}.levers`) } : {}),
    ...(s.compliance !== undefined ? { compliance: checkCompliance(obj(s.compliance, `${path}.compliance`), `${path}.compliance`) } : {}),
  };
}

function checkCompliance(c: Record<string, unknown>, path: string): ComplianceRoles {
  const map = (v: unknown, p: string): Record<string, unknown> => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new RolesError(p, 'expected an object');
    return v as Record<string, unknown>;
  };
  const bushings: ComplianceRoles['bushings'] = {}, links: ComplianceRoles['links'] = {};
  for (const [id, b] of Object.entries(map(c.bushings ?? {}, `${path}.bushings`))) {
    const e = map(b, `${path}.bushings.${id}`);
    if (typeof e.side !== 'string' || typeof e.pickup !== 'string') throw new RolesError(`${path}.bushings.${id}`, 'expected { side, pickup }');
    bushings[id] = { side: e.side, pickup: e.pickup };
  }
  for (const [id, l] of Object.entries(map(c.links ?? {}, `${path}.links`))) {
    if (typeof l !== 'string') throw new RolesError(`${path}.links.${id}`, 'expected the link id');
    links[id] = l;
  }
  return { bushings, links };
}

function checkLevers(value: unknown, path: string): LeverRole[] {
  if (!Array.isArray(value)) throw new RolesError(path, 'expected an array of { name, axis, pickup, link_end }');
  value.forEach((l, i) => {
    const lever = l as Partial<LeverRole> | null;
    if (typeof lever !== 'object' || lever === null || typeof lever.name !== 'string') throw new RolesError(`${path}[${i}]`, 'expected { name, axis, pickup, link_end }');
    if (!Array.isArray(lever.axis) || lever.axis.length !== 2) throw new RolesError(`${path}[${i}].axis`, 'expected [a, b]');
    if (lever.pickup === undefined) throw new RolesError(`${path}[${i}].pickup`, 'missing');
    if (lever.link_end === undefined) throw new RolesError(`${path}[${i}].link_end`, 'missing');
  });
  return value as LeverRole[];
}
