/** Meshes of primitives whose surfaces are known, for the pick tests: B-rep-like (faces kept) or plain. */
import { seededRandom } from '../../../kernel/random.ts';

export interface TestMesh { positions: Float64Array; indices: Uint32Array; faces: { first: number; count: number }[] | null }

class MeshBuilder {
  positions: number[] = [];
  indices: number[] = [];
  faces: number[] = [];
  vertex(p: readonly number[]): number { this.positions.push(p[0], p[1], p[2]); return this.positions.length / 3 - 1; }
  triangle(a: number, b: number, c: number, face: number) { this.indices.push(a, b, c); this.faces.push(face); }
  quad(a: number, b: number, c: number, d: number, face: number) { this.triangle(a, b, c, face); this.triangle(a, c, d, face); }
  /** Triangles sorted by face (stable), each face one range, as a B-rep reader gives them. */
  build(keepFaces: boolean): TestMesh {
    const order = this.faces.map((f, t) => [f, t]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[1]);
    const indices = Uint32Array.from(order.flatMap((t) => this.indices.slice(3 * t, 3 * t + 3)));
    const faces: { first: number; count: number }[] = [];
    order.forEach((t, i) => {
      const f = this.faces[t];
      if (faces[f]) faces[f].count++; else faces[f] = { first: i, count: 1 };
    });
    return { positions: Float64Array.from(this.positions), indices, faces: keepFaces ? faces : null };
  }
}

export interface CylinderOptions { radius: number; height: number; segments: number; faces?: boolean; splitSide?: boolean; cone?: number }

/**
 * A closed cylinder along +z from z = 0 to height, centred on the z axis, outward winding;
 * with `cone` the top radius is radius·cone. Each face has its own vertices (as a B-rep
 * reader gives them). Faces: side 0 (and 1 for the second half when split), bottom 2, top 3.
 */
export function cylinderMesh(o: CylinderOptions): TestMesh {
  const m = new MeshBuilder();
  const n = o.segments, top = o.radius * (o.cone ?? 1);
  const ring = (r: number, z: number, i: number) => [r * Math.cos((2 * Math.PI * i) / n), r * Math.sin((2 * Math.PI * i) / n), z];
  for (let i = 0; i < n; i++) {
    const face = o.splitSide && i >= n / 2 ? 1 : 0;
    const a = m.vertex(ring(o.radius, 0, i)), b = m.vertex(ring(o.radius, 0, i + 1));
    const c = m.vertex(ring(top, o.height, i + 1)), d = m.vertex(ring(top, o.height, i));
    m.quad(a, b, c, d, face);
  }
  const bottomCentre = m.vertex([0, 0, 0]), topCentre = m.vertex([0, 0, o.height]);
  for (let i = 0; i < n; i++) {
    m.triangle(bottomCentre, m.vertex(ring(o.radius, 0, i + 1)), m.vertex(ring(o.radius, 0, i)), 2);
    m.triangle(topCentre, m.vertex(ring(top, o.height, i)), m.vertex(ring(top, o.height, i + 1)), 3);
  }
  return m.build(o.faces ?? true);
}

/** A UV sphere of radius r at c (plain mesh). */
export function sphereMesh(r: number, c: readonly number[], rings = 12, segments = 24): TestMesh {
  const m = new MeshBuilder();
  const at = (i: number, j: number) => {
    const th = (Math.PI * i) / rings, ph = (2 * Math.PI * j) / segments;
    return [c[0] + r * Math.sin(th) * Math.cos(ph), c[1] + r * Math.sin(th) * Math.sin(ph), c[2] + r * Math.cos(th)];
  };
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < segments; j++) {
      const a = m.vertex(at(i, j)), b = m.vertex(at(i + 1, j)), cc = m.vertex(at(i + 1, j + 1)), d = m.vertex(at(i, j + 1));
      m.quad(a, b, cc, d, 0);
    }
  }
  return m.build(false);
}

/** An axis-aligned box [0, size] (faces kept: −x 0, +x 1, −y 2, +y 3, −z 4, +z 5). */
export function boxMesh(size: readonly number[], faces = true): TestMesh {
  const m = new MeshBuilder();
  const v = (x: number, y: number, z: number) => m.vertex([x * size[0], y * size[1], z * size[2]]);
  const quads: [number[], number[], number[], number[]][] = [
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]], [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]],
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]],
    [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]], [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]],
  ];
  quads.forEach((q, f) => m.quad(v(...(q[0] as [number, number, number])), v(...(q[1] as [number, number, number])), v(...(q[2] as [number, number, number])), v(...(q[3] as [number, number, number])), f));
  return m.build(faces);
}

/** An n × n grid over the unit square [0, s]² at z = 0, normal +z, noise (uniform ±amp) on every coordinate. */
export function noisySquare(s: number, n: number, amp: number, seed: number): TestMesh {
  const m = new MeshBuilder();
  const rand = seededRandom(seed);
  const noise = () => amp * (2 * rand() - 1);
  const id: number[][] = [];
  for (let i = 0; i <= n; i++) { id[i] = []; for (let j = 0; j <= n; j++) id[i][j] = m.vertex([(s * i) / n + noise(), (s * j) / n + noise(), noise()]); }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) m.quad(id[i][j], id[i + 1][j], id[i + 1][j + 1], id[i][j + 1], 0);
  return m.build(false);
}

/**
 * Moves every vertex by the rotation (unit quaternion w,x,y,z) then the translation; adds
 * seeded noise (uniform ±amp per coordinate) when amp > 0, the same to every copy of a
 * position, so the faces stay joined.
 */
export function transformed(mesh: TestMesh, q: readonly number[], t: readonly number[], amp = 0, seed = 1): TestMesh {
  const rand = seededRandom(seed);
  const noiseOf = new Map<string, number[]>();
  const positions = new Float64Array(mesh.positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    const v = [mesh.positions[i], mesh.positions[i + 1], mesh.positions[i + 2]];
    const key = v.map((c) => c.toFixed(9)).join();
    if (!noiseOf.has(key)) noiseOf.set(key, [0, 1, 2].map(() => (amp > 0 ? amp * (2 * rand() - 1) : 0)));
    const e = noiseOf.get(key)!;
    const r = rotate(q, v);
    for (let k = 0; k < 3; k++) positions[i + k] = r[k] + t[k] + e[k];
  }
  return { ...mesh, positions };
}

export function rotate(q: readonly number[], v: readonly number[]): number[] {
  const [w, x, y, z] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Unit quaternion of a turn by angle about axis. */
export function quatAbout(axis: readonly number[], angle: number): number[] {
  const l = Math.hypot(axis[0], axis[1], axis[2]);
  const s = Math.sin(angle / 2) / l;
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}
