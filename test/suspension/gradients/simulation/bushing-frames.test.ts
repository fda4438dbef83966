/**
 * A pickup that carries a compliance bushing as a number (src/suspension/gradients/simulation/
 * frames.ts): moving it turns the bushing's two frames (the chassis's and the arm's or
 * strut's, x along the pivot axis, an `axis:` point or the strut line). The frames' twist
 * against central differences of the built frames, for every bushing frame and every
 * hardpoint coordinate of a corner, a MacPherson corner and an axle (a coordinate that gets
 * no twist must not turn a frame either); `simulate --gradient` on the compliant DW example
 * (its upper front bushing along −x, the builder's half turn: the least turn) and the
 * compliant sedan's figures at rest and gradient figures by bushed pickups against Richardson
 * differences of re-built, re-run or re-solved models, to 1e-6 relative; and the same without
 * the frames' turn shown to miss.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../../src/suspension/files';
import { readSuspensionDynamics, suspensionDynamicsAssembly } from '../../../../src/suspension/dynamics/model';
import { geometryParameter, geometryParameterNames, geometrySimulationGradients, movedGeometrySource, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { directEqualsAdjoint, withParameters, type Case } from './geometry-fd';
import { frameTurn } from '../../../../src/suspension/gradients/simulation/frames';
import { toMatrix } from '../../../../kernel/quat';
import { buildVehicle } from '../../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../../src/suspension/vehicle/analysis';
import { stateRates, vehicleStaticSensitivity } from '../../../../src/suspension/vehicle/static-gradients';
import { GRADIENT_METRICS, vehicleGradientSensitivity } from '../../../../src/suspension/vehicle/gradient-figures';
import { movedVehicleSpec, vehicleParameter } from '../../../../src/suspension/vehicle/parameters';
import { STATIC_METRICS, staticMetricValues } from '../../../../src/suspension/vehicle/metric-rates';
import type { HardpointParameter } from '../../../../src/gradients/parameters/hardpoints';
import { compliantSedanFront, extrapolatedDifferences, readVehicle } from '../../vehicle/vehicle-sources';

const read = (file: string) => readFileSync(new URL(`../../../../examples/suspension/${file}`, import.meta.url), 'utf8');

/** The sedan's front lower wishbones on bushings and a compliant track rod (test/live/vehicle-rates.test.ts's car). */
const sedanFront = compliantSedanFront;

/** A geometry file as a dynamics source at design (the masses the file gives, else none). */
function source(text: string, file: string): GeometrySource {
  const geometry = parseGeometry(text, file);
  const spec = readSuspensionDynamics({ tyre: { stiffness: 250 }, start: 'design' }, geometry, file);
  return { geometry, spec };
}

const CASES: [string, GeometrySource][] = [
  // the DW corner's four bushed pickups: two along the pivot axis, one toward the outboard ball, one on a fixed vector
  ['double wishbone corner', source(read('double_wishbone_compliant.yaml')
    .replace('upper_wishbone_inboard_front: { radial: 5000, axial: 1000 }', 'upper_wishbone_inboard_front: { radial: 5000, axial: 1000, axis: upper_wishbone_outboard }')
    .replace('upper_wishbone_inboard_rear: { radial: 5000, axial: 1000 }', 'upper_wishbone_inboard_rear: { radial: 5000, axial: 1000, axis: [1, 0.2, 0.1] }'), 'dw.yaml')],
  // the strut's top mount along the strut line, one lower wishbone pickup
  ['MacPherson corner', source(`${read('macpherson.yaml')}compliance:\n  bushings:\n    strut_top: { radial: 2000, axial: 500, conical: 300 }\n    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }\n`, 'mp.yaml')],
  // the sedan's front axle (both sides, `left.…` names) with its U-bar's frames beside
  ['double wishbone axle', source(sedanFront(read('double_wishbone_axle_front.yaml')), 'axle.yaml')],
];

describe('a compliance bushing\'s frames turn with the pickups their axis runs between', () => {
  it.each(CASES)('%s: every bushing frame\'s twist against central differences of the built frame, by every hardpoint coordinate', (_, src) => {
    const doc = suspensionDynamicsAssembly(src.geometry, src.spec).doc;
    const frames = Object.values(doc.forces ?? {}).flatMap((f) => (f.type === 'bushing' ? [f.a, f.b] : []));
    const names = geometryParameterNames(src).filter((n) => !/^(spring|dynamics)\./.test(n));
    const h = 1e-5;
    const built = (s: GeometrySource) => suspensionDynamicsAssembly(s.geometry, s.spec).doc;
    let turned = 0;
    for (const name of names) {
      const hi = built(movedGeometrySource(src, name, h)!), lo = built(movedGeometrySource(src, name, -h)!);
      for (const ref of frames) {
        const [part, frame] = ref.split('.');
        const axes = (d: typeof doc) => toMatrix(new Float64Array(9), d.parts[part].frames![frame].rotation as unknown as number[]);
        const w = frameTurn(src.geometry, doc, part, frame, name)?.omega ?? [0, 0, 0];
        const R0 = axes(doc), Rh = axes(hi), Rl = axes(lo);
        for (let j = 0; j < 3; j++) {
          const a = [R0[j], R0[3 + j], R0[6 + j]], rate = [w[1] * a[2] - w[2] * a[1], w[2] * a[0] - w[0] * a[2], w[0] * a[1] - w[1] * a[0]];
          for (let i = 0; i < 3; i++) expect(Math.abs(rate[i] - (Rh[3 * i + j] - Rl[3 * i + j]) / (2 * h)), `${name}: ${ref} axis ${j}`).toBeLessThan(1e-9);
        }
        if (w.some((x) => x !== 0)) turned++;
      }
    }
    // each turning bushing's two frames by its two ends' three coordinates (a fixed-vector bushing by none)
    expect(turned).toBeGreaterThanOrEqual(12);
  });
});

describe('simulate --gradient on the compliant DW corner by its bushed pickups', () => {
  // the example as it stands: the upper wishbone's front bushing has x = rear − front along −x exactly,
  // where the builder takes half a turn and its frames' spin about x has no rate (frames.ts: the least turn)
  const file = 'double_wishbone_compliant.yaml', geometry = parseGeometry(read(file), file);
  const masses = {
    lower_wishbone: { mass: 3, centre: [0, 650, 200], inertia: [1e5, 2e4, 1e5] }, upper_wishbone: { mass: 2, centre: [-25, 550, 500], inertia: [5e4, 1e4, 5e4] },
    upright: { mass: 20, centre: [-20, 950, 300], inertia: [1e6, 1.5e6, 1e6] }, rack: { mass: 1 },
  };
  const c: Case = {
    source: { geometry, spec: readSuspensionDynamics({ masses, tyre: { stiffness: 250 }, road: { bump: { height: 40, duration: 0.1, start: 0.0123 } }, start: 'design' }, geometry, file) },
    results: ['upright.wheel_centre.position.z@max', 'upright.wheel_centre.position.y', 'lower_wishbone_inboard_front_bushing.force.y'], duration: 0.1,
  };
  const names = ['lower_wishbone_inboard_front.z', 'lower_wishbone_inboard_rear.x', 'upper_wishbone_inboard_front.y', 'upper_wishbone_inboard_front.z', 'upper_wishbone_inboard_rear.z'];
  const step = 0.005, h = 0.05;
  const value = (src: GeometrySource) => geometrySimulationGradients(src, [], c.results, { duration: c.duration, step }, 'direct').results.map((r) => r.value);
  const fd = names.map((n) => extrapolatedDifferences((d) => value(movedGeometrySource(c.source, n, d)!), h));
  // relative, floored at 1e-6 of the result's largest entry and at the re-runs' own round-off (2e-11 of the value per difference)
  const at = value(c.source);
  const within = (g: number[][], r: number, j: number) => Math.abs(g[r][j] - fd[j][r]) / Math.max(Math.abs(fd[j][r]), 1e-6 * Math.max(...fd.map((row) => Math.abs(row[r]))), (2e-11 * Math.abs(at[r])) / h);

  it('every entry against Richardson differences of re-built, re-run corners (1e-6 relative), adjoint = direct', () => {
    const g = directEqualsAdjoint(c, names, step);
    const err = c.results.map((_, r) => names.map((_n, j) => within(g, r, j)));
    if (process.env.SHOW) console.log(JSON.stringify({ at, err }));
    err.forEach((row, r) => row.forEach((e, j) => expect(e, `${c.results[r]} / ${names[j]}`).toBeLessThan(1e-6)));
  }, 120_000);

  it('without the frames\' turn the entries miss', () => {
    const params = names.map((n) => geometryParameter(c.source, n));
    const bad = withParameters(c, params.map((p) => ({
      ...p, parts: p.parts.filter(({ parameter: q }) => !((q as HardpointParameter).frameTurn && (q as HardpointParameter).still))
        .map(({ parameter: q, weight }) => ({ parameter: { ...q, frameTurn: undefined } as typeof q, weight })),
    })), step);
    names.forEach((n, j) => expect(Math.max(...c.results.map((_, r) => within(bad, r, j))), n).toBeGreaterThan(1e-3));
  }, 120_000);
});

/** The sedan with its front lower wishbones on rubber. */
const spec = readVehicle(undefined, (path, t) => (path.endsWith('double_wishbone_axle_front.yaml') ? sedanFront(t) : t));
/** Bushed pickups: both sides, one side, and the other end of a bushed pivot. */
const NUMBERS = ['front.lower_wishbone_inboard_front.z', 'front.left.lower_wishbone_inboard_front.y', 'front.lower_wishbone_inboard_rear.x'];
const H = 0.05;

/** Every figure at rest and every gradient figure of a car built from the moved spec. */
function figures(name: string, d: number): number[] {
  const m = buildVehicle(movedVehicleSpec(spec, name, d));
  const s = solveVehicle(m, { ax: 0, ay: 0 });
  if (s.status !== 'solved') throw new Error(s.message);
  const g = vehicleGradientSensitivity(m, [], GRADIENT_METRICS);
  if (g.status !== 'solved') throw new Error(g.message);
  const v = staticMetricValues(s);
  return [...STATIC_METRICS.map((k) => v[k]), ...GRADIENT_METRICS.map((k) => g.metrics[k].value)];
}

describe('the compliant sedan by its bushed pickups', () => {
  const fds = new Map(NUMBERS.map((n) => [n, extrapolatedDifferences((d) => figures(n, d), H)]));
  const base = figures(NUMBERS[0], 0);
  /** 1e-6 relative, floored by the re-solved cars' own settling (1e-12 of the figure per difference). */
  const tolerance = (fd: number, k: number) => 1e-6 * Math.abs(fd) + (1e-12 * Math.max(1, Math.abs(base[k]))) / H;

  it('every figure at rest and every gradient figure against Richardson differences of re-solved cars (1e-6 relative)', () => {
    const statics = vehicleStaticSensitivity(buildVehicle(spec), NUMBERS);
    const gradients = vehicleGradientSensitivity(buildVehicle(spec), NUMBERS, GRADIENT_METRICS);
    if (statics.status !== 'solved' || gradients.status !== 'solved') throw new Error('not solved');
    const metrics = [...STATIC_METRICS, ...GRADIENT_METRICS], all = { ...statics.metrics, ...gradients.metrics };
    let worst = 0;
    for (const name of NUMBERS) {
      const fd = fds.get(name)!;
      metrics.forEach((k, i) => {
        const exact = all[k].gradient[name];
        worst = Math.max(worst, Math.abs(exact - fd[i]) / (Math.abs(fd[i]) + 1e6 * (tolerance(fd[i], i) - 1e-6 * Math.abs(fd[i]))));
        expect(Math.abs(exact - fd[i]), `${name} → ${k}: ${exact} vs ${fd[i]}`).toBeLessThan(tolerance(fd[i], i));
      });
      // the pickup moves the front figures (a gradient that meant nothing would give 0 on both sides)
      expect(Math.abs(all['vehicle.front_left.ride_height'].gradient[name]), name).toBeGreaterThan(1e-5);
    }
    if (process.env.SHOW) console.log({ worst });
  }, 300_000);

  it('without the frames\' turn the figures at rest miss', () => {
    const m = buildVehicle(spec);
    const s = solveVehicle(m, { ax: 0, ay: 0 });
    if (s.status !== 'solved') throw new Error(s.message);
    const params = NUMBERS.map((n) => vehicleParameter(spec, m.doc, n));
    // every number turns the bushings' frames (both sides' for a pair: four, one side's: two)
    expect(params.map((p) => p.parts.filter(({ parameter: q }) => q.kind === 'hardpoint' && q.frameTurn).length)).toEqual([8, 4, 8]);
    const without = params.map((p) => ({
      ...p, parts: p.parts.filter(({ parameter: q }) => !(q.kind === 'hardpoint' && q.frameTurn && q.still))
        .map(({ parameter: q, weight }) => ({ parameter: q.kind === 'hardpoint' ? { ...q, frameTurn: undefined } as HardpointParameter : q, weight })),
    }));
    const rates = stateRates(m, without);
    NUMBERS.forEach((name, j) => {
      const fd = fds.get(name)!;
      const worst = Math.max(...STATIC_METRICS.map((k, i) => Math.abs(rates[j][k] - fd[i]) / (Math.abs(fd[i]) + tolerance(fd[i], i))));
      if (process.env.SHOW) console.log({ name, worst });
      expect(worst, name).toBeGreaterThan(1e-3);
    });
  }, 120_000);
});
