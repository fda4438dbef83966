/**
 * Meshes to files: binary STL (what every CAD opens) and GLB (one mesh, one node).
 * Both keep millimetres: STL has no unit; GLB's unit is the metre, so positions are
 * scaled by 1/1000 there, as glTF readers (our own included) expect.
 */
import type { PartMesh } from './mesh.ts';

/** Binary STL: 80-byte header, count, 50 bytes a triangle with its unit normal. */
export function meshToStl(mesh: PartMesh, header = 'kinemate'): Uint8Array {
  const n = mesh.indices.length / 3;
  const out = new Uint8Array(84 + 50 * n);
  out.set(new TextEncoder().encode(header.slice(0, 80)));
  const view = new DataView(out.buffer);
  view.setUint32(80, n, true);
  const p = mesh.positions;
  const idx = mesh.indices;
  for (let t = 0; t < n; t++) {
    const a = 3 * idx[3 * t]!, b = 3 * idx[3 * t + 1]!, c = 3 * idx[3 * t + 2]!;
    const ux = p[b]! - p[a]!, uy = p[b + 1]! - p[a + 1]!, uz = p[b + 2]! - p[a + 2]!;
    const vx = p[c]! - p[a]!, vy = p[c + 1]! - p[a + 1]!, vz = p[c + 2]! - p[a + 2]!;
    let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const len = Math.hypot(nx, ny, nz) || 1;
    nx /= len; ny /= len; nz /= len;
    const base = 84 + 50 * t;
    const vals = [nx, ny, nz, p[a]!, p[a + 1]!, p[a + 2]!, p[b]!, p[b + 1]!, p[b + 2]!, p[c]!, p[c + 1]!, p[c + 2]!];
    for (let k = 0; k < 12; k++) view.setFloat32(base + 4 * k, vals[k]!, true);
  }
  return out;
}

/** ASCII STL (tests, small meshes). */
export function meshToAsciiStl(mesh: PartMesh, name = 'kinemate'): string {
  const p = mesh.positions;
  const lines = [`solid ${name}`];
  for (let t = 0; t < mesh.indices.length / 3; t++) {
    lines.push('  facet normal 0 0 0', '    outer loop');
    for (let k = 0; k < 3; k++) {
      const v = 3 * mesh.indices[3 * t + k]!;
      lines.push(`      vertex ${p[v]} ${p[v + 1]} ${p[v + 2]}`);
    }
    lines.push('    endloop', '  endfacet');
  }
  lines.push(`endsolid ${name}`);
  return lines.join('\n') + '\n';
}

/** OBJ text (tests, small meshes): `v` lines and 1-based `f` lines. */
export function meshToObj(mesh: PartMesh): string {
  const p = mesh.positions;
  const lines: string[] = [];
  for (let i = 0; i < p.length; i += 3) lines.push(`v ${p[i]} ${p[i + 1]} ${p[i + 2]}`);
  for (let t = 0; t < mesh.indices.length; t += 3) lines.push(`f ${mesh.indices[t]! + 1} ${mesh.indices[t + 1]! + 1} ${mesh.indices[t + 2]! + 1}`);
  return lines.join('\n') + '\n';
}

/** GLB of one mesh (positions in metres, as glTF wants). */
export async function meshToGlb(mesh: PartMesh, name = 'kinemate'): Promise<Uint8Array> {
  const { Document, WebIO } = await import('@gltf-transform/core');
  const doc = new Document();
  const buffer = doc.createBuffer();
  const metres = new Float32Array(mesh.positions.length);
  for (let i = 0; i < metres.length; i++) metres[i] = mesh.positions[i]! / 1000;
  const position = doc.createAccessor().setType('VEC3').setArray(metres).setBuffer(buffer);
  const indices = doc.createAccessor().setType('SCALAR').setArray(new Uint32Array(mesh.indices)).setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setIndices(indices);
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(prim));
  doc.createScene(name).addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]!);
  return new WebIO().writeBinary(doc);
}
