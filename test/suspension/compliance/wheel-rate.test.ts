/**
 * The compliant wheel rate of the `vertical` event (src/suspension/compliance/wheel-rate.ts):
 * against central differences of the pad force over re-solved vertical steps, and in the
 * rigid limit (bushings and links a thousand times stiffer) against the rigid suspension's
 * wheel rate from the loads layer; with the example's rubber it is softer than rigid (in series).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';
import { runSweep } from '../../../src/suspension/sweep/sweep.ts';
import { SweepLoads } from '../../../src/suspension/loads/loads.ts';
import { sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { kcToCsv } from '../../../src/cli/kc.ts';

const rigidText = readFileSync(new URL('../../../examples/suspension/double_wishbone_pushrod.yaml', import.meta.url), 'utf8').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90 }');
const compliant = (scale: number) => `${rigidText}compliance:\n  bushings:\n    lower_wishbone_inboard_front: { radial: ${8000 * scale}, axial: ${1600 * scale} }\n    lower_wishbone_inboard_rear: { radial: ${4000 * scale}, axial: ${800 * scale} }\n  links:\n    pushrod: ${20000 * scale}\n`;
const model = (text: string) => new SuspensionModel(suspensionAssembly(parseGeometry(text)));
const pad = (step: { loads?: { holds: Record<string, number> } }) => step.loads!.holds['left:wheel_center_z'];

describe('compliant wheel rate', () => {
  it('equals the central difference of the pad force at design and at 10 mm of droop', () => {
    for (const z of [0, -10]) {
      const h = 0.25;
      const run = runKc(model(compliant(1)), 'vertical', { range: [z - h, z + h, 3] });
      expect(run.steps.map((s) => s.status)).toEqual(['solved', 'solved', 'solved']);
      const rate = run.steps[1].wheel_rate as number;
      const cd = (pad(run.steps[2]) - pad(run.steps[0])) / (2 * h);
      expect(rate).toBeGreaterThan(0.5);
      expect(Math.abs(rate - cd) / rate, `z=${z}`).toBeLessThan(2e-3);
      // the CSV's column carries the same number
      const [head, , middle] = kcToCsv(run).trim().split('\n');
      expect(Number(middle.split(',')[head.split(',').indexOf('wheel_rate')])).toBe(rate);
    }
  });

  it('tends to the rigid wheel rate as the rubber stiffens, from below', () => {
    const sm = model(rigidText);
    const loads = new SweepLoads(sm, { each: { force: [0, 0, 0] } });
    let rigid = NaN;
    runSweep(sm, sweepFromShortcut('bump', '0:0:1'), { onSolvedState: () => { rigid = loads.evaluate().rates!.wheel_rate.left!; } });
    const at = (scale: number) => runKc(model(compliant(scale)), 'vertical', { range: [0, 0, 1] }).steps[0].wheel_rate as number;
    const soft = at(1), stiff = at(10), stiffer = at(100);
    expect(soft).toBeLessThan(rigid);
    expect(Math.abs(stiffer - rigid)).toBeLessThan(1e-3 * rigid);
    // ten times stiffer, ten times closer (the series compliance is 1/k)
    expect((rigid - stiff) / (rigid - stiffer)).toBeGreaterThan(8);
    expect((rigid - stiff) / (rigid - stiffer)).toBeLessThan(12);
  });
});
