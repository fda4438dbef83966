/**
 * The edges and vertices of a surface region, as a pick near them finds them.
 *
 * An edge of a surface is a run of boundary edges of its triangles that border one and
 * the same neighbouring surface (or the open boundary), connected end to end: a cylinder's
 * rim against its cap is one run, a full circle. A vertex is a welded vertex where three
 * or more surfaces meet (the corner of a box), or two and an open boundary.
 */
import type { Topology } from './topology.ts';
import type { Vec3T } from './vectors.ts';

export interface BoundaryEdge { readonly a: number; readonly b: number; readonly neighbour: number }

/** Every boundary edge of surface `s`: its two welded vertices and the surface across it (−1: open). */
export function boundaryEdges(topo: Topology, surfaceOf: Int32Array, triangles: ArrayLike<number>): BoundaryEdge[] {
  const s = surfaceOf[triangles[0]];
  const out: BoundaryEdge[] = [];
  for (let i = 0; i < triangles.length; i++) {
    const t = triangles[i];
    for (let k = 0; k < 3; k++) {
      const u = topo.across[3 * t + k];
      if (u >= 0 && surfaceOf[u] === s) continue;
      out.push({ a: topo.corners[3 * t + k], b: topo.corners[3 * t + ((k + 1) % 3)], neighbour: u < 0 ? -1 : surfaceOf[u] });
    }
  }
  return out;
}

/** Distance from p to the segment between welded vertices a and b. */
export function segmentDistance(topo: Topology, p: Readonly<Vec3T>, a: number, b: number): number {
  const P = topo.points;
  const d = [P[3 * b] - P[3 * a], P[3 * b + 1] - P[3 * a + 1], P[3 * b + 2] - P[3 * a + 2]];
  const v = [p[0] - P[3 * a], p[1] - P[3 * a + 1], p[2] - P[3 * a + 2]];
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const s = dd > 0 ? Math.min(1, Math.max(0, (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / dd)) : 0;
  return Math.hypot(v[0] - s * d[0], v[1] - s * d[1], v[2] - s * d[2]);
}

/**
 * The boundary of a surface split into runs: edges with the same neighbour, connected
 * through shared vertices. `runOf[i]` is the run of `edges[i]`.
 */
export function edgeRuns(edges: readonly BoundaryEdge[]): { runOf: Int32Array; runs: BoundaryEdge[][] } {
  const runOf = new Int32Array(edges.length).fill(-1);
  const byVertex = new Map<number, number[]>();
  edges.forEach((e, i) => {
    for (const v of [e.a, e.b]) {
      const list = byVertex.get(v);
      if (list) list.push(i); else byVertex.set(v, [i]);
    }
  });
  const runs: BoundaryEdge[][] = [];
  for (let start = 0; start < edges.length; start++) {
    if (runOf[start] >= 0) continue;
    const id = runs.length, run: BoundaryEdge[] = [];
    runOf[start] = id;
    const stack = [start];
    while (stack.length) {
      const i = stack.pop()!;
      run.push(edges[i]);
      for (const v of [edges[i].a, edges[i].b]) {
        for (const j of byVertex.get(v)!) {
          if (runOf[j] < 0 && edges[j].neighbour === edges[i].neighbour) { runOf[j] = id; stack.push(j); }
        }
      }
    }
    runs.push(run);
  }
  return { runOf, runs };
}

/** The distinct welded vertices of a run, packed xyz, in ascending vertex order. */
export function runPoints(topo: Topology, run: readonly BoundaryEdge[]): Float64Array {
  const ids = [...new Set(run.flatMap((e) => [e.a, e.b]))].sort((x, y) => x - y);
  const out = new Float64Array(3 * ids.length);
  ids.forEach((v, i) => { out[3 * i] = topo.points[3 * v]; out[3 * i + 1] = topo.points[3 * v + 1]; out[3 * i + 2] = topo.points[3 * v + 2]; });
  return out;
}

/** The run's segments as packed xyz pairs (for drawing). */
export function runSegments(topo: Topology, run: readonly BoundaryEdge[]): Float64Array {
  const out = new Float64Array(6 * run.length);
  run.forEach((e, i) => {
    for (let k = 0; k < 3; k++) { out[6 * i + k] = topo.points[3 * e.a + k]; out[6 * i + 3 + k] = topo.points[3 * e.b + k]; }
  });
  return out;
}

/** Whether welded vertex v is a corner: three or more surfaces meet there (an open boundary counts as one). */
export function isCorner(topo: Topology, surfaceOf: Int32Array, v: number): boolean {
  const seen = new Set<number>();
  for (let i = topo.vertexStart[v]; i < topo.vertexStart[v + 1]; i++) {
    const t = topo.vertexTriangles[i];
    seen.add(surfaceOf[t]);
    for (let k = 0; k < 3; k++) if (topo.across[3 * t + k] < 0 && (topo.corners[3 * t + k] === v || topo.corners[3 * t + ((k + 1) % 3)] === v)) seen.add(-1);
  }
  return seen.size >= 3;
}
