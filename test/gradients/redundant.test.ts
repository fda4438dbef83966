/**
 * Gradients of a run whose mates have redundant rows: the slider-crank (crank, rod, slider on
 * three full revolutes and a slider, planar: 24 rows, 21 independent, 22 unknowns). The
 * integrator solves each step on its active rows (kernel/integrator/integrator.ts selectRows), and the
 * set changes along this run (rows 2 and 20 trade places from 0.253 s at 1e-3 s); the
 * gradient routes take each step's own set (src/gradients/run.ts). Every entry against
 * central differences of whole re-runs at two steps to 1e-4 relative; adjoint = direct to 1e-10.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS, itOnce } from './steps';
import { prepareSimulation } from '../../src/mechanics/simulate';
import { buildDynamics } from '../../src/mechanics/build';
import { bothRoutesAll, centralDifferences, entity, errorsAgainst, type Move } from './sim-checks';

const doc = JSON.parse(readFileSync(new URL('../../examples/slider-crank-torque.kinemate.json', import.meta.url), 'utf8'));

const params: [string, Move, number][] = [
  ['crank.mass', (d, s) => { d.parts.crank.mass.mass += s; }, 1e-3],
  ['slider.mass', (d, s) => { d.parts.slider.mass.mass += s; }, 1e-4],
  ['rail_friction.damping', (d, s) => { d.forces.rail_friction.damping += s; }, 1e-5],
  ['rod.inertia.z', (d, s) => { d.parts.rod.mass.inertia[2][2] += s; }, 1],
  ['crank.centre.x', (d, s) => { d.parts.crank.mass.centre[0] += s; }, 1e-2],
  // in the plane the mates stay consistent (out of it the redundant rows would disagree)
  ['crank.tip.x', entity('crank', 'frames', 'tip', 0), 1e-2],
  ['rod.end.x', entity('rod', 'frames', 'end', 0), 1e-2],
  ['ground.pivot.y', entity('ground', 'frames', 'pivot', 1), 1e-2],
];

describe('slider-crank on redundant mates', () => {
  itOnce('has redundant rows, and its active set changes along the run', () => {
    const sim = prepareSimulation(buildDynamics(doc));
    const it = sim.integrator;
    expect(it.rows).toBe(24);
    expect(it.activeRows().length).toBe(21);
    const sets = new Set([[...it.activeRows()].join(',')]);
    for (let k = 0; k < 300; k++) { expect(it.step(1e-3)).toBe(true); sets.add([...it.activeRows()].join(',')); }
    expect(sets.size).toBeGreaterThan(1);
  });

  for (const h of STEPS) {
    it(`every parameter against central differences at h = ${h} s; adjoint = direct`, () => {
      const options = { duration: 0.3, step: h }, results = ['slider.position.x', 'rod.velocity.y', 'crank.position.y@max'];
      const gs = bothRoutesAll(doc, params.map((p) => p[0]), results, options).map((g) => g.gradient);
      // each move's two re-runs serve every result
      const fd = centralDifferences(doc, params.map((p) => p[1]), params.map((p) => p[2]), results, options);
      results.forEach((result, k) => {
        const { worst, errors } = errorsAgainst(gs[k], fd.map((row) => row[k]));
        expect(worst, `${result}: ${errors.map((e) => e.toExponential(1)).join(' ')}`).toBeLessThan(1e-4);
      });
    }, 300_000);
  }

  itOnce('reactions of its redundant mates as results (a dropped row reads no λ): every mass parameter against central differences; adjoint = direct', () => {
    const options = { duration: 0.3, step: 2e-3 };
    const masses = params.slice(0, 5), results = ['reactions.jB.force.x', 'reactions.jA.force.y'];
    // each move's two re-runs (at δ and at 4δ) serve both results
    const fd = (k: number) => centralDifferences(doc, masses.map((p) => p[1]), masses.map((p) => k * p[2]), results, options);
    const fd1 = fd(1), fd4 = fd(4);
    // multipliers carry the step's 1/(βh²) scaling: the routes part by rounding to ~1e-8 here (seen 4.6e-9), as on a link's force
    const gs = bothRoutesAll(doc, masses.map((p) => p[0]), results, options, 2e-8);
    results.forEach((result, r) => {
      const g = gs[r];
      // a multiplier is converged only to the step's tolerance, whose noise over δ can pass 1e-4 where the
      // positions' δ suits: each entry must match the differences at δ or at 4δ (truncation grows as δ², noise as 1/δ)
      const at = (f: number[][]) => errorsAgainst(g.gradient, f.map((row) => row[r])).errors;
      const e1 = at(fd1), e4 = at(fd4), errors = e1.map((e, j) => Math.min(e, e4[j]));
      expect(Math.max(...errors), `${result}: ${e1.map((e, j) => `${e.toExponential(1)}/${e4[j].toExponential(1)}`).join(' ')}`).toBeLessThan(1e-4);
    });
  }, 300_000);
});
