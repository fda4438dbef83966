/**
 * The values-only sweep (the viewer's plots while dragging): no derivative tangent per
 * step, each step predicted by the secant of the last two. Same states as the full sweep
 * to the solver's tolerance, and the secant really predicts: within a fifth of the tangent
 * predictor's Newton iterations (without a predictor a bump sweep takes ~40% more).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { parseText, sweepFromShortcut, validateGeometry } from '../../../src/suspension/files';
import { runSweep, flattenMetrics, type SweepOptions } from '../../../src/suspension/sweep/sweep';

const geometry = (name: string) => validateGeometry(parseText(readFileSync(new URL(`../../../examples/suspension/${name}.yaml`, import.meta.url), 'utf8')));

function sweep(name: string, shortcut: 'bump' | 'steer', range: string, options: SweepOptions) {
  const g = geometry(name);
  const sm = new SuspensionModel(suspensionAssembly(g));
  const solveWith = sm.solveWith.bind(sm);
  let iterations = 0;
  sm.solveWith = (blocks) => { const r = solveWith(blocks); iterations += r.iterations; return r; };
  const run = runSweep(sm, sweepFromShortcut(shortcut, range, g), options);
  return { run, iterations };
}

describe('values-only sweep', () => {
  for (const [name, kind, range] of [
    ['double_wishbone', 'bump', '-50:50:21'],
    ['macpherson', 'bump', '-60:40:17'],
    ['trailing_arm', 'bump', '-40:40:9'],
    ['double_wishbone_pushrod', 'bump', '-50:50:21'],
    ['double_wishbone_axle', 'bump', '-50:50:21'],
    ['double_wishbone', 'steer', '-30:30:13'],
  ] as const) {
    it(`${name} ${kind} ${range}: the same values as with derivatives, no derivatives, as few iterations`, () => {
      const full = sweep(name, kind, range, { noSteering: true });
      const lean = sweep(name, kind, range, { valuesOnly: true });
      expect(lean.run.steps.every((s) => s.status === 'solved')).toBe(true);
      lean.run.steps.forEach((step, i) => {
        const a = flattenMetrics(step.metrics), b = flattenMetrics(full.run.steps[i].metrics);
        for (const key of Object.keys(b)) {
          if (key.includes('deriv_')) { expect(a[key], key).toBeNull(); continue; }
          // relative: a far instant centre (tens of metres) magnifies the tolerance-level difference
          if (typeof b[key] === 'number' && typeof a[key] === 'number') expect(Math.abs((a[key] as number) - (b[key] as number)), `${key} at step ${i}`).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(b[key] as number)));
        }
        for (const [p, xyz] of Object.entries(full.run.steps[i].positions!)) xyz.forEach((x, k) => expect(step.positions![p][k]).toBeCloseTo(x, 7));
      });
      // within a fifth of the tangent predictor's count (with no predictor: ~40% more)
      expect(lean.iterations).toBeLessThanOrEqual(1.2 * full.iterations);
    });
  }
});
