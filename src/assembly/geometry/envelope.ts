/**
 * The volume a part sweeps through a list of poses, as one closed mesh.
 *
 * Method (a distance-field union, then marching tetrahedra):
 * 1. The part's surface is sampled once in its own frame: its vertices, and points on
 *    every triangle at spacing ≤ ρ (below), so the balls of radius ρ about the samples
 *    cover the surface without gaps.
 * 2. For every pose, every sample is placed and the 8 grid nodes of the cell it falls in
 *    take the (squared) distance to it when nearer than what they hold: an unsigned
 *    distance to the union of the placed surfaces, known near it.
 * 3. A node is inside when that distance is ≤ ρ = √3·h (a cell's diagonal); nodes that
 *    the outside cannot reach (flood fill from the grid's border) are inside too (the
 *    solid's interior, far from every sample).
 * 4. Marching tetrahedra (six per cell, along the main diagonal, which tiles the grid
 *    conformingly) on f − ρ gives the surface; vertices are shared per grid edge, so every
 *    edge is shared by exactly two triangles: the mesh is closed.
 * Every sampled vertex lies inside the result: all 8 nodes of its cell are within √3·h of
 * it, so that cell is whole inside. The envelope is the swept solid grown by up to ρ + h.
 */
import type { PartMesh } from './mesh.ts';
import type { PoseArray } from './clearance.ts';
import { GeometryError } from './errors.ts';
import { weldMap } from './closed.ts';

export interface EnvelopeOptions {
  /** Voxel size, mm; default: the largest extent / 160, grown until the grid holds at most `maxNodes`. */
  voxel?: number;
  /** Default 4,000,000. */
  maxNodes?: number;
}

export interface Envelope {
  mesh: PartMesh;
  /** The voxel size used, mm. */
  voxel: number;
  /** How far the surface may stand off the swept solid, mm (ρ + h). */
  growth: number;
}

/**
 * Surface samples in the part's frame: the vertices (each position once), and on a triangle with a point farther
 * than `spacing` from all three of its corners, a grid of points `spacing` apart. (The point
 * of a triangle farthest from its corners is its circumcentre when it is acute, else the
 * middle of its longest edge.)
 */
export function surfaceSamples(mesh: PartMesh, spacing: number): Float32Array {
  const p = mesh.positions;
  // each position once: a mesh read from STL repeats every vertex for each of its triangles
  // (about six times), and a repeated sample changes no distance, only the time
  const weld = weldMap(mesh);
  const out: number[] = [];
  for (let i = 0; i < weld.length; i++) if (weld[i] === i) out.push(p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!);
  const idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) {
    const a = 3 * idx[t]!, b = 3 * idx[t + 1]!, c = 3 * idx[t + 2]!;
    const ab = Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!);
    const bc = Math.hypot(p[c]! - p[b]!, p[c + 1]! - p[b + 1]!, p[c + 2]! - p[b + 2]!);
    const ca = Math.hypot(p[a]! - p[c]!, p[a + 1]! - p[c + 1]!, p[a + 2]! - p[c + 2]!);
    const long = Math.max(ab, bc, ca);
    const obtuse = 2 * long * long >= ab * ab + bc * bc + ca * ca;
    const s = (ab + bc + ca) / 2;
    const area = Math.sqrt(Math.max(0, s * (s - ab) * (s - bc) * (s - ca)));
    const farthest = obtuse || area === 0 ? long / 2 : (ab * bc * ca) / (4 * area);
    if (farthest <= spacing) continue;
    const m = Math.ceil(long / spacing);
    for (let i = 0; i <= m; i++) {
      for (let j = 0; i + j <= m; j++) {
        if ((i === 0 && j === 0) || i === m || j === m) continue; // the corners are vertices already
        const u = i / m, v = j / m, w = 1 - u - v;
        for (let k = 0; k < 3; k++) out.push(w * p[a + k]! + u * p[b + k]! + v * p[c + k]!);
      }
    }
  }
  return Float32Array.from(out);
}

function rotation(pose: PoseArray, m: Float64Array): void {
  const n = Math.hypot(pose[3]!, pose[4]!, pose[5]!, pose[6]!);
  const w = pose[3]! / n, x = pose[4]! / n, y = pose[5]! / n, z = pose[6]! / n;
  m[0] = 1 - 2 * (y * y + z * z); m[1] = 2 * (x * y - w * z); m[2] = 2 * (x * z + w * y);
  m[3] = 2 * (x * y + w * z); m[4] = 1 - 2 * (x * x + z * z); m[5] = 2 * (y * z - w * x);
  m[6] = 2 * (x * z - w * y); m[7] = 2 * (y * z + w * x); m[8] = 1 - 2 * (x * x + y * y);
  m[9] = pose[0]!; m[10] = pose[1]!; m[11] = pose[2]!;
}

/** The envelope of `mesh` (part frame) over `poses` (world). */
export function sweptEnvelope(mesh: PartMesh, poses: readonly PoseArray[], options: EnvelopeOptions = {}): Envelope {
  if (poses.length === 0) throw new GeometryError('envelope', 'no poses to sweep');
  const m = new Float64Array(12);
  // world bounds of the placed vertices (each position once)
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  const p = surfaceSamples(mesh, Infinity);
  for (const pose of poses) {
    rotation(pose, m);
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const v = m[3 * k]! * p[i]! + m[3 * k + 1]! * p[i + 1]! + m[3 * k + 2]! * p[i + 2]! + m[9 + k]!;
        if (v < lo[k]!) lo[k] = v;
        if (v > hi[k]!) hi[k] = v;
      }
    }
  }
  const maxNodes = options.maxNodes ?? 4_000_000;
  const extent = Math.max(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!, 1e-6);
  const h = voxelSize(lo, hi, options.voxel ?? extent / 160, options.voxel !== undefined, maxNodes);
  const [nx, ny, nz] = gridDims(lo, hi, h);
  const rho = Math.sqrt(3) * h * (1 + 1e-6);
  const pad = rho + 3 * h;
  const origin = [lo[0]! - pad, lo[1]! - pad, lo[2]! - pad];
  const field = new Float32Array(nx * ny * nz).fill(Infinity);
  const samples = surfaceSamples(mesh, rho);
  const sxy = nx * ny;
  for (const pose of poses) {
    rotation(pose, m);
    splat(samples, m, origin, h, field, nx, sxy);
  }
  for (let n = 0; n < field.length; n++) field[n] = Math.sqrt(field[n]!);
  fillInterior(field, nx, ny, nz, rho);
  // f − ρ, never exactly 0 (a crossing then always lies strictly inside an edge), far values capped
  for (let n = 0; n < field.length; n++) {
    const g = Math.min(field[n]! - rho, h);
    field[n] = g === 0 ? -1e-6 * h : g;
  }
  const out = marchingTetrahedra(field, nx, ny, nz, h, origin);
  return { mesh: out, voxel: h, growth: rho + h };
}

/** Every sample placed by `m`: the 8 nodes of its cell keep the smallest squared distance to it. */
function splat(samples: Float32Array, m: Float64Array, origin: readonly number[], h: number, field: Float32Array, nx: number, sxy: number): void {
  const m0 = m[0]!, m1 = m[1]!, m2 = m[2]!, m3 = m[3]!, m4 = m[4]!, m5 = m[5]!, m6 = m[6]!, m7 = m[7]!, m8 = m[8]!;
  const tx = m[9]! - origin[0]!, ty = m[10]! - origin[1]!, tz = m[11]! - origin[2]!;
  for (let s = 0; s < samples.length; s += 3) {
    const a = samples[s]!, b = samples[s + 1]!, c = samples[s + 2]!;
    const x = m0 * a + m1 * b + m2 * c + tx;
    const y = m3 * a + m4 * b + m5 * c + ty;
    const z = m6 * a + m7 * b + m8 * c + tz;
    const i = Math.floor(x / h), j = Math.floor(y / h), k = Math.floor(z / h);
    const ex0 = x - i * h, ex1 = x - (i + 1) * h;
    const ex02 = ex0 * ex0, ex12 = ex1 * ex1;
    for (let dz = 0; dz < 2; dz++) {
      const ez = z - (k + dz) * h;
      for (let dy = 0; dy < 2; dy++) {
        const ey = y - (j + dy) * h;
        const row = (k + dz) * sxy + (j + dy) * nx + i;
        const r = ey * ey + ez * ez;
        // squared here, rooted once per node afterwards
        const d0 = ex02 + r, d1 = ex12 + r;
        if (d0 < field[row]!) field[row] = d0;
        if (d1 < field[row + 1]!) field[row + 1] = d1;
      }
    }
  }
}

/** Grid nodes along each axis for voxel `h`: the bounds padded by ρ + 3h on each side. */
function gridDims(lo: readonly number[], hi: readonly number[], h: number): [number, number, number] {
  const pad = Math.sqrt(3) * h * (1 + 1e-6) + 3 * h;
  return [0, 1, 2].map((k) => Math.ceil((hi[k]! - lo[k]! + 2 * pad) / h) + 1) as [number, number, number];
}

/** The voxel: `h`, grown by 10 % steps until the grid has at most `maxNodes` (a voxel the user gave is refused instead). */
function voxelSize(lo: readonly number[], hi: readonly number[], h: number, given: boolean, maxNodes: number): number {
  for (;;) {
    const [nx, ny, nz] = gridDims(lo, hi, h);
    if (nx * ny * nz <= maxNodes) return h;
    if (given) throw new GeometryError('--voxel', `a voxel of ${h} mm needs ${nx * ny * nz} grid nodes, more than ${maxNodes}; give a larger voxel`);
    h *= 1.1;
  }
}

/** Nodes the border cannot reach through outside nodes (> ρ) are inside: their distance becomes 0. */
function fillInterior(field: Float32Array, nx: number, ny: number, nz: number, rho: number): void {
  const reached = new Uint8Array(field.length);
  const queue = new Int32Array(field.length);
  let head = 0, tail = 0;
  const push = (n: number): void => {
    if (reached[n] || field[n]! <= rho) return;
    reached[n] = 1;
    queue[tail++] = n;
  };
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) {
    if (i === 0 || j === 0 || k === 0 || i === nx - 1 || j === ny - 1 || k === nz - 1) push(k * nx * ny + j * nx + i);
  }
  const sxy = nx * ny;
  while (head < tail) {
    const n = queue[head++]!;
    const i = n % nx, j = Math.floor(n / nx) % ny, k = Math.floor(n / sxy);
    if (i > 0) push(n - 1);
    if (i < nx - 1) push(n + 1);
    if (j > 0) push(n - nx);
    if (j < ny - 1) push(n + nx);
    if (k > 0) push(n - sxy);
    if (k < nz - 1) push(n + sxy);
  }
  for (let n = 0; n < field.length; n++) if (!reached[n] && field[n]! > rho) field[n] = 0;
}

// the six tetrahedra of a cell (corner bits: 1 = +x, 2 = +y, 4 = +z), each a monotone path 0 → 7
const TETS = [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]] as const;

/** The surface f = 0 of a grid field (negative inside), closed, triangles facing out. */
export function marchingTetrahedra(field: Float32Array, nx: number, ny: number, nz: number, h: number, origin: readonly number[]): PartMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  const sxy = nx * ny;
  const corner = new Int32Array(8);
  // A tetrahedron's edges all run from a node toward +x, +y, +z or a diagonal of those: an
  // edge's vertex is kept under its lower node and that direction (bit mask 1..7), for the
  // two node layers a cell layer touches (a layer's edges are all met by then).
  let lower = new Int32Array(8 * sxy).fill(-1), upper = new Int32Array(8 * sxy).fill(-1);
  let layer = 0;
  const vertexOn = (a: number, b: number): number => {
    const lo = a < b ? a : b, hi = a < b ? b : a;
    const ax = lo % nx, ay = Math.floor(lo / nx) % ny, az = Math.floor(lo / sxy);
    const bx = hi % nx, by = Math.floor(hi / nx) % ny, bz = Math.floor(hi / sxy);
    const slot = 8 * (lo - az * sxy) + ((bx - ax) | ((by - ay) << 1) | ((bz - az) << 2));
    const table = az === layer ? lower : upper;
    let v = table[slot]!;
    if (v < 0) {
      const fa = field[a]!, fb = field[b]!;
      const t = fa / (fa - fb);
      const [px, py, pz] = a === lo ? [ax, ay, az] : [bx, by, bz];
      const [qx, qy, qz] = a === lo ? [bx, by, bz] : [ax, ay, az];
      v = positions.length / 3;
      positions.push(origin[0]! + h * (px + t * (qx - px)), origin[1]! + h * (py + t * (qy - py)), origin[2]! + h * (pz + t * (qz - pz)));
      table[slot] = v;
    }
    return v;
  };
  const emit = (v0: number, v1: number, v2: number, inside: number, outside: number): void => {
    // face the triangle from the inside node toward the outside one
    const P = positions;
    const ux = P[3 * v1]! - P[3 * v0]!, uy = P[3 * v1 + 1]! - P[3 * v0 + 1]!, uz = P[3 * v1 + 2]! - P[3 * v0 + 2]!;
    const wx = P[3 * v2]! - P[3 * v0]!, wy = P[3 * v2 + 1]! - P[3 * v0 + 1]!, wz = P[3 * v2 + 2]! - P[3 * v0 + 2]!;
    const dx = (outside % nx) - (inside % nx), dy = (Math.floor(outside / nx) % ny) - (Math.floor(inside / nx) % ny), dz = Math.floor(outside / sxy) - Math.floor(inside / sxy);
    const dot = (uy * wz - uz * wy) * dx + (uz * wx - ux * wz) * dy + (ux * wy - uy * wx) * dz;
    if (dot >= 0) indices.push(v0, v1, v2);
    else indices.push(v0, v2, v1);
  };
  const ins: number[] = [], outs: number[] = [];
  for (let k = 0; k < nz - 1; k++) {
    if (k > 0) {
      // the upper node layer becomes the lower one
      const t = lower; lower = upper; upper = t.fill(-1);
    }
    layer = k;
    for (let j = 0; j < ny - 1; j++) {
      for (let i = 0; i < nx - 1; i++) {
        const base = k * sxy + j * nx + i;
        let neg = 0;
        for (let c = 0; c < 8; c++) {
          const n = base + (c & 1) + (c & 2 ? nx : 0) + (c & 4 ? sxy : 0);
          corner[c] = n;
          if (field[n]! < 0) neg++;
        }
        if (neg === 0 || neg === 8) continue;
        for (const tet of TETS) {
          ins.length = 0; outs.length = 0;
          for (const c of tet) (field[corner[c]!]! < 0 ? ins : outs).push(corner[c]!);
          if (ins.length === 0 || outs.length === 0) continue;
          if (ins.length === 1) {
            emit(vertexOn(ins[0]!, outs[0]!), vertexOn(ins[0]!, outs[1]!), vertexOn(ins[0]!, outs[2]!), ins[0]!, outs[0]!);
          } else if (ins.length === 3) {
            emit(vertexOn(outs[0]!, ins[0]!), vertexOn(outs[0]!, ins[1]!), vertexOn(outs[0]!, ins[2]!), ins[0]!, outs[0]!);
          } else {
            // a quad across the four in–out edges, in cyclic order
            const q0 = vertexOn(ins[0]!, outs[0]!), q1 = vertexOn(ins[0]!, outs[1]!), q2 = vertexOn(ins[1]!, outs[1]!), q3 = vertexOn(ins[1]!, outs[0]!);
            emit(q0, q1, q2, ins[0]!, outs[0]!);
            emit(q0, q2, q3, ins[1]!, outs[1]!);
          }
        }
      }
    }
  }
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}
