/**
 * `simulate GEOMETRY --gradient` by a wishbone's inboard point, which turns the hinge's axis
 * (src/gradients/parameters/directions.ts): every entry against central differences of whole
 * re-runs with the hardpoint moved in the geometry file (rebuilt, re-settled, re-run) at two
 * steps, to 1e-4 relative; the adjoint against the direct route to 1e-10; and the axis' turn
 * shown necessary: without it the same comparison fails.
 * The two steps: 5e-3 s in `npm run test:fast`, 2.5e-3 s in the fine-steps project (test/gradients/steps.ts),
 * which runs only the tests checked at both steps.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeOnce, itOnce, stepsOf } from '../../../gradients/steps';
import { dwAxleDynamicsSource } from '../../dynamics/dynamics-sources';
import { parseGeometry } from '../../../../src/suspension/files';
import { prepareSuspensionDynamics, readSuspensionDynamics } from '../../../../src/suspension/dynamics/model';
import { geometryParameter, geometrySimulationGradients, movedGeometrySource, parseGeometryResult, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { simulationGradients, type CombinedParameter } from '../../../../src/gradients/run';
import type { HardpointParameter } from '../../../../src/gradients/parameters/hardpoints';

const FILE = 'examples/suspension/double_wishbone_dynamics.yaml';
const geometry = parseGeometry(readFileSync(new URL(`../../../../${FILE}`, import.meta.url), 'utf8'), FILE);
const source: GeometrySource = { geometry, spec: readSuspensionDynamics(structuredClone((geometry.raw as any).dynamics), geometry, FILE) };
const DURATION = 0.3, D = 1e-3;
const RESULTS = ['upright.wheel_centre.position.z@max', 'upright.trackrod_outboard.position.z'];
const NAMES = ['lower_wishbone_inboard_front', 'lower_wishbone_inboard_rear', 'upper_wishbone_inboard_front', 'upper_wishbone_inboard_rear'].flatMap((p) => ['x', 'y', 'z'].map((a) => `${p}.${a}`));

const valueOf = (s: GeometrySource, step: number) => geometrySimulationGradients(s, [], RESULTS, { duration: DURATION, step }, 'direct').results.map((r) => r.value);
const AXLE = ['axle_inboard', 'axle_outboard'].flatMap((p) => ['x', 'y', 'z'].map((a) => `${p}.${a}`));
const differences = new Map<string, number[][]>();
/** Central differences of whole re-runs, per result and name (kept: the ablations reuse them). */
function fd(step: number, names: string[]): number[][] {
  const key = `${step} ${names.join()}`;
  if (!differences.has(key)) {
    const out = RESULTS.map(() => [] as number[]);
    for (const name of names) {
      const hi = valueOf(movedGeometrySource(source, name, D)!, step), lo = valueOf(movedGeometrySource(source, name, -D)!, step);
      RESULTS.forEach((_, r) => out[r].push((hi[r] - lo[r]) / (2 * D)));
    }
    differences.set(key, out);
  }
  return differences.get(key)!;
}
/** Relative errors, floored at 1e-4 of the result's largest entry. */
const errors = (gradients: number[][], step: number, names = NAMES) => fd(step, names).map((row, r) => {
  const scale = Math.max(...row.map(Math.abs));
  return row.map((x, j) => Math.abs(gradients[r][j] - x) / Math.max(Math.abs(x), 1e-4 * scale));
});

describe('the wishbone hinges\' inboard points (their axes turn)', () => {
  for (const step of stepsOf(0.005, 0.0025)) {
    it(`every coordinate against re-settled re-runs, adjoint = direct (h = ${step})`, () => {
      const options = { duration: DURATION, step };
      const direct = geometrySimulationGradients(source, NAMES, RESULTS, options, 'direct');
      const adjoint = geometrySimulationGradients(source, NAMES, RESULTS, options, 'adjoint');
      direct.results.forEach((d, r) => {
        const scale = Math.max(...d.gradient.map(Math.abs));
        expect(scale).toBeGreaterThan(0);
        d.gradient.forEach((x, j) => expect(Math.abs(adjoint.results[r].gradient[j] - x), `${RESULTS[r]} / ${NAMES[j]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale)));
      });
      errors(direct.results.map((r) => r.gradient), step).forEach((row, r) => row.forEach((e, j) => expect(e, `${RESULTS[r]} / ${NAMES[j]}`).toBeLessThan(1e-4)));
    });
  }

  itOnce('leaving out the axes\' turn fails the differences', () => {
    const step = 0.005;
    const params = NAMES.map((n) => geometryParameter(source, n));
    // each inboard point turns both halves of its hinge (the chassis' axis and the wishbone's)
    for (const p of params) expect(p.parts.filter(({ parameter: q }) => (q as HardpointParameter).turn).length).toBe(2);
    const noTurn: CombinedParameter[] = params.map((p) => ({
      ...p, parts: p.parts.filter(({ parameter: q }) => !(q as HardpointParameter).still).map(({ parameter: q, weight }) => ({ parameter: { ...q, turn: undefined }, weight })),
    }));
    const good = errors(withParameters(params, step), step), bad = errors(withParameters(noTurn, step), step);
    if (process.env.SHOW) console.log(JSON.stringify({ good: Math.max(...good.flat()), bad: bad.map((row) => row.map((e) => +e.toPrecision(2))) }));
    good.flat().forEach((e) => expect(e).toBeLessThan(1e-4));
    // the z and y coordinates turn the (nearly fore-aft) axes most: each fails by ten times the bar
    NAMES.forEach((n, j) => { if (!n.endsWith('.x')) expect(Math.max(...bad.map((row) => row[j])), n).toBeGreaterThan(1e-3); });
  });
});

/** The geometry route with the parameters given (as geometrySimulationGradients builds them). */
function withParameters(ps: CombinedParameter[], step: number): number[][] {
  const m = prepareSuspensionDynamics(source.geometry, source.spec); m.ran = true;
  const rs = RESULTS.map((r) => parseGeometryResult(source, r, m.doc).result);
  return simulationGradients(m.dyn, ps, rs, { duration: DURATION, step, start: 'equilibrium' }, 'direct').results.map((r) => r.gradient);
}

describe('the axle points (the wheel\'s spin axis turns; its centre and contact move)', () => {
  for (const step of stepsOf(0.005, 0.0025)) {
    it(`every coordinate against re-settled re-runs, adjoint = direct (h = ${step})`, () => {
      const options = { duration: DURATION, step };
      const direct = geometrySimulationGradients(source, AXLE, RESULTS, options, 'direct');
      const adjoint = geometrySimulationGradients(source, AXLE, RESULTS, options, 'adjoint');
      direct.results.forEach((d, r) => {
        const scale = Math.max(...d.gradient.map(Math.abs));
        expect(scale).toBeGreaterThan(0);
        d.gradient.forEach((x, j) => expect(Math.abs(adjoint.results[r].gradient[j] - x), `${RESULTS[r]} / ${AXLE[j]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale)));
      });
      const err = errors(direct.results.map((r) => r.gradient), step, AXLE);
      if (process.env.SHOW) console.log(JSON.stringify({ step, grads: direct.results.map((r) => r.gradient), err }));
      err.forEach((row, r) => row.forEach((e, j) => expect(e, `${RESULTS[r]} / ${AXLE[j]}`).toBeLessThan(1e-4)));
    });
  }

  itOnce('leaving out the spin axis\' turn, or the wheel centre\'s move, fails the differences', () => {
    const step = 0.005;
    const params = AXLE.map((n) => geometryParameter(source, n));
    const without = (drop: (q: HardpointParameter) => boolean): CombinedParameter[] => params.map((p) => ({ ...p, parts: p.parts.filter(({ parameter: q }) => !drop(q as HardpointParameter)) }));
    const good = errors(withParameters(params, step), step, AXLE);
    const noTurn = errors(withParameters(without((q) => q.turn !== undefined), step), step, AXLE);
    const noCentre = errors(withParameters(without((q) => q.entity === 'wheel_centre'), step), step, AXLE);
    if (process.env.SHOW) console.log(JSON.stringify({ noTurn, noCentre }));
    good.flat().forEach((e) => expect(e).toBeLessThan(1e-4));
    expect(Math.max(...noTurn.flat())).toBeGreaterThan(1e-2);
    expect(Math.max(...noCentre.flat())).toBeGreaterThan(1e-2);
  });
});

describeOnce('wheel travel by an axle point', () => {
  it('is measured from the moved design height: @max against re-runs (a crossing level that moves: sim-geometry-masses.test.ts)', () => {
    const names = ['axle_outboard.z', 'axle_inboard.z', 'lower_wishbone_inboard_front.z'], step = 0.005, r = ['wheel_travel@max'];
    const g = geometrySimulationGradients(source, names, r, { duration: DURATION, step }, 'direct').results[0].gradient;
    const v = (s: GeometrySource) => geometrySimulationGradients(s, [], r, { duration: DURATION, step }, 'direct').results[0].value;
    names.forEach((n, j) => {
      const fdj = (v(movedGeometrySource(source, n, D)!) - v(movedGeometrySource(source, n, -D)!)) / (2 * D);
      expect(Math.abs(g[j] - fdj) / Math.max(Math.abs(fdj), 1e-4), n).toBeLessThan(1e-4);
    });
    // the wheel rises one for one with its outboard axle point: the travel hardly moves
    expect(Math.abs(g[0])).toBeLessThan(0.01);
  });
});

describeOnce('an axle file (each side\'s points by name)', () => {
  it('both sides\' hinge and axle points against re-runs, adjoint = direct', () => {
    const axle = dwAxleDynamicsSource();
    const names = ['left.axle_outboard.z', 'left.axle_inboard.x', 'right.axle_outboard.y', 'left.lower_wishbone_inboard_front.z', 'right.upper_wishbone_inboard_rear.y'];
    const results = ['left_upright.wheel_centre.position.z@max', 'right_upright.wheel_centre.position.z', 'left.wheel_travel@max'], step = 0.005;
    const options = { duration: DURATION, step };
    const direct = geometrySimulationGradients(axle, names, results, options, 'direct');
    const adjoint = geometrySimulationGradients(axle, names, results, options, 'adjoint');
    const value = (s: GeometrySource) => geometrySimulationGradients(s, [], results, options, 'direct').results.map((r) => r.value);
    const fds = names.map((n) => { const hi = value(movedGeometrySource(axle, n, D)!), lo = value(movedGeometrySource(axle, n, -D)!); return hi.map((h, r) => (h - lo[r]) / (2 * D)); });
    direct.results.forEach((d, r) => {
      const scale = Math.max(...d.gradient.map(Math.abs));
      expect(scale).toBeGreaterThan(0);
      d.gradient.forEach((x, j) => {
        expect(Math.abs(adjoint.results[r].gradient[j] - x), `${results[r]} / ${names[j]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale));
        // floored also where the difference's own round-off is 1e-4 of the entry (the other side's entries are 0): two
        // re-settled re-runs differ in their last bits by a few ulps of the value (seen: 3 ulps of a 312.6 mm height, a
        // difference of -8.5e-11 against an exact 1e-20), so 8 |x| ε/δ
        const floor = Math.max(Math.abs(fds[j][r]), 1e-4 * scale, (8e4 * Math.abs(d.value) * Number.EPSILON) / D);
        expect(Math.abs(x - fds[j][r]) / floor, `${results[r]} / ${names[j]}`).toBeLessThan(1e-4);
      });
    });
  });
});
