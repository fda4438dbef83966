/**
 * The bodies a suspension's geometry may sit on: the template's parts (chassis, upright,
 * lower_wishbone, …; `left_`/`right_` prefixed on an axle), and two that are not parts of
 * the linkage: `tyre` (alias `wheel`), fixed to its corner's upright (a tyre is round, its
 * spin changes nothing), and `damper`, the damper body, fixed at the damper's chassis end
 * and turned to point at its other end. Geometry is authored in vehicle axes at the design
 * state (every template part sits at the identity pose there); a pseudo-body's pose is the
 * motion from its design placement.
 */
import type { SuspensionModel } from '../build/model.ts';
import type { PointExpr } from '../build/targets.ts';
import { joinedPartPairs, partPoses } from '../../mechanics/clearance.ts';
import type { PoseArray } from '../../assembly/geometry/clearance.ts';
import { GeometryError } from '../../assembly/geometry/errors.ts';

export interface SuspensionBodies {
  /** Body name → its pose now (world, mm). */
  poseOf(name: string): PoseArray;
  /** `a:b` for bodies joined by a mate, a tyre and its upright, a damper and the parts at its ends. */
  readonly joined: ReadonlySet<string>;
  /** Every body name geometry may use. */
  readonly names: readonly string[];
}

interface DamperBody { top: PointExpr; bottom: PointExpr; top0: Float64Array; dir0: Float64Array; pose: Float64Array }

/** The bodies of `sm`; `wanted` (the geometry section's names) are checked: an unknown one is a GeometryError naming `geometry.<name>`. */
export function suspensionBodies(sm: SuspensionModel, wanted: readonly string[]): SuspensionBodies {
  const partPose = partPoses(sm.model);
  const joined = joinedPartPairs(sm.model.doc);
  const partOfVariable = new Map([...sm.model.parts].map(([name, v]) => [v, name]));
  const aliases = new Map<string, string>(); // tyre → its upright part
  const dampers = new Map<string, DamperBody>();
  const saved = sm.model.system.snapshot();
  sm.resetToDesign();
  for (const c of sm.corners) {
    const px = sm.roles.scope === 'axle' ? `${c.roles.side}_` : '';
    const upright = partOfVariable.get(c.upright)!;
    for (const alias of ['tyre', 'wheel']) {
      aliases.set(`${px}${alias}`, upright);
      joined.add(`${px}${alias}:${upright}`);
    }
    joined.add(`${px}tyre:${px}wheel`);
    if (c.roles.damper) {
      const bottom = sm.resolveRole(c.roles.damper[0]);
      const top = sm.resolveRole(c.roles.damper[1]);
      const top0 = Float64Array.from(sm.pointValue(top));
      const b0 = sm.pointValue(bottom);
      const dir0 = unit([b0[0]! - top0[0]!, b0[1]! - top0[1]!, b0[2]! - top0[2]!]);
      dampers.set(`${px}damper`, { top, bottom, top0, dir0, pose: new Float64Array(7) });
      for (const term of [...top, ...bottom]) {
        const part = partOfVariable.get(term.variable);
        if (part) joined.add(`${px}damper:${part}`);
      }
    }
  }
  sm.model.system.restore(saved);
  const names = [...sm.model.parts.keys(), ...aliases.keys(), ...dampers.keys()];
  for (const name of wanted) {
    if (!names.includes(name)) throw new GeometryError(`geometry.${name}`, `no body "${name}" in this suspension; bodies: ${names.join(', ')}`);
  }
  const scratch = new Float64Array(3) as Float64Array<ArrayBuffer>;
  return {
    names,
    joined,
    poseOf(name) {
      const damper = dampers.get(name);
      if (damper) return damperPose(sm, damper, scratch);
      return partPose(aliases.get(name) ?? name);
    },
  };
}

function unit(v: number[]): Float64Array {
  const n = Math.hypot(v[0]!, v[1]!, v[2]!);
  return Float64Array.from(v.map((x) => x / n));
}

/** The shortest turn taking the design axis to today's, about the chassis end, and that end's motion. */
function damperPose(sm: SuspensionModel, d: DamperBody, scratch: Float64Array<ArrayBuffer>): Float64Array {
  const top = Array.from(sm.pointValue(d.top));
  const b = sm.pointValue(d.bottom, scratch);
  const dir = unit([b[0]! - top[0]!, b[1]! - top[1]!, b[2]! - top[2]!]);
  const a = d.dir0;
  // q = (1 + a·d, a × d), normalised: the shortest arc (the damper never turns half round)
  let w = 1 + a[0]! * dir[0]! + a[1]! * dir[1]! + a[2]! * dir[2]!;
  let x = a[1]! * dir[2]! - a[2]! * dir[1]!, y = a[2]! * dir[0]! - a[0]! * dir[2]!, z = a[0]! * dir[1]! - a[1]! * dir[0]!;
  const n = Math.hypot(w, x, y, z);
  w /= n; x /= n; y /= n; z /= n;
  // t = top − R·top0
  const [px, py, pz] = [d.top0[0]!, d.top0[1]!, d.top0[2]!];
  const rx = (1 - 2 * (y * y + z * z)) * px + 2 * (x * y - w * z) * py + 2 * (x * z + w * y) * pz;
  const ry = 2 * (x * y + w * z) * px + (1 - 2 * (x * x + z * z)) * py + 2 * (y * z - w * x) * pz;
  const rz = 2 * (x * z - w * y) * px + 2 * (y * z + w * x) * py + (1 - 2 * (x * x + y * y)) * pz;
  const p = d.pose;
  p[0] = top[0]! - rx; p[1] = top[1]! - ry; p[2] = top[2]! - rz;
  p[3] = w; p[4] = x; p[5] = y; p[6] = z;
  return p;
}
