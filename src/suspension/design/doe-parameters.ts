/**
 * What a DOE's `vary` names, as places in the geometry file itself: a variant is the file
 * with those numbers moved, parsed again — exactly the file `kinemate sweep` or `simulate`
 * would read, so a shimmed corner's set-up points follow from its moved authored points
 * (never the set-up points moved), and every device and topology the reader knows works.
 *
 * Names (as `kinemate sensitivity`, `fit` and `simulate --gradient` name a file's numbers):
 *   corner  `<hardpoint>.<x|y|z>`
 *   axle    `<hardpoint>.<x|y|z>` both sides, the right's y the opposite way (fit's symmetric
 *           move); `left.<hardpoint>.<axis>` or `right.…` one side only; `center.<point>.<axis>`
 *   other   a number's path in the file (`spring.rate`, `anti_roll.rate`,
 *           `dynamics.masses.upright.mass`, `config.camber_shim.setup_thickness`, …); on an axle
 *           `spring.…`, `anti_roll.…` may leave out `axle_config.`; `.x|.y|.z` index a point
 *           given as a list and an inertia's diagonal.
 */
import type { Geometry } from '../files';
import { validateGeometry } from '../files';

/** One number of the file a coordinate moves: its path in the parsed file, and the move's sign. */
export interface DoePlace { path: (string | number)[]; sign: 1 | -1 }

type Node = Record<string | number, unknown>;
const AXES = ['x', 'y', 'z'] as const;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

/** The places `key` moves in `file` (the parsed geometry file), or a message saying why none. */
export function placesOf(file: unknown, geometry: Geometry, key: string): DoePlace[] | string {
  const parts = key.split('.');
  const axis = parts[parts.length - 1];
  const hp = (file as { hardpoints?: Node }).hardpoints;
  if (AXES.includes(axis as 'x') && isNode(hp)) {
    const point = pointPlaces(hp, geometry, parts.slice(0, -1), axis as 'x');
    if (point) return point;
  }
  const path = numberPath(file, parts) ?? (geometry.scope === 'axle' ? numberPath(file, ['axle_config', ...parts]) : null);
  if (path) return [{ path, sign: 1 }];
  const points = geometry.scope === 'axle'
    ? `${Object.keys(geometry.corners[0].hardpoints).join(', ')} (both sides), left.…, right.…${geometry.center ? ', center.…' : ''}`
    : Object.keys(geometry.corners[0].hardpoints).join(', ');
  return `expected "<hardpoint>.<x|y|z>" with a hardpoint of the geometry (${points}), or the path of a number of the file (spring.rate, dynamics.masses.<part>.mass, …)`;
}

/** A hardpoint coordinate's places: a corner's point, an axle's side or centre point, or both sides mirrored. */
function pointPlaces(hp: Node, geometry: Geometry, name: string[], axis: 'x' | 'y' | 'z'): DoePlace[] | null {
  const at = (group: string[], point: string): DoePlace | null => {
    const p = group.length ? (hp[group[0]] as Node | undefined)?.[point] : hp[point];
    if (!isNode(p)) return null;
    return { path: ['hardpoints', ...group, point, Array.isArray(p) ? AXES.indexOf(axis) : axis], sign: 1 };
  };
  if (geometry.scope !== 'axle') return name.length === 1 ? singleton(at([], name[0])) : null;
  if (name.length === 2 && ['left', 'right', 'center'].includes(name[0])) {
    // a right point of a mirrored file: the left one's place (materialised by sidedFile)
    return singleton(name[0] === 'right' && hp.right === undefined ? rightOf(at(['left'], name[1])) : at([name[0]], name[1]));
  }
  if (name.length !== 1) return null;
  const left = at(['left'], name[0]);
  if (!left) return null;
  if (hp.right === undefined) return [left]; // the reader mirrors the right side
  const right = at(['right'], name[0]);
  return right ? [left, { ...right, sign: axis === 'y' ? -1 : 1 }] : null;
}

const singleton = (p: DoePlace | null): DoePlace[] | null => (p ? [p] : null);
const rightOf = (p: DoePlace | null): DoePlace | null => (p ? { ...p, path: ['hardpoints', 'right', ...p.path.slice(2)] } : null);

/** The path of a number in the file (`x|y|z` indexing a 3-list, an inertia's diagonal), or null. */
function numberPath(file: unknown, parts: string[]): (string | number)[] | null {
  const path: (string | number)[] = [];
  let node: unknown = file;
  for (const part of parts) {
    if (!isNode(node)) return null;
    const i = AXES.indexOf(part as 'x');
    if (Array.isArray(node) && i >= 0 && node.length === 3) {
      path.push(i);
      node = node[i];
      if (Array.isArray(node)) { path.push(i); node = node[i]; } // a 3×3 inertia: its diagonal
      continue;
    }
    if (!Object.hasOwn(node, part)) return null;
    path.push(part);
    node = node[part];
  }
  return typeof node === 'number' ? path : null;
}

/**
 * The file the variants start from: as parsed, except that an axle whose right side is
 * the mirror of its left gets that mirror written out when a coordinate moves one side only.
 */
export function sidedFile(file: unknown, keys: readonly string[], geometry: Geometry): unknown {
  const hp = (file as { hardpoints?: Node }).hardpoints;
  if (geometry.scope !== 'axle' || !isNode(hp) || hp.right !== undefined) return file;
  if (!keys.some((k) => k.startsWith('left.') || k.startsWith('right.'))) return file;
  const out = structuredClone(file) as { hardpoints: Node };
  const left = out.hardpoints.left as Node;
  // y → 0 − y, as the reader mirrors (y = 0 stays +0)
  out.hardpoints.right = Object.fromEntries(Object.entries(left).map(([name, p]) => [name,
    Array.isArray(p) ? [p[0], 0 - p[1], p[2]] : isNode(p) ? { ...p, y: 0 - (p.y as number) } : p]));
  return out;
}

/** The file with one variant's moves added to its numbers. */
export function movedFile(file: unknown, places: readonly (readonly DoePlace[])[], moves: readonly number[]): unknown {
  const out = structuredClone(file);
  places.forEach((list, i) => {
    for (const { path, sign } of list) {
      let node = out as Node;
      for (const k of path.slice(0, -1)) node = node[k] as Node;
      const last = path[path.length - 1];
      node[last] = (node[last] as number) + sign * moves[i];
    }
  });
  return out;
}

/** The variant's geometry: the moved file read as `kinemate sweep` reads it. */
export function movedGeometry(file: unknown, places: readonly (readonly DoePlace[])[], moves: readonly number[], fileName?: string): Geometry {
  return validateGeometry(movedFile(file, places, moves), fileName);
}
