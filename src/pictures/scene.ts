/**
 * An assembly and a sequence of its solved states as an animated scene (see gltf.ts): every
 * part a node named after it, posed at each state; every two-point `distance` mate (a track
 * rod, a pushrod, a multi-link rod) a rod node named after the mate, from its first point
 * towards its second; on a suspension, each upright carries `<upright>_wheel` and
 * `<upright>_tyre` discs about its spin axis.
 *
 * Shapes: a part with three points whose name says wishbone or arm is a plate; any other
 * part joins its points to their centroid with rods; joints are balls. Sizes follow the
 * model's extent (rods 0.8 % of it), so a model in any unit looks alike.
 */
import { splitReference, type AssemblyDoc, type PartDoc } from '../assembly/types.ts';
import type { AnimatedScene, Pose, Quat, SceneNode, StaticChild } from './gltf.ts';
import type { Vec3Tuple } from '../../kernel/vec3.ts';
import { MeshBuilder } from './meshes.ts';
import { validateRoles, type CornerRoles } from '../suspension/build/roles.ts';
import { ArgumentError } from '../../kernel/errors.ts';

/** Part poses of one state: `"<part>.pose"` for each moving part (as `modelState` gives them). */
export type StatePoses = Readonly<Record<string, unknown>>;

export interface SceneOptions {
  /** Seconds between states. Default 1/25. */
  readonly interval?: number;
  /** Metres per file length unit; default from `units.length` (mm: 0.001). */
  readonly metresPerUnit?: number;
  readonly extras?: Record<string, unknown>;
}

const COLORS = {
  chassis: [0.9, 0.45, 0.1, 1],
  wishbone: [0.15, 0.35, 0.8, 1],
  upright: [0.55, 0.55, 0.6, 1],
  rod: [0.2, 0.65, 0.3, 1],
  other: [0.45, 0.35, 0.7, 1],
  wheel: [0.75, 0.75, 0.78, 1],
  tyre: [0.12, 0.12, 0.12, 1],
} as const;

const METRES_PER: Readonly<Record<string, number>> = { mm: 0.001, cm: 0.01, m: 1, in: 0.0254 };

/** The scene of `doc` posed at each of `states` (one node per part and per distance mate). */
export function assemblyScene(doc: AssemblyDoc, states: readonly StatePoses[], options: SceneOptions = {}): AnimatedScene {
  if (states.length === 0) throw new ArgumentError('states', 'no states', 'assemblyScene: no states');
  const interval = options.interval ?? 1 / 25;
  const size = extentOf(doc) || 1;
  const radius = 0.008 * size;
  const corners = doc.suspension === undefined ? [] : validateRoles(doc.suspension).corners;
  const uprights = new Map(corners.map((corner) => [corner.upright, corner]));
  const posesOf = (name: string, part: PartDoc): Pose[] =>
    part.fixed ? [part.pose] : states.map((state, i) => poseIn(state, name, i, part.pose));
  const partPoses = new Map<string, Pose[]>();
  const nodes: SceneNode[] = [];
  for (const [name, part] of Object.entries(doc.parts)) {
    const poses = posesOf(name, part);
    partPoses.set(name, poses);
    const points = entityPoints(part);
    const builder = new MeshBuilder();
    const kind = part.fixed ? 'chassis' : uprights.has(name) ? 'upright' : /wishbone|arm/i.test(name) && points.length === 3 ? 'wishbone' : 'other';
    for (const p of points) builder.ball(p, radius * 1.6);
    if (kind === 'wishbone') {
      builder.plate(points[0], points[1], points[2], radius * 0.8);
      for (let i = 0; i < 3; i++) builder.rod(points[i], points[(i + 1) % 3], radius);
    } else if (kind !== 'chassis' && points.length > 1) {
      const centroid = [0, 1, 2].map((k) => points.reduce((s, p) => s + p[k], 0) / points.length) as Vec3Tuple;
      for (const p of points) builder.rod(p, centroid, radius * 1.2);
    }
    const corner = uprights.get(name);
    const children: StaticChild[] = corner ? wheelChildren(doc, name, corner) : [];
    nodes.push({ name, meshes: builder.empty ? [] : [builder.mesh(COLORS[kind])], poses, ...(children.length ? { children } : {}) });
  }
  for (const [id, mate] of Object.entries(doc.mates)) {
    if (mate.type !== 'distance') continue;
    const a = pointRef(doc, mate.a), b = pointRef(doc, mate.b);
    if (!a || !b) continue;
    const length = mate.value;
    const builder = new MeshBuilder();
    builder.rod([0, 0, 0], [length, 0, 0], radius);
    const poses = states.map((_, i) => {
      const pa = transform(pick(partPoses.get(a.part)!, i), a.local), pb = transform(pick(partPoses.get(b.part)!, i), b.local);
      return { position: pa, rotation: rotationFromX([pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]]) } satisfies Pose;
    });
    nodes.push({ name: id, meshes: [builder.mesh(COLORS.rod)], poses });
  }
  return {
    name: doc.name ?? 'kinemate',
    times: states.map((_, i) => i * interval),
    nodes,
    metresPerUnit: options.metresPerUnit ?? METRES_PER[doc.units?.length ?? 'mm'] ?? 0.001,
    ...(options.extras ? { extras: options.extras } : {}),
  };
}

function pick(poses: readonly Pose[], i: number): Pose {
  return poses.length === 1 ? poses[0] : poses[i];
}

function poseIn(state: StatePoses, part: string, index: number, fallback: Pose): Pose {
  const pose = state[`${part}.pose`];
  if (pose === undefined) return fallback;
  const value = pose as { position?: unknown; rotation?: unknown };
  if (!Array.isArray(value.position) || !Array.isArray(value.rotation)) throw new ArgumentError(`states[${index}]["${part}.pose"]`, 'not a pose');
  const p: unknown[] = value.position, r: unknown[] = value.rotation;
  return { position: [p[0], p[1], p[2]] as Vec3Tuple, rotation: [r[0], r[1], r[2], r[3]] as [number, number, number, number] };
}

/** Every located entity of a part, in its own frame: points, frame and axis origins, circle centres. */
function entityPoints(part: PartDoc): Readonly<Vec3Tuple>[] {
  const out: Readonly<Vec3Tuple>[] = [];
  for (const p of Object.values(part.points ?? {})) out.push(p);
  for (const f of Object.values(part.frames ?? {})) out.push(f.origin);
  for (const a of Object.values(part.axes ?? {})) out.push(a.origin);
  for (const c of Object.values(part.circles ?? {})) out.push(c.center);
  // the same place named twice (a hinge axis at a pickup) is one joint
  return out.filter((p, i) => out.findIndex((q) => q[0] === p[0] && q[1] === p[1] && q[2] === p[2]) === i);
}

function pointRef(doc: AssemblyDoc, ref: string): { part: string; local: Readonly<Vec3Tuple> } | null {
  const split = splitReference(ref);
  if (split === undefined) return null;
  const local = doc.parts[split.owner]?.points?.[split.name];
  return local ? { part: split.owner, local } : null;
}

/** The wheel (rim) and tyre discs of a suspension corner, in the upright's frame. */
function wheelChildren(doc: AssemblyDoc, upright: string, corner: CornerRoles): StaticChild[] {
  const [inboard, outboard] = corner.axle;
  const ai = typeof inboard === 'string' ? pointRef(doc, inboard) : null;
  const ao = typeof outboard === 'string' ? pointRef(doc, outboard) : null;
  if (!ai || !ao || ai.part !== upright || ao.part !== upright) return [];
  const axis: Readonly<Vec3Tuple> = [ao.local[0] - ai.local[0], ao.local[1] - ai.local[1], ao.local[2] - ai.local[2]];
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  const offset = corner.wheel.offset;
  const centre: Readonly<Vec3Tuple> = [ao.local[0] - (offset * axis[0]) / length, ao.local[1] - (offset * axis[1]) / length, ao.local[2] - (offset * axis[2]) / length];
  const tire = corner.wheel.tire;
  const rim = (tire.rim_diameter * 25.4) / 2;
  const tyreRadius = rim + tire.aspect_ratio * tire.section_width;
  const wheel = new MeshBuilder(), tyre = new MeshBuilder();
  wheel.disc(centre, axis, rim, tire.section_width * 1.04);
  tyre.disc(centre, axis, tyreRadius, tire.section_width);
  return [
    { name: `${upright}_wheel`, mesh: wheel.mesh(COLORS.wheel) },
    { name: `${upright}_tyre`, mesh: tyre.mesh(COLORS.tyre) },
  ];
}

/** Size of the model: the diagonal of the box around every part's entities at its file pose. */
function extentOf(doc: AssemblyDoc): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const part of Object.values(doc.parts)) {
    for (const local of entityPoints(part)) {
      const p = transform(part.pose, local);
      for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[k]); hi[k] = Math.max(hi[k], p[k]); }
    }
  }
  return Number.isFinite(lo[0]) ? Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) : 0;
}

/** pose · p, rotation [w, x, y, z] normalised. */
export function transform(pose: Pose, p: Readonly<Vec3Tuple>): [number, number, number] {
  const [w0, x0, y0, z0] = pose.rotation;
  const n = Math.hypot(w0, x0, y0, z0);
  const w = w0 / n, x = x0 / n, y = y0 / n, z = z0 / n;
  // v' = v + 2w (q × v) + 2 q × (q × v)
  const tx = 2 * (y * p[2] - z * p[1]), ty = 2 * (z * p[0] - x * p[2]), tz = 2 * (x * p[1] - y * p[0]);
  return [
    pose.position[0] + p[0] + w * tx + (y * tz - z * ty),
    pose.position[1] + p[1] + w * ty + (z * tx - x * tz),
    pose.position[2] + p[2] + w * tz + (x * ty - y * tx),
  ];
}

/** The shortest-arc rotation [w, x, y, z] taking +x onto `direction`. */
export function rotationFromX(direction: Readonly<Vec3Tuple>): Quat {
  const length = Math.hypot(direction[0], direction[1], direction[2]);
  const d = [direction[0] / length, direction[1] / length, direction[2] / length];
  // q = (1 + x·d, x × d) normalised; x × d = (0, −d_z, d_y)
  // 1 + d_x cancels near −x; there it equals (d_y² + d_z²) / (1 − d_x), computed without loss
  const w = d[0] >= 0 ? 1 + d[0] : (d[1] * d[1] + d[2] * d[2]) / (1 - d[0]);
  if (w === 0) return [0, 0, 0, 1]; // exactly along −x: half a turn about z
  const n = Math.hypot(w, d[2], d[1]);
  return [w / n, 0, -d[2] / n, d[1] / n];
}
