/**
 * The roll gradient against the textbook closed form in its exact limit: a sprung mass
 * alone (massless unsprung parts) and light, stiff tyres (in series with the suspension), springs preloaded so that the car rests at
 * its design pose, so each axle's roll stiffness and roll-centre height are those of its
 * own file at design, from the axle tools (axleRates, the kinematic roll centre of the axle
 * metrics) and not from the
 * vehicle: dφ/da_y = W h′ / (K_φf + K_φr − W h′), h′ the centre of mass above the roll axis
 * (the line through the two roll centres), W the weight.
 */
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../../src/assembly/load';
import { buildDynamics } from '../../../src/mechanics/build';
import { solveModel } from '../../../src/model/operations';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import type { SuspensionRoles } from '../../../src/suspension/build/roles';
import { axleRates } from '../../../src/suspension/loads/axle-rates';
import { buildVehicle, type VehicleModel } from '../../../src/suspension/vehicle/assembly';
import { lateralSummary, staticAnalysis, type SolvedState } from '../../../src/suspension/vehicle/analysis';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { readVehicle, sedanWith } from './vehicle-sources';

const g = 9.80665;
/** N/mm: stiff against the wheel rates (~30 N/mm), in series in the closed form. */
const TYRE = 2e4;
/**
 * kg: light, so that the links' preloads stiffen the roll (the geometric stiffness of
 * loaded links, which the exact answer has and the closed form leaves out) by little.
 */
const MASS = 60;

/**
 * The sedan's rear axle behind the same five-rod multi-link as the front (multi_link_axle.yaml,
 * its coil-over on the upright, nearly constant motion ratios), without unsprung masses, on
 * stiff tyres, the springs preloaded by `preload` (N).
 */
function stiffCar(preload: { front: number; rear: number }): VehicleSpec {
  const text = sedanWith(/front: \{ stiffness: 250,/, `front: { stiffness: ${TYRE},`).replace('rear: { stiffness: 250,', `rear: { stiffness: ${TYRE},`)
    .replace('front: ../suspension/double_wishbone_axle_front.yaml', 'front: ../suspension/multi_link_axle.yaml').replace('mass: 600 ', `mass: ${MASS} `);
  return readVehicle(text, (path, t) => {
    if (path.endsWith('multi_link_axle.yaml')) {
      return t.replace('cg_position: { x: 1080, y: 0, z: 520 }', 'cg_position: { x: 1250, y: 0, z: 450 }').replace('wheelbase: 2700.0', 'wheelbase: 2500.0')
        .replace('actuation: { type: direct, mount: lower_rear_link }', 'actuation: { type: direct, mount: upright }')
        .replace('spring: { type: coilover }', `spring: { type: coilover, rate: 100, preload: ${preload.front} }`);
    }
    return t.slice(0, t.indexOf('\ndynamics:') + 1).replace('rate: 100 }', `rate: 100, preload: ${preload.rear} }`);
  });
}

/** Roll stiffness (N·mm/rad, at the contact centres) and roll-centre height of one axle file at design. */
function axleAtDesign(m: VehicleModel, axle: 'front' | 'rear') {
  const geometry = m.spec[axle].geometry;
  const shift = axle === 'rear' ? m.spec.wheelbase : 0;
  const doc = suspensionAssembly(geometry);
  const roles = doc.suspension as SuspensionRoles;
  const dyn = buildDynamics(validateAssembly({ ...doc, held: roles.steering ? [roles.steering] : [] }));
  solveModel(dyn.model);
  const contacts = m.wheels.filter((w) => w.axle === axle).map((w, i) => ({ part: roles.corners[i].upright, local: [w.designContact[0] + shift, w.designContact[1], w.designContact[2]] }));
  const rates = axleRates(dyn, [contacts[0], contacts[1]], { tyreRate: TYRE });
  const metrics = new SuspensionModel(validateAssembly(doc)).evaluate().metrics as { axle: Record<string, number> };
  return { K: (rates.rollRideStiffness! * 180) / Math.PI, rc: metrics.axle.roll_center_kinematic_z, x: contacts[0].local[0] - shift };
}

describe('roll gradient, closed form', () => {
  it('equals W h′ / (K_φ − W h′) with the axles\' own roll stiffnesses and roll centres', () => {
    // preload the springs with their tension at rest until the car rests at design
    let preload = { front: 0, rear: 0 };
    let m = buildVehicle(stiffCar(preload));
    for (let i = 0; i < 4; i++) {
      const rest = staticAnalysis(m) as SolvedState & { elements: Record<string, number> };
      preload = { front: rest.elements.front_left_spring, rear: rest.elements.rear_left_spring };
      m = buildVehicle(stiffCar(preload));
    }
    const rest = staticAnalysis(m) as SolvedState;
    expect(rest.status).toBe('solved');
    // at design: the wheels have not moved against the body
    for (const c of ['front_left', 'rear_left'] as const) expect(Math.abs(rest.corners[c].wheel_travel)).toBeLessThan(1e-3);
    const exact = lateralSummary(m).roll_gradient;

    const f = axleAtDesign(m, 'front'), r = axleAtDesign(m, 'rear');
    const W = m.spec.body.mass * g;
    const cg = [-m.spec.cg_position[0], m.spec.cg_position[2]];
    const axis = f.rc + ((r.rc - f.rc) * (cg[0] - f.x)) / (r.x - f.x);
    const h = cg[1] - axis;
    const closed = ((W * h) / (f.K + r.K - W * h)) * (180 / Math.PI);
    expect(h).toBeGreaterThan(100);
    expect(Math.abs(exact - closed) / closed).toBeLessThan(1e-3);
  });
});
