/**
 * The metric names a suspension's gradients are offered for: a corner's, an axle's own, the
 * corner's mirrored roll centre, and the second-order ones computed only when asked for.
 */
import type { Geometry } from '../files';
import { AXLE_DERIVATIVE_METRICS, DERIVATIVE_METRICS } from './derivatives';
import { deviceMetricsOf } from './devices';

/** Metrics whose gradients are offered (corner metrics that are functions of the state and the hardpoints alone). */
export const SENSITIVITY_METRICS = [
  'camber', 'toe_angle', 'steer_angle', 'caster', 'kpi', 'steering_axis_offset_ground', 'scrub_radius', 'mechanical_trail',
  'svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle',
  'anti_dive', 'anti_lift', 'anti_squat', 'wheel_travel', 'half_track', 'damper_length', 'rocker_angle',
] as const;

/**
 * An axle's own metrics with gradients (`metrics.axle.<name>`, beside the sides' groups).
 * The kinematic roll centre's are second derivatives (src/suspension/gradients/roll-centre.ts).
 */
export const AXLE_SENSITIVITY_METRICS = [
  'heave', 'roll', 'roll_center_y', 'roll_center_z', 'roll_center_kinematic_y', 'roll_center_kinematic_z',
  'track', 'track_change', 'ride_height_change', 'rack_displacement',
] as const;

/**
 * A corner file's roll centre: that of the axle it mirrors about y = 0 (the chassis
 * centreline), both wheels at the same travel, so on y = 0; its height z in chassis
 * coordinates. `roll_center_z` by the contact centre → FVIC line, `roll_center_kinematic_z`
 * by the line through the contact centre normal to its front-view velocity in bump (as the
 * axle's `roll_center_z`, `roll_center_kinematic_z` of the mirrored axle file).
 */
export const CORNER_ROLL_CENTRE_METRICS = ['roll_center_z', 'roll_center_kinematic_z'] as const;

/** Second-order metrics: computed only when asked for (one tangent-mode pass per coordinate). */
export const KINEMATIC_ROLL_CENTRE = new Set(['roll_center_kinematic_y', 'roll_center_kinematic_z']);

/** The metric names a geometry offers gradients for: per side, and an axle's own. */
export function sensitivityMetricsOf(geometry: Geometry): { side: readonly string[]; axle: readonly string[] } {
  // device, beam-axle and steering-geometry metrics where the file defines them (device-sensitivity.ts)
  const extra = deviceMetricsOf(geometry);
  return geometry.scope === 'axle'
    ? { side: [...SENSITIVITY_METRICS, ...AXLE_DERIVATIVE_METRICS, ...extra.side], axle: [...AXLE_SENSITIVITY_METRICS, ...extra.axle] }
    : { side: [...SENSITIVITY_METRICS, ...CORNER_ROLL_CENTRE_METRICS, ...DERIVATIVE_METRICS, ...extra.side], axle: extra.axle };
}

