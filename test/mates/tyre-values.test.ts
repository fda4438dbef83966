/**
 * mates/tyre-values.ts (a vertical tyre's Q, stored energy and damping power by hand) against
 * TyreForce's dual pass: random non-unit poses of the wheel and of a road part, random
 * velocities, with and without the road part and the damping, on and off the road. The same
 * operations in the same order, so Q, the report, the energy and the power are the dual
 * pass's bit for bit. A subclass of TyreForce (the slipping tyre, a probe) keeps the dual pass.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { TyreForce } from '../../mates/forces';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';

/** The same element, but a subclass: every value through the width-0 dual pass. */
class DualTyre extends TyreForce {}

interface Case { system: System; hand: TyreForce; duals: TyreForce; offsets: Int32Array; velocity: Float64Array; d: number }

function randomTyre(seed: number, withRoad: boolean, damping: number): Case {
  const r = rng(seed);
  const system = new System(100);
  // the wheel's centre 100–400 mm up, radius 300: on the road about half the time
  const wheel = system.addPose('wheel', P.pose([between(r, -50, 50), between(r, -50, 50), between(r, 100, 400)], quat(r)));
  const road = withRoad ? system.addPose('road', P.pose([between(r, -50, 50), between(r, -50, 50), between(r, -30, 30)], quat(r))) : -1;
  const centre = vec(r, 20), axis = [between(r, -0.2, 0.2), between(r, 0.7, 1.3), between(r, -0.2, 0.2)];
  const roadSpec = withRoad ? { body: road, point: vec(r, 10) } : null;
  const args = ['tyre', wheel, centre, axis, 300, between(r, 150, 300), damping, between(r, -5, 5), roadSpec] as const;
  const hand = new TyreForce(...args), duals = new DualTyre(...args);
  const offsets = Int32Array.from(withRoad ? [wheel, road] : [wheel], (v) => system.variables[v].offset);
  const d = withRoad ? 12 : 6;
  const velocity = Float64Array.from({ length: d }, (_, i) => (i % 6 < 3 ? between(r, -3, 3) : between(r, -500, 500)));
  return { system, hand, duals, offsets, velocity, d };
}

describe('tyre values by hand vs the dual pass', () => {
  for (const withRoad of [false, true]) {
    for (const damping of [0, 1.5]) {
      it(`${withRoad ? 'on a road part' : 'on the ground'}, damping ${damping}`, () => {
        let on = 0, off = 0;
        for (let k = 0; k < 40; k++) {
          const { system, hand, duals, offsets, velocity, d } = randomTyre(5100 + 37 * k + (withRoad ? 3 : 0) + damping * 11, withRoad, damping);
          const byHand = new Float64Array(d), byDuals = new Float64Array(d), full = new Float64Array(d);
          hand.evaluate(system.state, offsets, velocity, 0, byHand, null, null);
          const report = structuredClone(hand.last);
          expect((hand as unknown as { valueTwin: unknown }).valueTwin, 'the values took the dual pass').toBeNull();
          duals.evaluate(system.state, offsets, velocity, 0, byDuals, null, null);
          expect(Array.from(byHand), `#${k} Q`).toEqual(Array.from(byDuals));
          expect(report, `#${k} report`).toEqual(duals.last);
          // the full pass (K and C asked for) gives the same Q too
          hand.evaluate(system.state, offsets, velocity, 0, full, new Float64Array(d * d), new Float64Array(d * d));
          expect(Array.from(full), `#${k} Q with K, C`).toEqual(Array.from(byHand));
          expect(hand.potential(system.state, offsets), `#${k} energy`).toBe(duals.potential(system.state, offsets));
          expect(hand.dissipation(system.state, offsets, velocity), `#${k} power`).toBe(duals.dissipation(system.state, offsets, velocity));
          if (report.force > 0) on++; else off++;
        }
        // both branches were taken: on the road (a force) and off it (none)
        expect(on).toBeGreaterThan(5);
        expect(off).toBeGreaterThan(5);
      });
    }
  }

  it('the force is k p + c ṗ at the rim\'s lowest point, upward (an upright wheel sinking onto the ground)', () => {
    const system = new System(100);
    const wheel = system.addPose('wheel', P.pose([0, 0, 290], [1, 0, 0, 0]));
    const tyre = new TyreForce('tyre', wheel, [0, 0, 0], [0, 1, 0], 300, 200, 2, 0);
    const Q = new Float64Array(6), offsets = Int32Array.of(system.variables[wheel].offset);
    // sinking at 100 mm/s: p = 10 mm, ṗ = 100 mm/s
    tyre.evaluate(system.state, offsets, Float64Array.of(0, 0, 0, 0, 0, -100), 0, Q, null, null);
    expect(tyre.last.penetration).toBeCloseTo(10, 12);
    expect(Q[5]).toBeCloseTo(200 * 10 + 2 * 100, 9);
    expect(tyre.potential(system.state, offsets)).toBeCloseTo(0.5 * 200 * 100, 9);
    expect(tyre.dissipation(system.state, offsets, Float64Array.of(0, 0, 0, 0, 0, -100))).toBeCloseTo(2 * 100 * 100, 6);
  });
});
