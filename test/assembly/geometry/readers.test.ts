/**
 * The readers, each on a small file this test writes: the triangles read back are the
 * ones written (STL binary and ASCII, OBJ, glTF/GLB), and placing applies the entry's
 * unit and frame. STEP/IGES are in occt.test.ts (their wasm takes a moment to load).
 */
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  boxMesh, clearGeometryCache, fileSource, loadGeometryEntry, loadPartGeometry, meshToAsciiStl, meshToGlb, meshToObj, meshToStl,
  readMeshBytes, sphereMesh, type PartMesh,
} from '../../../src/assembly/geometry/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'kinemate-geom-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The triangles as sorted lists of rounded corner coordinates: equal whatever the vertex sharing. */
function triangles(mesh: PartMesh, scale = 1): string[] {
  const out: string[] = [];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const corners: string[] = [];
    for (let k = 0; k < 3; k++) {
      const v = 3 * mesh.indices[t + k]!;
      corners.push([0, 1, 2].map((c) => (mesh.positions[v + c]! * scale).toFixed(3)).join(','));
    }
    out.push(corners.join(' | '));
  }
  return out.sort();
}

const sphere = sphereMesh(10, 12, 6, [1, 2, 3]);

describe('geometry readers', () => {
  it('reads binary STL back as written', async () => {
    const mesh = await readMeshBytes(meshToStl(sphere), 'a.stl');
    expect(mesh.indices.length).toBe(sphere.indices.length);
    expect(triangles(mesh)).toEqual(triangles(sphere));
  });

  it('reads ASCII STL (also when the binary size test does not apply)', async () => {
    const mesh = await readMeshBytes(new TextEncoder().encode(meshToAsciiStl(sphere)), 'a.STL');
    expect(triangles(mesh)).toEqual(triangles(sphere));
  });

  it('reads OBJ with polygons fanned, slashes and negative indices', async () => {
    const quad = 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\nf -4/1/1 -2/1/1 -1/1/1\n';
    const mesh = await readMeshBytes(new TextEncoder().encode(quad), 'q.obj');
    expect(Array.from(mesh.indices)).toEqual([0, 1, 2, 0, 2, 3, 0, 2, 3]);
    const round = await readMeshBytes(new TextEncoder().encode(meshToObj(sphere)), 's.obj');
    expect(triangles(round)).toEqual(triangles(sphere));
  });

  it('reads GLB in metres (written from mm, read back ×1000 when placed)', async () => {
    const glb = await meshToGlb(sphere);
    const raw = await readMeshBytes(glb, 'a.glb');
    expect(triangles(raw, 1000)).toEqual(triangles(sphere));
    writeFileSync(join(dir, 's.glb'), glb);
    const placed = await loadGeometryEntry({ file: 's.glb' }, fileSource(dir));
    expect(triangles(placed)).toEqual(triangles(sphere));
  });

  it('reads .gltf with a separate .bin buffer, placed by its node matrices', async () => {
    // one triangle, its node translated by (1, 0, 0) m
    const bin = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    writeFileSync(join(dir, 'tri.bin'), new Uint8Array(bin.buffer));
    const gltf = {
      asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }],
      nodes: [{ mesh: 0, translation: [1, 0, 0] }],
      meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
      accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
      bufferViews: [{ buffer: 0, byteLength: 36 }],
      buffers: [{ uri: 'tri.bin', byteLength: 36 }],
    };
    writeFileSync(join(dir, 'tri.gltf'), JSON.stringify(gltf));
    const mesh = await loadGeometryEntry({ file: 'tri.gltf', units: 'mm' }, fileSource(dir));
    expect(Array.from(mesh.positions)).toEqual([1, 0, 0, 2, 0, 0, 1, 1, 0]);
  });

  it('places a file by its units and frame: p = R·(s·p) + origin', async () => {
    writeFileSync(join(dir, 'box.stl'), meshToStl(boxMesh([2, 2, 2], [1, 0, 0])));
    // quarter turn about z: (x, y, z) → (−y, x, z); cm: ×10
    const q = [Math.SQRT1_2, 0, 0, Math.SQRT1_2] as const;
    const mesh = await loadGeometryEntry({ file: 'box.stl', units: 'cm', frame: { origin: [5, 0, 0], rotation: q } }, fileSource(dir));
    const xs: number[] = [], ys: number[] = [];
    for (let i = 0; i < mesh.positions.length; i += 3) { xs.push(mesh.positions[i]!); ys.push(mesh.positions[i + 1]!); }
    // the box spans x ∈ [0, 2] cm → y ∈ [0, 20] mm after the turn; y ∈ [−1, 1] cm → x ∈ [−10, 10] + 5
    expect(Math.min(...xs)).toBeCloseTo(-5, 4);
    expect(Math.max(...xs)).toBeCloseTo(15, 4);
    expect(Math.min(...ys)).toBeCloseTo(0, 4);
    expect(Math.max(...ys)).toBeCloseTo(20, 4);
  });

  it('merges a part\'s entries into one mesh, indices shifted', async () => {
    writeFileSync(join(dir, 'a.stl'), meshToStl(boxMesh([1, 1, 1])));
    const two = await loadPartGeometry([{ file: 'a.stl' }, { file: 'a.stl', frame: { origin: [10, 0, 0], rotation: [1, 0, 0, 0] } }], fileSource(dir));
    expect(two.indices.length).toBe(72);
    expect(Math.max(...two.indices)).toBe(two.positions.length / 3 - 1);
    expect(Math.max(...two.positions.filter((_, i) => i % 3 === 0))).toBeCloseTo(10.5, 5);
  });

  it('parses a file once per content (cache by hash), whatever its name', async () => {
    clearGeometryCache();
    const stl = meshToStl(sphere);
    writeFileSync(join(dir, 'c1.stl'), stl);
    writeFileSync(join(dir, 'c2.stl'), stl);
    let reads = 0;
    const source = fileSource(dir);
    const counting = async (f: string): Promise<Uint8Array> => { reads++; return source(f); };
    const a = await loadGeometryEntry({ file: 'c1.stl' }, counting);
    const b = await loadGeometryEntry({ file: 'c2.stl' }, counting);
    expect(reads).toBe(2); // bytes are read to hash them …
    expect(b).toBe(a); // … but the parsed, identity-placed mesh is the same object
  });
});
