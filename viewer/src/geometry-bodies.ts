/**
 * Which bodies of the document shown carry geometry, where each is now, and which pairs
 * are joined (not checked for clearance). An assembly: its parts. A suspension geometry
 * file (its `geometry` section): the template's parts, `tyre`/`wheel` on its corner's
 * upright, and `damper`, the damper body hanging from the strut's chassis end and turned to
 * point at its other end — the bodies of the library's suspension clearance.
 */
import { joinedPartPairs, suspensionAssembly, parseGeometry, type AssemblyDoc, type GeometryDoc, type PoseResult } from '../../src/index.ts';
import type { ViewerDocument } from './document';

export interface GeometryBodies {
  /** Body name → its geometry entries, in the document's order. */
  readonly entries: readonly (readonly [string, readonly GeometryDoc[]])[];
  /** A body's pose at `result` ([x, y, z, qw, qx, qy, qz]), or undefined. */
  poseOf(result: PoseResult, body: string): readonly number[] | undefined;
  /** `a:b` for bodies that are joined. */
  readonly joined: ReadonlySet<string>;
  /** The assembly the parts come from (for picking: only an assembly's parts take picked entities). */
  readonly assembly: AssemblyDoc | null;
}

const cache = new WeakMap<object, GeometryBodies | null>();

export function geometryBodies(doc: ViewerDocument): GeometryBodies | null {
  const key = doc.kind === 'assembly' ? doc.doc : doc.geometry;
  if (!cache.has(key as object)) cache.set(key as object, doc.kind === 'assembly' ? assemblyBodies(doc.doc) : suspensionBodies(doc.geometry));
  return cache.get(key as object)!;
}

function assemblyBodies(doc: AssemblyDoc): GeometryBodies | null {
  const entries = Object.entries(doc.parts).filter(([, p]) => p.geometry?.length).map(([n, p]) => [n, p.geometry!] as const);
  if (!entries.length) return null;
  return { entries, poseOf: (r, b) => r.poses[b], joined: joinedPartPairs(doc), assembly: doc };
}

function suspensionBodies(raw: unknown): GeometryBodies | null {
  const section = (raw as { geometry?: Record<string, GeometryDoc[]> } | null)?.geometry;
  if (!section || typeof section !== 'object') return null;
  let assembly: AssemblyDoc;
  try {
    assembly = suspensionAssembly(parseGeometry(JSON.stringify(raw)));
  } catch {
    return null;
  }
  const joined = joinedPartPairs(assembly);
  const uprights = Object.keys(assembly.parts).filter((p) => p.endsWith('upright'));
  const prefixOf = (body: string) => body.match(/^(left_|right_)/)?.[1] ?? '';
  for (const u of uprights) for (const alias of ['tyre', 'wheel']) joined.add(`${prefixOf(u)}${alias}:${u}`);
  // the damper body is joined to the parts at its ends
  for (const body of Object.keys(section).filter((b) => b.endsWith('damper'))) {
    for (const end of ['strut_top', 'strut_bottom']) {
      const part = Object.keys(assembly.parts).find((p) => Object.hasOwn(assembly.parts[p].points ?? {}, `${prefixOf(body)}${end}`) || (prefixOf(body) === '' && Object.hasOwn(assembly.parts[p].points ?? {}, end)));
      if (part) joined.add(`${body}:${part}`);
    }
  }
  const poseOf = (r: PoseResult, body: string): readonly number[] | undefined => {
    const px = prefixOf(body), name = body.slice(px.length);
    if (name === 'tyre' || name === 'wheel') return r.poses[`${px}upright`];
    if (name === 'damper') return damperPose(r, px);
    return r.poses[body];
  };
  return { entries: Object.entries(section), poseOf, joined, assembly: null };
}

/** The damper body's motion from design: its top fixed at the strut's chassis end, turned so its axis points at the other end. */
function damperPose(r: PoseResult, px: string): readonly number[] | undefined {
  const find = (name: string, within: Record<string, readonly number[]>) => Object.entries(within).find(([ref]) => ref.endsWith(`.${px}${name}`) || ref.endsWith(`.${name}`))?.[1];
  const top = find('strut_top', r.points), bottom = find('strut_bottom', r.points);
  const top0 = find('strut_top', r.design), bottom0 = find('strut_bottom', r.design);
  if (!top || !bottom || !top0 || !bottom0) return undefined;
  const unit = (a: readonly number[], b: readonly number[]) => { const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]]; const l = Math.hypot(d[0], d[1], d[2]); return d.map((x) => x / l); };
  const u = unit(top0, bottom0), v = unit(top, bottom);
  // the shortest turn taking u to v: q = (1 + u·v, u × v), normalised
  let q = [1 + u[0] * v[0] + u[1] * v[1] + u[2] * v[2], u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const l = Math.hypot(q[0], q[1], q[2], q[3]);
  q = q.map((x) => x / l);
  // position: top − R·top0
  const [w, x, y, z] = q;
  const t = [2 * (y * top0[2] - z * top0[1]), 2 * (z * top0[0] - x * top0[2]), 2 * (x * top0[1] - y * top0[0])];
  const rotated = [top0[0] + w * t[0] + (y * t[2] - z * t[1]), top0[1] + w * t[1] + (z * t[0] - x * t[2]), top0[2] + w * t[2] + (x * t[1] - y * t[0])];
  return [top[0] - rotated[0], top[1] - rotated[1], top[2] - rotated[2], w, x, y, z];
}
