/**
 * `simulate GEOMETRY --gradient` by numbers whose build places or combines masses
 * (src/suspension/gradients/simulation/lumps.ts), by the road's numbers (sensitivity-road.ts), and
 * `wheel_travel@cross=LEVEL` by an axle point (its level moves): every entry against central
 * differences of whole re-runs (the number moved in the read geometry, rebuilt, re-settled,
 * re-run) at two steps to 1e-4 relative, adjoint = direct to 1e-10, and each new term shown
 * necessary: without it the same comparison fails.
 * The two steps: 5e-3 s in `npm run test:fast`, 2.5e-3 s in the fine-steps project (test/gradients/steps.ts),
 * which runs only the tests checked at both steps.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeOnce, itOnce, stepsOf } from '../../../gradients/steps';
import { parseGeometry } from '../../../../src/suspension/files';
import { readSuspensionDynamics, suspensionDynamicsAssembly } from '../../../../src/suspension/dynamics/model';
import { dwAxleDynamicsSource } from '../../dynamics/dynamics-sources';
import { geometryParameter, geometryParameterNames, geometrySimulationGradients, movedGeometrySource, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import type { CombinedParameter } from '../../../../src/gradients/run';
import type { HardpointParameter } from '../../../../src/gradients/parameters/hardpoints';
import { lumpRates, lumpTerm, type LumpRate } from '../../../../src/suspension/gradients/simulation/lumps';
import { differences, directEqualsAdjoint, errors, withParameters, type Case, type Differences } from './geometry-fd';

const FILE = 'examples/suspension/double_wishbone_dynamics.yaml';
const geometry = parseGeometry(readFileSync(new URL(`../../../../${FILE}`, import.meta.url), 'utf8'), FILE);
/**
 * The example corner with masses left to the build: the wishbone and upright placed and shaped
 * by their points, the wheel a cylinder on the upright, half the track rod at each end, a
 * sprung mass at the chassis points' centroid on its heave slider; a bump at 12.3 ms.
 */
const source: GeometrySource = {
  geometry,
  spec: readSuspensionDynamics({
    masses: { lower_wishbone: 3, upright: 12, wheel: 8 }, links: { trackrod: 0.6 }, sprung_mass: 250,
    tyre: { stiffness: 250 }, road: { bump: { height: 40, duration: 0.1, start: 0.0123 } },
  }, geometry, FILE),
};
const C: Case = { source, results: ['upright.wheel_centre.position.z@max', 'chassis.position.z@min', 'upright.trackrod_outboard.position.z'], duration: 0.1 };
const HARDPOINTS = ['lower_wishbone_outboard.z', 'lower_wishbone_inboard_front.y', 'strut_top.y', 'axle_outboard.z', 'trackrod_outboard.x'];
const MASSES = ['dynamics.masses.lower_wishbone.mass', 'dynamics.masses.upright.mass', 'dynamics.masses.wheel.mass', 'dynamics.links.trackrod', 'dynamics.sprung_mass'];
const ROAD = ['dynamics.road.bump.height', 'dynamics.road.bump.duration', 'dynamics.road.bump.start'];
const NAMES = [...HARDPOINTS, ...MASSES, ...ROAD];
/** mm; kg; the road's times in s: far inside a table segment (1.6 ms), whose rows the steps never meet. */
const delta = (n: string) => (n.endsWith('.duration') || n.endsWith('.start') ? 1e-6 : n.startsWith('dynamics.masses') || n.startsWith('dynamics.links') ? 1e-2 : n === 'dynamics.sprung_mass' ? 0.1 : 1e-3);
const fds = new Map<number, Differences>();
const fd = (step: number) => { if (!fds.has(step)) fds.set(step, differences(C, NAMES, step, delta)); return fds.get(step)!; };

describe('masses placed, shaped and combined by the build; the road\'s numbers', () => {
  itOnce('the numbers are offered (the build\'s masses checked against the followed ones)', () => {
    // each moves a mass the build computes, not a copy of itself
    for (const n of [...HARDPOINTS.slice(0, 3), ...MASSES.slice(0, 4)]) expect(geometryParameter(source, n).term, n).toBeDefined();
    expect(geometryParameter(source, 'dynamics.road.bump.height').driven?.map((d) => d.owner)).toEqual(['road']);
  });

  for (const step of stepsOf(0.005, 0.0025)) {
    it(`every entry against re-settled re-runs, adjoint = direct (h = ${step})`, () => {
      const g = directEqualsAdjoint(C, NAMES, step);
      const err = errors(g, fd(step));
      if (process.env.SHOW) console.log(JSON.stringify({ step, g, err }));
      err.forEach((row, r) => row.forEach((e, j) => expect(e, `${C.results[r]} / ${NAMES[j]}`).toBeLessThan(1e-4)));
    });
  }

  itOnce('leaving out the masses\' rates, the heave axis\' move or the road\'s rows fails the differences', () => {
    const step = 0.005;
    const params = NAMES.map((n) => geometryParameter(source, n));
    const noMass: CombinedParameter[] = params.map((p) => ({ ...p, term: undefined }));
    const noHeave: CombinedParameter[] = params.map((p) => ({ ...p, parts: p.parts.filter(({ parameter: q }) => (q as HardpointParameter).entity !== 'heave') }));
    const noRoad: CombinedParameter[] = params.map((p) => ({ ...p, driven: undefined }));
    const [good, mass, heave, road] = [params, noMass, noHeave, noRoad].map((ps) => errors(withParameters(C, ps, step), fd(step)));
    const worst = (e: number[][], j: number) => Math.max(...e.map((row) => row[j]));
    if (process.env.SHOW) console.log(JSON.stringify({ mass: NAMES.map((_, j) => worst(mass, j)), heave: NAMES.map((_, j) => worst(heave, j)), road: NAMES.map((_, j) => worst(road, j)) }));
    good.flat().forEach((e) => expect(e).toBeLessThan(1e-4));
    // the sprung mass alone on the chassis is a copy (the assembly's own mass parameter); strut_top.y moves
    // only the chassis' centre and heave axis sideways, which a body that only heaves does not feel
    NAMES.forEach((n, j) => {
      if (!ROAD.includes(n) && n !== 'strut_top.y' && n !== 'dynamics.sprung_mass') expect(worst(mass, j), `${n} without its masses' rates`).toBeGreaterThan(2e-4);
      if (ROAD.includes(n)) expect(worst(road, j), `${n} without its motion's row`).toBeGreaterThan(1e-3);
    });
    expect(params[HARDPOINTS.indexOf('strut_top.y')].parts.filter(({ parameter: q }) => (q as HardpointParameter).entity === 'heave').map((p) => p.weight)).toEqual([0.2, 0.2]);
    expect(worst(heave, HARDPOINTS.indexOf('strut_top.y'))).toBeLessThan(1e-4);
  });
});

describeOnce('each part of a mass\'s rate', () => {
  it('leaving out the centre\'s or the inertia\'s rate fails the differences', () => {
    const step = 0.005, names = [HARDPOINTS[0], HARDPOINTS[3], HARDPOINTS[4], MASSES[1], MASSES[2], MASSES[3]];
    const doc0 = suspensionDynamicsAssembly(source.geometry, source.spec).doc;
    /** The parameters with the mass rates edited (the probe as geometryParameter makes it). */
    const edited = (edit: (r: LumpRate) => LumpRate): CombinedParameter[] => names.map((n) => {
      const d = n.startsWith('dynamics.') ? 1e-2 : 0.5, moved = movedGeometrySource(source, n, d)!;
      const r = lumpRates(source.geometry, source.spec, n, doc0, suspensionDynamicsAssembly(moved.geometry, moved.spec).doc, d);
      if (typeof r === 'string') throw new Error(r);
      return { ...geometryParameter(source, n), term: (dyn, layout) => lumpTerm(dyn, layout, r.parts.map(edit)) };
    });
    const all = NAMES.map((n) => names.indexOf(n));
    const sub = (e: number[][]) => e.map((row) => row.filter((_, j) => all[j] >= 0));
    const d = fd(step), pick: Differences = { fd: sub(d.fd), floor: sub(d.floor) };
    const zero = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    const [good, noCentre, noInertia] = [(r: LumpRate) => r, (r: LumpRate) => ({ ...r, dcentre: [0, 0, 0] }), (r: LumpRate) => ({ ...r, dinertia: zero })]
      .map((f) => errors(withParameters(C, edited(f), step), pick));
    const worst = (e: number[][], j: number) => Math.max(...e.map((row) => row[j]));
    if (process.env.SHOW) console.log(JSON.stringify({ noCentre: names.map((_, j) => worst(noCentre, j)), noInertia: names.map((_, j) => worst(noInertia, j)) }));
    good.flat().forEach((e) => expect(e).toBeLessThan(1e-4));
    // the centres' moves matter most; the inertias' too, except the wheel cylinder's tilt by the outboard axle point's z
    names.forEach((n, j) => expect(worst(noCentre, j), n).toBeGreaterThan(1e-3));
    names.forEach((n, j) => { if (n !== 'axle_outboard.z') expect(worst(noInertia, j), n).toBeGreaterThan(2e-4); });
  });
});

describeOnce('wheel_travel@cross=LEVEL by an axle point (the level moves with the design wheel centre)', () => {
  it('against re-runs, adjoint = direct; the level\'s rate left out fails', () => {
    const step = 0.005, names = ['axle_outboard.z', 'axle_inboard.z', 'lower_wishbone_inboard_front.z'];
    const c: Case = { source, results: ['wheel_travel@cross=10'], duration: 0.1 };
    const g = directEqualsAdjoint(c, names, step);
    const d = differences(c, names, step, () => 1e-3);
    const err = errors(g, d);
    // the same crossing at a level held where it is: the travel's level left to stand still
    const z0 = suspensionDynamicsAssembly(source.geometry, source.spec).doc.parts.upright.points!.wheel_centre[2];
    const held = geometrySimulationGradients(source, names, [`upright.wheel_centre.position.z@cross=${10 + z0}`], { duration: c.duration, step }, 'direct').results[0].gradient;
    const bad = errors([held], d);
    if (process.env.SHOW) console.log(JSON.stringify({ g, err, bad }));
    err.flat().forEach((e, j) => expect(e, names[j]).toBeLessThan(1e-4));
    // with no wheel offset only the outboard point's z moves the design height
    expect(bad[0][0]).toBeGreaterThan(1e-2);
    expect(Math.max(bad[0][1], bad[0][2])).toBeLessThan(1e-4);
  });
});

describeOnce('an axle\'s road under one side', () => {
  it('is named by its side and checked against re-runs', () => {
    const axle = dwAxleDynamicsSource();
    expect(geometryParameterNames(axle)).toEqual(expect.arrayContaining(['dynamics.road.left.bump.height', 'dynamics.road.left.bump.start']));
    expect(() => geometryParameter(axle, 'dynamics.road.bump.height')).toThrow(/not a number of this file/);
    const c: Case = { source: axle, results: ['left_upright.wheel_centre.position.z@max', 'left_upright.trackrod_outboard.position.z'], duration: 0.3 };
    const names = ['dynamics.road.left.bump.height', 'dynamics.road.left.bump.duration'];
    const g = directEqualsAdjoint(c, names, 0.005);
    errors(g, differences(c, names, 0.005, (n) => (n.endsWith('height') ? 1e-3 : 1e-6))).flat().forEach((e) => expect(e).toBeLessThan(1e-4));
  });
});
