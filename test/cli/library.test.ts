/** The library entry (src/index.ts) as a program uses it, and the README's script (examples/library-script.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as kinemate from '../../src/index.ts';
import {
  AssemblyError, ModelError, buildModel, dofModel, driveModel, loadAssemblyFile, modelState, saveAssemblyFile, solveModel, withState,
} from '../../src/index.ts';
import { fourBarDoc, rockerAngle } from '../../examples/fourbar.ts';
import { REPO, conflictingDoc, spawnIn, tempFolder, wrapDegrees } from './helpers.ts';

const deg = (rad: number): number => (rad * 180) / Math.PI;

describe('src/index.ts', () => {
  it('reads, checks and writes a document through the index, naming entities and coordinates', () => {
    const text = kinemate.serializeAssembly(kinemate.validateAssembly(fourBarDoc(30)));
    const doc = kinemate.parseAssembly(text);
    expect(doc.format).toBe(kinemate.ASSEMBLY_FORMAT);
    expect(kinemate.entityKind(doc, 'ground.pivotA')).toBe('frame');
    expect(kinemate.coordinatesOfMate(doc.mates.jA)).toEqual(['angle']);
    expect(() => kinemate.parseAssembly('{')).toThrow(kinemate.AssemblyError);
    expect(modelState(buildModel(doc))['jA.angle']).toBeCloseTo(30, 12);
  });

  it('solveModel: set drives a held coordinate; an unknown coordinate throws ModelError before anything moves', () => {
    const model = buildModel(kinemate.validateAssembly(fourBarDoc(30)));
    const before = modelState(model);
    expect(() => solveModel(model, { set: { 'jX.angle': 1 } })).toThrow(ModelError);
    expect(() => solveModel(model, { set: { 'jX.angle': 1 } })).toThrow('--set jX.angle: no coordinate "jX.angle"');
    expect(modelState(model)).toEqual(before);
    const result = solveModel(model, { set: { 'jA.angle': 120 } });
    expect(result.status).toBe('solved');
    expect(Math.abs(wrapDegrees((result.state['jD.angle'] as number) - deg(rockerAngle((120 * Math.PI) / 180))))).toBeLessThan(1e-6);
    expect(modelState(model)).toEqual(result.state); // the model keeps the solved state
  });

  it('a model that cannot hold together returns a failed status rather than throwing', () => {
    const result = solveModel(buildModel(conflictingDoc()));
    expect(result.status).toBe('failed');
    expect([...result.conflicting].sort()).toEqual(['j1', 'j2']);
    expect([...dofModel(buildModel(conflictingDoc())).conflicting].sort()).toEqual(['j1', 'j2']);
  });

  it('driveModel reports the requested values exactly, and refuses bad step counts', () => {
    const doc = kinemate.validateAssembly(fourBarDoc(30));
    const { steps } = driveModel(buildModel(doc), 'jA.angle', 0.1, 0.3, 2);
    expect(steps.map((step) => step.value)).toEqual([0.1, 0.2, 0.3]);
    expect(() => driveModel(buildModel(doc), 'jA.angle', 0, 1, 1.5)).toThrow(kinemate.ArgumentError);
    expect(() => driveModel(buildModel(doc), 'jA.angle', 0, 1, 1.5)).toThrow('steps: must be a whole number ≥ 0, got 1.5');
    expect(() => driveModel(buildModel(doc), 'jA.angle', 0, Infinity, 1)).toThrow(kinemate.ArgumentError);
    expect(() => driveModel(buildModel(doc), 'nope.angle', 0, 1, 1)).toThrow(ModelError);
  });

  it('withState → save → load → build starts where the solve ended', async () => {
    const folder = tempFolder();
    try {
      const doc = kinemate.validateAssembly(fourBarDoc(30));
      const solved = solveModel(buildModel(doc), { set: { 'jA.angle': 75 } });
      const file = folder.file('solved.kinemate.json');
      await saveAssemblyFile(file, withState(doc, solved.state));
      const again = solveModel(buildModel(await loadAssemblyFile(file)));
      expect(again.status).toBe('solved');
      expect(again.iterations).toBe(0);
      expect(again.state['jD.angle']).toBe(solved.state['jD.angle']);
      expect(() => withState(doc, { 'jQ.angle': 1 })).toThrow(AssemblyError);
    } finally {
      folder.remove();
    }
  });

  it('the README script (examples/library-script.ts) runs and saves a file that loads with the crank at 90°', async () => {
    const folder = tempFolder();
    try {
      const file = folder.file('script.kinemate.json');
      // the README's `npx tsx examples/library-script.ts`, tsx started without npx's own start (~1 s
      // of CPU): npx finding the package's bins is test/cli/main.test.ts's `npx --no-install kinemate`
      const run = await spawnIn(process.execPath, [join(REPO, 'node_modules/tsx/dist/cli.mjs'), 'examples/library-script.ts', file]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(
        `crank 90°: solved, rocker at ${deg(rockerAngle(Math.PI / 2)).toFixed(4)}°\nfull turn: 37/37 steps solved\nsaved ${file}\n`,
      );
      const doc = await loadAssemblyFile(file);
      expect(doc.state['jA.angle']).toBeCloseTo(90, 9);
    } finally {
      folder.remove();
    }
  });

  it('the library page (docs/library.md, linked from the README) shows the script as it is in examples/library-script.ts', () => {
    const readme = readFileSync(join(REPO, 'docs/library.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## As a library'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const script = readFileSync(join(REPO, 'examples/library-script.ts'), 'utf8');
    const lines = block.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(script).toContain(line);
  });
});
