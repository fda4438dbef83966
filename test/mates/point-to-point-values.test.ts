/**
 * mates/point-to-point-values.ts (Q alone, by hand) against PointToPointForce's dual pass
 * (asked for K and C, so it takes the duals): random non-unit poses and velocities, a linear
 * spring, a table damper, both, either alone. The same operations in the same order but
 * for the length (√Σd² against Math.hypot), so the same numbers to a few ulps, and the same
 * report (length, rate, tension); the dissipated power is the damper's force at the
 * reported rate times it.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { LinearLaw, PointForce, PointToPointForce, TableLaw } from '../../mates/forces';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';


describe('point-to-point values by hand vs the dual pass', () => {
  const cases = [
    ['spring', true, false], ['damper', false, true], ['spring and damper', true, true],
  ] as const;
  for (const [label, withSpring, withDamper] of cases) {
    it(label, () => {
      for (let k = 0; k < 20; k++) {
        const r = rng(4200 + 17 * k + label.length);
        const system = new System(100);
        const a = system.addPose('A', P.pose(vec(r, 200), quat(r)));
        const b = system.addPose('B', P.pose(vec(r, 200), quat(r)));
        const spring = withSpring ? new LinearLaw(between(r, 1, 50), between(r, 50, 300), between(r, -100, 100)) : null;
        const damper = withDamper ? new TableLaw([[-500, -900], [0, 0], [200, 150], [600, 700]], true) : null;
        const element = new PointToPointForce('e', a, vec(r, 50), b, vec(r, 50), spring, damper);
        const offsets = Int32Array.of(system.variables[a].offset, system.variables[b].offset);
        const velocity = Float64Array.from({ length: 12 }, (_, i) => between(r, -2, 2) * (i % 6 < 3 ? 1 : 300));
        const byHand = new Float64Array(12), byDuals = new Float64Array(12);
        element.evaluate(system.state, offsets, velocity, 0, byHand, null, null);
        const report = { ...element.last };
        element.evaluate(system.state, offsets, velocity, 0, byDuals, new Float64Array(144), new Float64Array(144));
        const scale = Math.max(...byDuals.map(Math.abs));
        for (let i = 0; i < 12; i++) expect(Math.abs(byHand[i] - byDuals[i]), `${label} #${k} Q[${i}]`).toBeLessThanOrEqual(1e-14 * scale);
        for (const key of ['length', 'rate', 'tension'] as const) {
          expect(Math.abs(report[key] - element.last[key]), key).toBeLessThanOrEqual(1e-14 * Math.max(1, Math.abs(element.last[key])));
        }
        expect(byDuals.some((x) => x !== 0)).toBe(true);
        // dissipation by hand: the damper's force times the rate the dual pass reported
        const law = new Float64Array(2);
        const expected = damper ? damper.evaluate(element.last.rate, law)[0] * element.last.rate : 0;
        expect(Math.abs(element.dissipation(system.state, offsets, velocity) - expected)).toBeLessThanOrEqual(1e-13 * Math.max(1, Math.abs(expected)));
      }
    });
  }
});

/**
 * K without C takes a pass over the steps' columns alone (mates/body-force.ts `stiffnessTwin`): its
 * K and Q are the full pass's bit for bit (forward-mode columns never mix), for the spring
 * element, a damper (whose rate also moves with the steps) and a point force, at random
 * poses and velocities; the report is the full pass's too.
 */
describe('the stiffness without damping: the steps-only pass is the full one', () => {
  it('spring, damper, both; a point force', () => {
    for (let k = 0; k < 12; k++) {
      const r = rng(7100 + 31 * k);
      const system = new System(100);
      const a = system.addPose('A', P.pose(vec(r, 200), quat(r)));
      const b = system.addPose('B', P.pose(vec(r, 200), quat(r)));
      const spring = k % 3 !== 1 ? new LinearLaw(between(r, 1, 50), between(r, 50, 300), between(r, -100, 100)) : null;
      const damper = k % 3 !== 0 ? new TableLaw([[-500, -900], [0, 0], [200, 150], [600, 700]], true) : null;
      const elements = [
        { e: new PointToPointForce('e', a, vec(r, 50), b, vec(r, 50), spring, damper), offsets: Int32Array.of(system.variables[a].offset, system.variables[b].offset), d: 12 },
        { e: new PointForce('f', a, vec(r, 50), vec(r, 1000), k % 2 === 0, null), offsets: Int32Array.of(system.variables[a].offset), d: 6 },
      ];
      for (const { e, offsets, d } of elements) {
        const velocity = Float64Array.from({ length: d }, (_, i) => between(r, -2, 2) * (i % 6 < 3 ? 1 : 300));
        const Qs = new Float64Array(d), Ks = new Float64Array(d * d), Qf = new Float64Array(d), Kf = new Float64Array(d * d);
        e.evaluate(system.state, offsets, velocity, 0, Qs, Ks, null);
        const report = JSON.stringify(e.last);
        e.evaluate(system.state, offsets, velocity, 0, Qf, Kf, new Float64Array(d * d));
        expect(Array.from(Qs)).toEqual(Array.from(Qf));
        expect(Array.from(Ks)).toEqual(Array.from(Kf));
        expect(Kf.some((x) => x !== 0)).toBe(true);
        expect(report).toBe(JSON.stringify(e.last));
      }
    }
  });
});
