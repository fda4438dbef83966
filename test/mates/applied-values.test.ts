/**
 * An applied force's and torque's Q written out by hand (mates/applied-values.ts) is the
 * dual pass's Q bit for bit (zeros' signs included), and so is its report: random poses with
 * non-unit quaternions, world and body axes, with and without a scale of time.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { BodyTorque, LinearLaw, PointForce } from '../../mates/forces';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';

const same = (a: ArrayLike<number>, b: ArrayLike<number>, label: string): void => {
  for (let i = 0; i < a.length; i++) expect(Object.is(a[i], b[i]), `${label}[${i}]: ${a[i]} vs ${b[i]}`).toBe(true);
};

describe('applied force and torque values by hand', () => {
  it('are the dual pass, bit for bit', () => {
    for (let k = 0; k < 40; k++) {
      const r = rng(5100 + 3 * k);
      const system = new System(100);
      const a = system.addPose('A', P.pose(vec(r, 500), quat(r)));
      const offsets = Int32Array.of(system.variables[a].offset);
      const vector = vec(r, 3000), at = vec(r, 300), inBody = k % 2 === 1, t = between(r, 0, 2);
      // some components exactly zero, as a document's loads have them
      if (k % 3 === 0) vector[1] = 0;
      const scale = k % 4 < 2 ? new LinearLaw(between(r, 0.5, 2), 0, between(r, 0.5, 1)) : null;
      const full = (e: PointForce | BodyTorque): Float64Array => {
        const Q = new Float64Array(6);
        e.evaluate(system.state, offsets, new Float64Array(6), t, Q, new Float64Array(36), new Float64Array(36));
        return Q;
      };
      const alone = (e: PointForce | BodyTorque): Float64Array => {
        const Q = new Float64Array(6);
        e.evaluate(system.state, offsets, new Float64Array(6), t, Q, null, null);
        return Q;
      };
      const f1 = new PointForce('f', a, at, vector, inBody, scale), f2 = new PointForce('f', a, at, vector, inBody, scale);
      same(alone(f2), full(f1), `force #${k} Q`);
      same(f2.last.force, f1.last.force, `force #${k} last.force`);
      same(f2.last.at, f1.last.at, `force #${k} last.at`);
      const m1 = new BodyTorque('m', a, vector, inBody, scale), m2 = new BodyTorque('m', a, vector, inBody, scale);
      same(alone(m2), full(m1), `torque #${k} Q`);
      same(m2.last.moment, m1.last.moment, `torque #${k} last.moment`);
    }
  });
});
