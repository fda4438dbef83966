/**
 * Gradients of the joints' reactions at a load case (`kinemate sweep --loads` prints them as
 * `joints.<mate id>`: the force and moment a mate exerts on its b part, world axes, the
 * moment about its b entity): `joint_force.<mate id>.<x|y|z>` (N) and
 * `joint_moment.<mate id>.<x|y|z>` (N·mm), on request only (load-sensitivity.ts drives this).
 *
 * The mate's rows give its b part the body-frame generalized force G = −J_bᵀλ (statics.ts
 * generalizedOn), and the world wrench about the entity point p (local) is f = R G_v,
 * m = R(G_ω − p × G_v). Along (q̇, e_k): Ġ = −(J̇_bᵀλ + J_bᵀλ̇) with J̇ the rows' tangents of the
 * one Jacobian-rate pass that the link forces use, and, ω the part's body turn rate, ṗ the
 * point's own move as a hardpoint,
 *   ḟ = R(ω × G_v + Ġ_v),   ṁ = R(ω × (G_ω − p × G_v) + Ġ_ω − ṗ × G_v − p × Ġ_v).
 */
import { rotationMatrix } from '../../../kernel/dual';
import { isCoupling, splitReference, type PartDoc } from '../../assembly/types';
import type { RowDuals } from './jacobian';
import { entityPoint } from '../../mechanics/statics';
import { type MetricGradient, type SensitivityContext, type StateFactors } from './types';

export const JOINT_FORCE = 'joint_force.';
export const JOINT_MOMENT = 'joint_moment.';
const AXES = ['x', 'y', 'z'];
/** A fixed part's turn rate. */
const FIXED = new Float64Array(3);

interface Joint {
  id: string;
  variable: number;
  /** The b entity's point (part-local) and its hardpoint index (−1: none). */
  point: readonly number[];
  hardpoint: number;
  /** System block indices of the mate. */
  blocks: number[];
}


/** Every mate `kinemate sweep --loads` reports under `joints` (neither a coupling nor a two-force link). */
export function jointsOf(model: SensitivityContext): Joint[] {
  const m = model.sm.model, doc = m.doc;
  const out: Joint[] = [];
  for (const [id, mate] of Object.entries(doc.mates)) {
    const handle = m.mates.get(id);
    if (!handle || isCoupling(mate)) continue;
    const a = splitReference(mate.a)!, b = splitReference(mate.b)!;
    if (mate.type === 'distance' && doc.parts[a.owner].points?.[a.name] && doc.parts[b.owner].points?.[b.name]) continue;
    const point = entityPoint(doc.parts[b.owner], b.name);
    out.push({ id, variable: m.parts.get(b.owner)!, point, hardpoint: -1, blocks: [...handle.blocks] });
  }
  return out;
}

/** The metric names of these joints: force then moment, x, y, z. */
export function jointMetricNames(joints: readonly { id: string }[]): string[] {
  return joints.flatMap((j) => [...AXES.map((a) => `${JOINT_FORCE}${j.id}.${a}`), ...AXES.map((a) => `${JOINT_MOMENT}${j.id}.${a}`)]);
}

/** One state's joint wrenches and their rates, filled coordinate by coordinate. */
export class JointWrenchRates {
  private readonly items: {
    joint: Joint; c0: number; R: Float64Array;
    /** Per block: its first row in λ, its rows' b columns (rows × 6) and the local column of b. */
    parts: { rowsAt: number; rows: number; jac: Float64Array; lc: number }[];
    G: Float64Array; Gd: Float64Array; grads: Float64Array[];
  }[] = [];
  /** rowsAt → the item and part it belongs to (the Jacobian-rate pass visits by rowsAt). */
  private readonly byRow = new Map<number, { item: number; part: number }>();

  constructor(private readonly model: SensitivityContext, joints: readonly Joint[], f: StateFactors, private readonly lambda: Float64Array) {
    const sys = model.sm.model.system;
    const P = model.parameterCount;
    const rowAt = new Map<number, number>();
    let r0 = 0;
    for (const r of f.rows) { rowAt.set(r.index, r0); r0 += r.block.rows; }
    for (const joint of joints) {
      // a fixed part (the chassis): c0 = −1, it does not turn; its columns' J̇ still carry the other part's motion
      const c0 = f.layout[joint.variable];
      const hardpoint = model.hardpointAt(joint.point);
      const parts = joint.blocks.flatMap((b) => {
        const blk = sys.block(b), rowsAt = rowAt.get(b);
        const idx = blk.vars.indexOf(joint.variable);
        if (rowsAt === undefined || idx < 0) return [];
        const ld = sys.blockLocalDim(b);
        const full = new Float64Array(blk.rows * ld), res = new Float64Array(blk.rows);
        sys.evaluateBlock(b, res, full);
        let lc = 0;
        for (let i = 0; i < idx; i++) lc += sys.variables[blk.vars[i]].dim;
        const jac = new Float64Array(blk.rows * 6);
        for (let r = 0; r < blk.rows; r++) for (let c = 0; c < 6; c++) jac[6 * r + c] = full[r * ld + lc + c];
        return [{ rowsAt, rows: blk.rows, jac, lc }];
      });
      const G = new Float64Array(6);
      for (const p of parts) for (let r = 0; r < p.rows; r++) for (let c = 0; c < 6; c++) G[c] -= p.jac[6 * r + c] * lambda[p.rowsAt + r];
      const R = rotationMatrix(new Float64Array(9), sys.state, sys.variables[joint.variable].offset + 3);
      const item = this.items.length;
      parts.forEach((p, i) => this.byRow.set(p.rowsAt, { item, part: i }));
      this.items.push({ joint: { ...joint, hardpoint }, c0, R, parts, G, Gd: new Float64Array(6), grads: Array.from({ length: 6 }, () => new Float64Array(P)) });
    }
  }

  /** Start coordinate k. */
  begin(): void {
    for (const it of this.items) it.Gd.fill(0);
  }

  /** The Jacobian-rate pass's visit of one block: Ġ −= J̇_bᵀλ for a joint's block. */
  visit(rowsAt: number, rows: RowDuals, colGlobal: readonly number[]): void {
    const at = this.byRow.get(rowsAt);
    if (!at) return;
    const it = this.items[at.item], p = it.parts[at.part];
    for (let r = 0; r < p.rows; r++) {
      const t = rows[r].t, lam = this.lambda[rowsAt + r];
      if (!t) continue;
      // a fixed part's columns are not state columns, but their rows' rates are the wrench's all the same
      for (let c = 0; c < 6; c++) if (it.c0 < 0 || colGlobal[p.lc + c] >= 0) it.Gd[c] -= t.d[p.lc + c] * lam;
    }
  }

  /** End coordinate k: add −J_bᵀλ̇ and turn Ġ into the world wrench's rate. */
  finish(k: number, qd: Float64Array, lambdaDot: Float64Array): void {
    const cross = (a: ArrayLike<number>, b: ArrayLike<number>) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    for (const it of this.items) {
      const { R, G, Gd } = it, p = it.joint.point, j = it.joint.hardpoint;
      for (const part of it.parts) for (let r = 0; r < part.rows; r++) for (let c = 0; c < 6; c++) Gd[c] -= part.jac[6 * r + c] * lambdaDot[part.rowsAt + r];
      const w = it.c0 >= 0 ? qd.subarray(it.c0, it.c0 + 3) : FIXED;
      const Gw = [G[0], G[1], G[2]], Gv = [G[3], G[4], G[5]], Gdw = [Gd[0], Gd[1], Gd[2]], Gdv = [Gd[3], Gd[4], Gd[5]];
      const pd = [0, 0, 0];
      if (j >= 0 && k >= 3 * j && k < 3 * j + 3) pd[k - 3 * j] = 1;
      const wf = cross(w, Gv);
      const mb = cross(p, Gv).map((x, i) => Gw[i] - x);
      const wm = cross(w, mb), pdg = cross(pd, Gv), pgd = cross(p, Gdv);
      const fb = [0, 1, 2].map((i) => wf[i] + Gdv[i]);
      const mbd = [0, 1, 2].map((i) => wm[i] + Gdw[i] - pdg[i] - pgd[i]);
      for (let i = 0; i < 3; i++) {
        it.grads[i][k] = R[3 * i] * fb[0] + R[3 * i + 1] * fb[1] + R[3 * i + 2] * fb[2];
        it.grads[3 + i][k] = R[3 * i] * mbd[0] + R[3 * i + 1] * mbd[1] + R[3 * i + 2] * mbd[2];
      }
    }
  }

  /** Every joint's six metrics with their gradients. */
  results(): Record<string, MetricGradient> {
    const out: Record<string, MetricGradient> = {};
    const keys = this.model.keys;
    for (const it of this.items) {
      const { R, G } = it, p = it.joint.point;
      const Gv = [G[3], G[4], G[5]];
      const pg = [p[1] * Gv[2] - p[2] * Gv[1], p[2] * Gv[0] - p[0] * Gv[2], p[0] * Gv[1] - p[1] * Gv[0]];
      const mb = [G[0] - pg[0], G[1] - pg[1], G[2] - pg[2]];
      const names = jointMetricNames([it.joint]);
      names.forEach((name, m) => {
        const y = m < 3 ? Gv : mb, i = m % 3;
        const value = R[3 * i] * y[0] + R[3 * i + 1] * y[1] + R[3 * i + 2] * y[2];
        out[name] = { value, gradient: Object.fromEntries(keys.map((key, k) => [key, it.grads[m][k]])) };
      });
    }
    return out;
  }
}
