/**
 * `kinemate statics` and `kinemate equilibrium` on a vehicle file: the car settled at rest,
 * printed in the fields these commands print for an assembly. Checked against identities:
 * the tyres carry the car's weight (every mass of its assembly document, summed here), their
 * moments balance about the centre of mass, a symmetric car loads left and right alike, and
 * the corner loads are those of `kinemate vehicle --static`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { kinemate, runMain } from './helpers';
import { openBeside } from '../../src/cli/vehicle-inputs';
import { readVehicleFile } from '../../src/suspension/vehicle/file';
import { vehicleAssembly } from '../../src/suspension/vehicle/assembly';

const SEDAN = 'examples/vehicles/sedan.vehicle.yaml', SOLID = 'examples/vehicles/solid_axle.vehicle.yaml';
const G = 9.80665; // m/s²
const CORNERS = ['front_left', 'front_right', 'rear_left', 'rear_right'] as const;
type Tyre = { penetration: number; force: number; contact: number[] };

/** N: the weight of every mass the vehicle's assembly holds (kg), summed from its document, not from any solve. */
function weightOf(file: string): number {
  const { doc } = vehicleAssembly(readVehicleFile(readFileSync(file, 'utf8'), file, openBeside(file)));
  return Object.values(doc.parts).reduce((t, p) => t + (p.mass?.mass ?? 0), 0) * G;
}

function tyresOf(forces: Record<string, unknown>): Record<(typeof CORNERS)[number], Tyre> {
  return Object.fromEntries(CORNERS.map((c) => [c, forces[`${c}_tyre`] as Tyre])) as Record<(typeof CORNERS)[number], Tyre>;
}

describe('kinemate equilibrium VEHICLE.yaml', () => {
  it('settles the car on its tyres: the weight carried, left = right, the loads of vehicle --static', async () => {
    // the equilibrium as a real process; vehicle --static, to compare with, by main in the test process
    const eq = await kinemate(['equilibrium', SEDAN]), rest = await runMain(['vehicle', SEDAN, '--static']);
    expect(eq.stderr).toBe('');
    expect(eq.code).toBe(0);
    const r = JSON.parse(eq.stdout);
    // the fields an assembly's equilibrium prints, in its order
    expect(Object.keys(r)).toEqual(['status', 'converged', 'iterations', 'maxResidual', 'dof', 'redundant', 'conflicting', 'atLimit', 'state',
      'reactions', 'drivers', 'forces', 'indeterminate', 'residualForce', 'newtonIterations', 'loadSteps']);
    expect(r.status).toBe('solved');
    expect(r.residualForce).toEqual({});
    expect(r.newtonIterations).toBeGreaterThan(0);
    const tyres = tyresOf(r.forces), W = weightOf(SEDAN);
    const sum = CORNERS.reduce((t, c) => t + tyres[c].force, 0);
    expect(Math.abs(sum - W)).toBeLessThan(1e-8 * W);
    for (const c of CORNERS) expect(tyres[c].force).toBeCloseTo(tyres[c].penetration * 250, 6); // the sedan's tyres: 250 N/mm
    expect(Math.abs(tyres.front_left.force - tyres.front_right.force)).toBeLessThan(1e-9 * W);
    expect(Math.abs(tyres.rear_left.force - tyres.rear_right.force)).toBeLessThan(1e-9 * W);
    const s = JSON.parse(rest.stdout);
    for (const c of CORNERS) expect(Math.abs(tyres[c].force - s.corners[c].contact_load[2])).toBeLessThan(1e-9 * W);
    // pitch: the tyres' moment about the centre of mass (at the settled pose) vanishes
    const cg = s.vehicle.cg as number[];
    const pitch = CORNERS.reduce((t, c) => t + tyres[c].force * (tyres[c].contact[0] - cg[0]), 0);
    expect(Math.abs(pitch)).toBeLessThan(1e-7 * W * 1000);
  });
});

describe('kinemate statics VEHICLE.yaml', () => {
  it('prints the reactions at rest of a beam-axle car: balanced, the weight on the tyres, left = right', async () => {
    const run = await runMain(['statics', SOLID]);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(Object.keys(r)).toEqual(['status', 'dof', 'state', 'reactions', 'drivers', 'forces', 'indeterminate', 'unbalanced']);
    expect(r.status).toBe('solved');
    expect(r.unbalanced).toEqual({});
    const tyres = tyresOf(r.forces), W = weightOf(SOLID);
    expect(Math.abs(CORNERS.reduce((t, c) => t + tyres[c].force, 0) - W)).toBeLessThan(1e-8 * W);
    expect(Math.abs(tyres.rear_left.force - tyres.rear_right.force)).toBeLessThan(1e-9 * W);
    // every file element reported, as on an assembly: the springs in tension or compression, a number each
    for (const [id, f] of Object.entries(r.forces)) if (!id.endsWith('_tyre')) expect(Object.keys(f as object).length).toBeGreaterThan(0);
    // a roll moment: the contacts' about the car's centre line vanishes (the car is symmetric in y)
    const roll = CORNERS.reduce((t, c) => t + tyres[c].force * tyres[c].contact[1], 0);
    expect(Math.abs(roll)).toBeLessThan(1e-6 * W * 1000);
  });

  it.each(['statics', 'equilibrium'])('%s refuses --set on a vehicle file in one line', async (command) => {
    const run = await runMain([command, SEDAN, '--set', 'front_left_bearing.angle=10']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`kinemate: ${command}: --set does not apply to a vehicle file (its state is the car at rest)\n`);
  });
});
