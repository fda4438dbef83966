import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseGeometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { sweepFromShortcut } from '../../../src/suspension/files';
import { LengthBlock, PointCoordinateBlock } from '../../../src/suspension/build/targets';
import { contactPatchBlock } from '../../../src/suspension/metrics/steering';
import { finiteDifferenceJacobian, maxAbsDiff } from '../../util/fd';
import type { ResidualBlock } from '../../../kernel/system';

describe('measure blocks (drivers, holds, tangent targets)', () => {
  it('have AD Jacobians equal to central differences, derived points between two parts included', () => {
    const sm = new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync('examples/suspension/multi_link.yaml', 'utf8')))));
    runSweep(sm, sweepFromShortcut('steer', '12:12:1'), { noSteering: true }); // away from design
    sm.clearDrivers();
    const c = sm.corners[0];
    const strutBottom = sm.resolveRole(c.roles.damper![0]); // on the lower rear link's centreline
    expect(strutBottom.length).toBe(2);
    const blocks: ResidualBlock[] = [
      new PointCoordinateBlock('wc_x', [{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }], 0, 0),
      new PointCoordinateBlock('sb_z', strutBottom, 2, 0),
      new LengthBlock('damper', strutBottom, sm.resolveRole(c.roles.damper![1]), 0),
      contactPatchBlock(sm, 0),
    ];
    const system = sm.model.system;
    for (const b of blocks) {
      const index = system.addBlock(b);
      const { analytic, numeric } = finiteDifferenceJacobian(system, index);
      expect(maxAbsDiff(analytic, numeric), b.owner).toBeLessThan(1e-6);
      system.removeBlocks([b]);
    }
  });
});
