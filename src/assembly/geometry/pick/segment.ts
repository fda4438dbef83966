/**
 * The regions a pick starts from: a B-rep reader's faces where it kept them, else the
 * smooth regions of a plain mesh, grown across every edge whose dihedral angle is below a
 * threshold (default 30°: a cylinder tessellated in 12 or more segments stays one region,
 * a box's and a cylinder's square edges split). Region ids follow the lowest triangle (or
 * the lowest face id), so the same mesh always segments alike.
 */
import type { PickMesh, Topology } from './topology.ts';

export const DEFAULT_SMOOTH_ANGLE_DEG = 30;

/** The region of each triangle, ids 0.. in order of first appearance. */
export function initialRegions(mesh: PickMesh, topo: Topology, smoothAngleDeg = DEFAULT_SMOOTH_ANGLE_DEG): Int32Array {
  return mesh.faces ? regionsOfFaces(mesh.faces, topo.triangleCount) : growSmoothRegions(topo, Math.cos((smoothAngleDeg * Math.PI) / 180));
}

/** Region = face index; a triangle no face covers is a region of its own (after the faces). */
function regionsOfFaces(faces: NonNullable<PickMesh['faces']>, count: number): Int32Array {
  const region = new Int32Array(count).fill(-1);
  faces.forEach((f, i) => { for (let t = f.first; t < Math.min(f.first + f.count, count); t++) region[t] = i; });
  let next = faces.length;
  for (let t = 0; t < count; t++) if (region[t] < 0) region[t] = next++;
  return region;
}

function growSmoothRegions(topo: Topology, cosLimit: number): Int32Array {
  const region = new Int32Array(topo.triangleCount).fill(-1);
  const stack: number[] = [];
  let next = 0;
  const n = topo.normals;
  for (let seed = 0; seed < topo.triangleCount; seed++) {
    if (region[seed] >= 0) continue;
    region[seed] = next;
    stack.push(seed);
    while (stack.length) {
      const t = stack.pop()!;
      for (let k = 0; k < 3; k++) {
        const u = topo.across[3 * t + k];
        if (u < 0 || region[u] >= 0) continue;
        const c = n[3 * t] * n[3 * u] + n[3 * t + 1] * n[3 * u + 1] + n[3 * t + 2] * n[3 * u + 2];
        // a degenerate (zero-area) triangle has no normal: it joins whatever it touches
        const flat = topo.areas[t] === 0 || topo.areas[u] === 0;
        if (c >= cosLimit || flat) { region[u] = next; stack.push(u); }
      }
    }
    next++;
  }
  return region;
}

/** The triangles of each region, ascending. */
export function trianglesByRegion(region: Int32Array): Int32Array[] {
  const counts: number[] = [];
  for (const r of region) counts[r] = (counts[r] ?? 0) + 1;
  const out = counts.map((c) => new Int32Array(c));
  const fill = counts.map(() => 0);
  for (let t = 0; t < region.length; t++) out[region[t]][fill[region[t]]++] = t;
  return out;
}
