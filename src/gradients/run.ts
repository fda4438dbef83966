/**
 * Exact gradients of simulation results with respect to model parameters: the forward
 * (tangent-linear) sensitivity of the discrete generalized-α / backward-Euler step of
 * kernel/integrator/integrator.ts, not of the continuous equations, and never by differences.
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
import { KinemateError } from '../../kernel/errors';
import { LU } from '../../kernel/linalg';
import { gyroscopic } from '../../kernel/mass';
import { exp as poseExp, rightJacobian } from '../../kernel/pose';
import { rotationMatrix, withTangents, type Dual, type TangentSeeds } from '../../kernel/dual';
import { CoordinateSpringForce, LinearLaw, PointToPointForce } from '../../mates/forces';
import { CoordinateFrictionForce } from '../../mates/resistance';
import type { AssemblyDoc } from '../assembly/types';
import type { Model } from '../model/build';
import { buildDynamics, type DynamicsModel } from '../mechanics/build';
import { finalStep, prepareSimulation } from '../mechanics/simulate';
import type { IntegratorGroup, IntegratorMethod } from '../../kernel/integrator/integrator';
import { ProductMaps } from './product-step';
import { CoordinateMotion, PointMotion } from '../../kernel/motion';
import { MinimumNormStart, startSolveMetric } from './free-start';
import { StartVelocity, startMetric } from './start';
import { ownResult } from './results/own';
import { ScalarTargetBlock } from '../../kernel/system';
import { CouplingBlock } from '../../mates/couplings';
import { HardpointTerms, hardpointNames, parseHardpoint, resolveHardpoint, type HardpointParameter } from './parameters/hardpoints';
import { asCoefficient, coefficientTerm, parseCoefficient, type CoefficientParameter } from './parameters/coefficients';
import { ReactionResult } from './results/reactions';
import type { CombinedParameter, DynamicParameter, DynamicResult, OwnResult, OwnResultFactory, ParameterTerm, ReactionWhat } from './types';
export type { CombinedParameter, DynamicParameter, DynamicResult, ParameterTerm } from './types';
import { GradientRefusal } from './refusal';

export interface DynamicGradient {
  /** The result's value. */
  value: number;
  /** Its time (s). */
  t: number;
  /** d(value)/d(parameter) per parameter, in the result's unit per the parameter's file unit. */
  gradient: number[];
  steps: number;
  /** A crossing time's rate with its level, ∂T/∂level (T = t_n + h (X − x_n)/(x_n+1 − x_n): h/(x_n+1 − x_n)). */
  perLevel?: number;
}

export interface GradientOptions {
  duration: number;
  step: number;
  method?: IntegratorMethod;
  rhoInf?: number;
  /**
   * The group poses step on, as `simulate` takes it; default 'R3xSO3', `simulate`'s own (the
   * gradient is then the exact derivative of what it prints: product-step.ts); 'SE3' the other.
   */
  lieGroup?: IntegratorGroup;
  /** Progress: each forward step taken (steps done of those asked) and, on the adjoint route, each step swept back (of the sweep's). */
  onProgress?: (pass: 'forward' | 'backward', done: number, total: number) => void;
  /**
   * How the start positions move with the parameters: 'file' (default) the file's start solve;
   * 'equilibrium' the start is a static equilibrium (at rest), differentiated by the implicit
   * function theorem on its balance; 'fixed' they do not move (checked: Φ_p = 0 there).
   */
  start?: 'file' | 'equilibrium' | 'fixed';
}

/** A gradient run's parameter or result the model does not have or the run does not offer; the message names it. */
export class DynamicSensitivityError extends KinemateError {
  override readonly name = 'DynamicSensitivityError';
  constructor(message: string) { super('', message); }
}

/**
 * Parameter names as the CLI writes them: `spring.stiffness`, `body.mass`, `body.inertia.z`, `body.centre.x`,
 * and hardpoints `body.frontAxle.x` (an entity's position; `body.points.centre.x` where the name is also a mass parameter's).
 */
export function parseParameter(name: string): DynamicParameter {
  // PART.points.centre.x is a point's coordinate; PART.centre.x the mass centre's
  const long = /^[^.]+\.(points|frames|axes|planes|circles)\.[^.]+\.[xyz]$/.test(name) ? parseHardpoint(name) : null;
  if (long) return long;
  const m = /^(.+)\.(stiffness|damping|friction|mass|inertia\.[xyz]|centre\.[xyz])$/.exec(name);
  if (!m) {
    const hp = parseHardpoint(name) ?? parseCoefficient(name);
    if (hp) return hp;
    throw new DynamicSensitivityError(`parameter "${name}": expected ELEMENT.stiffness, ELEMENT.damping, ELEMENT.friction, PART.mass, PART.inertia.x|y|z, PART.centre.x|y|z, a hardpoint PART.ENTITY.x|y|z or an element's number ELEMENT.FIELD[.x|y|z], ELEMENT.FIELD[i]`);
  }
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
  const tension = /^([^.@]+)\.tension(?:@(final|max|min))?$/.exec(name);
  if (tension) return { part: tension[1], quantity: 'tension', axis: 0, at: (tension[2] ?? 'final') as DynamicResult['at'] };
  const reaction = /^reactions\.([^.@]+)\.(force|moment)\.([xyz])(?:@(final|max|min))?$/.exec(name);
  if (reaction) return { part: reaction[1], quantity: 'reaction', axis: 0, reaction: { kind: reaction[2] as 'force' | 'moment', mate: reaction[1], axis: 'xyz'.indexOf(reaction[3]) as 0 | 1 | 2 }, at: (reaction[4] ?? 'final') as DynamicResult['at'] };
  // a part or element named `drivers` keeps its own results
  const driver = /^drivers\.(?!(?:[^.@]+\.)?(?:position|velocity)\.[xyz](?:@|$)|force(?:\.[xyz])?(?:@|$))([^@]+?)(?:@(final|max|min))?$/.exec(name);
  if (driver) return { part: driver[1], quantity: 'reaction', axis: 0, reaction: { kind: 'driver', name: driver[1] }, at: (driver[2] ?? 'final') as DynamicResult['at'] };
  const force = /^([^.@]+)\.force(?:\.([xyz]))?(?:@(final|max|min))?$/.exec(name);
  if (force) return { part: force[1], quantity: 'force', axis: 0, ...(force[2] ? { component: 'xyz'.indexOf(force[2]) as 0 | 1 | 2 } : {}), at: (force[3] ?? 'final') as DynamicResult['at'] };
  const m = /^([^.]+)(?:\.([^.@]+))?\.(position|velocity)\.([xyz])(?:@(final|max|min|cross=([-+0-9.eE]+)))?$/.exec(name);
  if (!m || (m[6] !== undefined && !Number.isFinite(Number(m[6])))) {
    throw new DynamicSensitivityError(`result "${name}": expected PART[.POINT].position.x|y|z or PART[.POINT].velocity.x|y|z, optionally @max, @min or @cross=LEVEL, or ELEMENT.tension, optionally @max or @min, or ELEMENT.force, ELEMENT.force.x|y|z (a tyre's load, a bushing's or drag's force, a coordinate spring's or friction's; @max, @min), or a frame's reactions.MATE.force.x|y|z, reactions.MATE.moment.x|y|z or drivers.NAME (@max, @min)`);
  }
  const at = (m[6] !== undefined ? 'crossing' : m[5] ?? 'final') as DynamicResult['at'];
  return { part: m[1], ...(m[2] ? { point: m[2] } : {}), quantity: m[3] as 'position' | 'velocity', axis: 'xyz'.indexOf(m[4]) as 0 | 1 | 2, at, ...(m[6] !== undefined ? { level: Number(m[6]) } : {}) };
}


function parameterTerm(dyn: DynamicsModel, layout: Int32Array, param: DynamicParameter): ParameterTerm {
  const { system, forces } = dyn;
  // an element other than a linear point-to-point or coordinate spring, friction: its own file field
  const own = (b: unknown, kind: string) => (kind === 'friction' ? b instanceof CoordinateFrictionForce : b instanceof CoordinateSpringForce
    || (b instanceof PointToPointForce && (kind === 'stiffness' ? b.spring : b.damper) instanceof LinearLaw));
  const other = param.kind === 'coefficient' ? param : (param.kind === 'stiffness' || param.kind === 'damping' || param.kind === 'friction')
    && dyn.elements.some((e) => e.id === param.element && !own(e.block, param.kind))
    ? { kind: 'coefficient' as const, element: param.element, field: param.kind } : null;
  if (other) {
    try { return coefficientTerm(dyn, other); } catch (why) {
      if (why instanceof GradientRefusal) throw new DynamicSensitivityError(`parameter "${parameterName(param)}": ${why.reason}`);
      throw why;
    }
  }
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
  const p = param as Exclude<DynamicParameter, { element: string } | CombinedParameter>;
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
export function simulationGradient(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions): DynamicGradient {
  return single(source, parameters, result, options, 'direct');
}

/**
 * The same gradient by the discrete adjoint: the run stores each step's end state, then one
 * backward sweep re-linearises every step (the same exact step matrix, refactored) and solves
 * its transpose once, whatever the number of parameters (the direct route solves once per
 * parameter and step). Equal to `simulationGradient` up to round-off.
 */
export function simulationGradientAdjoint(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions): DynamicGradient {
  return single(source, parameters, result, options, 'adjoint');
}

/**
 * Gradients of several results from one run: the direct route carries the columns once and
 * reads every result off them; the adjoint stores the run once and sweeps back once, each
 * step's exact matrix factored once and solved transposed once per result. `method` defaults
 * to the adjoint when there are more parameters than results, else the direct route.
 */
export function simulationGradients(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], results: readonly DynamicResult[], options: GradientOptions,
  method?: 'adjoint' | 'direct'): DynamicGradients {
  const how = method ?? (parameters.length > results.length ? 'adjoint' : 'direct');
  const run = gradientRun(source, parameters, results, options, how);
  return { method: how, steps: run.steps, results: run.results };
}

export interface DynamicGradients {
  method: 'adjoint' | 'direct';
  steps: number;
  /** Per result, in the order asked. */
  results: DynamicGradient[];
}

/** A step's end as the adjoint sweep needs it: size, time, positions, v, v̇, λ and the Lie step y. */
interface StoredStep { h: number; t: number; state: Float64Array; v: Float64Array; vdot: Float64Array; lambda: Float64Array; y: Float64Array; active: Uint8Array }

/** A parameter's name as parseParameter reads it (for messages). */
function parameterName(p: DynamicParameter): string {
  switch (p.kind) {
    case 'combined': return p.name;
    case 'hardpoint': return `${p.part}.${p.group ? `${p.group}.` : ''}${p.entity}.${'xyz'[p.axis]}`;
    case 'mass': return `${p.part}.mass`;
    case 'inertia': case 'centre': return `${p.part}.${p.kind}.${'xyz'[p.axis]}`;
    case 'coefficient': return `${p.element}.${p.field}`;
    default: return `${p.element}.${p.kind}`;
  }
}

function single(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], result: DynamicResult, options: GradientOptions, mode: 'direct' | 'adjoint'): DynamicGradient {
  const run = gradientRun(source, parameters, [result], options, mode);
  return { ...run.results[0], steps: run.steps };
}

/** One result's bookkeeping over the run. */
interface Tracker {
  result: DynamicResult;
  rv: { kind: string; offset: number };
  rc0: number;
  local: number[];
  /** Per parameter: the result point's own moves (a hardpoint that is the result's point), weighted; else empty. */
  explicitAxis: { axis: number; w: number }[][];
  /** A result with its own derivatives (an element's tension or force, a suspension quantity), else null. */
  tension: OwnResult | null;
  /** A multiplier result: its row (else −1), λ' per parameter (direct) and its pending cotangent (adjoint). */
  lambdaRow: number; lamP: Float64Array; lamCot: number;
  /** A frame's reaction or driver force (also in `tension`): its λ weights are dotted with every row's λ' (direct) or seed the λ cotangent `lamCots` (adjoint). */
  reaction?: ReactionResult; lamCots?: Float64Array;
  sign: number;
  best: number; bestT: number; bestStep: number;
  grad: Float64Array; prevG: Float64Array; curG: Float64Array;
  prevX: number; prevT: number; crossT: number; crossStep: number; crossPrev: number; crossCur: number;
}

function gradientRun(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], results: readonly DynamicResult[], options: GradientOptions, mode: 'direct' | 'adjoint'): { steps: number; results: DynamicGradient[] } {
  const { duration, step } = options;
  if (!(duration > 0) || !(step > 0)) throw new RangeError('duration and step: expected positive numbers of seconds');
  if (!results.length) throw new DynamicSensitivityError('gradients: no result asked for');
  const dyn = 'forces' in source && 'bodies' in source ? (source as DynamicsModel) : buildDynamics(source as AssemblyDoc | Model);
  const doc = dyn.model.doc;
  const startMode = options.start ?? 'file';
  parameters = parameters.map((p) => asCoefficient(doc, p)); // `bush.stiffness.x` reads as a hardpoint's name
  const combined = parameters.some((p) => p.kind === 'combined');
  if (combined && startMode === 'file') throw new DynamicSensitivityError('gradients: a combined parameter needs the start "equilibrium" or "fixed"');
  // hardpoints first: a bad name is refused before the run, with the file's list
  const hardpoints: { j: number; p: HardpointParameter }[] = [];
  const resolved = (p: HardpointParameter, name: string) => {
    const r = resolveHardpoint(doc, p);
    if (typeof r === 'string') throw new DynamicSensitivityError(`parameter "${name}": ${r} (hardpoints of this file: ${hardpointNames(doc).join(', ')})`);
  };
  parameters.forEach((p, j) => {
    if (p.kind !== 'hardpoint') return;
    resolved(p, parameterName(p));
    hardpoints.push({ j, p });
  });
  // a combined parameter's hardpoints ride after the plain ones (j = −1: not a column of their own)
  const combinedHp = parameters.map((p) => (p.kind !== 'combined' ? [] : p.parts.flatMap(({ parameter: q, weight }) => {
    if (q.kind !== 'hardpoint') return [];
    resolved(q, p.name);
    hardpoints.push({ j: -1, p: q });
    return [{ k: hardpoints.length - 1, w: weight }];
  })));
  const filePose = Float64Array.from(dyn.system.state);
  const sim = prepareSimulation(dyn, { method: options.method ?? 'generalized-alpha', rhoInf: options.rhoInf, lieGroup: options.lieGroup ?? 'R3xSO3' });
  /** Whether the start solve left the pose as the file gave it (a start the file leaves free is then differentiable). */
  const filePoseKept = dyn.system.state.every((x, i) => Math.abs(x - filePose[i]) <= 1e-12 * Math.max(1, Math.abs(filePose[i])));
  const it = sim.integrator, { system, forces } = dyn;
  const n = it.size, P = parameters.length, NR = results.length;
  /** On R³ × SO(3) (simulate's default): the step's own maps (product-step.ts); null on SE(3). */
  const pm = (options.lieGroup ?? 'R3xSO3') === 'R3xSO3' ? new ProductMaps(system, it.layout, n, it.bodies) : null;
  const m = it.rows, N = n + m;
  // redundant rows: the integrator solves each step on its active rows (kernel/integrator/integrator.ts selectRows), a dropped
  // row's λ left out of the dynamics; so does this: a dropped row is masked out of J, H and Φ_p, its λ read as zero
  // and its place in a step matrix a unit diagonal (dλ = 0). The set is the step's own (stored for the adjoint).
  const rowOn = new Uint8Array(m), lamOn = new Float64Array(m);
  const useActive = (rows: ArrayLike<number>) => { rowOn.fill(0); for (let i = 0; i < rows.length; i++) rowOn[rows[i]] = 1; };
  /** The integrator's λ with the dropped rows' (stale) values read as zero. */
  const activeLambda = (): Float64Array => { for (let r = 0; r < m; r++) lamOn[r] = rowOn[r] ? it.lambda[r] : 0; return lamOn; };
  const dropInactive = (S: Float64Array, ld: number) => { for (let r = 0; r < m; r++) if (!rowOn[r]) S[(n + r) * ld + n + r] = 1; };
  const maskRows = (x: Float64Array) => { for (let r = 0; r < m; r++) if (!rowOn[r]) x[r] = 0; };
  useActive(it.activeRows());
  const startRows = Int32Array.from(it.activeRows());

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
    const d = blk.duals;
    // a coordinate motion's, a held coordinate's or a coupling's row is linear in its coordinates (no curvature); any other
    // row needs its second derivatives (a rolling contact's along its track: mates/rolling.ts curveAlongS; a point motion's: kernel/motion.ts)
    if (!d && !(blk instanceof CoordinateMotion) && !(blk instanceof ScalarTargetBlock) && !(blk instanceof CouplingBlock)) throw new DynamicSensitivityError(`gradients: constraint ${blk.owner} has no second derivatives (not supported yet)`);
    rowBlocks.push({ index: b, row0: row, rows: blk.rows, cols: Int32Array.from(cols), duals: d ? d.bind(blk) : null });
    row += blk.rows;
  }
  if (row !== m) throw new Error('gradients: rows disagree with the integrator');

  const hp = hardpoints.length ? new HardpointTerms(dyn, hardpoints.map((h) => h.p), rowBlocks) : null;
  const hpOf = new Int32Array(P).fill(-1);
  hardpoints.forEach((h, k) => { if (h.j >= 0) hpOf[h.j] = k; });
  /** ∂R/∂p_j at the current state into `out` (dynamic rows) and, for a hardpoint, Φ_p into `con` (rows). */
  const massTerms = parameters.map((p) => (p.kind === 'hardpoint' || p.kind === 'combined' ? null : parameterTerm(dyn, it.layout, p)));
  const rowOf = new Map<string, number>();
  for (const rb of rowBlocks) { const o = system.block(rb.index).owner; if (!rowOf.has(o)) rowOf.set(o, rb.row0); }
  const combos = parameters.map((p) => {
    if (p.kind !== 'combined') return null;
    const rows = (p.rows ?? []).map(({ owner, value }) => {
      const r = rowOf.get(owner);
      if (r === undefined) throw new DynamicSensitivityError(`parameter "${p.name}": no constraint rows "${owner}"`);
      return { r, value };
    });
    const plain = p.parts.filter(({ parameter: q }) => q.kind !== 'hardpoint').map(({ parameter: q, weight }) => ({ term: parameterTerm(dyn, it.layout, q), weight }));
    const driven = (p.driven ?? []).map(({ owner, rate }) => {
      const rb = rowBlocks.find((b) => system.block(b.index).owner === owner && system.block(b.index) instanceof CoordinateMotion);
      if (!rb) throw new DynamicSensitivityError(`parameter "${p.name}": no motion "${owner}"`);
      return { r: rb.row0, scale: (system.block(rb.index) as CoordinateMotion).scale, rate };
    });
    return { rows, plain, extra: p.term ? p.term(dyn, it.layout) : null, driven };
  });
  const cOut = new Float64Array(n), cCon = new Float64Array(m), cConW = new Float64Array(m);
  /** Parameter j's rows at the current state: ∂R/∂p into `out` (tangent size), Φ_p into `con` and (∂Φ_q/∂p)w into `conW` (rows), each when given. */
  const rowsOf = (j: number, lambda: Float64Array | null, v: Float64Array, vdot: Float64Array, t: number, out: Float64Array, con: Float64Array | null, conW: Float64Array | null) => {
    const k = hpOf[j], cb = combos[j];
    if (k >= 0) { hp!.evaluate(k, lambda, v, t, out, con, vdot, conW); return; }
    if (!cb) { massTerms[j]!(out, v, vdot, t); return; }
    for (const { k: kc, w } of combinedHp[j]) {
      cOut.fill(0); cCon.fill(0); cConW.fill(0);
      hp!.evaluate(kc, lambda, v, t, cOut, con ? cCon : null, vdot, conW ? cConW : null);
      for (let i = 0; i < n; i++) out[i] += w * cOut[i];
      if (con) for (let r = 0; r < m; r++) con[r] += w * cCon[r];
      if (conW) for (let r = 0; r < m; r++) conW[r] += w * cConW[r];
    }
    for (const { term, weight } of cb.plain) { cOut.fill(0); term(cOut, v, vdot, t); for (let i = 0; i < n; i++) out[i] += weight * cOut[i]; }
    if (cb.extra) cb.extra(out, v, vdot, t);
    if (con) for (const { r, value } of cb.rows) con[r] += value;
    if (con) for (const { r, scale, rate } of cb.driven) con[r] -= scale * rate(t);
  };
  const terms = parameters.map((_, j) => (out: Float64Array, v: Float64Array, vdot: Float64Array, t: number, lambda: Float64Array, con: Float64Array | null) => rowsOf(j, lambda, v, vdot, t, out, con, null));
  /** Whether the parameters reach the constraint rows or the start positions (the curvature terms are needed). */
  const curved = hp !== null || combined || startMode !== 'file';

  const trackers: Tracker[] = results.map((result) => {
    if (result.quantity === 'tension' || result.quantity === 'force' || result.quantity === 'own' || result.quantity === 'reaction') {
      let tension: OwnResult;
      try { tension = result.quantity === 'reaction' ? new ReactionResult(dyn, it, result.reaction!, parameters) : ownResult(dyn, it.layout, result, parameters); } catch (why) {
        if (why instanceof GradientRefusal) throw new DynamicSensitivityError(`result: ${why.reason}`);
        throw why;
      }
      return {
        result, rv: { kind: 'tension', offset: 0 }, rc0: -1, local: [0, 0, 0], explicitAxis: parameters.map((_, j) => (tension.reads(j) ? [{ axis: 0, w: 1 }] : [])), tension, lambdaRow: -1, lamP: new Float64Array(0), lamCot: 0, sign: result.at === 'min' ? -1 : 1,
        best: -Infinity, bestT: 0, bestStep: 0, grad: new Float64Array(P), prevG: new Float64Array(P), curG: new Float64Array(P),
        prevX: NaN, prevT: 0, crossT: NaN, crossStep: -1, crossPrev: 0, crossCur: 0,
        ...(tension instanceof ReactionResult ? { reaction: tension, lamCots: new Float64Array(m) } : {}),
      };
    }
    if (result.quantity === 'multiplier') {
      // λ of a one-row constraint: no explicit dependence, its sensitivity from each step's solve
      const rb = rowBlocks.find((b) => system.block(b.index).owner === result.part);
      if (!rb || rb.rows !== 1) throw new DynamicSensitivityError(`result: ${rb ? `constraint "${result.part}" has ${rb.rows} rows, not one` : `no constraint "${result.part}"`}`);
      return {
        result, rv: { kind: 'multiplier', offset: 0 }, rc0: -1, local: [0, 0, 0], explicitAxis: parameters.map(() => []), tension: null, lambdaRow: rb.row0, lamP: new Float64Array(P), lamCot: 0,
        sign: result.at === 'min' ? -1 : 1, best: -Infinity, bestT: 0, bestStep: 0, grad: new Float64Array(P), prevG: new Float64Array(P), curG: new Float64Array(P),
        prevX: NaN, prevT: 0, crossT: NaN, crossStep: -1, crossPrev: 0, crossCur: 0,
      };
    }
    const resultVar = dyn.model.parts.get(result.part);
    if (resultVar === undefined) throw new DynamicSensitivityError(`result: no part "${result.part}"`);
    let local = [0, 0, 0];
    if (result.point) {
      const pt = doc.parts[result.part].points?.[result.point];
      if (!pt) throw new DynamicSensitivityError(`result: part "${result.part}" has no point "${result.point}"`);
      local = [pt[0], pt[1], pt[2]];
    }
    const own = (p: DynamicParameter) => p.kind === 'hardpoint' && p.part === result.part && result.point === p.entity && (p.group ?? 'points') === 'points'
      && doc.parts[p.part].points?.[p.entity] !== undefined;
    const explicitAxis = parameters.map((p) => (p.kind === 'combined' ? p.parts.filter(({ parameter: q }) => own(q)).map(({ parameter: q, weight }) => ({ axis: (q as HardpointParameter).axis, w: weight }))
      : own(p) ? [{ axis: (p as HardpointParameter).axis, w: 1 }] : []));
    return {
      result, rv: system.variables[resultVar], rc0: it.layout[resultVar], local, explicitAxis, tension: null, lambdaRow: -1, lamP: new Float64Array(0), lamCot: 0, sign: result.at === 'min' ? -1 : 1,
      best: -Infinity, bestT: 0, bestStep: 0, grad: new Float64Array(P), prevG: new Float64Array(P), curG: new Float64Array(P),
      prevX: NaN, prevT: 0, crossT: NaN, crossStep: -1, crossPrev: 0, crossCur: 0,
    };
  });

  /** λ' of every row per parameter (direct), for a reaction result. */
  const lamAll = trackers.some((tr) => tr.reaction) ? new Float64Array(m * P) : null;

  // scratch
  const J = new Float64Array(m * n), H = new Float64Array(n * n), K = new Float64Array(n * n), C = new Float64Array(n * n);
  const Q = new Float64Array(n), Gv = new Float64Array(n * n), g6 = new Float64Array(6), G36 = new Float64Array(36);
  const Jr = new Float64Array(n * n), Ad = new Float64Array(n * n), A = new Float64Array(N * N), rhs = new Float64Array(N);
  const lu = new LU(N);
  const res = new Float64Array(64), jac = new Float64Array(4096), rp = new Float64Array(n), rc = new Float64Array(m), pose = new Float64Array(7);
  const dir = new Float64Array(n);
  /** With a vector w: Wq = ∂(J w)/∂q (m × n), the start's acceleration rows' curvature. */
  const Wq = curved ? new Float64Array(m * n) : null;

  /** J (all rows) at the current state; with λ, also H = ∂(Jᵀλ)/∂q column by column (tangent mode); with w, also Wq. */
  const rowsAndCurvature = (lambda: Float64Array | null, w: Float64Array | null = null) => {
    J.fill(0);
    for (const rb of rowBlocks) {
      const ld = rb.cols.length;
      system.evaluateBlock(rb.index, res, jac);
      for (let r = 0; r < rb.rows; r++) if (rowOn[rb.row0 + r]) for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) J[(rb.row0 + r) * n + rb.cols[k]] += jac[r * ld + k];
    }
    if (!lambda) return;
    H.fill(0);
    if (w) Wq!.fill(0);
    for (const rb of rowBlocks) {
      if (!rb.duals) continue; // a driver's rows are linear in its coordinate
      let any = false;
      for (let r = 0; r < rb.rows; r++) if (lambda[rb.row0 + r] !== 0) any = true;
      if (!any && !w) continue;
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
          if (!tt || !rowOn[rb.row0 + r]) continue;
          if (lam !== 0) for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) H[rb.cols[k] * n + c] += lam * tt.d[k];
          if (w) { let s = 0; for (let k = 0; k < ld; k++) if (rb.cols[k] >= 0) s += tt.d[k] * w[rb.cols[k]]; Wq![(rb.row0 + r) * n + c] += s; }
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
    dropInactive(A, N);
    if (!lu.factor(A, N, 1e-13)) throw new DynamicSensitivityError('gradients: the start system is singular');
  };

  // ---- the start's positions: the start solve [Φ; held file coordinates](q, p) = 0, differentiated ----
  const moving = hardpoints.filter((_, k) => hp!.movesRows(k));
  const startLU = moving.length && startMode === 'file' ? startPositions() : null;
  function startPositions(): { solve(x: Float64Array): void; solveTransposed(x: Float64Array): void } {
    const names = moving.map((h) => `"${parameterName(h.p)}"`).join(', ');
    // the file's coordinate values the start solve held (prepareSimulation): not held by the file, not driven; a point
    // motion's row is one of Φ (its second solve must have left those values where they were: checked below)
    const driven = new Set(sim.drivers.flatMap((d) => (d.block instanceof CoordinateMotion ? [d.block.vars[0]] : [])));
    const placed: number[] = [];
    for (const [name, value] of Object.entries(doc.state)) {
      const info = dyn.model.coordinates.get(name);
      if (!info || typeof value !== 'number' || system.isHeld(info.variable) || driven.has(info.variable)) continue;
      const want = info.kind === 'angle' ? value * dyn.model.angleFactor : value;
      if (Math.abs(system.getScalar(info.variable) - want) > 1e-9 * Math.max(1, Math.abs(want))) {
        throw new DynamicSensitivityError(`gradients: ${names} move the start, but its solve could not hold "${name}" at the file's value: not supported`);
      }
      if (it.layout[info.variable] >= 0) placed.push(it.layout[info.variable]);
    }
    const ma = startRows.length, free = n - ma - placed.length;
    if (free < 0) throw new DynamicSensitivityError(`gradients: ${names} move the mates, but the start's rows and the file's coordinates over-determine its pose: not supported`);
    rowsAndCurvature(null);
    if (free > 0) {
      // the start solve takes the least move from the file's pose (sensitivity-free-start.ts): differentiable so when the
      // pose satisfied the rows as the file gave it (no move made), and with no second solve after it (a point motion's)
      const left = `the file's coordinates leave the start pose ${free} degree(s) of freedom`;
      if (sim.drivers.some((d) => d.block instanceof PointMotion)) throw new DynamicSensitivityError(`gradients: ${names} move the mates, ${left}, and a point motion's second start solve places it: not supported (give them in "state")`);
      if (!filePoseKept) throw new DynamicSensitivityError(`gradients: ${names} move the mates, ${left}, and the file's pose does not satisfy them (the start solve moved it, along a path its derivative would depend on): give those coordinates in "state", or a pose that satisfies the mates`);
      const k = ma + placed.length, S = new Float64Array(k * n);
      startRows.forEach((r, kk) => S.set(J.subarray(r * n, (r + 1) * n), kk * n));
      placed.forEach((c, kk) => { S[(ma + kk) * n + c] = 1; });
      try { return new MinimumNormStart(S, k, n, startSolveMetric(system, it.layout, n)); } catch {
        throw new DynamicSensitivityError(`gradients: ${names} move the mates, but the start's rows and the file's coordinates are dependent (singular start solve)`);
      }
    }
    // the independent rows (the start's active set) and the held coordinates
    const S = new Float64Array(n * n);
    startRows.forEach((r, k) => S.set(J.subarray(r * n, (r + 1) * n), k * n));
    placed.forEach((c, k) => { S[(ma + k) * n + c] = 1; });
    const f = new LU(n);
    if (!f.factor(S, n, 1e-13)) throw new DynamicSensitivityError(`gradients: ${names} move the mates, but the start pose is not fixed by them and the file's coordinates (singular start solve)`);
    return f;
  }

  const { alphaM: am, gamma, beta, c1, alphaF: af } = it.coefficients();
  /**
   * The exact step matrix at the step's end (current system state, v, λ, time t), its Lie
   * step y: J_r(y), Ad(exp(−y)), J, H, K, C, ∂g/∂v, and A factored in `lu` (dynamic rows
   * divided by β', like the integrator's).
   */
  const linearise = (h: number, y: Float64Array, v: Float64Array, vdot: Float64Array, lambda: Float64Array, t: number) => {
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta);
    // block-diagonal J_r(y) and Ad(exp(−y))
    Jr.fill(0); Ad.fill(0);
    for (const vr of system.variables) {
      const c0 = it.layout[vr.id];
      if (c0 < 0) continue;
      if (vr.kind !== 'pose') { Jr[c0 * n + c0] = 1; Ad[c0 * n + c0] = 1; continue; }
      if (pm) continue; // the product retraction's maps, below
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
    if (pm) pm.stepMaps(system.state, y, Ad, Jr);
    // the Jacobians at the new state
    rowsAndCurvature(lambda);
    forces.assemble(v, t, Q, K, C);
    gyroJacobian(v);
    // H − K and ∂g/∂v − C, kept for the right-hand sides (on R³ × SO(3) with the velocity map's terms: product-step.ts)
    for (let i = 0; i < n * n; i++) { H[i] -= K[i]; Gv[i] -= C[i]; }
    A.fill(0);
    if (pm) {
      pm.at(system.state, v, vdot);
      pm.effective(H, Gv);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * N + j] = pm.Meta[i * n + j];
    } else addMass(A, N, 1);
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
    dropInactive(A, N);
    if (!lu.factor(A, N, 1e-15)) throw new DynamicSensitivityError(`gradients: the step matrix at t = ${t} s is singular`);
  };
  const HK = H, GC = Gv; // after linearise: H − K and ∂g/∂v − C

  /** The Lie step y = h v_n + h² c1 a_n + h² β a_{n+1} of the step just taken (the corrections included). */
  const lieStep = (y: Float64Array, h: number) => {
    if (pm) { pm.lieStep(y, h, system.state, it.v, it.vdot, it.coefficients()); return; }
    const start = it.stepStart();
    for (let i = 0; i < n; i++) y[i] = h * (start.v[i] + h * c1 * start.a[i] + h * beta * it.a[i]);
  };

  /**
   * The start's curvature terms when hardpoints move it (at rest: v = 0): J, H − K at λ₀ and
   * Wq = ∂(J v̇₀)/∂q, then the acceleration matrix factored.
   */
  const startCurvature = (v: Float64Array, vdot: Float64Array, lambda: Float64Array, t: number, moving = false) => {
    rowsAndCurvature(lambda, vdot);
    forces.assemble(v, t, Q, K, C);
    for (let i = 0; i < n * n; i++) H[i] -= K[i];
    // a moving start's v₀' enters the acceleration rows through ∂g/∂v − C
    if (moving) { gyroJacobian(v); for (let i = 0; i < n * n; i++) Gv[i] -= C[i]; }
    factorStart();
  };
  /**
   * A moving start's velocity map (sensitivity-start.ts) at the start state (before
   * startCurvature, which reuses H and Wq); null when nothing moves the start or the start is at rest.
   */
  const startVelocityAt = (v: Float64Array): StartVelocity | null => {
    if ((!startLU && !startQ) || v.every((x) => x === 0)) return null;
    const { W, vhat, Vhat } = startMetric(dyn, it.layout, n);
    rowsAndCurvature(null);
    const sv0 = new StartVelocity(n, m, Float64Array.from(J), W, vhat, v, Vhat);
    rowsAndCurvature(sv0.e, v);
    sv0.curvature(H, Wq!);
    return sv0;
  };
  const jpA = new Float64Array(n), jpB = new Float64Array(n);
  /** (∂Jᵀ/∂p)e of hardpoint k into `out`: evaluate's dynamic rows with e as the multipliers, less its force terms. */
  const hardpointJTe = (k: number, e: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    jpA.fill(0); jpB.fill(0);
    hp!.evaluate(k, e, v, t, jpA, null, null, null);
    hp!.evaluate(k, null, v, t, jpB, null, null, null);
    for (let i = 0; i < n; i++) out[i] = jpA[i] - jpB[i];
  };
  /** (∂J/∂p)w of hardpoint k into `out` (rows). */
  const hardpointJw = (k: number, w: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    out.fill(0);
    hp!.evaluate(k, null, v, t, null, null, w, out);
  };
  const zeroN = new Float64Array(n);
  /**
   * (∂Jᵀ/∂p_j)e and (∂J/∂p_j)w of any parameter (zero unless it moves rows: a hardpoint, or a combined
   * parameter's through its hardpoints): rowsOf with e as the multipliers, less its λ-free terms.
   */
  const paramJTe = (j: number, e: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    if (hpOf[j] >= 0) { hardpointJTe(hpOf[j], e, v, t, out); return; }
    out.fill(0);
    if (!combos[j]) return;
    jpA.fill(0); jpB.fill(0);
    rowsOf(j, e, v, zeroN, t, jpA, null, null);
    rowsOf(j, null, v, zeroN, t, jpB, null, null);
    for (let i = 0; i < n; i++) out[i] = jpA[i] - jpB[i];
  };
  const paramJw = (j: number, w: Float64Array, v: Float64Array, t: number, out: Float64Array) => {
    if (hpOf[j] >= 0) { hardpointJw(hpOf[j], w, v, t, out); return; }
    out.fill(0);
    if (!combos[j]) return;
    jpA.fill(0);
    rowsOf(j, null, v, w, t, jpA, null, out);
  };
  const conW = new Float64Array(m), phiP = new Float64Array(m), q0 = new Float64Array(n);
  const startS = new Float64Array(n), startJpe = new Float64Array(n), startJpv = new Float64Array(m);
  /**
   * Parameter j's start tangents into q0 and v0p: q₀' (a settled start's, or the file's start solve's −S⁻¹[Φ_p; 0] with
   * `phi` its Φ_p) and v₀', the projection's tangent (sensitivity-start.ts). Both routes take them from here, one forward
   * solve per parameter at one state: the projection weighs given rates 1e10 times the rest, and its tangent and its
   * transpose part by up to 1e-8 of an entry where that matters (a part's pose velocity given), the same solves by none.
   */
  const startColumns = (j: number, sv0: StartVelocity | null, phi: Float64Array, v: Float64Array, t: number, q0: Float64Array, v0p: Float64Array) => {
    const k = hpOf[j];
    q0.fill(0);
    if (startQ) q0.set(startQ[j]);
    else if (k >= 0 && startLU && hp!.movesRows(k)) {
      startS.fill(0);
      startRows.forEach((r, kk) => { startS[kk] = -phi[r]; });
      startLU.solve(startS);
      q0.set(startS);
    }
    v0p.fill(0);
    // a settled start moves with every parameter (q₀'), a file's start only with the hardpoints on its rows
    if (sv0 && (startQ !== null || (k >= 0 && hp!.movesRows(k)))) {
      paramJTe(j, sv0.e, v, t, startJpe);
      paramJw(j, v, v, t, startJpv);
      sv0.tangent(q0, startJpe, startJpv, v0p);
    }
  };

  /**
   * q₀' per parameter when the start is not the file's: 'fixed' none (Φ_p must then vanish
   * there); 'equilibrium' the static balance −Q(q, 0) + Jᵀλ = 0, Φ = 0 differentiated,
   * [H − K, Jᵀ; J, 0][q₀'; λ'] = −[∂/∂p of the balance; Φ_p] (the step's own H and K at rest).
   */
  function startTangents(): Float64Array[] {
    const out = parameters.map(() => new Float64Array(n)), zero = new Float64Array(n);
    // the balance's multipliers: λ₀ of a start at rest; a start already moving (or accelerating: a motion's rate or
    // acceleration at t = 0) has dynamic ones, so the static ones are solved: [M Jᵀ; J 0][v̇; λ] = [Q(q, 0); 0], v̇ = 0 there
    let lamEq = activeLambda();
    if (startMode === 'equilibrium' && (it.v.some((x) => x !== 0) || it.drivers.some((d) => d.acceleration() !== 0))) {
      factorStart();
      forces.assemble(zero, it.t, Q, null, null);
      rhs.fill(0);
      for (let i = 0; i < n; i++) rhs[i] = Q[i];
      lu.solve(rhs);
      lamEq = Float64Array.from(rhs.subarray(n));
      maskRows(lamEq);
    }
    rowsAndCurvature(lamEq);
    forces.assemble(zero, it.t, Q, K, C);
    A.fill(0);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) A[i * N + j] = H[i * n + j] - K[i * n + j];
    for (let r = 0; r < m; r++) for (let c = 0; c < n; c++) { A[(n + r) * N + c] = J[r * n + c]; A[c * N + n + r] = J[r * n + c]; }
    dropInactive(A, N);
    const f = new LU(N);
    if (startMode === 'equilibrium' && !f.factor(A, N, 1e-13)) throw new DynamicSensitivityError('gradients: the start equilibrium is not isolated (its tangent stiffness is singular)');
    for (let j = 0; j < P; j++) {
      rp.fill(0); phiP.fill(0);
      rowsOf(j, lamEq, zero, zero, it.t, rp, phiP, null);
      maskRows(phiP);
      if (startMode === 'fixed') {
        const worst = Math.max(0, ...phiP.map(Math.abs));
        if (worst > 1e-9) throw new DynamicSensitivityError(`gradients: "${parameterName(parameters[j])}" moves the constraints at the start (|Φ_p| = ${worst.toExponential(2)}), which a fixed start cannot follow`);
        continue;
      }
      for (let i = 0; i < n; i++) rhs[i] = -rp[i];
      for (let r = 0; r < m; r++) rhs[n + r] = -phiP[r];
      f.solve(rhs);
      out[j].set(rhs.subarray(0, n));
    }
    return out;
  }

  // ---- direct: the columns s = (q', v', v̇', a') carried through each step ----
  const sq = new Float64Array(n * P), sv = new Float64Array(n * P), svd = new Float64Array(n * P), sa = new Float64Array(n * P);
  const y = new Float64Array(n), bq = new Float64Array(n * P), bv = new Float64Array(n * P), aPred = new Float64Array(n * P), tmp = new Float64Array(n);
  const stored: StoredStep[] = [];
  const store = (h: number, yy: Float64Array | null) => {
    stored.push({ h, t: it.t, state: Float64Array.from(system.state), v: Float64Array.from(it.v), vdot: Float64Array.from(it.vdot), lambda: Float64Array.from(activeLambda()), y: yy ? Float64Array.from(yy) : new Float64Array(n), active: Uint8Array.from(rowOn) });
  };
  const startQ = startMode === 'file' ? null : startTangents();
  if (mode === 'direct' && !curved) {
    // the start: [M Jᵀ; J 0][v̇'; λ'] = [−R_p; 0]
    factorStart();
    for (let j = 0; j < P; j++) {
      rp.fill(0);
      terms[j](rp, it.v, it.vdot, it.t, activeLambda(), null);
      rhs.fill(0);
      for (let i = 0; i < n; i++) rhs[i] = -rp[i];
      lu.solve(rhs);
      for (let i = 0; i < n; i++) { svd[i * P + j] = rhs[i]; sa[i * P + j] = rhs[i]; }
      for (const tr of trackers) if (tr.lambdaRow >= 0) tr.lamP[j] = rhs[n + tr.lambdaRow];
      if (lamAll) for (let r = 0; r < m; r++) lamAll[r * P + j] = rhs[n + r];
    }
  } else if (mode === 'direct') {
    // q₀' = −S⁻¹[Φ_p; 0]; v₀' by the projection's derivative (sensitivity-start.ts);
    // [M Jᵀ; J 0][v̇₀'; λ₀'] = [−(R_p + (H − K)q₀' + (∂g/∂v − C)v₀'); −(Wq q₀' + (∂J/∂p)v̇₀)]
    const sv0 = startVelocityAt(it.v);
    startCurvature(it.v, it.vdot, activeLambda(), it.t, sv0 !== null);
    const v0p = new Float64Array(n);
    for (let j = 0; j < P; j++) {
      conW.fill(0); rp.fill(0); phiP.fill(0);
      rowsOf(j, activeLambda(), it.v, it.vdot, it.t, rp, phiP, conW);
      maskRows(phiP); maskRows(conW);
      startColumns(j, sv0, phiP, it.v, it.t, q0, v0p);
      for (let i = 0; i < n; i++) {
        let s = rp[i];
        for (let l = 0; l < n; l++) s += HK[i * n + l] * q0[l];
        if (sv0) for (let l = 0; l < n; l++) s += GC[i * n + l] * v0p[l];
        rhs[i] = -s;
      }
      for (let r = 0; r < m; r++) {
        let s = conW[r];
        for (let l = 0; l < n; l++) s += Wq![r * n + l] * q0[l];
        rhs[n + r] = -s;
      }
      lu.solve(rhs);
      for (let i = 0; i < n; i++) { sq[i * P + j] = q0[i]; sv[i * P + j] = v0p[i]; svd[i * P + j] = rhs[i]; sa[i * P + j] = rhs[i]; }
      for (const tr of trackers) if (tr.lambdaRow >= 0) tr.lamP[j] = rhs[n + tr.lambdaRow];
      if (lamAll) for (let r = 0; r < m; r++) lamAll[r * P + j] = rhs[n + r];
    }
  } else store(0, null);
  // on R³ × SO(3) the columns carry (δ, η', η̇', a') from here on (the scheme's own variables); svB the body twists'
  // v' = P η' + Vq δ, what the results read (product-step.ts)
  const svB = pm ? new Float64Array(n * P) : sv;
  if (pm) {
    pm.start(system.state, it.v, it.vdot);
    if (mode === 'direct') {
      svB.set(sv);
      pm.at(system.state, it.v, it.vdot);
      // η' = Pᵀ(v' − Vq δ), η̇' = Pᵀ(v̇' − Wq δ − Wη η'), a' = η̇'
      const c = new Float64Array(n * P);
      c.set(sv); pm.addColumns(c, P, pm.Vq, sq, P, P, -1);
      sv.fill(0); pm.addColumns(sv, P, pm.P, c, P, P, 1, true);
      c.set(svd); pm.addColumns(c, P, pm.Wq, sq, P, P, -1); pm.addColumns(c, P, pm.We, sv, P, P, -1);
      svd.fill(0); pm.addColumns(svd, P, pm.P, c, P, P, 1, true);
      sa.set(svd);
    }
  }

  it.onStep = (h) => {
    lieStep(y, h);
    if (mode === 'adjoint') { useActive(it.activeRows()); store(h, y); observe(); return; }
    const v = it.v, vdot = it.vdot;
    const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta), aP = 1 / (h * h * beta);
    useActive(it.activeRows());
    const lambda = activeLambda();
    linearise(h, y, v, vdot, lambda, it.t);
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
      if (curved) rc.fill(0);
      terms[j](rp, v, vdot, it.t, lambda, rc);
      if (curved) maskRows(rc);
      if (pm) { tmp.fill(0); pm.addColumns(tmp, 1, pm.Meta, svd.subarray(j), P, 1); } else massTimes(tmp, svd, j, P);
      for (let i = 0; i < n; i++) {
        let s = tmp[i] + rp[i];
        for (let k = 0; k < n; k++) s += GC[i * n + k] * bv[k * P + j] + HK[i * n + k] * bq[k * P + j];
        rhs[i] = -s / betaP;
      }
      for (let r = 0; r < m; r++) {
        let s = curved ? rc[r] : 0;
        for (let k = 0; k < n; k++) s += J[r * n + k] * bq[k * P + j];
        rhs[n + r] = -s;
      }
      lu.solve(rhs);
      // the λ columns hold λ'/β' (the dynamic rows are divided by β')
      for (const tr of trackers) if (tr.lambdaRow >= 0) tr.lamP[j] = betaP * rhs[n + tr.lambdaRow];
      if (lamAll) for (let r = 0; r < m; r++) lamAll[r * P + j] = betaP * rhs[n + r];
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
    if (pm) { svB.fill(0); pm.addColumns(svB, P, pm.P, sv, P, P); pm.addColumns(svB, P, pm.Vq, sq, P, P); }
    observe();
  };

  // a result and its derivative at the current state
  const Rr = new Float64Array(9);
  const cross = (x: ArrayLike<number>, y: ArrayLike<number>) => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  /** The result's own dependence on parameter j at the current state (its point is the hardpoint): R e_c, or R(ω × e_c). */
  const explicit = (tr: Tracker, j: number, v: Float64Array): number => (tr.tension ? tr.tension.explicit(j) // at its last evaluation, this state's
    : tr.explicitAxis[j].reduce((s, { axis, w }) => s + w * explicitOne(tr, axis, v), 0));
  const explicitOne = (tr: Tracker, c: number, v: Float64Array): number => {
    rotationMatrix(Rr, system.state, tr.rv.offset + 3);
    const a = tr.result.axis, e = [0, 0, 0];
    e[c] = 1;
    if (tr.result.quantity === 'position') return Rr[a * 3 + c];
    if (tr.rc0 < 0) return 0;
    const x = cross([v[tr.rc0], v[tr.rc0 + 1], v[tr.rc0 + 2]], e);
    return Rr[a * 3] * x[0] + Rr[a * 3 + 1] * x[1] + Rr[a * 3 + 2] * x[2];
  };
  const tq = new Float64Array(n), tv = new Float64Array(n);
  const valueAndGradient = (tr: Tracker, g: Float64Array | null): number => {
    if (tr.lambdaRow >= 0) { if (g) g.set(tr.lamP); return it.lambda[tr.lambdaRow]; }
    if (tr.tension) {
      if (tr.reaction) tr.reaction.lambda = it.lambda;
      if (!g) return tr.tension.evaluate(system.state, it.v, null, null, 0, it.t);
      tq.fill(0); tv.fill(0);
      const T = tr.tension.evaluate(system.state, it.v, tq, tv, 1, it.t);
      for (let j = 0; j < P; j++) {
        let d = tr.tension.explicit(j);
        for (let i = 0; i < n; i++) d += tq[i] * sq[i * P + j] + tv[i] * svB[i * P + j];
        if (tr.reaction) { const lw = tr.reaction.lambdaWeights; for (let r = 0; r < m; r++) d += lw[r] * lamAll![r * P + j]; }
        g[j] = d;
      }
      return T;
    }
    const { result, rv, rc0 } = tr, a = result.axis, r = Rr;
    if (rv.kind !== 'pose') throw new DynamicSensitivityError(`result: "${result.part}" is not a part`);
    rotationMatrix(r, system.state, rv.offset + 3);
    const lp = tr.local;
    // body-frame ω and the point's body-frame velocity u = ω × p + v
    const w = rc0 >= 0 ? [it.v[rc0], it.v[rc0 + 1], it.v[rc0 + 2]] : [0, 0, 0];
    const u = rc0 >= 0 ? [w[1] * lp[2] - w[2] * lp[1] + it.v[rc0 + 3], w[2] * lp[0] - w[0] * lp[2] + it.v[rc0 + 4], w[0] * lp[1] - w[1] * lp[0] + it.v[rc0 + 5]] : [0, 0, 0];
    const rowOf = (x: number[]) => r[a * 3] * x[0] + r[a * 3 + 1] * x[1] + r[a * 3 + 2] * x[2];
    if (g) for (let j = 0; j < P; j++) {
      if (rc0 < 0) { g[j] = 0; } else {
        const s = (i: number, arr: Float64Array) => arr[(rc0 + i) * P + j];
        const dw = [s(0, sq), s(1, sq), s(2, sq)], dv = [s(3, sq), s(4, sq), s(5, sq)];
        if (result.quantity === 'position') {
          // x = t + R p: dx = R(δv + δω × p)
          const c = cross(dw, lp);
          g[j] = rowOf([dv[0] + c[0], dv[1] + c[1], dv[2] + c[2]]);
        } else {
          // ẋ = R u: d = R(δω × u + dω' × p + dv'), with (dω', dv') the velocity's sensitivity
          const c1 = cross(dw, u), c2 = cross([s(0, svB), s(1, svB), s(2, svB)], lp);
          g[j] = rowOf([c1[0] + c2[0] + s(3, svB), c1[1] + c2[1] + s(4, svB), c1[2] + c2[2] + s(5, svB)]);
        }
      }
      if (tr.explicitAxis[j].length) { g[j] += explicit(tr, j, it.v); rotationMatrix(r, system.state, rv.offset + 3); }
    }
    if (result.quantity === 'velocity') return rowOf(u);
    return system.state[rv.offset + a] + rowOf(lp);
  };
  /** The result's cotangent at the current state with velocities v: adds w·∂x/∂(q, v) into (cq, cv) (q perturbed on the right). */
  const addResultCotangent = (tr: Tracker, cq: Float64Array, cv: Float64Array, v: Float64Array, w: number, t: number) => {
    if (tr.tension) { tr.tension.evaluate(system.state, v, cq, cv, w, t); return; }
    const { rc0 } = tr;
    if (rc0 < 0 || w === 0) return;
    rotationMatrix(Rr, system.state, tr.rv.offset + 3);
    const a = tr.result.axis, ra = [Rr[a * 3], Rr[a * 3 + 1], Rr[a * 3 + 2]], lp = tr.local;
    const pr = cross(lp, ra); // (δω × p)·r_a = δω·(p × r_a)
    if (tr.result.quantity === 'position') {
      for (let i = 0; i < 3; i++) { cq[rc0 + i] += w * pr[i]; cq[rc0 + 3 + i] += w * ra[i]; }
      return;
    }
    const u = [v[rc0 + 1] * lp[2] - v[rc0 + 2] * lp[1] + v[rc0 + 3], v[rc0 + 2] * lp[0] - v[rc0] * lp[2] + v[rc0 + 4], v[rc0] * lp[1] - v[rc0 + 1] * lp[0] + v[rc0 + 5]];
    const ur = cross(u, ra);
    for (let i = 0; i < 3; i++) { cq[rc0 + i] += w * ur[i]; cv[rc0 + i] += w * pr[i]; cv[rc0 + 3 + i] += w * ra[i]; }
  };
  const cqB = new Float64Array(n), cvB = new Float64Array(n);
  /**
   * A result's cotangent at a stored step's end into (mq, mv): on SE(3) the body (q, v) ones; on R³ × SO(3) those of
   * (δ, η) through v = P η + Vq δ (pm.at at that state first).
   */
  const addStepCotangent = (tr: Tracker, mq: Float64Array, mv: Float64Array, v: Float64Array, w: number, t: number) => {
    if (!pm) { addResultCotangent(tr, mq, mv, v, w, t); return; }
    cqB.fill(0); cvB.fill(0);
    addResultCotangent(tr, cqB, cvB, v, w, t);
    for (let i = 0; i < n; i++) mq[i] += cqB[i];
    pm.addColumns(mq, 1, pm.Vq, cvB, 1, 1, 1, true);
    pm.addColumns(mv, 1, pm.P, cvB, 1, 1, 1, true);
  };
  /**
   * On R³ × SO(3): the start's cotangents of (δ, η, η̇, a) as those of the body (δ, v, v̇) the start's own
   * equations speak (η = Pᵀ(v − Vq δ), η̇ = a = Pᵀ(v̇ − Wq δ − Wη η)), in place (a's into v̇'s).
   */
  const startCotangentsToBody = (mq: Float64Array, mv: Float64Array, mvd: Float64Array, ma: Float64Array) => {
    const pmu = new Float64Array(n), e = new Float64Array(n);
    for (let i = 0; i < n; i++) ma[i] += mvd[i];
    pm!.addColumns(pmu, 1, pm!.P, ma, 1, 1);
    e.set(mv);
    pm!.addColumns(e, 1, pm!.We, pmu, 1, 1, -1, true);
    mv.fill(0);
    pm!.addColumns(mv, 1, pm!.P, e, 1, 1);
    pm!.addColumns(mq, 1, pm!.Wq, pmu, 1, 1, -1, true);
    pm!.addColumns(mq, 1, pm!.Vq, mv, 1, 1, -1, true);
    mvd.set(pmu); ma.fill(0);
  };
  let stepCount = 0;
  const observe = () => {
    const k = stepCount++;
    const direct = mode === 'direct';
    for (const tr of trackers) {
      const result = tr.result;
      if (result.at === 'final') continue;
      if (result.at === 'crossing') {
        if (!Number.isNaN(tr.crossT)) continue;
        const X = result.level!, x = valueAndGradient(tr, direct ? tr.curG : null);
        if (!Number.isNaN(tr.prevX) && (tr.prevX - X) * (x - X) <= 0 && x !== tr.prevX) {
          // T = t_n + h (X − x_n)/(x_{n+1} − x_n), differentiated as it stands
          const h = it.t - tr.prevT, D = x - tr.prevX, f = (X - tr.prevX) / D, prevX = tr.prevX;
          tr.crossT = tr.prevT + h * f;
          tr.crossStep = k; tr.crossPrev = (h * (X - prevX - D)) / (D * D); tr.crossCur = (-h * (X - prevX)) / (D * D);
          if (direct) for (let j = 0; j < P; j++) tr.grad[j] = h * (-tr.prevG[j] * D - (X - prevX) * (tr.curG[j] - tr.prevG[j])) / (D * D);
        }
        tr.prevX = x; tr.prevT = it.t; if (direct) tr.prevG.set(tr.curG);
        continue;
      }
      const x = tr.sign * valueAndGradient(tr, null);
      if (x > tr.best) { tr.best = x; tr.bestT = it.t; tr.bestStep = k; if (direct) valueAndGradient(tr, tr.grad); }
    }
  };
  observe();
  const steps = Math.max(1, Math.round(duration / step));
  const onProgress = options.onProgress;
  if (onProgress) {
    // the forward pass's progress through the same hook (a halved step reports at its second half)
    const core = it.onStep;
    it.onStep = (h) => { core!(h); onProgress('forward', Math.min(steps, Math.floor(it.t / step + 1e-6)), steps); };
  }
  const onlyCrossings = trackers.every((tr) => tr.result.at === 'crossing');
  let done = 0;
  // simulate's clock: t_k = k·h, the last step ending exactly at the duration
  const lastStep = finalStep(duration, step, steps);
  for (let k = 1; k <= steps; k++) {
    if (!it.step(k === steps ? lastStep : step, k === steps ? duration : k * step)) throw new DynamicSensitivityError(`gradients: the step at t = ${it.t} s did not converge`);
    done = k;
    if (onlyCrossings && trackers.every((tr) => !Number.isNaN(tr.crossT))) break; // nothing later matters to a crossing time
  }
  it.onStep = null;
  const out: DynamicGradient[] = trackers.map((tr) => {
    const result = tr.result;
    if (result.at === 'crossing' && Number.isNaN(tr.crossT)) throw new DynamicSensitivityError(`result: ${result.part}${result.point ? `.${result.point}` : ''} does not reach ${result.level} in ${duration} s`);
    let value: number, t: number;
    if (result.at === 'crossing') { value = tr.crossT; t = tr.crossT; } else if (result.at === 'final') {
      value = valueAndGradient(tr, mode === 'direct' ? tr.grad : null); t = it.t;
    } else { value = tr.sign * tr.best; t = tr.bestT; }
    return { value, t, gradient: [], steps: done, ...(result.at === 'crossing' ? { perLevel: -(tr.crossPrev + tr.crossCur) } : {}) };
  });
  if (mode === 'adjoint') {
    // each result's weight on each stored step's state
    const weights = trackers.map((tr) => {
      const w = new Map<number, number>();
      if (tr.result.at === 'final') w.set(stored.length - 1, 1);
      else if (tr.result.at === 'crossing') { w.set(tr.crossStep - 1, tr.crossPrev); w.set(tr.crossStep, tr.crossCur); } else w.set(tr.bestStep, tr.sign * tr.sign);
      return w;
    });
    adjointSweep(weights);
  }
  trackers.forEach((tr, r) => { out[r].gradient = [...tr.grad]; });
  return { steps: done, results: out };

  /** Restore a stored step's end state (positions and the drivers' time). */
  function restoreStep(s: StoredStep) {
    system.state.set(s.state);
    rowOn.set(s.active);
    for (const d of it.drivers) d.setTime(s.t);
  }

  /**
   * One backward sweep for every result at once: each result's cotangent μ = (μq, μv, μv̇, μa)
   * of each step's end, from its last touched step down to the start; each step's matrix is
   * rebuilt and factored once and solved transposed once per result, and each parameter needs
   * only its ∂R/∂p (and a hardpoint's Φ_p) dotted with those solves.
   */
  function adjointSweep(weights: Map<number, number>[]) {
    const vec = () => trackers.map(() => new Float64Array(n));
    const mq = vec(), mv = vec(), mvd = vec(), ma = vec();
    const bqb = new Float64Array(n), bvb = new Float64Array(n), tqb = new Float64Array(n), rdyn = new Float64Array(n), rcon = new Float64Array(m), Mr = new Float64Array(n);
    const lasts = weights.map((w) => Math.max(...w.keys()));
    const last = Math.max(...lasts);
    // ∂R/∂p_j (rows n) and Φ_p (rows m) of every parameter at one stored state, evaluated once per step
    const rpAll = new Float64Array(P * n), rcAll = new Float64Array(P * m);
    const parameterRows = (s: StoredStep) => {
      rpAll.fill(0); rcAll.fill(0);
      for (let j = 0; j < P; j++) terms[j](rpAll.subarray(j * n, (j + 1) * n), s.v, s.vdot, s.t, s.lambda, curved ? rcAll.subarray(j * m, (j + 1) * m) : null);
    };
    const addParameters = (g: Float64Array, scale: number) => {
      // grad_j += (scale · r̄_dyn) · ∂R/∂p_j − r̄_con · Φ_p
      for (let j = 0; j < P; j++) {
        let d = 0, e = 0;
        for (let i = 0; i < n; i++) d += rdyn[i] * rpAll[j * n + i];
        if (curved) for (let r = 0; r < m; r++) e += rcon[r] * rcAll[j * m + r];
        g[j] += scale * d - e;
      }
    };
    for (const tr of trackers) tr.grad.fill(0);
    for (let k = last; k >= 1; k--) {
      const s = stored[k], h = s.h;
      restoreStep(s);
      if (pm) pm.at(system.state, s.v, s.vdot);
      options.onProgress?.('backward', last - k + 1, last);
      trackers.forEach((tr, r) => {
        const w = weights[r].get(k);
        if (w === undefined) return;
        if (tr.reaction) tr.reaction.lambda = s.lambda;
        addStepCotangent(tr, mq[r], mv[r], s.v, w, s.t);
        if (tr.lambdaRow >= 0) tr.lamCot += w;
        if (tr.reaction) { const lw = tr.reaction.lambdaWeights; for (let rr = 0; rr < m; rr++) tr.lamCots![rr] += w * lw[rr]; }
        for (let j = 0; j < P; j++) if (tr.explicitAxis[j].length) tr.grad[j] += w * explicit(tr, j, s.v);
      });
      const betaP = (1 - am) / (h * h * beta * (1 - af)), gammaP = gamma / (h * beta), aP = 1 / (h * h * beta);
      linearise(h, s.y, s.v, s.vdot, s.lambda, s.t);
      parameterRows(s);
      trackers.forEach((tr, r) => {
        if (k > lasts[r]) return;
        const q = mq[r], vv = mv[r], vd = mvd[r], aa = ma[r];
        // dD̄ = J_rᵀ μq + γ' μv + β' μv̇ + a' μa; [r̄_dyn; r̄_con] = A⁻ᵀ [dD̄; 0]
        for (let i = 0; i < n; i++) {
          let x = gammaP * vv[i] + betaP * vd[i] + aP * aa[i];
          for (let l = 0; l < n; l++) x += Jr[l * n + i] * q[l];
          rhs[i] = x;
        }
        for (let rr = 0; rr < m; rr++) rhs[n + rr] = 0;
        // a multiplier result: the cotangent of the λ unknowns (λ'/β')
        if (tr.lambdaRow >= 0) { rhs[n + tr.lambdaRow] = betaP * tr.lamCot; tr.lamCot = 0; }
        if (tr.lamCots) { for (let rr = 0; rr < m; rr++) rhs[n + rr] = betaP * tr.lamCots[rr]; tr.lamCots.fill(0); }
        lu.solveTransposed(rhs);
        for (let i = 0; i < n; i++) rdyn[i] = rhs[i];
        for (let rr = 0; rr < m; rr++) rcon[rr] = rhs[n + rr];
        // r_dyn = −(M v̇' + R_p + GC b_v + HK b_q)/β',  r_con = −(J b_q + Φ_p)
        addParameters(tr.grad, -1 / betaP);
        if (pm) { Mr.fill(0); pm.addColumns(Mr, 1, pm.Meta, rdyn, 1, 1, 1, true); } else massTimes(Mr, rdyn, 0, 1);
        for (let i = 0; i < n; i++) {
          let xq = q[i], xv = vv[i];
          for (let l = 0; l < n; l++) { xq -= HK[l * n + i] * rdyn[l] / betaP; xv -= GC[l * n + i] * rdyn[l] / betaP; }
          for (let rr = 0; rr < m; rr++) xq -= J[rr * n + i] * rhs[n + rr];
          bqb[i] = xq; bvb[i] = xv;
        }
        // b_q = Ad q' + J_r t_q,  t_q = h v' + h² c1 a' + h² β â,  b_v = v' + h(1−γ) a' + hγ â,  â = (v̇' − αm a')/(1 − αm)
        for (let i = 0; i < n; i++) {
          let xq = 0, xt = 0;
          for (let l = 0; l < n; l++) { xq += Ad[l * n + i] * bqb[l]; xt += Jr[l * n + i] * bqb[l]; }
          q[i] = xq; tqb[i] = xt;
        }
        for (let i = 0; i < n; i++) {
          const aHat = aa[i] + h * h * beta * tqb[i] + h * gamma * bvb[i];
          vv[i] = h * tqb[i] + bvb[i];
          aa[i] = h * h * c1 * tqb[i] + h * (1 - gamma) * bvb[i] - (am * aHat) / (1 - am);
          vd[i] = vd[i] - Mr[i] / betaP + aHat / (1 - am);
        }
      });
    }
    // the start: v̇₀' = a₀' = first n of [M Jᵀ; J 0]⁻¹[−(R_p + (H − K)q₀'); −(Wq q₀' + (∂J/∂p)v̇₀)], q₀' = −S⁻¹[Φ_p; 0], v₀' = 0
    const s0 = stored[0];
    restoreStep(s0);
    if (pm) {
      pm.at(system.state, s0.v, s0.vdot);
      trackers.forEach((_, r) => startCotangentsToBody(mq[r], mv[r], mvd[r], ma[r]));
    }
    trackers.forEach((tr, r) => {
      const w0 = weights[r].get(0);
      if (w0 === undefined) return;
      if (tr.reaction) tr.reaction.lambda = s0.lambda;
      addResultCotangent(tr, mq[r], mv[r], s0.v, w0, s0.t);
      if (tr.lambdaRow >= 0) tr.lamCot += w0; // zero without hardpoints (q₀' = v₀' = 0), kept for the record
      if (tr.reaction) { const lw = tr.reaction.lambdaWeights; for (let rr = 0; rr < m; rr++) tr.lamCots![rr] += w0 * lw[rr]; }
      for (let j = 0; j < P; j++) if (tr.explicitAxis[j].length) tr.grad[j] += w0 * explicit(tr, j, s0.v);
    });
    const sv0 = startVelocityAt(s0.v);
    if (curved) startCurvature(s0.v, s0.vdot, s0.lambda, s0.t, sv0 !== null); else factorStart();
    rpAll.fill(0);
    // per parameter: ∂R/∂p, Φ_p and (∂J/∂p)v̇₀ at the start
    const phiAll = curved ? new Float64Array(P * m) : null, jpvAll = curved ? new Float64Array(P * m) : null;
    for (let j = 0; j < P; j++) rowsOf(j, s0.lambda, s0.v, s0.vdot, s0.t, rpAll.subarray(j * n, (j + 1) * n), phiAll && phiAll.subarray(j * m, (j + 1) * m), jpvAll && jpvAll.subarray(j * m, (j + 1) * m));
    // a moving start's v₀' per parameter, as the direct route has it (null: none)
    const v0cols = parameters.map((_, j) => {
      if (!sv0 || !(startQ !== null || (hpOf[j] >= 0 && hp!.movesRows(hpOf[j])))) return null;
      const col = new Float64Array(n);
      startColumns(j, sv0, phiAll!.subarray(j * m, (j + 1) * m), s0.v, s0.t, q0, col);
      return col;
    });    trackers.forEach((tr, r) => {
      for (let i = 0; i < n; i++) rhs[i] = mvd[r][i] + ma[r][i];
      for (let rr = 0; rr < m; rr++) rhs[n + rr] = 0;
      if (tr.lambdaRow >= 0) { rhs[n + tr.lambdaRow] = tr.lamCot; tr.lamCot = 0; }
      if (tr.lamCots) { for (let rr = 0; rr < m; rr++) rhs[n + rr] = tr.lamCots[rr]; tr.lamCots.fill(0); }
      lu.solveTransposed(rhs);
      for (let i = 0; i < n; i++) rdyn[i] = rhs[i];
      rcon.fill(0);
      const save = Float64Array.from(rhs.subarray(n));
      addParameters(tr.grad, -1);
      if (!curved) return;
      // (∂J/∂p)v̇₀ on the acceleration rows, then q₀' through the start solve
      for (let j = 0; j < P; j++) { let e = 0; for (let rr = 0; rr < m; rr++) e += save[rr] * jpvAll![j * m + rr]; tr.grad[j] -= e; }
      if (!startLU && !startQ) return;
      const qb = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let x = mq[r][i];
        for (let l = 0; l < n; l++) x -= HK[l * n + i] * rdyn[l];
        for (let rr = 0; rr < m; rr++) x -= Wq![rr * n + i] * save[rr];
        qb[i] = x;
      }
      if (sv0) {
        // v₀': its cotangent mv − (∂g/∂v − C)ᵀ r̄_dyn dotted with each parameter's column (its q₀' dependence inside)
        const cv = Float64Array.from(mv[r]);
        for (let i = 0; i < n; i++) { let x = 0; for (let l = 0; l < n; l++) x += GC[l * n + i] * rdyn[l]; cv[i] -= x; }
        v0cols.forEach((col, j) => { if (col) { let e = 0; for (let i = 0; i < n; i++) e += cv[i] * col[i]; tr.grad[j] += e; } });
      }
      if (startQ) {
        for (let j = 0; j < P; j++) { let e = 0; for (let i = 0; i < n; i++) e += qb[i] * startQ[j][i]; tr.grad[j] += e; }
        return;
      }
      startLU!.solveTransposed(qb);
      for (let j = 0; j < P; j++) {
        if (hpOf[j] < 0 || !hp!.movesRows(hpOf[j])) continue;
        let e = 0;
        startRows.forEach((rr, kk) => { e += qb[kk] * phiAll![j * m + rr]; });
        tr.grad[j] -= e;
      }
    });
  }
}
