/**
 * Exact gradients of the vehicle's figures at rest (docs/vehicle.md "Gradients") with
 * respect to its numbers (parameters.ts), by the implicit function theorem on the whole
 * vehicle's static balance — never by differences. At the solved state the generalized
 * force balances the constraints, G = Q(q, θ) − Φ_q(q, θ)ᵀλ = 0, Φ(q, θ) = 0 (λ from
 * Φ_qᵀλ = Q; the holds kept). Along a number θ:
 *   Φ_q q' = −Φ_θ                       (a particular q_θ: the least move, in the start solve's metric)
 *   q' = N α + q_θ,  K_r α = Nᵀ[(K − H) q_θ − R_θ]
 * with N the admissible motions, K_r = −Nᵀ(K − H)N the exact reduced stiffness (tangent.ts:
 * H the constraints' curvature at λ), and R_θ = (∂Φ_qᵀ/∂θ)λ − ∂Q/∂θ, Φ_θ the number's own
 * rows from the simulation gradients' parameter terms (src/gradients/parameters: a
 * hardpoint's by tangent-mode AD of the mates and elements that read it; a rate's, a mass's
 * and a coefficient's in closed form), each a vehicle parameter's weighted pieces. The
 * metrics' rates along q' are written out (metric-rates.ts). One reduced stiffness, one
 * minimum-norm factorisation, then a solve per number.
 */
import { constraintMultipliers } from '../../../kernel/multipliers';
import type { Dual } from '../../../kernel/dual';
import { LinearLaw, PointToPointForce } from '../../../mates/forces';
import { HardpointTerms, type HardpointParameter } from '../../gradients/parameters/hardpoints';
import { parameterTerm } from '../../gradients/parameters/terms';
import { MinimumNormStart, startSolveMetric } from '../../gradients/free-start';
import { lumpTerm } from '../gradients/simulation/lumps';
import type { VehicleModel } from './assembly';
import { solveVehicle, type FailedState } from './analysis';
import { poseRates, staticMetricRates, staticMetricValues, STATIC_METRICS } from './metric-rates';
import { vehicleParameter, type VehicleParameter } from './parameters';
import { addAdmissibleMove, exactReduced } from './tangent';
import { contactSeeds, contactTerm, explicitMetricRates, levelRates, levelShifted, levelTerm } from './axle-points';
import { VehicleInputError } from './errors';

export interface VehicleMetricGradient {
  value: number;
  /** d(metric)/d(number) per number, in the metric's unit per the number's file unit. */
  gradient: Record<string, number>;
}

export type VehicleSensitivity = { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | FailedState;

/** Rows of the constraint blocks in the multipliers' order, with each block's tangent columns. */
interface RowBlock { index: number; row0: number; rows: number; cols: Int32Array; duals: (() => readonly Dual[]) | null }

/**
 * The metrics (default: all of STATIC_METRICS) at rest and their gradients with respect to
 * the named numbers. Solves the state at rest from the model's current pose first.
 */
export function vehicleStaticSensitivity(m: VehicleModel, names: readonly string[], metrics: readonly string[] = STATIC_METRICS, progress?: (done: number, total: number) => void): VehicleSensitivity {
  for (const name of metrics) if (!STATIC_METRICS.includes(name)) throw new VehicleInputError('--metric', `no vehicle metric "${name}" (metrics: ${STATIC_METRICS.join(', ')})`);
  const params = names.map((n, i) => { const p = vehicleParameter(m.spec, m.doc, n); progress?.(i + 1, 2 * names.length); return p; });
  const s = solveVehicle(m, { ax: 0, ay: 0 });
  if (s.status !== 'solved') return s;
  const values = staticMetricValues(s);
  const rates = stateRates(m, params, (j) => progress?.(names.length + j + 1, 2 * names.length));
  const out: Record<string, VehicleMetricGradient> = {};
  for (const name of metrics) out[name] = { value: values[name], gradient: Object.fromEntries(params.map((p, j) => [p.name, rates[j][name]])) };
  return { status: 'solved', metrics: out };
}

/** Per parameter, every metric's rate at the solved state (the model left at it). */
export function stateRates(m: VehicleModel, params: readonly VehicleParameter[], done?: (j: number) => void,
  keep?: (j: number, qd: Float64Array, rp: Float64Array) => void): Record<string, number>[] {
  const { dyn } = m, sys = dyn.system;
  const n = dyn.forces.size;
  const Q = new Float64Array(n), zero = new Float64Array(n);
  dyn.forces.assemble(zero, 0, Q, null, null);
  const mult = constraintMultipliers(sys, Q);
  const red = exactReduced(m);
  const { layout } = red;
  const rows = rowBlocks(m, layout, mult.rowBlock);
  const nRows = mult.lambda.length;
  const { minimum, holds } = rowSolver(m, layout, mult);
  // every hardpoint piece of every parameter, once
  const hpParams: HardpointParameter[] = [];
  const hpIndex = new Map<string, number>();
  for (const p of params) for (const { parameter: q } of p.parts) {
    if (q.kind !== 'hardpoint') continue;
    const key = JSON.stringify(q);
    if (!hpIndex.has(key)) { hpIndex.set(key, hpParams.length); hpParams.push(q); }
  }
  const hp = hpParams.length ? new HardpointTerms(dyn, hpParams, rows) : null;
  const ownerRow = new Map<string, number>();
  for (const rb of rows) { const o = sys.block(rb.index).owner; if (!ownerRow.has(o)) ownerRow.set(o, rb.row0); }
  const rp = new Float64Array(n), con = new Float64Array(nRows + holds), one = new Float64Array(n), oneCon = new Float64Array(nRows);
  return params.map((p, jp) => {
    rp.fill(0); con.fill(0);
    for (const { parameter: q, weight } of p.parts) {
      one.fill(0); oneCon.fill(0);
      if (q.kind === 'hardpoint') hp!.evaluate(hpIndex.get(JSON.stringify(q))!, mult.lambda, zero, 0, one, oneCon, null, null);
      else parameterTerm(dyn, layout, q)(one, zero, zero, 0);
      for (let i = 0; i < n; i++) rp[i] += weight * one[i];
      for (let r = 0; r < nRows; r++) con[r] += weight * oneCon[r];
    }
    for (const row of p.rows) {
      const r = ownerRow.get(row.owner);
      if (r === undefined) throw new VehicleInputError(`parameter "${p.name}"`, `no constraint rows "${row.owner}" in the vehicle`);
      con[r] += row.value;
    }
    if (p.freeLengths.length) freeLengthTerm(m, p.freeLengths)(rp);
    if (p.lumps.length) lumpTerm(dyn, layout, p.lumps)(rp, zero, zero, 0);
    // an axle point: the contact patches' own points and the level (the road, the datum) move
    const level = p.wheels?.length ? levelRates(m, p.wheels) : null;
    if (level) {
      const dq = new Float64Array(n);
      contactTerm(m, contactSeeds(m, p.wheels!), dq);
      levelTerm(m, levelShifted(m, level), dq, null, null);
      for (let i = 0; i < n; i++) rp[i] -= dq[i];
    }
    // q_θ: Φ_q q_θ = −Φ_θ, the holds kept
    const qt = new Float64Array(n);
    for (let r = 0; r < con.length; r++) qt[r] = -con[r];
    minimum.solve(qt);
    const delta = addAdmissibleMove(red, qt, rp);
    done?.(jp);
    keep?.(jp, delta, rp.slice());
    const pose = poseRates(m, delta, layout), rates = staticMetricRates(m, pose, p.cg);
    if (level) for (const [k, v] of Object.entries(explicitMetricRates(m, pose, p.wheels!, level))) rates[k] += v;
    return rates;
  });
}

/**
 * The least move x with Φ_q x = b (b on the hard rows in the multipliers' order, then one
 * per hold: `solve` reads b from x and writes x), the holds' rows kept with the others.
 */
export function rowSolver(m: VehicleModel, layout: Int32Array, mult: { rowBlock: Int32Array; driverBlocks: number[] }): { minimum: { solve(x: Float64Array): void }; holds: number } {
  const n = m.dyn.forces.size, nRows = mult.rowBlock.length;
  // the holds' rows (one-row drivers): a number moves none, q_θ keeps them
  const holds = mult.driverBlocks.map((b) => blockJacobian(m, b, layout));
  const S = new Float64Array((nRows + holds.length) * n);
  for (const rb of rowBlocks(m, layout, mult.rowBlock)) S.set(blockJacobian(m, rb.index, layout), rb.row0 * n);
  holds.forEach((h, i) => S.set(h, (nRows + i) * n));
  return { minimum: minimumNormRows(S, nRows + holds.length, n, startSolveMetric(m.dyn.system, layout, n)), holds: holds.length };
}

/** The constraint blocks of the assembled rows (rowBlock: each row's block), each with its first row and tangent columns. */
export function rowBlocks(m: VehicleModel, layout: Int32Array, rowBlock: Int32Array): RowBlock[] {
  const sys = m.dyn.system, out: RowBlock[] = [];
  for (let r = 0; r < rowBlock.length; r++) {
    if (r > 0 && rowBlock[r] === rowBlock[r - 1]) continue;
    const blk = sys.block(rowBlock[r]);
    const cols: number[] = [];
    for (const vid of blk.vars) { const v = sys.variables[vid]; for (let j = 0; j < v.dim; j++) cols.push(layout[vid] < 0 ? -1 : layout[vid] + j); }
    out.push({ index: rowBlock[r], row0: r, rows: blk.rows, cols: Int32Array.from(cols), duals: blk.duals ? () => blk.duals!() : null });
  }
  return out;
}

/** A block's Jacobian rows in the tangent layout (rows × n). */
function blockJacobian(m: VehicleModel, b: number, layout: Int32Array): Float64Array {
  const sys = m.dyn.system, blk = sys.block(b), n = m.dyn.forces.size;
  const ld = sys.blockLocalDim(b), res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
  sys.evaluateBlock(b, res, jac);
  const out = new Float64Array(blk.rows * n);
  let lc = 0;
  for (const vid of blk.vars) {
    const v = sys.variables[vid], c0 = layout[vid];
    if (c0 >= 0) for (let r = 0; r < blk.rows; r++) for (let j = 0; j < v.dim; j++) out[r * n + c0 + j] += jac[r * ld + lc + j];
    lc += v.dim;
  }
  return out;
}

/**
 * The least move x (in metric D) with S x = b for the independent rows of S; a row that is a
 * combination of earlier ones (a redundant mate) is left out — its Φ_θ follows from theirs
 * when the number moves a consistent assembly.
 */
function minimumNormRows(S: Float64Array, rows: number, n: number, D: Float64Array): { solve(x: Float64Array): void } {
  // Gram–Schmidt in the metric D⁻¹ picks the independent rows
  const keep: number[] = [], basis: Float64Array[] = [];
  for (let r = 0; r < rows; r++) {
    const v = Float64Array.from(S.subarray(r * n, (r + 1) * n));
    let norm0 = 0;
    for (let c = 0; c < n; c++) norm0 += (v[c] * v[c]) / D[c];
    if (norm0 === 0) continue;
    for (const u of basis) { let d = 0; for (let c = 0; c < n; c++) d += (v[c] * u[c]) / D[c]; for (let c = 0; c < n; c++) v[c] -= d * u[c]; }
    let norm = 0;
    for (let c = 0; c < n; c++) norm += (v[c] * v[c]) / D[c];
    if (norm <= 1e-20 * norm0) continue;
    const s = 1 / Math.sqrt(norm);
    for (let c = 0; c < n; c++) v[c] *= s;
    basis.push(v); keep.push(r);
  }
  const kept = new Float64Array(keep.length * n);
  keep.forEach((r, i) => kept.set(S.subarray(r * n, (r + 1) * n), i * n));
  const ms = new MinimumNormStart(kept, keep.length, n, D);
  return {
    solve(x: Float64Array) {
      const b = keep.map((r) => x[r]);
      x.fill(0);
      b.forEach((v, i) => { x[i] = v; });
      ms.solve(x);
    },
  };
}

/** −∂Q/∂θ of springs' free lengths (the law k(x − x₀) + y₀: ∂/∂x₀ is the constant −k). */
function freeLengthTerm(m: VehicleModel, free: readonly { element: string; w: number }[]): (out: Float64Array) => void {
  const { dyn } = m, { system, forces } = dyn;
  return (out) => {
    for (const { element, w } of free) {
      const el = dyn.elements.find((e) => e.id === element);
      const blk = el?.block;
      if (!el || !(blk instanceof PointToPointForce) || !(blk.spring instanceof LinearLaw)) throw new VehicleInputError(`element "${element}"`, 'a free length moves, but the element has no linear spring');
      const unit = freeLengthUnit(blk);
      const slots = forces.slotsOf(el.index), lq = new Float64Array(slots.length);
      unit.evaluate(system.state, forces.offsetsOf(el.index), new Float64Array(slots.length), 0, lq, null, null);
      for (let k = 0; k < slots.length; k++) if (slots[k] >= 0) out[slots[k]] -= w * lq[k];
    }
  };
}

/** A spring's ∂/∂x₀ as an element of its own (the law k(x − x₀) + y₀: the constant force −k between the same ends). */
export function freeLengthUnit(blk: PointToPointForce): PointToPointForce {
  return new PointToPointForce(`${blk.owner}'`, blk.vars[0], blk.a, blk.vars[1], blk.b, new LinearLaw(0, 0, -(blk.spring as LinearLaw).slope), null);
}
