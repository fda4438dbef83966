/**
 * The dense path evaluates the rows' Jacobian only for a Newton step (kernel/solver/newton.ts):
 * convergence checks, chord steps and line-search trials read the rows alone, which cost a
 * fraction of their Jacobian.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PivotedQR } from '../../../kernel/linalg';
import { validateAssembly } from '../../../src/assembly';
import { buildModel } from '../../../src/model/build';
import { driveModel } from '../../../src/model/operations';
import { fourBarDoc } from '../../../examples/fourbar';

afterEach(() => { vi.restoreAllMocks(); });

describe('the Jacobian on demand', () => {
  it('a four-bar drive evaluates a joint\'s Jacobian once per QR factorisation, its rows several times as often', () => {
    const model = buildModel(validateAssembly(fourBarDoc(30)));
    const { system } = model;
    driveModel(model, 'jA.angle', 30, 35, 5); // warm: the drive's own factorisation exists
    let block = -1;
    for (let b = 0; b < system.blockCount; b++) if (system.block(b).owner === 'jB') block = b;
    expect(block).toBeGreaterThanOrEqual(0);
    const evaluate = vi.spyOn(system.block(block), 'evaluate');
    const factor = vi.spyOn(PivotedQR.prototype, 'factor');
    const { steps } = driveModel(model, 'jA.angle', 35, 95, 60);
    expect(steps.every((s) => s.status === 'solved')).toBe(true);
    const withJacobian = evaluate.mock.calls.filter((args) => args[3] !== null).length;
    const rowsOnly = evaluate.mock.calls.length - withJacobian;
    // every Jacobian feeds a factorisation (a Newton step's QR, or the tangent's)
    expect(withJacobian).toBeLessThanOrEqual(factor.mock.calls.length);
    expect(withJacobian).toBeGreaterThan(0);
    // the chord steps and checks between them read the rows alone
    expect(rowsOnly).toBeGreaterThan(2 * withJacobian);
  });
});
