/**
 * Whether a mesh is closed (watertight): after welding vertices at equal positions, every
 * edge is shared by exactly two triangles. Only a closed mesh has an inside, so only
 * closed meshes get containment and penetration depth in clearance, and the envelope is
 * checked closed with this.
 */
import type { PartMesh } from './mesh.ts';

/** For each vertex, the first vertex at exactly the same position (float32 bits). */
export function weldMap(mesh: PartMesh): Uint32Array {
  const p = mesh.positions;
  const bits = new Uint32Array(p.buffer, p.byteOffset, p.length);
  const n = p.length / 3;
  const map = new Uint32Array(n);
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const key = `${bits[3 * i]},${bits[3 * i + 1]},${bits[3 * i + 2]}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      map[i] = i;
    } else map[i] = first;
  }
  return map;
}

/** Every edge shared by exactly two triangles (positions welded), and no degenerate triangle's edge counted twice. */
export function isClosedMesh(mesh: PartMesh, weld = weldMap(mesh)): boolean {
  const idx = mesh.indices;
  const counts = new Map<number, number>();
  const n = mesh.positions.length / 3;
  for (let t = 0; t < idx.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = weld[idx[t + k]!]!;
      const b = weld[idx[t + ((k + 1) % 3)]!]!;
      if (a === b) return false; // a degenerate triangle: not a clean closed surface
      const key = a < b ? a * n + b : b * n + a;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  for (const c of counts.values()) if (c !== 2) return false;
  return counts.size > 0;
}
