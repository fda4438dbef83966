/**
 * The names a simulation's gradient is asked in, shared by the run (run.ts) and the results
 * and parameters it reads (results/, parameters/): apart from run.ts so they import no run.
 */
import type { DynamicsModel } from '../mechanics/build';
import type { HardpointParameter } from './parameters/hardpoints';
import type { CoefficientParameter } from './parameters/coefficients';

/** A parameter, in the file's units (N/mm, N·s/mm, kg, kg·mm², mm). */
export type DynamicParameter =
  | { kind: 'stiffness' | 'damping'; element: string }
  /** A coordinate friction's force (N, or N·mm on an angle): an axle's bearing. */
  | { kind: 'friction'; element: string }
  | { kind: 'mass'; part: string }
  | { kind: 'inertia'; part: string; axis: 0 | 1 | 2 }
  | { kind: 'centre'; part: string; axis: 0 | 1 | 2 }
  /** An entity's position coordinate (mm, part frame): sensitivity-hardpoints.ts. */
  | HardpointParameter
  /** Any other number of a force element, as the file names it (`tyre.radius`, `bush.stiffness.x`, `spring.curve[2]`): sensitivity-coefficients.ts. */
  | CoefficientParameter
  /** A weighted sum of the kinds above plus closed-form terms: a geometry file's parameter (sensitivity-geometry.ts). */
  | CombinedParameter;

/**
 * d/dθ of a quantity built from several of the file's numbers: Σ weight·(its part's term),
 * plus `term` (extra ∂R/∂θ, built once per run) and `rows` (Φ_θ of a mate's first row, by
 * the mate's id). Needs a start that is not the file's (GradientOptions.start).
 */
export interface CombinedParameter {
  kind: 'combined';
  name: string;
  parts: readonly { parameter: Exclude<DynamicParameter, CombinedParameter>; weight: number }[];
  term?: (dyn: DynamicsModel, layout: Int32Array) => ParameterTerm;
  rows?: readonly { owner: string; value: number }[];
  /** What `term` differentiates, for results that read it with the state held (sensitivity-own-results.ts): free lengths and tyre coefficients, weighted. */
  coefficients?: readonly { element: string; what: 'free_length' | 'stiffness' | 'damping'; w: number }[];
  /** A motion's target f(t) moving at ∂f/∂θ = rate(t) (a road's number): Φ_θ = −scale·rate(t) on its row. */
  driven?: readonly { owner: string; rate: (t: number) => number }[];
}

/**
 * A result: a world coordinate of a part's point (its origin unless `point` names one; mm) or its world velocity (mm/s),
 * or an element's tension (N; `part` then names the element: sensitivity-tension.ts) or force (N; sensitivity-force-results.ts),
 * or a quantity with its own derivatives (`own`: a geometry file's suspension results), or the multiplier of a one-row
 * constraint (`multiplier`: `part` names its block's owner; a distance mate's is its link's tension), at the final time or its extreme over the run.
 */
export interface DynamicResult {
  part: string;
  point?: string;
  quantity: 'position' | 'velocity' | 'tension' | 'force' | 'own' | 'multiplier' | 'reaction';
  /** quantity 'reaction': a frame's `reactions.MATE.force|moment.x|y|z` or `drivers.NAME` (sensitivity-reactions.ts). */
  reaction?: ReactionWhat;
  /** A force's world component (bushing), else its magnitude or the element's scalar force. */
  component?: 0 | 1 | 2;
  /** quantity 'own': builds the result at the run's start (sensitivity-own-results.ts). */
  own?: OwnResultFactory;
  axis: 0 | 1 | 2;
  /** `crossing`: the value is the first time the coordinate passes `level` (linear between steps). */
  at: 'final' | 'max' | 'min' | 'crossing';
  level?: number;
}

/** ∂R/∂p at the current state: adds into `out` (tangent size) M'v̇ + g'(v) − Q' for one parameter. */
export type ParameterTerm = (out: Float64Array, v: Float64Array, vdot: Float64Array, t: number) => void;

export interface OwnResult {
  /** Whether r reads parameter j directly (with the state held). */
  reads(j: number): boolean;
  /** r at the current system state with velocities v and time t; with w ≠ 0 adds w·∂r/∂(q, v) into (cq, cv) (tangent size). */
  evaluate(state: Float64Array, v: Float64Array, cq: Float64Array | null, cv: Float64Array | null, w: number, t: number): number;
  /** ∂r/∂p_j with the state held, at the last `evaluate`. */
  explicit(j: number): number;
}

/** Builds an own result for a run (its tangent layout and parameters); throws a message (string) when the name does not fit the model. */
export type OwnResultFactory = (dyn: DynamicsModel, layout: Int32Array, parameters: readonly DynamicParameter[]) => OwnResult;

/** `leaveOut` (tests only): drops one part of the coefficients' state dependence, to show each is needed. */
export type ReactionWhat = { kind: 'force' | 'moment'; mate: string; axis: 0 | 1 | 2; leaveOut?: 'turn' | 'curvature' } | { kind: 'driver'; name: string };
