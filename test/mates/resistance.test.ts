/**
 * Drag and coordinate friction (pwdsim's dissipative terms): Q, K = ∂Q/∂δ and C = ∂Q/∂v
 * against central differences, the laws against their closed forms, and the power each
 * reports equal to −Q·v (what the energy budget integrates).
 */
import { describe, expect, it } from 'vitest';
import * as P from '../../kernel/pose';
import { System } from '../../kernel/system';
import { CoordinateFrictionForce, DragForce } from '../../mates/resistance';
import { validateAssembly } from '../../src/assembly';
import { buildDynamics } from '../../src/mechanics/build';
import { forceDerivatives, relativeError } from '../mechanics/helpers';
import { rng } from '../util/rng';
import { wheelOnTrack } from './rolling-models';

function body(seed: number) {
  const r = rng(seed);
  const system = new System(100);
  const b = system.addPose('b', P.pose([(r() - 0.5) * 100, (r() - 0.5) * 100, (r() - 0.5) * 100], [r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5]));
  const velocity = Float64Array.from({ length: 6 }, (_, i) => (r() - 0.5) * (i < 3 ? 4 : 4000));
  return { system, b, velocity };
}
const offsetsOf = (system: System, vars: readonly number[]) => new Int32Array(vars.map((v) => system.variables[v].offset));

describe('drag', () => {
  it('K and C by forward AD equal central differences; F = k|v|² against v; power k|v|³ = −Q·v', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const { system, b, velocity } = body(seed * 104729);
      const at = [30, -12, 8], k = 0.5 * 1.204e-12 * 0.4 * 1800;
      const drag = new DragForce('drag', b, at, k);
      const { Q, K, C, Kfd, Cfd } = forceDerivatives(system, drag, velocity, 0);
      // in body axes the drag does not depend on where the body is: K vanishes (to rounding, against Q's size)
      const size = Math.max(...Q.map(Math.abs));
      expect(relativeError(K, Kfd, size)).toBeLessThan(1e-6);
      expect(relativeError(C, Cfd)).toBeLessThan(1e-6);
      drag.evaluate(system.state, offsetsOf(system, drag.vars), velocity, 0, new Float64Array(6), null, null); // `last` at the nominal state
      // the point's world velocity, independently: R (ω × p + v)
      const pose = system.getPose(b);
      const w = velocity.subarray(0, 3), v = velocity.subarray(3, 6);
      const local = [w[1] * at[2] - w[2] * at[1] + v[0], w[2] * at[0] - w[0] * at[2] + v[1], w[0] * at[1] - w[1] * at[0] + v[2]];
      const vw = P.applyDirection(new Float64Array(3), pose, local);
      const speed = Math.hypot(vw[0], vw[1], vw[2]);
      expect(drag.last.force / (k * speed * speed)).toBeCloseTo(1, 12);
      let power = 0;
      for (let i = 0; i < 6; i++) power -= Q[i] * velocity[i];
      const reported = drag.dissipation(system.state, offsetsOf(system, drag.vars), velocity);
      expect(reported / (k * speed ** 3)).toBeCloseTo(1, 12);
      expect(power / reported).toBeCloseTo(1, 12);
    }
  });

  it('at rest: no force, no power', () => {
    const { system, b } = body(3);
    const drag = new DragForce('drag', b, [1, 2, 3], 1e-9);
    const Q = new Float64Array(6);
    drag.evaluate(system.state, offsetsOf(system, drag.vars), new Float64Array(6), 0, Q, new Float64Array(36), new Float64Array(36));
    expect(Array.from(Q)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe('coordinate friction', () => {
  it('Q = −F tanh(ẋ/v_reg), C = −F(1 − tanh²)/v_reg, power F tanh·ẋ ≥ 0', () => {
    const system = new System(1);
    const x = system.addScalar('x', 0.3);
    const friction = new CoordinateFrictionForce('f', x, 2.5, 0.01);
    for (const rate of [-3, -0.02, -0.001, 0, 0.004, 0.5, 7]) {
      const velocity = Float64Array.of(rate);
      const { Q, K, C, Kfd, Cfd } = forceDerivatives(system, friction, velocity, 0, 1e-7);
      expect(Q[0]).toBeCloseTo(-2.5 * Math.tanh(rate / 0.01), 12);
      expect(K[0]).toBe(0);
      expect(relativeError(K, Kfd)).toBeLessThan(1e-9);
      expect(relativeError(C, Cfd)).toBeLessThan(1e-5);
      const power = friction.dissipation(system.state, offsetsOf(system, friction.vars), velocity);
      expect(power).toBeGreaterThanOrEqual(0);
      expect(power).toBeCloseTo(-Q[0] * rate, 12);
    }
  });
});

describe('in files', () => {
  it('drag and coordinate_friction load, convert their units and are refused with the path named', () => {
    const doc = wheelOnTrack({ radius: 15, centre: [0, 15], track: 'plane', extra: {} });
    const withForces = (forces: unknown) => ({ ...doc, parts: { ...doc.parts, wheel: { ...doc.parts.wheel, points: { cg: [0, 0, 0] } } }, forces });
    const dyn = buildDynamics(validateAssembly(withForces({
      air: { type: 'drag', at: 'wheel.cg', cd: 0.5, area: 2000 },
      bearing: { type: 'coordinate_friction', coordinate: 'jP.angle', force: 0.2, regularization: 5 },
    })));
    const air = dyn.elements.find((e) => e.id === 'air')!.block as DragForce;
    expect(air.coefficient).toBeCloseTo(0.5 * 1.204e-12 * 0.5 * 2000, 25);
    const bearing = dyn.elements.find((e) => e.id === 'bearing')!.block as CoordinateFrictionForce;
    expect(bearing.regularization).toBeCloseTo((5 * Math.PI) / 180, 15);
    expect(() => validateAssembly(withForces({ air: { type: 'drag', at: 'wheel.cg', cd: -1, area: 1 } }))).toThrow('forces.air.cd: cd must not be negative, got -1');
    expect(() => validateAssembly(withForces({ air: { type: 'drag', at: 'wheel.rim', cd: 1, area: 1 } }))).toThrow('forces.air.at: a drag needs a point here; "wheel.rim" is a circle');
    expect(() => validateAssembly(withForces({ f: { type: 'coordinate_friction', coordinate: 'jP.angle', force: 1, regularization: 0 } }))).toThrow('forces.f.regularization: regularization must be positive, got 0');
    expect(() => validateAssembly(withForces({ f: { type: 'coordinate_friction', coordinate: 'jP.turn', force: 1 } }))).toThrow(/forces\.f\.coordinate: mate "jP" \(planar\) has no coordinate "turn"/);
  });
});
