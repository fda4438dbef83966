/**
 * ForceBlock.refreshedDerivatives (K and C in closed form, for a kept matrix's refresh) of the
 * vertical tyre (mates/tyre-stiffness.ts) and the two-point spring-damper
 * (mates/tension-stiffness.ts) against their dual passes, on random non-unit poses (the tyre
 * with and without a road part, on and off the road). C is exact at any velocity; K is exact
 * at rest and without damping (it leaves out the damping's velocity-dependent terms), and with
 * damping and motion it differs from the pass's by those terms.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { LinearLaw, PointToPointForce, TyreForce } from '../../mates/forces';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';

interface Case { system: System; tyre: TyreForce; offsets: Int32Array; velocity: Float64Array; d: number }

function randomTyre(seed: number, withRoad: boolean, damping: number): Case {
  const r = rng(seed);
  const system = new System(100);
  // the wheel's centre 100–400 mm up, radius 300: on the road about half the time
  const wheel = system.addPose('wheel', P.pose([between(r, -50, 50), between(r, -50, 50), between(r, 100, 400)], quat(r)));
  const road = withRoad ? system.addPose('road', P.pose([between(r, -50, 50), between(r, -50, 50), between(r, -30, 30)], quat(r))) : -1;
  const centre = vec(r, 20), axis = [between(r, -0.2, 0.2), between(r, 0.7, 1.3), between(r, -0.2, 0.2)];
  const roadSpec = withRoad ? { body: road, point: vec(r, 10) } : null;
  const tyre = new TyreForce('tyre', wheel, centre, axis, 300, between(r, 150, 300), damping, between(r, -5, 5), roadSpec);
  const offsets = Int32Array.from(withRoad ? [wheel, road] : [wheel], (v) => system.variables[v].offset);
  const d = withRoad ? 12 : 6;
  const velocity = Float64Array.from({ length: d }, (_, i) => (i % 6 < 3 ? between(r, -3, 3) : between(r, -500, 500)));
  return { system, tyre, offsets, velocity, d };
}

/** Largest |A − B| over the largest |B| (B not all zero), or 0 when both vanish. */
function relativeDifference(A: Float64Array, B: Float64Array): number {
  let diff = 0, scale = 0;
  for (let i = 0; i < A.length; i++) { diff = Math.max(diff, Math.abs(A[i] - B[i])); scale = Math.max(scale, Math.abs(B[i])); }
  return scale === 0 ? diff : diff / scale;
}

describe('tyre K and C in closed form vs the dual pass', () => {
  for (const withRoad of [false, true]) {
    it(`${withRoad ? 'on a road part' : 'on the ground'}: C exact; K exact at rest and undamped, off by the damping's motion terms otherwise`, () => {
      let on = 0, off = 0, motionTerms = 0;
      for (let k = 0; k < 40; k++) {
        for (const damping of [0, 1.5]) {
          const { system, tyre, offsets, velocity, d } = randomTyre(8100 + 37 * k + (withRoad ? 3 : 0), withRoad, damping);
          const slots = Int32Array.from({ length: d }, (_, i) => i);
          for (const moving of [false, true]) {
            const xi = moving ? velocity : new Float64Array(d);
            const Kp = new Float64Array(d * d), Cp = new Float64Array(d * d), Kc = new Float64Array(d * d).fill(NaN), Cc = new Float64Array(d * d).fill(NaN);
            tyre.evaluate(system.state, offsets, xi, 0, new Float64Array(d), Kp, Cp, slots);
            tyre.refreshedDerivatives(system.state, offsets, xi, 0, Kc, Cc, slots);
            const label = `#${k} damping ${damping} ${moving ? 'moving' : 'at rest'}`;
            expect(relativeDifference(Cc, Cp), `${label} C`).toBeLessThan(1e-12);
            const dK = relativeDifference(Kc, Kp);
            if (!moving || damping === 0) expect(dK, `${label} K`).toBeLessThan(1e-12);
            else if (dK > 1e-9) motionTerms++;
            if (tyre.last.force > 0) on++; else off++;
          }
        }
      }
      // both branches were taken (a force, none), and the left-out terms are there to leave out
      expect(on).toBeGreaterThan(20);
      expect(off).toBeGreaterThan(20);
      expect(motionTerms).toBeGreaterThan(5);
    });
  }
});

describe('spring-damper K and C in closed form vs the dual pass', () => {
  it('C exact; K exact at rest and undamped', () => {
    let motionTerms = 0;
    for (let k = 0; k < 30; k++) {
      const r = rng(9300 + 13 * k);
      const system = new System(100);
      const a = system.addPose('A', P.pose(vec(r, 200), quat(r)));
      const b = system.addPose('B', P.pose(vec(r, 200), quat(r)));
      const spring = new LinearLaw(between(r, 10, 500), between(r, 50, 400), between(r, -2000, 2000));
      const damper = k % 3 ? new LinearLaw(between(r, 1, 5), 0, between(r, -100, 100)) : null;
      const element = new PointToPointForce('e', a, vec(r, 50), b, vec(r, 50), spring, damper);
      const offsets = Int32Array.of(system.variables[a].offset, system.variables[b].offset);
      const velocity = Float64Array.from({ length: 12 }, (_, i) => (i % 6 < 3 ? between(r, -3, 3) : between(r, -500, 500)));
      const slots = Int32Array.from({ length: 12 }, (_, i) => i);
      for (const moving of [false, true]) {
        const xi = moving ? velocity : new Float64Array(12);
        const Kp = new Float64Array(144), Cp = new Float64Array(144), Kc = new Float64Array(144).fill(NaN), Cc = new Float64Array(144).fill(NaN);
        element.evaluate(system.state, offsets, xi, 0, new Float64Array(12), Kp, Cp, slots);
        element.refreshedDerivatives(system.state, offsets, xi, 0, Kc, Cc, slots);
        const label = `#${k} ${damper ? 'damped' : 'undamped'} ${moving ? 'moving' : 'at rest'}`;
        expect(relativeDifference(Cc, Cp), `${label} C`).toBeLessThan(1e-12);
        const dK = relativeDifference(Kc, Kp);
        if (!moving || !damper) expect(dK, `${label} K`).toBeLessThan(1e-12);
        else if (dK > 1e-9) motionTerms++;
      }
    }
    expect(motionTerms).toBeGreaterThan(5);
  });
});
