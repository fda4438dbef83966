/**
 * `simulate GEOMETRY --gradient`: a suspension geometry file's own numbers (hardpoints, the
 * spring, the dynamics section) as parameters (src/suspension/gradients/simulation/geometry.ts). Every
 * entry against central differences of whole re-runs with the number moved in the geometry
 * (rebuilt, re-settled on the road, re-run), at two steps, to 1e-4 relative; the adjoint
 * against the direct route to 1e-10; and the two pieces this route adds — a two-force link's
 * regenerated length and the settled start's derivative — each shown necessary: without it
 * the same comparison fails.
 * The two steps: 5e-3 s in `npm run test:fast`, 2.5e-3 s in the fine-steps project (test/gradients/steps.ts),
 * which runs only the tests checked at both steps.
 */
import { describe, expect, it } from 'vitest';
import { describeOnce, itOnce, stepsOf } from '../../../gradients/steps';
import { CORNER_DYNAMICS_FILE, cornerDynamicsSource, dwAxleDynamicsSource } from '../../dynamics/dynamics-sources';
import { prepareSuspensionDynamics } from '../../../../src/suspension/dynamics/model';
import { geometryParameter, geometryParameterNames, geometrySimulationGradients, movedGeometrySource, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { parseResult, simulationGradients, type CombinedParameter, type DynamicResult } from '../../../../src/gradients/run';
import { kinemate, runMain } from '../../../cli/helpers';

const FILE = CORNER_DYNAMICS_FILE;
const load = cornerDynamicsSource;

const DURATION = 0.3;
const RESULTS = ['upright.wheel_centre.position.z@max', 'upright.trackrod_outboard.position.z', 'lower_wishbone.velocity.x'];
/** Probe sizes of the differences: mm, N/mm, N·s/mm, kg, kg·mm². */
const deltaOf = (name: string) => (name.includes('.inertia.') ? 100 : 1e-3);

const valueOf = (source: GeometrySource, results: (DynamicResult | string)[], step: number, duration: number) =>
  geometrySimulationGradients(source, [], results, { duration, step }, 'direct').results.map((r) => r.value);

/**
 * The re-runs with one number moved, kept per source: an ablation compares the route with and
 * without a piece against the same re-runs (and its good route's against the main check's).
 */
const reruns = new WeakMap<GeometrySource, Map<string, number[]>>();
function movedValues(source: GeometrySource, name: string, d: number, results: (DynamicResult | string)[], step: number, duration: number): number[] {
  if (!reruns.has(source)) reruns.set(source, new Map());
  const kept = reruns.get(source)!, key = `${name} ${d} ${step} ${duration} ${JSON.stringify(results)}`;
  if (!kept.has(key)) kept.set(key, valueOf(movedGeometrySource(source, name, d)!, results, step, duration));
  return kept.get(key)!;
}

/** Every entry against central differences (relative, floored: the re-runs' noise). */
function errors(source: GeometrySource, names: string[], gradients: number[][], results: (DynamicResult | string)[], step: number, duration = DURATION): number[][] {
  const out = results.map(() => [] as number[]);
  names.forEach((name, j) => {
    const d = deltaOf(name);
    const hi = movedValues(source, name, d, results, step, duration), lo = movedValues(source, name, -d, results, step, duration);
    results.forEach((_, r) => {
      const fd = (hi[r] - lo[r]) / (2 * d), scale = Math.max(...gradients[r].map(Math.abs));
      // floors: 1e-4 of the largest entry, and where the difference's own round-off |x| ε/δ is 1e-4 of the entry
      out[r].push(Math.abs(gradients[r][j] - fd) / Math.max(Math.abs(fd), 1e-4 * scale, (1e4 * Math.abs(hi[r]) * Number.EPSILON) / d));
    });
  });
  return out;
}

function checked(source: GeometrySource, names: string[], step: number, resultNames = RESULTS) {
  const results = resultNames; // read by the geometry route (wheel_travel too)
  const options = { duration: DURATION, step };
  const direct = geometrySimulationGradients(source, names, results, options, 'direct');
  const adjoint = geometrySimulationGradients(source, names, results, options, 'adjoint');
  direct.results.forEach((d, r) => {
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    expect(adjoint.results[r].value).toBe(d.value);
    d.gradient.forEach((x, j) => expect(Math.abs(adjoint.results[r].gradient[j] - x), `${resultNames[r]} / ${names[j]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale)));
  });
  const err = errors(source, names, direct.results.map((r) => r.gradient), results, step);
  err.forEach((row, r) => row.forEach((e, j) => expect(e, `${resultNames[r]} / ${names[j]}`).toBeLessThan(1e-4)));
  return { direct, err };
}

describe('the double wishbone corner settled on the road, over its bump', () => {
  const source = load();
  const names = [
    'lower_wishbone_outboard.z', 'upper_wishbone_outboard.y', 'trackrod_inboard.y', 'trackrod_outboard.z', 'strut_bottom.y', 'strut_top.z',
    'spring.rate', 'spring.damping', 'spring.free_length', 'dynamics.masses.upright.mass', 'dynamics.masses.lower_wishbone.centre.y',
    'dynamics.masses.upright.inertia.y', 'dynamics.tyre.stiffness',
  ];
  for (const step of stepsOf(0.005, 0.0025)) {
    it(`hardpoints, spring, masses and tyre against re-settled re-runs (h = ${step})`, () => { checked(source, names, step); });
  }

  itOnce('leaving out the link lengths regenerated from the hardpoints, or the settled start, fails the differences', () => {
    const step = 0.005, results = [parseResult(RESULTS[0])];
    const model = () => prepareSuspensionDynamics(source.geometry, source.spec);
    const run = (params: CombinedParameter[], start: 'equilibrium' | 'fixed', rs = results, duration = DURATION) => {
      const m = model(); m.ran = true;
      return simulationGradients(m.dyn, params, rs, { duration, step, start }, 'direct').results[0].gradient;
    };
    // the track rod's length follows its outboard end; the rack's origin follows the inboard
    const links = ['trackrod_outboard.z', 'trackrod_inboard.y'];
    const withRows = links.map((n) => geometryParameter(source, n));
    expect(withRows.every((p) => p.rows!.length === 1 && p.rows![0].owner === 'trackrod')).toBe(true);
    const noRows = withRows.map((p) => ({ ...p, rows: [] }));
    const good = errors(source, links, [run(withRows, 'equilibrium')], results, step)[0];
    const bad = errors(source, links, [run(noRows, 'equilibrium')], results, step)[0];
    good.forEach((e) => expect(e).toBeLessThan(1e-4));
    bad.forEach((e) => expect(e).toBeGreaterThan(1e-3)); // ten times the bar the entries meet
    // a start held where it settled for the unmoved file: the masses and rates move the settling
    // (the wheel's height at 0.1 s, before the bump, is the settled height)
    const settling = ['dynamics.masses.upright.mass', 'spring.rate', 'strut_top.z'], before = [parseResult('upright.wheel_centre.position.z')];
    const params = settling.map((n) => geometryParameter(source, n));
    errors(source, settling, [run(params, 'equilibrium', before, 0.1)], before, step, 0.1)[0].forEach((e) => expect(e).toBeLessThan(1e-4));
    errors(source, settling, [run(params, 'fixed', before, 0.1)], before, step, 0.1)[0].forEach((e) => expect(e).toBeGreaterThan(1e-3));
  });
});

describeOnce('variants of the file', () => {
  it('an implicit free length (the spring unloaded at design) follows the strut ends', () => {
    const source = load((g) => { delete g.spring.free_length; });
    const names = ['strut_top.z', 'strut_bottom.y', 'strut_bottom.z'];
    for (const n of names) expect(geometryParameter(source, n).term, n).toBeDefined();
    checked(source, names, 0.005, RESULTS.slice(0, 2));
  });

  it('a sprung mass on a heave slider (the body settles too), its centre given', () => {
    const source = load((g) => { g.vehicle = { ...g.vehicle, cg_position: [0, 0, 450] }; }, (d) => { d.sprung_mass = 250; });
    checked(source, ['lower_wishbone_outboard.z', 'strut_top.z', 'trackrod_inboard.y', 'spring.rate', 'dynamics.sprung_mass', 'dynamics.tyre.stiffness'], 0.005,
      [RESULTS[0], 'chassis.position.z@min', 'wheel_travel@min']);
  });

  it('a start at design dropped from 5 mm: nothing settles, the start stays at design', () => {
    const source = load(undefined, (d) => { d.start = 'design'; d.drop = 5; });
    checked(source, ['lower_wishbone_outboard.z', 'trackrod_outboard.z', 'strut_top.z', 'spring.rate', 'dynamics.masses.upright.mass', 'dynamics.tyre.stiffness'], 0.005, RESULTS.slice(0, 2));
  });
});

describeOnce('an axle (the double wishbone axle with a coilover per side and both wheels on the bump)', () => {
  it('names each side\'s hardpoints as kinemate sensitivity does', () => {
    const source = dwAxleDynamicsSource();
    expect(geometryParameterNames(source)).toContain('right.strut_top.z');
    checked(source, ['left.strut_top.z', 'right.strut_bottom.z', 'left.trackrod_outboard.z', 'left.lower_wishbone_outboard.z', 'dynamics.masses.left_upright.mass'], 0.005,
      ['left_upright.wheel_centre.position.z@max', 'right_upright.wheel_centre.position.z', 'left.wheel_travel@cross=10']);
  });
});

describeOnce('names', () => {
  const source = load();
  it('offers the file\'s numbers and refuses what the build moves beyond them, naming it', () => {
    const names = geometryParameterNames(source);
    expect(names).toContain('strut_top.z');
    expect(names).toContain('dynamics.tyre.stiffness');
    expect(names).toContain('dynamics.masses.upright.centre.x');
    expect(() => geometryParameter(source, 'dynamics.tyre.nope')).toThrow(/not a number of this file \(its numbers: lower_wishbone_inboard_front\.x, .*spring\.rate/);
    // a hinge's inboard point turns its axis, an axle point the spin axis: offered (test/suspension/gradients/simulation/axes.test.ts)
    expect(() => geometryParameter(source, 'lower_wishbone_inboard_front.z')).not.toThrow();
    expect(() => geometryParameter(source, 'axle_outboard.x')).not.toThrow();
    // a mass placed from its part's points: offered (test/suspension/gradients/simulation/lumps.test.ts)
    const placed = load(undefined, (d) => { delete d.masses.lower_wishbone.centre; delete d.masses.lower_wishbone.inertia; });
    expect(() => geometryParameter(placed, 'strut_bottom.y')).not.toThrow();
    // a sine road's amplitude moves the settled start's motion (its acceleration at t = 0): not yet
    const sine = load(undefined, (d) => { d.road = { sine: { amplitude: 5, frequency: 2, phase: 90 } }; });
    expect(() => geometryParameter(sine, 'dynamics.road.sine.amplitude')).toThrow(/acceleration at t = 0/);
  });
});

describeOnce('kinemate simulate GEOMETRY --gradient', () => {
  it('prints the gradients keyed by the file\'s names, the same as the library', async () => {
    const params = ['spring.rate', 'strut_top.z', 'dynamics.masses.upright.mass'];
    const r = await runMain(['simulate', FILE, '--duration', String(DURATION), '--step', '0.005', ...params.flatMap((p) => ['--gradient', p]), '--result', RESULTS[0]]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const lib = geometrySimulationGradients(load(), params, [parseResult(RESULTS[0])], { duration: DURATION, step: 0.005 }, 'adjoint');
    expect(out).toMatchObject({ status: 'completed', gradient_method: 'adjoint', step: 0.005, steps: 60, result: RESULTS[0], value: lib.results[0].value });
    params.forEach((p, j) => expect(out.gradient[p]).toBe(lib.results[0].gradient[j]));
    // the suspension frame's wheel travel: the wheel centre's height less its design height (313.426 mm)
    const travel = await runMain(['simulate', FILE, '--duration', String(DURATION), '--step', '0.005', ...params.flatMap((p) => ['--gradient', p]), '--result', 'wheel_travel@max', '--result', RESULTS[0]]);
    expect(travel.code).toBe(0);
    const both = JSON.parse(travel.stdout).results;
    expect(both['wheel_travel@max'].value).toBeCloseTo(both[RESULTS[0]].value - 313.426, 9);
    expect(both['wheel_travel@max'].gradient).toEqual(both[RESULTS[0]].gradient);
    const bad = await kinemate(['simulate', FILE, '--duration', '0.1', '--step', '0.005', '--gradient', 'axle_inboard.w', '--result', RESULTS[0]]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/axle_inboard\.w.*not a number of this file/);
  });
});
