/**
 * An empty file (0 bytes) is one message in every format, the file named: the readers had
 * each said something else ("not an STL file (neither ASCII … nor a binary size …)",
 * "not a readable glTF: Unexpected end of JSON input", "the STEP reader rejected the
 * file"), and the OBJ reader alone that it held no triangles.
 */
import { describe, expect, it } from 'vitest';
import { readMeshBytes } from '../../../src/assembly/geometry/index.ts';

describe('an empty geometry file', () => {
  it.each(['part.stl', 'part.obj', 'part.glb', 'part.gltf', 'part.step', 'part.igs'])('%s: "the file is empty"', async (file) => {
    await expect(readMeshBytes(new Uint8Array(0), file)).rejects.toThrow(`${file}: the file is empty (0 bytes): it holds no triangles`);
  });

  it('an unknown extension is still named first', async () => {
    await expect(readMeshBytes(new Uint8Array(0), 'part.dwg')).rejects.toThrow(/part\.dwg: unknown geometry file extension/);
  });
});
