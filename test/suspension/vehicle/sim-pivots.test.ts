/**
 * A rear tyre off the road (its load clamped at zero) leaves its massless road part's slot
 * without a K or C diagonal: the iteration matrix keeps their last values there
 * (kernel/integrator/iteration.ts keepVanishedDiagonals), so the refactor on the last pivots
 * goes on instead of declining an exact zero pivot and sending the car back to the pivoting
 * LU and a new analysis (~3.5 ms each).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readVehicleRun } from '../../../src/suspension/vehicle/road';
import { prepareVehicleSimulation } from '../../../src/suspension/vehicle/simulate';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import type { Integrator } from '../../../kernel/integrator/integrator';
import type { IterationSystem } from '../../../kernel/integrator/iteration';
import { readVehicle, SEDAN } from './vehicle-sources';

describe('the vehicle run\'s refactors', () => {
  it('keep their pivots while a rear tyre is off the road', () => {
    const spec = readVehicle();
    const road = 'road:\n  left: { iso8608: { class: C, seed: 1, speed_kmh: 60, length_m: 100 } }\n  right: { iso8608: { class: C, seed: 2, speed_kmh: 60, length_m: 100 } }\n';
    const text = `${readFileSync(SEDAN, 'utf8')}${road}`;
    const model = prepareVehicleSimulation(spec, readVehicleRun(text, SEDAN, spec));
    const it: Integrator = prepareSimulation(model.dyn, { lieGroup: 'R3xSO3' }).integrator;
    const lin = (it as unknown as { lin: IterationSystem }).lin;
    // steps 601 and 999 of this road refactor with K and C assembled while a rear tyre is off it:
    // each refactor declined an exact zero pivot there (its road part's vertical slot) and the pivoting LU ran again
    for (let k = 1; k <= 1000; k++) expect(it.step(0.001, k * 0.001)).toBe(true);
    expect(it.factorisations).toBeGreaterThan(300);
    expect(lin.luNonzero.pivoted).toBe(1);
  });
});
