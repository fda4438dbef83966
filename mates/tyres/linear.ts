/**
 * A linear tyre: fy = −Cα·α, fx = Cκ·κ, no aligning moment, no camber thrust, the same
 * interface as the Magic Formula (the bicycle model's tyre, and the vehicle file's
 * `{ stiffness, cornering_stiffness, longitudinal_stiffness }`). No force without load.
 */
import { ArgumentError } from '../../kernel/errors';
import type { Arith } from './arith';
import type { TyreOut, TyreModel } from './model';

export interface LinearTyreSpec {
  /** Cα, N/rad (positive: the force opposes the slip). */
  readonly corneringStiffness: number;
  /** Cκ, N per unit slip ratio. */
  readonly longitudinalStiffness: number;
  /** N/mm. */
  readonly verticalStiffness: number;
  /** mm. */
  readonly unloadedRadius: number;
  /** N: a reference only (the forces do not depend on load while it is positive). */
  readonly nominalLoad?: number;
}

export class LinearTyre implements TyreModel {
  readonly kind = 'linear' as const;
  readonly nominalLoad: number;
  readonly unloadedRadius: number;
  readonly verticalStiffness: number;
  constructor(readonly spec: LinearTyreSpec) {
    for (const [name, value] of Object.entries(spec)) {
      if (!(Number.isFinite(value) && value >= 0)) throw new ArgumentError(name, `must be a finite number ≥ 0, got ${value}`, `linear tyre: ${name} must be a finite number ≥ 0, got ${value}`);
    }
    this.nominalLoad = spec.nominalLoad ?? 4000;
    this.unloadedRadius = spec.unloadedRadius;
    this.verticalStiffness = spec.verticalStiffness;
  }
  forces<T>(t: Arith<T>, alpha: T, kappa: T, fz: T, _gamma: T, out: TyreOut<T>): TyreOut<T> {
    const loaded = t.val(fz) > 0;
    out.fx = loaded ? t.k(kappa, this.spec.longitudinalStiffness) : t.c(0);
    out.fy = loaded ? t.k(alpha, -this.spec.corneringStiffness) : t.c(0);
    out.mz = t.c(0);
    return out;
  }
}

/**
 * The vehicle file's linear tyre in its own units: stiffness N/mm, cornering_stiffness N/deg,
 * longitudinal_stiffness N per percent of slip (N per unit slip × 1e-2), radius mm.
 */
export function linearTyre(fields: { stiffness: number; cornering_stiffness: number; longitudinal_stiffness: number; radius: number; nominal_load?: number }): LinearTyre {
  return new LinearTyre({
    corneringStiffness: fields.cornering_stiffness * (180 / Math.PI),
    longitudinalStiffness: fields.longitudinal_stiffness * 100,
    verticalStiffness: fields.stiffness,
    unloadedRadius: fields.radius,
    ...(fields.nominal_load !== undefined ? { nominalLoad: fields.nominal_load } : {}),
  });
}
