/**
 * Couplings (gear, rack and pinion, lead screw) against their relations, and a joint limit
 * met by a drag.
 */
import { describe, expect, it } from 'vitest';
import { COUPLINGS, couplingsDoc } from '../../examples/mechanisms/couplings';
import { dofModel, driveModel, modelState, solveModel } from '../../src/model/operations';
import { solve } from '../../kernel/solver/solve';
import type { Model } from '../../src/model/build';
import { RAD, load, worldPoint } from './helpers';

describe('couplings', () => {
  it('the demo assembles: five freedoms (gear, rack, screw, two-link arm) before the drivers', () => {
    const model = load(couplingsDoc());
    expect(solveModel(model).status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(5);
    expect(d.conflicting).toEqual([]);
  });

  it('gear ratio −1/2: the follower turns half as far the other way', () => {
    const model = load(couplingsDoc());
    const r = solveModel(model, { set: { 'jA.angle': 60 } });
    expect(r.status).toBe('solved');
    expect(r.state['jB.angle']).toBeCloseTo(-30, 9);
    const { steps } = driveModel(model, 'jA.angle', 60, 780, 72);
    for (const step of steps) {
      expect(step.status).toBe('solved');
      expect(Math.abs((step.state['jB.angle'] as number) + step.value / 2)).toBeLessThan(1e-9);
    }
  });

  it('rack and pinion, radius 0.5: slide = −0.5·θ (rad)', () => {
    const model = load(couplingsDoc());
    for (const deg of [90, -45, 400]) {
      const r = solveModel(model, { set: { 'jP.angle': deg } });
      expect(r.status).toBe('solved');
      expect(Math.abs((r.state['jR.slide'] as number) + COUPLINGS.rack.radius * deg * RAD)).toBeLessThan(1e-12);
      // the rack part really moved along x by its slide
      expect(worldPoint(model, 'rack', [0, 0, 0])[0]).toBeCloseTo(r.state['jR.slide'] as number, 12);
    }
  });

  it('lead screw 0.2 per turn held at 540°: the nut has advanced 0.3', () => {
    const model = load(couplingsDoc());
    const r = solveModel(model, { set: { 'jS.angle': 540 } });
    expect(r.status).toBe('solved');
    expect(r.state['jS.angle']).toBeCloseTo(540, 9);
    expect(Math.abs((r.state['jN.slide'] as number) - 0.3)).toBeLessThan(1e-12);
    expect(worldPoint(model, 'nut', [0, 0, 0])[0]).toBeCloseTo(0.3, 12);
  });
});

describe('a revolute limited to [−30°, 45°], dragged', () => {
  const { pivot } = COUPLINGS.arm;
  /** Pull the forearm's tip to the point `deg` round the arm's pivot (on the circle it starts on). */
  function dragTo(model: Model, radius: number, phi0: number, deg: number) {
    const phi = phi0 + deg * RAD;
    const target = [pivot[0] + radius * Math.cos(phi), pivot[1] + radius * Math.sin(phi), 0];
    return solve(model.system, { pulls: [{ variable: model.parts.get('forearm')!, point: [COUPLINGS.arm.forearm, 0, 0], target }] });
  }
  function start() {
    const model = load(couplingsDoc({ jL: 0, jM: 60 }));
    const tip = worldPoint(model, 'forearm', [COUPLINGS.arm.forearm, 0, 0]);
    return { model, radius: Math.hypot(tip[0] - pivot[0], tip[1] - pivot[1]), phi0: Math.atan2(tip[1] - pivot[1], tip[0] - pivot[0]) };
  }

  it('turns the whole arm until the limit, and reports the limit when it gets there', () => {
    const { model, radius, phi0 } = start();
    for (let k = 1; k <= 45; k++) {
      const report = dragTo(model, radius, phi0, k);
      expect(report.converged, `${k}°: ${report.message}`).toBe(true);
      const s = modelState(model);
      expect(s['jL.angle']).toBeCloseTo(k, 6);
      expect(s['jM.angle']).toBeCloseTo(60, 6);
      expect(report.atLimit).toEqual(k === 45 ? ['jL.angle'] : []);
    }
  });

  // Past the limit only the forearm can follow: the active set clamps jL and the pull moves the rest.
  it('stops at 45° when dragged past it, the forearm follows, and dragging back releases it', () => {
    const { model, radius, phi0 } = start();
    const path = [...Array.from({ length: 60 }, (_, i) => i + 1), ...Array.from({ length: 60 }, (_, i) => 59 - i)];
    let elbowAtLimit: number | null = null, previousElbow = 60;
    for (const k of path) {
      const report = dragTo(model, radius, phi0, k);
      expect(report.converged, `${k}°: ${report.message}`).toBe(true);
      const s = modelState(model);
      const shoulder = s['jL.angle'] as number, elbow = s['jM.angle'] as number;
      expect(shoulder).toBeLessThanOrEqual(45 + 1e-9);
      if (k >= 45 && shoulder > 45 - 1e-9) {
        expect(report.atLimit).toEqual(['jL.angle']);
        if (elbowAtLimit === null) elbowAtLimit = elbow;
      } else {
        expect(report.atLimit).toEqual([]);
      }
      if (k > 45) expect(Math.abs(elbow - previousElbow)).toBeGreaterThan(0); // what else can move, moves
      previousElbow = elbow;
    }
    expect(elbowAtLimit).not.toBeNull();
    // back at the start, released: the arm left its limit on the way back
    const s = modelState(model);
    expect((s['jL.angle'] as number)).toBeLessThan(45 - 1);
  });
});
