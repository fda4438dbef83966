/**
 * A geometry file's suspension results by their printed column names (camber, toe, tyre force
 * and penetration, suspension travel, road, an element's length, travel and tension, the chassis
 * heave: src/suspension/gradients/simulation/results.ts, sensitivity-tension.ts) against the
 * file's own numbers: each value equal to the run's printed column, each entry against central
 * differences of whole re-runs (the number moved in the geometry, rebuilt, re-settled, re-run)
 * at two steps to 1e-4 relative, the adjoint against the direct route to 1e-10; and leaving
 * out a result's explicit dependence (with the state held) fails the differences.
 * The two steps: 5e-3 s in `npm run test:fast`, 2.5e-3 s in the fine-steps project (test/gradients/steps.ts),
 * which runs only the tests checked at both steps.
 */
import { describe, expect, it } from 'vitest';
import { describeOnce, itOnce, stepsOf } from '../../../gradients/steps';
import { CORNER_DYNAMICS_FILE, cornerDynamicsSource, dwAxleDynamicsSource } from '../../dynamics/dynamics-sources';
import { prepareSuspensionDynamics, simulateSuspension } from '../../../../src/suspension/dynamics/model';
import { geometrySimulationGradients, movedGeometrySource, parseGeometryResult, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { ownResult } from '../../../../src/gradients/results/own';
import type { DynamicResult } from '../../../../src/gradients/run';
import { withSuspensionColumns } from '../../../../src/cli/suspension-simulate';
import { kinemate } from '../../../cli/helpers';

const FILE = CORNER_DYNAMICS_FILE;
const load = cornerDynamicsSource;

const DURATION = 0.3;
const deltaOf = (name: string): number => (name.includes('.inertia.') ? 100 : 1e-3);
const valueOf = (source: GeometrySource, results: (DynamicResult | string)[], step: number) =>
  geometrySimulationGradients(source, [], results, { duration: DURATION, step }, 'direct').results.map((r) => r.value);

/**
 * The named results of a re-run with `name` moved by d, kept per source, move and step (the
 * explicit-dependence test's re-runs are the first test's at h = 5e-3: the same moves and
 * results). A re-run's values are those of its own run whatever else it is asked for.
 */
function movedValues(source: GeometrySource, name: string, d: number, results: (DynamicResult | string)[], step: number): number[] {
  let kept = reRuns.get(source);
  if (!kept) reRuns.set(source, (kept = new Map()));
  const key = `${name} ${d} ${step}`;
  const known = kept.get(key);
  if (known && results.every((r) => typeof r === 'string' && r in known)) return results.map((r) => known[r as string]);
  const values = valueOf(movedGeometrySource(source, name, d)!, results, step);
  if (results.every((r) => typeof r === 'string')) kept.set(key, { ...known, ...Object.fromEntries(results.map((r, k) => [r as string, values[k]])) });
  return values;
}
const reRuns = new WeakMap<GeometrySource, Map<string, Record<string, number>>>();

/** The result as parsed, less its explicit dependence on the parameters (what the state carries alone). */
function withoutExplicit(source: GeometrySource, name: string): DynamicResult {
  const r = parseGeometryResult(source, name).result;
  return { ...r, quantity: 'own', own: (dyn, layout, ps) => { const full = ownResult(dyn, layout, r, ps); return { reads: () => false, evaluate: full.evaluate.bind(full), explicit: () => 0 }; } };
}

/** Per result and parameter: the relative error against central differences (floored at 1e-4 of the row's largest entry and at the differences' own round-off). */
function errors(source: GeometrySource, names: string[], gradients: number[][], results: (DynamicResult | string)[], step: number, delta = deltaOf): number[][] {
  const out = results.map(() => [] as number[]);
  names.forEach((name, j) => {
    const d = delta(name);
    const hi = movedValues(source, name, d, results, step), lo = movedValues(source, name, -d, results, step);
    results.forEach((_, r) => {
      const fd = (hi[r] - lo[r]) / (2 * d), scale = Math.max(...gradients[r].map(Math.abs));
      out[r].push(Math.abs(gradients[r][j] - fd) / Math.max(Math.abs(fd), 1e-4 * scale, (1e4 * Math.abs(hi[r]) * Number.EPSILON) / d, 1e-12));
    });
  });
  return out;
}

function checked(source: GeometrySource, names: string[], results: string[], step: number, delta = deltaOf, adjointTolerance = 1e-10) {
  const options = { duration: DURATION, step };
  const direct = geometrySimulationGradients(source, names, results, options, 'direct');
  const adjoint = geometrySimulationGradients(source, names, results, options, 'adjoint');
  direct.results.forEach((d, r) => {
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(adjoint.results[r].value).toBe(d.value);
    d.gradient.forEach((x, j) => expect(Math.abs(adjoint.results[r].gradient[j] - x), `${results[r]} / ${names[j]} adjoint`).toBeLessThanOrEqual(adjointTolerance * Math.max(Math.abs(x), 1e-4 * scale, 1e-12)));
  });
  const err = errors(source, names, direct.results.map((r) => r.gradient), results, step, delta);
  err.forEach((row, r) => row.forEach((e, j) => expect(e, `${results[r]} / ${names[j]}`).toBeLessThan(1e-4)));
  return direct;
}

/** The run's printed CSV columns at its last frame, by name (the run as simulate steps it, the scheme the gradients differentiate: src/gradients/product-step.ts). */
function printed(source: GeometrySource, step: number): Record<string, number> {
  const run = simulateSuspension(prepareSuspensionDynamics(source.geometry, source.spec), { duration: DURATION, step });
  const csv = withSuspensionColumns('t\n' + run.frames.map((f) => f.t).join('\n') + '\n', run).trim().split('\n');
  const head = csv[0].split(','), last = csv[csv.length - 1].split(',').map(Number);
  return Object.fromEntries(head.map((h, i) => [h, last[i]]));
}

describe('a corner\'s printed columns as results', () => {
  const source = load();
  const names = ['strut_top.z', 'axle_outboard.z', 'strut_bottom.y', 'trackrod_outboard.z', 'spring.rate', 'spring.free_length', 'spring.damping', 'dynamics.tyre.stiffness'];
  const results = ['left.camber', 'toe_angle', 'left.tyre_force', 'left.tyre_penetration', 'left.suspension_travel', 'spring.length', 'spring.travel', 'spring.tension'];
  for (const step of stepsOf(0.005, 0.0025)) {
    it(`camber, toe, tyre, travel, the spring's length, travel and tension (h = ${step})`, () => {
      const g = checked(source, names, results, step);
      // the final values are the run's printed columns
      const cols = printed(source, step);
      results.forEach((r, k) => { if (!r.endsWith('.tension')) expect(g.results[k].value, r).toBeCloseTo(cols[r.includes('.') ? r : `left.${r}`], 9); });
    }, 300_000);
  }

  itOnce('@max and @min of camber and the tyre load, and the spring\'s tension by the axle points', () => {
    checked(source, ['axle_inboard.z', 'upper_wishbone_outboard.y', 'dynamics.masses.upright.mass'], ['left.camber@min', 'left.tyre_force@max', 'spring.tension@min', 'spring.travel@max'], 0.005);
  }, 300_000);

  for (const step of stepsOf(0.005, 0.0025)) {
    it(`a two-force link's force (its distance row's multiplier), final and extremes (h = ${step})`, () => {
      // λ is converged to the integrator's tolerance: over ±1e-3 the re-runs' scatter reaches 1e-3 of an entry (2e-5 over ±3e-2, 4e-7 over ±0.1), so ±0.1 (mm, N/mm) here; the mass, whose entry is large, over ±1e-3 kg
      // (the mass moves the least's step within a move this size: the final value only). Adjoint = direct to 1e-9 here:
      // the step's solve holds λ'/β', and λ' = β'·that carries the solve's round-off times β' ~ 1/(βh²) (seen 2e-10 at h = 2.5e-3)
      const names = ['strut_top.z', 'trackrod_outboard.z', 'trackrod_inboard.y', 'spring.rate', 'dynamics.tyre.stiffness'];
      const g = checked(source, names, ['link.trackrod', 'link.trackrod@min'], step, () => 0.1, 1e-9);
      // the printed run's clock is t = k·h, the gradient run's a sum of h (docs/dynamics.md "Time"): the same run up to
      // the ulps of t, which λ (converged to the integrator's tolerance) shows at 1e-9 of itself (seen 9.4e-10)
      const link = printed(source, step)['link.trackrod'];
      expect(Math.abs(g.results[0].value - link)).toBeLessThan(1e-8 * Math.abs(link));
      checked(source, ['dynamics.masses.upright.mass'], ['link.trackrod'], step, () => 1e-3, 1e-9);
    }, 300_000);
  }

  itOnce('the road is driven: its height is the printed one and moves with no number of the file', () => {
    const g = geometrySimulationGradients(source, names, ['left.road@max', 'left.road'], { duration: DURATION, step: 0.005 }, 'adjoint');
    expect(g.results[0].value).toBeCloseTo(40, 9); // the bump's crest, 40 mm at 0.25 s
    expect(g.results[1].value).toBeCloseTo(printed(source, 0.005)['left.road'], 12);
    for (const r of g.results) for (const x of r.gradient) expect(Math.abs(x)).toBeLessThan(1e-12);
  }, 300_000);

  itOnce('leaving out a result\'s explicit dependence on the parameters fails the differences', () => {
    // each of these reads the number with the state held: its ends, the design length, its axle points, the rate, the free length, the tyre rate
    const cases: [string, string][] = [['spring.tension', 'spring.rate'], ['spring.tension', 'spring.free_length'], ['spring.tension', 'strut_top.z'],
      ['spring.travel', 'strut_bottom.y'], ['left.camber', 'axle_outboard.z'], ['left.tyre_force', 'dynamics.tyre.stiffness'], ['left.tyre_penetration', 'axle_outboard.z']];
    const step = 0.005;
    for (const [result, name] of cases) {
      const bare = withoutExplicit(source, result);
      // the bare and the full result off one run, and one pair of re-runs for both comparisons
      const [g, full] = geometrySimulationGradients(source, [name], [bare, result], { duration: DURATION, step }, 'direct').results.map((r) => r.gradient);
      const [[e], [eFull]] = errors(source, [name], [g, full], [result, result], step);
      expect(e, `${result} / ${name} without its explicit term`).toBeGreaterThan(1e-2);
      expect(eFull).toBeLessThan(1e-4);
    }
  }, 300_000);

  itOnce('a sprung mass: suspension travel less the heave, the chassis heave', () => {
    const sprung = load((g) => { g.vehicle = { ...g.vehicle, cg_position: [0, 0, 450] }; }, (d) => { d.sprung_mass = 250; });
    const results = ['left.suspension_travel', 'chassis_heave', 'left.camber', 'spring.travel'];
    const g = checked(sprung, ['strut_top.z', 'axle_outboard.z', 'spring.rate', 'dynamics.sprung_mass'], results, 0.005);
    const cols = printed(sprung, 0.005);
    results.forEach((r, k) => expect(g.results[k].value, r).toBeCloseTo(cols[r], 9));
  }, 300_000);

  itOnce('names the file\'s results when one is missing', () => {
    expect(() => parseGeometryResult(source, 'coilover.travel')).toThrow(/no spring, damper or springdamper "coilover" \(results: left\.wheel_travel, left\.camber, .*spring\.travel, spring\.tension, link\.trackrod\)/);
    expect(() => parseGeometryResult(source, 'right.camber')).toThrow(/expected camber/);
    expect(() => parseGeometryResult(source, 'link.upper_front')).toThrow(/no two-force link "upper_front" \(results: .*link\.trackrod/);
    expect(() => parseGeometryResult(source, 'chassis_heave')).toThrow(/the chassis is fixed/);
  });
});

describeOnce('the command line', () => {
  it('prints the columns\' gradients by name, the same as the library', async () => {
    const names = ['spring.rate', 'strut_top.z'], results = ['left.camber', 'spring.tension@min', 'tyre_force@max'];
    const run = await kinemate(['simulate', FILE, '--duration', '0.1', '--step', '0.005', ...names.flatMap((n) => ['--gradient', n]), ...results.flatMap((r) => ['--result', r])]);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    const lib = geometrySimulationGradients(load(), names, results, { duration: 0.1, step: 0.005 }, out.gradient_method);
    results.forEach((r, k) => {
      expect(out.results[r].value).toBe(lib.results[k].value);
      names.forEach((n, j) => expect(out.results[r].gradient[n]).toBe(lib.results[k].gradient[j]));
    });
  }, 120_000);
});

describeOnce('an axle: both sides by name', () => {
  it('under a 300 kg body (the sides coupled through its heave): the right side\'s camber and toe (σ = −1), both tyres, the left spring, against both sides\' numbers (h = 5e-3)', () => {
    const source = dwAxleDynamicsSource();
    source.geometry.vehicle = { ...source.geometry.vehicle, cg_position: [0, 0, 450] };
    source.spec.sprungMass = 300;
    checked(source, ['left.axle_outboard.z', 'right.upper_wishbone_outboard.y', 'left.strut_top.z', 'spring.rate'],
      ['right.camber', 'right.toe_angle', 'left.tyre_force@max', 'right.tyre_force', 'left_spring.travel@max', 'right.suspension_travel', 'chassis_heave@min'], 0.005);
    expect(() => parseGeometryResult(source, 'camber')).toThrow(/expected left\.camber or right\.camber/);
  }, 300_000);
});
