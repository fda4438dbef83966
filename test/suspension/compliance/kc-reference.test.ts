/**
 * The rig's reference pose away from design (src/suspension/compliance/kc.ts): the loads'
 * displacements are measured from the unloaded equilibrium at the position, so the
 * zero-load step moves nothing, and a load's step is the same state whichever way it is
 * reached (a single-load run and a step of a longer run agree).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';

const model = () => new SuspensionModel(suspensionAssembly(parseGeometry(readFileSync(new URL('../../../examples/suspension/double_wishbone_compliant.yaml', import.meta.url), 'utf8'))));

describe('kc away from design', () => {
  it('at bump=20 the zero-load step has no displacement, and a loaded step is the single-load run\'s', () => {
    const run = runKc(model(), 'lateral', { at: { kind: 'bump', value: 20 }, range: [0, 3000, 2] });
    expect(run.steps.map((s) => s.status)).toEqual(['solved', 'solved']);
    const zero = run.steps[0];
    for (const x of [...(zero.wheel_center_displacement as number[]), ...(zero.wheel_rotation as number[])]) expect(Math.abs(x)).toBeLessThan(1e-6);
    const single = runKc(model(), 'lateral', { at: { kind: 'bump', value: 20 }, range: [3000, 3000, 1] }).steps[0];
    const a = run.steps[1].wheel_center_displacement as number[], b = single.wheel_center_displacement as number[];
    expect(Math.hypot(...a)).toBeGreaterThan(0.1);
    for (let i = 0; i < 3; i++) expect(Math.abs(a[i] - b[i])).toBeLessThan(1e-6);
  });
});
