/**
 * The integrator's options (kernel/integrator/integrator.ts), the report of its consistent
 * start, and the method's scheme object the options name.
 */
import { ArgumentError } from '../errors';
import type { IntegratorMethod, TimeScheme } from './scheme';
import { GeneralizedAlpha } from './generalized-alpha';
import { BackwardEuler } from './backward-euler';

/** The group poses step on: SE(3) (translation in body axes) or R³ × SO(3) (in world axes: kernel/integrator/product-group.ts). */
export type IntegratorGroup = 'SE3' | 'R3xSO3';

export interface IntegratorOptions {
  method?: IntegratorMethod;
  /** Spectral radius at infinite frequency for generalized-α, in [0, 1]; default 0.9. */
  rhoInf?: number;
  /**
   * The Lie group poses step on; default 'SE3' (what the gradients of src/gradients/run.ts
   * differentiate). 'R3xSO3' integrates a body's translation in world axes, exactly for a
   * constant acceleration however the body spins (a disc rolling down an incline).
   */
  lieGroup?: IntegratorGroup;
  /**
   * |Φ| bound of a converged step relative to the model's size: |Φ| ≤ this × max(length
   * scale, largest |part position|) in the rows' unit; default 1e-10. Relative, because the
   * round-off in Φ grows with the coordinates (a model far from the origin, a car that has
   * driven off): an absolute bound there cannot be met and the steps fail.
   */
  constraintTolerance?: number;
  /**
   * Dynamic residual bound of a converged step relative to the force scale (the largest |Q|,
   * |g|, |M v̇|); default 1e-9. Tighter for finite-difference checks of gradients, whose
   * re-runs must follow the discrete map closer than its Newton noise.
   */
  residualTolerance?: number;
  /** Newton iterations per attempt; default 25. */
  maxIterations?: number;
  /** How many times a failed step may be halved; default 6. */
  maxHalvings?: number;
}

export interface StartReport {
  /** Size of the correction the velocity projection made to the given (specified) rates, in the scaled metric (a turn rate × length scale). */
  projection: number;
  /** Rows left out as redundant. */
  redundantRows: number;
}

/** The method's scheme object for the options. */
export function schemeOf(options: IntegratorOptions): TimeScheme {
  const rho = options.rhoInf ?? 0.9;
  if (!(rho >= 0 && rho <= 1)) throw new ArgumentError('rhoInf', `expected a number in [0, 1], got ${rho}`);
  return options.method === 'backward-euler' ? new BackwardEuler() : new GeneralizedAlpha(rho);
}
