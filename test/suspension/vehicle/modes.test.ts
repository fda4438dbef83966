/**
 * The vehicle's ride modes against the 7-DOF ride model in its exact limit: the body
 * (heave, pitch, roll about its centre of mass) on four wheel rates, each unsprung mass a
 * point on its wheel rate and its tyre. The limit: near-linear suspensions (the five-rod
 * multi-link front and rear, coil-over on the upright, preloaded so the car rests at its
 * design pose), all unsprung mass in the wheels (uprights and links without mass), a light
 * body (little geometric stiffness from the links' loads). Wheel rates from each axle file
 * alone (axleRates at design with the chassis held), not from the vehicle.
 */
import { describe, expect, it } from 'vitest';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { validateAssembly } from '../../../src/assembly/load';
import { buildDynamics } from '../../../src/mechanics/build';
import { solveModel } from '../../../src/model/operations';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import type { SuspensionRoles } from '../../../src/suspension/build/roles';
import { axleRates } from '../../../src/suspension/loads/axle-rates';
import { buildVehicle, type VehicleModel } from '../../../src/suspension/vehicle/assembly';
import { staticAnalysis } from '../../../src/suspension/vehicle/analysis';
import { vehicleModes } from '../../../src/suspension/vehicle/modes';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { readVehicle, sedanWith } from './vehicle-sources';

const MASS = 250, WHEEL = 25, TYRE = 220;

function rideCar(preload: { front: number; rear: number }): VehicleSpec {
  const text = sedanWith(/front: \{ stiffness: 250,/, `front: { stiffness: ${TYRE},`).replace('rear: { stiffness: 250,', `rear: { stiffness: ${TYRE},`)
    .replace('front: ../suspension/double_wishbone_axle_front.yaml', 'front: ../suspension/multi_link_axle.yaml').replace('mass: 600 ', `mass: ${MASS} `);
  const dynamics = `dynamics:\n  masses: { wheel: ${WHEEL} }\n`;
  return readVehicle(text, (path, t) => {
    if (path.endsWith('multi_link_axle.yaml')) {
      return t.replace('cg_position: { x: 1080, y: 0, z: 520 }', 'cg_position: { x: 1250, y: 0, z: 450 }').replace('wheelbase: 2700.0', 'wheelbase: 2500.0')
        .replace('actuation: { type: direct, mount: lower_rear_link }', 'actuation: { type: direct, mount: upright }')
        .replace('spring: { type: coilover }', `spring: { type: coilover, rate: 100, preload: ${preload.front} }`) + dynamics;
    }
    return t.slice(0, t.indexOf('\ndynamics:') + 1).replace('rate: 100 }', `rate: 100, preload: ${preload.rear} }`) + dynamics;
  });
}

/** One axle's wheel rate (N/mm, at the contacts, both wheels together) and its bar's share, from the file alone at design. */
function wheelRates(m: VehicleModel, axle: 'front' | 'rear'): { k: number; bar: number } {
  const geometry = m.spec[axle].geometry;
  const shift = axle === 'rear' ? m.spec.wheelbase : 0;
  const doc = suspensionAssembly(geometry);
  const roles = doc.suspension as SuspensionRoles;
  const dyn = buildDynamics(validateAssembly({ ...doc, held: roles.steering ? [roles.steering] : [] }));
  solveModel(dyn.model);
  const contacts = m.wheels.filter((w) => w.axle === axle).map((w, i) => ({ part: roles.corners[i].upright, local: [w.designContact[0] + shift, w.designContact[1], w.designContact[2]] }));
  const r = axleRates(dyn, [contacts[0], contacts[1]]);
  // K = [[k + b, −b], [−b, k + b]]: heave k, roll k + 2b
  return { k: r.heaveWheelRate, bar: (r.rollWheelRate - r.heaveWheelRate) / 2 };
}

/** The 7-DOF model's frequencies (Hz), q = [z, θ, φ, z_fl, z_fr, z_rl, z_rr]; SI-consistent in t, mm, s. */
function sevenDof(m: VehicleModel): number[] {
  const cg = [-m.spec.cg_position[0], m.spec.cg_position[1]];
  const M = m.spec.body.mass / 1000, I = m.spec.body.inertia.map((r) => r.map((x) => x / 1000));
  const mass = [M, I[1][1], I[0][0], ...m.wheels.map(() => WHEEL / 1000)];
  const K = Matrix.zeros(7, 7);
  const rates = { front: wheelRates(m, 'front'), rear: wheelRates(m, 'rear') };
  // B: body heave, pitch, roll → the body's rise at each contact
  const B = m.wheels.map((w) => [1, -(w.designContact[0] - cg[0]), w.designContact[1] - cg[1]]);
  const Ks = Matrix.zeros(4, 4);
  for (const [a, i] of [['front', 0], ['rear', 2]] as const) {
    const { k, bar } = rates[a];
    Ks.set(i, i, k + bar); Ks.set(i + 1, i + 1, k + bar); Ks.set(i, i + 1, -bar); Ks.set(i + 1, i, -bar);
  }
  // relative travel u = z_wheel − B q_body: energy ½ uᵀ Ks u + ½ k_t z_wheel²
  const T = Matrix.zeros(4, 7);
  for (let i = 0; i < 4; i++) { T.set(i, 3 + i, 1); for (let j = 0; j < 3; j++) T.set(i, j, -B[i][j]); }
  K.add(T.transpose().mmul(Ks).mmul(T));
  for (let i = 0; i < 4; i++) K.set(3 + i, 3 + i, K.get(3 + i, 3 + i) + TYRE);
  const S = Matrix.from1DArray(7, 7, Array.from({ length: 49 }, (_, n) => K.get(Math.floor(n / 7), n % 7) / Math.sqrt(mass[Math.floor(n / 7)] * mass[n % 7])));
  return new EigenvalueDecomposition(S, { assumeSymmetric: true }).realEigenvalues.map((w2) => Math.sqrt(w2) / (2 * Math.PI)).sort((a, b) => a - b);
}

describe('vehicle modes', () => {
  it('equal the 7-DOF ride model\'s frequencies in its limit, and name heave, pitch, roll and the wheel hops', () => {
    // preload the springs with their tension at rest, so the car rests at design (where the rates are taken)
    let m = buildVehicle(rideCar({ front: 0, rear: 0 }));
    const rest = staticAnalysis(m) as { elements: Record<string, number> };
    m = buildVehicle(rideCar({ front: rest.elements.front_left_spring, rear: rest.elements.rear_left_spring }));
    const result = vehicleModes(m);
    expect(result.status).toBe('solved');
    const moving = result.modes.filter((md) => md.frequency > 0.01);
    const rigid = result.modes.filter((md) => md.frequency <= 0.01);
    expect(rigid.map((md) => md.name)).toEqual(['rigid', 'rigid', 'rigid']);
    const closed = sevenDof(m);
    expect(moving.length).toBe(7);
    // heave and pitch within 1 %; roll and the hops within 2.5 %: the 7-DOF model leaves out
    // what the linkage adds to them (the wheels' scrub and camber motion in their effective
    // mass, the roll centre's coupling of roll with the unsprung parts' lateral motion)
    moving.forEach((md, i) => expect(Math.abs(md.frequency - closed[i]) / closed[i]).toBeLessThan(i < 2 ? 1e-2 : 2.5e-2));
    expect(new Set(moving.map((md) => md.name))).toEqual(new Set(['heave', 'pitch', 'roll', 'wheel_hop_front', 'wheel_tramp_front', 'wheel_hop_rear', 'wheel_tramp_rear']));
    expect(result.summary.roll_frequency).toBe(moving.find((md) => md.name === 'roll')!.frequency);
    // a symmetric car: no roll in heave or pitch, no heave in roll
    for (const md of moving.filter((x) => x.name === 'heave' || x.name === 'pitch')) expect(Math.abs(md.body.roll)).toBeLessThan(1e-6);
  });
});
