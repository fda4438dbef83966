/**
 * The tyres' aligning moments on the uprights (`--steer rack --aligning-moments`,
 * contact.ts's mz): a moment on a compliant front's contact patch at rest turns the wheel as
 * the axle's own K&C rig says (`kc --event aligning`: toe per Mz); on linear tyres (no
 * aligning moment) nothing changes; on the Magic Formula the steady state's exact understeer
 * gradient, with the four moments among the state's unknowns, meets one-sided differences.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { parseText, validateGeometry } from '../../../src/suspension/files';
import { runKc } from '../../../src/suspension/compliance/kc';
import type { KcCoefficients } from '../../../src/suspension/compliance/coefficients';
import { readVehicle, SEDAN_MF } from './vehicle-sources';

const g = 9.80665;
const FILE = 'multi_link_axle_compliant.yaml';
/** The compliant multi-link moved to the sedan's wheelbase and centre of mass, steered at its upright (the bicycle car's front). */
const edit = (t: string) => t.replace('cg_position: { x: 1080, y: 0, z: 520 }', 'cg_position: { x: 1250, y: 0, z: 450 }').replace('wheelbase: 2700.0', 'wheelbase: 2500.0')
  .replace('actuation: { type: direct, mount: lower_rear_link }', 'actuation: { type: direct, mount: upright }')
  .replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 10000 }');
function compliantCar(text = readFileSync('examples/vehicles/sedan.vehicle.yaml', 'utf8')) {
  const t = text.replace('front: ../suspension/double_wishbone_axle_front.yaml', `front: ../suspension/${FILE}`);
  return readVehicle(t, (path, x) => (path.endsWith(FILE) ? edit(x) : x));
}

describe('the tyres\' aligning moments on the rack\'s pose', () => {
  it('a moment at a compliant front contact at rest turns its wheel as the axle\'s K&C rig says', () => {
    const m = buildVehicle(compliantCar());
    const rest = solveVehicle(m, { ax: 0, ay: 0 });
    if (rest.status !== 'solved') throw new Error(rest.message);
    const M = 1e5; // N·mm: 0.1 kN·m about the vertical, on the front left contact
    const i = m.wheels.findIndex((w) => w.corner === 'front_left');
    const moved = solveVehicle(m, { ax: 0, ay: 0 }, (mm) => { mm.contacts[i].loads[6] = M; });
    if (moved.status !== 'solved') throw new Error(moved.message);
    const dToe = moved.corners.front_left.toe - rest.corners.front_left.toe;
    const kc = runKc(new SuspensionModel(suspensionAssembly(validateGeometry(parseText(edit(readFileSync(`examples/suspension/${FILE}`, 'utf8')))))), 'aligning', { range: [0, 0, 1] }).summary;
    const want = (kc as Record<string, KcCoefficients | null>).left!.toe_per_mz * (M / 1e6);
    expect(Math.abs(dToe)).toBeGreaterThan(1e-3);
    expect(Math.abs(dToe - want)).toBeLessThan(0.02 * Math.abs(want));
    // the other wheels barely move
    expect(Math.abs(moved.corners.front_right.toe - rest.corners.front_right.toe)).toBeLessThan(0.05 * Math.abs(dToe));
  });

  it('on linear tyres (no aligning moment) changes nothing', () => {
    const a = rackSteadySweep(buildVehicle(compliantCar()), 40, [40]);
    const b = rackSteadySweep(buildVehicle(compliantCar()), 40, [40], undefined, 'locked', true);
    expect(b.aligning_moments).toBe(true);
    const [sa, sb] = [a.steps[0], b.steps[0]];
    if (sa.status !== 'solved' || sb.status !== 'solved') throw new Error('not solved');
    expect(sb.tyres!.front_left.aligning_moment).toBe(0);
    expect(sb.rack).toBe(sa.rack);
    expect(b.summary!.understeer_gradient).toBeCloseTo(a.summary!.understeer_gradient, 12);
  });

  it('on the Magic Formula the moments steer the compliant front, and the exact understeer gradient meets differences', () => {
    const mf = SEDAN_MF();
    const R = 40, h = 0.004, kmh = (ay: number) => Math.sqrt(ay * g * R) * 3.6;
    const without = rackSteadySweep(buildVehicle(compliantCar(mf)), R, [40]);
    const r = rackSteadySweep(buildVehicle(compliantCar(mf)), R, [40, kmh(h), kmh(2 * h)], undefined, 'locked', true);
    const [s40, s1, s2] = r.steps.map((s) => { if (s.status !== 'solved') throw new Error(s.message); return s; });
    const w40 = without.steps[0];
    if (w40.status !== 'solved') throw new Error(w40.message);
    expect(Math.abs(s40.tyres!.front_left.aligning_moment!)).toBeGreaterThan(1000);
    expect(Math.abs(s40.wheel_steer!.front_left - w40.wheel_steer!.front_left)).toBeGreaterThan(1e-3);
    const s0 = r.summary!.kinematic_steer, fd = (-3 * s0 + 4 * s1.steer! - s2.steer!) / (2 * h);
    expect(Math.abs(r.summary!.understeer_gradient - fd)).toBeLessThan(2e-3 * Math.abs(fd));
    expect(Math.abs(r.summary!.understeer_gradient - without.summary!.understeer_gradient)).toBeGreaterThan(1e-3);
  });
});
