/**
 * The vehicle's gradients at rest (static-gradients.ts) against central differences of
 * re-solved vehicles, each built again from its files with the number moved (the product
 * never differences), and against identities: the weight is carried whatever a hardpoint
 * does, and a kilogram more on the body adds g newtons to the contacts.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { vehicleStaticSensitivity } from '../../../src/suspension/vehicle/static-gradients';
import { movedVehicleSpec, vehicleParameterNames } from '../../../src/suspension/vehicle/parameters';
import { STATIC_METRICS, staticMetricValues } from '../../../src/suspension/vehicle/metric-rates';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();
/** One number of each kind, with a step that keeps the differences' error near 1e-8 of the value. */
const NUMBERS: [string, number][] = [
  ['front.lower_wishbone_outboard.z', 0.05], // both sides of the front axle (the right's mirror)
  ['rear.left.lower_front_link_inboard.z', 0.05], // one side: the car rolls
  ['front.strut_top.z', 0.05], // a spring end: its free length follows the design length
  ['front.center.arb_u_bar_axis_a.z', 0.05], // the U-bar's axis: its frame turns
  ['rear.spring.rate', 0.05], // N/mm
  ['front.dynamics.links.pushrod', 0.05], // kg: half on the rocker, half lumped onto the body
  ['body.mass', 0.5],
  ['front.dynamics.masses.wheel.mass', 0.05], // kg on each front wheel: a part of its own on its bearing
  ['rear.dynamics.masses.wheel.mass', 0.05],
  ['body.inertia.yy', 1e6], // kg·mm²: nothing moves at rest (exact zeros), the re-solved cars agree
  ['vehicle_config.cg_position.x', 0.5],
];

function metricsOf(name: string, d: number): Record<string, number> {
  const s = solveVehicle(buildVehicle(movedVehicleSpec(spec, name, d)), { ax: 0, ay: 0 });
  if (s.status !== 'solved') throw new Error(s.message);
  return staticMetricValues(s);
}

describe('vehicle gradients at rest', () => {
  const result = vehicleStaticSensitivity(buildVehicle(spec), NUMBERS.map(([n]) => n));
  if (result.status !== 'solved') throw new Error(result.message);
  const { metrics } = result;

  it.each(NUMBERS)('%s: every figure against central differences of re-solved vehicles', (name, h) => {
    const up = metricsOf(name, h), down = metricsOf(name, -h);
    for (const metric of STATIC_METRICS) {
      const fd = (up[metric] - down[metric]) / (2 * h);
      const exact = metrics[metric].gradient[name];
      // scale: the metric's own size of change over the numbers, so a zero (roll of a symmetric move) is checked absolutely
      const scale = Math.max(...NUMBERS.map(([n]) => Math.abs(metrics[metric].gradient[n])), 1e-9);
      expect(Math.abs(exact - fd), `${name} → ${metric}: ${exact} vs ${fd}`).toBeLessThan(2e-5 * scale + 1e-9);
    }
  });

  it('a hardpoint leaves the weight carried; a kilogram on the body adds g newtons', () => {
    const sum = (n: string) => ['front_left', 'front_right', 'rear_left', 'rear_right'].reduce((t, c) => t + metrics[`vehicle.${c}.contact_load`].gradient[n], 0);
    expect(Math.abs(sum('front.lower_wishbone_outboard.z'))).toBeLessThan(1e-9);
    expect(Math.abs(sum('rear.left.lower_front_link_inboard.z'))).toBeLessThan(1e-9);
    expect(sum('body.mass')).toBeCloseTo(9.80665, 9);
    expect(sum('front.dynamics.links.pushrod')).toBeCloseTo(2 * 9.80665, 9);
    expect(sum('front.dynamics.masses.wheel.mass')).toBeCloseTo(2 * 9.80665, 9);
    expect(sum('rear.dynamics.masses.wheel.mass')).toBeCloseTo(2 * 9.80665, 9);
    for (const metric of STATIC_METRICS) expect(Math.abs(metrics[metric].gradient['body.inertia.yy'])).toBe(0);
    // a symmetric move does not roll the car; a one-sided one does
    expect(Math.abs(metrics['vehicle.roll'].gradient['front.lower_wishbone_outboard.z'])).toBeLessThan(1e-12);
    expect(Math.abs(metrics['vehicle.roll'].gradient['rear.left.lower_front_link_inboard.z'])).toBeGreaterThan(1e-6);
  });

  it('names every number of both axles and the body; refuses what it cannot follow', () => {
    const names = vehicleParameterNames(spec);
    for (const n of ['front.left.upper_wishbone_outboard.x', 'front.upper_wishbone_outboard.x', 'rear.right.strut_bottom.z', 'front.spring.rate', 'front.anti_roll.rate', 'body.mass', 'body.inertia.xz', 'front.dynamics.masses.wheel.mass', 'rear.dynamics.masses.wheel.mass']) expect(names).toContain(n);
    // the sedan's wheels have no inertia of their own in the file (a solid cylinder): no inertia numbers for them
    expect(names).not.toContain('front.dynamics.masses.wheel.inertia.y');
    expect(() => vehicleStaticSensitivity(buildVehicle(spec), ['front.nothing.z'])).toThrow(/parameter "front.nothing.z"/);
  });
});
