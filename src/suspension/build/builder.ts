/**
 * The builder a template writes its parts, mates and force elements with (template.ts and
 * the device, solid-axle and device-force builders it calls), and the maps that remember
 * which hardpoint each written point came from.
 */
import type { ForceDoc, MateDoc, PartDoc } from '../../assembly/types';
import type { Point3 } from '../files';

export type MutablePart = {
  fixed?: boolean; pose: PartDoc['pose']; points: Record<string, Point3>; axes: Record<string, { origin: Point3; direction: Point3 }>;
  planes?: Record<string, { origin: Point3; normal: Point3 }>; frames?: Record<string, { origin: Point3; rotation: [number, number, number, number] }>;
};

const IDENTITY = { position: [0, 0, 0] as Point3, rotation: [1, 0, 0, 0] as [number, number, number, number] };
export const sub = (a: Point3, b: Point3): Point3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const dist = (a: Point3, b: Point3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * Which array each written point, axis origin or plane origin was copied from (a geometry
 * file's hardpoint, by identity), and each axis direction's far end: the sensitivities tell
 * coincident hardpoints apart by it (src/suspension/gradients/model.ts `hardpointAt`).
 */
export const entitySource = new WeakMap<object, readonly number[]>();
export const axisTipSource = new WeakMap<object, readonly number[]>();
/** A rod-centreline point role → the hardpoint whose projection on the rod gives its fraction. */
export const fractionSource = new WeakMap<object, readonly number[]>();

export class Builder {
  parts: Record<string, MutablePart> = {};
  mates: Record<string, MateDoc> = {};
  /** Force elements from the geometry's spring rate (docs/dynamics.md). */
  forces: Record<string, ForceDoc> = {};
  part(name: string, fixed = false): MutablePart {
    this.parts[name] ??= { ...(fixed ? { fixed: true } : {}), pose: IDENTITY, points: {}, axes: {} };
    return this.parts[name];
  }
  point(part: string, name: string, p: Point3): string {
    const w: Point3 = [p[0], p[1], p[2]];
    entitySource.set(w, p);
    this.part(part).points[name] = w;
    return `${part}.${name}`;
  }
  axis(part: string, name: string, from: Point3, to: Point3): string {
    const axis = { origin: [from[0], from[1], from[2]] as Point3, direction: sub(to, from) };
    entitySource.set(axis.origin, from);
    axisTipSource.set(axis.direction, to);
    this.part(part).axes[name] = axis;
    return `${part}.${name}`;
  }
  plane(part: string, name: string, origin: Point3, normal: Point3): string {
    const plane = { origin: [...origin] as Point3, normal: [...normal] as Point3 };
    entitySource.set(plane.origin, origin);
    (this.part(part).planes ??= {})[name] = plane;
    return `${part}.${name}`;
  }
  /** A frame at `origin` whose x axis points along `x` (the shortest turn from the part's x). */
  frame(part: string, name: string, origin: Point3, x: Point3): string {
    const l = Math.hypot(x[0], x[1], x[2]), u = [x[0] / l, x[1] / l, x[2] / l];
    // q = (1 + x̂·u, x̂ × u) normalised; u = −x̂ is a half turn about z
    let q: [number, number, number, number] = [1 + u[0], 0, -u[2], u[1]];
    const n = Math.hypot(...q);
    q = n < 1e-12 ? [0, 0, 0, 1] : [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
    (this.part(part).frames ??= {})[name] = { origin: [...origin], rotation: q };
    return `${part}.${name}`;
  }
  mate(id: string, m: MateDoc): void {
    this.mates[id] = m;
  }
  /** A hinge about from→to between the chassis and a part: revolute on two equal axes. */
  hinge(id: string, chassis: string, part: string, from: Point3, to: Point3): void {
    const a = this.axis(chassis, `${id}_axis`, from, to);
    const b = this.axis(part, `${id}_axis`, from, to);
    this.mate(id, { type: 'revolute', a, b });
  }
  ball(id: string, partA: string, partB: string, name: string, p: Point3): void {
    this.mate(id, { type: 'ball', a: this.point(partA, name, p), b: this.point(partB, name, p) });
  }
  link(id: string, partA: string, nameA: string, pa: Point3, partB: string, nameB: string, pb: Point3): void {
    this.mate(id, { type: 'distance', a: this.point(partA, nameA, pa), b: this.point(partB, nameB, pb), value: dist(pa, pb) });
  }
  parts_(): Record<string, PartDoc> {
    const out: Record<string, PartDoc> = {};
    for (const [name, p] of Object.entries(this.parts)) {
      const part: { -readonly [K in keyof PartDoc]: PartDoc[K] } = { ...(p.fixed ? { fixed: true } : {}), pose: p.pose };
      if (Object.keys(p.points).length) part.points = p.points;
      if (Object.keys(p.axes).length) part.axes = p.axes;
      if (p.planes) part.planes = p.planes;
      if (p.frames) part.frames = p.frames;
      out[name] = part;
    }
    return out;
  }
}
