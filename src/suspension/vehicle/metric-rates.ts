/**
 * The vehicle's figures at a solved state as named metrics (`vehicle.<corner>.contact_load`,
 * `vehicle.roll`, …; docs/vehicle.md "Gradients"), their values from the state's report
 * (state.ts) and their rates along a tangent of the state (every part's body-frame twist,
 * dR = R[ω]ₓ, dp = R v), written out from the same definitions: the gradients' last step.
 */
import { rotationMatrix } from '../../../kernel/dual';
import { CORNERS, type VehicleModel } from './assembly';
import type { VehicleState } from './state';
import { cross, derivativeReport, type PoseRate } from './tangent';

const DEG = 180 / Math.PI;
const CORNER_METRICS = ['contact_load', 'ride_height', 'wheel_travel', 'camber', 'toe'] as const;

/** Every figure of a state a gradient can be asked of, as `vehicle.<name>`. */
export const STATIC_METRICS: readonly string[] = [
  ...CORNERS.flatMap((c) => CORNER_METRICS.map((k) => `vehicle.${c}.${k}`)),
  'vehicle.heave', 'vehicle.pitch', 'vehicle.roll', 'vehicle.front_axle_load', 'vehicle.rear_axle_load',
];

/** Each metric's unit; a gradient is that per the number's file unit (mm, N/mm, N·mm/deg, kg). */
export const VEHICLE_METRIC_UNITS = { contact_load: 'N', ride_height: 'mm', wheel_travel: 'mm', camber: 'deg', toe: 'deg', heave: 'mm', pitch: 'deg', roll: 'deg', axle_load: 'N', roll_gradient: 'deg/g', pitch_gradient: 'deg/g', lateral_load_transfer: 'N/g', front_load_transfer_share: '1' };

/** The metrics' values at a state. */
export function staticMetricValues(s: VehicleState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of CORNERS) {
    const x = s.corners[c];
    out[`vehicle.${c}.contact_load`] = x.contact_load[2];
    out[`vehicle.${c}.ride_height`] = x.ride_height;
    out[`vehicle.${c}.wheel_travel`] = x.wheel_travel;
    out[`vehicle.${c}.camber`] = x.camber;
    out[`vehicle.${c}.toe`] = x.toe;
  }
  out['vehicle.heave'] = s.body.heave; out['vehicle.pitch'] = s.body.pitch; out['vehicle.roll'] = s.body.roll;
  out['vehicle.front_axle_load'] = s.corners.front_left.contact_load[2] + s.corners.front_right.contact_load[2];
  out['vehicle.rear_axle_load'] = s.corners.rear_left.contact_load[2] + s.corners.rear_right.contact_load[2];
  return out;
}

/** Each part's pose at the state with its rate along `delta` (the solver's tangent layout). */
export function poseRates(m: VehicleModel, delta: Float64Array, layout: Int32Array): (part: string) => PoseRate {
  const { dyn } = m, sys = dyn.system;
  return (part) => {
    const id = dyn.model.parts.get(part)!, v = sys.variables[id], c0 = layout[id];
    const R = rotationMatrix(new Float64Array(9), sys.state, v.offset + 3);
    return { R, p: Array.from(sys.state.subarray(v.offset, v.offset + 3)), w: c0 < 0 ? [0, 0, 0] : Array.from(delta.subarray(c0, c0 + 3)), v: c0 < 0 ? [0, 0, 0] : Array.from(delta.subarray(c0 + 3, c0 + 6)) };
  };
}

const rot = (R: ArrayLike<number>, x: readonly number[]) => [0, 1, 2].map((i) => R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2]);
const rotT = (R: ArrayLike<number>, x: readonly number[]) => [0, 1, 2].map((i) => R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2]);
/** d atan2(y, x) in degrees. */
const dAtan2 = (y: number, x: number, dy: number, dx: number) => ((x * dy - y * dx) / (x * x + y * y)) * DEG;

/** The metrics' rates along a tangent of the state (`cg`: the rate of the body's design centre of mass, where heave is measured). */
export function staticMetricRates(m: VehicleModel, pose: (part: string) => PoseRate, cg: readonly number[] = [0, 0, 0]): Record<string, number> {
  const d = derivativeReport(m, pose);
  const b = pose('body');
  const out: Record<string, number> = {};
  for (const w of m.wheels) {
    const c = w.corner, u = pose(w.upright), sigma = w.side === 'left' ? 1 : -1;
    const l = Math.hypot(w.axis[0], w.axis[1], w.axis[2]), al = w.axis.map((x) => x / l);
    const a = rot(u.R, al), da = rot(u.R, cross(u.w, al));
    const ab = rotT(b.R, a), wab = cross(b.w, ab), dab = rotT(b.R, da).map((x, i) => x - wab[i]);
    const rh = rot(b.R, cross(b.w, w.designCentre).map((x, i) => x + b.v[i]));
    out[`vehicle.${c}.contact_load`] = d.load[c];
    out[`vehicle.${c}.ride_height`] = rh[2];
    out[`vehicle.${c}.wheel_travel`] = d.travel[c];
    out[`vehicle.${c}.camber`] = dAtan2(-a[2], sigma * a[1], -da[2], sigma * da[1]);
    out[`vehicle.${c}.toe`] = dAtan2(ab[0], sigma * ab[1], dab[0], sigma * dab[1]);
  }
  // heave = (R c + p)_z − c_z: c itself may move (the body's cg_position)
  out['vehicle.heave'] = d.heave + b.R[6] * cg[0] + b.R[7] * cg[1] + b.R[8] * cg[2] - cg[2];
  out['vehicle.pitch'] = d.pitch; out['vehicle.roll'] = d.roll;
  out['vehicle.front_axle_load'] = d.load.front_left + d.load.front_right;
  out['vehicle.rear_axle_load'] = d.load.rear_left + d.load.rear_right;
  return out;
}
