/** Motion ratio and wheel rate (exact, by the tangent) against finite differences of a kinematic sweep (test-only). */
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/dynamics/build';
import { equilibrium } from '../../src/dynamics/equilibrium';
import { suspensionRates } from '../../src/dynamics/rates';
import { solveModel } from '../../src/model/operations';
import * as P from '../../kernel/pose';

type V = [number, number, number];
const hp: Record<string, V> = {
  lower_front: [250, 400, 200], lower_rear: [-250, 450, 200], lower_outboard: [0, 900, 200],
  upper_front: [225, 350, 500], upper_rear: [-275, 350, 500], upper_outboard: [-25, 750, 500],
  trackrod_inboard: [50, 200, 250], trackrod_outboard: [150, 800, 275],
  spring_top: [0, 600, 600], spring_seat: [0, 700, 200], contact: [-20, 950, 0],
};
const dist = (a: V, b: V) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
const axis = (a: V, b: V) => ({ origin: a, direction: [b[0] - a[0], b[1] - a[1], b[2] - a[2]] });

/** A double wishbone corner: lower wishbone a part on a hinge, the upper one two links, a track rod, a spring on the lower wishbone; a vertical load at the contact patch. */
function corner(load: number) {
  const pts = (names: string[]) => Object.fromEntries(names.map((n) => [n, hp[n]]));
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      chassis: { fixed: true, pose: I, points: pts(['upper_front', 'upper_rear', 'trackrod_inboard', 'spring_top']), axes: { hinge: axis(hp.lower_front, hp.lower_rear) } },
      lower: { pose: I, points: pts(['lower_outboard', 'spring_seat']), axes: { hinge: axis(hp.lower_front, hp.lower_rear) } },
      upright: { pose: I, points: pts(['lower_outboard', 'upper_outboard', 'trackrod_outboard', 'contact']) },
    },
    mates: {
      hinge: { type: 'revolute', a: 'chassis.hinge', b: 'lower.hinge' },
      ball: { type: 'ball', a: 'lower.lower_outboard', b: 'upright.lower_outboard' },
      upper_front: { type: 'distance', a: 'chassis.upper_front', b: 'upright.upper_outboard', value: dist(hp.upper_front, hp.upper_outboard) },
      upper_rear: { type: 'distance', a: 'chassis.upper_rear', b: 'upright.upper_outboard', value: dist(hp.upper_rear, hp.upper_outboard) },
      trackrod: { type: 'distance', a: 'chassis.trackrod_inboard', b: 'upright.trackrod_outboard', value: dist(hp.trackrod_inboard, hp.trackrod_outboard) },
    },
    gravity: [0, 0, 0],
    forces: {
      spring: { type: 'spring', a: 'chassis.spring_top', b: 'lower.spring_seat', stiffness: 60, length: dist(hp.spring_top, hp.spring_seat) + 40 },
      patch: { type: 'force', at: 'upright.contact', vector: [0, 0, load] },
    },
  });
}

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
