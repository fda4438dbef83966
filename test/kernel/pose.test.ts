import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as P from '../../kernel/pose';
import * as Q from '../../kernel/quat';
import { Dual, dSeed } from '../../kernel/dual';

const finite = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
const twist = (maxTurn: number) =>
  fc.tuple(fc.tuple(finite(-1, 1), finite(-1, 1), finite(-1, 1)), finite(0, maxTurn), fc.tuple(finite(-3, 3), finite(-3, 3), finite(-3, 3)))
    .filter(([d]) => Math.hypot(...d) > 1e-3)
    .map(([d, angle, v]) => {
      const n = Math.hypot(...d);
      return Float64Array.from([(d[0] / n) * angle, (d[1] / n) * angle, (d[2] / n) * angle, v[0], v[1], v[2]]);
    });

/** Integrate the constant body twist g' = g·ξ^ over unit time with RK4: the independent route. */
function integrateScrew(xi: Float64Array, steps: number): Float64Array {
  const state = Float64Array.from([0, 0, 0, 1, 0, 0, 0]);
  const w = [xi[0], xi[1], xi[2]], v = [xi[3], xi[4], xi[5]];
  const deriv = (s: Float64Array): Float64Array => {
    const q = s.subarray(3, 7);
    // q' = ½ q ⊗ (0, ω);  t' = R(q) v
    const dq = Q.multiply(new Float64Array(4), q, Float64Array.from([0, w[0], w[1], w[2]]));
    const dt = Q.rotate(new Float64Array(3), q, v);
    // R(q) divides by |q|²; integrating keeps |q| ≈ 1, and the rotation is exact either way
    return Float64Array.from([dt[0], dt[1], dt[2], dq[0] / 2, dq[1] / 2, dq[2] / 2, dq[3] / 2]);
  };
  const h = 1 / steps;
  for (let i = 0; i < steps; i++) {
    const k1 = deriv(state);
    const k2 = deriv(state.map((x, j) => x + (h / 2) * k1[j]));
    const k3 = deriv(state.map((x, j) => x + (h / 2) * k2[j]));
    const k4 = deriv(state.map((x, j) => x + h * k3[j]));
    for (let j = 0; j < 7; j++) state[j] += (h / 6) * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]);
  }
  return state;
}

describe('SE(3) exponential', () => {
  it('turns a quarter turn about z while moving along x into the end of a quarter circle', () => {
    const g = P.exp(new Float64Array(7), [0, 0, Math.PI / 2, 1, 0, 0]);
    expect(g[0]).toBeCloseTo(2 / Math.PI, 12);
    expect(g[1]).toBeCloseTo(2 / Math.PI, 12);
    expect(g[2]).toBe(0);
    const p = P.applyDirection(new Float64Array(3), g, [1, 0, 0]);
    expect(p[0]).toBeCloseTo(0, 14);
    expect(p[1]).toBeCloseTo(1, 14);
  });

  it('agrees with numerically integrating the screw motion to 1e-12', () => {
    fc.assert(fc.property(twist(3), (xi) => {
      const g = P.exp(new Float64Array(7), xi);
      const h = integrateScrew(xi, 3000);
      for (let i = 0; i < 3; i++) expect(Math.abs(g[i] - h[i])).toBeLessThan(1e-12);
      expect(Q.angleBetween(g.subarray(3), h.subarray(3))).toBeLessThan(1e-12);
    }), { numRuns: 40 });
  });

  it('log(exp(ξ)) = ξ, for tiny twists and turns near π alike', () => {
    const check = (xi: Float64Array, tol: number) => {
      const back = P.log(new Float64Array(6), P.exp(new Float64Array(7), xi));
      for (let i = 0; i < 6; i++) expect(Math.abs(back[i] - xi[i])).toBeLessThan(tol * (1 + Math.abs(xi[i])));
    };
    fc.assert(fc.property(twist(3.1), (xi) => check(xi, 1e-12)), { numRuns: 300 });
    fc.assert(fc.property(twist(1e-7), (xi) => check(xi, 1e-14)), { numRuns: 200 });
    fc.assert(fc.property(twist(1e-7).map((x) => x.map((c, i) => (i < 3 ? c * 1e-3 : c))), (xi) => check(xi, 1e-14)), { numRuns: 100 });
    const unit = fc.tuple(finite(-1, 1), finite(-1, 1), finite(-1, 1)).filter((d) => Math.hypot(...d) > 1e-2);
    fc.assert(fc.property(unit, finite(Math.PI - 1e-3, Math.PI - 1e-9), fc.tuple(finite(-3, 3), finite(-3, 3), finite(-3, 3)), (d, angle, v) => {
      const n = Math.hypot(...d);
      const y = Float64Array.from([(d[0] / n) * angle, (d[1] / n) * angle, (d[2] / n) * angle, ...v]);
      if (Math.hypot(y[0], y[1], y[2]) >= Math.PI) return; // rounding past π: log takes the other side
      check(y, 1e-9);
    }), { numRuns: 100 });
  });

  it('its right Jacobian agrees with central differences of log(exp(ξ)⁻¹ exp(ξ + h e_k))', () => {
    fc.assert(fc.property(twist(2.5), (xi) => {
      const J = P.rightJacobian(new Float64Array(36), xi);
      const g = P.exp(new Float64Array(7), xi), gi = P.invert(new Float64Array(7), g);
      const h = 1e-6;
      for (let k = 0; k < 6; k++) {
        const col = (sign: number) => {
          const y = Float64Array.from(xi); y[k] += sign * h;
          return P.log(new Float64Array(6), P.compose(new Float64Array(7), gi, P.exp(new Float64Array(7), y)));
        };
        const a = col(1), b = col(-1);
        for (let i = 0; i < 6; i++) expect(Math.abs((a[i] - b[i]) / (2 * h) - J[i * 6 + k])).toBeLessThan(1e-7);
      }
    }), { numRuns: 40 });
  });

  it('its right Jacobian at zero is the identity, exactly', () => {
    const J = P.rightJacobian(new Float64Array(36), [0, 0, 0, 0, 0, 0]);
    for (let i = 0; i < 6; i++) for (let k = 0; k < 6; k++) expect(J[i * 6 + k]).toBe(i === k ? 1 : 0);
  });

  it('has the identity as its AD derivative at the identity (not zero: the series branch is smooth)', () => {
    const xi = Array.from({ length: 6 }, (_, i) => dSeed(new Dual(6), 0, i));
    const rot = Array.from({ length: 4 }, () => new Dual(6));
    const pos = Array.from({ length: 3 }, () => new Dual(6));
    P.expDual(rot, pos, xi);
    for (let k = 0; k < 6; k++) {
      for (let i = 0; i < 3; i++) {
        expect(2 * rot[i + 1].d[k]).toBe(i === k ? 1 : 0); // d(2·q_vec)/dω = I
        expect(pos[i].d[k]).toBe(i + 3 === k ? 1 : 0); // dt/dv = I
      }
      expect(rot[0].d[k]).toBe(0);
    }
  });

  it('matches its dual form in value on both branches', () => {
    fc.assert(fc.property(twist(3), (xi) => {
      const d = Array.from(xi, (x, i) => dSeed(new Dual(6), x, i));
      const rot = Array.from({ length: 4 }, () => new Dual(6));
      const pos = Array.from({ length: 3 }, () => new Dual(6));
      P.expDual(rot, pos, d);
      const g = P.exp(new Float64Array(7), xi);
      for (let i = 0; i < 3; i++) expect(pos[i].v).toBeCloseTo(g[i], 13);
      for (let i = 0; i < 4; i++) expect(rot[i].v).toBeCloseTo(g[3 + i], 13);
    }), { numRuns: 100 });
  });
});

describe('poses', () => {
  const poseArb = fc.tuple(fc.tuple(finite(-100, 100), finite(-100, 100), finite(-100, 100)), fc.tuple(finite(-2, 2), finite(-2, 2), finite(-2, 2), finite(-2, 2)))
    .filter(([, q]) => Math.hypot(...q) > 0.1)
    .map(([t, q]) => P.pose(t, q));

  it('rotates correctly with non-unit and negated quaternions', () => {
    fc.assert(fc.property(poseArb, finite(0.01, 50), (g, k) => {
      const scaled = Float64Array.from(g); for (let i = 3; i < 7; i++) scaled[i] *= k;
      const negated = Float64Array.from(g); for (let i = 3; i < 7; i++) negated[i] *= -1;
      const p = [1.5, -2, 0.25];
      const a = P.applyPoint(new Float64Array(3), g, p);
      const b = P.applyPoint(new Float64Array(3), scaled, p);
      const c = P.applyPoint(new Float64Array(3), negated, p);
      for (let i = 0; i < 3; i++) { expect(b[i]).toBeCloseTo(a[i], 10); expect(c[i]).toBeCloseTo(a[i], 10); }
      // against the rotation matrix route
      const m = Q.toMatrix(new Float64Array(9), g, 3);
      for (let i = 0; i < 3; i++) expect(m[3 * i] * p[0] + m[3 * i + 1] * p[1] + m[3 * i + 2] * p[2] + g[i]).toBeCloseTo(a[i], 10);
      // rotation preserves lengths
      const r = P.applyDirection(new Float64Array(3), scaled, p);
      expect(Math.hypot(...r)).toBeCloseTo(Math.hypot(...p), 12);
    }));
  });

  it('composes associatively and inverts', () => {
    fc.assert(fc.property(poseArb, poseArb, poseArb, (a, b, c) => {
      const ab_c = P.compose(new Float64Array(7), P.compose(new Float64Array(7), a, b), c);
      const a_bc = P.compose(new Float64Array(7), a, P.compose(new Float64Array(7), b, c));
      const p = [0.3, 0.7, -1.1];
      const x = P.applyPoint(new Float64Array(3), ab_c, p), y = P.applyPoint(new Float64Array(3), a_bc, p);
      for (let i = 0; i < 3; i++) expect(x[i]).toBeCloseTo(y[i], 8);
      const id = P.compose(new Float64Array(7), a, P.invert(new Float64Array(7), a));
      const z = P.applyPoint(new Float64Array(3), id, p);
      for (let i = 0; i < 3; i++) expect(z[i]).toBeCloseTo(p[i], 9);
      const back = P.applyInversePoint(new Float64Array(3), a, P.applyPoint(new Float64Array(3), a, p));
      for (let i = 0; i < 3; i++) expect(back[i]).toBeCloseTo(p[i], 9);
    }));
  });

  it('allows out to alias an input', () => {
    const a = P.pose([1, 2, 3], [0.9, 0.1, -0.3, 0.2]), b = P.pose([-1, 0.5, 2], [0.5, 0.5, 0.5, 0.5]);
    const expected = P.compose(new Float64Array(7), a, b);
    const a2 = Float64Array.from(a);
    P.compose(a2, a2, b);
    expect(Array.from(a2)).toEqual(Array.from(expected));
    const b2 = Float64Array.from(b);
    P.compose(b2, a, b2);
    expect(Array.from(b2)).toEqual(Array.from(expected));
  });

  it('shows Euler angles that rebuild the same rotation', () => {
    fc.assert(fc.property(finite(-179, 179), finite(-89, 89), finite(-179, 179), (roll, pitch, yaw) => {
      const g = P.fromEulerDegrees(new Float64Array(7), roll, pitch, yaw);
      const e = P.toEulerDegrees(g);
      expect(e.roll).toBeCloseTo(roll, 8); expect(e.pitch).toBeCloseTo(pitch, 8); expect(e.yaw).toBeCloseTo(yaw, 8);
    }));
  });
});

describe('pose files', () => {
  it('save → load is bit-exact for any finite doubles, -0 and subnormals included', () => {
    const anyDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
    fc.assert(fc.property(fc.array(anyDouble, { minLength: 7, maxLength: 7 }).filter((a) => a.slice(3).some((x) => x !== 0)), (a) => {
      const g = P.poseFromJSON({ position: a.slice(0, 3), rotation: a.slice(3) });
      const text = JSON.stringify(P.poseToJSON(g), (_k, v) => (Object.is(v, -0) ? '-0' : v));
      const back = JSON.parse(text, (_k, v) => (v === '-0' ? -0 : v));
      const again = P.poseFromJSON(back);
      for (let i = 0; i < 7; i++) expect(Object.is(again[i], a[i])).toBe(true);
    }), { numRuns: 500 });
  });

  it('refuses the zero quaternion, non-finite numbers and bad shapes, saying what is wrong', () => {
    expect(() => P.poseFromJSON({ position: [0, 0, 0], rotation: [0, 0, 0, 0] }, 'parts.crank.pose')).toThrow('parts.crank.pose.rotation: the zero quaternion is not a rotation');
    expect(() => P.poseFromJSON({ position: [0, NaN, 0], rotation: [1, 0, 0, 0] })).toThrow('pose.position[1]: expected a finite number, got NaN');
    expect(() => P.poseFromJSON({ position: [0, 0, Infinity], rotation: [1, 0, 0, 0] })).toThrow('pose.position[2]: expected a finite number, got Infinity');
    expect(() => P.poseFromJSON({ position: [0, 0], rotation: [1, 0, 0, 0] })).toThrow('pose.position: expected an array of 3 numbers');
    expect(() => P.poseFromJSON({ position: [0, 0, 0], rotation: [1, '0', 0, 0] })).toThrow('pose.rotation[1]: expected a number, got "0"');
    expect(() => P.poseFromJSON(null)).toThrow('pose: expected an object');
    expect(() => P.assertRotation([0, 0, 0, 0])).toThrow('the zero quaternion is not a rotation');
  });
});
