/**
 * The types the suspension's metric gradients share: what a gradient is, a block's and a
 * driver's parameter map, a state's factors, and what the helpers read of the model
 * (SensitivityContext). Apart from model.ts, which imports the helpers, so they import no model.
 */
import { KinemateError } from '../../../kernel/errors';
import type { PivotedQR } from '../../../kernel/linalg';
import type { StateSolver } from './state-solver';
import type { TangentSpace } from '../../../kernel/analysis';
import type { ResidualBlock } from '../../../kernel/system';
import type { Dual } from '../../../kernel/dual';
import type { AssemblyDoc } from '../../assembly/types';
import type { Geometry, SweepTarget } from '../files';
import type { StateEvaluation, SuspensionModel } from '../build/model';

/** A metric's value at a state and its derivative per hardpoint coordinate (metric unit per mm). */
export interface MetricGradient {
  value: number;
  gradient: Record<string, number>;
}

/** Per block of the system: how its local columns move with each hardpoint coordinate. */
export interface BlockParameters {
  /** localDim × P: the twist of each pose slot per parameter (scalar slots stay zero). */
  twist: Float64Array;
  /** rows × P: explicit row terms (a regenerated link length), or null. */
  constant: Float64Array | null;
  /** The parameters with a nonzero twist or constant (filled in by factorState on first use). */
  columns?: Int32Array;
  /** Recomputes `constant` at the current state (factorState calls it): a length driver with an end on a rod. */
  refresh?: () => void;
  /** All in `constant` (no twist): its row's Jacobian rate along (q̇, e_k) by this instead (jacobian-rate.ts). */
  rowRate?: (layout: Int32Array, qd: Float64Array, k: number) => readonly { v: number; t: { d: Float64Array } | null }[];
}

/** A sensitivity the geometry or its state does not allow (a metric, a sweep, a singular state); the message says which. */
export class SensitivityError extends KinemateError {
  override readonly name = 'SensitivityError';
  constructor(message: string) { super('', message); }
}

/** A sweep driver's block and parameter map; `basis`: its index among the hub-z/rack targets (sweep.ts), when it is one. */
export interface DriverParameters { block: ResidualBlock; params: BlockParameters; basis?: number }

/** The square system at a solved state (factorState): A = [Φ_q; drivers_q] column-scaled and factored, B = −Φ_p, and its rows in order. */
export interface StateFactors {
  /** A's solves (A x = b, Aᵀ λ = y), unscaled. */
  solver: StateSolver;
  /** A's pivoted QR, made when first read (the solver's solves need none). */
  readonly qr: PivotedQR;
  B: Float64Array; M: number; n: number; colScale: number[]; layout: Int32Array; rows: { block: ResidualBlock; params: BlockParameters; index: number }[];
  /** Rows of B that can be nonzero per parameter k: [from, to) pairs at at[start[k]..start[k + 1]). */
  spans: { start: Int32Array; at: Int32Array };
}

/** More gradients at each solved state (the loads' in load-sensitivity.ts): their names and how to get them. */
export interface ExtraGradients {
  readonly names: readonly string[];
  /** More names, computed only when asked for (not in the default output). */
  readonly requestable?: readonly string[];
  at(drivers: readonly DriverParameters[], names?: readonly string[]): Record<string, MetricGradient | null>;
}

/** The same grouped by corner side (or `axle`), for {@link sensitivitySweepBySide} (an axle's loads: axle-load-sensitivity.ts). */
export interface ExtraSideGradients {
  /** The names within a group, as `--metric` takes them. */
  readonly names: readonly string[];
  readonly requestable?: readonly string[];
  at(drivers: readonly DriverParameters[], names?: readonly string[]): SideMetrics;
}

export interface SensitivityStep<M = Record<string, MetricGradient | null>> {
  index: number;
  status: 'solved' | 'failed';
  drivers: Record<string, number>;
  metrics: M | null;
  message?: string;
}

/** An axle's (or any geometry's) gradients grouped by corner side: `metrics.left.camber`. */
export type SideMetrics = Record<string, Record<string, MetricGradient | null>>;

/** What the metric-gradient helpers (this folder) read of a SensitivityModel (model.ts), which implements it. */
export interface SensitivityContext {
  readonly doc: AssemblyDoc;
  readonly sm: SuspensionModel;
  readonly geometry: Geometry;
  /** `<hardpoint>.<x|y|z>`, three per hardpoint in the file's order. */
  readonly keys: string[];
  readonly hardpointNames: string[];
  /** The steering hold of the `*_virtual` metrics. */
  virtualHold: string;
  readonly unsupported: Set<string>;
  readonly wheelCenterRate: Float64Array;
  readonly wheelCenterRatesByCorner: Float64Array[];
  readonly sides: string[];
  readonly parameterCount: number;
  stateLayout(): { layout: Int32Array; n: number };
  hardpointAt(p: ArrayLike<number>): number;
  driverParameters(blk: ResidualBlock, source: SweepTarget): BlockParameters;
  factorState(drivers: readonly DriverParameters[], fresh?: boolean): StateFactors;
  stateRates(f: StateFactors): TangentSpace;
  localRate(out: Float64Array, variable: number, local: ArrayLike<number>, k: number): Float64Array;
  /**
   * `seen`: where given, marked at the id of every variable whose points the evaluation seeds;
   * `dualsOnly`: no positions or metric values (EvaluateExtras.dualsOnly), for a caller that reads the duals only.
   */
  evaluateAlong(rates: TangentSpace, base: number, seen?: Uint8Array, dualsOnly?: boolean): StateEvaluation & { rockerAngles: (Dual | null)[]; devices: Map<string, Dual> };
  metricsAt(drivers: readonly DriverParameters[], mode?: 'adjoint' | 'direct', names?: readonly string[]): Record<string, MetricGradient | null>;
  metricsBySide(drivers: readonly DriverParameters[], mode?: 'adjoint' | 'direct', names?: readonly string[]): Record<string, Record<string, MetricGradient | null>>;
}
