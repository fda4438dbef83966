/**
 * Steering geometry of a steered front axle (issue 15, item 5): how the two road wheels
 * share a turn, and what the driver turns for it. Plain numbers of one state: the wheel
 * steer angles and their rates per mm of rack are inputs (the latter exact, from the
 * tangent), so nothing here differentiates.
 *
 * With δL, δR the steer angles (deg, + = left turn, `steer_angle`), the inner wheel is the
 * one on the turn's side (the left one when δL + δR > 0), t the design track, L the wheelbase:
 * - `toe_out_on_turns` = |δi| − |δo|: positive when the inner wheel steers more (negative
 *   for anti-Ackermann);
 * - Ackermann's outer angle for the inner one: cot δo* = cot δi + t/L (all four wheels
 *   rolling about one point on the rear axle line);
 *   `ackermann_percentage` = 100·(|δi| − |δo|) / (|δi| − |δo*|): 100 % Ackermann, 0 %
 *   parallel steer, negative anti-Ackermann;
 * - `turning_radius` = L / sin|δo|: the path radius of the outer front wheel about the
 *   point where its own axis line crosses the rear axle line, mm;
 * - with a rack travel c per steering-wheel turn: `steering_wheel_angle` = 360·rack/c
 *   (deg, + = anticlockwise, a left turn) and `steering_ratio` = d(steering wheel angle) /
 *   d(mean road-wheel steer angle) = (360/c) / mean(dδ/d rack): the local ratio at this state.
 * Each is null where undefined (straight ahead, no wheelbase, no rack travel).
 */
export interface SteeringGeometryInput {
  steerLeft: number;
  steerRight: number;
  /** d steer_angle / d rack_displacement of each wheel, deg/mm, or null. */
  rateLeft: number | null;
  rateRight: number | null;
  rackDisplacement: number;
  track: number;
  wheelbase?: number;
  rackTravelPerRevolution?: number;
}

export const STEERING_GEOMETRY_METRIC_NAMES = ['ackermann_percentage', 'toe_out_on_turns', 'turning_radius', 'steering_wheel_angle', 'steering_ratio'] as const;
export type SteeringGeometryMetrics = Record<(typeof STEERING_GEOMETRY_METRIC_NAMES)[number], number | null>;

/** Below this steer angle (deg) the car goes straight: the turn metrics are undefined. */
const STRAIGHT_DEG = 1e-6;
const RAD = Math.PI / 180;

/** The ideal (Ackermann) outer-wheel angle for an inner one, both as magnitudes in degrees. */
export function ackermannOuterAngle(inner: number, track: number, wheelbase: number): number {
  return Math.atan(1 / (1 / Math.tan(inner * RAD) + track / wheelbase)) / RAD;
}

export function steeringGeometry(input: SteeringGeometryInput): SteeringGeometryMetrics {
  const { steerLeft, steerRight, track, wheelbase, rackTravelPerRevolution: travel } = input;
  const leftInner = steerLeft + steerRight >= 0;
  const inner = Math.abs(leftInner ? steerLeft : steerRight), outer = Math.abs(leftInner ? steerRight : steerLeft);
  const turning = inner > STRAIGHT_DEG;
  const out: SteeringGeometryMetrics = {
    ackermann_percentage: null, toe_out_on_turns: turning ? inner - outer : null, turning_radius: null, steering_wheel_angle: null, steering_ratio: null,
  };
  if (turning && wheelbase !== undefined) {
    const ideal = ackermannOuterAngle(inner, track, wheelbase);
    out.ackermann_percentage = (100 * (inner - outer)) / (inner - ideal);
    if (outer > STRAIGHT_DEG) out.turning_radius = wheelbase / Math.sin(outer * RAD);
  }
  if (travel !== undefined) {
    out.steering_wheel_angle = (360 * input.rackDisplacement) / travel;
    if (input.rateLeft !== null && input.rateRight !== null) {
      const mean = (input.rateLeft + input.rateRight) / 2;
      out.steering_ratio = mean !== 0 ? 360 / travel / mean : null;
    }
  }
  return out;
}
