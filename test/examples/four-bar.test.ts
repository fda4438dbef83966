/**
 * The four-bar of examples/fourbar.ts (crank 0.8, coupler 1.8, rocker 1.3, ground 2.0), a
 * Grashof crank-rocker, against the closed form `rockerAngle` (circle intersection):
 * driven by the crank coordinate, and dragged by the crank's tip.
 */
import { describe, expect, it } from 'vitest';
import { FOURBAR, fourBarDoc, rockerAngle } from '../../examples/fourbar';
import { dofModel, driveModel, releaseCoordinate, solveModel } from '../../src/model/operations';
import { solve } from '../../kernel/solver/solve';
import { RAD, degDiff, load, planarAngle } from './helpers';

describe('four-bar', () => {
  it('is a Grashof crank-rocker with one degree of freedom', () => {
    const { ground, crank, coupler, rocker } = FOURBAR;
    const s = Math.min(ground, crank, coupler, rocker), l = Math.max(ground, crank, coupler, rocker);
    expect(s + l).toBeLessThan(ground + crank + coupler + rocker - s - l);
    expect(s).toBe(crank);
    const model = load(fourBarDoc(30));
    expect(solveModel(model).status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(1);
    expect(d.conflicting).toEqual([]);
  });

  it('driven a full crank turn in 1° steps follows the closed form on its branch to 1e-6°', () => {
    const model = load(fourBarDoc(30));
    const { steps } = driveModel(model, 'jA.angle', 30, 390, 360);
    expect(steps).toHaveLength(361);
    let worst = 0, previous: number | null = null;
    for (const step of steps) {
      expect(step.status).toBe('solved');
      const t = step.value * RAD;
      const rocker = step.state['jD.angle'] as number;
      const open = rockerAngle(t, 1) / RAD, crossed = rockerAngle(t, -1) / RAD;
      worst = Math.max(worst, degDiff(rocker, open));
      // never nearer the other branch (they are far apart for a crank-rocker)
      expect(degDiff(rocker, open)).toBeLessThan(degDiff(rocker, crossed));
      // reported continuously: no jump between steps
      if (previous !== null) expect(Math.abs(rocker - previous)).toBeLessThan(5);
      previous = rocker;
    }
    expect(worst).toBeLessThan(1e-6);
    // and the crank came round to where it started
    expect(degDiff(steps[360].state['jA.angle'] as number, 30)).toBeLessThan(1e-9);
  });

  // A drag, not a drive: jA is released and the crank tip pulled; the solver takes feasible
  // steps (see test/mates/drag.test.ts), so the branch is kept frame after frame.
  it('dragged by the crank tip round its circle in 1° steps, the rocker follows the closed form to 1e-6°', () => {
    const model = load(fourBarDoc(30));
    releaseCoordinate(model, 'jA.angle'); // the file holds the crank; a drag moves it instead
    const crank = model.parts.get('crank')!;
    let worst = 0;
    for (let k = 1; k <= 360; k++) {
      const t = (30 + k) * RAD;
      const report = solve(model.system, { pulls: [{ variable: crank, point: [FOURBAR.crank, 0, 0], target: [FOURBAR.crank * Math.cos(t), FOURBAR.crank * Math.sin(t), 0] }] });
      expect(report.converged, `frame ${k}: ${report.message}`).toBe(true);
      const crankDeg = planarAngle(model, 'crank');
      expect(degDiff(crankDeg, 30 + k)).toBeLessThan(1e-6); // the tip reached the target
      worst = Math.max(worst, degDiff(planarAngle(model, 'rocker'), rockerAngle(crankDeg * RAD) / RAD));
    }
    expect(worst).toBeLessThan(1e-6);
  });
});
