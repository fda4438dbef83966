/**
 * A tyre's steady-state curves at one load and camber: every combination of the slip
 * angles and slip ratios, slip angle varying slowest (what `kinemate tyre` prints and
 * `kinemate plot` draws). Angles in degrees, forces in N, the moment in N·mm.
 */
import { steadyForces, type TyreModel } from './model';

export interface TyreCurveStep {
  readonly load: number;
  readonly slip_angle: number;
  readonly slip_ratio: number;
  readonly camber: number;
  readonly fx: number;
  readonly fy: number;
  readonly mz: number;
}

export interface TyreCurveRequest {
  /** N. */
  readonly load: number;
  /** Degrees. */
  readonly slipAngles: readonly number[];
  readonly slipRatios: readonly number[];
  /** Degrees. */
  readonly camber: number;
}

export function tyreCurves(tyre: TyreModel, request: TyreCurveRequest): TyreCurveStep[] {
  const deg = Math.PI / 180, steps: TyreCurveStep[] = [];
  for (const slipAngle of request.slipAngles) {
    for (const slipRatio of request.slipRatios) {
      const f = steadyForces(tyre, slipAngle * deg, slipRatio, request.load, request.camber * deg);
      steps.push({ load: request.load, slip_angle: slipAngle, slip_ratio: slipRatio, camber: request.camber, fx: f.fx, fy: f.fy, mz: f.mz });
    }
  }
  return steps;
}

/** A:B:N as its N values from A to B, both ends included (N = 1: A alone). */
export function rangeValues(from: number, to: number, count: number): number[] {
  if (count === 1) return [from];
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? to : from + ((to - from) * i) / (count - 1)));
}
