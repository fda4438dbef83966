/**
 * The connectivity a pick needs of a triangle soup: vertices welded by position (STL has
 * no shared vertices, and a B-rep reader gives each face its own), the triangle across
 * each edge, the triangles round each vertex, facet normals and areas.
 */

/**
 * Triangles in a part's own frame: the shape of the geometry layer's `PartMesh`
 * (src/assembly/geometry/mesh.ts), which is one; `faces` are the B-rep faces where the
 * reader kept them, each a contiguous range of triangles.
 */
export interface PickMesh {
  /** xyz per vertex. */
  readonly positions: ArrayLike<number>;
  /** Three vertex indices per triangle; null or absent when the positions are a plain triangle list. */
  readonly indices?: ArrayLike<number> | null;
  /** B-rep faces as triangle ranges; absent for a plain mesh. */
  readonly faces?: readonly { readonly first: number; readonly count: number }[] | null;
}

export interface Topology {
  readonly triangleCount: number;
  /** Welded vertex positions, xyz. */
  readonly points: Float64Array;
  /** Three welded vertex ids per triangle. */
  readonly corners: Int32Array;
  /** The triangle across edge k (corner k → k + 1) of each triangle, −1 at an open or a non-manifold edge. */
  readonly across: Int32Array;
  /** Unit facet normals (by winding), xyz per triangle, and facet areas. */
  readonly normals: Float64Array;
  readonly areas: Float64Array;
  /** The triangles round each welded vertex: `vertexTriangles[vertexStart[v] .. vertexStart[v + 1]]`. */
  readonly vertexStart: Int32Array;
  readonly vertexTriangles: Int32Array;
  /** The diagonal of the bounding box: the scale of the part's tolerances. */
  readonly size: number;
}

function cornerIndex(mesh: PickMesh, t: number, k: number): number {
  return mesh.indices ? mesh.indices[3 * t + k] : 3 * t + k;
}

export function triangleCountOf(mesh: PickMesh): number {
  return mesh.indices ? Math.floor(mesh.indices.length / 3) : Math.floor(mesh.positions.length / 9);
}

/**
 * Welds vertices that fall in one cell of a grid of pitch 1e-7 of the bounding box's
 * diagonal. Cells are found by (x, y) cell in a map and a chain over z, so no string keys.
 */
function weld(mesh: PickMesh, triangles: number) {
  const p = mesh.positions;
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], p[i + k]); hi[k] = Math.max(hi[k], p[i + k]); }
  const size = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
  const pitch = size * 1e-7;
  const firstInColumn = new Map<number, number>(); // (qx, qy) → first welded id
  const nextInColumn: number[] = [];
  const qz: number[] = [];
  const corners = new Int32Array(3 * triangles);
  const points: number[] = [];
  for (let t = 0; t < triangles; t++) {
    for (let k = 0; k < 3; k++) {
      const v = cornerIndex(mesh, t, k);
      const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2];
      const column = Math.round((x - lo[0]) / pitch) * 67108864 + Math.round((y - lo[1]) / pitch); // < 2^53
      const cz = Math.round((z - lo[2]) / pitch);
      let id = firstInColumn.get(column) ?? -1, last = -1;
      while (id >= 0 && qz[id] !== cz) { last = id; id = nextInColumn[id]; }
      if (id < 0) {
        id = qz.length;
        qz.push(cz); nextInColumn.push(-1); points.push(x, y, z);
        if (last >= 0) nextInColumn[last] = id; else firstInColumn.set(column, id);
      }
      corners[3 * t + k] = id;
    }
  }
  return { points: Float64Array.from(points), corners, size };
}

export function buildTopology(mesh: PickMesh): Topology {
  const triangleCount = triangleCountOf(mesh);
  const { points, corners, size } = weld(mesh, triangleCount);
  const vertexCount = points.length / 3;
  const normals = new Float64Array(3 * triangleCount), areas = new Float64Array(triangleCount);
  for (let t = 0; t < triangleCount; t++) {
    const a = 3 * corners[3 * t], b = 3 * corners[3 * t + 1], c = 3 * corners[3 * t + 2];
    const e1 = [points[b] - points[a], points[b + 1] - points[a + 1], points[b + 2] - points[a + 2]];
    const e2 = [points[c] - points[a], points[c + 1] - points[a + 1], points[c + 2] - points[a + 2]];
    const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const len = Math.hypot(n[0], n[1], n[2]);
    areas[t] = len / 2;
    if (len > 0) for (let k = 0; k < 3; k++) normals[3 * t + k] = n[k] / len;
  }
  // edges: the key of an undirected edge is lo·V + hi (exact below 2^53)
  const across = new Int32Array(3 * triangleCount).fill(-1);
  const open = new Map<number, number>(); // edge key → 3·t + k of its first triangle, −2 once non-manifold
  for (let t = 0; t < triangleCount; t++) {
    // a triangle with two corners welded into one has no edges to join across
    if (corners[3 * t] === corners[3 * t + 1] || corners[3 * t + 1] === corners[3 * t + 2] || corners[3 * t] === corners[3 * t + 2]) continue;
    for (let k = 0; k < 3; k++) {
      const a = corners[3 * t + k], b = corners[3 * t + ((k + 1) % 3)];
      const key = Math.min(a, b) * vertexCount + Math.max(a, b);
      const first = open.get(key);
      if (first === undefined) open.set(key, 3 * t + k);
      else if (first >= 0 && across[first] === -1) { across[first] = t; across[3 * t + k] = Math.floor(first / 3); }
      else if (first >= 0) { across[across[first] * 3 + edgeSlot(corners, across[first], a, b)] = -1; across[first] = -1; open.set(key, -2); }
    }
  }
  const vertexStart = new Int32Array(vertexCount + 1);
  for (let i = 0; i < corners.length; i++) vertexStart[corners[i] + 1]++;
  for (let v = 0; v < vertexCount; v++) vertexStart[v + 1] += vertexStart[v];
  const fill = vertexStart.slice(0, vertexCount);
  const vertexTriangles = new Int32Array(corners.length);
  for (let i = 0; i < corners.length; i++) vertexTriangles[fill[corners[i]]++] = Math.floor(i / 3);
  return { triangleCount, points, corners, across, normals, areas, vertexStart, vertexTriangles, size };
}

/** Which edge slot k of triangle t joins vertices a and b (either order). */
function edgeSlot(corners: Int32Array, t: number, a: number, b: number): number {
  for (let k = 0; k < 3; k++) {
    const p = corners[3 * t + k], q = corners[3 * t + ((k + 1) % 3)];
    if ((p === a && q === b) || (p === b && q === a)) return k;
  }
  return 0;
}
