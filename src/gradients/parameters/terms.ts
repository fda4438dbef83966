/**
 * ∂R/∂p of a force element's rate (a linear spring's or damper's slope, a coordinate spring's,
 * a friction's force) and of a body's mass, inertia and centre, in closed form: the residual
 * M v̇ + g(v) − Q is affine in each. Any other number of an element goes to coefficients.ts.
 */
import { gyroscopic } from '../../../kernel/mass';
import { rotationMatrix } from '../../../kernel/dual';
import { CoordinateSpringForce, LinearLaw, PointToPointForce } from '../../../mates/forces';
import { CoordinateFrictionForce } from '../../../mates/resistance';
import type { DynamicsModel } from '../../mechanics/build';
import { DynamicSensitivityError } from '../errors';
import { parameterName } from '../names';
import { GradientRefusal } from '../refusal';
import { coefficientTerm } from './coefficients';
import type { CombinedParameter, DynamicParameter, ParameterTerm } from '../types';

/** ∂R/∂p of one parameter (not a hardpoint's, not a combined one's) at the current state. */
export function parameterTerm(dyn: DynamicsModel, layout: Int32Array, param: DynamicParameter): ParameterTerm {
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
