/**
 * Simple flat-shaded solids for pictures of linkages: balls at joints, rods along links,
 * plates for wishbones, discs for wheels and tyres. Every solid is convex, so each
 * triangle's normal is turned away from the solid's centre.
 */
import type { MeshData } from './gltf.ts';
import type { Vec3Tuple } from '../../kernel/vec3.ts';

type Color = MeshData['color'];

/** Collects triangles of convex solids; `mesh(color)` returns them as one MeshData. */
export class MeshBuilder {
  private readonly positions: number[] = [];
  private readonly normals: number[] = [];

  get empty(): boolean {
    return this.positions.length === 0;
  }

  /** One triangle of a solid whose inside contains `centre`. */
  triangle(a: Readonly<Vec3Tuple>, b: Readonly<Vec3Tuple>, c: Readonly<Vec3Tuple>, centre: Readonly<Vec3Tuple>): void {
    const u = sub(b, a), v = sub(c, a);
    let n = cross(u, v);
    const length = Math.hypot(n[0], n[1], n[2]);
    if (length === 0) return;
    n = [n[0] / length, n[1] / length, n[2] / length];
    const mid: Readonly<Vec3Tuple> = [(a[0] + b[0] + c[0]) / 3 - centre[0], (a[1] + b[1] + c[1]) / 3 - centre[1], (a[2] + b[2] + c[2]) / 3 - centre[2]];
    const outward = dot(n, mid) >= 0;
    const [p, q] = outward ? [b, c] : [c, b];
    if (!outward) n = [-n[0], -n[1], -n[2]];
    for (const vertex of [a, p, q]) {
      this.positions.push(vertex[0], vertex[1], vertex[2]);
      this.normals.push(n[0], n[1], n[2]);
    }
  }

  /** A closed prism: two parallel polygons (same vertex count, corresponding) and their sides. */
  prism(bottom: readonly Readonly<Vec3Tuple>[], top: readonly Readonly<Vec3Tuple>[]): void {
    const all = [...bottom, ...top];
    const centre: Readonly<Vec3Tuple> = [0, 1, 2].map((k) => all.reduce((sum, p) => sum + p[k], 0) / all.length) as Vec3Tuple;
    const m = bottom.length;
    for (let i = 1; i + 1 < m; i++) {
      this.triangle(bottom[0], bottom[i], bottom[i + 1], centre);
      this.triangle(top[0], top[i], top[i + 1], centre);
    }
    for (let i = 0; i < m; i++) {
      const j = (i + 1) % m;
      this.triangle(bottom[i], bottom[j], top[j], centre);
      this.triangle(bottom[i], top[j], top[i], centre);
    }
  }

  /** A rod of `radius` from a to b (an `sides`-sided prism). Nothing when a = b. */
  rod(a: Readonly<Vec3Tuple>, b: Readonly<Vec3Tuple>, radius: number, sides = 8): void {
    const axis = sub(b, a);
    const length = Math.hypot(axis[0], axis[1], axis[2]);
    if (length === 0) return;
    const [e1, e2] = perpendiculars(axis);
    const ring = (p: Readonly<Vec3Tuple>) => Array.from({ length: sides }, (_, k) => {
      const t = (2 * Math.PI * k) / sides, c = Math.cos(t) * radius, s = Math.sin(t) * radius;
      return [p[0] + c * e1[0] + s * e2[0], p[1] + c * e1[1] + s * e2[1], p[2] + c * e1[2] + s * e2[2]] as Vec3Tuple;
    });
    this.prism(ring(a), ring(b));
  }

  /** A disc of `radius` and `width` centred at `centre`, its axis along `axis`. */
  disc(centre: Readonly<Vec3Tuple>, axis: Readonly<Vec3Tuple>, radius: number, width: number, sides = 36): void {
    const length = Math.hypot(axis[0], axis[1], axis[2]);
    const h = width / 2 / length;
    this.rod([centre[0] - axis[0] * h, centre[1] - axis[1] * h, centre[2] - axis[2] * h], [centre[0] + axis[0] * h, centre[1] + axis[1] * h, centre[2] + axis[2] * h], radius, sides);
  }

  /** An octahedron of `radius` at p: a joint. */
  ball(p: Readonly<Vec3Tuple>, radius: number): void {
    const r = radius;
    const tips: Readonly<Vec3Tuple>[] = [[p[0] + r, p[1], p[2]], [p[0], p[1] + r, p[2]], [p[0] - r, p[1], p[2]], [p[0], p[1] - r, p[2]]];
    const up: Readonly<Vec3Tuple> = [p[0], p[1], p[2] + r], down: Readonly<Vec3Tuple> = [p[0], p[1], p[2] - r];
    for (let i = 0; i < 4; i++) {
      this.triangle(tips[i], tips[(i + 1) % 4], up, p);
      this.triangle(tips[i], tips[(i + 1) % 4], down, p);
    }
  }

  /** A triangular plate through a, b, c, `thickness` thick. Nothing for a degenerate triangle. */
  plate(a: Readonly<Vec3Tuple>, b: Readonly<Vec3Tuple>, c: Readonly<Vec3Tuple>, thickness: number): void {
    const n = cross(sub(b, a), sub(c, a));
    const length = Math.hypot(n[0], n[1], n[2]);
    if (length === 0) return;
    const h = thickness / 2 / length;
    const shift = (p: Readonly<Vec3Tuple>, sign: number): Readonly<Vec3Tuple> => [p[0] + sign * h * n[0], p[1] + sign * h * n[1], p[2] + sign * h * n[2]];
    this.prism([shift(a, -1), shift(b, -1), shift(c, -1)], [shift(a, 1), shift(b, 1), shift(c, 1)]);
  }

  mesh(color: Color): MeshData {
    const count = this.positions.length / 3;
    return {
      positions: Float32Array.from(this.positions),
      normals: Float32Array.from(this.normals),
      indices: Uint32Array.from({ length: count }, (_, i) => i),
      color,
    };
  }
}

function sub(a: Readonly<Vec3Tuple>, b: Readonly<Vec3Tuple>): Readonly<Vec3Tuple> {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function cross(a: Readonly<Vec3Tuple>, b: Readonly<Vec3Tuple>): Readonly<Vec3Tuple> {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: Readonly<Vec3Tuple>, b: Readonly<Vec3Tuple>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
/** Two unit vectors perpendicular to `axis` and to each other. */
function perpendiculars(axis: Readonly<Vec3Tuple>): [Readonly<Vec3Tuple>, Readonly<Vec3Tuple>] {
  const length = Math.hypot(axis[0], axis[1], axis[2]);
  const u: Readonly<Vec3Tuple> = [axis[0] / length, axis[1] / length, axis[2] / length];
  const helper: Readonly<Vec3Tuple> = Math.abs(u[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const e1 = cross(u, helper);
  const l1 = Math.hypot(e1[0], e1[1], e1[2]);
  const n1: Readonly<Vec3Tuple> = [e1[0] / l1, e1[1] / l1, e1[2] / l1];
  return [n1, cross(u, n1)];
}
