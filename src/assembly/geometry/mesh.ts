/**
 * The in-memory triangle mesh of a part's geometry: what every reader (STL, OBJ, glTF,
 * STEP, IGES) produces, what clearance, envelope and picking read. Stable: other code
 * (picking, the viewer) depends on these fields.
 *
 * Coordinates are millimetres in the PART's frame once `placeMesh` has applied the
 * geometry entry's `frame` and `units`; a reader's own output is in the file's frame.
 */

/** One face of the source B-rep (STEP, IGES): which triangles make it. */
export interface MeshFace {
  /** First triangle (index into the mesh's triangles, not into `indices`). */
  readonly first: number;
  /** Number of triangles; the face's triangles are `first … first + count − 1`. */
  readonly count: number;
  /**
   * The surface type as the reader gives it ('plane', 'cylinder', 'cone', 'sphere',
   * 'torus', 'bspline', …), or undefined where the reader does not say (occt-import-js
   * does not: picking then fits the face's triangles).
   */
  readonly surface?: string;
}

/** An edge of the source B-rep as a polyline, in the same frame and unit as the mesh. */
export interface MeshEdge {
  /** xyz per point, at least two points. */
  readonly points: Float32Array;
  /** Faces (indices into `faces`) that this edge bounds, where known. */
  readonly faces?: readonly number[];
}

export interface PartMesh {
  /** xyz per vertex, mm. */
  readonly positions: Float32Array;
  /** Three vertex indices per triangle. */
  readonly indices: Uint32Array;
  /** B-rep faces, each a contiguous triangle range; absent for plain meshes (STL, OBJ, glTF). */
  readonly faces?: readonly MeshFace[];
  /** B-rep edges as polylines, where the reader gives them. */
  readonly edges?: readonly MeshEdge[];
}

/** Number of triangles of a mesh. */
export function triangleCount(mesh: PartMesh): number {
  return mesh.indices.length / 3;
}

/** Number of vertices of a mesh. */
export function vertexCount(mesh: PartMesh): number {
  return mesh.positions.length / 3;
}

/** The face (index into `mesh.faces`) that holds triangle `triangle`, or -1 (no faces, out of range). */
export function faceOfTriangle(mesh: PartMesh, triangle: number): number {
  const faces = mesh.faces;
  if (!faces) return -1;
  // faces are sorted by `first` (readers emit them so): binary search
  let lo = 0;
  let hi = faces.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = faces[mid]!;
    if (triangle < f.first) hi = mid - 1;
    else if (triangle >= f.first + f.count) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * One mesh from several (a part's geometry entries), indices and face ranges shifted;
 * `faces`/`edges` are kept when any input has them (plain inputs add no faces).
 */
export function mergeMeshes(meshes: readonly PartMesh[]): PartMesh {
  if (meshes.length === 1) return meshes[0]!;
  let nv = 0;
  let ni = 0;
  for (const m of meshes) {
    nv += m.positions.length;
    ni += m.indices.length;
  }
  const positions = new Float32Array(nv);
  const indices = new Uint32Array(ni);
  const faces: MeshFace[] = [];
  const edges: MeshEdge[] = [];
  let vOff = 0;
  let iOff = 0;
  for (const m of meshes) {
    positions.set(m.positions, vOff);
    const base = vOff / 3;
    for (let i = 0; i < m.indices.length; i++) indices[iOff + i] = m.indices[i]! + base;
    const tBase = iOff / 3;
    const fBase = faces.length;
    for (const f of m.faces ?? []) faces.push({ ...f, first: f.first + tBase });
    for (const e of m.edges ?? []) edges.push(e.faces ? { ...e, faces: e.faces.map((x) => x + fBase) } : e);
    vOff += m.positions.length;
    iOff += m.indices.length;
  }
  const out: { positions: Float32Array; indices: Uint32Array; faces?: MeshFace[]; edges?: MeshEdge[] } = { positions, indices };
  if (faces.length > 0) out.faces = faces;
  if (edges.length > 0) out.edges = edges;
  return out;
}
