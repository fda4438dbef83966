/**
 * The realised anti-features of `vehicle --ax` (src/suspension/vehicle/anti.ts) against the
 * side view of the car at rest: with massless wheels, the only longitudinal loads on an axle
 * are its brake forces F at the contacts, so by virtual work the share of the load change
 * ΔFz that bypasses the springs is −F·ẋ/(ż·ΔFz), where (ẋ, ż) is the contact's path against
 * the body per unit of travel (here from the wheel-pair tangent). An independent check of the
 * travel, load and compliance the summary combines.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle, solveVehicle, applyAcceleration, longitudinalSummary } from '../../../src/suspension/vehicle/index';
import { poseTangents, tangentPoses, wheelPairDirection, derivativeReport, accelerationDirection, type PoseRate } from '../../../src/suspension/vehicle/tangent';
import { G } from '../../../src/suspension/vehicle/inertia-load';
import { readVehicle, sedanWith } from './vehicle-sources';

/** The axle files' part and link masses made negligible (1 g). */
const massless = (_path: string, text: string) => {
  const at = text.indexOf('dynamics:');
  return at < 0 ? text : text.slice(0, at) + text.slice(at).replace(/(\w+):\s*\d+(\.\d+)?/g, '$1: 0.001');
};

/** World velocity of the material point x of a part moving along a tangent. */
function pointRate(p: PoseRate, x: ArrayLike<number>): number[] {
  const r = [x[0] - p.p[0], x[1] - p.p[1], x[2] - p.p[2]];
  const l = [0, 1, 2].map((k) => p.R[k] * r[0] + p.R[3 + k] * r[1] + p.R[6 + k] * r[2]);
  const b = [p.v[0] + p.w[1] * l[2] - p.w[2] * l[1], p.v[1] + p.w[2] * l[0] - p.w[0] * l[2], p.v[2] + p.w[0] * l[1] - p.w[1] * l[0]];
  return [0, 1, 2].map((i) => p.R[3 * i] * b[0] + p.R[3 * i + 1] * b[1] + p.R[3 * i + 2] * b[2]);
}

describe('realised anti-dive and anti-lift', () => {
  it('equal the brake forces along the contacts\' side-view paths at rest (massless wheels)', () => {
    const m = buildVehicle(readVehicle(undefined, massless));
    const rest = { ax: 0, ay: 0 };
    expect(solveVehicle(m, rest).status).toBe('solved');
    const summary = longitudinalSummary(m);
    const { deltas, layout } = poseTangents(m, (x) => applyAcceleration(x, rest), [wheelPairDirection('front'), wheelPairDirection('rear'), accelerationDirection('braking', rest)]);
    const braking = derivativeReport(m, tangentPoses(m, deltas[2], layout));
    applyAcceleration(m, rest);
    const n = m.dyn.forces.size;
    m.dyn.forces.assemble(new Float64Array(n), 0, new Float64Array(n), null, null); // contact points at rest
    const bias = m.spec.front_brake_bias!;
    const predicted = (axle: 'front' | 'rear', pair: Float64Array) => {
      const poses = tangentPoses(m, pair, layout);
      let bypass = 0, load = 0;
      m.wheels.forEach((w, i) => {
        if (w.axle !== axle) return;
        const x = m.contacts[i].last.contact;
        const up = pointRate(poses(w.upright), x), body = pointRate(poses('body'), x);
        // the brake force per unit of the braking direction (−1 g), N
        const F = (-m.totalMass * G / 1000) * (axle === 'front' ? bias : 1 - bias) / 2;
        bypass += (-F * (up[0] - body[0])) / (up[2] - body[2]);
        load += braking.load[w.corner];
      });
      return (100 * bypass) / load;
    };
    const front = predicted('front', deltas[0]), rear = predicted('rear', deltas[1]);
    // the sedan's front arms are level in side view at design, its rear's are not
    expect(Math.abs(front)).toBeGreaterThan(1);
    expect(Math.abs(rear)).toBeGreaterThan(40);
    expect(summary.anti_dive!).toBeCloseTo(front, 1);
    expect(summary.anti_lift!).toBeCloseTo(rear, 0);
    expect(Math.abs(summary.anti_lift! - rear) / Math.abs(rear)).toBeLessThan(0.005);
  });

  it('are printed only for the directions the file defines', () => {
    const m = buildVehicle(readVehicle(sedanWith(/\n\s*driven_axle: rear/, '')));
    expect(solveVehicle(m, { ax: 0, ay: 0 }).status).toBe('solved');
    const s = longitudinalSummary(m);
    expect(Number.isFinite(s.anti_dive)).toBe(true);
    expect(Number.isFinite(s.anti_lift)).toBe(true);
    expect(s.anti_squat).toBeUndefined();
  });
});
