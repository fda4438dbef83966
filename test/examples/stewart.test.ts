/**
 * A 6-6 Stewart platform (UPS legs): the six leg lengths driven from home to those of a
 * target pose in 20 equal steps (hold + setCoordinate + solveModel per step); the platform
 * follows continuously and ends on the target pose.
 */
import { describe, expect, it } from 'vitest';
import { STEWART_HOME, legLengths, stewartDoc } from '../../examples/mechanisms/stewart';
import { axisAngle, qconj, qmul, type Q4, type Transform, type V3 } from '../../examples/mechanisms/geometry';
import { dofModel, holdCoordinate, setCoordinate, solveModel } from '../../src/model/operations';
import { load } from './helpers';

const TARGET: Transform = { q: axisAngle([1, 2, 3], (8 * Math.PI) / 180), t: [0.1, -0.05, 1.15] };

function poseOf(state: Record<string, unknown>): Transform {
  const p = state['platform.pose'] as { position: V3; rotation: Q4 };
  const n = Math.hypot(...p.rotation);
  return { t: p.position, q: p.rotation.map((x) => x / n) as Q4 };
}
/** Angle (rad) of the turn between two unit quaternions. */
function turnBetween(a: Q4, b: Q4): number {
  const d = qmul(qconj(a), b);
  return 2 * Math.atan2(Math.hypot(d[1], d[2], d[3]), Math.abs(d[0]));
}
const distance = (a: Transform, b: Transform) => Math.hypot(a.t[0] - b.t[0], a.t[1] - b.t[1], a.t[2] - b.t[2]) + turnBetween(a.q, b.q);

describe('Stewart platform', () => {
  it('the platform has six degrees of freedom; held legs leave none', () => {
    const model = load(stewartDoc());
    expect(solveModel(model).status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(6);
    expect(d.parts.platform).toBe(6);
    expect(d.conflicting).toEqual([]);
    for (let i = 1; i <= 6; i++) holdCoordinate(model, `leg${i}.slide`);
    const held = solveModel(model);
    expect(held.status).toBe('solved');
    // the legs' lengths as the model reads them are the inverse kinematics of home
    legLengths(STEWART_HOME).forEach((len, i) => expect(held.state[`leg${i + 1}.slide`]).toBeCloseTo(len, 12));
  });

  it('driving the six leg lengths home → target in 20 steps moves the platform continuously onto the target', () => {
    const model = load(stewartDoc());
    const from = legLengths(STEWART_HOME), to = legLengths(TARGET);
    for (let i = 1; i <= 6; i++) holdCoordinate(model, `leg${i}.slide`);
    let previous = STEWART_HOME;
    const moves: number[] = [];
    for (let k = 1; k <= 20; k++) {
      for (let i = 0; i < 6; i++) setCoordinate(model, `leg${i + 1}.slide`, from[i] + ((to[i] - from[i]) * k) / 20);
      const result = solveModel(model);
      expect(result.status, `step ${k}`).toBe('solved');
      const pose = poseOf(result.state);
      // the platform is where its legs say (inverse kinematics of the solved pose)
      legLengths(pose).forEach((len, i) => expect(Math.abs(len - (from[i] + ((to[i] - from[i]) * k) / 20))).toBeLessThan(1e-9));
      moves.push(distance(previous, pose));
      previous = pose;
    }
    // continuous: every step moves about a twentieth of the way, none jumps
    const total = distance(STEWART_HOME, TARGET);
    for (const m of moves) {
      expect(m).toBeGreaterThan(0.5 * (total / 20));
      expect(m).toBeLessThan(1.5 * (total / 20));
    }
    expect(Math.hypot(previous.t[0] - TARGET.t[0], previous.t[1] - TARGET.t[1], previous.t[2] - TARGET.t[2])).toBeLessThan(1e-9);
    expect(turnBetween(previous.q, TARGET.q)).toBeLessThan(1e-9);
  });
});
