/**
 * What `compliance:` makes of a template's joints (docs/compliance.md): an arm's hinge
 * with a bushing becomes two pivots — a 6-DOF `bushing` element at each bushed pickup
 * (frame fixed in the chassis, the `a` side; x along the bushing's axis) and a ball joint
 * at the other — and a compliant two-force link becomes a `spring` along its line, free
 * length its design (or shimmed) length, under its link id. Without a bushing the hinge is
 * written exactly as before, so a rigid file's assembly does not change.
 */
import type { BushingDoc } from '../../assembly/types';
import type { BushingSpec, Compliance, CornerCompliance } from '../files/compliance';
import type { Point3 } from '../files';
import { sub, type Builder } from './builder';
import { RolesError, type CornerRoles, type ComplianceRoles } from './roles';

/** The force element id of the bushing at a pickup (`px` the corner's prefix). */
export const bushingId = (px: string, pickup: string): string => `${px}${pickup}_bushing`;

/** The x axis of a bushing: its own, else `fallback` (the pivot axis, the strut line). */
function bushingAxis(spec: BushingSpec, at: Point3, hp: Record<string, Point3>, fallback: Point3): Point3 {
  if (!spec.axis) return fallback;
  if ('vector' in spec.axis) return spec.axis.vector;
  return sub(hp[spec.axis.toward], at);
}

/** The other pickup of the arm pivot a bushed pickup belongs to (armPivots' pairs: `_front`/`_rear`, `_a`/`_b`). */
function otherPickup(p: string): string {
  if (p.endsWith('_front')) return p.replace(/_front$/, '_rear');
  if (p.endsWith('_rear')) return p.replace(/_rear$/, '_front');
  if (p.endsWith('_a')) return p.replace(/_a$/, '_b');
  return p.replace(/_b$/, '_a');
}

/**
 * The hardpoints a bushing's x axis runs between as the build takes it (x = to − from): its
 * `toward` point's, the strut line's at the strut top, else the arm's pivot axis (the other
 * pickup − this one); null for a fixed vector (only the frames' origin moves with the pickup).
 */
export function bushingAxisEnds(spec: BushingSpec, pickup: string): [string, string] | null {
  if (spec.axis && 'vector' in spec.axis) return null;
  if (spec.axis) return [pickup, spec.axis.toward];
  return pickup === 'strut_top' ? ['strut_bottom', 'strut_top'] : [pickup, otherPickup(pickup)];
}

/** A bushing between the chassis (a) and `part` (b) at `pickup`, both frames at the pickup with x along the axis. */
export function addBushing(b: Builder, roles: ComplianceRoles, side: string, px: string, pickup: string, chassis: string, part: string,
  hp: Record<string, Point3>, spec: BushingSpec, fallback: Point3): void {
  const at = hp[pickup], x = bushingAxis(spec, at, hp, fallback);
  const id = bushingId(px, pickup);
  const a = b.frame(chassis, `${px}${pickup}_bushing`, at, x);
  const bb = b.frame(part, `${pickup}_bushing`, at, x);
  const element: BushingDoc = {
    type: 'bushing', a, b: bb,
    stiffness: [spec.axial, spec.radial, spec.radial],
    rotational_stiffness: [spec.torsional, spec.conical, spec.conical],
    ...(spec.damping ? {
      damping: [spec.damping.axial, spec.damping.radial, spec.damping.radial],
      rotational_damping: [spec.damping.torsional, spec.damping.conical, spec.damping.conical],
    } : {}),
  };
  b.forces[id] = element;
  roles.bushings[id] = { side, pickup };
}

/**
 * The pivots of an arm turning on the chassis about pickup a → pickup b: today's hinge
 * when neither has a bushing; else a bushing at each bushed pickup and a ball at the other.
 */
export function armPivots(b: Builder, compliance: CornerCompliance | undefined, roles: ComplianceRoles, side: string, px: string, id: string,
  chassis: string, part: string, hp: Record<string, Point3>, pickups: readonly [string, string]): void {
  const [pa, pb] = pickups;
  const bushed = pickups.map((p) => compliance?.bushings[p]);
  if (!bushed[0] && !bushed[1]) { b.hinge(id, chassis, part, hp[pa], hp[pb]); return; }
  pickups.forEach((p, i) => {
    const spec = bushed[i];
    const other = hp[pickups[1 - i]];
    b.point(part, p, hp[p]);
    if (spec) addBushing(b, roles, side, px, p, chassis, part, hp, spec, sub(other, hp[p]));
    // a ball at the unbushed pickup: the chassis point keeps its corner-prefixed name, the part's the pickup's
    else b.mate(`${px}${p}_ball`, { type: 'ball', a: b.point(chassis, `${px}${p}`, hp[p]), b: `${part}.${p}` });
  });
}

/** Holds on a coordinate of a mate the compliance removed (a hinge's angle) go; the default falls back. */
export function dropRemovedHolds(holds: CornerRoles['holds'], mates: Record<string, unknown>): void {
  for (const [name, hold] of Object.entries(holds)) {
    if (name === 'default' || !Array.isArray(hold)) continue;
    const gone = hold.some((h) => typeof h === 'string' && !Object.hasOwn(mates, h.split('.')[0]));
    if (gone) delete holds[name];
  }
  if (holds.default && !Array.isArray(holds[holds.default])) {
    const left = Object.keys(holds).filter((k) => k !== 'default' && Array.isArray(holds[k]));
    holds.default = left.includes('damper_length') ? 'damper_length' : left.includes('strut_length') ? 'strut_length' : left[0] ?? null;
  }
}

/** Each compliant link's distance mate becomes a spring of the same id (a corner's prefixed; the axle's central ones bare). */
export function compliantLinks(b: Builder, compliance: Compliance, prefixes: readonly string[], roles: ComplianceRoles): void {
  const swap = (id: string, k: number, link: string) => {
    const mate = b.mates[id] as { type: string; a: string; b: string; value?: number } | undefined;
    if (!mate || mate.type !== 'distance' || mate.value === undefined) throw new RolesError(`compliance.links.${link}`, `no such two-force link was built (${id})`);
    delete b.mates[id];
    b.forces[id] = { type: 'spring', a: mate.a, b: mate.b, stiffness: k, length: mate.value };
    roles.links[id] = link;
  };
  compliance.corners.forEach((c, i) => { for (const [link, k] of Object.entries(c.links)) swap(`${prefixes[i]}${link}`, k, link); });
  for (const [link, k] of Object.entries(compliance.center)) swap(link, k, link);
}
