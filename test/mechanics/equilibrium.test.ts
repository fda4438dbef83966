/** Static equilibrium against closed forms: the quarter car's sag, a bar on two springs. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/mechanics/build';
import { equilibrium } from '../../src/mechanics/equilibrium';
import { loadsHere } from '../../src/mechanics/statics';
import { admissibleMotions } from '../../kernel/multipliers';
import { barOnSprings } from './models';
import { rng } from '../util/rng';

const G = 9806.65;

describe('equilibrium', () => {
  it('quarter car: static sag of body and wheel match the closed form (250 kg, 35 kg, 16 N/mm, 160 N/mm)', () => {
    const dyn = buildDynamics(parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8')));
    const result = equilibrium(dyn);
    expect(result.status).toBe('solved');
    const ms = 0.25 * G, mu = 0.035 * G;
    const tyreDeflection = (ms + mu) / 160, springDeflection = ms / 16;
    const wheel = (result.state['wheel.pose'] as { position: number[] }).position[2];
    const body = (result.state['body.pose'] as { position: number[] }).position[2];
    expect(300 - wheel).toBeCloseTo(tyreDeflection, 6);
    expect(600 - body).toBeCloseTo(tyreDeflection + springDeflection, 6);
    expect((result.forces.spring as { tension: number }).tension).toBeCloseTo(-ms, 6); // compressed: negative tension
    expect((result.forces.tyre as { force: number }).force).toBeCloseTo(ms + mu, 6);
    expect(result.residualForce).toEqual({});
    // virtual work at the equilibrium: Qᵀδq = 0 for random admissible motions
    const Q = loadsHere(dyn);
    const { basis, count, size } = admissibleMotions(dyn.system);
    expect(count).toBe(2);
    const r = rng(5);
    for (let t = 0; t < 5; t++) {
      const a = [r() - 0.5, r() - 0.5];
      let work = 0, motion = 0;
      for (let j = 0; j < size; j++) {
        const dq = basis[j] * a[0] + basis[size + j] * a[1];
        work += Q[j] * dq; motion = Math.max(motion, Math.abs(dq));
      }
      // against the work the weights alone would do along the same motion
      expect(Math.abs(work)).toBeLessThan(1e-8 * (ms + mu) * motion);
    }
  });

  it('a bar on two springs settles where both the forces and the moments balance', () => {
    const p = { m: 40, I: 4e6, a1: 600, a2: 900, k1: 20, k2: 35 };
    const dyn = buildDynamics(barOnSprings(p));
    const result = equilibrium(dyn);
    expect(result.status).toBe('solved');
    // closed form (small deflection): k1 z1 + k2 z2 = W, k1 z1 a1 = k2 z2 a2
    const W = (p.m / 1000) * G;
    const F1 = (W * p.a2) / (p.a1 + p.a2), F2 = (W * p.a1) / (p.a1 + p.a2);
    expect(-(result.forces.front as { tension: number }).tension).toBeCloseTo(F1, 4);
    expect(-(result.forces.rear as { tension: number }).tension).toBeCloseTo(F2, 4);
    // the springs tilt only to second order in the pitch: the fore-aft hold carries almost nothing
    expect(Math.abs(result.drivers['guide.slideX'])).toBeLessThan(1e-2);
  });

  it('a failure keeps the last good pose and reports the residual force', () => {
    // a bar on one spring only can pitch freely: no equilibrium (and the pose stays solvable)
    const doc = barOnSprings({ m: 40, I: 4e6, a1: 600, a2: 900, k1: 20, k2: 35 });
    const { rear: _rear, ...forces } = doc.forces!;
    const dyn = buildDynamics({ ...doc, forces });
    const result = equilibrium(dyn, { maxIterations: 8 });
    expect(result.status).toBe('failed');
    expect(Object.keys(result.residualForce).length).toBeGreaterThan(0);
    expect(result.maxResidual).toBeLessThan(1e-6);
  });
});
