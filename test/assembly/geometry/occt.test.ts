/**
 * STEP through occt-import-js, on a box this test writes: 6 B-rep faces of 2 triangles
 * each, kept as triangle ranges, in millimetres; a file the reader rejects is one error
 * naming it.
 */
import { describe, expect, it } from 'vitest';
import { GeometryError, faceOfTriangle, readMeshBytes } from '../../../src/assembly/geometry/index.ts';
import { boxPolyhedron, polyhedronStep } from './step-writer.ts';
import { planesIges } from './iges-writer.ts';

describe('STEP (occt-import-js)', () => {
  it('reads a box: 12 triangles in 6 B-rep faces, corners where written', async () => {
    const box = boxPolyhedron([10, 20, 30], [1, 2, 3]);
    const mesh = await readMeshBytes(new TextEncoder().encode(polyhedronStep(box.vertices, box.faces, 'box')), 'cad/box.STEP');
    expect(mesh.indices.length / 3).toBe(12);
    expect(mesh.faces).toHaveLength(6);
    expect(mesh.faces!.reduce((n, f) => n + f.count, 0)).toBe(12);
    for (let t = 0; t < 12; t++) expect(faceOfTriangle(mesh, t)).toBe(Math.floor(t / 2));
    // every face's triangles lie in one plane of the box
    for (const face of mesh.faces!) {
      const coords = new Set<string>();
      for (let t = face.first; t < face.first + face.count; t++) {
        for (let k = 0; k < 3; k++) {
          const v = 3 * mesh.indices[3 * t + k]!;
          coords.add([0, 1, 2].map((c) => Math.round(mesh.positions[v + c]!)).join(','));
        }
      }
      expect(coords.size).toBe(4);
      const values = [...coords].map((c) => c.split(',').map(Number));
      expect([0, 1, 2].some((axis) => new Set(values.map((p) => p[axis])).size === 1)).toBe(true);
    }
    const xs = Array.from(mesh.positions).filter((_, i) => i % 3 === 0);
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([-4, 6]);
  }, 20_000);

  it('reads IGES: two bounded planes, each one B-rep face of two triangles, where written', async () => {
    const text = planesIges([[[0, 0, 0], [10, 0, 0], [10, 20, 0], [0, 20, 0]], [[0, 0, 5], [0, 20, 5], [10, 20, 5], [10, 0, 5]]]);
    const mesh = await readMeshBytes(new TextEncoder().encode(text), 'two.igs');
    expect(mesh.faces).toEqual([{ first: 0, count: 2 }, { first: 2, count: 2 }]);
    for (const [face, z] of [[0, 0], [1, 5]] as const) {
      for (let t = mesh.faces![face]!.first; t < mesh.faces![face]!.first + 2; t++) {
        for (let k = 0; k < 3; k++) expect(mesh.positions[3 * mesh.indices[3 * t + k]! + 2]).toBeCloseTo(z, 9);
      }
    }
    const xs = Array.from(mesh.positions).filter((_, i) => i % 3 === 0);
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([0, 10]);
  }, 20_000);

  it('a file the reader rejects: one GeometryError naming it', async () => {
    const bad = readMeshBytes(new TextEncoder().encode('ISO-10303-21;\nHEADER;\nnot step at all\n'), 'cad/broken.stp');
    await expect(bad).rejects.toThrow(GeometryError);
    await expect(bad).rejects.toThrow(/^cad\/broken\.stp: the STEP reader rejected the file/);
  }, 20_000);
});
