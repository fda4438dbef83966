/**
 * Exact sensitivities of suspension metrics to every hardpoint coordinate (MATH.md, implicit
 * function theorem; dynamics.md "Sensitivities and gradients").
 *
 * At a solved state the constraints and drivers Φ(q, p) = 0 hold, so the state's rate per
 * hardpoint coordinate is q̇ = −Φ_q⁻¹ Φ_p. Φ_p needs no new derivative code: every part sits
 * at the identity at design, so a hardpoint is a part-local point, and moving a local entity
 * (a point, an axis's origin and direction) inside one block is the same, for that block, as
 * a body twist of that part — so Φ_p = (the block's own Jacobian columns of that part) ×
 * (the twist). A distance mate's length is regenerated from its ends (design-consistent:
 * links change length with their end points), which adds −d|b − a|/dp to its row. The
 * metrics are then evaluated once with duals over all hardpoint coordinates: each point's
 * rate is its state rate plus its own local move (SuspensionModel.explicitPointRate).
 * One factorisation per state; no finite differences anywhere.
 */
import { PivotedQR } from '../../kernel/linalg';
import { toMatrix } from '../../kernel/quat';
import type { TangentSpace } from '../../kernel/analysis';
import type { ResidualBlock } from '../../kernel/system';
import type { DualVec3 } from '../../kernel/dual';
import type { AssemblyDoc } from '../assembly/types';
import { sweepValues, sweepFromShortcut, type Geometry, type SweepSpec, type SweepTarget } from './files';
import { suspensionAssembly } from './template';
import { SuspensionModel } from './model';
import { sweepDrivers } from './sweep';
import type { PointExpr } from './targets';

const AXES = ['x', 'y', 'z'] as const;

/** A metric's value at a state and its derivative per hardpoint coordinate (metric unit per mm). */
export interface MetricGradient {
  value: number;
  gradient: Record<string, number>;
}

/** Metrics whose gradients are offered (corner metrics that are functions of the state and the hardpoints alone). */
export const SENSITIVITY_METRICS = [
  'camber', 'toe_angle', 'steer_angle', 'caster', 'kpi', 'steering_axis_offset_ground', 'scrub_radius', 'mechanical_trail',
  'svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle',
  'anti_dive', 'anti_lift', 'anti_squat', 'wheel_travel', 'half_track', 'damper_length',
] as const;

/** Per block of the system: how its local columns move with each hardpoint coordinate. */
export interface BlockParameters {
  /** localDim × P: the twist of each pose slot per parameter (scalar slots stay zero). */
  twist: Float64Array;
  /** rows × P: explicit row terms (a regenerated link length), or null. */
  constant: Float64Array | null;
  /** The parameters with a nonzero twist or constant (filled in by factorState on first use). */
  columns?: Int32Array;
}

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

export class SensitivityError extends Error {}

/**
 * A corner geometry's model prepared for gradients: the hardpoint coordinates as parameters,
 * each block's parameter twists (computed once), workspaces for the per-state solve.
 */
export class SensitivityModel {
  readonly doc: AssemblyDoc;
  readonly sm: SuspensionModel;
  /** `<hardpoint>.<x|y|z>`, three per hardpoint in the file's order. */
  readonly keys: string[];
  readonly hardpointNames: string[];
  private readonly hardpointValues: Float64Array;
  private readonly byValue = new Map<string, number>();
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
      // two hardpoints at one place: a point there cannot say which it is
      this.byValue.set(key, this.byValue.has(key) ? -2 : j);
    });
    this.wheelCenterRatesByCorner = this.sm.corners.map((_, ci) => this.wheelCenterRates(ci));
    this.wheelCenterRate = this.wheelCenterRatesByCorner[0];
    // a damper end on a rod's centreline sits at a fraction that moves with the points: not mapped yet
    for (const corner of this.sm.corners) {
      const damper = corner.roles.damper;
      if (damper && damper.some((r) => typeof r !== 'string')) this.unsupported.add('damper_length');
    }
    const sys = this.sm.model.system;
    for (let b = 0; b < sys.blockCount; b++) {
      const blk = sys.block(b);
      if (blk.kind !== 'constraint') continue;
      this.blockParams.set(blk, this.mateParameters(blk));
    }
  }

  get parameterCount(): number { return this.keys.length; }

  /** Hardpoint index of a local point (exactly one of the file's values), −1 when none. */
  hardpointAt(p: ArrayLike<number>): number {
    const j = this.byValue.get(valueKey(p));
    if (j === -2) throw new SensitivityError(`sensitivity: two hardpoints at (${Array.from(p).join(', ')}); move one so each point is unambiguous`);
    return j ?? -1;
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
    const dot = ref.indexOf('.');
    const part = this.doc.parts[ref.slice(0, dot)], name = ref.slice(dot + 1);
    const point = part?.points?.[name];
    const axis = part?.axes?.[name];
    if (point) {
      const j = this.hardpointAt(point);
      if (j >= 0) for (let c = 0; c < 3; c++) twist[(col0 + 3 + c) * P + 3 * j + c] += 1;
      return;
    }
    if (axis) {
      const O = axis.origin, D = axis.direction;
      const f = this.hardpointAt(O);
      const tip = [O[0] + D[0], O[1] + D[1], O[2] + D[2]];
      const t = this.hardpointAt(tip);
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
    throw new SensitivityError(`sensitivity: mate ${owner}: entity "${ref}" is not a point or an axis (not supported yet)`);
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
    const dot = ref.indexOf('.');
    return this.doc.parts[ref.slice(0, dot)]?.points?.[ref.slice(dot + 1)] ?? null;
  }

  /** Parameters of a sweep driver's block: the wheel centre (or a hardpoint) pulled along an axis. */
  driverParameters(blk: ResidualBlock, source: SweepTarget): BlockParameters {
    const P = this.parameterCount;
    const sys = this.sm.model.system;
    const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
    const twist = new Float64Array(localDim * P);
    const constant = new Float64Array(P);
    if (source.type === 'actuator_position') return { twist, constant: null }; // the slide is 0 at design whatever the points
    if (source.type !== 'point') throw new SensitivityError(`sensitivity: a ${source.type} target is not supported yet (use a point or rack target)`);
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
   * The square system at the current solved state, factored: A = [Φ_q; drivers_q] in scaled
   * columns (pivoted QR) and B = −Φ_p (M × P, column-major), per dynamics.md.
   */
  factorState(drivers: readonly DriverParameters[]): StateFactors {
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
    for (let b = 0; b < sys.blockCount; b++) {
      if (!sys.blockEnabled(b)) continue;
      const blk = sys.block(b);
      if (blk.kind === 'limit') continue;
      const params = this.blockParams.get(blk) ?? drivers.find((d) => d.block === blk)?.params;
      if (!params) throw new SensitivityError(`sensitivity: block ${blk.owner} has no parameter map`);
      rows.push({ block: blk, params, index: b });
    }
    const M = rows.reduce((s, r) => s + r.block.rows, 0);
    // workspaces kept between states of one structure (a sweep allocates them once)
    const ws = this.workspace.M === M && this.workspace.n === n ? this.workspace : (this.workspace = { M, n, A: new Float64Array(M * n), B: new Float64Array(M * P), qr: new PivotedQR(M, n), res: new Float64Array(64), jac: new Float64Array(64 * 64) });
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

  /** Evaluate every corner's metrics along `rates`, each point's local move added at columns base + 3j + c. */
  private evaluateAlong(rates: TangentSpace, base: number) {
    const sm = this.sm;
    const R = new Float64Array(9);
    const sys = sm.model.system;
    const lookup = this.termHardpoint;
    sm.explicitPointRate = (out: DualVec3, term, n) => {
      let j = lookup.get(term.local);
      if (j === undefined) lookup.set(term.local, (j = this.hardpointAt(term.local)));
      if (j < 0) return;
      toMatrix(R, sys.state, sys.variables[term.variable].offset + 3);
      for (let i = 0; i < 3; i++) for (let c = 0; c < 3; c++) out.d[i * n + base + 3 * j + c] += term.weight * R[i * 3 + c];
    };
    try {
      return sm.evaluate({ rates }).corners.map((c) => c.metrics as Record<string, { v: number; d: Float64Array } | null>);
    } finally {
      sm.explicitPointRate = null;
    }
  }

  /**
   * Every sensitivity metric's value and gradient at the current solved state. 'adjoint'
   * (the default, dynamics.md): one transposed solve per metric, Φ_qᵀ μ = ∂m/∂qᵀ, then
   * dm/dp = ∂m/∂p − μᵀ Φ_p; 'direct': one solve per hardpoint coordinate. Equal to rounding.
   */
  metricsAt(drivers: readonly DriverParameters[], mode: 'adjoint' | 'direct' = 'adjoint'): Record<string, MetricGradient | null> {
    const bySide = this.metricsBySide(drivers, mode);
    return bySide[this.sides[0]];
  }

  /**
   * metricsAt for every corner: `{ <side>: { <metric>: { value, gradient } } }` (a corner
   * has one side; an axle's gradients run over both sides' and the centre's hardpoints).
   */
  metricsBySide(drivers: readonly DriverParameters[], mode: 'adjoint' | 'direct' = 'adjoint'): Record<string, Record<string, MetricGradient | null>> {
    const P = this.parameterCount;
    const f = this.factorState(drivers);
    // every metric null, in order; the gradients found below replace them
    const bySide: Record<string, Record<string, MetricGradient | null>> = {};
    for (const side of this.sides) {
      const out: Record<string, MetricGradient | null> = (bySide[side] = {});
      for (const name of SENSITIVITY_METRICS) out[name] = null;
    }
    const put = (ci: number, name: string, value: number, g: Float64Array) => {
      if (this.unsupported.has(name)) return;
      // wheel travel is measured from the design wheel centre, which moves with the points
      if (name === 'wheel_travel') for (let k = 0; k < P; k++) g[k] -= this.wheelCenterRatesByCorner[ci][2 * P + k];
      bySide[this.sides[ci]][name] = { value, gradient: this.gradientRecord(g) };
    };
    if (mode === 'direct') {
      const corners = this.evaluateAlong(this.stateRates(f), 0);
      corners.forEach((cm, ci) => {
        for (const name of SENSITIVITY_METRICS) {
          const m = cm[name];
          if (m && Number.isFinite(m.v)) put(ci, name, m.v, Float64Array.from(m.d.subarray(0, P)));
        }
      });
      return bySide;
    }
    const { qr, B, M, n, colScale, layout, spans } = f;
    const ws = this.adjointWs?.n === n && this.adjointWs.M === M ? this.adjointWs : (this.adjointWs = adjointScratch(n, M, P));
    const { b, z, mu, g } = ws;
    const perm = qr.perm;
    const { start, at } = spans;
    // columns 0..n: unit state rates (∂m/∂q); n..n+P: the points' own moves (∂m/∂p, added
    // by explicitPointRate; their state rates are null, i.e. zero)
    const corners = this.evaluateAlong({ mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: ws.unit, layout, size: n }, n);
    for (let ci = 0; ci < corners.length; ci++) for (const name of SENSITIVITY_METRICS) {
      const m = corners[ci][name];
      if (!m || !Number.isFinite(m.v)) continue;
      // Φ_qᵀ μ = ∂m/∂qᵀ on the state's factorisation (columns scaled and pivoted)
      const d = m.d;
      for (let a = 0; a < n; a++) b[a] = d[perm[a]] * colScale[perm[a]];
      qr.solveRt(z, b);
      mu.fill(0);
      mu.set(z);
      qr.applyQ(mu);
      // dm/dp = ∂m/∂p − μᵀ Φ_p (B holds −Φ_p), over the rows where B can be nonzero
      for (let k = 0; k < P; k++) {
        let s = 0;
        const col = k * M;
        for (let e = start[k]; e < start[k + 1]; e += 2) for (let r = at[e]; r < at[e + 1]; r++) s += mu[r] * B[col + r];
        g[k] = d[n + k] + s;
      }
      put(ci, name, m.v, g);
    }
    return bySide;
  }

}

export interface DriverParameters { block: ResidualBlock; params: BlockParameters }
/** The square system at a solved state (factorState): A = [Φ_q; drivers_q] column-scaled and QR-factored, B = −Φ_p, and its rows in order. */
export interface StateFactors {
  qr: PivotedQR; B: Float64Array; M: number; n: number; colScale: number[]; layout: Int32Array; rows: { block: ResidualBlock; params: BlockParameters; index: number }[];
  /** Rows of B that can be nonzero per parameter k: [from, to) pairs at at[start[k]..start[k + 1]). */
  spans: { start: Int32Array; at: Int32Array };
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

function valueKey(p: ArrayLike<number>): string {
  return `${p[0]},${p[1]},${p[2]}`;
}

/** More gradients at each solved state (the loads' in load-sensitivity.ts): their names and how to get them. */
export interface ExtraGradients {
  readonly names: readonly string[];
  at(drivers: readonly DriverParameters[]): Record<string, MetricGradient | null>;
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

/**
 * Gradients of the named metrics at every step of a sweep spec (each step solved from the
 * last). `metrics` empty: all of SENSITIVITY_METRICS (and `extra`'s). A corner geometry;
 * an axle: {@link sensitivitySweepBySide}.
 */
export function sensitivitySweep(model: SensitivityModel, spec: SweepSpec, metrics: readonly string[] = [], mode: 'adjoint' | 'direct' = 'adjoint', extra?: ExtraGradients): { steps: SensitivityStep[] } {
  if (model.sides.length > 1) throw new SensitivityError('sensitivity: an axle has metrics per side: use sensitivitySweepBySide');
  const offered: readonly string[] = [...SENSITIVITY_METRICS, ...(extra?.names ?? [])];
  checkMetrics(metrics, offered);
  const kinematic = !metrics.length || metrics.some((m) => (SENSITIVITY_METRICS as readonly string[]).includes(m));
  const chosen = metrics.length ? metrics : offered;
  return sweepStates(model, spec, (params) => {
    const all: Record<string, MetricGradient | null> = { ...(kinematic ? model.metricsAt(params, mode) : {}), ...(extra ? extra.at(params) : {}) };
    return Object.fromEntries(chosen.map((m) => [m, all[m] ?? null]));
  });
}

/**
 * The same for any geometry, grouped by corner side as `kinemate sweep` groups an axle's
 * metrics; the gradients run over every hardpoint of the file (`left.<name>.x`, `right.…`,
 * `center.…` for an axle). Kinematic metrics only.
 */
export function sensitivitySweepBySide(model: SensitivityModel, spec: SweepSpec, metrics: readonly string[] = [], mode: 'adjoint' | 'direct' = 'adjoint'): { steps: SensitivityStep<SideMetrics>[] } {
  checkMetrics(metrics, SENSITIVITY_METRICS);
  const chosen = metrics.length ? metrics : SENSITIVITY_METRICS;
  return sweepStates(model, spec, (params) => {
    const bySide = model.metricsBySide(params, mode);
    return Object.fromEntries(model.sides.map((side) => [side, Object.fromEntries(chosen.map((m) => [m, bySide[side][m] ?? null]))]));
  });
}

function checkMetrics(metrics: readonly string[], offered: readonly string[]): void {
  for (const m of metrics) if (!offered.includes(m)) throw new SensitivityError(`--metric: no gradient for "${m}" (metrics: ${offered.join(', ')})`);
}

/** Solves each state of the spec from the last and evaluates `at` there (the drivers' parameter maps given). */
function sweepStates<M>(model: SensitivityModel, spec: SweepSpec, at: (params: readonly DriverParameters[]) => M): { steps: SensitivityStep<M>[] } {
  const sm = model.sm;
  const drivers = sweepDrivers(sm, spec);
  const params = drivers.map((d) => ({ block: d.block as ResidualBlock, params: model.driverParameters(d.block, d.source) }));
  const values = new Map<SweepTarget, number[]>();
  const explicit = (spec as { values?: number[] }).values;
  for (const t of spec.targets) values.set(t, explicit && t.type === 'point' && !t.hold ? explicit : sweepValues(t, spec.steps));
  sm.resetToDesign();
  const blocks = drivers.map((d) => d.block);
  const steps: SensitivityStep<M>[] = [];
  const sys = sm.model.system;
  let lastGood = sys.snapshot();
  for (let i = 0; i < spec.steps; i++) {
    const driverReport: Record<string, number> = {};
    drivers.forEach((d) => {
      const v = values.get(d.source)![i];
      d.block.target = d.targetOf(v);
      driverReport[d.name] = d.reportOf(v);
    });
    const report = sm.solveWith(blocks);
    if (!report.converged) {
      sys.restore(lastGood);
      steps.push({ index: i, status: 'failed', drivers: driverReport, metrics: null, message: report.message ?? 'the linkage cannot reach this step' });
      continue;
    }
    lastGood = sys.snapshot();
    steps.push({ index: i, status: 'solved', drivers: driverReport, metrics: at(params) });
  }
  sm.clearDrivers();
  sm.resetToDesign();
  return { steps };
}

/** Gradients at one bump travel (mm, wheel centre z from design); the library's short form. */
export function sensitivityAt(geometry: Geometry | SensitivityModel, bump: number, metrics: readonly string[] = [], mode: 'adjoint' | 'direct' = 'adjoint'): Record<string, MetricGradient | null> {
  const model = geometry instanceof SensitivityModel ? geometry : new SensitivityModel(geometry);
  const spec = bumpStates([bump]);
  const step = sensitivitySweep(model, spec, metrics, mode).steps[0];
  if (step.status !== 'solved' || !step.metrics) throw new SensitivityError(`sensitivity: bump ${bump} mm cannot be reached: ${step.message ?? ''}`);
  return step.metrics;
}

/** A bump sweep (rack held) that visits the given wheel-centre travels (mm) in order. */
export function bumpStates(travels: readonly number[], geometry?: Geometry): SweepSpec & { values: number[] } {
  // with the geometry: its rack hold is dropped when it has no rack (as `kinemate sweep --bump`)
  const spec = sweepFromShortcut('bump', `${travels[0]}:${travels[0]}:1`, geometry);
  // a linear target cannot visit arbitrary travels: `values` gives the bump target's value per step
  return { ...spec, steps: travels.length, values: [...travels] };
}

/**
 * Solve the first state of `spec` and return a function that gives every metric's gradient
 * at that solved state (the state is not re-solved): for timing the gradient alone.
 */
export function gradientsAtFirstState(model: SensitivityModel, spec: SweepSpec): (mode?: 'adjoint' | 'direct') => Record<string, MetricGradient | null> {
  const sm = model.sm;
  const drivers = sweepDrivers(sm, spec);
  const params = drivers.map((d) => ({ block: d.block as ResidualBlock, params: model.driverParameters(d.block, d.source) }));
  sm.resetToDesign();
  drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, spec.steps)[0]); });
  const report = sm.solveWith(drivers.map((d) => d.block));
  if (!report.converged) throw new SensitivityError('sensitivity: the first state cannot be solved');
  return (mode = 'adjoint') => model.metricsAt(params, mode);
}
