/**
 * A planar chain of 100 unit links (link 1 the ground, fixed along θ; 99 moving links, 99
 * revolutes): with every relative angle θ the tip is at
 * sin(Nθ/2)/sin(θ/2)·(cos((N+1)θ/2), sin((N+1)θ/2)). At θ = 3.6° it closes into a ring, and
 * with a coincident mate tip-to-ground it keeps 99 − 2 = 97 degrees of freedom.
 *
 * Some 700 unknowns: the solves take the sparse path (block rows in a banded order, normal
 * equations by envelope Cholesky); the rank analysis is still dense. The times are printed.
 */
import { describe, expect, it } from 'vitest';
import { chainDoc, chainTip } from '../../examples/mechanisms/chain';
import { dofModel, holdCoordinate, setCoordinate, solveModel } from '../../src/model/operations';
import { RAD, load, timed, worldPoint } from './helpers';

const N = 100;

describe('100-link planar chain', () => {
  it('the closed form: the chain as drawn puts its tip there (θ = 1°, 3.6°, 7.3°)', () => {
    for (const deg of [1, 3.6, 7.3]) {
      const model = load(chainDoc({ n: N, thetaDeg: deg }));
      const tip = worldPoint(model, `link${N}`, [1, 0, 0]);
      const [x, y] = chainTip(deg * RAD, N);
      expect(Math.hypot(tip[0] - x, tip[1] - y)).toBeLessThan(1e-9);
    }
  });

  // (one case: each costs seconds; θ = 1° puts the tip well away from the origin, at (55.8, 67.7))
  for (const [thetaDeg, drawnDeg] of [[1, 0.5]]) {
    it(`drawn at ${drawnDeg}°, every joint held at ${thetaDeg}°: the solve puts the tip on the closed form`, () => {
      const model = load(chainDoc({ n: N, thetaDeg, drawnDeg }));
      for (let k = 2; k <= N; k++) {
        holdCoordinate(model, `j${k}.angle`);
        setCoordinate(model, `j${k}.angle`, thetaDeg);
      }
      const { ms, value: result } = timed(() => solveModel(model));
      console.log(`chain ${drawnDeg}° → ${thetaDeg}°: ${result.iterations} iterations in the last solve, solveModel ${ms.toFixed(0)} ms (${model.system.variables.length} variables)`);
      expect(result.status).toBe('solved');
      const tip = worldPoint(model, `link${N}`, [1, 0, 0]);
      const [x, y] = chainTip(thetaDeg * RAD, N);
      expect(Math.hypot(tip[0] - x, tip[1] - y)).toBeLessThan(1e-9);
      expect(Math.abs(tip[2])).toBeLessThan(1e-12);
    });
  }

  it('closed at θ = 3.6° (tip coincident with the ground), from an open spiral: solved, 97 DOF, no conflict', () => {
    // drawn at 3.5°: the tip starts about 1.6 from the ground's origin; the closure must pull it in
    const model = load(chainDoc({ n: N, thetaDeg: 3.6, drawnDeg: 3.5, close: true }));
    const before = worldPoint(model, `link${N}`, [1, 0, 0]);
    expect(Math.hypot(before[0], before[1])).toBeGreaterThan(1);
    const solved = timed(() => solveModel(model));
    const dof = timed(() => dofModel(model));
    console.log(`ring: solveModel ${solved.ms.toFixed(0)} ms (${solved.value.iterations} iterations), dofModel ${dof.ms.toFixed(0)} ms`);
    expect(solved.value.status).toBe('solved');
    expect(solved.value.conflicting).toEqual([]);
    const tip = worldPoint(model, `link${N}`, [1, 0, 0]);
    expect(Math.hypot(tip[0], tip[1], tip[2])).toBeLessThan(1e-9);
    expect(dof.value.dof).toBe(97);
    expect(dof.value.conflicting).toEqual([]);
    expect(dof.value.redundant.length).toBeGreaterThan(0); // the closure's row along z
    expect(Object.values(dof.value.parts).filter((n) => n > 0)).toHaveLength(N - 1);
  });
});
