/**
 * What a tyre model is to the rest of Kinemate: steady-state forces from slip, load and
 * camber, in ISO-W axes (x forward in the wheel plane, z up, y to the left; a positive slip
 * angle gives a negative fy, a positive slip ratio a positive fx). The Magic Formula
 * (magic-formula.ts) and the linear tyre (linear.ts) both are one.
 *
 * A model is written once over an Arith (arith.ts): plain numbers (NUMBERS) for curves and
 * values, a DualTape for the exact derivatives a force element needs (its tangent stiffness).
 */
import type { Dual } from '../../kernel/dual';
import { NUMBERS, type Arith } from './arith';

/** The three forces of one evaluation: fx, fy in N, mz in N·mm. */
export interface TyreOut<T> {
  fx: T;
  fy: T;
  mz: T;
}
/** The forces as duals on a tape (valid until its next reset). */
export type TyreForceDuals = TyreOut<Dual>;

export interface TyreModel {
  readonly kind: 'magic-formula' | 'linear';
  /** Vertical load the model is characterised at (N): FNOMIN, or the linear tyre's reference. */
  readonly nominalLoad: number;
  /** Unloaded radius, mm. */
  readonly unloadedRadius: number;
  /** Vertical stiffness, N/mm. */
  readonly verticalStiffness: number;
  /**
   * fx, fy (N) and mz (N·mm) at slip angle `alpha` (rad), slip ratio `kappa`, vertical load
   * `fz` (N; none at fz ≤ 0) and camber `gamma` (rad), written into `out`.
   */
  forces<T>(t: Arith<T>, alpha: T, kappa: T, fz: T, gamma: T, out: TyreOut<T>): TyreOut<T>;
}

/** Plain-number forces (fx, fy N; mz N·mm). */
export type TyreForces = TyreOut<number>;

/** The model's forces in plain numbers (the same code as the force element's duals); slip angle and camber in radians. */
export function steadyForces(model: TyreModel, alpha: number, kappa: number, fz: number, gamma: number): TyreForces {
  return model.forces(NUMBERS, alpha, kappa, fz, gamma, { fx: 0, fy: 0, mz: 0 });
}

/**
 * The same tyre mounted mirrored (a left tyre's file on a right wheel): fy and mz change sign
 * with slip angle and camber, fy(α, γ) → −fy(−α, −γ), mz likewise, fx(κ, α, γ) → fx(κ, −α, −γ).
 */
export class MirroredTyre implements TyreModel {
  readonly kind;
  readonly nominalLoad: number;
  readonly unloadedRadius: number;
  readonly verticalStiffness: number;
  constructor(readonly tyre: TyreModel) {
    this.kind = tyre.kind; this.nominalLoad = tyre.nominalLoad;
    this.unloadedRadius = tyre.unloadedRadius; this.verticalStiffness = tyre.verticalStiffness;
  }
  forces<T>(t: Arith<T>, alpha: T, kappa: T, fz: T, gamma: T, out: TyreOut<T>): TyreOut<T> {
    this.tyre.forces(t, t.k(alpha, -1), kappa, fz, t.k(gamma, -1), out);
    out.fy = t.k(out.fy, -1); out.mz = t.k(out.mz, -1);
    return out;
  }
}
