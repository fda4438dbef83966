/**
 * What a tyre model is to the rest of Kinemate: steady-state forces from slip, load and
 * camber, in ISO-W axes (x forward in the wheel plane, z up, y to the left; a positive slip
 * angle gives a negative fy, a positive slip ratio a positive fx). The Magic Formula
 * (magic-formula.ts) and the linear tyre (linear.ts) both are one.
 *
 * Inputs and outputs are duals on a DualTape: a tape of width 0 gives plain numbers, a
 * wider one the exact derivatives a force element needs (its tangent stiffness).
 */
import type { Dual } from '../../kernel/dual';
import { DualTape } from './dual-tape';

/** The three forces of one evaluation: duals on the tape (valid until its next reset). */
export interface TyreForceDuals {
  fx: Dual;
  fy: Dual;
  /** N·mm. */
  mz: Dual;
}

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
  forces(t: DualTape, alpha: Dual, kappa: Dual, fz: Dual, gamma: Dual, out: TyreForceDuals): TyreForceDuals;
}

/** Plain-number forces (fx, fy N; mz N·mm); slip angle and camber in radians. */
export interface TyreForces { fx: number; fy: number; mz: number }

const plain = new DualTape(0);
const plainOut: TyreForceDuals = { fx: plain.c(0), fy: plain.c(0), mz: plain.c(0) };

/** The model's forces in plain numbers (the same code as the force element's duals). */
export function steadyForces(model: TyreModel, alpha: number, kappa: number, fz: number, gamma: number): TyreForces {
  const t = plain.reset();
  const out = model.forces(t, t.c(alpha), t.c(kappa), t.c(fz), t.c(gamma), plainOut);
  return { fx: out.fx.v, fy: out.fy.v, mz: out.mz.v };
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
  forces(t: DualTape, alpha: Dual, kappa: Dual, fz: Dual, gamma: Dual, out: TyreForceDuals): TyreForceDuals {
    this.tyre.forces(t, t.k(alpha, -1), kappa, fz, t.k(gamma, -1), out);
    out.fy = t.k(out.fy, -1); out.mz = t.k(out.mz, -1);
    return out;
  }
}
