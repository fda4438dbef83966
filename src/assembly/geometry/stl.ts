/**
 * STL, binary and ASCII. Binary: 80-byte header, uint32 count, 50 bytes a triangle
 * (normal, three vertices, attribute). ASCII starts with `solid` but so do some binary
 * files' headers: a file is binary when its size is exactly 84 + 50·count.
 * Vertices are not shared (STL has none to share); the normals are ignored (recomputed
 * from the winding where needed).
 */
import type { PartMesh } from './mesh.ts';
import { GeometryError } from './errors.ts';

export function readStl(bytes: Uint8Array, path: string): PartMesh {
  if (bytes.length >= 84) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const count = view.getUint32(80, true);
    if (84 + 50 * count === bytes.length) return readBinary(view, count);
  }
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 512)));
  if (/^\s*solid\b/.test(head)) return readAscii(new TextDecoder('latin1').decode(bytes), path);
  throw new GeometryError(path, 'not an STL file (neither ASCII "solid …" nor a binary size of 84 + 50 bytes a triangle)');
}

function readBinary(view: DataView, count: number): PartMesh {
  const positions = new Float32Array(count * 9);
  const indices = new Uint32Array(count * 3);
  for (let t = 0; t < count; t++) {
    const base = 84 + 50 * t + 12;
    for (let k = 0; k < 9; k++) positions[t * 9 + k] = view.getFloat32(base + 4 * k, true);
    indices[3 * t] = 3 * t;
    indices[3 * t + 1] = 3 * t + 1;
    indices[3 * t + 2] = 3 * t + 2;
  }
  return { positions, indices };
}

function readAscii(text: string, path: string): PartMesh {
  const coords: number[] = [];
  const re = /\bvertex\s+(\S+)\s+(\S+)\s+(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) coords.push(Number(m[1]), Number(m[2]), Number(m[3]));
  if (coords.length % 9 !== 0) throw new GeometryError(path, `ASCII STL has ${coords.length / 3} vertices, not three per facet`);
  const positions = Float32Array.from(coords);
  const indices = new Uint32Array(coords.length / 3);
  for (let i = 0; i < indices.length; i++) indices[i] = i;
  return { positions, indices };
}
