/**
 * What a suspension model (model.ts) holds per corner and what its devices (devices.ts) read
 * of it, apart from model.ts so that the devices, which the model builds, import no model.
 */
import type { PointCoordinateBlock, PointExpr } from './targets';
import type { CornerRoles, PointRole, SuspensionRoles } from './roles';

export interface CornerRuntime {
  roles: CornerRoles;
  sigma: 1 | -1;
  upright: number;
  points: Map<string, PointExpr>;
  axle: [PointExpr, PointExpr];
  /** The wheel centre as a point of the upright (local), for drivers and targets. */
  wheelCenterLocal: Float64Array;
  wheelCenterZ: PointCoordinateBlock;
  design: { wheelCenterZ: number; rockerReference?: Float64Array; wheelCenter: Float64Array };
  tireRadius: number;
}

export type MetricValues = Record<string, number | null>;

/** The model's roles, corners and points, as the devices read them (SuspensionModel implements it). */
export interface ModelPoints {
  readonly roles: SuspensionRoles;
  readonly corners: CornerRuntime[];
  /** World position of a point expression now. */
  pointValue(expr: PointExpr, out?: Float64Array): Float64Array;
  resolveRole(role: PointRole): PointExpr;
}
