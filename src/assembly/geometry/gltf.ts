/**
 * glTF 2.0 (.gltf with its buffers, .glb) through @gltf-transform/core: every triangle
 * primitive of every node of the default scene, placed by the node's world matrix.
 * glTF's unit is the metre (the specification says so); the caller scales.
 */
import type { Document, Node as GltfNode } from '@gltf-transform/core';
import type { PartMesh } from './mesh.ts';
import { GeometryError } from './errors.ts';

/** Reads a buffer a `.gltf` names by URI (relative to the `.gltf`); data: URIs need none. */
export type ResourceReader = (uri: string) => Promise<Uint8Array>;

const TRIANGLES = 4;

/** A separate buffer's bytes; a buffer that cannot be read is named with the .gltf that names it. */
async function bufferOf(resource: ResourceReader, uri: string, path: string): Promise<Uint8Array> {
  try {
    return await resource(uri);
  } catch (error) {
    if (error instanceof GeometryError) throw new GeometryError(path, `buffer "${uri}"${error.path === uri ? '' : ` (${error.path})`}: ${error.reason}`);
    throw error;
  }
}

export async function readGltf(bytes: Uint8Array, path: string, glb: boolean, resource?: ResourceReader): Promise<PartMesh> {
  let doc: Document;
  try {
    // loaded on the first glTF only: most commands read none, and the module costs a start time
    const { WebIO } = await import('@gltf-transform/core');
    const io = new WebIO();
    if (glb) doc = await io.readBinary(bytes);
    else {
      const json = JSON.parse(new TextDecoder().decode(bytes)) as { buffers?: { uri?: string }[]; images?: unknown[] };
      const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
      for (const b of json.buffers ?? []) {
        if (b.uri && !b.uri.startsWith('data:')) {
          if (!resource) throw new GeometryError(path, `buffer "${b.uri}" is a separate file, which cannot be read here`);
          resources[b.uri] = new Uint8Array(await bufferOf(resource, b.uri, path));
        }
      }
      delete json.images; // textures are not geometry; leaving them out avoids reading image files
      doc = await io.readJSON({ json: json as never, resources });
    }
  } catch (error) {
    if (error instanceof GeometryError) throw error;
    throw new GeometryError(path, `not a readable glTF: ${(error as Error).message.split('\n')[0]}`);
  }
  const coords: number[] = [];
  const tris: number[] = [];
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const nodes = scene ? collect(scene.listChildren()) : [];
  for (const node of nodes) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMode() !== TRIANGLES) continue;
      const pos = prim.getAttribute('POSITION');
      if (!pos) continue;
      const base = coords.length / 3;
      const v = [0, 0, 0];
      for (let i = 0; i < pos.getCount(); i++) {
        pos.getElement(i, v);
        const [x, y, z] = v as [number, number, number];
        coords.push(m[0] * x + m[4] * y + m[8] * z + m[12], m[1] * x + m[5] * y + m[9] * z + m[13], m[2] * x + m[6] * y + m[10] * z + m[14]);
      }
      const idx = prim.getIndices();
      if (idx) for (let i = 0; i < idx.getCount(); i++) tris.push(base + idx.getScalar(i));
      else for (let i = 0; i < pos.getCount() - (pos.getCount() % 3); i++) tris.push(base + i);
    }
  }
  return { positions: Float32Array.from(coords), indices: Uint32Array.from(tris) };
}

/** Every node under `nodes`, depth first. */
function collect(nodes: GltfNode[]): GltfNode[] {
  const out: GltfNode[] = [];
  const stack = [...nodes];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    stack.push(...n.listChildren());
  }
  return out;
}
