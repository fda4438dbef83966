/**
 * Exact gradients of simulation results with respect to model parameters: the forward
 * (tangent-linear) sensitivity of the discrete generalized-α / backward-Euler step of
 * kernel/integrator.ts, not of the continuous equations, and never by differences.
 *
 * Each accepted step solves R(D, λ; x_n, p) = 0 for the Newton correction D of the step
 * (v̇, v, a and the Lie step y = hΔq are affine in D) and the multipliers:
 *   M v̇ + g(v) − Q(q, v, t) + Φ_qᵀλ = 0,   Φ(q, t) = 0,   q = q_n ∘ exp(y).
 * Differentiating the converged step (q perturbed on the right, q ∘ exp(δ)):
 *   δ_{n+1} = Ad(exp(−y)) δ_n + J_r(y) dy,
 *   [β'M + γ'(∂g/∂v − C) + (H − K) J_r,  Φ_qᵀ] [dD]     [−(M v̇' + (∂g/∂v − C) v̂' + (H − K) δ̂ + R_p)]
 *   [Φ_q J_r,                              0 ] [dλ]  =  [−Φ_q δ̂                                  ]
 * with H = ∂(Φ_qᵀλ)/∂q by tangent-mode AD of the constraint blocks (kernel/dual.ts
 * withTangents), K, C from the force blocks' AD, J_r the SE(3) right Jacobian (kernel/pose.ts)
 * and R_p = ∂R/∂p in closed form (a linear law's coefficient, a body's mass, inertia, centre).
 * This matrix is the exact Jacobian of the step; the integrator's own iteration matrix drops
 * H and takes J_r = 1 (a quasi-Newton matrix), so it is factored anew here, once per step.
 *
 * The start is differentiated too: [M Φ_qᵀ; Φ_q 0][v̇₀'; λ₀'] = [−R_p; 0] (positions and the
 * start velocities do not depend on these parameters).
 *
 * The discrete adjoint (`simulationGradientAdjoint`) runs the same recursion backward: each
 * step's end is stored, its matrix rebuilt and refactored in the sweep, and one transposed
 * solve per step serves every parameter (docs/sensitivity.md).
 */
import { LU } from '../../kernel/linalg';
import { gyroscopic } from '../../kernel/mass';
import { exp as poseExp, rightJacobian } from '../../kernel/pose';
import { rotationMatrix, withTangents, type Dual, type TangentSeeds } from '../../kernel/dual';
import { CoordinateSpringForce, LinearLaw, PointToPointForce } from '../../mates/forces';
import { CoordinateFrictionForce } from '../../mates/resistance';
import type { AssemblyDoc } from '../assembly/types';
import type { Model } from '../model/build';
import { buildDynamics, type DynamicsModel } from './build';
import { prepareSimulation } from './simulate';
import type { IntegratorMethod } from '../../kernel/integrator';
import { CoordinateMotion } from '../../kernel/motion';

/** A parameter, in the file's units (N/mm, N·s/mm, kg, kg·mm², mm). */
export type DynamicParameter =
  | { kind: 'stiffness' | 'damping'; element: string }
  /** A coordinate friction's force (N, or N·mm on an angle): an axle's bearing. */
  | { kind: 'friction'; element: string }
  | { kind: 'mass'; part: string }
  | { kind: 'inertia'; part: string; axis: 0 | 1 | 2 }
  | { kind: 'centre'; part: string; axis: 0 | 1 | 2 };

/** A result: a world coordinate of a part's point (its origin unless `point` names one; mm) or its world velocity (mm/s), at the final time or its extreme over the run. */
export interface DynamicResult {
  part: string;
  point?: string;
  quantity: 'position' | 'velocity';
  axis: 0 | 1 | 2;
  /** `crossing`: the value is the first time the coordinate passes `level` (linear between steps). */
  at: 'final' | 'max' | 'min' | 'crossing';
  level?: number;
}

export interface DynamicGradient {
  /** The result's value. */
  value: number;
  /** Its time (s). */
  t: number;
  /** d(value)/d(parameter) per parameter, in the result's unit per the parameter's file unit. */
  gradient: number[];
  steps: number;
}

export interface GradientOptions {
  duration: number;
  step: number;
  method?: IntegratorMethod;
  rhoInf?: number;
}

export class DynamicSensitivityError extends Error {}

/** Parameter names as the CLI writes them: `spring.stiffness`, `body.mass`, `body.inertia.z`, `body.centre.x`. */
export function parseParameter(name: string): DynamicParameter {
  const m = /^(.+)\.(stiffness|damping|friction|mass|inertia\.[xyz]|centre\.[xyz])$/.exec(name);
  if (!m) throw new DynamicSensitivityError(`parameter "${name}": expected ELEMENT.stiffness, ELEMENT.damping, ELEMENT.friction, PART.mass, PART.inertia.x|y|z or PART.centre.x|y|z`);
  const [, owner, what] = m;
  if (what === 'stiffness' || what === 'damping' || what === 'friction') return { kind: what, element: owner };
  if (what === 'mass') return { kind: 'mass', part: owner };
  const axis = 'xyz'.indexOf(what.slice(-1)) as 0 | 1 | 2;
  return { kind: what.startsWith('inertia') ? 'inertia' : 'centre', part: owner, axis };
}

/**
 * Result names: `PART[.POINT].position.z`, `PART[.POINT].velocity.x`, with an optional `@max`,
 * `@min` (default: the final value) or `@cross=LEVEL` (the time the coordinate first passes LEVEL).
 */
export function parseResult(name: string): DynamicResult {
  const m = /^([^.]+)(?:\.([^.@]+))?\.(position|velocity)\.([xyz])(?:@(final|max|min|cross=([-+0-9.eE]+)))?$/.exec(name);
  if (!m || (m[6] !== undefined && !Number.isFinite(Number(m[6])))) {
    throw new DynamicSensitivityError(`result "${name}": expected PART[.POINT].position.x|y|z or PART[.POINT].velocity.x|y|z, optionally @max, @min or @cross=LEVEL`);
  }
  const at = (m[6] !== undefined ? 'crossing' : m[5] ?? 'final') as DynamicResult['at'];
  return { part: m[1], ...(m[2] ? { point: m[2] } : {}), quantity: m[3] as 'position' | 'velocity', axis: 'xyz'.indexOf(m[4]) as 0 | 1 | 2, at, ...(m[6] !== undefined ? { level: Number(m[6]) } : {}) };
}

/** ∂R/∂p at the current state: adds into `out` (tangent size) M'v̇ + g'(v) − Q' for one parameter. */
type ParameterTerm = (out: Float64Array, v: Float64Array, vdot: Float64Array, t: number) => void;

function parameterTerm(dyn: DynamicsModel, layout: Int32Array, param: DynamicParameter): ParameterTerm {
  const { system, forces } = dyn;
  if (param.kind === 'friction') {
    const p = param;
    const el = dyn.elements.find((e) => e.id === p.element);
    if (!el || !(el.block instanceof CoordinateFrictionForce)) throw new DynamicSensitivityError(`parameter: no coordinate friction "${p.element}"`);
    // Q = −F tanh(u̇/ε) is linear in F: its derivative is the law with F = 1
    const unit = new CoordinateFrictionForce(`${el.id}'`, el.block.vars[0], 1, el.block.regularization);
    const slot = forces.slotsOf(el.index)[0], lv = new Float64Array(1), lq = new Float64Array(1);
    return (out, v, _vdot, t) => {
      if (slot < 0) return;
      lv[0] = v[slot];
      unit.evaluate(system.state, forces.offsetsOf(el.index), lv, t, lq, null, null);
      out[slot] -= lq[0];
    };
  }
  if (param.kind === 'stiffness' || param.kind === 'damping') {
    const p = param;
    const el = dyn.elements.find((e) => e.id === p.element);
    if (!el) throw new DynamicSensitivityError(`parameter: no force element "${p.element}"`);
    const blk = el.block;
    let unit: PointToPointForce | CoordinateSpringForce;
    if (blk instanceof PointToPointForce) {
      const law = p.kind === 'stiffness' ? blk.spring : blk.damper;
      if (!(law instanceof LinearLaw)) throw new DynamicSensitivityError(`parameter: element "${p.element}" has no linear ${p.kind} (curves are not parameters)`);
      // Q is affine in the slope: its derivative is the force of the same law with slope 1 and no preload
      unit = p.kind === 'stiffness'
        ? new PointToPointForce(`${blk.owner}'`, blk.vars[0], blk.a, blk.vars[1], blk.b, new LinearLaw(1, law.x0, 0), null)
        : new PointToPointForce(`${blk.owner}'`, blk.vars[0], blk.a, blk.vars[1], blk.b, null, new LinearLaw(1, law.x0, 0));
    } else if (blk instanceof CoordinateSpringForce) {
      const doc = dyn.model.doc.forces![p.element] as { coordinate: string };
      const k = dyn.model.coordinates.get(doc.coordinate)!.kind === 'angle' ? dyn.model.angleFactor : 1;
      // the file's rate per angle unit is 1/k of the internal one per radian
      unit = p.kind === 'stiffness' ? new CoordinateSpringForce(`${blk.owner}'`, blk.vars[0], 1 / k, blk.free, 0) : new CoordinateSpringForce(`${blk.owner}'`, blk.vars[0], 0, blk.free, 1 / k);
    } else throw new DynamicSensitivityError(`parameter: element "${p.element}" is a ${el.type}; only linear springs, dampers and coordinate springs have rate parameters`);
    const slots = forces.slotsOf(el.index), offsets = forces.offsetsOf(el.index);
    const lv = new Float64Array(slots.length), lq = new Float64Array(slots.length);
    return (out, v, _vdot, t) => {
      for (let k = 0; k < slots.length; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]];
      unit.evaluate(system.state, offsets, lv, t, lq, null, null);
      for (let k = 0; k < slots.length; k++) if (slots[k] >= 0) out[slots[k]] -= lq[k];
    };
  }
  const p = param as Exclude<DynamicParameter, { element: string }>;
  const body = dyn.bodies.find((b) => b.part === p.part);
  if (!body) throw new DynamicSensitivityError(`parameter: part "${p.part}" has no mass`);
  const c0 = layout[body.variable];
  const m = body.body.mass, c = body.body.centre;
  // ∂M/∂p (6×6, internal units per file unit: kg → t is 1/1000)
  const dM = new Float64Array(36);
  // gravity's ∂Q/∂p in body axes: f = Rᵀ m g at the centre c, Q = (c × f, f)
  let gravityTerm: ((fUnit: Float64Array) => Float64Array) | null = null;
  if (p.kind === 'mass') {
    const cx = c[0], cy = c[1], cz = c[2], cc = cx * cx + cy * cy + cz * cz, C = [0, -cz, cy, cz, 0, -cx, -cy, cx, 0];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      dM[i * 6 + j] = ((i === j ? cc : 0) - c[i] * c[j]) / 1000;
      dM[i * 6 + 3 + j] = C[i * 3 + j] / 1000;
      dM[(3 + i) * 6 + j] = -C[i * 3 + j] / 1000;
    }
    dM[21] = dM[28] = dM[35] = 1 / 1000;
    const q = new Float64Array(6);
    gravityTerm = (g) => { // g = Rᵀ g per unit mass; weight per kg is g/1000
      q[0] = (c[1] * g[2] - c[2] * g[1]) / 1000; q[1] = (c[2] * g[0] - c[0] * g[2]) / 1000; q[2] = (c[0] * g[1] - c[1] * g[0]) / 1000;
      q[3] = g[0] / 1000; q[4] = g[1] / 1000; q[5] = g[2] / 1000;
      return q;
    };
  } else if (p.kind === 'inertia') {
    dM[p.axis * 7] = 1 / 1000;
  } else {
    // ∂/∂c_k of m(|c|²1 − ccᵀ) and of ±m[c]ₓ
    const k = p.axis, e = [0, 0, 0];
    e[k] = 1;
    const E = [0, -e[2], e[1], e[2], 0, -e[0], -e[1], e[0], 0];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      dM[i * 6 + j] = m * ((i === j ? 2 * c[k] : 0) - e[i] * c[j] - c[i] * e[j]);
      dM[i * 6 + 3 + j] = m * E[i * 3 + j];
      dM[(3 + i) * 6 + j] = -m * E[i * 3 + j];
    }
    const q = new Float64Array(6);
    gravityTerm = (g) => { // e_k × m Rᵀg
      q.fill(0);
      q[0] = m * (e[1] * g[2] - e[2] * g[1]); q[1] = m * (e[2] * g[0] - e[0] * g[2]); q[2] = m * (e[0] * g[1] - e[1] * g[0]);
      return q;
    };
  }
  if (c0 < 0) return () => {};
  const R = new Float64Array(9), gb = new Float64Array(6), gl = new Float64Array(3), G = dyn.gravity;
  const offset = system.variables[body.variable].offset;
  return (out, v, vdot) => {
    for (let i = 0; i < 6; i++) {
      let s = 0;
      for (let j = 0; j < 6; j++) s += dM[i * 6 + j] * vdot[c0 + j];
      out[c0 + i] += s;
    }
    gyroscopic(gb, dM, v, c0, null);
    for (let i = 0; i < 6; i++) out[c0 + i] += gb[i];
    if (gravityTerm) {
      rotationMatrix(R, system.state, offset + 3);
      for (let i = 0; i < 3; i++) gl[i] = R[i] * G[0] + R[3 + i] * G[1] + R[6 + i] * G[2];
      const q = gravityTerm(gl);
      for (let i = 0; i < 6; i++) out[c0 + i] -= q[i];
    }
  };
}

/**
 * d(result)/d(parameters) of a run of the assembly from its file state, exact for the
 * discrete integrator (see the file's head), by the forward (direct) sensitivity: one
 * column per parameter carried through every step. Throws DynamicSensitivityError on an
 * unknown name, on redundant constraint rows, and on a model whose constraint blocks have
 * no second derivatives.
 */
export function simulationGradient(source: AssemblyDoc | Model, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions): DynamicGradient {
  return gradientRun(source, parameters, result, options, 'direct');
}

/**
 * The same gradient by the discrete adjoint: the run stores each step's end state, then one
 * backward sweep re-linearises every step (the same exact step matrix, refactored) and solves
 * its transpose once, whatever the number of parameters (the direct route solves once per
 * parameter and step). Equal to `simulationGradient` up to round-off.
 */
export function simulationGradientAdjoint(source: AssemblyDoc | Model, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions): DynamicGradient {
  return gradientRun(source, parameters, result, options, 'adjoint');
}

/** A step's end as the adjoint sweep needs it: size, time, positions, v, v̇, λ and the Lie step y. */
interface StoredStep { h: number; t: number; state: Float64Array; v: Float64Array; vdot: Float64Array; lambda: Float64Array; y: Float64Array }

function gradientRun(source: AssemblyDoc | Model, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions, mode: 'direct' | 'adjoint'): DynamicGradient {
  const { duration, step } = options;
  if (!(duration > 0) || !(step > 0)) throw new RangeError('duration and step: expected positive numbers of seconds');
  const dyn = buildDynamics(source);
  const sim = prepareSimulation(dyn, { method: options.method ?? 'generalized-alpha', rhoInf: options.rhoInf });
  const it = sim.integrator, { system, forces } = dyn;
  const n = it.size, P = parameters.length;
  const active = it.activeRows();
  if (active.length < it.rows) throw new DynamicSensitivityError('gradients: the model has redundant constraint rows (not supported yet)');
  const m = it.rows, N = n + m;
  const terms = parameters.map((p) => parameterTerm(dyn, it.layout, p));
  const resultVar = dyn.model.parts.get(result.part);
  if (resultVar === undefined) throw new DynamicSensitivityError(`result: no part "${result.part}"`);
  const rv = system.variables[resultVar];
  const rc0 = it.layout[resultVar];
  let local = [0, 0, 0];
  if (result.point) {
    const pt = dyn.model.doc.parts[result.part].points?.[result.point];
    if (!pt) throw new DynamicSensitivityError(`result: part "${result.part}" has no point "${result.point}"`);
    local = [pt[0], pt[1], pt[2]];
  }

  // the rows: every enabled constraint and driver block, in the integrator's order
  interface RowBlock { index: number; row0: number; rows: number; cols: Int32Array; duals: (() => readonly Dual[]) | null }
  const rowBlocks: RowBlock[] = [];
  let row = 0;
  for (let b = 0; b < system.blockCount; b++) {
    const blk = system.block(b);
    if (!system.blockEnabled(b) || blk.kind === 'limit') continue;
    const cols: number[] = [];
    for (const vid of blk.vars) {
      const vr = system.variables[vid];
      for (let k = 0; k < vr.dim; k++) cols.push(it.layout[vid] < 0 ? -1 : it.layout[vid] + k);
    }
    const d = (blk as unknown as { duals?: () => readonly Dual[] }).duals;
    // a coordinate motion's row is linear (no curvature); any other row needs its second derivatives
    // (a rolling contact's along its track: mates/rolling.ts curveAlongS)
    if (!d && !(blk instanceof CoordinateMotion)) throw new DynamicSensitivityError(`gradients: constraint ${blk.owner} has no second derivatives (not supported yet)`);
    rowBlocks.push({ index: b, row0: row, rows: blk.rows, cols: Int32Array.from(cols), duals: d ? d.bind(blk) : null });
    row += blk.rows;
  }
  if (row !== m) throw new Error('gradients: rows disagree with the integrator');

  // scratch
  const J = new Float64Array(m * n), H = new Float64Array(n * n), K = new Float64Array(n * n), C = new Float64Array(n * n);
  const Q = new Float64Array(n), Gv = new Float64Array(n * n), g6 = new Float64Array(6), G36 = new Float64Array(36);
  const Jr = new Float64Array(n * n), Ad = new Float64Array(n * n), A = new Float64Array(N * N), rhs = new Float64Array(N);
  const lu = new LU(N);
  const res = new Float64Array(64), jac = new Float64Array(4096), rp = new Float64Array(n), pose = new Float64Array(7);
  const dir = new Float64Array(n);

  /** J (all rows) at the current state; with λ, also H = ∂(Jᵀλ)/∂q column by column (tangent mode). */
  const rowsAndCurvature = (lambda: Float64Array | null) => {
    J.fill(0);
    for (const rb of rowBlocks) {
      const ld = rb.cols.length;
      system.evaluateBlock(rb.index, res, jac);
      for (let r = 0; r < rb.rows; r++) for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) J[(rb.row0 + r) * n + rb.cols[k]] += jac[r * ld + k];
    }
    if (!lambda) return;
    H.fill(0);
    for (const rb of rowBlocks) {
      if (!rb.duals) continue; // a driver's rows are linear in its coordinate
      let any = false;
      for (let r = 0; r < rb.rows; r++) if (lambda[rb.row0 + r] !== 0) any = true;
      if (!any) continue;
      const ld = rb.cols.length;
      for (let kc = 0; kc < ld; kc++) {
        const c = rb.cols[kc];
        if (c < 0) continue;
        dir.fill(0); dir[c] = 1;
        const seeds: TangentSeeds = {
          pose: (col) => (rb.cols[col] >= 0 ? dir.subarray(rb.cols[col], rb.cols[col] + 6) : null),
          local: () => null,
          scalar: (col) => (rb.cols[col] >= 0 ? dir[rb.cols[col]] : 0),
        };
        const rows = withTangents(seeds, () => { system.evaluateBlock(rb.index, res, jac); return rb.duals!(); });
        for (let r = 0; r < rb.rows; r++) {
          const lam = lambda[rb.row0 + r], tt = rows[r].t;
          if (!tt || lam === 0) continue;
          for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) H[rb.cols[k] * n + c] += lam * tt.d[k];
        }
      }
    }
  };

  const addMass = (S: Float64Array, ld: number, scale: number) => {
    for (const b of it.bodies) {
      const c0 = it.layout[b.variable];
      if (c0 < 0) continue;
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) S[(c0 + i) * ld + c0 + j] += scale * b.M[i * 6 + j];
    }
  };
  const massTimes = (out: Float64Array, x: Float64Array, xOff: number, stride: number) => {
    out.fill(0);
    for (const b of it.bodies) {
      const c0 = it.layout[b.variable];
      if (c0 < 0) continue;
      for (let i = 0; i < 6; i++) { let s = 0; for (let j = 0; j < 6; j++) s += b.M[i * 6 + j] * x[(c0 + j) * stride + xOff]; out[c0 + i] = s; }
    }
  };
  const gyroJacobian = (v: Float64Array) => {
    Gv.fill(0);
    for (const b of it.bodies) {
      const c0 = it.layout[b.variable];
      if (c0 < 0) continue;
      gyroscopic(g6, b.M, v, c0, G36);
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) Gv[(c0 + i) * n + c0 + j] = G36[i * 6 + j];
    }
  };
  /** The start's matrix [M Jᵀ; J 0] at the current state, factored. */
  const factorStart = () => {
    rowsAndCurvature(null);
    A.fill(0);
    addMass(A, N, 1);
    for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) { A[(n + r) * N + c] = J[r * n + c]; A[c * N + n + r] = J[r * n + c]; }
    if (!lu.factor(A, N, 1e-13)) throw new DynamicSensitivityError('gradients: the start system is singular');
  };

  const { alphaM: am, gamma, beta, c1, alphaF: af } = it.coefficients();
  /**
   * The exact step matrix at the step's end (current system state, v, λ, time t), its Lie
   * step y: J_r(y), Ad(exp(−y)), J, H, K, C, ∂g/∂v, and A factored in `lu` (dynamic rows
   * divided by β', like the integrator's).
   */
  const linearise = (h: number, y: Float64Array, v: Float64Array, lambda: Float64Array, t: number) => {
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta);
    // block-diagonal J_r(y) and Ad(exp(−y))
    Jr.fill(0); Ad.fill(0);
    for (const vr of system.variables) {
      const c0 = it.layout[vr.id];
      if (c0 < 0) continue;
      if (vr.kind !== 'pose') { Jr[c0 * n + c0] = 1; Ad[c0 * n + c0] = 1; continue; }
      rightJacobian(G36, y.subarray(c0, c0 + 6));
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) Jr[(c0 + i) * n + c0 + j] = G36[i * 6 + j];
      // exp(y) = (R, t): ω' = Rᵀω, v' = Rᵀ(v + ω × t)
      poseExp(pose, y, c0);
      const R = rotationMatrix(new Float64Array(9), pose, 3), tr = pose;
      const X = [0, -tr[2], tr[1], tr[2], 0, -tr[0], -tr[1], tr[0], 0]; // [t]ₓ: ω × t = −[t]ₓ ω
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        const rt = R[j * 3 + i];
        Ad[(c0 + i) * n + c0 + j] = rt;
        Ad[(c0 + 3 + i) * n + c0 + 3 + j] = rt;
        let s = 0;
        for (let k = 0; k < 3; k++) s -= R[k * 3 + i] * X[k * 3 + j];
        Ad[(c0 + 3 + i) * n + c0 + j] = s;
      }
    }
    // the Jacobians at the new state
    rowsAndCurvature(lambda);
    forces.assemble(v, t, Q, K, C);
    gyroJacobian(v);
    // H − K and ∂g/∂v − C, kept for the right-hand sides
    for (let i = 0; i < n * n; i++) { H[i] -= K[i]; Gv[i] -= C[i]; }
    A.fill(0);
    addMass(A, N, 1);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) { const w = H[i * n + k]; if (w !== 0) s += w * Jr[k * n + j]; }
      A[i * N + j] += (gammaP * Gv[i * n + j] + s) / betaP;
    }
    for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += J[r * n + k] * Jr[k * n + c];
      A[(n + r) * N + c] = s;
      A[c * N + n + r] = J[r * n + c];
    }
    if (!lu.factor(A, N, 1e-15)) throw new DynamicSensitivityError(`gradients: the step matrix at t = ${t} s is singular`);
  };
  const HK = H, GC = Gv; // after linearise: H − K and ∂g/∂v − C

  /** The Lie step y = h v_n + h² c1 a_n + h² β a_{n+1} of the step just taken (the corrections included). */
  const lieStep = (y: Float64Array, h: number) => {
    const start = it.stepStart();
    for (let i = 0; i < n; i++) y[i] = h * (start.v[i] + h * c1 * start.a[i] + h * beta * it.a[i]);
  };

  // ---- direct: the columns s = (q', v', v̇', a') carried through each step ----
  const sq = new Float64Array(n * P), sv = new Float64Array(n * P), svd = new Float64Array(n * P), sa = new Float64Array(n * P);
  const y = new Float64Array(n), bq = new Float64Array(n * P), bv = new Float64Array(n * P), aPred = new Float64Array(n * P), tmp = new Float64Array(n);
  const stored: StoredStep[] = [];
  const store = (h: number, yy: Float64Array | null) => {
    stored.push({ h, t: it.t, state: Float64Array.from(system.state), v: Float64Array.from(it.v), vdot: Float64Array.from(it.vdot), lambda: Float64Array.from(it.lambda), y: yy ? Float64Array.from(yy) : new Float64Array(n) });
  };
  if (mode === 'direct') {
    // the start: [M Jᵀ; J 0][v̇'; λ'] = [−R_p; 0]
    factorStart();
    for (let j = 0; j < P; j++) {
      rp.fill(0);
      terms[j](rp, it.v, it.vdot, it.t);
      rhs.fill(0);
      for (let i = 0; i < n; i++) rhs[i] = -rp[i];
      lu.solve(rhs);
      for (let i = 0; i < n; i++) { svd[i * P + j] = rhs[i]; sa[i * P + j] = rhs[i]; }
    }
  } else store(0, null);

  it.onStep = (h) => {
    lieStep(y, h);
    if (mode === 'adjoint') { store(h, y); observe(); return; }
    const v = it.v, vdot = it.vdot;
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta), aP = 1 / (h * h * beta);
    linearise(h, y, v, it.lambda, it.t);
    for (let j = 0; j < P; j++) {
      // the parts of the new state that do not depend on dD
      for (let i = 0; i < n; i++) {
        const k = i * P + j;
        aPred[k] = (svd[k] - am * sa[k]) / (1 - am);
        bv[k] = sv[k] + h * (1 - gamma) * sa[k] + h * gamma * aPred[k];
        tmp[i] = h * (sv[k] + h * c1 * sa[k] + h * beta * aPred[k]);
      }
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += Ad[i * n + k] * sq[k * P + j] + Jr[i * n + k] * tmp[k];
        bq[i * P + j] = s;
      }
      rp.fill(0);
      terms[j](rp, v, vdot, it.t);
      massTimes(tmp, svd, j, P);
      for (let i = 0; i < n; i++) {
        let s = tmp[i] + rp[i];
        for (let k = 0; k < n; k++) s += GC[i * n + k] * bv[k * P + j] + HK[i * n + k] * bq[k * P + j];
        rhs[i] = -s / betaP;
      }
      for (let r = 0; r < m; r++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += J[r * n + k] * bq[k * P + j];
        rhs[n + r] = -s;
      }
      lu.solve(rhs);
      for (let i = 0; i < n; i++) {
        const k = i * P + j, dD = rhs[i];
        let s = 0;
        for (let l = 0; l < n; l++) s += Jr[i * n + l] * rhs[l];
        sq[k] = bq[k] + s;
        sv[k] = bv[k] + gammaP * dD;
        svd[k] = svd[k] + betaP * dD;
        sa[k] = aPred[k] + aP * dD;
      }
    }
    observe();
  };

  // the result and its derivative at the current state
  const Rr = new Float64Array(9);
  let best = -Infinity, bestT = 0, bestStep = 0;
  const grad = new Float64Array(P);
  const valueAndGradient = (g: Float64Array | null): number => {
    const a = result.axis, r = Rr;
    if (rv.kind !== 'pose') throw new DynamicSensitivityError(`result: "${result.part}" is not a part`);
    rotationMatrix(r, system.state, rv.offset + 3);
    const lp = local;
    // body-frame ω and the point's body-frame velocity u = ω × p + v
    const w = rc0 >= 0 ? [it.v[rc0], it.v[rc0 + 1], it.v[rc0 + 2]] : [0, 0, 0];
    const u = rc0 >= 0 ? [w[1] * lp[2] - w[2] * lp[1] + it.v[rc0 + 3], w[2] * lp[0] - w[0] * lp[2] + it.v[rc0 + 4], w[0] * lp[1] - w[1] * lp[0] + it.v[rc0 + 5]] : [0, 0, 0];
    const row = (x: number[]) => r[a * 3] * x[0] + r[a * 3 + 1] * x[1] + r[a * 3 + 2] * x[2];
    const cross = (x: number[], y: number[]) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
    if (g) for (let j = 0; j < P; j++) {
      if (rc0 < 0) { g[j] = 0; continue; }
      const s = (i: number, arr: Float64Array) => arr[(rc0 + i) * P + j];
      const dw = [s(0, sq), s(1, sq), s(2, sq)], dv = [s(3, sq), s(4, sq), s(5, sq)];
      if (result.quantity === 'position') {
        // x = t + R p: dx = R(δv + δω × p)
        const c = cross(dw, lp);
        g[j] = row([dv[0] + c[0], dv[1] + c[1], dv[2] + c[2]]);
      } else {
        // ẋ = R u: d = R(δω × u + dω' × p + dv'), with (dω', dv') the velocity's sensitivity
        const c1 = cross(dw, u), c2 = cross([s(0, sv), s(1, sv), s(2, sv)], lp);
        g[j] = row([c1[0] + c2[0] + s(3, sv), c1[1] + c2[1] + s(4, sv), c1[2] + c2[2] + s(5, sv)]);
      }
    }
    if (result.quantity === 'velocity') return row(u);
    return system.state[rv.offset + a] + row(lp);
  };
  /** The result's cotangent at the current state with velocities v: adds w·∂x/∂(q, v) into (cq, cv) (q perturbed on the right). */
  const addResultCotangent = (cq: Float64Array, cv: Float64Array, v: Float64Array, w: number) => {
    if (rc0 < 0 || w === 0) return;
    rotationMatrix(Rr, system.state, rv.offset + 3);
    const a = result.axis, ra = [Rr[a * 3], Rr[a * 3 + 1], Rr[a * 3 + 2]], lp = local;
    const cross = (x: number[], y: number[]) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
    const pr = cross(lp, ra); // (δω × p)·r_a = δω·(p × r_a)
    if (result.quantity === 'position') {
      for (let i = 0; i < 3; i++) { cq[rc0 + i] += w * pr[i]; cq[rc0 + 3 + i] += w * ra[i]; }
      return;
    }
    const u = [v[rc0 + 1] * lp[2] - v[rc0 + 2] * lp[1] + v[rc0 + 3], v[rc0 + 2] * lp[0] - v[rc0] * lp[2] + v[rc0 + 4], v[rc0] * lp[1] - v[rc0 + 1] * lp[0] + v[rc0 + 5]];
    const ur = cross(u, ra);
    for (let i = 0; i < 3; i++) { cq[rc0 + i] += w * ur[i]; cv[rc0 + i] += w * pr[i]; cv[rc0 + 3 + i] += w * ra[i]; }
  };
  const sign = result.at === 'min' ? -1 : 1;
  // crossing: the previous step's value and gradient; the time and its gradient once found
  const prevG = new Float64Array(P), curG = new Float64Array(P);
  let prevX = NaN, prevT = 0, crossT = NaN, crossStep = -1, crossPrev = 0, crossCur = 0;
  let stepCount = 0;
  const observe = () => {
    const k = stepCount++;
    if (result.at === 'final') return;
    const direct = mode === 'direct';
    if (result.at === 'crossing') {
      if (!Number.isNaN(crossT)) return;
      const X = result.level!, x = valueAndGradient(direct ? curG : null);
      if (!Number.isNaN(prevX) && (prevX - X) * (x - X) <= 0 && x !== prevX) {
        // T = t_n + h (X − x_n)/(x_{n+1} − x_n), differentiated as it stands
        const h = it.t - prevT, D = x - prevX, f = (X - prevX) / D;
        crossT = prevT + h * f;
        crossStep = k; crossPrev = (h * (X - prevX - D)) / (D * D); crossCur = (-h * (X - prevX)) / (D * D);
        if (direct) for (let j = 0; j < P; j++) grad[j] = h * (-prevG[j] * D - (X - prevX) * (curG[j] - prevG[j])) / (D * D);
      }
      prevX = x; prevT = it.t; if (direct) prevG.set(curG);
      return;
    }
    const x = sign * valueAndGradient(null);
    if (x > best) { best = x; bestT = it.t; bestStep = k; if (direct) valueAndGradient(grad); }
  };
  observe();
  const steps = Math.max(1, Math.round(duration / step));
  let done = 0;
  for (let k = 1; k <= steps; k++) {
    if (!it.step(step)) throw new DynamicSensitivityError(`gradients: the step at t = ${it.t} s did not converge`);
    done = k;
    if (result.at === 'crossing' && !Number.isNaN(crossT)) break; // nothing later matters to a crossing time
  }
  it.onStep = null;
  if (result.at === 'crossing' && Number.isNaN(crossT)) throw new DynamicSensitivityError(`result: ${result.part}${result.point ? `.${result.point}` : ''} does not reach ${result.level} in ${duration} s`);
  let value: number, t: number;
  if (result.at === 'crossing') { value = crossT; t = crossT; } else if (result.at === 'final') {
    value = valueAndGradient(mode === 'direct' ? grad : null); t = it.t;
  } else { value = sign * best; t = bestT; }
  if (mode === 'adjoint') {
    // the result's weight on each stored step's state
    const weights = new Map<number, number>();
    if (result.at === 'final') weights.set(stored.length - 1, 1);
    else if (result.at === 'crossing') { weights.set(crossStep - 1, crossPrev); weights.set(crossStep, crossCur); } else weights.set(bestStep, sign * sign);
    adjointSweep(weights);
  }
  return { value, t, gradient: [...grad], steps: done };

  /** Restore a stored step's end state (positions and the drivers' time). */
  function restoreStep(s: StoredStep) {
    system.state.set(s.state);
    for (const d of it.drivers) d.setTime(s.t);
  }

  /**
   * One backward sweep: the cotangent μ = (μq, μv, μv̇, μa) of each step's end, from the
   * result's last touched step down to the start; each step's transpose needs one solve with
   * its exact matrix transposed, and each parameter only its ∂R/∂p dotted with that solve.
   */
  function adjointSweep(weights: Map<number, number>) {
    const mq = new Float64Array(n), mv = new Float64Array(n), mvd = new Float64Array(n), ma = new Float64Array(n);
    const bqb = new Float64Array(n), bvb = new Float64Array(n), tqb = new Float64Array(n), rdyn = new Float64Array(n), Mr = new Float64Array(n);
    const last = Math.max(...weights.keys());
    grad.fill(0);
    const addParameters = (s: StoredStep, scale: number) => {
      // grad_j += (scale · r̄_dyn) · ∂R/∂p_j at this state
      for (let j = 0; j < P; j++) {
        rp.fill(0);
        terms[j](rp, s.v, s.vdot, s.t);
        let d = 0;
        for (let i = 0; i < n; i++) d += rdyn[i] * rp[i];
        grad[j] += scale * d;
      }
    };
    for (let k = last; k >= 1; k--) {
      const s = stored[k], h = s.h;
      restoreStep(s);
      const w = weights.get(k);
      if (w !== undefined) addResultCotangent(mq, mv, s.v, w);
      const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta), aP = 1 / (h * h * beta);
      linearise(h, s.y, s.v, s.lambda, s.t);
      // dD̄ = J_rᵀ μq + γ' μv + β' μv̇ + a' μa; [r̄_dyn; r̄_con] = A⁻ᵀ [dD̄; 0]
      for (let i = 0; i < n; i++) {
        let x = gammaP * mv[i] + betaP * mvd[i] + aP * ma[i];
        for (let l = 0; l < n; l++) x += Jr[l * n + i] * mq[l];
        rhs[i] = x;
      }
      for (let r = 0; r < m; r++) rhs[n + r] = 0;
      lu.solveTransposed(rhs);
      for (let i = 0; i < n; i++) rdyn[i] = rhs[i];
      // r_dyn = −(M v̇' + R_p + GC b_v + HK b_q)/β',  r_con = −J b_q
      addParameters(s, -1 / betaP);
      massTimes(Mr, rdyn, 0, 1);
      for (let i = 0; i < n; i++) {
        let xq = mq[i], xv = mv[i];
        for (let l = 0; l < n; l++) { xq -= HK[l * n + i] * rdyn[l] / betaP; xv -= GC[l * n + i] * rdyn[l] / betaP; }
        for (let r = 0; r < m; r++) xq -= J[r * n + i] * rhs[n + r];
        bqb[i] = xq; bvb[i] = xv;
      }
      // b_q = Ad q' + J_r t_q,  t_q = h v' + h² c1 a' + h² β â,  b_v = v' + h(1−γ) a' + hγ â,  â = (v̇' − αm a')/(1 − αm)
      for (let i = 0; i < n; i++) {
        let xq = 0, xt = 0;
        for (let l = 0; l < n; l++) { xq += Ad[l * n + i] * bqb[l]; xt += Jr[l * n + i] * bqb[l]; }
        mq[i] = xq; tqb[i] = xt;
      }
      for (let i = 0; i < n; i++) {
        const aHat = ma[i] + h * h * beta * tqb[i] + h * gamma * bvb[i];
        mv[i] = h * tqb[i] + bvb[i];
        ma[i] = h * h * c1 * tqb[i] + h * (1 - gamma) * bvb[i] - (am * aHat) / (1 - am);
        mvd[i] = mvd[i] - Mr[i] / betaP + aHat / (1 - am);
      }
    }
    // the start: v̇₀' = a₀' = first n of [M Jᵀ; J 0]⁻¹[−R_p; 0]; q₀' = v₀' = 0
    const s0 = stored[0];
    restoreStep(s0);
    const w0 = weights.get(0);
    if (w0 !== undefined) addResultCotangent(mq, mv, s0.v, w0); // q₀' = v₀' = 0: no contribution, kept for the record
    factorStart();
    for (let i = 0; i < n; i++) rhs[i] = mvd[i] + ma[i];
    for (let r = 0; r < m; r++) rhs[n + r] = 0;
    lu.solveTransposed(rhs);
    for (let i = 0; i < n; i++) rdyn[i] = rhs[i];
    addParameters(s0, -1);
  }
}
