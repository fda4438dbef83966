/**
 * The `@rack` metrics with an open differential (`@rack@open`) and with the tyres' aligning
 * moments on the pose (`@rack@aligning`, both: `@rack@open@aligning`): their values are
 * `--steady-state --steer rack --differential open` / `--aligning-moments`'s, and their exact
 * gradients (the torque row and the second κ, the four moments among the tyres' unknowns)
 * match Richardson-extrapolated central differences of re-read, re-solved cars.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { isRackMetric, rackOf, rackSensitivity } from '../../../src/suspension/vehicle/rack-rates';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { centralDifferences, extrapolatedDifferences, readVehicle, SEDAN_MF } from './vehicle-sources';

const FILE = 'multi_link_axle_compliant.yaml';
/** The compliant multi-link front (its rods' bushings steer the wheels under the moments) on the sedan, Magic Formula tyres. */
const edit = (t: string) => t.replace('cg_position: { x: 1080, y: 0, z: 520 }', 'cg_position: { x: 1250, y: 0, z: 450 }').replace('wheelbase: 2700.0', 'wheelbase: 2500.0')
  .replace('actuation: { type: direct, mount: lower_rear_link }', 'actuation: { type: direct, mount: upright }')
  .replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 10000 }');
const compliantMf = () => readVehicle(SEDAN_MF().replace('front: ../suspension/double_wishbone_axle_front.yaml', `front: ../suspension/${FILE}`), (path, x) => (path.endsWith(FILE) ? edit(x) : x));

const R = 60, KMH = 40;
const NAMES = (sfx: string) => [`vehicle.understeer_gradient@R${R}${sfx}`, `vehicle.sideslip_gradient@R${R}${sfx}`, `vehicle.kinematic_steer@R${R}${sfx}`, `vehicle.steer@${KMH}@R${R}${sfx}`, `vehicle.yaw_rate_gain@${KMH}@R${R}${sfx}`];

/** The rack summary's three figures on R and the step's steer and yaw-rate gain, of the re-solved car. */
function figures(spec: VehicleSpec, name: string, d: number, open: boolean, aligning: boolean): number[] {
  const r = rackSteadySweep(buildVehicle(movedVehicleSpec(spec, name, d)), R, [KMH], undefined, open ? 'open' : 'locked', aligning);
  const st = r.steps[0];
  if (st.status !== 'solved') throw new Error(st.message);
  return [r.summary!.understeer_gradient, r.summary!.sideslip_gradient, r.summary!.kinematic_steer, st.steer!, st.yaw_rate_gain!];
}

/** Every figure's exact gradient along each number against the differences (floored at 1e-8/h: the rack settles to 1e-10 rad a pass; rack-rates.test.ts). */
function check(spec: VehicleSpec, sfx: string, open: boolean, aligning: boolean, steps: Record<string, number>, differences = extrapolatedDifferences) {
  const metrics = NAMES(sfx), names = Object.keys(steps);
  const r = rackSensitivity(() => buildVehicle(spec), names, metrics);
  if (r.status !== 'solved') throw new Error(r.message);
  const f = figures(spec, names[0], 0, open, aligning);
  metrics.forEach((metric, i) => expect(r.metrics[metric].value, metric).toBeCloseTo(f[i], 8));
  for (const name of names) {
    const h = steps[name], fds = differences((d) => figures(spec, name, d, open, aligning), h);
    metrics.forEach((metric, i) => {
      const exact = r.metrics[metric].gradient[name], fd = fds[i];
      expect(Math.abs(exact - fd), `${name} ${metric}: ${exact} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd) + 1e-8 / h);
    });
  }
  return r.metrics;
}

describe('the @rack metrics with an open differential and the aligning moments on the pose', () => {
  it('names: @open, then @aligning, after @rack', () => {
    expect(rackOf('vehicle.understeer_gradient@rack@open')).toEqual({ base: 'vehicle.understeer_gradient', radius: 40, differential: 'open' });
    expect(rackOf('vehicle.steer@50@R60@rack@aligning')).toEqual({ base: 'vehicle.steer@50', radius: 60, aligning: true });
    expect(rackOf('vehicle.understeer_gradient@rack@open@aligning')).toEqual({ base: 'vehicle.understeer_gradient', radius: 40, differential: 'open', aligning: true });
    expect(isRackMetric('vehicle.understeer_gradient@rack@aligning@open')).toBe(false);
    expect(isRackMetric('vehicle.understeer_gradient@open')).toBe(false);
    expect(() => rackSensitivity(() => buildVehicle(readVehicle()), ['rear.spring.rate'], ['vehicle.understeer_gradient@rack@closed'])).toThrow(/@open \(an open differential\)/);
  });

  it('@rack@open: the sedan on the Magic Formula, against differences (a spring rate, the cg height, the steering arm)', () => {
    const spec = readVehicle(SEDAN_MF());
    const open = check(spec, '@rack@open', true, false, { 'rear.spring.rate': 0.5, 'vehicle_config.cg_position.z': 2, 'front.trackrod_outboard.x': 2 });
    // the locked car's differ: the variant is solved, not ignored
    const locked = rackSensitivity(() => buildVehicle(spec), ['rear.spring.rate'], [`vehicle.understeer_gradient@R${R}@rack`]);
    if (locked.status !== 'solved') throw new Error(locked.message);
    expect(Math.abs(open[`vehicle.understeer_gradient@R${R}@rack@open`].value - locked.metrics[`vehicle.understeer_gradient@R${R}@rack`].value)).toBeGreaterThan(1e-3);
  }, 120_000);

  it('@rack@aligning: the compliant front on the Magic Formula, against differences (the steering arm, a rear spring rate)', () => {
    const spec = compliantMf();
    const on = check(spec, '@rack@aligning', false, true, { 'front.trackrod_outboard.x': 2, 'rear.spring.rate': 0.5 });
    const off = rackSensitivity(() => buildVehicle(spec), ['rear.spring.rate'], [`vehicle.understeer_gradient@R${R}@rack`]);
    if (off.status !== 'solved') throw new Error(off.message);
    expect(Math.abs(on[`vehicle.understeer_gradient@R${R}@rack@aligning`].value - off.metrics[`vehicle.understeer_gradient@R${R}@rack`].value)).toBeGreaterThan(1e-3);
  }, 120_000);

  it('@rack@open@aligning: both at once, against differences (the cg height)', () => {
    // the cg height's central differences pass at 2h and h/2 (vehicle-sources.ts centralDifferences)
    check(compliantMf(), '@rack@open@aligning', true, true, { 'vehicle_config.cg_position.z': 2 }, centralDifferences);
  }, 120_000);
});

describe('a fit file may target them', () => {
  it('reads a @rack@open target', async () => {
    const { parseVehicleFitSpec } = await import('../../../src/suspension/vehicle/fit');
    const spec = readVehicle(SEDAN_MF());
    const text = readFileSync(new URL('../../../examples/sensitivity/fit_vehicle_understeer_rack.yaml', import.meta.url), 'utf8').replace('metric: vehicle.understeer_gradient@rack,', 'metric: vehicle.understeer_gradient@rack@open,');
    expect(text).toContain('@rack@open');
    expect(parseVehicleFitSpec(text, spec, 'fit.yaml').targets[0].metric).toBe('vehicle.understeer_gradient@rack@open');
  });
});
