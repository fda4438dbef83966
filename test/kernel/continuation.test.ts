/**
 * The kernel's one continuation (issue 16 item 1, issue 11 item 2): bounded work, and a
 * move that cannot go on closes in on where the trouble starts instead of approaching it
 * forever. On main the drive's own loop reset its halving count at every accepted
 * sub-step, so a wall inside a step was approached with ever smaller steps and never left.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Continuation, MAX_EXTRA_SOLVES, MAX_SUBSTEPS } from '../../kernel/continuation';
import type { SolveReport } from '../../kernel/solver/solve';
import { System } from '../../kernel/system';

const report = (converged: boolean, atLimit: string[] = []): SolveReport => ({
  status: converged ? 'solved' : 'failed', converged, iterations: 1, maxResidual: converged ? 0 : 1,
  failed: converged ? [] : ['wall'], atLimit, groups: 1, groupsSolved: 1,
});

/** One scalar x moved by the continuation; the corrector fails past `wall` (naming a limit when `limit`). */
function walled(start: number, wall: number, limit: boolean) {
  const system = new System(1);
  const x = system.addScalar('x', start);
  let solves = 0;
  const path = new Continuation(system, (values) => system.setScalar(x, values[0]), [start], {
    correct: () => {
      solves++;
      const value = system.getScalar(x);
      if (value <= wall) return report(true, limit && wall - value < 1e-9 ? ['x'] : []);
      return report(false, limit ? ['x'] : []);
    },
  });
  return { system, x, path, solves: () => solves };
}

describe('Continuation', () => {
  it('a reachable move takes exactly its nominal sub-steps', () => {
    const { path, solves, system, x } = walled(0, Infinity, false);
    const move = path.moveTo([10], { subSteps: 7 });
    expect(move.status).toBe('reached');
    expect(solves()).toBe(7);
    expect(system.getScalar(x)).toBe(10);
  });

  it('stops exactly at a wall inside a move, within a bounded number of solves (property)', () => {
    fc.assert(fc.property(
      fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: 0.001, max: 0.999, noNaN: true }),
      fc.double({ min: 0.01, max: 1000, noNaN: true }), fc.integer({ min: 1, max: 50 }), fc.boolean(),
      (start, at, length, subSteps, limit) => {
        const wall = start + at * length;
        const { path, solves, system, x } = walled(start, wall, limit);
        const move = path.moveTo([start + length], { subSteps });
        expect(move.status).toBe(limit ? 'limit' : 'failed');
        expect(solves()).toBeLessThanOrEqual(subSteps + MAX_EXTRA_SOLVES + 1);
        // at the wall to round-off, on the good side, and the system left there
        expect(system.getScalar(x)).toBeLessThanOrEqual(wall);
        expect(wall - system.getScalar(x)).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(wall), length));
        expect(move.values[0]).toBe(system.getScalar(x));
        if (limit) expect(move.report.atLimit).toEqual(['x']);
      },
    ), { numRuns: 200 });
  });

  it('a corrector that never converges ends the move after a bounded number of solves', () => {
    const system = new System(1);
    const x = system.addScalar('x', 0);
    let solves = 0;
    const path = new Continuation(system, (values) => system.setScalar(x, values[0]), [0], { correct: () => { solves++; return report(false); } });
    const move = path.moveTo([1e9], { subSteps: 1e12 });
    expect(move.status).toBe('failed');
    expect(solves).toBeLessThanOrEqual(MAX_SUBSTEPS + MAX_EXTRA_SOLVES + 1);
    expect(system.getScalar(x)).toBe(0); // nothing solved: where it began
  });
});
