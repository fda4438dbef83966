/**
 * Wavefront OBJ: `v x y z` vertices and `f` faces (polygons fanned into triangles);
 * face items may be `v`, `v/vt`, `v//vn` or `v/vt/vn`, and negative (relative) indices.
 * Everything else (normals, texture coordinates, groups, materials) is ignored.
 */
import type { PartMesh } from './mesh.ts';
import { GeometryError } from './errors.ts';

export function readObj(bytes: Uint8Array, path: string): PartMesh {
  const text = new TextDecoder('utf-8').decode(bytes);
  const coords: number[] = [];
  const tris: number[] = [];
  const poly: number[] = [];
  let lineNo = 0;
  for (const raw of text.split('\n')) {
    lineNo++;
    const line = raw.trim();
    if (line.startsWith('v ') || line.startsWith('v\t')) {
      const p = line.split(/\s+/);
      coords.push(Number(p[1]), Number(p[2]), Number(p[3]));
    } else if (line.startsWith('f ') || line.startsWith('f\t')) {
      poly.length = 0;
      const items = line.split(/\s+/);
      for (let i = 1; i < items.length; i++) {
        const n = Number.parseInt(items[i]!.split('/')[0]!, 10);
        const count = coords.length / 3;
        const index = n < 0 ? count + n : n - 1;
        if (!Number.isInteger(n) || n === 0 || index < 0 || index >= count) {
          throw new GeometryError(path, `line ${lineNo}: face vertex "${items[i]}" names no vertex (${count} so far)`);
        }
        poly.push(index);
      }
      for (let i = 1; i + 1 < poly.length; i++) tris.push(poly[0]!, poly[i]!, poly[i + 1]!);
    }
  }
  return { positions: Float32Array.from(coords), indices: Uint32Array.from(tris) };
}
