/**
 * A pickup that carries a compliance bushing as a number (src/suspension/gradients/simulation/
 * frames.ts): moving it turns the bushing's two frames (the chassis's and the arm's or
 * strut's, x along the pivot axis, an `axis:` point or the strut line). The frames' twist
 * against central differences of the built frames, for every bushing frame and every
 * hardpoint coordinate of a corner, a MacPherson corner and an axle (a coordinate that gets
 * no twist must not turn a frame either); then the compliant sedan's figures at rest and its
 * gradient figures by bushed pickups against Richardson differences of re-solved cars, to
 * 1e-6 relative, and the same figures without the frames' turn shown to miss.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../../src/suspension/files';
import { readSuspensionDynamics, suspensionDynamicsAssembly } from '../../../../src/suspension/dynamics/model';
import { geometryParameterNames, movedGeometrySource, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { frameTurn } from '../../../../src/suspension/gradients/simulation/frames';
import { toMatrix } from '../../../../kernel/quat';
import { buildVehicle } from '../../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../../src/suspension/vehicle/analysis';
import { stateRates, vehicleStaticSensitivity } from '../../../../src/suspension/vehicle/static-gradients';
import { GRADIENT_METRICS, vehicleGradientSensitivity } from '../../../../src/suspension/vehicle/gradient-figures';
import { movedVehicleSpec, vehicleParameter } from '../../../../src/suspension/vehicle/parameters';
import { STATIC_METRICS, staticMetricValues } from '../../../../src/suspension/vehicle/metric-rates';
import type { HardpointParameter } from '../../../../src/gradients/parameters/hardpoints';
import { extrapolatedDifferences, readVehicle } from '../../vehicle/vehicle-sources';

const read = (file: string) => readFileSync(new URL(`../../../../examples/suspension/${file}`, import.meta.url), 'utf8');

/** The bushings of the sedan's front lower wishbones (test/live/vehicle-rates.test.ts) and a compliant track rod. */
const SEDAN_COMPLIANCE = `compliance:
  bushings:
    lower_wishbone_inboard_front: { radial: 8000, axial: 1600, conical: 2000 }
    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }
  links:
    trackrod: 30000
`;
const sedanFront = (t: string) => t.replace('links: { pushrod: 0.6, trackrod: 0.7 }', 'links: { pushrod: 0.6 }') + SEDAN_COMPLIANCE;

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
