import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { buildModel, renewModel, type Model } from '../../../src/model/build';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { VariantModels } from '../../../src/suspension/design/variant-models';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { sweepFromShortcut } from '../../../src/suspension/files';

const geometry = (file: string) => parseGeometry(readFileSync(`examples/suspension/${file}.yaml`, 'utf8'));
/** The geometry with every hardpoint of every corner moved by a few mm (a different move per coordinate). */
function moved(g: Geometry, seed: number): Geometry {
  const out = structuredClone(g);
  let k = seed;
  for (const c of out.corners) for (const p of Object.values(c.hardpoints)) for (let i = 0; i < 3; i++) p[i] += 7 * Math.sin(++k * 1.7);
  return out;
}
/** Every block's rows and Jacobian at the model's state, and the state, scales and length scale. */
function numbers(m: Model): number[] {
  const s = m.system;
  const out = [s.lengthScale, ...s.state.subarray(0, s.snapshotLength), ...s.variables.map((v) => v.scale)];
  for (let b = 0; b < s.blockCount; b++) {
    const blk = s.block(b);
    const dim = blk.vars.reduce((n, v) => n + s.variables[v].dim, 0);
    const res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * dim);
    s.evaluateBlock(b, res, jac);
    out.push(...res, ...jac);
  }
  return out;
}

describe('renewModel: a model rebuilt in place for moved hardpoints', () => {
  it.each(['double_wishbone', 'macpherson', 'multi_link', 'double_wishbone_pushrod', 'trailing_arm', 'double_wishbone_axle'])('%s: the same numbers as a fresh build (the old model swept away from its design first)', (file) => {
    const g = geometry(file);
    const model = buildModel(suspensionAssembly(g));
    for (const seed of [1, 2]) {
      // move the old model away from its design first: renewing must put every variable back
      const sm = new SuspensionModel(suspensionAssembly(g), model);
      runSweep(sm, sweepFromShortcut('bump', '0:40:2'), { valuesOnly: true });
      sm.clearDrivers();
      const doc = suspensionAssembly(moved(g, seed));
      const renewed = renewModel(model, doc);
      expect(renewed).not.toBeNull();
      const fresh = buildModel(doc);
      expect(numbers(renewed!)).toEqual(numbers(fresh));
      expect(renewed!.system.lengthScale).not.toBe(buildModel(suspensionAssembly(g)).system.lengthScale);
    }
  });
  it('refuses a document of another shape', () => {
    const model = buildModel(suspensionAssembly(geometry('double_wishbone')));
    expect(renewModel(model, suspensionAssembly(geometry('macpherson')))).toBeNull();
  });
  it('VariantModels sweeps each variant as a fresh model does, step for step', () => {
    const g = geometry('double_wishbone');
    const models = new VariantModels();
    const sweep = sweepFromShortcut('bump', '-70:70:8');
    for (const seed of [3, 4, 5]) {
      const doc = suspensionAssembly(moved(g, seed));
      const reused = runSweep(models.model(doc), sweep, { valuesOnly: true });
      const alone = runSweep(new SuspensionModel(doc), sweep, { valuesOnly: true });
      expect(reused.steps).toEqual(alone.steps);
    }
  });
});
