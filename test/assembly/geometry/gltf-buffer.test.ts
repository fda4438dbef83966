/**
 * A .gltf whose separate buffer cannot be read names the .gltf and the buffer: the message
 * had named the buffer alone ("missing.bin: no such file (geometry of "tyre")"), a file the
 * document never mentions.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSource, loadDocumentGeometry } from '../../../src/assembly/geometry/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'kinemate-gltf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a .gltf with a missing buffer', () => {
  it('is one error naming the .gltf, the buffer and where it was looked for', async () => {
    const gltf = { asset: { version: '2.0' }, buffers: [{ uri: 'tri.bin', byteLength: 36 }] };
    writeFileSync(join(dir, 'part.gltf'), JSON.stringify(gltf));
    const { meshes, errors } = await loadDocumentGeometry({ p: [{ file: 'part.gltf' }] }, fileSource(dir));
    expect(meshes.size).toBe(0);
    expect(errors.map((e) => e.message)).toEqual(['part.gltf: buffer "tri.bin": no such file (geometry of "p")']);
  });

  it('names the buffer\'s path beside the document where the .gltf is in a folder', async () => {
    const gltf = { asset: { version: '2.0' }, buffers: [{ uri: 'tri2.bin', byteLength: 36 }] };
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'part2.gltf'), JSON.stringify(gltf));
    const { errors } = await loadDocumentGeometry({ p: [{ file: 'sub/part2.gltf' }] }, fileSource(dir));
    expect(errors.map((e) => e.message)).toEqual(['sub/part2.gltf: buffer "tri2.bin" (sub/tri2.bin): no such file (geometry of "p")']);
  });
});
