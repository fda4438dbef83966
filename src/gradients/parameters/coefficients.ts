/**
 * A force element's own numbers as parameters of a simulation's gradient (sensitivity.ts;
 * docs/sensitivity.md "Force-element coefficients"): named as the file names the field,
 * `ELEMENT.FIELD`, `ELEMENT.FIELD.x|y|z` (a vector's component), `ELEMENT.FIELD[i]` (row i's
 * ordinate of a table) or `ELEMENT.scale.…` (an applied force's time scale).
 *
 * Each gives ∂Q/∂θ at the state in closed form. Most forces are linear in their number, so
 * the derivative is the same element built with that number 1 and the rest 0 (a "unit"
 * element): a table law is linear in its ordinates with the abscissae fixed (the segment is
 * chosen from the abscissae alone), so row i's derivative is the same table with ordinates
 * e_i — exactly the law's own piecewise-linear basis, held or extended at the ends as the
 * law is. The tyre is not linear in its radius and clamps its force at zero: it is written
 * out here (mirroring mates/forces.ts TyreForce).
 */
import { rotationMatrix } from '../../../kernel/dual';
import { BodyTorque, BushingForce, CoordinateSpringForce, LinearLaw, PointForce, PointToPointForce, TableLaw, TyreForce, type Law } from '../../../mates/forces';
import { SlipTyreForce } from '../../../mates/tyres/slip-force';
import { CoordinateFrictionForce, DragForce } from '../../../mates/resistance';
import type { ForceBlock } from '../../../kernel/forces';
import { DEFAULT_AIR_DENSITY, splitReference, type AssemblyDoc, type ForceDoc } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { GradientRefusal } from '../refusal';
import type { HardpointParameter } from './hardpoints';

/** A number of a force element: `field` as written after the element's name (`stiffness.x`, `curve[3]`, `scale.amplitude`). */
export interface CoefficientParameter { kind: 'coefficient'; element: string; field: string }

/** ∂R/∂θ into `out` (tangent size): R = M v̇ + g − Q, so −∂Q/∂θ. */
type Term = (out: Float64Array, v: Float64Array, vdot: Float64Array, t: number) => void;

/** Every field name some element type offers (offeredFields): a name outside them is no coefficient's. */
const FIELD = new RegExp('^(?:(?:stiffness|damping|length|preload|free|force|regularization|radius|ground|cd|area|density)'
  + '|(?:stiffness|damping|rotational_stiffness|rotational_damping|vector)\\.[xyz]|(?:curve|damping_curve)\\[\\d+\\]'
  + '|scale\\.(?:table\\[\\d+\\]|amplitude|frequency|phase|offset))$');

/** `ELEMENT.FIELD…` as a coefficient, or null when the name has no such shape. */
export function parseCoefficient(name: string): CoefficientParameter | null {
  const dot = name.indexOf('.');
  if (dot <= 0) return null;
  const field = name.slice(dot + 1);
  return FIELD.test(field) ? { kind: 'coefficient', element: name.slice(0, dot), field } : null;
}

const isHardpoint = (p: { kind: string }): p is HardpointParameter => p.kind === 'hardpoint';

/**
 * A short hardpoint name `E.stiffness.x` that names a force element's vector field (no part
 * of that name): the coefficient. Anything else is returned as it was.
 */
export function asCoefficient<P extends { kind: string }>(doc: AssemblyDoc, p: P): P | CoefficientParameter {
  if (!isHardpoint(p)) return p;
  const h = p;
  if (h.group || !doc.forces || !Object.hasOwn(doc.forces, h.part) || Object.hasOwn(doc.parts, h.part)) return p;
  return { kind: 'coefficient', element: h.part, field: `${h.entity}.${'xyz'[h.axis]}` };
}

const xyz = (f: string) => ['x', 'y', 'z'].map((a) => `${f}.${a}`);
const rows = (f: string, table: readonly unknown[] | undefined) => (table ?? []).map((_, i) => `${f}[${i}]`);

/** The fields a gradient may name on one element of the file (what a refusal lists). */
export function offeredFields(element: ForceDoc): string[] {
  const scale = (s: unknown) => {
    if (!s) return [];
    const sc = s as { table?: unknown[] };
    return sc.table ? rows('scale.table', sc.table) : ['scale.amplitude', 'scale.frequency', 'scale.phase', 'scale.offset'];
  };
  const spring = (e: { curve?: readonly unknown[] }) => (e.curve ? rows('curve', e.curve) : ['stiffness', 'length', 'preload']);
  switch (element.type) {
    case 'spring': return spring(element);
    case 'damper': return element.curve ? rows('curve', element.curve) : ['damping'];
    case 'springdamper': return [...spring(element), ...(element.damping_curve ? rows('damping_curve', element.damping_curve) : ['damping'])];
    case 'bushing': return ['stiffness', 'rotational_stiffness', 'damping', 'rotational_damping'].flatMap(xyz);
    case 'coordinate_spring': return ['stiffness', 'free', 'damping'];
    case 'force': case 'torque': return [...xyz('vector'), ...scale(element.scale)];
    case 'tyre': return ['stiffness', 'damping', 'radius', 'ground'];
    case 'drag': return ['cd', 'area', 'density'];
    case 'coordinate_friction': return ['force', 'regularization'];
  }
}

/** A table law with the ordinates e_i (the abscissae of `table`): row i's basis function. */
function basis(table: readonly (readonly [number, number])[], i: number, extend: boolean): TableLaw {
  return new TableLaw(table.map(([x], k) => [x, k === i ? 1 : 0] as const), extend);
}
const indexOf = (field: string) => Number(/\[(\d+)\]$/.exec(field)![1]);
const axisOf = (field: string) => 'xyz'.indexOf(field.slice(-1));

/** ∂Q/∂θ of one file number θ, as ∂R/∂θ = −∂Q/∂θ added into `out`. Throws a message (string) naming the offered fields. */
export function coefficientTerm(dyn: DynamicsModel, p: CoefficientParameter): Term {
  const doc = dyn.model.doc;
  const el = dyn.elements.find((e) => e.id === p.element);
  if (!el) throw new GradientRefusal(`no force element "${p.element}"`);
  const element = doc.forces![p.element];
  const offered = offeredFields(element);
  if (!offered.includes(p.field)) throw new GradientRefusal(`element "${p.element}" (${element.type}) has no parameter "${p.field}" (offered: ${offered.map((f) => `${p.element}.${f}`).join(', ')})`);
  const { forces, system } = dyn, blk = el.block;
  const slots = forces.slotsOf(el.index), offsets = forces.offsetsOf(el.index);
  const lv = new Float64Array(slots.length), lq = new Float64Array(slots.length);
  const gather = (v: Float64Array) => { for (let k = 0; k < slots.length; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]]; };
  /** −factor(t)·Q of a unit element (the same variables and local data). */
  const unitTerm = (unit: ForceBlock, factor: ((t: number) => number) | number = 1): Term => (out, v, _vdot, t) => {
    const f = typeof factor === 'number' ? factor : factor(t);
    if (f === 0) return;
    gather(v);
    unit.evaluate(system.state, offsets, lv, t, lq, null, null);
    for (let k = 0; k < slots.length; k++) if (slots[k] >= 0) out[slots[k]] -= f * lq[k];
  };
  const af = dyn.model.angleFactor, f = p.field;

  if (blk instanceof PointToPointForce) {
    const e = element as { curve?: [number, number][]; damping_curve?: [number, number][]; type: string };
    const p2p = (spring: Law | null, damper: Law | null) => new PointToPointForce(`${blk.owner}'`, blk.vars[0], blk.a, blk.vars[1], blk.b, spring, damper);
    if (f === 'length') return unitTerm(p2p(new LinearLaw(0, 0, -(blk.spring as LinearLaw).slope), null)); // T = k(L − L0) + P
    if (f === 'preload') return unitTerm(p2p(new LinearLaw(0, 0, 1), null));
    if (f === 'stiffness') return unitTerm(p2p(new LinearLaw(1, (blk.spring as LinearLaw).x0, 0), null));
    if (f === 'damping') return unitTerm(p2p(null, new LinearLaw(1, 0, 0)));
    const damperCurve = f.startsWith('damping_curve') || e.type === 'damper';
    const table = f.startsWith('damping_curve') ? e.damping_curve! : e.curve!;
    const law = basis(table, indexOf(f), true);
    return unitTerm(damperCurve ? p2p(null, law) : p2p(law, null));
  }
  if (blk instanceof BushingForce) {
    const e = element as { a: string; b: string };
    const frame = (ref: string) => { const r = splitReference(ref)!; return doc.parts[r.owner].frames![r.name]; };
    const fa = frame(e.a), fb = frame(e.b);
    const vec = (which: string) => { const x = [0, 0, 0]; if (f.startsWith(`${which}.`)) x[axisOf(f)] = which.startsWith('rotational') ? 1 / af : 1; return x; };
    return unitTerm(new BushingForce(`${blk.owner}'`, blk.vars[0], fa.origin, fa.rotation, blk.vars[1], fb.origin, fb.rotation,
      vec('stiffness'), vec('rotational_stiffness'), vec('damping'), vec('rotational_damping')));
  }
  if (blk instanceof CoordinateSpringForce) {
    const k = dyn.model.coordinates.get((element as { coordinate: string }).coordinate)!.kind === 'angle' ? af : 1;
    // the file's numbers per angle unit: the internal rate is 1/k of the file's, the free value k times
    // Q = −k_i (x − k·free) − …: ∂Q/∂free = k_i k, the file's stiffness
    if (f === 'free') return (out) => { if (slots[0] >= 0) out[slots[0]] -= blk.stiffness * k; };
    return unitTerm(f === 'stiffness' ? new CoordinateSpringForce(`${blk.owner}'`, blk.vars[0], 1 / k, blk.free, 0) : new CoordinateSpringForce(`${blk.owner}'`, blk.vars[0], 0, blk.free, 1 / k));
  }
  if (blk instanceof CoordinateFrictionForce) {
    if (f === 'force') return unitTerm(new CoordinateFrictionForce(`${blk.owner}'`, blk.vars[0], 1, blk.regularization));
    // Q = −F tanh(u̇/ε_i), ε_i = k ε: ∂Q/∂ε = F (1 − tanh²) u̇ k/ε_i²
    const k = blk.regularization / ((element as { regularization?: number }).regularization ?? 1);
    return (out, v) => {
      if (slots[0] < 0) return;
      const u = v[slots[0]], eps = blk.regularization, th = Math.tanh(u / eps);
      out[slots[0]] -= (blk.force * (1 - th * th) * u * k) / (eps * eps);
    };
  }
  if (blk instanceof DragForce) {
    // k = ½ ρ C_d A (ρ in t/mm³): linear in each
    const e = element as { cd: number; area: number; density?: number };
    const rho = e.density ?? DEFAULT_AIR_DENSITY, c = 0.5 * 1e-12;
    const factor = f === 'cd' ? c * rho * e.area : f === 'area' ? c * rho * e.cd : c * e.cd * e.area;
    return unitTerm(new DragForce(`${blk.owner}'`, blk.vars[0], blk.at, 1), factor);
  }
  if (blk instanceof PointForce || blk instanceof BodyTorque) {
    const make = (vector: ArrayLike<number>, scale: Law | null) => (blk instanceof PointForce
      ? new PointForce(`${blk.owner}'`, blk.vars[0], blk.at, vector, blk.inBodyAxes, scale)
      : new BodyTorque(`${blk.owner}'`, blk.vars[0], vector, blk.inBodyAxes, scale));
    if (f.startsWith('vector.')) { const x = [0, 0, 0]; x[axisOf(f)] = 1; return unitTerm(make(x, blk.scale)); }
    // the scale s(t) multiplies the vector: ∂Q/∂θ = (∂s/∂θ)(t) Q(vector, s = 1)
    const sc = (element as { scale: { table?: [number, number][]; sine?: { amplitude: number; frequency: number; phase?: number } } }).scale;
    const out2 = new Float64Array(2);
    let ds: (t: number) => number;
    if (sc.table) { const law = basis(sc.table, indexOf(f), false); ds = (t) => law.evaluate(t, out2)[0]; } else {
      const { amplitude: A, frequency: fr } = sc.sine!, ph = ((sc.sine!.phase ?? 0) * Math.PI) / 180, w = 2 * Math.PI * fr;
      ds = f === 'scale.amplitude' ? (t) => Math.sin(w * t + ph) : f === 'scale.offset' ? () => 1
        : f === 'scale.frequency' ? (t) => A * 2 * Math.PI * t * Math.cos(w * t + ph) : (t) => ((A * Math.PI) / 180) * Math.cos(w * t + ph);
    }
    return unitTerm(make(blk.vector, null), ds);
  }
  // a slipping tyre's load also moves its side and drive forces, which tyreTerm does not follow
  if (blk instanceof SlipTyreForce) throw new GradientRefusal(`element "${p.element}" is a slipping tyre: its numbers are not parameters yet`);
  if (blk instanceof TyreForce) return tyreTerm(dyn, blk, f, slots, offsets);
  throw new GradientRefusal(`element "${p.element}" (${element.type}): its numbers are not parameters`);
}

const cross = (a: ArrayLike<number>, b: ArrayLike<number>) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const rot = (R: Float64Array, x: ArrayLike<number>) => [0, 1, 2].map((i) => R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2]);
const rotT = (R: Float64Array, x: ArrayLike<number>) => [0, 1, 2].map((i) => R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2]);

/**
 * The tyre (mates/forces.ts TyreForce): contact x = c + r ŝ, ŝ the unit of a·a_z − e_z; p = ground − x_z
 * (+ the road point's height), ṗ = −(the contact's material velocity less the road's)_z, N = k p + c ṗ,
 * a vertical force N at x on the wheel (the opposite on the road) while p > 0 and N > 0. With the contact
 * held: ∂N/∂k = p, ∂N/∂c = ṗ, ∂N/∂ground = k; the radius also moves x by ŝ (p by −ŝ_z, ṗ by
 * −((ω_w − ω_r) × ŝ)_z, and the force's moment by ŝ × F).
 */
function tyreTerm(dyn: DynamicsModel, blk: TyreForce, field: string, slots: Int32Array, offsets: Int32Array): Term {
  const { system } = dyn;
  const R = new Float64Array(9), Rr = new Float64Array(9);
  return (out, v) => {
    const st = system.state, o0 = offsets[0];
    const vel = (k: number) => [0, 1, 2, 3, 4, 5].map((i) => (slots[6 * k + i] < 0 ? 0 : v[slots[6 * k + i]]));
    rotationMatrix(R, st, o0 + 3);
    const t0 = [st[o0], st[o0 + 1], st[o0 + 2]];
    const cw = rot(R, blk.centre).map((x, i) => x + t0[i]);
    const aw = rot(R, blk.axis), al = Math.hypot(aw[0], aw[1], aw[2]);
    const a = aw.map((x) => x / al);
    const s = [a[0] * a[2], a[1] * a[2], a[2] * a[2] - 1], sl = Math.hypot(s[0], s[1], s[2]);
    const sh = s[0] ** 2 + s[1] ** 2 + s[2] ** 2 > 1e-24 ? s.map((x) => x / sl) : [0, 0, 0];
    const x = cw.map((c, i) => c + blk.radius * sh[i]);
    const u0 = vel(0), w0 = rot(R, u0.slice(0, 3));
    let p = blk.ground - x[2];
    const cv = rot(R, u0.slice(3)).map((c, i) => c + cross(w0, x.map((xi, j) => xi - t0[j]))[i]);
    let wRel = w0;
    if (blk.road) {
      const o1 = offsets[1];
      rotationMatrix(Rr, st, o1 + 3);
      const t1 = [st[o1], st[o1 + 1], st[o1 + 2]], rw = rot(Rr, blk.road.point).map((c, i) => c + t1[i]);
      p += rw[2];
      const u1 = vel(1), w1 = rot(Rr, u1.slice(0, 3));
      const rv = rot(Rr, cross(u1.slice(0, 3), blk.road.point).map((c, i) => c + u1[3 + i]));
      const arm = cross(w1, x.map((xi, j) => xi - rw[j]));
      for (let i = 0; i < 3; i++) cv[i] -= rv[i] + arm[i];
      wRel = w0.map((c, i) => c - w1[i]);
    }
    if (!(p > 0)) return;
    const pdot = -cv[2], N = blk.stiffness * p + blk.damping * pdot;
    if (!(N > 0)) return;
    let dN: number;
    if (field === 'stiffness') dN = p; else if (field === 'damping') dN = pdot; else if (field === 'ground') dN = blk.stiffness;
    else dN = -blk.stiffness * sh[2] - blk.damping * cross(wRel, sh)[2];
    // the generalized force of the world force (0, 0, dN) at x, and for the radius the moment of (0, 0, N) about the moved x
    const F = [0, 0, dN], momentOf = (t: number[]) => {
      const m = cross(x.map((xi, j) => xi - t[j]), F);
      if (field === 'radius') { const e = cross(sh, [0, 0, N]); for (let i = 0; i < 3; i++) m[i] += e[i]; }
      return m;
    };
    const put = (k: number, Rk: Float64Array, t: number[], sign: number) => {
      const qf = rotT(Rk, F), qm = rotT(Rk, momentOf(t));
      for (let i = 0; i < 3; i++) {
        if (slots[6 * k + i] >= 0) out[slots[6 * k + i]] -= sign * qm[i];
        if (slots[6 * k + 3 + i] >= 0) out[slots[6 * k + 3 + i]] -= sign * qf[i];
      }
    };
    put(0, R, t0, 1);
    if (blk.road) put(1, Rr, [st[offsets[1]], st[offsets[1] + 1], st[offsets[1] + 2]], -1);
  };
}

/**
 * A spring's, damper's or spring-damper's tension read directly by a coefficient of the same
 * element (the state held): ∂T/∂θ as a function of the length L and its rate L̇, else null.
 */
export function coefficientTension(dyn: DynamicsModel, p: CoefficientParameter, element: string): ((L: number, Ldot: number) => number) | null {
  if (p.element !== element) return null;
  const el = dyn.elements.find((e) => e.id === element)!, blk = el.block as PointToPointForce, f = p.field;
  const doc = dyn.model.doc.forces![element] as { type: string; curve?: [number, number][]; damping_curve?: [number, number][] };
  const out = new Float64Array(2);
  if (f === 'length') { const k = (blk.spring as LinearLaw).slope; return () => -k; }
  if (f === 'preload') return () => 1;
  if (f === 'stiffness') { const x0 = (blk.spring as LinearLaw).x0; return (L) => L - x0; }
  if (f === 'damping') return (_L, Ldot) => Ldot;
  const damper = f.startsWith('damping_curve') || doc.type === 'damper';
  const law = basis(f.startsWith('damping_curve') ? doc.damping_curve! : doc.curve!, indexOf(f), true);
  return damper ? (_L, Ldot) => law.evaluate(Ldot, out)[0] : (L) => law.evaluate(L, out)[0];
}
