/**
 * Exact gradients of the loads at a load case with respect to every hardpoint coordinate
 * (issue 14 item 2; docs/sensitivity.md "Gradients of loads").
 *
 * At a solved state the square system A = [Φ_q; drivers_q] carries the applied loads by
 * Aᵀλ = Q (λ per row: a link's row gives its tension). Along a hardpoint coordinate p_k the
 * state moves by q̇_k = −A⁻¹Φ_p (SensitivityModel.stateRates) and differentiating gives
 *   Aᵀ λ̇ = Q̇ − (dA/ds)ᵀ λ,   d/ds = along (q̇_k, e_k),
 * with dA/ds the derivative of every block's Jacobian along the state's motion and the
 * block's own local points' motion: second derivatives of the residual code, by forward AD
 * in tangent mode (kernel/dual.ts withTangents), never by differences. One transposed solve
 * per coordinate on the state's factorisation serves every link at once.
 */
import { withTangents, DualVec3, dvSub, dvNormalize, dvScaleConst, dvAdd, dvConst, type TangentSeeds } from '../../../kernel/dual';
import type { ResidualBlock } from '../../../kernel/system';
import { rotationMatrix } from '../../../kernel/dual';
import { PointDistanceBlock } from '../../../mates/constraints';
import { BushingForce, CoordinateSpringForce, LinearLaw, PointToPointForce } from '../../../mates/forces';
import { barBushing, barBushingRate, coordinateSpringRate, type BarBushing } from './device-loads';
import * as P from '../../../kernel/pose';
import { SweepLoads, type LoadCase } from '../loads/loads';
import { SensitivityError, type DriverParameters, type MetricGradient, type SensitivityContext, type StateFactors } from './types';
import type { PointExpr } from '../build/targets';
import { forEachJacobianRate, type RowDuals } from './jacobian';
import { freeLengthRate } from './free-length';
import { JOINT_FORCE, JOINT_MOMENT, JointWrenchRates, jointMetricNames, jointsOf } from './joint-wrenches';
import { ElementHoldRates, barWrenchNames, elementHoldNames } from './element-holds';
import { MOTION_RATIO, motionRatioGradients, motionRatioNames } from './motion-ratios';
import { WHEEL_RATE, wheelRateGradients, wheelRateNames } from './wheel-rate';

/** Metric name of a link's axial force (N, tension +): `link_force.<link id>`. */
export const LINK_FORCE = 'link_force.';


export class LoadSensitivity {
  readonly loads: SweepLoads;
  /** Every two-force link: its mate id and block. */
  readonly links: { id: string; block: ResidualBlock }[] = [];
  /** Springs and dampers between two points; `slope` ≠ 0 when the free length follows the ends (its dT/dl). */
  private readonly elements: { id: string; index: number; block: PointToPointForce; slope: number; ja: number; jb: number }[] = [];
  /** Torsion bars (springs on a hinge's angle) and anti-roll bars' bushings (device-load-rates.ts). */
  private readonly coordinateSprings: { index: number; block: CoordinateSpringForce }[] = [];
  private readonly bars: BarBushing[] = [];
  private readonly barIds: string[] = [];

  constructor(readonly model: SensitivityContext, loadCase: LoadCase) {
    const sm = model.sm;
    this.loads = new SweepLoads(sm, loadCase);
    const dyn = this.loads.dyn;
    const bodies = dyn.bodies.filter((b) => !sm.model.system.variables[b.variable].fixed);
    const others = dyn.elements.filter((e) => !(e.block instanceof PointToPointForce || e.block instanceof CoordinateSpringForce || e.block instanceof BushingForce));
    if (others.length || bodies.length) {
      const names = [...others.map((e) => `${e.id} (${e.type})`), ...bodies.map((b) => `mass of ${sm.model.system.variables[b.variable].name}`)];
      throw new SensitivityError(`sensitivity --loads: these force elements and masses are not in the load gradients yet: ${names.join(', ')} (springs and dampers between two points, torsion bars and anti-roll bars are)`);
    }
    for (const e of dyn.elements) {
      if (e.block instanceof CoordinateSpringForce) { this.coordinateSprings.push({ index: e.index, block: e.block }); continue; }
      if (e.block instanceof BushingForce) { this.bars.push(barBushing(model, e.id, e.index, e.block)); this.barIds.push(e.id); continue; }
      const blk = e.block as PointToPointForce;
      // the template regenerates a coilover's (a heave spring's) free length from its ends when the file gives none
      const ja = model.hardpointAt(blk.a), jb = model.hardpointAt(blk.b);
      const designLength = Math.hypot(blk.b[0] - blk.a[0], blk.b[1] - blk.a[1], blk.b[2] - blk.a[2]);
      const law = blk.spring instanceof LinearLaw ? blk.spring : null;
      const given = e.id === 'heave_spring' ? model.geometry.devices?.heave_spring?.free_length : model.geometry.spring.free_length;
      const regenerated = law !== null && given === undefined && ja >= 0 && jb >= 0 && Math.abs(law.x0 - designLength) <= 1e-9 * Math.max(1, designLength);
      this.elements.push({ id: e.id, index: e.index, block: blk, slope: regenerated ? law!.slope : 0, ja, jb });
    }
    const sys = sm.model.system;
    for (let b = 0; b < sys.blockCount; b++) {
      const blk = sys.block(b);
      const mate = model.doc.mates[blk.owner] as { type?: string } | undefined;
      if (mate?.type === 'distance' && blk instanceof PointDistanceBlock) this.links.push({ id: blk.owner, block: blk });
    }
  }

  /** The metric names this load case offers: one per link, and `rack_force` with a rack. */
  get names(): string[] {
    return [...this.links.map((l) => `${LINK_FORCE}${l.id}`), ...(this.model.sm.steering >= 0 ? ['rack_force'] : [])];
  }

  /** The joints' reactions (joint-wrench-rates.ts), offered on request only: `joint_force.<mate>.<x|y|z>`, `joint_moment.…`. */
  private joints: ReturnType<typeof jointsOf> | null = null;
  get requestable(): string[] {
    return [...jointMetricNames(this.joints ??= jointsOf(this.model)), ...elementHoldNames(this.elements.map((e) => e.id), null, this.holdNames()), ...barWrenchNames(this.barIds), ...motionRatioNames(this.elements.map((e) => e.id), this.model.sides), ...wheelRateNames(this.model.sides)];
  }

  /** The holds a sweep may have (element-hold-rates.ts): each wheel's bump or roll target, the rack. */
  private holdNames(): string[] {
    const sm = this.model.sm, sides = this.model.sides;
    return [...sides.map((s) => `${s}:wheel_center_z`), ...(sides.length > 1 ? sides.map((s) => `${s}:roll`) : []), ...(sm.steering >= 0 ? ['rack'] : [])];
  }

  /** Solve Aᵀx = y (y unscaled, per tangent column) on the state's factorisation. */
  private solveTransposed(f: StateFactors, y: ArrayLike<number>, out: Float64Array): Float64Array {
    return f.solver.solveTransposed(out, y);
  }

  /** Row offset of each of the state's rows' blocks in λ. */
  private rowOffsets(f: StateFactors): Map<ResidualBlock, number> {
    const out = new Map<ResidualBlock, number>();
    let r0 = 0;
    for (const r of f.rows) { out.set(r.block, r0); r0 += r.block.rows; }
    return out;
  }

  /** Multipliers λ of Aᵀλ = Q at the current solved state. */
  multipliers(f: StateFactors): Float64Array {
    if (f.M !== f.n) throw new SensitivityError(`sensitivity --loads: ${f.M} rows for ${f.n} unknowns: the reactions are not determined`);
    return this.solveTransposed(f, this.loads.generalizedLoads(), new Float64Array(f.M));
  }

  /**
   * The link forces and their gradients at the current solved state (its drivers given as
   * for SensitivityModel.metricsAt).
   */
  at(drivers: readonly DriverParameters[], names?: readonly string[]): Record<string, MetricGradient | null> {
    const model = this.model;
    const P = model.parameterCount;
    const f = model.factorState(drivers);
    const lambda = this.multipliers(f);
    // only the joints asked for (a joint on a fixed part is refused when asked for)
    const asked = names ? (this.joints ??= jointsOf(model)).filter((j) => jointMetricNames([j]).some((m) => names.includes(m))) : [];
    const joints = asked.length ? new JointWrenchRates(model, asked, f, lambda) : null;
    const elementsHolds = names?.length ? new ElementHoldRates(model, this.loads.dyn.forces, this.elements.map((e) => ({ id: e.id, e })), f, lambda, names, this.bars.map((bar, i) => ({ id: this.barIds[i], bar }))) : null;
    const rates = model.stateRates(f);
    const offsets = this.rowOffsets(f);
    const linkRows = this.links.map((l) => offsets.get(l.block)!);
    // the rack hold's row: the steering's force along +y is −scale·λ (as SweepLoads reports it)
    const sys = model.sm.model.system;
    const rack = f.rows.find((r) => r.block.kind === 'driver' && r.block.vars.length === 1 && r.block.vars[0] === model.sm.steering);
    const rackScale = rack ? -sys.variables[model.sm.steering].scale : 0;
    if (rack) { linkRows.push(offsets.get(rack.block)!); }
    const grads = linkRows.map(() => new Float64Array(P));
    const g = new Float64Array(f.n), lambdaDot = new Float64Array(f.M);
    for (let k = 0; k < P; k++) {
      const qd = rates.rates[k]!;
      this.contactLoadRate(g, qd, k);
      this.elementRate(g, qd, k);
      for (let i = 0; i < f.n; i++) g[i] = -g[i];
      joints?.begin();
      this.jacobianRateTimes(g, f, lambda, qd, k, joints); // g = (dA/ds)ᵀλ − Q̇
      for (let i = 0; i < f.n; i++) g[i] = -g[i];
      this.solveTransposed(f, g, lambdaDot);
      linkRows.forEach((r, j) => { grads[j][k] = lambdaDot[r]; });
      joints?.finish(k, qd, lambdaDot);
      elementsHolds?.finish(k, qd, lambdaDot);
    }
    const out: Record<string, MetricGradient | null> = {};
    this.links.forEach((l, j) => {
      out[`${LINK_FORCE}${l.id}`] = { value: lambda[linkRows[j]], gradient: Object.fromEntries(model.keys.map((key, k) => [key, grads[j][k]])) };
    });
    if (rack) {
      const j = linkRows.length - 1;
      out.rack_force = { value: rackScale * lambda[linkRows[j]], gradient: Object.fromEntries(model.keys.map((key, k) => [key, rackScale * grads[j][k]])) };
    }
    if (joints) Object.assign(out, joints.results());
    if (elementsHolds) Object.assign(out, elementsHolds.results());
    if (names?.some((m) => m.startsWith(MOTION_RATIO))) Object.assign(out, motionRatioGradients(model, f, drivers, rates, this.elements, names));
    // the wheel rates (two-point springs only: a bar's stiffness rate is not written yet)
    if (names?.some((m) => m.startsWith(WHEEL_RATE))) Object.assign(out, wheelRateGradients(model, f, drivers, rates, this.loads.dyn, this.elements, !this.coordinateSprings.length && !this.bars.length, names));
    return out;
  }

  /** acc += (dA/ds)ᵀ λ along (q̇, e_k): every block's Jacobian differentiated in tangent mode. */
  private jacobianRateTimes(acc: Float64Array, f: StateFactors, lambda: Float64Array, qd: Float64Array, k: number, also: { visit(rowsAt: number, rows: RowDuals, colGlobal: readonly number[]): void } | null = null): void {
    const missing = forEachJacobianRate(this.model, f, qd, k, (rowsAt, rows, colGlobal) => {
      also?.visit(rowsAt, rows, colGlobal);
      for (let r = 0; r < rows.length; r++) {
        const lam = lambda[rowsAt + r], t = rows[r].t;
        if (!t || lam === 0) continue;
        for (let c = 0; c < colGlobal.length; c++) if (colGlobal[c] >= 0) acc[colGlobal[c]] += lam * t.d[c];
      }
    });
    if (missing) throw new SensitivityError(`sensitivity --loads: block ${missing.owner} has no second derivatives (not supported yet)`);
  }

  /**
   * out = Q̇ along (q̇, e_k) of the contact loads: a world force F and moment M at the
   * contact centre c, on the upright in body components (Rᵀ(M + (c − o)×F), RᵀF). With the
   * upright's body twist (ω, v): d(Rᵀy) = −ω × Rᵀy + Rᵀẏ, ȯ = R v; ċ from the wheel centre's
   * and the axle points' rates (each point's state motion plus its own move as a hardpoint).
   */
  private contactLoadRate(out: Float64Array, qd: Float64Array, k: number): void {
    out.fill(0);
    const model = this.model, sm = model.sm, sys = sm.model.system;
    const P = model.parameterCount;
    const R = new Float64Array(9);
    const poseRate = (vid: number) => {
      const c0 = sys.variables[vid].fixed ? -1 : this.layoutOf(vid);
      return c0 >= 0 ? qd.subarray(c0, c0 + 6) : new Float64Array(6);
    };
    // a world point as a 1-column dual: value and rate
    const pointDual = (out1: DualVec3, vid: number, local: ArrayLike<number>, localRate: ArrayLike<number>, weight = 1) => {
      const off = sys.variables[vid].offset;
      rotationMatrix(R, sys.state, off + 3);
      const w = poseRate(vid);
      const l = local, ld = localRate;
      // body-frame velocity of the point: ω × l + v + l̇
      const bv = [w[1] * l[2] - w[2] * l[1] + w[3] + ld[0], w[2] * l[0] - w[0] * l[2] + w[4] + ld[1], w[0] * l[1] - w[1] * l[0] + w[5] + ld[2]];
      for (let i = 0; i < 3; i++) {
        out1.v[i] += weight * (R[3 * i] * l[0] + R[3 * i + 1] * l[1] + R[3 * i + 2] * l[2] + sys.state[off + i]);
        out1.d[i] += weight * (R[3 * i] * bv[0] + R[3 * i + 1] * bv[1] + R[3 * i + 2] * bv[2]);
      }
    };
    const exprDual = (expr: PointExpr) => {
      const o = dvConst(new DualVec3(1), 0, 0, 0);
      for (const t of expr) {
        const j = model.hardpointAt(t.local);
        const lr = [0, 0, 0];
        if (j >= 0 && k >= 3 * j && k < 3 * j + 3) lr[k - 3 * j] = 1;
        pointDual(o, t.variable, t.local, lr, t.weight);
      }
      return o;
    };
    for (const load of this.loads.loads) {
      const c = sm.corners[load.corner];
      const wcr = model.wheelCenterRatesByCorner[load.corner];
      const wcRate = [wcr[k], wcr[P + k], wcr[2 * P + k]];
      const wc = dvConst(new DualVec3(1), 0, 0, 0);
      pointDual(wc, c.upright, c.wheelCenterLocal, wcRate);
      const a = exprDual(c.axle[0]), b = exprDual(c.axle[1]);
      const s = new DualVec3(1);
      dvNormalize(s, dvSub(s, b, a));
      // down in the wheel plane: (s_z s_x, s_z s_y, s_z² − 1), normalised (as SweepLoads.contactCentre)
      const d = new DualVec3(1);
      d.v[0] = s.v[2] * s.v[0]; d.d[0] = s.d[2] * s.v[0] + s.v[2] * s.d[0];
      d.v[1] = s.v[2] * s.v[1]; d.d[1] = s.d[2] * s.v[1] + s.v[2] * s.d[1];
      d.v[2] = s.v[2] * s.v[2] - 1; d.d[2] = 2 * s.v[2] * s.d[2];
      dvNormalize(d, d);
      const at = dvAdd(new DualVec3(1), wc, dvScaleConst(d, d, c.tireRadius));
      const vid = c.upright;
      const c0 = this.layoutOf(vid);
      if (c0 < 0) continue;
      const off = sys.variables[vid].offset;
      rotationMatrix(R, sys.state, off + 3);
      const w = poseRate(vid);
      const o = [sys.state[off], sys.state[off + 1], sys.state[off + 2]];
      const od = [0, 1, 2].map((i) => R[3 * i] * w[3] + R[3 * i + 1] * w[4] + R[3 * i + 2] * w[5]);
      const F = load.force, M = load.moment;
      const r = [at.v[0] - o[0], at.v[1] - o[1], at.v[2] - o[2]];
      const rd = [at.d[0] - od[0], at.d[1] - od[1], at.d[2] - od[2]];
      const y = [M[0] + r[1] * F[2] - r[2] * F[1], M[1] + r[2] * F[0] - r[0] * F[2], M[2] + r[0] * F[1] - r[1] * F[0]];
      const yd = [rd[1] * F[2] - rd[2] * F[1], rd[2] * F[0] - rd[0] * F[2], rd[0] * F[1] - rd[1] * F[0]];
      const Rt = (x: ArrayLike<number>) => [0, 1, 2].map((i) => R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2]);
      const qm = Rt(y), qf = Rt(F), qmd = Rt(yd);
      const cross = (u: ArrayLike<number>, x: readonly number[]) => [u[1] * x[2] - u[2] * x[1], u[2] * x[0] - u[0] * x[2], u[0] * x[1] - u[1] * x[0]];
      const wm = cross(w, qm), wf = cross(w, qf);
      for (let i = 0; i < 3; i++) {
        out[c0 + i] += qmd[i] - wm[i];
        out[c0 + 3 + i] += -wf[i];
      }
    }
  }

  /**
   * acc += Q̇ of the springs and dampers along (q̇, e_k): each element's own dual code in
   * tangent mode (its ends moving with the state and, as hardpoints, with e_k), plus, for a
   * free length regenerated from the ends, −(dT/dl)·(d free/ds) times its unit-tension force.
   */
  private elementRate(acc: Float64Array, qd: Float64Array, k: number): void {
    const forces = this.loads.dyn.forces, sys = this.model.sm.model.system;
    for (const c of this.coordinateSprings) coordinateSpringRate(acc, c.index, c.block, forces, sys, qd);
    for (const bar of this.bars) barBushingRate(acc, bar, forces, sys, qd, k);
    if (!this.elements.length) return;
    const localV = new Float64Array(12), localQ = new Float64Array(12), localK = new Float64Array(144);
    const unitMove = (j: number) => {
      if (j < 0 || k < 3 * j || k >= 3 * j + 3) return null;
      const t = new Float64Array(6); t[3 + k - 3 * j] = 1; return t;
    };
    for (const e of this.elements) {
      const slots = forces.slotsOf(e.index), blk = e.block;
      const seeds: TangentSeeds = {
        pose: (col) => (col < 12 && slots[col] >= 0 ? qd.subarray(slots[col], slots[col] + 6) : null),
        local: (col, p, isPoint) => (!isPoint ? null : col === 0 && p === blk.a ? unitMove(e.ja) : col === 6 && p === blk.b ? unitMove(e.jb) : null),
        scalar: () => 0,
      };
      // the full pass (K asked for): a values-only pass would seed no columns, so no tangents (at rest: zero velocity)
      const duals = withTangents(seeds, () => { blk.evaluate(sys.state, forces.offsetsOf(e.index), localV, 0, localQ, localK, null); return blk.duals(); });
      for (let i = 0; i < slots.length; i++) if (slots[i] >= 0) acc[slots[i]] += duals[i].t ? duals[i].t!.v : 0;
      if (e.slope === 0) continue;
      const dFree = freeLengthRate(blk, e.ja, e.jb, k);
      if (dFree === 0) continue;
      const dT = -e.slope * dFree;
      // unit tension: +u on a at x_a, −u on b at x_b (u from a to b), in body components
      const R = new Float64Array(9);
      const vars = blk.vars;
      const xa = P.applyPoint(new Float64Array(3), sys.getPose(vars[0]), blk.a), xb = P.applyPoint(new Float64Array(3), sys.getPose(vars[1]), blk.b);
      const d = [xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]], l = Math.hypot(d[0], d[1], d[2]);
      [[xa, 1], [xb, -1]].forEach(([x, sign], body) => {
        const s0 = slots[6 * body];
        if (s0 < 0) return;
        const off = sys.variables[vars[body]].offset;
        rotationMatrix(R, sys.state, off + 3);
        const X = x as Float64Array, sg = sign as number;
        const F = d.map((c) => (sg * c) / l);
        const r = [X[0] - sys.state[off], X[1] - sys.state[off + 1], X[2] - sys.state[off + 2]];
        const m = [r[1] * F[2] - r[2] * F[1], r[2] * F[0] - r[0] * F[2], r[0] * F[1] - r[1] * F[0]];
        for (let i = 0; i < 3; i++) {
          acc[s0 + i] += dT * (R[i] * m[0] + R[3 + i] * m[1] + R[6 + i] * m[2]);
          acc[s0 + 3 + i] += dT * (R[i] * F[0] + R[3 + i] * F[1] + R[6 + i] * F[2]);
        }
      });
    }
  }

  private layoutOf(vid: number): number {
    const sys = this.model.sm.model.system;
    let c = 0;
    for (const v of sys.variables) {
      if (v.id === vid) return v.fixed ? -1 : c;
      if (!v.fixed) c += v.dim;
    }
    return -1;
  }
}

