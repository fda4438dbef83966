/**
 * kernel/integrator/pattern.ts subtractForces: a large matrix's refactors keep K and C
 * (iteration.ts), and the pattern keeps inv (K + γ' C) at the forces' entries for the
 * assembly (`derivatives`), inv and γ' it was made with. Checked against the product written
 * out here, to the bit: reused while all three hold, made again when any changes.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IterationPattern } from '../../../kernel/integrator/pattern';
import type { ConstraintRows } from '../../../kernel/integrator/rows';
import { rng } from '../../util/rng';

const noRows = { forEachActiveEntry: () => undefined } as unknown as ConstraintRows;

/** n × n force entries, about half of them listed (the diagonal always), on no bodies, with random K and C. */
function forcePattern(seed: number, n: number): { r: () => number; list: number[]; p: IterationPattern; K: Float64Array; C: Float64Array } {
  const r = rng(seed);
  const list: number[] = [];
  for (let e = 0; e < n * n; e++) if (r() < 0.5 || e % (n + 1) === 0) list.push(e);
  const p = new IterationPattern(n, n, new Int32Array(0), Int32Array.from(list), noRows);
  const K = Float64Array.from({ length: n * n }, () => r() - 0.5), C = Float64Array.from({ length: n * n }, () => r() - 0.5);
  return { r, list, p, K, C };
}

/** `pass` then `check` with the products kept, then made afresh for a new assembly of K and C (its count), a new inv, a new γ'. */
function renewals(list: number[], K: Float64Array, C: Float64Array, pass: (inv: number, g: number, derivatives: number) => void, check: (inv: number, g: number) => void): void {
  pass(0.7, 1.3, 1); check(0.7, 1.3);
  pass(0.7, 1.3, 1); check(0.7, 1.3);
  K[list[0]] += 1; C[list[list.length - 1]] -= 2;
  pass(0.7, 1.3, 2); check(0.7, 1.3);
  pass(0.35, 1.3, 2); check(0.35, 1.3);
  pass(0.35, 2.6, 2); check(0.35, 2.6);
}

describe('the compact matrix\'s force entries', () => {
  it('are values − inv (K + γ\' C), from the kept products while K and C, inv and γ\' hold', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 2, max: 9 }), (seed, n) => {
      const { r, list, p, K, C } = forcePattern(seed, n);
      const base = Float64Array.from({ length: p.values.length }, () => r() - 0.5);
      const expectSubtracted = (inv: number, g: number): void => {
        const want = base.slice();
        list.forEach((f, e) => { want[p.kcTo[e]] -= inv * (K[f] + g * C[f]); });
        expect(Array.from(p.values)).toEqual(Array.from(want));
      };
      const run = (inv: number, g: number, derivatives: number): void => { p.values.set(base); p.subtractForces(K, C, inv, g, derivatives); };
      renewals(list, K, C, run, expectSubtracted);
      // the count is the contract: K changed without a new assembly's count keeps the products made before
      K[list[0]] += 1;
      run(0.35, 2.6, 2);
      K[list[0]] -= 1; expectSubtracted(0.35, 2.6);
    }), { numRuns: 50 });
  });

  it('writeDynamic writes the places outside the bodies from the products as last renewed, whatever the places held', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 2, max: 9 }), (seed, n) => {
      // no bodies: every force place is outside them
      const { list, p, K, C } = forcePattern(seed, n), none = new Int32Array(0);
      const write = (inv: number, g: number, derivatives: number): void => p.writeDynamic(p.plain, new Float64Array(0), 1, [], none, K, C, inv, g, derivatives);
      const expectWritten = (inv: number, g: number): void => {
        const want = new Float64Array(p.values.length);
        list.forEach((f, e) => { want[p.kcTo[e]] = 0 - inv * (K[f] + g * C[f]); });
        p.values.forEach((x, i) => expect(Object.is(x, want[i]), `place ${i}`).toBe(true));
      };
      renewals(list, K, C, write, expectWritten);
      // the places cleared, or the products subtracted into them (the passes in turn): written again with kept products
      p.clear(); write(0.35, 2.6, 2); expectWritten(0.35, 2.6);
      p.subtractForces(K, C, 0.35, 2.6, 2); write(0.35, 2.6, 2); expectWritten(0.35, 2.6);
    }), { numRuns: 50 });
  });
});
