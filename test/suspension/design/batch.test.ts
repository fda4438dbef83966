import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { doeVariants, parseDoe, variantGeometry } from '../../../src/suspension/design/batch';
import { runBatch } from '../../../src/suspension/design/batch-pool';

const geometry = parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));

describe('batch: design of experiments', () => {
  it('grid, Latin hypercube and list samplings give the variants they promise', () => {
    const grid = doeVariants(parseDoe('vary: { trackrod_inboard.z: [-2, 2], upper_wishbone_outboard.y: [0, 10] }\nsampling: { type: grid, levels: 3 }', geometry));
    expect(grid).toHaveLength(9);
    expect(grid).toContainEqual([-2, 10]);
    expect(grid).toContainEqual([0, 5]);
    const spec = parseDoe('vary: { trackrod_inboard.z: [-5, 5] }\nsampling: { type: latin_hypercube, samples: 10, seed: 4 }', geometry);
    const lhs = doeVariants(spec).map((v) => v[0]);
    // one sample per stratum of width 1 mm
    expect(lhs.map((x) => Math.floor(x + 5)).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(doeVariants(spec)).toEqual(doeVariants(spec));
    expect(doeVariants(parseDoe('vary: { trackrod_inboard.z: [-5, 5] }\nsampling: { type: list, variants: [[1], [-3]] }', geometry))).toEqual([[1], [-3]]);
  });
  it('batch rows (on worker threads and in one thread) equal each variant swept alone', async () => {
    const spec = parseDoe('vary: { upper_wishbone_inboard_front.z: [-10, 10], trackrod_inboard.z: [-4, 4] }\nsampling: { type: latin_hypercube, samples: 6, seed: 2 }\nbump: "-40:40:5"\nmetrics: [camber, toe_angle, kpi]', geometry);
    const outputs: string[] = [];
    for (const threads of [2, 0]) {
      let text = '';
      const result = await runBatch(geometry, spec, { threads, chunk: 1, write: (t) => { text += t; } });
      expect(result).toEqual({ variants: 6, failed: 0 });
      outputs.push(text);
    }
    expect(outputs[0]).toBe(outputs[1]);
    const lines = outputs[0].trimEnd().split('\n');
    expect(lines[0]).toBe('variant,upper_wishbone_inboard_front.z,trackrod_inboard.z,step,status,bump,camber,toe_angle,kpi');
    expect(lines).toHaveLength(1 + 6 * 5);
    const variants = doeVariants(spec);
    for (const [v, moves] of variants.entries()) {
      const sm = new SuspensionModel(suspensionAssembly(variantGeometry(geometry, spec, moves)));
      const alone = runSweep(sm, sweepFromShortcut('bump', '-40:40:5'), { valuesOnly: true });
      alone.steps.forEach((step, i) => {
        const cells = lines[1 + v * 5 + i].split(',');
        expect(Number(cells[0])).toBe(v);
        expect(cells.slice(1, 3).map(Number)).toEqual(moves);
        expect(cells[4]).toBe('solved');
        const m = step.metrics as Record<string, number>;
        expect(cells.slice(6).map(Number)).toEqual([m.camber, m.toe_angle, m.kpi]);
      });
    }
  });
  it('bad DOE files are refused with the path named', () => {
    expect(() => parseDoe('vary: { nope.z: [-1, 1] }\nsampling: { type: grid, levels: 2 }', geometry, 'd.yaml')).toThrow(/^d\.yaml: vary\.nope\.z: expected "<hardpoint>\.<x\|y\|z>"/);
    expect(() => parseDoe('vary: { trackrod_inboard.z: [1, -1] }\nsampling: { type: grid, levels: 2 }', geometry, 'd.yaml')).toThrow(/d\.yaml: vary\.trackrod_inboard\.z: expected \[low, high\]/);
    expect(() => parseDoe('vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: sobol }', geometry, 'd.yaml')).toThrow(/d\.yaml: sampling\.type: expected grid, latin_hypercube or list/);
    expect(() => parseDoe('vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: list, variants: [[1, 2]] }', geometry, 'd.yaml')).toThrow(/d\.yaml: sampling\.variants\[0\]: expected 1 numbers/);
    expect(() => parseDoe('vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: grid, levels: 1 }', geometry, 'd.yaml')).toThrow(/d\.yaml: sampling\.levels: expected an integer ≥ 2/);
  });
});
