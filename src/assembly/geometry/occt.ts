/// <reference path="./occt-import-js.d.ts" />
/**
 * STEP and IGES through occt-import-js (OpenCASCADE compiled to WebAssembly, LGPL-2.1,
 * used unmodified as a separate package). The module is loaded on the first STEP/IGES file
 * only (its wasm is ~7.6 MB) and kept. Its output is in millimetres (asked for), its
 * meshes already placed; each B-rep face is a contiguous triangle range `first…last`,
 * which is kept as a MeshFace (the reader gives no surface type).
 */
import type { MeshFace, PartMesh } from './mesh.ts';
import { GeometryError } from './errors.ts';

interface OcctMesh {
  attributes: { position: { array: ArrayLike<number> } };
  index: { array: ArrayLike<number> };
  brep_faces?: { first: number; last: number }[];
}
interface OcctResult { success: boolean; meshes?: OcctMesh[] }
interface Occt {
  ReadStepFile(content: Uint8Array, params: object | null): OcctResult;
  ReadIgesFile(content: Uint8Array, params: object | null): OcctResult;
}

let occt: Promise<Occt> | undefined;
/** Where the module's .wasm is, for a browser bundle that serves it under another URL (the viewer); Node finds it itself. */
let locateFile: ((name: string) => string) | undefined;

/** Tells the STEP/IGES reader where its .wasm is served (call before the first STEP/IGES file). */
export function setOcctWasmUrl(url: string): void {
  locateFile = () => url;
}

function loadOcct(): Promise<Occt> {
  occt ??= import('occt-import-js').then((m) => {
    const factory = (m.default ?? m) as (options: object) => Promise<Occt>;
    // OCCT prints progress ("Total number of loaded entities") to stdout: keep stdout clean for JSON
    return factory({ print: () => {}, printErr: () => {}, ...(locateFile ? { locateFile } : {}) });
  });
  return occt;
}

export async function readOcct(bytes: Uint8Array, path: string, kind: 'step' | 'iges'): Promise<PartMesh> {
  const lib = await loadOcct();
  const params = { linearUnit: 'millimeter', linearDeflectionType: 'bounding_box_ratio', linearDeflection: 0.001, angularDeflection: 0.5 };
  let result: OcctResult;
  try {
    result = kind === 'step' ? lib.ReadStepFile(bytes, params) : lib.ReadIgesFile(bytes, params);
  } catch (error) {
    throw new GeometryError(path, `the ${kind.toUpperCase()} reader failed: ${(error as Error).message ?? String(error)}`);
  }
  if (!result.success) throw new GeometryError(path, `the ${kind.toUpperCase()} reader rejected the file`);
  let nv = 0;
  let ni = 0;
  for (const m of result.meshes ?? []) {
    nv += m.attributes.position.array.length;
    ni += m.index.array.length;
  }
  const positions = new Float32Array(nv);
  const indices = new Uint32Array(ni);
  const faces: MeshFace[] = [];
  let vOff = 0;
  let iOff = 0;
  for (const m of result.meshes ?? []) {
    positions.set(m.attributes.position.array, vOff);
    const base = vOff / 3;
    const idx = m.index.array;
    for (let i = 0; i < idx.length; i++) indices[iOff + i] = idx[i]! + base;
    const tBase = iOff / 3;
    for (const f of m.brep_faces ?? []) if (f.last >= f.first) faces.push({ first: tBase + f.first, count: f.last - f.first + 1 });
    vOff += m.attributes.position.array.length;
    iOff += idx.length;
  }
  return faces.length > 0 ? { positions, indices, faces } : { positions, indices };
}
