/**
 * mates/bushing-values.ts (a bushing's Q at rest, by hand) against BushingForce's dual pass
 * (asked for K and C, so it takes the duals): random non-unit poses, frames and rates, with
 * the part turned far from the chassis frame (θ by atan2) and by less than a degree (the
 * series at rest). The same operations in the same order, so Q and the report (force,
 * moment, point, translation, rotation) are the dual pass's bit for bit, at rest and with the
 * bodies moving (the damping terms).
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { BushingForce } from '../../mates/forces';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';

/** A bushing between two random poses; `near`: B's pose is A's turned by under a degree (θ by the series). */
function randomBushing(seed: number, near: boolean): { system: System; element: BushingForce; offsets: Int32Array } {
  const r = rng(seed);
  const system = new System(100);
  const qa = quat(r);
  const a = system.addPose('A', P.pose(vec(r, 200), qa));
  let qb = quat(r);
  if (near) {
    const h = between(r, -0.007, 0.007), s = Math.hypot(qa[0], qa[1], qa[2], qa[3]);
    // qa normalised, turned by 2h about x, then scaled (a pose's quaternion need not be unit)
    const u = qa.map((x) => x / s), c = Math.cos(h), sn = Math.sin(h);
    qb = [u[0] * c - u[1] * sn, u[0] * sn + u[1] * c, u[2] * c + u[3] * sn, -u[2] * sn + u[3] * c].map((x) => x * 1.3) as typeof qb;
  }
  const b = system.addPose('B', P.pose(vec(r, 200), qb));
  const frame = near ? [1, 0, 0, 0] : quat(r);
  const element = new BushingForce('bu', a, vec(r, 50), frame, b, vec(r, 50), frame,
    [between(r, 100, 9000), between(r, 100, 9000), between(r, 100, 9000)], [between(r, 0, 3e5), between(r, 0, 3e5), between(r, 0, 3e5)],
    [1, 2, 3], [40, 50, 60]);
  return { system, element, offsets: Int32Array.of(system.variables[a].offset, system.variables[b].offset) };
}

describe('bushing values by hand vs the dual pass', () => {
  for (const near of [false, true]) {
    it(near ? 'turned by under a degree (the series at rest)' : 'turned anywhere (atan2)', () => {
      for (let k = 0; k < 25; k++) {
        const { system, element, offsets } = randomBushing(9100 + 31 * k + (near ? 7 : 0), near);
        const rest = new Float64Array(12);
        const byHand = new Float64Array(12), byDuals = new Float64Array(12);
        element.evaluate(system.state, offsets, rest, 0, byHand, null, null);
        const report = structuredClone(element.last);
        // by hand: the width-0 dual twin of the values pass was never made
        expect((element as unknown as { valueTwin: unknown }).valueTwin, 'the values took the dual pass').toBeNull();
        element.evaluate(system.state, offsets, rest, 0, byDuals, new Float64Array(144), new Float64Array(144));
        expect(Array.from(byHand), `#${k} Q`).toEqual(Array.from(byDuals));
        expect(byDuals.some((x) => x !== 0)).toBe(true);
        for (const key of ['translation', 'rotation', 'force', 'moment', 'at'] as const) expect(Array.from(report[key]), `#${k} ${key}`).toEqual(Array.from(element.last[key]));
        const turn = Math.hypot(...element.last.rotation);
        expect(near ? turn < 0.02 : turn > 0.02).toBe(true);
      }
    });
  }

  it('a rate set in place (the compliance gradients\' unit rates) is read at the next evaluation', () => {
    const { system, element, offsets } = randomBushing(4242, false);
    const rest = new Float64Array(12), before = new Float64Array(12), after = new Float64Array(12), byDuals = new Float64Array(12);
    element.evaluate(system.state, offsets, rest, 0, before, null, null);
    element.stiffness[1] *= 3;
    element.evaluate(system.state, offsets, rest, 0, after, null, null);
    element.evaluate(system.state, offsets, rest, 0, byDuals, new Float64Array(144), null);
    expect(Array.from(after)).not.toEqual(Array.from(before));
    expect(Array.from(after)).toEqual(Array.from(byDuals));
  });

  it('moving bodies: the damping force and moment by hand, the dual pass\'s bits', () => {
    for (let k = 0; k < 25; k++) {
      const { system, element, offsets } = randomBushing(777 + 13 * k, k % 2 === 1);
      const r = rng(31 + k);
      const moving = Float64Array.from({ length: 12 }, (_, i) => (i % 6 < 3 ? between(r, -2, 2) : between(r, -300, 300)));
      if (k % 5 === 4) moving.fill(0, 0, 6); // A at rest (the chassis side), B moving
      const byHand = new Float64Array(12), byDuals = new Float64Array(12), rest = new Float64Array(12);
      element.evaluate(system.state, offsets, moving, 0, byHand, null, null);
      const report = structuredClone(element.last);
      expect((element as unknown as { valueTwin: unknown }).valueTwin, 'the values took the dual pass').toBeNull();
      element.evaluate(system.state, offsets, moving, 0, byDuals, new Float64Array(144), new Float64Array(144));
      expect(Array.from(byHand), `#${k} Q`).toEqual(Array.from(byDuals));
      for (const key of ['translation', 'rotation', 'force', 'moment', 'at'] as const) expect(Array.from(report[key]), `#${k} ${key}`).toEqual(Array.from(element.last[key]));
      // the damping acts: the force differs from the one at rest
      element.evaluate(system.state, offsets, new Float64Array(12), 0, rest, null, null);
      expect(byHand.some((x, i) => x !== rest[i]), `#${k} damped`).toBe(true);
    }
  });
});
