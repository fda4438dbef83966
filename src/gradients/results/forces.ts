/**
 * A force element's force as a result of a simulation's gradient (`ELEMENT.force`,
 * `ELEMENT.force.x|y|z`; docs/sensitivity.md): a tyre's normal load N, a bushing's force on
 * its B frame (world components, or its size), a drag's force (its size k|v|², or world
 * components), a coordinate spring's or friction's generalized force.
 *
 * Read off the element's own generalized force and its own derivatives (mates/forces.ts, the
 * K and C its dual pass gives): a body force F = R Q_v (Q_v the translational part of the
 * generalized force on the body, in body axes), so with g = ∂r/∂F and a = Rᵀg,
 *   dr = a·(K δ + C dv)_v + (Q_v × a)·δω,
 * δω the body's own turn (q perturbed on the right). Its explicit dependence on a hardpoint
 * is the element's dual pass in tangent mode with that hardpoint's local seed (as
 * sensitivity-hardpoints.ts seeds it), a·∂Q_v/∂p; on a coefficient in closed form (a tyre:
 * ∂N/∂k = p, ∂N/∂c = (N − k p)/c; a coordinate spring: its force at unit rate).
 */
import { dualsOf, rotationMatrix, withTangents, type Dual, type TangentSeeds } from '../../../kernel/dual';
import { BodyForceBlock, BushingForce, CoordinateSpringForce, PointToPointForce, TyreForce } from '../../../mates/forces';
import { SlipTyreForce } from '../../../mates/tyres/slip-force';
import { CoordinateFrictionForce, DragForce } from '../../../mates/resistance';
import { forceActsAt } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { GradientRefusal } from '../refusal';
import type { DynamicParameter } from '../types';
import { turnSeed } from '../parameters/directions';
import { resolveHardpoint, type HardpointParameter } from '../parameters/hardpoints';

type Plain = Exclude<DynamicParameter, { kind: 'combined' }>;
/** What a parameter is made of: its parts with weights, and the closed-form coefficients a geometry number moves. */
export interface Parts { parts: { parameter: Plain; weight: number }[]; coefficients: { element: string; what: string; w: number }[] }
export function partsOf(p: DynamicParameter): Parts {
  if (p.kind !== 'combined') return { parts: [{ parameter: p, weight: 1 }], coefficients: [] };
  return { parts: [...p.parts], coefficients: [...(p.coefficients ?? [])] };
}

/**
 * The local seed of a hardpoint in a block that reads it as a force element does (the file's
 * own arrays, found by identity; an axis' turn by its direction; a turning frame's twist on
 * `frameAxes`, the bushing's own axis arrays of that frame), on the block's variables;
 * null when the block does not read it.
 */
export function hardpointSeeds(dyn: DynamicsModel, vars: readonly number[], h: HardpointParameter, readsTurn: boolean, frameAxes?: readonly ArrayLike<number>[]): TangentSeeds | null {
  const doc = dyn.model.doc, r = resolveHardpoint(doc, h);
  if (typeof r === 'string') return null;
  const variable = dyn.model.parts.get(h.part), o = r.origin;
  const colVar = new Map<number, number>();
  let c = 0;
  for (const v of vars) { colVar.set(c, v); c += dyn.system.variables[v].dim; }
  if (![...colVar.values()].includes(variable!)) return null;
  const move = new Float64Array(6);
  move[3 + h.axis] = 1;
  const turn = h.turn && h.group === 'axes' && readsTurn ? turnSeed(doc, h.part, h.entity, h.turn) : null;
  const still = h.still === true;
  const twist = h.frameTurn && frameAxes ? Float64Array.of(...h.frameTurn.omega, 0, 0, 0) : null;
  return {
    pose: () => null,
    local: (col, p, isPoint) => (colVar.get(col) !== variable ? null : isPoint ? (!still && p === o ? move : null) : turn ? turn(p, false)
      : twist && frameAxes!.includes(p) ? twist : null),
    scalar: () => 0,
  };
}

const cross = (x: ArrayLike<number>, y: ArrayLike<number>): number[] => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];

/** An element's force (see the file's head). Throws a message (string) for an element without one. */
export class ForceResult {
  private readonly el: DynamicsModel['elements'][number];
  /** The body whose force is read (local slot 6k), null for a coordinate force. */
  private readonly body: number | null;
  private readonly slots: Int32Array;
  private readonly offsets: Int32Array;
  private readonly d: number;
  private readonly lv: Float64Array; private readonly lq: Float64Array; private readonly lk: Float64Array; private readonly lc: Float64Array;
  private readonly R = new Float64Array(9);
  /** Per parameter: hardpoint seeds (weighted) and coefficient terms. */
  private readonly seedsOf: { seeds: TangentSeeds; w: number }[][];
  private readonly coefficientsOf: { what: string; w: number }[][];
  // the last evaluation's covector on the body's force (body axes), state and time
  private a = [0, 0, 0];
  private state: Float64Array = new Float64Array(0); private t = 0; private value = 0;

  constructor(private readonly dyn: DynamicsModel, readonly element: string, private readonly component: 0 | 1 | 2 | undefined, parameters: readonly DynamicParameter[]) {
    const el = dyn.elements.find((e) => e.id === element);
    if (!el) throw new GradientRefusal(`no force element "${element}" (elements: ${dyn.elements.map((e) => e.id).join(', ')})`);
    const blk = el.block;
    this.el = el;
    if (blk instanceof PointToPointForce) throw new GradientRefusal(`element "${element}" is a ${el.type}: its force is ${element}.tension`);
    if (blk instanceof SlipTyreForce) throw new GradientRefusal(`element "${element}" is a slipping tyre: its force is not a result yet`);
    if (blk instanceof TyreForce) {
      if (component !== undefined) throw new GradientRefusal(`element "${element}" is a tyre: its force is its normal load, ${element}.force`);
      this.body = 0;
    } else if (blk instanceof BushingForce) this.body = 1;
    else if (blk instanceof DragForce) this.body = 0;
    else if (blk instanceof CoordinateSpringForce || blk instanceof CoordinateFrictionForce) {
      if (component !== undefined) throw new GradientRefusal(`element "${element}" acts on a coordinate: its force is ${element}.force`);
      this.body = null;
    } else throw new GradientRefusal(`element "${element}" is a ${el.type}; a force result is a tyre's, bushing's, drag's, coordinate spring's or friction's`);
    const { forces } = dyn;
    this.slots = forces.slotsOf(el.index); this.offsets = forces.offsetsOf(el.index);
    const d = (this.d = this.slots.length);
    this.lv = new Float64Array(2 * d); this.lq = new Float64Array(d); this.lk = new Float64Array(d * d); this.lc = new Float64Array(d * d);
    const doc = dyn.model.doc.forces![element];
    const reads = (h: HardpointParameter) => {
      const ref = `${h.part}.${h.entity}`;
      return forceActsAt(doc, ref) || (h.turn !== undefined && doc.type === 'tyre' && doc.axis === ref);
    };
    this.seedsOf = parameters.map((p) => partsOf(p).parts.flatMap(({ parameter: q, weight }) => {
      if (q.kind !== 'hardpoint' || !(blk instanceof BodyForceBlock) || !reads(q)) return [];
      // a turning frame: its twist seeded on the bushing's own axes of it (as HardpointTerms seeds it)
      const ref = `${q.part}.${q.entity}`;
      if (q.frameTurn && !(blk instanceof BushingForce && doc.type === 'bushing' && (doc.a === ref) !== (doc.b === ref))) throw new GradientRefusal(`result "${element}": it reads the turning frame "${ref}"`);
      const axes = q.frameTurn && blk instanceof BushingForce && doc.type === 'bushing' ? (doc.a === ref ? blk.axesA : blk.axesB) : undefined;
      const seeds = hardpointSeeds(dyn, blk.vars, q, doc.type === 'tyre', axes);
      return seeds ? [{ seeds, w: weight }] : [];
    }));
    this.coefficientsOf = parameters.map((p) => {
      const { parts, coefficients } = partsOf(p);
      const out = coefficients.filter((c) => c.element === element && c.what !== 'free_length').map((c) => ({ what: c.what, w: c.w }));
      for (const { parameter: q, weight } of parts) {
        if ((q.kind === 'stiffness' || q.kind === 'damping' || q.kind === 'friction') && q.element === element) out.push({ what: q.kind, w: weight });
      }
      return out;
    });
  }

  reads(j: number): boolean { return this.seedsOf[j].length > 0 || this.coefficientsOf[j].length > 0; }

  evaluate(state: Float64Array, v: Float64Array, cq: Float64Array | null, cv: Float64Array | null, w: number, t: number): number {
    const { slots, d, lv, lq, lk, lc } = this;
    for (let k = 0; k < d; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]];
    this.el.block.evaluate(state, this.offsets, lv, t, lq, lk, lc);
    this.state = state; this.t = t;
    if (this.body === null) {
      this.a = [1, 0, 0];
      if (cq && cv && w !== 0 && slots[0] >= 0) { cq[slots[0]] += w * lk[0]; cv[slots[0]] += w * lc[0]; }
      return (this.value = lq[0]);
    }
    const b = 6 * this.body, R = rotationMatrix(this.R, state, this.offsets[this.body] + 3);
    const Qv = [lq[b + 3], lq[b + 4], lq[b + 5]];
    const F = [0, 1, 2].map((i) => R[i * 3] * Qv[0] + R[i * 3 + 1] * Qv[1] + R[i * 3 + 2] * Qv[2]);
    let r: number, g: number[];
    if (this.component !== undefined) { r = F[this.component]; g = [0, 0, 0]; g[this.component] = 1; } else if (this.el.block instanceof TyreForce) { r = F[2]; g = [0, 0, 1]; } else {
      r = Math.hypot(F[0], F[1], F[2]);
      g = r > 0 ? F.map((x) => x / r) : [0, 0, 0];
    }
    this.a = [0, 1, 2].map((i) => R[i] * g[0] + R[3 + i] * g[1] + R[6 + i] * g[2]);
    this.value = r;
    if (!cq || !cv || w === 0) return r;
    const a = this.a;
    for (let j = 0; j < d; j++) {
      if (slots[j] < 0) continue;
      let sk = 0, sc = 0;
      for (let i = 0; i < 3; i++) { sk += a[i] * lk[(b + 3 + i) * d + j]; sc += a[i] * lc[(b + 3 + i) * d + j]; }
      cq[slots[j]] += w * sk; cv[slots[j]] += w * sc;
    }
    // the body's own turn carries F: (Q_v × a)·δω
    const turn = cross(Qv, a);
    if (slots[b] >= 0) for (let i = 0; i < 3; i++) cq[slots[b + i]] += w * turn[i];
    return r;
  }

  explicit(j: number): number {
    let s = 0;
    const blk = this.el.block, a = this.a, b = this.body === null ? 0 : 6 * this.body + 3, width = this.body === null ? 1 : 3;
    for (const { seeds, w } of this.seedsOf[j]) {
      const duals = withTangents(seeds, () => { blk.evaluate(this.state, this.offsets, this.lv, this.t, this.lq, this.lk, null); return dualsOf(blk); });
      for (let i = 0; i < width; i++) s += w * a[i] * (duals[b + i].t?.v ?? 0);
    }
    for (const { what, w } of this.coefficientsOf[j]) s += w * this.coefficient(what);
    return s;
  }

  /** ∂r/∂(coefficient) with the state held, at the last evaluation. */
  private coefficient(what: string): number {
    const blk = this.el.block;
    if (blk instanceof TyreForce) {
      // N = k p − c ṗ while positive: ∂N/∂k = p, ∂N/∂c = (N − k p)/c (along z: a_z of the world force's covector)
      const N = blk.last.force, p = blk.last.penetration;
      if (!(N > 0)) return 0;
      return what === 'stiffness' ? p : what === 'damping' ? (N - blk.stiffness * p) / blk.damping : 0;
    }
    if (blk instanceof CoordinateSpringForce) {
      // the file's rate per angle unit is 1/k of the internal one per radian (sensitivity.ts parameterTerm)
      const info = [...this.dyn.model.coordinates.values()].find((c) => c.variable === blk.vars[0])!;
      const k = info.kind === 'angle' ? this.dyn.model.angleFactor : 1;
      const x = this.state[this.offsets[0]];
      return what === 'stiffness' ? -(x - blk.free) / k : what === 'damping' ? -this.lv[0] / k : 0;
    }
    if (blk instanceof CoordinateFrictionForce) return what === 'friction' && blk.force !== 0 ? this.value / blk.force : 0;
    return 0;
  }
}
