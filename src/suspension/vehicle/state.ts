/**
 * What one solved state of the vehicle says (vehicle.md "Output fields"): per corner the
 * road's force on the tyre, the contact point, the wheel travel against the body, the ride
 * height, camber to the road and toe against the body; the body's heave, pitch and roll;
 * the vehicle's mass and centre of mass. Angles in degrees, lengths mm, forces N, world
 * axes of the front axle file (ISO: x forward, y left, z up).
 */
import { rotationMatrix } from '../../../kernel/dual';
import type { Vec3Tuple } from '../../../kernel/vec3';
import { CORNERS, type CornerName, type VehicleModel } from './assembly';

export interface CornerState {
  /** N: [Fx, Fy, Fz], the road's force on the tyre. */
  contact_load: Vec3Tuple;
  /** mm. */
  contact_point: Vec3Tuple;
  /** mm: the wheel centre's rise against the body (bump +) since design. */
  wheel_travel: number;
  /** mm: the body's height above the road at the corner's design wheel centre. */
  ride_height: number;
  /** deg: to the road (top inward −); toe against the body (toe-in +). */
  camber: number;
  toe: number;
}

export interface VehicleState {
  corners: Record<CornerName, CornerState>;
  body: { heave: number; pitch: number; roll: number };
  vehicle: { mass: number; cg: Vec3Tuple };
}

const DEG = 180 / Math.PI;
const R = new Float64Array(9);

/** A pose variable's position and rotation matrix (world from part). */
export function poseOf(m: Pick<VehicleModel, 'dyn'>, part: string, Rout: Float64Array): Float64Array {
  const v = m.dyn.system.variables[m.dyn.model.parts.get(part)!];
  rotationMatrix(Rout, m.dyn.system.state, v.offset + 3);
  return m.dyn.system.state.subarray(v.offset, v.offset + 3);
}

/** World position of a point given in a part's frame. */
function worldPoint(Rm: Float64Array, p: ArrayLike<number>, x: ArrayLike<number>): Vec3Tuple {
  return [0, 1, 2].map((i) => Rm[3 * i] * x[0] + Rm[3 * i + 1] * x[1] + Rm[3 * i + 2] * x[2] + p[i]) as Vec3Tuple;
}

/** What a state's report reads: the model, and each contact's last load and point (a run gives its tyres' here). */
export type StateSource = Pick<VehicleModel, 'dyn' | 'wheels' | 'road' | 'cgDesign'> & { contacts: readonly { last: { force: number; contact: ArrayLike<number>; shear: ArrayLike<number> } }[] };

/** The state's report; the contacts' `last` values are those of the latest force evaluation (the solve's). */
export function vehicleState(m: StateSource): VehicleState {
  const Rb = new Float64Array(9);
  const pb = poseOf(m, 'body', Rb);
  const corners = {} as Record<CornerName, CornerState>;
  m.wheels.forEach((w, i) => {
    const c = m.contacts[i].last;
    const pw = poseOf(m, w.upright, R);
    const centre = worldPoint(R, pw, w.centre);
    const a = unit([0, 1, 2].map((k) => R[3 * k] * w.axis[0] + R[3 * k + 1] * w.axis[1] + R[3 * k + 2] * w.axis[2]));
    const sigma = w.side === 'left' ? 1 : -1;
    // in body axes: Rbᵀ (x − pb)
    const rel = [0, 1, 2].map((k) => Rb[k] * (centre[0] - pb[0]) + Rb[3 + k] * (centre[1] - pb[1]) + Rb[6 + k] * (centre[2] - pb[2]));
    const ab = [0, 1, 2].map((k) => Rb[k] * a[0] + Rb[3 + k] * a[1] + Rb[6 + k] * a[2]);
    corners[w.corner] = {
      contact_load: [c.shear[0], c.shear[1], c.force],
      contact_point: [c.contact[0], c.contact[1], c.contact[2]],
      wheel_travel: rel[2] - w.designCentre[2],
      ride_height: worldPoint(Rb, pb, w.designCentre)[2] - m.road,
      camber: Math.atan2(-a[2], sigma * a[1]) * DEG,
      toe: Math.atan2(ab[0], sigma * ab[1]) * DEG,
    };
  });
  const cgBody = worldPoint(Rb, pb, m.cgDesign);
  // every mass at its centre
  const cg = [0, 0, 0];
  let mass = 0;
  for (const b of m.dyn.bodies) {
    const v = m.dyn.system.variables[b.variable];
    const p = m.dyn.system.state.subarray(v.offset, v.offset + 3);
    rotationMatrix(R, m.dyn.system.state, v.offset + 3);
    const x = worldPoint(R, p, b.body.centre);
    for (let k = 0; k < 3; k++) cg[k] += b.body.mass * x[k];
    mass += b.body.mass;
  }
  return {
    corners: Object.fromEntries(CORNERS.map((c) => [c, corners[c]])) as Record<CornerName, CornerState>,
    body: { heave: cgBody[2] - m.cgDesign[2], pitch: Math.asin(-clamp(Rb[6])) * DEG, roll: Math.atan2(Rb[7], Rb[8]) * DEG },
    vehicle: { mass: mass * 1000, cg: cg.map((x) => x / mass) as Vec3Tuple },
  };
}

const clamp = (x: number) => Math.max(-1, Math.min(1, x));
function unit(v: number[]): number[] {
  const l = Math.hypot(v[0], v[1], v[2]);
  return v.map((x) => x / l);
}
