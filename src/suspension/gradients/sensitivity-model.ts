/**
 * The SensitivityModel (model.ts's head says what it computes): a geometry's hardpoint
 * coordinates as parameters, each block's parameter twists, the state's factorisation and the
 * metrics' gradients at a solved state, by side. The work is in: hardpoint-index.ts (the
 * parameters), parameter-maps.ts (the blocks' maps), design-rates.ts (the design state's own
 * moves), state-factors.ts, evaluate-along.ts, first-order-duals.ts, adjoint.ts and
 * metric-gradients.ts; this class holds their state and is what the helpers read.
 */
import type { TangentSpace } from '../../../kernel/analysis';
import type { ResidualBlock } from '../../../kernel/system';
import type { AssemblyDoc } from '../../assembly/types';
import type { Geometry, SweepTarget } from '../files';
import { suspensionAssembly } from '../build/template';
import { SuspensionModel } from '../build/model';
import { HardpointIndex } from './hardpoint-index';
import { driverParameters, mateParameters } from './parameter-maps';
import { axleDesignGradients, wheelCenterRates, type AxleDesignGradients } from './design-rates';
import { StateFactoring, stateRates } from './state-factors';
import { evaluateAlong, type DualEvaluation } from './evaluate-along';
import { AdjointSolver } from './adjoint';
import { metricsBySide } from './metric-gradients';
import type { MetricGradient, BlockParameters, DriverParameters, StateFactors, SensitivityContext } from './types';

export { mirroredRollCentre } from './first-order-duals';

/**
 * A corner geometry's model prepared for gradients: the hardpoint coordinates as parameters,
 * each block's parameter twists (computed once), workspaces for the per-state solve.
 */
export class SensitivityModel implements SensitivityContext {
  readonly doc: AssemblyDoc;
  readonly sm: SuspensionModel;
  /** `<hardpoint>.<x|y|z>`, three per hardpoint in the file's order. */
  readonly keys: string[];
  readonly hardpointNames: string[];
  /** The steering hold of the `*_virtual` metrics: the sweep's (sweepStates sets it). */
  virtualHold = 'layout_default';
  private readonly index: HardpointIndex;
  private readonly blockParams = new Map<ResidualBlock, BlockParameters>();
  private readonly factoring = new StateFactoring();
  private readonly adjoint = new AdjointSolver();
  /** Hardpoint index per point-term local array (the model's terms are resolved once and kept). */
  private readonly termHardpoint = new WeakMap<ArrayLike<number>, number>();
  /** Metrics this geometry defines but whose gradients are not mapped (reported null). */
  readonly unsupported = new Set<string>();
  /** d(wheel-centre local point)/dp, 3 × P, of the first corner (wheel offset along the axle). */
  readonly wheelCenterRate: Float64Array;
  /** The same per corner (an axle: left, right). */
  readonly wheelCenterRatesByCorner: Float64Array[];
  /** Corner sides in the model's order; an axle's metrics and hardpoints are grouped by them. */
  readonly sides: string[];
  /** d(design track)/dp and d(design ride height)/dp of an axle: the design state moves only by its points' own moves. */
  private axleDesignGradients: AxleDesignGradients | null = null;

  /**
   * @param built the geometry's generated assembly and its model, where the caller has them
   *   (a live lane renews the last version's model in place for a moved hardpoint): the
   *   assembly must be `suspensionAssembly(geometry)` of this very geometry object, whose
   *   points the hardpoint index tells apart by identity where two share a place.
   */
  constructor(readonly geometry: Geometry, built?: { readonly assembly: AssemblyDoc; readonly model: SuspensionModel | null }) {
    this.doc = built?.assembly ?? suspensionAssembly(geometry);
    this.sm = built?.model ?? new SuspensionModel(this.doc);
    this.sides = this.sm.corners.map((c) => c.roles.side);
    this.index = new HardpointIndex(geometry, this.doc);
    this.keys = this.index.keys;
    this.hardpointNames = this.index.names;
    this.wheelCenterRatesByCorner = this.sm.corners.map((_, ci) => wheelCenterRates(this.sm, (p) => this.hardpointAt(p), ci, this.parameterCount));
    this.wheelCenterRate = this.wheelCenterRatesByCorner[0];
    const sys = this.sm.model.system;
    for (let b = 0; b < sys.blockCount; b++) {
      const blk = sys.block(b);
      if (blk.kind !== 'constraint') continue;
      this.blockParams.set(blk, mateParameters(this, this.index, blk));
    }
    if (this.sides.length === 2) this.axleDesignGradients = axleDesignGradients(this, this.termHardpoint);
  }

  /** Column of each free variable in the state vector, and the state's size. */
  stateLayout(): { layout: Int32Array; n: number } {
    const sys = this.sm.model.system;
    const layout = new Int32Array(sys.variables.length).fill(-1);
    let n = 0;
    for (const v of sys.variables) if (!v.fixed) { layout[v.id] = n; n += v.dim; }
    return { layout, n };
  }

  get parameterCount(): number { return this.keys.length; }

  /** A constraint block's parameter map (its points' twists per coordinate); undefined for a driver's. */
  blockParameters(blk: ResidualBlock): BlockParameters | undefined { return this.blockParams.get(blk); }

  /** Hardpoint j's position in the file (a design point, mm). */
  hardpointPosition(j: number): [number, number, number] { return this.index.position(j); }

  /** Hardpoint index of a local point (one of the file's values), −1 when none (HardpointIndex.at). */
  hardpointAt(p: ArrayLike<number>): number { return this.index.at(p); }

  /** Parameters of a sweep driver's block: the wheel centre (or a hardpoint) pulled along an axis. */
  driverParameters(blk: ResidualBlock, source: SweepTarget): BlockParameters { return driverParameters(this, blk, source); }

  /**
   * The square system at the current solved state, factored: A = [Φ_q; drivers_q] in scaled
   * columns (pivoted QR) and B = −Φ_p (M × P, column-major), per dynamics.md.
   */
  factorState(drivers: readonly DriverParameters[], fresh = false): StateFactors {
    return this.factoring.factor(this.sm, this.parameterCount, (blk) => this.blockParams.get(blk), drivers, fresh);
  }

  /** Direct (forward) route: q̇ per parameter, q̇ = −Φ_q⁻¹ Φ_p, as a tangent with one column per parameter. */
  stateRates(f: StateFactors): TangentSpace { return stateRates(f, this.parameterCount); }

  /**
   * out = d(local point)/dp_k in the part's frame: a hardpoint's unit move, a derived
   * point's share (a T-bar's crossbar midpoint), the wheel centre's with the axle points.
   */
  localRate(out: Float64Array, variable: number, local: ArrayLike<number>, k: number): Float64Array {
    out.fill(0);
    if (k < 0) return out; // a direction that moves no point (a stiffness's: compliance/coefficient-rates.ts)
    const j = this.hardpointAt(local);
    if (j >= 0) { if (Math.floor(k / 3) === j) out[k % 3] = 1; return out; }
    for (const [jd, w] of this.index.derivedShares(local)) if (Math.floor(k / 3) === jd) out[k % 3] += w;
    const ci = this.sm.corners.findIndex((c) => c.upright === variable && c.wheelCenterLocal.every((x, i) => x === local[i]));
    if (ci >= 0) { const P = this.parameterCount, wr = this.wheelCenterRatesByCorner[ci]; for (let i = 0; i < 3; i++) out[i] = wr[i * P + k]; }
    return out;
  }

  /** Evaluate the state along `rates`, each point's local move added at columns base + 3j + c. */
  evaluateAlong(rates: TangentSpace, base: number, seen?: Uint8Array, dualsOnly = false): DualEvaluation { return evaluateAlong(this, this.termHardpoint, rates, base, seen, dualsOnly); }

  /**
   * Every sensitivity metric's value and gradient at the current solved state. 'adjoint'
   * (the default, dynamics.md): dm/dp = ∂m/∂p − μᵀ Φ_p with Φ_qᵀ μ = ∂m/∂qᵀ, by one
   * transposed solve per state column the metrics read (adjoint.ts); 'direct': one solve
   * per hardpoint coordinate. Equal to rounding.
   */
  metricsAt(drivers: readonly DriverParameters[], mode: 'adjoint' | 'direct' = 'adjoint', names?: readonly string[]): Record<string, MetricGradient | null> {
    const bySide = this.metricsBySide(drivers, mode, names);
    return bySide[this.sides[0]];
  }

  /**
   * metricsAt for every corner: `{ <side>: { <metric>: { value, gradient } } }` (a corner
   * has one side; an axle's gradients run over both sides' and the centre's hardpoints, and
   * its own metrics come as the group `axle`). `names`: the metrics wanted (default all);
   * the second-order ones (the kinematic roll centre) are computed only when asked for.
   */
  metricsBySide(drivers: readonly DriverParameters[], mode: 'adjoint' | 'direct' = 'adjoint', names?: readonly string[]): Record<string, Record<string, MetricGradient | null>> {
    return metricsBySide(this, { index: this.index, design: this.axleDesignGradients, adjoint: this.adjoint }, drivers, mode, names);
  }
}
