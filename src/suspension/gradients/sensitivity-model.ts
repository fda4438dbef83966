/**
 * The SensitivityModel (model.ts's head says what it computes): a geometry's hardpoint
 * coordinates as parameters, each block's parameter twists, the state's factorisation and the
 * metrics' gradients at a solved state, by side.
 */
import { PivotedQR } from '../../../kernel/linalg';
import { zeroedFloats } from '../../../kernel/float-slab';
import { toMatrix } from '../../../kernel/quat';
import type { TangentSpace } from '../../../kernel/analysis';
import type { ResidualBlock } from '../../../kernel/system';
import { Dual, DualVec3 as DualVec3Class, dDiv, dMul, dScale, dSub, type DualVec3 } from '../../../kernel/dual';
import { turnAboutAxis } from '../metrics';
import { splitReference, type AssemblyDoc } from '../../assembly/types';
import type { Geometry, SweepTarget } from '../files';
import { axisTipSource, entitySource, suspensionAssembly } from '../build/template';
import { SuspensionModel, localSource } from '../build/model';
import type { StateEvaluation } from '../build/model';
import type { CornerMetrics } from '../metrics';
import { kinematicRollCentres } from './roll-centre';
import { beamRollCentreGradients } from './beam-roll-centre';
import { lengthDriverParameters } from './length-driver';
import { addShareRate } from './rod-fraction';
import { bumpSystem } from './bump-system';
import { DERIVATIVE_METRICS, derivativeGradients } from './derivatives';
import { VIRTUAL_METRICS, virtualGradients } from './virtual';
import { SCREW_AXIS_METRICS, hasScrewInstantAxis, screwAxisGradients } from './instant-axis';
import type { PointExpr } from '../build/targets';
import { DEVICE_RATE_METRICS, deviceMetricDuals, deviceRateGradients, steeringGeometryDuals, steeringRatioGradient } from './devices';
import { AXLE_SENSITIVITY_METRICS, KINEMATIC_ROLL_CENTRE, SENSITIVITY_METRICS, sensitivityMetricsOf } from './metric-names';
import { SensitivityError, type MetricGradient, type BlockParameters, type DriverParameters, type StateFactors, type SensitivityContext } from './types';

const AXES = ['x', 'y', 'z'] as const;

/** The parameter columns a block's map touches: most blocks see one or two hardpoints of all P. */
function parameterColumns(params: BlockParameters, localDim: number, rows: number, P: number): Int32Array {
  const used: number[] = [];
  for (let k = 0; k < P; k++) {
    let nonzero = false;
    for (let c = 0; c < localDim && !nonzero; c++) nonzero = params.twist[c * P + k] !== 0;
    for (let r = 0; r < rows && !nonzero && params.constant; r++) nonzero = params.constant[r * P + k] !== 0;
    if (nonzero) used.push(k);
  }
  return Int32Array.from(used);
}


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
  private readonly hardpointValues: Float64Array;
  private readonly byValue = new Map<string, number>();
  /** Hardpoint index by the file's own point array (identity): coincident hardpoints told apart. */
  private readonly bySource = new Map<readonly number[], number>();
  /** Points that are not hardpoints but move with some (a T-bar's crossbar midpoint): hardpoint index and weight. */
  private readonly derived = new Map<string, [number, number][]>();
  private readonly blockParams = new Map<ResidualBlock, BlockParameters>();
  private workspace: { M: number; n: number; A: Float64Array; B: Float64Array; qr: PivotedQR; res: Float64Array; jac: Float64Array } = { M: -1, n: -1, A: new Float64Array(0), B: new Float64Array(0), qr: new PivotedQR(0, 0), res: new Float64Array(0), jac: new Float64Array(0) };
  /** Adjoint scratch of one state size: the unit seeds (n state columns, then P nulls), b, z, μ. */
  private adjointWs: ReturnType<typeof adjointScratch> | null = null;
  /** Hardpoint index per point-term local array (the model's terms are resolved once and kept). */
  private readonly termHardpoint = new WeakMap<ArrayLike<number>, number>();
  /** An empty gradient record with every key in order, cloned per metric (cheaper than building one). */
  private gradientTemplate: Record<string, number> | null = null;
  /** Metrics this geometry defines but whose gradients are not mapped (reported null). */
  readonly unsupported = new Set<string>();
  /** d(wheel-centre local point)/dp, 3 × P, of the first corner (wheel offset along the axle). */
  readonly wheelCenterRate: Float64Array;
  /** The same per corner (an axle: left, right). */
  readonly wheelCenterRatesByCorner: Float64Array[];
  /** Corner sides in the model's order; an axle's metrics and hardpoints are grouped by them. */
  readonly sides: string[];

  constructor(readonly geometry: Geometry) {
    this.doc = suspensionAssembly(geometry);
    this.sm = new SuspensionModel(this.doc);
    this.sides = this.sm.corners.map((c) => c.roles.side);
    // a corner: its hardpoints by name; an axle: `left.<name>`, `right.<name>`, `center.<name>`
    const groups: [string, Record<string, readonly number[]>][] = geometry.scope === 'axle'
      ? [...geometry.corners.map((c): [string, Record<string, readonly number[]>] => [`${c.side}.`, c.hardpoints]), ...(geometry.center ? [['center.', geometry.center] as [string, Record<string, readonly number[]>]] : [])]
      : [['', geometry.corners[0].hardpoints]];
    const points = groups.flatMap(([prefix, hp]) => Object.entries(hp).map(([name, p]): [string, readonly number[]] => [prefix + name, p]));
    this.hardpointNames = points.map(([name]) => name);
    this.hardpointValues = new Float64Array(points.length * 3);
    this.keys = [];
    points.forEach(([name, p], j) => {
      for (let c = 0; c < 3; c++) { this.hardpointValues[3 * j + c] = p[c]; this.keys.push(`${name}.${AXES[c]}`); }
      const key = valueKey(p);
      // two hardpoints at one place: a point there says which by its source (hardpointAt)
      this.byValue.set(key, this.byValue.has(key) ? -2 : j);
      this.bySource.set(p, j);
    });
    // a T-bar's crossbar midpoint (on the centre plane) is the mean of its two droplink ends
    const mid = this.doc.parts.t_bar?.points?.crossbar_midpoint;
    const ends = ['left.droplink_t_bar', 'right.droplink_t_bar'].map((n) => this.hardpointNames.indexOf(n));
    if (mid && ends.every((j) => j >= 0)) this.derived.set(valueKey(mid), ends.map((j) => [j, 0.5]));
    this.wheelCenterRatesByCorner = this.sm.corners.map((_, ci) => this.wheelCenterRates(ci));
    this.wheelCenterRate = this.wheelCenterRatesByCorner[0];
    const sys = this.sm.model.system;
    for (let b = 0; b < sys.blockCount; b++) {
      const blk = sys.block(b);
      if (blk.kind !== 'constraint') continue;
      this.blockParams.set(blk, this.mateParameters(blk));
    }
    if (this.sides.length === 2) this.axleDesignGradients = this.designGradients();
  }

  /** d(design track)/dp and d(design ride height)/dp of an axle: the design state moves only by its points' own moves. */
  private axleDesignGradients: { track: Float64Array; rideHeight: Float64Array } | null = null;
  private designGradients(): { track: Float64Array; rideHeight: Float64Array } {
    const P = this.parameterCount;
    const saved = this.sm.model.system.snapshot();
    this.sm.resetToDesign();
    const { layout, n } = this.stateLayout();
    const zero: Float64Array[] = Array.from({ length: P }, () => new Float64Array(n));
    const ev = this.evaluateAlong({ mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: zero, layout, size: n }, 0);
    this.sm.model.system.restore(saved);
    const cl = ev.corners[0].points.wheel_contact_centre, cr = ev.corners[1].points.wheel_contact_centre;
    const sign = Math.sign(cl.v[1] - cr.v[1]) || 1;
    const track = new Float64Array(P);
    for (let k = 0; k < P; k++) track[k] = sign * (cl.d[P + k] - cr.d[P + k]);
    const rh = ev.axle?.ride_height_change;
    return { track, rideHeight: rh ? Float64Array.from(rh.d) : new Float64Array(P) };
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
  hardpointPosition(j: number): [number, number, number] { return [this.hardpointValues[3 * j], this.hardpointValues[3 * j + 1], this.hardpointValues[3 * j + 2]]; }

  /**
   * Hardpoint index of a local point (one of the file's values), −1 when none. Where two
   * hardpoints share the place, the one the template copied this point from (by identity:
   * the model's local → the document's array → the file's hardpoint array).
   */
  hardpointAt(p: ArrayLike<number>): number {
    const j = this.byValue.get(valueKey(p));
    if (j !== -2) return j ?? -1;
    return this.bySourceOf(entitySource.get((localSource.get(p as object) ?? p) as object), p);
  }

  /** The hardpoint of a file array (an entity's source), or the refusal where there is none. */
  private bySourceOf(source: readonly number[] | undefined, p: ArrayLike<number>): number {
    const k = source ? this.bySource.get(source) : undefined;
    if (k === undefined) throw new SensitivityError(`sensitivity: two hardpoints at (${Array.from(p).join(', ')}); move one so each point is unambiguous`);
    return k;
  }

  private wheelCenterRates(corner: number): Float64Array {
    const P = this.parameterCount;
    const out = new Float64Array(3 * P);
    const c = this.sm.corners[corner];
    const ai = c.axle[0][0].local, ao = c.axle[1][0].local;
    const ji = this.hardpointAt(ai), jo = this.hardpointAt(ao);
    const off = c.roles.wheel.offset;
    const d = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]];
    const l = Math.hypot(d[0], d[1], d[2]);
    const u = d.map((x) => x / l);
    // wc = ao − off·u, du/d(ao) = (I − u uᵀ)/l = −du/d(ai)
    for (let c2 = 0; c2 < 3; c2++) {
      for (let i = 0; i < 3; i++) {
        const proj = ((i === c2 ? 1 : 0) - u[i] * u[c2]) / l;
        if (jo >= 0) out[i * P + 3 * jo + c2] += (i === c2 ? 1 : 0) - off * proj;
        if (ji >= 0) out[i * P + 3 * ji + c2] += off * proj;
      }
    }
    return out;
  }

  /** Twist columns (ω, v) of an entity of a part for every parameter, added into `twist` at column offset `col0`. */
  private entityTwist(twist: Float64Array, localDim: number, col0: number, ref: string, owner: string): void {
    const P = this.parameterCount;
    const r = splitReference(ref);
    const part = r && this.doc.parts[r.owner], name = r?.name ?? '';
    const point = part?.points?.[name];
    // a plane is an origin and a normal: it moves as an axis would (a fixed one, the centre plane, not at all)
    const plane = part?.planes?.[name];
    const axis = part?.axes?.[name] ?? (plane ? { origin: plane.origin, direction: plane.normal } : undefined);
    if (point) {
      const j = this.hardpointAt(point);
      if (j >= 0) for (let c = 0; c < 3; c++) twist[(col0 + 3 + c) * P + 3 * j + c] += 1;
      else for (const [jd, w] of this.derived.get(valueKey(point)) ?? []) for (let c = 0; c < 3; c++) twist[(col0 + 3 + c) * P + 3 * jd + c] += w;
      return;
    }
    if (axis) {
      const O = axis.origin, D = axis.direction;
      const f = this.hardpointAt(O);
      const tip = [O[0] + D[0], O[1] + D[1], O[2] + D[2]];
      const tv = this.byValue.get(valueKey(tip));
      // coincident hardpoints at the tip: the one the template took the direction to
      const t = tv === -2 ? this.bySourceOf(axisTipSource.get(D), tip) : tv ?? -1;
      const dd = D[0] * D[0] + D[1] * D[1] + D[2] * D[2];
      // origin moves with f; direction = t − f moves with t (and against f) when it is a hardpoint pair
      const add = (j: number, c: number, dO: number[], dD: number[]) => {
        const w = [(D[1] * dD[2] - D[2] * dD[1]) / dd, (D[2] * dD[0] - D[0] * dD[2]) / dd, (D[0] * dD[1] - D[1] * dD[0]) / dd];
        const v = [dO[0] - (w[1] * O[2] - w[2] * O[1]), dO[1] - (w[2] * O[0] - w[0] * O[2]), dO[2] - (w[0] * O[1] - w[1] * O[0])];
        const k = 3 * j + c;
        for (let i = 0; i < 3; i++) { twist[(col0 + i) * P + k] += w[i]; twist[(col0 + 3 + i) * P + k] += v[i]; }
      };
      const pair = f >= 0 && t >= 0;
      for (let c = 0; c < 3; c++) {
        const e = [0, 0, 0]; e[c] = 1;
        if (f >= 0) add(f, c, e, pair ? [-e[0], -e[1], -e[2]] : [0, 0, 0]);
        if (pair) add(t, c, [0, 0, 0], e);
      }
      return;
    }
    throw new SensitivityError(`sensitivity: mate ${owner}: entity "${ref}" is not a point, an axis or a plane (not supported yet)`);
  }

  private mateParameters(blk: ResidualBlock): BlockParameters {
    const P = this.parameterCount;
    const sys = this.sm.model.system;
    const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
    const twist = new Float64Array(localDim * P);
    const mate = this.doc.mates[blk.owner] as { type: string; a?: string; b?: string; value?: number } | undefined;
    if (!mate || typeof mate.a !== 'string' || typeof mate.b !== 'string') throw new SensitivityError(`sensitivity: block ${blk.owner} is not a two-entity mate (not supported yet)`);
    if (sys.variables[blk.vars[0]].dim !== 6 || sys.variables[blk.vars[1]].dim !== 6) throw new SensitivityError(`sensitivity: mate ${blk.owner}: unexpected block layout`);
    this.entityTwist(twist, localDim, 0, mate.a, blk.owner);
    this.entityTwist(twist, localDim, 6, mate.b, blk.owner);
    let constant: Float64Array | null = null;
    if (mate.type === 'distance') {
      // the length is regenerated from the ends: row = |b − a| − value(p)
      const pa = this.entityPoint(mate.a), pb = this.entityPoint(mate.b);
      if (pa && pb) {
        const d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
        const l = Math.hypot(d[0], d[1], d[2]);
        const ja = this.hardpointAt(pa), jb = this.hardpointAt(pb);
        constant = new Float64Array(blk.rows * P);
        for (let c = 0; c < 3; c++) {
          if (ja >= 0) constant[3 * ja + c] += d[c] / l;
          if (jb >= 0) constant[3 * jb + c] -= d[c] / l;
        }
      }
    }
    return { twist, constant };
  }

  private entityPoint(ref: string): readonly number[] | null {
    const r = splitReference(ref);
    return (r && this.doc.parts[r.owner]?.points?.[r.name]) ?? null;
  }

  /** Parameters of a sweep driver's block: the wheel centre (or a hardpoint) pulled along an axis. */
  driverParameters(blk: ResidualBlock, source: SweepTarget): BlockParameters {
    const P = this.parameterCount;
    const sys = this.sm.model.system;
    const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
    const twist = new Float64Array(localDim * P);
    const constant = new Float64Array(P);
    if (source.type === 'actuator_position') return { twist, constant: null }; // the slide is 0 at design whatever the points
    if (source.type === 'roll') return this.rollParameters(blk, twist);
    if (source.type === 'element_length') return lengthDriverParameters(this, blk, !(source.mode === 'absolute' && !source.hold));
    if (source.type !== 'point') throw new SensitivityError(`sensitivity: a ${(source as SweepTarget).type} target is not supported yet (use a point, rack, roll or element_length target)`);
    const axis = { x: 0, y: 1, z: 2 }[source.direction.axis];
    const relative = !(source.mode === 'absolute' && !source.hold);
    // the driver's corner: its block is named `target:<side>:…` (sweepDrivers)
    const ci = Math.max(0, this.sides.indexOf(blk.owner.split(':')[1] ?? ''));
    const c = this.sm.corners[ci];
    const rate = new Float64Array(3 * P);
    if (source.point === 'wheel_center') rate.set(this.wheelCenterRatesByCorner[ci]);
    else {
      const expr = c.points.get(source.point) as PointExpr;
      if (expr.length !== 1) throw new SensitivityError(`sensitivity: target point ${source.point} is not a part point`);
      const j = this.hardpointAt(expr[0].local);
      if (j >= 0) for (let i = 0; i < 3; i++) rate[i * P + 3 * j + i] = 1;
    }
    const slot = blk.vars.indexOf(c.upright) >= 0 ? blk.vars.indexOf(c.upright) : 0;
    for (let i = 0; i < 3; i++) for (let k = 0; k < P; k++) twist[(slot * 6 + 3 + i) * P + k] = rate[i * P + k];
    // relative: the target is the design coordinate (+ travel), which moves with the point
    if (relative) for (let k = 0; k < P; k++) constant[k] = -rate[axis * P + k];
    return { twist, constant };
  }

  /**
   * A roll driver's parameters at its current target: the wheel centre's z held at
   * design z ± h·tanθ (left +, right −; sweep.ts), h half the design wheel centres' span in
   * plan. The point moves with the axle points, and so do the design z and h: the row's
   * explicit term is −(d design z/dp ± tanθ dh/dp), so it changes with the step (sweepStates
   * asks again each step).
   */
  private rollParameters(blk: ResidualBlock & { target?: number }, twist: Float64Array): BlockParameters {
    const P = this.parameterCount;
    const ci = Math.max(0, this.sides.indexOf(blk.owner.split(':')[1] ?? ''));
    const c = this.sm.corners[ci];
    const slot = Math.max(0, blk.vars.indexOf(c.upright));
    const rate = this.wheelCenterRatesByCorner[ci];
    for (let i = 0; i < 3; i++) for (let k = 0; k < P; k++) twist[(slot * 6 + 3 + i) * P + k] = rate[i * P + k];
    const [wl, wr] = this.sm.corners.map((x) => x.design.wheelCenter);
    const dx = wl[0] - wr[0], dy = wl[1] - wr[1];
    const span = Math.hypot(dx, dy), half = span / 2;
    const sign = ci === 0 ? 1 : -1;
    const tan = ((blk.target ?? c.design.wheelCenterZ) - c.design.wheelCenterZ) / (sign * half);
    const [rl, rr] = this.wheelCenterRatesByCorner;
    const constant = new Float64Array(P);
    for (let k = 0; k < P; k++) {
      const dHalf = (dx * (rl[k] - rr[k]) + dy * (rl[P + k] - rr[P + k])) / (2 * span);
      constant[k] = -(rate[2 * P + k] + sign * tan * dHalf);
    }
    return { twist, constant };
  }

  /**
   * The square system at the current solved state, factored: A = [Φ_q; drivers_q] in scaled
   * columns (pivoted QR) and B = −Φ_p (M × P, column-major), per dynamics.md.
   */
  factorState(drivers: readonly DriverParameters[], fresh = false): StateFactors {
    const sys = this.sm.model.system;
    const P = this.parameterCount;
    const L = sys.lengthScale;
    const layout = new Int32Array(sys.variables.length).fill(-1);
    const colScale: number[] = [];
    let n = 0;
    for (const v of sys.variables) {
      if (v.fixed) continue;
      layout[v.id] = n;
      for (let c = 0; c < v.dim; c++) colScale.push(v.kind === 'pose' ? (c < 3 ? 1 / L : 1) : 1 / v.scale);
      n += v.dim;
    }
    const rows: { block: ResidualBlock; params: BlockParameters; index: number }[] = [];
    for (const d of drivers) d.params.refresh?.();
    for (let b = 0; b < sys.blockCount; b++) {
      if (!sys.blockEnabled(b)) continue;
      const blk = sys.block(b);
      if (blk.kind === 'limit') continue;
      const params = this.blockParams.get(blk) ?? drivers.find((d) => d.block === blk)?.params;
      if (!params) throw new SensitivityError(`sensitivity: block ${blk.owner} has no parameter map`);
      rows.push({ block: blk, params, index: b });
    }
    const M = rows.reduce((s, r) => s + r.block.rows, 0);
    // workspaces kept between states of one structure (a sweep allocates them once); `fresh`: a
    // second system beside the state's (bump-system.ts), whose factors must not overwrite these
    const make = () => ({ M, n, A: new Float64Array(M * n), B: new Float64Array(M * P), qr: new PivotedQR(M, n), res: new Float64Array(64), jac: new Float64Array(64 * 64) });
    const ws = fresh ? make() : this.workspace.M === M && this.workspace.n === n ? this.workspace : (this.workspace = make());
    const A = ws.A, B = ws.B;
    A.fill(0);
    B.fill(0);
    let r0 = 0;
    for (const { block, params, index } of rows) {
      const ld = sys.blockLocalDim(index);
      if (ws.jac.length < block.rows * ld) ws.jac = new Float64Array(block.rows * ld);
      if (ws.res.length < block.rows) ws.res = new Float64Array(block.rows);
      const res = ws.res, jac = ws.jac;
      const columns = (params.columns ??= parameterColumns(params, ld, block.rows, P));
      sys.evaluateBlock(index, res, jac);
      for (let r = 0; r < block.rows; r++) {
        let lc = 0;
        for (const vid of block.vars) {
          const v = sys.variables[vid];
          const gc = layout[vid];
          if (gc >= 0) for (let c = 0; c < v.dim; c++) A[(gc + c) * M + r0 + r] += jac[r * ld + lc + c] * colScale[gc + c];
          lc += v.dim;
        }
        for (let kk = 0; kk < columns.length; kk++) {
          const k = columns[kk];
          let s = params.constant ? params.constant[r * P + k] : 0;
          for (let c = 0; c < ld; c++) s += jac[r * ld + c] * params.twist[c * P + k];
          B[k * M + r0 + r] = -s;
        }
      }
      r0 += block.rows;
    }
    const qr = ws.qr;
    const rank = qr.factor(A, M, n, 1e-10);
    if (rank < n) throw new SensitivityError(`sensitivity: the state is not fixed by its constraints and drivers (rank ${rank} of ${n}); gradients need a unique state`);
    return { qr, B, M, n, colScale, layout, rows, spans: parameterSpans(rows, P) };
  }

  /** Direct (forward) route: q̇ per parameter, q̇ = −Φ_q⁻¹ Φ_p, as a tangent with one column per parameter. */
  stateRates(f: StateFactors): TangentSpace {
    const { qr, B, M, n, colScale, layout } = f;
    const rates: Float64Array[] = [];
    const x = new Float64Array(n), b = new Float64Array(M);
    for (let k = 0; k < this.parameterCount; k++) {
      b.set(B.subarray(k * M, (k + 1) * M));
      qr.applyQt(b);
      qr.solveR(x, b);
      const q = new Float64Array(n);
      for (let a = 0; a < n; a++) q[qr.perm[a]] = x[a] * colScale[qr.perm[a]];
      rates.push(q);
    }
    return { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates, layout, size: n };
  }

  /** `{ "<hardpoint>.<x|y|z>": g[k] }` in key order. */
  private gradientRecord(g: Float64Array): Record<string, number> {
    const template = (this.gradientTemplate ??= Object.fromEntries(this.keys.map((k) => [k, 0])));
    const out = { ...template };
    const keys = this.keys;
    for (let k = 0; k < keys.length; k++) out[keys[k]] = g[k];
    return out;
  }

  /**
   * out = d(local point)/dp_k in the part's frame: a hardpoint's unit move, a derived
   * point's share (a T-bar's crossbar midpoint), the wheel centre's with the axle points.
   */
  localRate(out: Float64Array, variable: number, local: ArrayLike<number>, k: number): Float64Array {
    out.fill(0);
    const j = this.hardpointAt(local);
    if (j >= 0) { if (Math.floor(k / 3) === j) out[k % 3] = 1; return out; }
    for (const [jd, w] of this.derived.get(valueKey(local)) ?? []) if (Math.floor(k / 3) === jd) out[k % 3] += w;
    const ci = this.sm.corners.findIndex((c) => c.upright === variable && c.wheelCenterLocal.every((x, i) => x === local[i]));
    if (ci >= 0) { const P = this.parameterCount, wr = this.wheelCenterRatesByCorner[ci]; for (let i = 0; i < 3; i++) out[i] = wr[i * P + k]; }
    return out;
  }

  /** Evaluate the state along `rates`, each point's local move added at columns base + 3j + c. */
  evaluateAlong(rates: TangentSpace, base: number): StateEvaluation & { rockerAngles: (Dual | null)[]; devices: Map<string, Dual> } {
    const sm = this.sm;
    const R = new Float64Array(9);
    const sys = sm.model.system;
    const lookup = this.termHardpoint;
    sm.explicitPointRate = (out: DualVec3, term, n) => {
      // a point on a rod's centreline: its fraction moves with the points
      addShareRate(this, out, term, n, base);
      let j = lookup.get(term.local);
      if (j === undefined) lookup.set(term.local, (j = this.hardpointAt(term.local)));
      toMatrix(R, sys.state, sys.variables[term.variable].offset + 3);
      if (j < 0) {
        // the wheel centre (an axle's road plane): not a hardpoint, it moves with the axle points
        const ci = sm.corners.findIndex((c) => c.upright === term.variable && c.wheelCenterLocal.every((x, i) => x === term.local[i]));
        if (ci < 0) return;
        const P = this.parameterCount, wr = this.wheelCenterRatesByCorner[ci];
        for (let k = 0; k < P; k++) for (let i = 0; i < 3; i++) {
          let s = 0;
          for (let c = 0; c < 3; c++) s += R[i * 3 + c] * wr[c * P + k];
          out.d[i * n + base + k] += term.weight * s;
        }
        return;
      }
      for (let i = 0; i < 3; i++) for (let c = 0; c < 3; c++) out.d[i * n + base + 3 * j + c] += term.weight * R[i * 3 + c];
    };
    try {
      const ev = sm.evaluate({ rates });
      return { ...ev, rockerAngles: this.rockerAngles(rates, base), devices: deviceMetricDuals(this, rates, base, ev.corners) };
    } finally {
      sm.explicitPointRate = null;
    }
  }

  /**
   * Each corner's rocker_angle as a dual (null without a rocker): its design reference, the
   * rocker point at design, moves with the points too (at design every part is at the
   * identity, so by the point's own move alone).
   */
  private rockerAngles(rates: TangentSpace, base: number): (Dual | null)[] {
    const sm = this.sm;
    const n = rates.rates.length;
    const lr = new Float64Array(3);
    return sm.corners.map((c) => {
      const r = c.roles.rocker;
      const ref = c.design.rockerReference;
      if (!r || !ref) return null;
      const dual = (role: Parameters<typeof sm.resolveRole>[0]) => sm.pointDual(sm.resolveRole(role), rates, rates.rates, n);
      const p0 = new DualVec3Class(n);
      p0.v.set(ref);
      for (const t of sm.resolveRole(r.point)) {
        for (let k = 0; k < this.parameterCount; k++) {
          this.localRate(lr, t.variable, t.local, k);
          for (let i = 0; i < 3; i++) p0.d[i * n + base + k] += t.weight * lr[i];
        }
      }
      const turn = turnAboutAxis(dual(r.axis[0]), dual(r.axis[1]), dual(r.point), p0);
      const out = new Dual(n);
      dScale(out, turn, (c.sigma * 180) / Math.PI);
      return out;
    });
  }

  /** The first-order metrics of a state evaluation as duals, `<group>:<name>` (group: a side, or `axle`). */
  private firstOrderDuals(ev: StateEvaluation & { rockerAngles: (Dual | null)[]; devices: Map<string, Dual> }, rates: TangentSpace): Map<string, Dual> {
    const out = new Map<string, Dual>();
    ev.corners.forEach((cm, ci) => {
      const side = this.sides[ci];
      const metrics = cm.metrics as Record<string, Dual | null>;
      for (const name of SENSITIVITY_METRICS) { const m = metrics[name]; if (m) out.set(`${side}:${name}`, m); }
      // the evaluation's rocker angle takes its design reference as a constant: this one moves it
      out.delete(`${side}:rocker_angle`);
      const rocker = ev.rockerAngles[ci];
      if (rocker) out.set(`${side}:rocker_angle`, rocker);
    });
    if (this.sides.length === 1) {
      const rc = mirroredRollCentre(ev.corners[0]);
      if (rc) out.set(`${this.sides[0]}:roll_center_z`, rc);
    }
    if (ev.axle) {
      for (const name of AXLE_SENSITIVITY_METRICS) {
        if (KINEMATIC_ROLL_CENTRE.has(name)) continue;
        const m = ev.axle[name];
        if (m) out.set(`axle:${name}`, m);
      }
      const steer = this.sm.steering;
      if (steer >= 0 && ev.axle.rack_displacement) {
        // the rack coordinate's own rate (the evaluation's dual is for the hub/rack tangent)
        const rack = new Dual(rates.rates.length, ev.axle.rack_displacement.v);
        const col = rates.layout[steer];
        if (col >= 0) rates.rates.forEach((r, k) => { rack.d[k] = r ? r[col] : 0; });
        out.set('axle:rack_displacement', rack);
      }
      const steering = this.steeringGeometry(ev, rates, out.get('axle:rack_displacement') ?? null);
      for (const [name, m] of Object.entries(steering)) if (m) out.set(`axle:${name}`, m);
    }
    for (const [key, m] of ev.devices) out.set(key, m);
    return out;
  }

  /** A steered front axle's steering geometry as duals; the design track's own move at the explicit columns. */
  private steeringGeometry(ev: StateEvaluation, rates: TangentSpace, rack: Dual | null): Record<string, Dual | null> {
    const roles = this.sm.roles;
    const [l, r] = ev.corners.map((c) => c.metrics.steer_angle);
    if (this.sm.steering < 0 || roles.axle_position !== 'front' || !ev.axle?.track || !l || !r || !this.axleDesignGradients) return {};
    const track = new Dual(ev.axle.track.n, ev.axle.track.v);
    track.d.set(ev.axle.track.d);
    const base = rates.rates.length - this.parameterCount;
    this.axleDesignGradients.track.forEach((g, k) => { track.d[base + k] += g; });
    return steeringGeometryDuals(l, r, rack, track, roles.vehicle.wheelbase, roles.rack_travel_per_revolution);
  }

  /**
   * Every sensitivity metric's value and gradient at the current solved state. 'adjoint'
   * (the default, dynamics.md): one transposed solve per metric, Φ_qᵀ μ = ∂m/∂qᵀ, then
   * dm/dp = ∂m/∂p − μᵀ Φ_p; 'direct': one solve per hardpoint coordinate. Equal to rounding.
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
    const P = this.parameterCount;
    const f = this.factorState(drivers);
    const gradients = new Map<string, { value: number; g: Float64Array }>();
    const wantKinematic = !names || names.length === 0 || names.some((m) => KINEMATIC_ROLL_CENTRE.has(m) || m.startsWith('roll_center_linkage_'));
    // steering_ratio is the sides' rack rates of steer angle, composed
    const wantRatio = this.sides.length === 2 && this.sm.roles.rack_travel_per_revolution !== undefined && (!names || names.length === 0 || names.includes('steering_ratio'));
    const wantDerivatives = wantRatio || !names || names.length === 0 || names.some((m) => DERIVATIVE_METRICS.includes(m));
    const wantDeviceRates = !names || names.length === 0 || names.some((m) => DEVICE_RATE_METRICS.includes(m));
    let direct: { rates: TangentSpace; ev: StateEvaluation & { rockerAngles: (Dual | null)[]; devices: Map<string, Dual> } } | null = null;
    const wantVirtual = !!names?.some((m) => (VIRTUAL_METRICS as readonly string[]).includes(m));
    // a screw instant axis (multi-link, beam axle) is a velocity quantity: second derivatives
    const wantScrew = hasScrewInstantAxis(this) && (!names || names.length === 0 || names.some((m) => (SCREW_AXIS_METRICS as readonly string[]).includes(m) || m === 'roll_center_z' || m === 'roll_center_y'));
    if (mode === 'direct' || wantKinematic || wantDerivatives || wantDeviceRates || wantVirtual || wantScrew) {
      const rates = this.stateRates(f);
      direct = { rates, ev: this.evaluateAlong(rates, 0) };
    }
    if (mode === 'direct') {
      for (const [key, m] of this.firstOrderDuals(direct!.ev, direct!.rates)) if (Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: Float64Array.from(m.d.subarray(0, P)) });
    } else {
      const { qr, B, M, n, colScale, layout, spans } = f;
      const ws = this.adjointWs?.n === n && this.adjointWs.M === M ? this.adjointWs : (this.adjointWs = adjointScratch(n, M, P));
      const { b, z, mu } = ws;
      const perm = qr.perm;
      const { start, at } = spans;
      // columns 0..n: unit state rates (∂m/∂q); n..n+P: the points' own moves (∂m/∂p, added
      // by explicitPointRate; their state rates are null, i.e. zero)
      const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: ws.unit, layout, size: n };
      const ev = this.evaluateAlong(space, n);
      for (const [key, m] of this.firstOrderDuals(ev, space)) {
        if (!Number.isFinite(m.v)) continue;
        // Φ_qᵀ μ = ∂m/∂qᵀ on the state's factorisation (columns scaled and pivoted)
        const d = m.d;
        for (let a = 0; a < n; a++) b[a] = d[perm[a]] * colScale[perm[a]];
        qr.solveRt(z, b);
        mu.fill(0);
        mu.set(z);
        qr.applyQ(mu);
        // dm/dp = ∂m/∂p − μᵀ Φ_p (B holds −Φ_p), over the rows where B can be nonzero
        const g = zeroedFloats(P);
        for (let k = 0; k < P; k++) {
          let s = 0;
          const col = k * M;
          for (let e = start[k]; e < start[k + 1]; e += 2) for (let r = at[e]; r < at[e + 1]; r++) s += mu[r] * B[col + r];
          g[k] = d[n + k] + s;
        }
        gradients.set(key, { value: m.v, g });
      }
    }
    // the second-order metrics' hub/rack motions are those of the bump system, whatever drives
    // the state (bump-system.ts: its rows stay in the system until restore())
    const bump = direct && (wantKinematic || wantDerivatives || wantDeviceRates || wantVirtual || wantScrew) ? bumpSystem(this, f, drivers) : null;
    if (direct && bump && wantKinematic) {
      // a beam axle's (both wheels on one body) is null in kinemate sweep: so is its gradient
      const beam = this.sm.corners.length === 2 && this.sm.corners[0].upright === this.sm.corners[1].upright;
      const kin = beam ? beamRollCentreGradients(this, bump.f, bump.drivers, direct.rates) : kinematicRollCentres(this, bump.f, bump.drivers, direct.rates, direct.ev);
      for (const [key, m] of Object.entries(kin)) if (m && Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: Float64Array.from(m.d.subarray(0, P)) });
    }
    if (direct && bump && wantDerivatives) {
      const asked = names?.length && wantRatio ? [...names, 'deriv_steer_angle_wrt_rack_displacement'] : (names ?? []);
      for (const [key, m] of Object.entries(derivativeGradients(this, bump.f, bump.drivers, direct.rates, asked))) {
        const base = key.slice(key.indexOf(':') + 'deriv_'.length + 1).replace(/_wrt_(hub_z|rack_displacement)$/, '');
        if (!this.unsupported.has(base) && Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: m.d });
      }
    }
    if (direct && bump && wantVirtual) {
      for (const [key, m] of Object.entries(virtualGradients(this, bump.f, bump.drivers, direct.rates, this.virtualHold, names ?? []))) gradients.set(key, { value: m.v, g: m.d });
    }
    if (direct && bump && wantScrew) {
      for (const [key, m] of Object.entries(screwAxisGradients(this, bump.f, bump.drivers, direct.rates, names ?? []))) gradients.set(key, { value: m.v, g: m.d });
    }
    if (direct && bump && wantDeviceRates) {
      for (const [key, m] of Object.entries(deviceRateGradients(this, bump.f, bump.drivers, direct.rates, names ?? []))) if (Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: m.d });
    }
    bump?.restore();
    const travel = this.sm.roles.rack_travel_per_revolution;
    if (wantRatio && travel !== undefined) {
      const [l, r] = this.sides.map((side) => gradients.get(`${side}:deriv_steer_angle_wrt_rack_displacement`));
      const ratio = l && r ? steeringRatioGradient(l, r, travel) : null;
      if (ratio) gradients.set('axle:steering_ratio', ratio);
    }
    const bySide: Record<string, Record<string, MetricGradient | null>> = {};
    const named = (g: { value: number; g: Float64Array }): MetricGradient => ({ value: g.value, gradient: this.gradientRecord(g.g) });
    const offered = sensitivityMetricsOf(this.geometry);
    this.sides.forEach((side, ci) => {
      const out: Record<string, MetricGradient | null> = (bySide[side] = {});
      // the *_virtual only when asked for (the default output stays as it was)
      const asked = wantVirtual ? VIRTUAL_METRICS.filter((m) => names!.includes(m)) : [];
      for (const name of [...offered.side, ...asked]) {
        const m = gradients.get(`${side}:${name}`);
        if (!m || this.unsupported.has(name)) { out[name] = null; continue; }
        // wheel travel is measured from the design wheel centre, which moves with the points
        if (name === 'wheel_travel') for (let k = 0; k < P; k++) m.g[k] -= this.wheelCenterRatesByCorner[ci][2 * P + k];
        out[name] = named(m);
      }
    });
    if (this.sides.length === 2) {
      const out: Record<string, MetricGradient | null> = (bySide.axle = {});
      const d = this.axleDesignGradients!;
      for (const name of offered.axle) {
        const m = gradients.get(`axle:${name}`);
        if (!m) { out[name] = null; continue; }
        // measured from the design state, which moves with the points: heave (mean wheel travel), track, ride height
        for (let k = 0; k < P; k++) {
          if (name === 'heave') m.g[k] -= (this.wheelCenterRatesByCorner[0][2 * P + k] + this.wheelCenterRatesByCorner[1][2 * P + k]) / 2;
          else if (name === 'track') m.g[k] += d.track[k];
          else if (name === 'track_change') m.g[k] -= d.track[k];
          else if (name === 'ride_height_change') m.g[k] -= d.rideHeight[k];
        }
        out[name] = named(m);
      }
    }
    return bySide;
  }

}

/**
 * The roll centre of a corner's mirrored axle by the FVIC construction: the contact centre →
 * FVIC line met with y = 0. Null when the FVIC is at infinity or level with the contact in y.
 */
export function mirroredRollCentre(cm: CornerMetrics): Dual | null {
  const fy = cm.metrics.fvic_y, fz = cm.metrics.fvic_z;
  if (!fy || !fz) return null;
  const c = cm.points.wheel_contact_centre;
  const n = c.n;
  const cy = new Dual(n, c.v[1]), cz = new Dual(n, c.v[2]);
  for (let k = 0; k < n; k++) { cy.d[k] = c.d[n + k]; cz.d[k] = c.d[2 * n + k]; }
  const run = fy.v - cy.v;
  if (run === 0) return null;
  // z = C_z − C_y (F_z − C_z)/(F_y − C_y)
  const slope = divD(subD(fz, cz), subD(fy, cy));
  return subD(cz, mulD(cy, slope));
}


/** The row spans of B per parameter (the blocks' parameter columns, in row order). */
function parameterSpans(rows: StateFactors['rows'], P: number): StateFactors['spans'] {
  const start = new Int32Array(P + 1);
  for (const { params } of rows) for (const k of params.columns!) start[k + 1] += 2;
  for (let k = 0; k < P; k++) start[k + 1] += start[k];
  const at = new Int32Array(start[P]);
  const next = start.slice(0, P);
  let r0 = 0;
  for (const { block, params } of rows) {
    for (const k of params.columns!) { at[next[k]++] = r0; at[next[k]++] = r0 + block.rows; }
    r0 += block.rows;
  }
  return { start, at };
}

function adjointScratch(n: number, M: number, P: number) {
  const unit: (Float64Array | null)[] = [];
  for (let j = 0; j < n; j++) { const e = new Float64Array(n); e[j] = 1; unit.push(e); }
  for (let k = 0; k < P; k++) unit.push(null);
  return { n, M, unit, b: new Float64Array(n), z: new Float64Array(n), mu: new Float64Array(M), g: new Float64Array(P) };
}

const subD = (a: Dual, b: Dual): Dual => dSub(new Dual(a.n), a, b);
const mulD = (a: Dual, b: Dual): Dual => dMul(new Dual(a.n), a, b);
const divD = (a: Dual, b: Dual): Dual => dDiv(new Dual(a.n), a, b);

function valueKey(p: ArrayLike<number>): string {
  return `${p[0]},${p[1]},${p[2]}`;
}





