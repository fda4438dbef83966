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
import { LinearLaw, PointToPointForce, TableLaw } from '../../mates/forces';
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
