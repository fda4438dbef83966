/**
 * From a file's bytes to a mesh in the part's frame: the reader by extension, the checks
 * every mesh must pass (triangles, finite coordinates, indices in range), then the entry's
 * unit and frame applied. Pure (no file system): the browser reads through this too.
 */
import type { PartMesh } from './mesh.ts';
import type { GeometryDoc } from './doc.ts';
import { GEOMETRY_UNITS } from './doc.ts';
import { GeometryError } from './errors.ts';
import { readStl } from './stl.ts';
import { readObj } from './obj.ts';
import { readGltf, type ResourceReader } from './gltf.ts';
import { readOcct } from './occt.ts';

export type GeometryFormat = 'stl' | 'obj' | 'gltf' | 'glb' | 'step' | 'iges';

const EXTENSIONS: Readonly<Record<string, GeometryFormat>> = {
  stl: 'stl', obj: 'obj', gltf: 'gltf', glb: 'glb', step: 'step', stp: 'step', iges: 'iges', igs: 'iges',
};

/** The format a file name's extension says (case-insensitive), or undefined. */
export function geometryFormat(file: string): GeometryFormat | undefined {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || dot < file.lastIndexOf('/')) return undefined;
  return EXTENSIONS[file.slice(dot + 1).toLowerCase()];
}

/** The format of `file`, or a GeometryError naming it. */
export function formatOf(file: string): GeometryFormat {
  const format = geometryFormat(file);
  if (!format) throw new GeometryError(file, `unknown geometry file extension; expected .step/.stp, .iges/.igs, .stl, .obj, .gltf or .glb`);
  return format;
}

/** The file's mesh in its own frame and unit (glTF: metres; STEP/IGES: mm), checked. */
export async function readMeshBytes(bytes: Uint8Array, file: string, resource?: ResourceReader): Promise<PartMesh> {
  const format = formatOf(file);
  // one message for an empty file, whatever its format (each reader's own said "not an STL",
  // "Unexpected end of JSON input", "the STEP reader rejected the file", …)
  if (bytes.length === 0) throw new GeometryError(file, 'the file is empty (0 bytes): it holds no triangles');
  let mesh: PartMesh;
  switch (format) {
    case 'stl': mesh = readStl(bytes, file); break;
    case 'obj': mesh = readObj(bytes, file); break;
    case 'gltf': case 'glb': mesh = await readGltf(bytes, file, format === 'glb', resource); break;
    case 'step': case 'iges': mesh = await readOcct(bytes, file, format); break;
  }
  checkMesh(mesh, file);
  return mesh;
}

/** Refuses a mesh without triangles, with a non-finite coordinate or an index past its vertices. */
export function checkMesh(mesh: PartMesh, file: string): void {
  if (mesh.indices.length < 3) throw new GeometryError(file, 'the file holds no triangles');
  const p = mesh.positions;
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i]!)) throw new GeometryError(file, `non-finite coordinate ${p[i]} at vertex ${Math.floor(i / 3)}`);
  }
  const n = p.length / 3;
  const idx = mesh.indices;
  for (let i = 0; i < idx.length; i++) {
    if (idx[i]! >= n) throw new GeometryError(file, `triangle ${Math.floor(i / 3)} names vertex ${idx[i]}, past the ${n} vertices`);
  }
}

/** mm per file unit for an entry: `units` where given, else the format's own (glTF m, others mm). */
export function unitScale(entry: GeometryDoc, format: GeometryFormat): number {
  if (entry.units) return GEOMETRY_UNITS[entry.units];
  return format === 'gltf' || format === 'glb' ? 1000 : 1;
}

/**
 * The mesh in the part's frame: p = R(q)·(s·p_file) + origin, q normalised (a frame's
 * quaternion need not be unit). Returns the input itself where the placing is the identity.
 * Faces and edges keep their triangle ranges; edges' points are placed alike.
 */
export function placeMesh(mesh: PartMesh, entry: GeometryDoc, format: GeometryFormat): PartMesh {
  const s = unitScale(entry, format);
  const [w0, x0, y0, z0] = entry.frame?.rotation ?? [1, 0, 0, 0];
  const [ox, oy, oz] = entry.frame?.origin ?? [0, 0, 0];
  const norm = Math.hypot(w0, x0, y0, z0);
  const identity = s === 1 && x0 === 0 && y0 === 0 && z0 === 0 && ox === 0 && oy === 0 && oz === 0;
  if (identity) return mesh;
  const [w, x, y, z] = [w0 / norm, x0 / norm, y0 / norm, z0 / norm];
  // rotation matrix of the unit quaternion, times the unit scale
  const m = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ].map((v) => v * s) as [number, number, number, number, number, number, number, number, number];
  const place = (src: Float32Array): Float32Array => {
    const out = new Float32Array(src.length);
    for (let i = 0; i < src.length; i += 3) {
      const a = src[i]!, b = src[i + 1]!, c = src[i + 2]!;
      out[i] = m[0] * a + m[1] * b + m[2] * c + ox;
      out[i + 1] = m[3] * a + m[4] * b + m[5] * c + oy;
      out[i + 2] = m[6] * a + m[7] * b + m[8] * c + oz;
    }
    return out;
  };
  const out: { -readonly [K in keyof PartMesh]: PartMesh[K] } = { positions: place(mesh.positions), indices: mesh.indices };
  if (mesh.faces) out.faces = mesh.faces;
  if (mesh.edges) out.edges = mesh.edges.map((e) => ({ ...e, points: place(e.points) }));
  return out;
}
