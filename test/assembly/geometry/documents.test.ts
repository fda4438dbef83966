/**
 * Geometry in documents: the field round-trips through save and load, a suspension file's
 * geometry section is read, a document with geometry solves and sweeps exactly as without
 * it, and every bad input is one line naming the path while the other parts still load.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAssembly, serializeAssembly } from '../../../src/assembly/index.ts';
import { boxMesh, checkMesh, fileSource, loadDocumentGeometry, meshToStl } from '../../../src/assembly/geometry/index.ts';
import { buildModel } from '../../../src/model/build.ts';
import { solveModel } from '../../../src/model/operations.ts';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runSweep } from '../../../src/suspension/sweep/sweep.ts';
import { CORNER_YAML, writeCorner } from './corner-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'kinemate-geomdoc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fourBar = readFileSync('examples/four-bar.kinemate.json', 'utf8');

function withGeometry(geometry: unknown): string {
  const doc = JSON.parse(fourBar);
  const first = Object.keys(doc.parts)[0];
  doc.parts[first].geometry = geometry;
  return JSON.stringify(doc, null, 2);
}

describe('geometry in documents', () => {
  it('an assembly part\'s geometry saves and loads back exactly, frame and units as written', () => {
    const text = withGeometry([{ file: 'cad/upright.step', frame: { origin: [0, 0.1 + 0.2, -12.5], rotation: [2, 0, 0, 0] } }, { file: 'cad/caliper.stl', units: 'in' }, { file: 'x.obj', frame: { rotation: [1, 0, 0, 0] } }]);
    const doc = parseAssembly(text);
    const again = parseAssembly(serializeAssembly(doc));
    expect(again).toEqual(doc);
    expect(serializeAssembly(again)).toBe(serializeAssembly(doc));
    const part = Object.values(doc.parts)[0]!;
    expect(part.geometry![0]!.frame!.rotation).toEqual([2, 0, 0, 0]); // kept as written, not normalised
    expect(part.geometry![0]!.frame!.origin![1]).toBe(0.30000000000000004);
    expect(part.geometry![2]!.frame).toEqual({ rotation: [1, 0, 0, 0] }); // no origin added
  });

  it('refuses a malformed geometry field naming its path', () => {
    const first = Object.keys(JSON.parse(fourBar).parts)[0];
    expect(() => parseAssembly(withGeometry([{ file: 'a.stl', frame: { rotation: [0, 0, 0, 0] } }]))).toThrow(`parts.${first}.geometry[0].frame.rotation: the zero quaternion is no rotation`);
    expect(() => parseAssembly(withGeometry([{ file: 'a.stl', units: 'furlong' }]))).toThrow(`parts.${first}.geometry[0].units: expected one of mm, cm, m, in, ft`);
    expect(() => parseAssembly(withGeometry({ file: 'a.stl' }))).toThrow(`parts.${first}.geometry: expected a list`);
    expect(() => parseAssembly(withGeometry([{ fil: 'a.stl' }]))).toThrow(`parts.${first}.geometry[0].fil: unknown field`);
    expect(() => parseAssembly(withGeometry([{ file: 'a.stl', frame: { origin: [0, Number.NaN, 0] } }]))).toThrow();
  });

  it('solves exactly as without geometry', () => {
    const plain = solveModel(buildModel(parseAssembly(fourBar)), { set: { 'jA.angle': 75 } });
    const shaped = solveModel(buildModel(parseAssembly(withGeometry([{ file: 'missing.stl' }]))), { set: { 'jA.angle': 75 } });
    expect(shaped).toEqual(plain);
  });

  it('a suspension file\'s geometry section is read, and the sweep is exactly as without it', () => {
    const file = writeCorner(dir);
    const g = parseGeometry(readFileSync(file, 'utf8'), file);
    expect(Object.keys(g.part_geometry!)).toEqual(['chassis', 'upright', 'lower_wishbone', 'upper_wishbone', 'tyre', 'damper']);
    expect(g.part_geometry!.damper![0]!.frame!.origin).toEqual([0, 600, 600]);
    const plain = parseGeometry(CORNER_YAML);
    const sweep = (geometry: typeof g) => runSweep(new SuspensionModel(suspensionAssembly(geometry)), sweepFromShortcut('bump', '-40:40:5', geometry)).steps;
    expect(sweep(g)).toEqual(sweep(plain));
    expect(() => parseGeometry(`${CORNER_YAML}geometry:\n  upright: { file: a.stl }\n`)).toThrow('geometry.upright: expected a list');
  });
});

describe('bad geometry files: one line naming the path, the rest still loads', () => {
  writeFileSync(join(dir, 'good.stl'), meshToStl(boxMesh([1, 1, 1])));
  writeFileSync(join(dir, 'empty.stl'), new Uint8Array(84));
  const nan = meshToStl(boxMesh([1, 1, 1]));
  new DataView(nan.buffer).setFloat32(84 + 12, Number.NaN, true);
  writeFileSync(join(dir, 'nan.stl'), nan);
  writeFileSync(join(dir, 'shape.dwg'), 'whatever');
  writeFileSync(join(dir, 'junk.stl'), 'this is no STL');
  writeFileSync(join(dir, 'bad.obj'), 'v 0 0 0\nf 1 2 3\n');

  const cases: [string, string][] = [
    ['nowhere.stl', 'nowhere.stl: no such file (geometry of "p")'],
    ['shape.dwg', 'shape.dwg: unknown geometry file extension; expected .step/.stp, .iges/.igs, .stl, .obj, .gltf or .glb (geometry of "p")'],
    ['empty.stl', 'empty.stl: the file holds no triangles (geometry of "p")'],
    ['nan.stl', 'nan.stl: non-finite coordinate NaN at vertex 0 (geometry of "p")'],
    ['junk.stl', 'junk.stl: not an STL file'],
    ['bad.obj', 'bad.obj: line 2: face vertex "2" names no vertex (1 so far)'],
  ];
  for (const [file, message] of cases) {
    it(file, async () => {
      const { meshes, errors } = await loadDocumentGeometry({ p: [{ file }], q: [{ file: 'good.stl' }] }, fileSource(dir));
      expect(errors).toHaveLength(1);
      expect(errors[0]!.message.startsWith(message)).toBe(true);
      expect(errors[0]!.message).not.toContain('\n');
      expect([...meshes.keys()]).toEqual(['q']);
    });
  }

  it('a mesh naming a vertex past its end', () => {
    const mesh = { positions: new Float32Array(9), indices: new Uint32Array([0, 1, 5]) };
    expect(() => checkMesh(mesh, 'odd.glb')).toThrow('odd.glb: triangle 0 names vertex 5, past the 3 vertices');
  });
});
