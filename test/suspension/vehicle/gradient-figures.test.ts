/**
 * Gradients of the roll gradient, the lateral load transfer and its front share with
 * respect to the anti-roll bars' rates (gradient-figures.ts), against central differences of
 * the exact 0 g figures of re-solved vehicles; a number that moves the rest state is refused.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { lateralSummary, solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { vehicleGradientSensitivity } from '../../../src/suspension/vehicle/gradient-figures';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { fitVehicle } from '../../../src/suspension/vehicle/fit';
import { unfollowed } from '../../../src/suspension/vehicle/figure-rates';
import { readVehicle } from './vehicle-sources';

const spec = readVehicle();

function figuresOf(d: number): Record<string, number> {
  const m = buildVehicle(movedVehicleSpec(spec, 'front.anti_roll.rate', d));
  if (solveVehicle(m, { ax: 0, ay: 0 }).status !== 'solved') throw new Error('not solved');
  const l = lateralSummary(m);
  return {
    'vehicle.roll_gradient': l.roll_gradient, 'vehicle.lateral_load_transfer.front': l.lateral_load_transfer.front,
    'vehicle.lateral_load_transfer.rear': l.lateral_load_transfer.rear, 'vehicle.front_load_transfer_share': l.front_load_transfer_share,
  };
}

describe('gradients of the vehicle\'s gradient figures', () => {
  it('the front bar\'s rate: roll gradient and load transfer against central differences', () => {
    const r = vehicleGradientSensitivity(buildVehicle(spec), ['front.anti_roll.rate']);
    if (r.status !== 'solved') throw new Error(r.message);
    const h = 300; // N·mm/deg on 30000
    const up = figuresOf(h), down = figuresOf(-h), at = figuresOf(0);
    for (const [name, fd] of Object.entries(up).map(([k, v]) => [k, (v - down[k]) / (2 * h)] as const)) {
      expect(r.metrics[name].value).toBeCloseTo(at[name], 9);
      const exact = r.metrics[name].gradient['front.anti_roll.rate'];
      expect(Math.abs(exact - fd), `${name}: ${exact} vs ${fd}`).toBeLessThan(1e-4 * Math.abs(fd));
    }
    // a stiffer front bar: less roll, more of the transfer at the front
    expect(r.metrics['vehicle.roll_gradient'].gradient['front.anti_roll.rate']).toBeLessThan(0);
    expect(r.metrics['vehicle.front_load_transfer_share'].gradient['front.anti_roll.rate']).toBeGreaterThan(0);
    // the bar does not twist in pitch
    expect(Math.abs(r.metrics['vehicle.pitch_gradient'].gradient['front.anti_roll.rate'])).toBeLessThan(1e-15);
  });

  it('fits the front share of the load transfer with the front bar\'s rate', () => {
    const report = fitVehicle(spec, { move: { 'front.anti_roll.rate': [-20000, 20000] }, targets: [{ metric: 'vehicle.front_load_transfer_share', value: 0.7 }] });
    expect(report.status).toBe('converged');
    const m = buildVehicle(report.spec);
    solveVehicle(m, { ax: 0, ay: 0 });
    expect(lateralSummary(m).front_load_transfer_share).toBeCloseTo(0.7, 8);
    expect(report.moves['front.anti_roll.rate'].delta).toBeLessThan(0);
  });

  it('names why a piece is not followed (a coefficient other than a stiffness of an element linear in it: a damping)', () => {
    const bar = { name: 'front.anti_roll.rate', parts: [{ parameter: { kind: 'coefficient' as const, element: 'front_arb', field: 'rotational_stiffness.x' }, weight: 1 }], rows: [], freeLengths: [], lumps: [], cg: [0, 0, 0] as [number, number, number] };
    // a bar's rate (twisted at rest or not) is followed now (figure-rates.ts soleRate), and any stiffness of a bushing (its unit
    // block: compliance-parameters.ts linearUnitBlock); a damping, which no state at rest reads, is not
    expect(unfollowed(buildVehicle(spec), bar)).toBeNull();
    expect(unfollowed(buildVehicle(spec), { ...bar, parts: [{ parameter: { kind: 'coefficient', element: 'front_arb', field: 'rotational_stiffness.y' }, weight: 1 }] })).toBeNull();
    expect(unfollowed(buildVehicle(spec), { ...bar, parts: [{ parameter: { kind: 'coefficient', element: 'front_arb', field: 'rotational_damping.x' }, weight: 1 }] })).toMatch(/coefficient.*not followed/);
    expect(unfollowed(buildVehicle(spec), { ...bar, parts: [{ parameter: { kind: 'stiffness', element: 'rear_left_spring' }, weight: 1 }] })).toBeNull();
  });
});
