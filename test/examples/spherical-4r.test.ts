/**
 * Spherical 4R (all axes through the origin): arcs ground 70°, crank 20°, coupler 60°,
 * rocker 50°. The output angle against the closed form of examples/mechanisms/spherical-4r.ts
 * (the cone of half-angle 60° about the crank axis meets the cone of half-angle 50° about
 * the output's ground axis), over two full crank turns.
 */
import { describe, expect, it } from 'vitest';
import { SPHERICAL_4R, crankAxis, outputAngle, outputAxis, spherical4RDoc } from '../../examples/mechanisms/spherical-4r';
import { dot } from '../../examples/mechanisms/geometry';
import { dofModel, driveModel, solveModel } from '../../src/model/operations';
import { RAD, degDiff, load } from './helpers';

describe('spherical 4R', () => {
  it('is a spherical Grashof crank-rocker: the 20° input turns fully', () => {
    const arcs = Object.values(SPHERICAL_4R);
    const s = Math.min(...arcs), l = Math.max(...arcs);
    expect(s + l).toBeLessThanOrEqual(arcs.reduce((a, b) => a + b, 0) - s - l);
    expect(s).toBe(SPHERICAL_4R.input); // shortest arc, next to the ground: the crank
    // the closed form exists for every crank angle, and closes the loop (b·c = cos 60°)
    for (let deg = 0; deg < 360; deg += 0.5) {
      const psi = outputAngle(deg * RAD);
      expect(Number.isFinite(psi)).toBe(true);
      expect(dot(crankAxis(deg * RAD), outputAxis(psi))).toBeCloseTo(Math.cos(SPHERICAL_4R.coupler * RAD), 12);
    }
  });

  it('has one degree of freedom, with redundant (consistent) rows', () => {
    const model = load(spherical4RDoc(0));
    const solved = solveModel(model);
    expect(solved.status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(1);
    expect(d.redundant.length).toBeGreaterThan(0); // six loop rows, three of them implied in a spherical loop
    expect(d.conflicting).toEqual([]);
  });

  it('driven two full crank turns in 1° steps, the output follows the closed form to 1e-6°', () => {
    const model = load(spherical4RDoc(0));
    const { steps } = driveModel(model, 'jA.angle', 0, 720, 720);
    expect(steps).toHaveLength(721);
    let worst = 0, lo = Infinity, hi = -Infinity, previous: number | null = null;
    for (const step of steps) {
      expect(step.status).toBe('solved');
      const psi = step.state['jD.angle'] as number;
      worst = Math.max(worst, degDiff(psi, outputAngle(step.value * RAD) / RAD));
      expect(degDiff(psi, outputAngle(step.value * RAD) / RAD)).toBeLessThan(degDiff(psi, outputAngle(step.value * RAD, -1) / RAD));
      if (previous !== null) expect(Math.abs(psi - previous)).toBeLessThan(5);
      previous = psi;
      lo = Math.min(lo, psi); hi = Math.max(hi, psi);
      // every part turns about the common point: its origin stays there
      for (const part of ['crank', 'coupler', 'rocker']) {
        const pose = step.state[`${part}.pose`] as { position: number[] };
        expect(Math.hypot(...pose.position)).toBeLessThan(1e-9);
      }
    }
    expect(worst).toBeLessThan(1e-6);
    // a rocker: the output swings back and forth over less than a half turn
    expect(hi - lo).toBeGreaterThan(20);
    expect(hi - lo).toBeLessThan(180);
    expect(degDiff(steps[720].state['jD.angle'] as number, steps[0].state['jD.angle'] as number)).toBeLessThan(1e-9);
  });
});
