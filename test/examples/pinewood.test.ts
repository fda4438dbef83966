/**
 * The pinewood-derby car (seed 002): one degree of freedom; at the start pin the normal
 * forces of the two axles and the pin's force against the closed forms of a rigid car on a
 * straight incline; released, its acceleration M g sin α / (M + Σ I/r²) (g sin α without
 * wheel inertia: pwdsim's simple physics).
 */
import { describe, expect, it } from 'vitest';
import { PINEWOOD_CAR, PINEWOOD_TRACK, pinewoodDoc, pinewoodTrackPoints } from '../../examples/mechanisms/pinewood';
import { pinewoodResults } from '../../examples/mechanisms/pinewood-results';
import * as P from '../../kernel/pose';
import { validateAssembly } from '../../src/assembly';
import { buildDynamics } from '../../src/mechanics/build';
import { reduce } from '../../src/mechanics/reduced';
import { statics, type Wrench } from '../../src/mechanics/statics';
import { dofModel, solveModel } from '../../src/model/operations';

const g = 9.80665; // m/s²
const car = PINEWOOD_CAR;
const alpha = (PINEWOOD_TRACK.rampDegrees * Math.PI) / 180;
const totalMass = car.bodyMass + 2 * car.axleMass;

describe('pinewood car', () => {
  it('track: 42 ft of smooth curve from 4 ft up, a 25° ramp eased to a level flat', () => {
    const pts = pinewoodTrackPoints();
    expect(pts[0][1]).toBeCloseTo(PINEWOOD_TRACK.height, 6);
    expect(pts[pts.length - 1][1]).toBe(0);
    const slope = (pts[1][1] - pts[0][1]) / (pts[1][0] - pts[0][0]);
    expect(Math.atan(-slope)).toBeCloseTo(alpha, 9);
    // the height never rises and the slope never steepens past the ramp's
    for (let i = 1; i < pts.length; i++) {
      const s = (pts[i][1] - pts[i - 1][1]) / (pts[i][0] - pts[i - 1][0]);
      expect(s).toBeLessThanOrEqual(1e-9);
      expect(s).toBeGreaterThanOrEqual(slope - 1e-9);
    }
  });

  it('has one degree of freedom and solves where it was drawn', () => {
    const dyn = buildDynamics(validateAssembly(pinewoodDoc()));
    expect(solveModel(dyn.model).status).toBe('solved');
    const d = dofModel(dyn.model);
    expect(d.dof).toBe(1);
    expect(d.redundant).toEqual([]);
  });

  it('held at the start: holding force M g sin α, axle normal forces from the moments about the rear contact, no front traction', () => {
    const doc = pinewoodDoc();
    const dyn = buildDynamics(validateAssembly({ ...doc, held: ['rearRoll.u'] }));
    const result = statics(dyn);
    expect(result.status).toBe('solved');
    const W = (m: number) => m * g;
    // the pin holds the car against its weight along the ramp (N; the coordinate is the rear contact's arc length, mm)
    expect(Math.abs(result.drivers['rearRoll.u']) / W(totalMass)).toBeCloseTo(Math.sin(alpha), 9);
    // moments about the rear contact: weights at their distances along and heights above the
    // ramp; holding the rear contact's coordinate pushes the rear axle (height r) back up the ramp
    // (the rear wheels turn freely on it, so no traction can hold them)
    const r = car.wheelRadius;
    const moment = W(car.bodyMass) * (Math.cos(alpha) * car.cg[0] + Math.sin(alpha) * (r + car.cg[2]))
      + W(car.axleMass) * (Math.cos(alpha) * 0 + Math.sin(alpha) * r)
      + W(car.axleMass) * (Math.cos(alpha) * car.wheelbase + Math.sin(alpha) * r)
      - W(totalMass) * Math.sin(alpha) * r;
    const front = moment / car.wheelbase;
    const rear = W(totalMass) * Math.cos(alpha) - front;
    const rearRoll = result.reactions.rearRoll as Wrench, frontRoll = result.reactions.frontRoll as Wrench;
    expect(frontRoll.normal! / front).toBeCloseTo(1, 9);
    expect(rearRoll.normal! / rear).toBeCloseTo(1, 9);
    expect(Math.abs(frontRoll.traction!) / W(totalMass)).toBeLessThan(1e-9);
    expect(-rearRoll.traction! / W(totalMass)).toBeCloseTo(Math.sin(alpha), 9);
  });

  for (const { label, inertia } of [{ label: 'with its wheels\' spin inertia', inertia: car.axleInertia }, { label: 'without (simple physics)', inertia: 0 }]) {
    it(`released on the ramp ${label}: a = M g sin α / (M + Σ I/r²)`, () => {
      const dyn = buildDynamics(validateAssembly(pinewoodDoc({ axleInertia: inertia }, { resistances: false })));
      expect(solveModel(dyn.model).status).toBe('solved');
      // at rest the acceleration along the one free motion is f / M_r; the body's origin moves along N
      const red = reduce(dyn, { mass: true });
      expect(red.k).toBe(1);
      const rate = red.f[0] / red.Mr![0];
      const body = dyn.model.parts.get('body')!;
      const slot = red.layout[body];
      const v = P.applyDirection(new Float64Array(3), dyn.system.getPose(body), red.N.subarray(slot + 3, slot + 6));
      const accel = rate * Math.hypot(v[0], v[1], v[2]) / 1000; // m/s²
      const expected = totalMass * g * Math.sin(alpha) / (totalMass + (2 * inertia) / (car.wheelRadius * car.wheelRadius));
      expect(accel / expected).toBeCloseTo(1, 9);
      // downhill: +x, −z
      expect(Math.sign(rate * v[0])).toBe(1);
      expect(Math.sign(rate * v[2])).toBe(-1);
    });
  }
});

describe('pinewood results from frames', () => {
  // synthetic frames: the body level, moving along +x at 2 m/s and spinning nowhere; the finish line at x = 1000
  const frame = (t: number, rear: number, front: number) => ({
    t,
    state: { 'body.pose': { position: [2000 * t, 0, 15], rotation: [1, 0, 0, 0] } },
    velocities: { 'body.pose': { linear: [2000, 0, 0], angular: [0, 0, 0] } },
    energy: { kinetic: 0, potential: 0, elastic: 0, dissipated: 0, external: 0, total: 0 },
    reactions: { rearRoll: { normal: rear }, frontRoll: { normal: front } },
  });
  const geometry = { finishX: 1000, nose: [146, 0, 10], cg: [25.4, 0, 22], rearMate: 'rearRoll', frontMate: 'frontRoll', angleFactor: Math.PI / 180 };

  it('interpolates the nose crossing the finish line, and reports the speed there', () => {
    const frames = Array.from({ length: 11 }, (_, i) => frame(i * 0.05, 0.9, 0.4));
    const r = pinewoodResults(frames, geometry);
    expect(r.finishTime).toBeCloseTo((1000 - 146) / 2000, 12);
    expect(r.finishSpeed).toBeCloseTo(2, 12);
    expect(r.maxSpeed).toBeCloseTo(2, 12);
    expect(r.minNormalForce).toEqual({ rear: 0.9, front: 0.4 });
    expect(r.warnings).toEqual([]);
  });

  it('warns when an axle would lift off before the finish (not after), and gives no finish time when the car does not arrive', () => {
    const frames = Array.from({ length: 11 }, (_, i) => frame(i * 0.05, 0.9, i === 3 ? -0.1 : i === 10 ? -5 : 0.4));
    const r = pinewoodResults(frames, geometry);
    expect(r.minNormalForce.front).toBe(-0.1);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/front axle's normal force goes negative at t = 0\.1500 s/);
    const short = pinewoodResults(frames.slice(0, 5), geometry);
    expect(short.finishTime).toBeNull();
  });

  it('the centre of gravity\'s speed includes the body\'s pitch rate', () => {
    const f = frame(0, 1, 1);
    (f.velocities['body.pose'] as { angular: number[] }).angular = [0, 90, 0]; // deg/s about y
    const r = pinewoodResults([f], geometry);
    const w = Math.PI / 2;
    // v = (2000, 0, 0) + ω ŷ × (25.4, 0, 22) = (2000 + 22ω, 0, −25.4ω)
    expect(r.series[0].speed).toBeCloseTo(Math.hypot(2000 + 22 * w, 25.4 * w) / 1000, 12);
  });
});
