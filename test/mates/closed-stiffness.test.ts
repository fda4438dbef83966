/**
 * Two-point springs and applied loads give K alone (K asked without C, ForceSet's slots
 * given) in closed form (mates/tension-stiffness.ts, mates/applied-stiffness.ts): the same
 * K as the element's full dual pass to rounding and the same Q, on random poses with either
 * body fixed; and a compliant state of the DW corner then runs no dual pass for K at all
 * (its track rod, the contact-patch load and its moment took three each).
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { BodyForceBlock, BodyTorque, LinearLaw, PointForce, PointToPointForce } from '../../mates/forces';
import type { ForceBlock } from '../../kernel/forces';
import { kcCoefficients } from '../../src/suspension/compliance/coefficients';
import { example, stateAt } from '../suspension/compliance/helpers';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';

/** The closed form (K without C, with slots) against the full pass (K with C), both bodies free and each fixed. */
function matchesPass(make: () => ForceBlock, offsets: Int32Array, state: Float64Array, bodies: number, label: string): void {
  const d = 6 * bodies;
  const Qd = new Float64Array(d), Kd = new Float64Array(d * d);
  make().evaluate(state, offsets, new Float64Array(d), 0, Qd, Kd, new Float64Array(d * d));
  const scale = Math.max(...Kd.map(Math.abs));
  expect(scale).toBeGreaterThan(0);
  const cases = bodies === 1 ? [[0]] : [[0, 6], [-1, 0], [0, -1]];
  for (const free of cases) {
    const slots = Int32Array.from({ length: d }, (_, i) => (free[Math.floor(i / 6)] < 0 ? -1 : free[Math.floor(i / 6)] + (i % 6)));
    const Q = new Float64Array(d), K = new Float64Array(d * d).fill(NaN);
    make().evaluate(state, offsets, new Float64Array(d), 0, Q, K, null, slots);
    const qScale = Math.max(...Qd.map(Math.abs));
    for (let i = 0; i < d; i++) expect(Math.abs(Q[i] - Qd[i]), `${label} Q[${i}]`).toBeLessThanOrEqual(1e-14 * qScale);
    for (let i = 0; i < d; i++) for (let j = 0; j < d; j++) {
      if (slots[i] < 0 || slots[j] < 0) continue;
      expect(Math.abs(K[i * d + j] - Kd[i * d + j]), `${label} (${free}) K[${i},${j}]`).toBeLessThanOrEqual(1e-12 * scale);
    }
  }
}

describe('closed-form K of springs and applied loads', () => {
  it('a linear spring (with a damper, at rest) is its dual pass', () => {
    for (let k = 0; k < 20; k++) {
      const r = rng(7300 + 11 * k);
      const system = new System(100);
      const a = system.addPose('A', P.pose(vec(r, 200), quat(r)));
      const b = system.addPose('B', P.pose(vec(r, 200), quat(r)));
      const pa = vec(r, 50), pb = vec(r, 50);
      const spring = new LinearLaw(between(r, 10, 500), between(r, 50, 400), between(r, -2000, 2000));
      const damper = k % 2 ? new LinearLaw(between(r, 1, 5), 0, between(r, -100, 100)) : null;
      const offsets = Int32Array.of(system.variables[a].offset, system.variables[b].offset);
      matchesPass(() => new PointToPointForce('e', a, pa, b, pb, spring, damper), offsets, system.state, 2, `#${k}`);
    }
  });

  it('a point force and a torque, in world or body axes, are their dual passes', () => {
    for (let k = 0; k < 20; k++) {
      const r = rng(8300 + 7 * k);
      const system = new System(100);
      const a = system.addPose('A', P.pose(vec(r, 200), quat(r)));
      const offsets = Int32Array.of(system.variables[a].offset);
      const inBody = k % 2 === 1, F = vec(r, 3000), at = vec(r, 300);
      const scale = new LinearLaw(between(r, 0.5, 2), 0, between(r, 0.5, 1));
      if (inBody) {
        // constant in the body's axes: K is round-off in the pass, exact zero here
        const K = new Float64Array(36).fill(NaN), Q = new Float64Array(6);
        new PointForce('f', a, at, F, true, scale).evaluate(system.state, offsets, new Float64Array(6), 0.3, Q, K, null, Int32Array.of(0, 1, 2, 3, 4, 5));
        expect(K.every((x) => x === 0)).toBe(true);
        continue;
      }
      matchesPass(() => new PointForce('f', a, at, F, false, scale), offsets, system.state, 1, `force #${k}`);
      matchesPass(() => new BodyTorque('t', a, F, false, scale), offsets, system.state, 1, `torque #${k}`);
    }
  });

  it('a compliant DW corner state under 3 kN runs no dual pass for K (it ran nine)', () => {
    const s = stateAt(example('double_wishbone_compliant.yaml'));
    s.state.setLoad(0, { force: [0, 3000, 0], moment: [0, 0, 0], at: 'contact_patch' });
    const proto = BodyForceBlock.prototype as unknown as { pass(this: { n: number }, ...args: unknown[]): void };
    const pass = proto.pass;
    let stiffnessPasses = 0;
    proto.pass = function (this: { n: number }, ...args: unknown[]) { if (args[5]) stiffnessPasses++; return pass.apply(this, args); };
    try {
      s.sm.model.system.restore(s.rigid);
      expect(s.state.settle().status).toBe('solved');
      s.sm.evaluate({ derivatives: false });
      s.state.loads();
      expect(kcCoefficients(s.state)[0]?.toe_per_fy).toBeTypeOf('number');
    } finally {
      proto.pass = pass;
    }
    expect(stiffnessPasses).toBe(0);
  });
});
