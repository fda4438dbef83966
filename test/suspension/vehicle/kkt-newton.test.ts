/**
 * The vehicle's Newton on the whole saddle system (kkt-newton.ts): its stopping rule bounds
 * the reduced force the reduced Newton tests, so a state it accepts is balanced on the
 * constraint manifold by that test, computed here on its own (the admissible motions' QR);
 * the rows' curvature kept per row and summed at λ is the constraint curvature of
 * tangent.ts at the same multipliers; and with it Newton converges at its quadratic rate
 * (with the curvature of another state, or none, it takes twice the iterations); a re-solve
 * of the same model starts on its last factors; a new model's solve is the same to the bit
 * whatever models of its structure were solved before it.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { kktNewton } from '../../../src/suspension/vehicle/kkt-newton';
import { applyAcceleration } from '../../../src/suspension/vehicle/loads';
import { G } from '../../../src/suspension/vehicle/inertia-load';
import { exactReduced } from '../../../src/suspension/vehicle/tangent';
import { curvatureAt, curvatureTensor } from '../../../src/suspension/vehicle/curvature-tensor';
import { admissibleMotions, constraintMultipliers } from '../../../kernel/multipliers';
import { OrderedLU } from '../../../kernel/lu-ordered';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { readFileSync } from 'node:fs';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();

describe('the vehicle\'s saddle-system Newton', () => {
  const m = buildVehicle(spec);
  const sys = m.dyn.system;
  const tol = (1e-10 * m.totalMass * G) / 1000;
  expect(solveVehicle(m, { ax: 0, ay: 0 }).status).toBe('solved');
  const rest = sys.snapshot();

  it('balances 0.4 g from rest in a few iterations, to the reduced force test and the rows\' tolerance', () => {
    sys.restore(rest);
    applyAcceleration(m, { ax: 0, ay: 0.4 });
    const r = kktNewton(m, tol);
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeLessThanOrEqual(6);
    // |Nᵀ Q| on the admissible motions of the state reached, as newton.ts tests it
    const n = m.dyn.forces.size, Q = new Float64Array(n);
    m.dyn.forces.assemble(new Float64Array(n), 0, Q, null, null);
    const { basis: N, count: k } = admissibleMotions(sys);
    let worst = 0;
    for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < n; j++) s += N[a * n + j] * Q[j]; worst = Math.max(worst, Math.abs(s)); }
    expect(worst).toBeLessThanOrEqual(tol);
    expect(sys.residualReport(1e-12 * sys.lengthScale).maxResidual).toBeLessThanOrEqual(1e-12 * sys.lengthScale);
    // the body rolled (a load was balanced, not the state at rest kept)
    let moved = 0;
    for (let i = 0; i < rest.length; i++) moved = Math.max(moved, Math.abs(sys.state[i] - rest[i]));
    expect(moved).toBeGreaterThan(1e-3);
  });

  it('re-solves on the model\'s last factors (modified Newton): 0.4 g from rest again without a factorisation; another model builds its own', () => {
    sys.restore(rest);
    applyAcceleration(m, { ax: 0, ay: 0.4 });
    expect(kktNewton(m, tol).converged).toBe(true);
    const solved = Float64Array.from(sys.state);
    const factor = vi.spyOn(OrderedLU.prototype, 'factor');
    try {
      sys.restore(rest);
      const again = kktNewton(m, tol);
      expect(again.converged).toBe(true);
      expect(again.iterations).toBeLessThanOrEqual(8);
      expect(factor).not.toHaveBeenCalled();
      // the same state, to the stopping rule (1e-10 of the weight on stiff tyres: far below a µm)
      let moved = 0;
      for (let i = 0; i < solved.length; i++) moved = Math.max(moved, Math.abs(sys.state[i] - solved[i]));
      expect(moved).toBeLessThan(1e-6);
      const other = buildVehicle(spec);
      expect(solveVehicle(other, { ax: 0, ay: 0 }).status).toBe('solved');
      expect(factor).toHaveBeenCalled();
    } finally {
      factor.mockRestore();
    }
  });

  it('sums the rows\' curvature at λ to tangent.ts\'s constraint curvature at the same multipliers', () => {
    sys.restore(rest);
    applyAcceleration(m, { ax: 0, ay: 0.4 });
    expect(kktNewton(m, tol).converged).toBe(true);
    const n = m.dyn.forces.size, Q = new Float64Array(n);
    m.dyn.forces.assemble(new Float64Array(n), 0, Q, null, null);
    const He = exactReduced(m).H;
    // the constraint blocks in the multipliers' row order, and λ per row
    const mult = constraintMultipliers(sys, Q);
    const blocks: number[] = [], starts: number[] = [];
    for (let i = 0; i < mult.rowBlock.length; i++) if (mult.rowInBlock[i] === 0) { blocks.push(mult.rowBlock[i]); starts.push(i); }
    const t = curvatureTensor(sys, blocks, Int32Array.from(starts), mult.layout, n);
    const Ht = new Float64Array(n * n);
    curvatureAt(t, mult.lambda, Ht);
    let big = 0, diff = 0;
    for (let i = 0; i < n * n; i++) { big = Math.max(big, Math.abs(He[i])); diff = Math.max(diff, Math.abs(He[i] - Ht[i])); }
    expect(big).toBeGreaterThan(0);
    expect(diff).toBeLessThanOrEqual(1e-12 * big);
  });
});

describe('a new model\'s solve does not depend on what was solved before it', () => {
  // The saddle workspace was once shared by models of one structure (kkt-newton.ts): its rows'
  // scales, row choice and LU pivots were an earlier model's. After a sedan with a moved pickup had
  // made it, the sedan's rest state moved in its last bits (its understeer gradient by 1e-14, its
  // heave frequency by 1e-14), and bit-for-bit tests depended on which files a worker ran before.
  const solid = readVehicle(readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8'));
  const restOf = (s: typeof spec): Float64Array => {
    const m = buildVehicle(s);
    expect(solveVehicle(m, { ax: 0, ay: 0 }).status).toBe('solved');
    return Float64Array.from(m.dyn.system.state);
  };

  it('the sedan at rest, before and after other cars of its structure and another: equal to the bit', () => {
    restOf(solid); // another structure
    const fresh = restOf(spec);
    restOf(solid);
    restOf(movedVehicleSpec(spec, 'rear.lower_front_link_inboard.z', 3)); // the sedan's structure, another geometry
    const after = restOf(spec);
    expect(Array.from(after)).toEqual(Array.from(fresh));
    // the moved car's own rest state does differ (the comparison can fail)
    expect(Array.from(restOf(movedVehicleSpec(spec, 'rear.lower_front_link_inboard.z', 3)))).not.toEqual(Array.from(fresh));
  });
});
