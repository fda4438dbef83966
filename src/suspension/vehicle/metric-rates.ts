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
import type { WheelMove } from './axle-points';

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

/**
 * A number with two first-order parts and their mixed part (ε₁² = ε₂² = 0): v + a ε₁ + b ε₂ + ab ε₁ε₂.
 * The figures' maps' own second derivatives: along the state's rate q′ (ε₁) and a figure's
 * tangent δ held in the moved body frames (ε₂), R(ε₁, ε₂) = R (I + ε₁[ω₁]ₓ)(I + ε₂[ω₂]ₓ).
 */
interface Hyper { v: number; a: number; b: number; ab: number }
const hmul = (x: Hyper, y: Hyper): Hyper => ({ v: x.v * y.v, a: x.a * y.v + x.v * y.a, b: x.b * y.v + x.v * y.b, ab: x.ab * y.v + x.a * y.b + x.b * y.a + x.v * y.ab });
/** g(x) from g, g′, g″ at x.v. */
const happly = (x: Hyper, g: number, g1: number, g2: number): Hyper => ({ v: g, a: g1 * x.a, b: g1 * x.b, ab: g1 * x.ab + g2 * x.a * x.b });

/** The world position of a part's local point x (and, with `direction`, of its direction) along both tangents. */
function hyperPoint(p1: PoseRate, p2: PoseRate, x: readonly number[], direction: boolean, dx: readonly number[] = [0, 0, 0]): Hyper[] {
  // R(x + ε₂(ω₂ × x + v₂)) with R → R(I + ε₁[ω₁]ₓ), plus p + ε₁ R v₁; the local x itself moving by ε₁ dx (an axle point)
  const t2 = direction ? cross(p2.w, x) : cross(p2.w, x).map((c, i) => c + p2.v[i]);
  const t1 = (direction ? cross(p1.w, x) : cross(p1.w, x).map((c, i) => c + p1.v[i])).map((c, i) => c + dx[i]);
  const t12 = cross(p1.w, t2).map((c, i) => c + cross(p2.w, dx)[i]);
  const v = rot(p1.R, x), a = rot(p1.R, t1), b = rot(p1.R, t2), ab = rot(p1.R, t12);
  return [0, 1, 2].map((i) => ({ v: v[i] + (direction ? 0 : p1.p[i]), a: a[i], b: b[i], ab: ab[i] }));
}

/**
 * The mixed second derivatives of the body's roll and pitch (deg) and each tyre's vertical load
 * (N) along `first` (the state's rate q′, with a number's `wheels` moves) and `second` (a
 * figure's tangent δ): with the figures' linear maps at the moved state applied to δ′, the rate
 * of a gradient figure.
 */
export function mixedReport(m: VehicleModel, first: (part: string) => PoseRate, second: (part: string) => PoseRate, wheels: readonly WheelMove[] = []): { roll: number; pitch: number; load: Record<string, number> } {
  const b1 = first('body'), b2 = second('body');
  // body R's third row: R(ε) e_k's z for k = 0, 1, 2
  const row = [0, 1, 2].map((k) => hyperPoint(b1, b2, [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0], true)[2]);
  const [r31, r32, r33] = row;
  const inv33 = happly(r33, 1 / r33.v, -1 / (r33.v * r33.v), 2 / (r33.v * r33.v * r33.v));
  const ratio = hmul(r32, inv33);
  const roll = happly(ratio, 0, 1 / (1 + ratio.v * ratio.v), (-2 * ratio.v) / ((1 + ratio.v * ratio.v) ** 2)).ab * DEG;
  const s = 1 - r31.v * r31.v;
  const pitch = -happly(r31, 0, 1 / Math.sqrt(s), r31.v / (s * Math.sqrt(s))).ab * DEG;
  const load: Record<string, number> = {};
  for (const w of m.wheels) {
    const u1 = first(w.upright), u2 = second(w.upright);
    const l = Math.hypot(w.axis[0], w.axis[1], w.axis[2]);
    // an axle point moves the wheel's centre and axis in the upright along `first` too
    const dc = [0, 0, 0], dd = [0, 0, 0];
    for (const x of wheels) if (x.corner === w.corner) for (let k = 0; k < 3; k++) { dc[k] += x.centre[k]; dd[k] += x.axis[k]; }
    const cz = hyperPoint(u1, u2, w.centre, false, dc)[2];
    const az = hyperPoint(u1, u2, w.axis.map((x) => x / l), true, dd)[2];
    // N = k (road − c_z + r √(1 − a_z²))
    const q = { v: 1 - az.v * az.v, a: -2 * az.v * az.a, b: -2 * az.v * az.b, ab: -2 * (az.a * az.b + az.v * az.ab) };
    const root = happly(q, Math.sqrt(q.v), 1 / (2 * Math.sqrt(q.v)), -1 / (4 * q.v * Math.sqrt(q.v)));
    load[w.corner] = w.tyre.stiffness * (-cz.ab + w.radius * root.ab);
  }
  return { roll, pitch, load };
}
