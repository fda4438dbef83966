/**
 * Reading a document's geometry, lazily and cached by content: a part's files are read
 * when something asks (clearance, envelope, the viewer), never at document load, and two
 * files with the same bytes are parsed once (SHA-256 of the bytes, format in the key).
 * A file that cannot be used becomes a GeometryError naming it; the other parts still load.
 */
import type { PartMesh } from './mesh.ts';
import { mergeMeshes } from './mesh.ts';
import type { GeometryDoc } from './doc.ts';
import { GeometryError } from './errors.ts';
import { formatOf, placeMesh, readMeshBytes } from './read.ts';

/** Bytes of a file named relative to the document (the file system, or fetch in a browser). */
export type GeometrySource = (file: string) => Promise<Uint8Array>;

/** The files of a document on disk, relative to `baseDir` (the document's folder). */
export function fileSource(baseDir: string): GeometrySource {
  return async (file) => {
    const [{ readFile }, { resolve }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
    try {
      return new Uint8Array(await readFile(resolve(baseDir, file)));
    } catch (error) {
      const code = (error as { code?: string }).code;
      const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : code === 'EACCES' ? 'permission denied' : `cannot be read (${code ?? (error as Error).message})`;
      throw new GeometryError(file, reason);
    }
  };
}

const MAX_CACHED = 64;
const cache = new Map<string, Promise<PartMesh>>();

async function contentKey(bytes: Uint8Array, format: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return `${format}:${hex}`;
}

/** One geometry entry's mesh in the part's frame (mm). Throws GeometryError naming the file. */
export async function loadGeometryEntry(entry: GeometryDoc, source: GeometrySource): Promise<PartMesh> {
  const format = formatOf(entry.file);
  const bytes = await source(entry.file);
  const key = await contentKey(bytes, format);
  let raw = cache.get(key);
  if (!raw) {
    // a .gltf's separate buffers are named relative to the .gltf itself
    const dir = entry.file.includes('/') ? entry.file.slice(0, entry.file.lastIndexOf('/') + 1) : '';
    raw = readMeshBytes(bytes, entry.file, (uri) => source(dir + decodeURIComponent(uri)));
    cache.set(key, raw);
    raw.catch(() => cache.delete(key));
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  }
  return placeMesh(await raw, entry, format);
}

/** A part's geometry (all its entries) as one mesh in the part's frame. */
export async function loadPartGeometry(entries: readonly GeometryDoc[], source: GeometrySource): Promise<PartMesh> {
  return mergeMeshes(await Promise.all(entries.map((e) => loadGeometryEntry(e, source))));
}

export interface DocumentGeometry {
  /** Part name → its mesh, for every part whose files all read. */
  readonly meshes: ReadonlyMap<string, PartMesh>;
  /** One per part that could not be read: the message names the file and why. */
  readonly errors: readonly GeometryError[];
}

/** Every part's geometry (`parts`: part name → entries, in the document's order); failures reported, not thrown. */
export async function loadDocumentGeometry(parts: Readonly<Record<string, readonly GeometryDoc[]>>, source: GeometrySource): Promise<DocumentGeometry> {
  const meshes = new Map<string, PartMesh>();
  const errors: GeometryError[] = [];
  const names = Object.keys(parts).filter((n) => parts[n]!.length > 0);
  const settled = await Promise.allSettled(names.map((n) => loadPartGeometry(parts[n]!, source)));
  settled.forEach((r, i) => {
    if (r.status === 'fulfilled') meshes.set(names[i]!, r.value);
    else if (r.reason instanceof GeometryError) errors.push(new GeometryError(r.reason.path, `${r.reason.reason} (geometry of "${names[i]}")`));
    else throw r.reason;
  });
  return { meshes, errors };
}

/** Forgets every cached mesh (tests; a long-lived process that wants the memory back). */
export function clearGeometryCache(): void {
  cache.clear();
}
