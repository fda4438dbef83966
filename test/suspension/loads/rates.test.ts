/** Motion ratio and wheel rate (exact, by the tangent) against finite differences of a kinematic sweep (test-only). */
import { describe, expect, it } from 'vitest';
import { buildDynamics } from '../../../src/mechanics/build';
import { equilibrium } from '../../../src/mechanics/equilibrium';
import { suspensionRates } from '../../../src/suspension/loads/rates';
import { solveModel } from '../../../src/model/operations';
import * as P from '../../../kernel/pose';

import { dwCorner as corner, dwHardpoints as hp } from '../../mechanics/models';

const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe('motion ratio and wheel rate', () => {
  it('equal central differences of a kinematic sweep of the hinge angle', () => {
    const F0 = 1500;
    const dyn = buildDynamics(corner(F0));
    const eq = equilibrium(dyn);
    expect(eq.status).toBe('solved');
    const rates = suspensionRates(dyn, 'upright.contact', { spring: 'spring', tyreRate: 250 });
    // the sweep: hold the hinge angle at θ_eq + j h, record spring length, contact height, spring energy
    const theta = eq.state['hinge.angle'] as number;
    const sweep = buildDynamics(corner(F0));
    const spring = sweep.model.doc.forces!.spring as { stiffness: number; length: number };
    const at = (value: number) => {
      solveModel(sweep.model, { set: { 'hinge.angle': value }, hold: ['hinge.angle'] });
      const s = sweep.system;
      const ch = P.applyPoint(new Float64Array(3), s.getPose('chassis'), hp.spring_top);
      const seat = P.applyPoint(new Float64Array(3), s.getPose('lower'), hp.spring_seat);
      const z = P.applyPoint(new Float64Array(3), s.getPose('upright'), hp.contact)[2];
      const l = dist([ch[0], ch[1], ch[2]], [seat[0], seat[1], seat[2]]);
      return { l, z, V: 0.5 * spring.stiffness * (l - spring.length) ** 2 };
    };
    const h = 0.02;
    const m2 = at(theta - 2 * h), m1 = at(theta - h), p1 = at(theta + h), p2 = at(theta + 2 * h), c = at(theta);
    const motionRatio = (p1.l - m1.l) / (p1.z - m1.z);
    expect(rates.motionRatio!).toBeCloseTo(motionRatio, 6);
    // the vertical force the ground must give to hold the spring at each travel: F = dV/dz
    const Fplus = (p2.V - c.V) / (p2.z - c.z), Fminus = (c.V - m2.V) / (c.z - m2.z);
    expect((p1.V - m1.V) / (p1.z - m1.z)).toBeCloseTo(F0, 3); // the equilibrium carries F0
    const wheelRate = (Fplus - Fminus) / ((p2.z - m2.z) / 2);
    expect(Math.abs(rates.wheelRate / wheelRate - 1)).toBeLessThan(1e-5);
    // with a straight spring the wheel rate is near k·MR² (the geometry adds the rest)
    expect(rates.wheelRate / (60 * motionRatio ** 2)).toBeGreaterThan(0.8);
    expect(rates.wheelRate / (60 * motionRatio ** 2)).toBeLessThan(1.25);
    expect(rates.rideRate!).toBeCloseTo((rates.wheelRate * 250) / (rates.wheelRate + 250), 12);
  });
});
