/** What a geometry file reads as (geometry.ts validates it into these): apart so the setup solve can name them. */
import type { ActuationType, AxlePosition, Side, SpringType, SteeringType, Topology } from './hardpoints';
import type { Point3 } from './read';
import type { CornerSetup, Devices } from './devices';
import type { Compliance } from './compliance';
import type { GeometryDoc } from '../../assembly/geometry/doc.ts';

export type GeometryScope = 'corner' | 'axle';

export interface Actuation {
  type: ActuationType;
  /** The body carrying the rod or damper end: `lower_wishbone`, `upright`, `lower_rear_link`, … */
  mount: string;
}

/** Tyre size as in 270/55R13: section width mm, aspect ratio as a fraction, rim inches. */
export interface Tire {
  aspect_ratio: number;
  section_width: number;
  rim_diameter: number;
}

export interface Wheel {
  /** ET in mm: positive moves the wheel centre inboard along the spin axis. */
  offset: number;
  tire: Tire;
  /** mm, computed by `tireRadius`. */
  tire_radius: number;
}

export interface VehicleConfig {
  cg_position?: Point3;
  wheelbase?: number;
  /** Fraction of braking on the front axle, 0…1; enables anti_dive / anti_lift. */
  front_brake_bias?: number;
  /** Enables anti_squat on that axle. */
  driven_axle?: AxlePosition;
}

export interface CornerGeometry {
  side: Side;
  /**
   * mm, chassis axes, in the side's own coordinates (a right corner has y < 0). With a
   * setup (a camber or length shim) these are the setup-solved points: the design state.
   */
  hardpoints: Record<string, Point3>;
  /** The camber and length shims of this corner (`suspension-devices.md`). */
  setup?: CornerSetup;
  /** The points as authored, when a setup moved them. */
  authored_hardpoints?: Record<string, Point3>;
  /** What the setup changed at design, degrees: camber and toe (setup minus authored). */
  setup_change?: { camber: number; toe_angle: number };
}

export interface Geometry {
  scope: GeometryScope;
  topology: Topology;
  /** Left first; a corner file gives exactly one, of its own side. */
  corners: CornerGeometry[];
  vehicle: VehicleConfig;
  axle_position: AxlePosition;
  steering: SteeringType;
  actuation: Actuation;
  spring: SpringSettings;
  wheel: Wheel;
  /** Damper, anti-roll bar, heave link (all `none` when absent). */
  devices?: Devices;
  /** Axle-level points authored once and never mirrored (`hardpoints.center`). */
  center?: Record<string, Point3>;
  /** Steering wheel: rack travel per steering-wheel turn, mm (enables the steering ratio). */
  rack_travel_per_revolution?: number;
  /** Bushings and compliant links (`compliance:`, docs/compliance.md); absent: every pivot ideal, every link rigid. */
  compliance?: Compliance;
  /** CAD or mesh files per part name (`upright`, `chassis`, `tyre`, `damper`, …), paths relative to the file (docs/geometry.md). */
  part_geometry?: Record<string, GeometryDoc[]>;
  /** The parsed input, untouched. */
  raw: unknown;
}

/**
 * The spring setting. Optional force-element fields (docs/dynamics.md): a coilover's
 * `rate` (N/mm), `free_length` (mm; default its length at design, so no load there),
 * `preload` (N) and `damping` (N·s/mm); a torsion bar's `rate` (N·mm/deg on the rocker
 * shaft) and `preload` (N·mm at design). Without `rate` the spring is geometry only.
 */
export interface SpringSettings {
  type: SpringType;
  rate?: number;
  free_length?: number;
  preload?: number;
  damping?: number;
}
