/**
 * Human labels and units of the sweep's metric names (suspension.md), for axis titles and
 * tables. A name may carry the axle's group prefix (`left.camber`, `axle.roll`), which is
 * kept in the label (`camber, left`).
 */

export interface MetricLabel {
  /** e.g. `camber`, `camber gain` */
  readonly label: string;
  /** e.g. `°`, `mm`, `°/mm`, `%`; empty for a ratio */
  readonly unit: string;
}

const ANGLES = new Set(['camber', 'toe_angle', 'steer_angle', 'caster', 'kpi', 'caster_virtual', 'kpi_virtual', 'svsa_angle', 'rocker_angle', 'roll']);
const PERCENT = new Set(['anti_dive', 'anti_lift', 'anti_squat']);
const NAMES: Readonly<Record<string, string>> = {
  toe_angle: 'toe', steer_angle: 'steer angle', kpi: 'KPI', kpi_virtual: 'KPI (virtual axis)',
  caster_virtual: 'caster (virtual axis)', steering_axis_offset_ground: 'steering axis offset at ground',
  steering_axis_offset_ground_virtual: 'steering axis offset at ground (virtual axis)',
  scrub_radius: 'scrub radius', scrub_radius_virtual: 'scrub radius (virtual axis)',
  mechanical_trail: 'mechanical trail', mechanical_trail_virtual: 'mechanical trail (virtual axis)',
  svic_x: 'side-view IC x', svic_z: 'side-view IC z', fvic_y: 'front-view IC y', fvic_z: 'front-view IC z',
  svsa_length: 'side-view swing arm', fvsa_length: 'front-view swing arm', svsa_angle: 'side-view swing arm angle',
  anti_dive: 'anti-dive', anti_lift: 'anti-lift', anti_squat: 'anti-squat',
  wheel_travel: 'wheel travel', half_track: 'half track', damper_length: 'damper length', rocker_angle: 'rocker angle',
  roll_center_y: 'roll centre y', roll_center_z: 'roll centre z',
  roll_center_kinematic_y: 'kinematic roll centre y', roll_center_kinematic_z: 'kinematic roll centre z',
  track_change: 'track change', ride_height_change: 'ride height change', rack_displacement: 'rack travel',
  wheel_center_x: 'wheel centre x', wheel_center_z: 'wheel centre z',
};
/** Special names for the derivatives people know by another name. */
const DERIVATIVES: Readonly<Record<string, string>> = {
  deriv_camber_wrt_hub_z: 'camber gain', deriv_toe_angle_wrt_hub_z: 'bump steer',
  deriv_damper_length_wrt_hub_z: 'motion ratio', deriv_toe_angle_wrt_rack_displacement: 'steering ratio (toe per rack)',
};

/** The label and unit of a metric name as the sweep reports it (flattened for an axle). */
export function metricLabel(name: string): MetricLabel {
  const dot = name.indexOf('.');
  const group = dot > 0 ? name.slice(0, dot) : '';
  const base = dot > 0 ? name.slice(dot + 1) : name;
  const { label, unit } = baseLabel(base);
  return { label: group && group !== 'axle' ? `${label}, ${group}` : label, unit };
}

function baseLabel(base: string): MetricLabel {
  const deriv = /^deriv_(.+)_wrt_(hub_z|rack_displacement)$/.exec(base);
  if (deriv) {
    const of = baseLabel(deriv[1]);
    const unit = of.unit === 'mm' ? '' : `${of.unit}/mm`;
    return { label: DERIVATIVES[base] ?? `d(${of.label})/d(${deriv[2] === 'hub_z' ? 'wheel centre z' : 'rack travel'})`, unit };
  }
  const unit = ANGLES.has(base) ? '°' : PERCENT.has(base) ? '%' : 'mm';
  return { label: NAMES[base] ?? base.replaceAll('_', ' '), unit };
}

/** `camber (°)`: an axis title. */
export function axisTitle(label: MetricLabel): string {
  return label.unit ? `${label.label} (${label.unit})` : `${label.label} (ratio)`;
}
