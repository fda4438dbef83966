/**
 * Closed triangle meshes of simple solids, outward-wound, with shared vertices: for tests
 * whose answers are closed forms (two spheres, a box past a box), for the bench and for
 * example generators. Millimetres, centred on `centre`.
 */
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import type { PartMesh } from './mesh.ts';

type V3 = Readonly<Vec3Tuple>;

/** A UV sphere: `rings` ≥ 2 bands of latitude, `segments` ≥ 3 around; 2·segments·(rings − 1) triangles. */
export function sphereMesh(radius: number, segments = 32, rings = 16, centre: V3 = [0, 0, 0]): PartMesh {
  const pos: number[] = [centre[0], centre[1], centre[2] + radius];
  for (let r = 1; r < rings; r++) {
    const th = (Math.PI * r) / rings;
    for (let s = 0; s < segments; s++) {
      const ph = (2 * Math.PI * s) / segments;
      pos.push(centre[0] + radius * Math.sin(th) * Math.cos(ph), centre[1] + radius * Math.sin(th) * Math.sin(ph), centre[2] + radius * Math.cos(th));
    }
  }
  pos.push(centre[0], centre[1], centre[2] - radius);
  const south = pos.length / 3 - 1;
  const ring = (r: number, s: number): number => 1 + (r - 1) * segments + (s % segments);
  const idx: number[] = [];
  for (let s = 0; s < segments; s++) idx.push(0, ring(1, s), ring(1, s + 1));
  for (let r = 1; r < rings - 1; r++) {
    for (let s = 0; s < segments; s++) {
      const a = ring(r, s), b = ring(r, s + 1), c = ring(r + 1, s), d = ring(r + 1, s + 1);
      idx.push(a, c, d, a, d, b);
    }
  }
  for (let s = 0; s < segments; s++) idx.push(south, ring(rings - 1, s + 1), ring(rings - 1, s));
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

/** An axis-aligned box of full sizes `size`, 12 triangles. */
export function boxMesh(size: V3, centre: V3 = [0, 0, 0]): PartMesh {
  const [hx, hy, hz] = [size[0] / 2, size[1] / 2, size[2] / 2];
  const pos: number[] = [];
  for (let i = 0; i < 8; i++) pos.push(centre[0] + (i & 1 ? hx : -hx), centre[1] + (i & 2 ? hy : -hy), centre[2] + (i & 4 ? hz : -hz));
  // faces as quads of corner bits, counter-clockwise seen from outside
  const quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  const idx: number[] = [];
  for (const [a, b, c, d] of quads) idx.push(a!, b!, c!, a!, c!, d!);
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

/**
 * A torus about the z axis (a tyre's shape): tube radius `minor` around a circle of radius
 * `major`, `segments` around z and `sides` around the tube; 2·segments·sides triangles.
 * `axis` 'y' turns it to spin about y (a wheel in ISO 8855).
 */
export function torusMesh(major: number, minor: number, segments = 64, sides = 24, centre: V3 = [0, 0, 0], axis: 'y' | 'z' = 'z'): PartMesh {
  const pos: number[] = [];
  for (let i = 0; i < segments; i++) {
    const u = (2 * Math.PI * i) / segments;
    for (let j = 0; j < sides; j++) {
      const v = (2 * Math.PI * j) / sides;
      const r = major + minor * Math.cos(v);
      const [x, y, z] = [r * Math.cos(u), r * Math.sin(u), minor * Math.sin(v)];
      if (axis === 'z') pos.push(centre[0] + x, centre[1] + y, centre[2] + z);
      else pos.push(centre[0] + x, centre[1] - z, centre[2] + y);
    }
  }
  const at = (i: number, j: number): number => (i % segments) * sides + (j % sides);
  const idx: number[] = [];
  for (let i = 0; i < segments; i++) {
    for (let j = 0; j < sides; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      idx.push(a, b, c, a, c, d);
    }
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

/**
 * A box whose faces are each an n × n grid of quads (12·n² triangles): a box with as many
 * triangles as a CAD part's tessellation, for benchmarks. Vertices are shared within a face
 * and repeated (at equal positions) along the box's edges.
 */
export function gridBoxMesh(size: V3, n: number, centre: V3 = [0, 0, 0]): PartMesh {
  const h = [size[0] / 2, size[1] / 2, size[2] / 2];
  const pos: number[] = [];
  const idx: number[] = [];
  // each face: the axis it faces along, its sign; u, v the other two axes in right-handed order
  for (const [axis, sign] of [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]] as const) {
    const u = (axis + 1) % 3, w = (axis + 2) % 3;
    const base = pos.length / 3;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= n; j++) {
        const p = [0, 0, 0];
        p[axis] = sign * h[axis]!;
        p[u] = -h[u]! + (2 * h[u]! * i) / n;
        p[w] = -h[w]! + (2 * h[w]! * j) / n;
        pos.push(centre[0] + p[0]!, centre[1] + p[1]!, centre[2] + p[2]!);
      }
    }
    const at = (i: number, j: number): number => base + i * (n + 1) + j;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        // u × w = axis: counter-clockwise seen from +axis; reversed on the − face
        if (sign > 0) idx.push(at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j), at(i + 1, j + 1), at(i, j + 1));
        else idx.push(at(i, j), at(i + 1, j + 1), at(i + 1, j), at(i, j), at(i, j + 1), at(i + 1, j + 1));
      }
    }
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}

/**
 * A capped cylinder about z from z = 0 to `length`: `segments` around, `rings` bands along,
 * flat caps fanned from their centres (as a CAD tessellator leaves a planar face: few, long
 * triangles); 2·segments·(rings + 1) triangles.
 */
export function cylinderMesh(radius: number, length: number, segments = 32, rings = 1, centre: V3 = [0, 0, 0]): PartMesh {
  const pos: number[] = [];
  for (let r = 0; r <= rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = (2 * Math.PI * s) / segments;
      pos.push(centre[0] + radius * Math.cos(a), centre[1] + radius * Math.sin(a), centre[2] + (length * r) / rings);
    }
  }
  const bottom = pos.length / 3;
  pos.push(centre[0], centre[1], centre[2]);
  const top = pos.length / 3;
  pos.push(centre[0], centre[1], centre[2] + length);
  const at = (r: number, s: number): number => r * segments + (s % segments);
  const idx: number[] = [];
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) idx.push(at(r, s), at(r, s + 1), at(r + 1, s + 1), at(r, s), at(r + 1, s + 1), at(r + 1, s));
  }
  for (let s = 0; s < segments; s++) {
    idx.push(bottom, at(0, s + 1), at(0, s));
    idx.push(top, at(rings, s), at(rings, s + 1));
  }
  return { positions: Float32Array.from(pos), indices: Uint32Array.from(idx) };
}
