/**
 * The whole car's iteration matrix (288 unknowns) is cleared, assembled and refactored on
 * its nonzeros alone (kernel/integrator/pattern.ts): a run so is the dense assembly's run
 * to the bit. An entry the pattern missed (a force block's, a row's, a mass block's) would
 * be left out of the matrix or left stale in it, and the runs would part. And the kept
 * matrix is refactored seldom (integrator.ts REFRESH_LARGE), in its equilibrated form
 * (kernel/equilibrate.ts), whose factors are far sparser than the matrix's own. Its refactors
 * keep the force elements' K and C but for a new step size or a stall (iteration.ts
 * keptDerivatives), and the run is still the discrete solution (against tight tolerances).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation } from '../../../src/suspension/vehicle/simulate';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { Integrator } from '../../../kernel/integrator/integrator';
import type { IterationSystem } from '../../../kernel/integrator/iteration';
import { OrderedLU } from '../../../kernel/lu-ordered';
import { readVehicle, SEDAN } from './vehicle-sources';

const STEPS = 100;

describe('the vehicle run\'s sparse iteration matrix', () => {
  it('steps bit for bit as the dense assembly over a random road', () => {
    const spec = readVehicle();
    const road = 'road:\n  left: { iso8608: { class: D, seed: 1, speed_kmh: 60, length_m: 20 } }\n  right: { iso8608: { class: D, seed: 2, speed_kmh: 60, length_m: 20 } }\n';
    const text = `${readFileSync(SEDAN, 'utf8')}${road}`;
    let rest = new Float64Array(0);
    const run = (dense: boolean): { state: Float64Array; lambda: Float64Array; iterations: number; factorisations: number; lin: IterationSystem; N: number } => {
      const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec)), system = model.dyn.system;
      rest = Float64Array.from(system.state);
      const it: Integrator = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3' }).integrator;
      const lin = (it as unknown as { lin: IterationSystem }).lin;
      expect(lin.sparseForces).toBe(true);
      if (dense) lin.usePattern(0, false, model.dyn.forces, (it as unknown as { constraints: never }).constraints);
      let iterations = 0;
      for (let k = 1; k <= STEPS; k++) { expect(it.step(0.001, k * 0.001)).toBe(true); iterations += it.iterations; }
      return { state: Float64Array.from(system.state), lambda: Float64Array.from(it.lambda), iterations, factorisations: it.factorisations, lin, N: it.size + it.activeRows().length };
    };
    const sparse = run(false), dense = run(true);
    expect(sparse.iterations).toBe(dense.iterations);
    expect(Array.from(sparse.state)).toEqual(Array.from(dense.state));
    expect(Array.from(sparse.lambda)).toEqual(Array.from(dense.lambda));
    // the road moved the car: the comparison is of a run that did something
    let moved = 0;
    for (let i = 0; i < rest.length; i++) moved = Math.max(moved, Math.abs(sparse.state[i] - rest[i]));
    expect(moved).toBeGreaterThan(0.1);
    // a kept matrix is refreshed only when Newton is slow (integrator.ts REFRESH_LARGE, and
    // at the start of a step after a slow one): the refactor costs about three and a half
    // iterations on it. Refreshed after eight iterations Newton took 6.4 a step here, after
    // five 5.7, and with the refresh after a slow step 5.0 (0.52 refactors a step)
    expect(sparse.factorisations / STEPS).toBeLessThan(0.6);
    expect(sparse.iterations / STEPS).toBeLessThan(5.4);
    // masses, inertias and lever arms side by side: threshold pivoting on the matrix as it
    // stands leaves the diagonal in most columns, and fills the factors (8.5k nonzeros against 4.6k)
    const plain = new OrderedLU(sparse.N, true, false);
    expect(plain.factor(sparse.lin.matrix(sparse.N), sparse.N, 1e-15)).toBe(true);
    expect(sparse.lin.luNonzero.nonzeros).toBeLessThan(0.7 * plain.nonzeros);
  });

  it('keeps K and C across its refactors, and steps to the same solution', () => {
    const spec = readVehicle();
    const road = 'road:\n  left: { iso8608: { class: C, seed: 3, speed_kmh: 60, length_m: 20 } }\n  right: { iso8608: { class: C, seed: 4, speed_kmh: 60, length_m: 20 } }\n';
    const text = `${readFileSync(SEDAN, 'utf8')}${road}`;
    const run = (tight: boolean): { state: Float64Array; derivatives: number; factorisations: number } => {
      const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec));
      const forces = model.dyn.forces, assemble = forces.assemble.bind(forces);
      let derivatives = 0;
      forces.assemble = (v, t, Q, K, C, zeroed) => { if (K || C) derivatives++; assemble(v, t, Q, K, C, zeroed); };
      const it: Integrator = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3', ...(tight ? { constraintTolerance: 1e-13, residualTolerance: 1e-12 } : {}) }).integrator;
      for (let k = 1; k <= STEPS; k++) expect(it.step(0.001, k * 0.001)).toBe(true);
      return { state: Float64Array.from(model.dyn.system.state), derivatives, factorisations: it.factorisations };
    };
    const kept = run(false), tight = run(true);
    // refactored some tens of times, K and C assembled for a few of them (each of which cost as much as the elimination)
    expect(kept.factorisations).toBeGreaterThan(10);
    expect(kept.derivatives).toBeGreaterThan(0);
    expect(kept.derivatives).toBeLessThan(0.25 * kept.factorisations);
    // the same discrete solution: within the Newton tolerance of a run at 1000× tighter ones (mm, quaternion units)
    let diff = 0;
    for (let i = 0; i < kept.state.length; i++) diff = Math.max(diff, Math.abs(kept.state[i] - tight.state[i]));
    expect(diff).toBeLessThan(1e-6);
  });
});
