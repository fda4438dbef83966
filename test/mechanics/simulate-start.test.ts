/**
 * The start and the constraint bound of a run: initial velocities projected onto the velocity
 * constraints (the projection's size reported), and |Φ| bounded relative to the model's size
 * so that a model far from the origin runs as it does at the origin.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { simulate } from '../../src/mechanics/simulate';

const pendulumJson = () => JSON.parse(readFileSync('examples/pendulum.kinemate.json', 'utf8'));

describe('initial velocities', () => {
  it('a turn rate about the hinge is kept (projection 0) and gives the kinetic energy ½ m (ωL)²', () => {
    const j = pendulumJson();
    j.velocities = { 'bob.pose': { angular: [0, 30, 0] } }; // deg/s about the hinge (+y)
    const r = simulate(parseAssembly(JSON.stringify(j)), { duration: 0.001, step: 0.001 });
    const w = (30 * Math.PI) / 180;
    // the given rates weigh 10¹⁰ against the hinge's own rate: kept to that ratio (1000 mm × 0.52 rad/s × 1e-10)
    expect(r.velocity_projection).toBeLessThan(1e-9 * 1000 * w);
    expect(r.frames[0].energy.kinetic).toBeCloseTo(0.5 * 1 * w * w, 9); // 1 kg at 1 m, J
    expect((r.frames[0].velocities['pivot.angle'] as number)).toBeCloseTo(30, 7);
  });

  it('a turn rate the hinge cannot take is removed, its size reported in mm/s (turn rate × length scale)', () => {
    const j = pendulumJson();
    j.velocities = { 'bob.pose': { angular: [12, 30, 0], linear: [0, 0, 0] } };
    const r = simulate(parseAssembly(JSON.stringify(j)), { duration: 0.001, step: 0.001 });
    const v = r.frames[0].velocities['bob.pose'] as { linear: number[]; angular: number[] };
    // what is left turns about +y only, at the given rate (the given slots are kept as far as the mates allow)
    expect(Math.abs(v.angular[0])).toBeLessThan(1e-9);
    expect(v.angular[1]).toBeCloseTo(30, 7);
    // the length scale is the model's bounding-box diagonal: the 1 m rod
    expect(r.velocity_projection).toBeCloseTo(1000 * (12 * Math.PI) / 180, 6);
  });

  it('a velocity along the rod is removed: the bob moves perpendicular to it', () => {
    const j = pendulumJson();
    // bob at 90°: the rod is horizontal; a velocity of the bob's origin (the hinge) is not allowed at all
    j.velocities = { 'bob.pose': { linear: [300, 0, 400] } };
    const r = simulate(parseAssembly(JSON.stringify(j)), { duration: 0.001, step: 0.001 });
    const v = r.frames[0].velocities['bob.pose'] as { linear: number[]; angular: number[] };
    expect(Math.hypot(...v.linear)).toBeLessThan(1e-6);
    expect(r.velocity_projection).toBeCloseTo(500, 6);
    expect(r.frames[0].energy.kinetic).toBeLessThan(1e-12);
  });
});

describe('constraint bound relative to the model size', () => {
  it('a double pendulum 10⁶ mm from the origin runs 3 s as it does at the origin (an absolute 1e-10 mm bound failed at 2.39 s)', () => {
    const run = (offset: number) => {
      const j = JSON.parse(readFileSync('examples/double-pendulum.kinemate.json', 'utf8'));
      for (const p of Object.values<{ pose: { position: number[] } }>(j.parts)) p.pose.position[0] += offset;
      return simulate(parseAssembly(JSON.stringify(j)), { duration: 3, step: 0.001, every: 100 });
    };
    const near = run(0), far = run(1e6);
    expect(near.status).toBe('completed');
    expect(far.status).toBe('completed');
    const coords = Object.keys(near.frames[0].state).filter((k) => typeof near.frames[0].state[k] === 'number');
    expect(coords.length).toBe(2);
    near.frames.forEach((f, i) => {
      for (const c of coords) expect(Math.abs((far.frames[i].state[c] as number) - (f.state[c] as number))).toBeLessThan(1e-4);
      // the bound: 1e-10 of the model's size (here the distance from the origin)
      expect(far.frames[i].residual).toBeLessThan(1e-10 * 1.01e6);
    });
  });
});
