/**
 * Gradients of the gradient figures (roll gradient, lateral load transfer per axle, its front
 * share, the braking pitch gradient) with respect to numbers that move the rest state — a
 * spring rate, the body's mass, hardpoints of both axles (figure-rates.ts: the figures' linearisation
 * differentiated, the constraints' third derivatives by the duals' second tangent level) —
 * against Richardson-extrapolated central differences of the exact 0 g figures of re-solved
 * vehicles.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { lateralSummary, longitudinalSummary, solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { vehicleGradientSensitivity, GRADIENT_METRICS } from '../../../src/suspension/vehicle/gradient-figures';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { readVehicleFile } from '../../../src/suspension/vehicle/file';
import { main } from '../../../src/cli/main';
import { memoryIO, tempFolder } from '../../cli/helpers';
import { expectDocumentedFit, VEHICLE_ROLL_FIT } from '../design/documented-fits';
import { vehicleStaticSensitivity } from '../../../src/suspension/vehicle/static-gradients';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();

function figuresOf(name: string, d: number, on = spec): Record<string, number> {
  const m = buildVehicle(movedVehicleSpec(on, name, d));
  if (solveVehicle(m, { ax: 0, ay: 0 }).status !== 'solved') throw new Error('not solved');
  const l = lateralSummary(m);
  return {
    'vehicle.roll_gradient': l.roll_gradient, 'vehicle.lateral_load_transfer.front': l.lateral_load_transfer.front,
    'vehicle.lateral_load_transfer.rear': l.lateral_load_transfer.rear, 'vehicle.front_load_transfer_share': l.front_load_transfer_share,
    'vehicle.pitch_gradient': longitudinalSummary(m).pitch_gradient_braking!,
  };
}

/** (4 D(h) − D(2h)) / 3 of central differences: the step's h² error gone. */
function extrapolated(name: string, h: number, on = spec): Record<string, number> {
  const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map((d) => figuresOf(name, d, on));
  return Object.fromEntries(Object.keys(p1).map((k) => [k, (4 * (p1[k] - m1[k]) / (2 * h) - (p2[k] - m2[k]) / (4 * h)) / 3]));
}

describe('gradients of the gradient figures along numbers that move the rest state', () => {
  // a spring rate; the body's mass (its centre moving too); a chassis pickup (a link's length row, half its mass on
  // the body); an inboard pivot (its hinge axis turning); an upright pickup (masses placed from points)
  const names = ['rear.spring.rate', 'vehicle_config.cg_position.z', 'body.mass', 'rear.lower_front_link_inboard.z', 'front.upper_wishbone_inboard_front.z', 'front.upper_wishbone_outboard.z', 'front.dynamics.masses.wheel.mass'];
  const r = vehicleGradientSensitivity(buildVehicle(spec), names);
  // steps: 0.5 N/mm on 100 N/mm, 2 mm of cg height, 5 kg on ~1400, 1 mm of a pickup, 0.5 kg on each 14 kg front wheel
  const steps: Record<string, number> = { 'rear.spring.rate': 0.5, 'vehicle_config.cg_position.z': 2, 'body.mass': 5, 'rear.lower_front_link_inboard.z': 1, 'front.upper_wishbone_inboard_front.z': 1, 'front.upper_wishbone_outboard.z': 1, 'front.dynamics.masses.wheel.mass': 0.5 };

  for (const name of names) {
    it(`${name}: every figure against extrapolated central differences of re-solved cars`, () => {
      if (r.status !== 'solved') throw new Error(r.message);
      const fd = extrapolated(name, steps[name]);
      for (const metric of GRADIENT_METRICS) {
        const exact = r.metrics[metric].gradient[name];
        expect(Math.abs(exact - fd[metric]), `${metric}: ${exact} vs ${fd[metric]}`).toBeLessThan(1e-6 * Math.abs(fd[metric]));
      }
    });
  }

  it('signs a vehicle dynamicist expects', () => {
    if (r.status !== 'solved') throw new Error(r.message);
    const g = (metric: string, name: string) => r.metrics[metric].gradient[name];
    // a stiffer rear: less roll, more of the transfer at the rear
    expect(g('vehicle.roll_gradient', 'rear.spring.rate')).toBeLessThan(0);
    expect(g('vehicle.front_load_transfer_share', 'rear.spring.rate')).toBeLessThan(0);
    // a higher centre of mass: more roll, more transfer at both axles
    expect(g('vehicle.roll_gradient', 'vehicle_config.cg_position.z')).toBeGreaterThan(0);
    expect(g('vehicle.lateral_load_transfer.front', 'vehicle_config.cg_position.z')).toBeGreaterThan(0);
    expect(g('vehicle.lateral_load_transfer.rear', 'vehicle_config.cg_position.z')).toBeGreaterThan(0);
    // more mass: more transfer at both axles
    expect(g('vehicle.lateral_load_transfer.front', 'body.mass')).toBeGreaterThan(0);
    expect(g('vehicle.lateral_load_transfer.rear', 'body.mass')).toBeGreaterThan(0);
  });

  // the README's command (documented-fits.ts: fit-examples.test.ts leaves its run to this file)
  it('fits the roll gradient with the rear springs and a rear pickup: kinemate fit with examples/sensitivity/fit_vehicle_roll_gradient.yaml', async () => {
    const tmp = tempFolder();
    try {
      const out = tmp.file('sedan.fitted.json'), io = memoryIO();
      const code = await main([...VEHICLE_ROLL_FIT, '--out', out], io);
      const report = JSON.parse(io.written.stdout) as { status: string; moves: Record<string, { delta: number }>; targets: { target: string; residual: number }[] };
      expectDocumentedFit(VEHICLE_ROLL_FIT, code, report);
      // the written vehicle file (the moved axle file beside it), read back and built afresh, has the target
      const fitted = readVehicleFile(readFileSync(out, 'utf8'), out, (ref) => { const path = join(dirname(out), ref); return { path, text: readFileSync(path, 'utf8') }; });
      const m = buildVehicle(fitted);
      solveVehicle(m, { ax: 0, ay: 0 });
      expect(lateralSummary(m).roll_gradient).toBeCloseTo(0.42, 8);
      // less roll: a stiffer rear
      expect(report.moves['rear.spring.rate'].delta).toBeGreaterThan(0);
    } finally {
      tmp.remove();
    }
  });
});

describe('a bar twisted at rest', () => {
  // the centre of mass 40 mm to the left: the car leans at rest and twists both bars, so a bar's rate moves the rest state
  const leaning = movedVehicleSpec(spec, 'vehicle_config.cg_position.y', 40);
  it('front.anti_roll.rate: every figure against extrapolated central differences of re-solved cars', () => {
    const r = vehicleGradientSensitivity(buildVehicle(leaning), ['front.anti_roll.rate']);
    if (r.status !== 'solved') throw new Error(r.message);
    const fd = extrapolated('front.anti_roll.rate', 500, leaning);
    // twisted: the bar's rate moves the roll at rest (else this is the untwisted route)
    const rest = vehicleStaticSensitivity(buildVehicle(leaning), ['front.anti_roll.rate'], ['vehicle.roll']);
    if (rest.status !== 'solved') throw new Error(rest.message);
    expect(Math.abs(rest.metrics['vehicle.roll'].gradient['front.anti_roll.rate'])).toBeGreaterThan(1e-9);
    for (const metric of GRADIENT_METRICS) {
      const exact = r.metrics[metric].gradient['front.anti_roll.rate'];
      expect(Math.abs(exact - fd[metric]), `${metric}: ${exact} vs ${fd[metric]}`).toBeLessThan(1e-6 * Math.abs(fd[metric]) + 1e-15);
    }
  });
});
