/**
 * A simulation frame's reactions and driver forces as results of a simulation's gradient
 * (`reactions.MATE.force.x`, `reactions.MATE.moment.z`, `drivers.NAME`; docs/sensitivity.md),
 * read as `kinemate simulate` prints them (statics.ts mateReactions, simulate.ts frameOf).
 *
 * A mate's generalized force on its b part is G = −Φ_bᵀλ (its rows' Jacobian columns of b,
 * body axes (ω, v)); the printed force is R G_v and the moment about the b entity's point p
 * (part frame) is R(G_ω − p × G_v). So r = aᵀx with a = Rᵀe_axis, linear in λ with
 * coefficients that move with q:
 *   ∂r/∂λ_i = −c·Φ_b[i],  c = (0, a) (force) or (a, p × a) (moment),
 *   ∂r/∂q   = −Σ λ_i c·∂Φ_b[i]/∂q (tangent-mode AD of the mate's rows) + (x × a) on b's own turn.
 * A driver's force is −scale·λ of its row (no state dependence).
 * The λ part is handed to the run as `lambdaWeights` (per integrator row), which the run
 * dots with λ' (direct) or seeds as the λ unknowns' cotangent (adjoint).
 */
import { dualsOf, rotationMatrix, withTangents, type Dual, type TangentSeeds } from '../../../kernel/dual';
import type { Integrator } from '../../../kernel/integrator/integrator';
import { isCoupling, splitReference } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { GradientRefusal } from '../refusal';
import type { DynamicParameter, ReactionWhat } from '../types';
export type { ReactionWhat } from '../types';
import type { OwnResult } from './own';
import { entityPoint } from '../../mechanics/statics';


interface MateBlock { index: number; rows: Int32Array; inBlock: Int32Array; cols: Int32Array; lc: number }

const cross = (x: ArrayLike<number>, y: ArrayLike<number>): number[] => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];

/** A reaction or driver force (see the file's head). Throws a message (string) for a name the run does not have. */
export class ReactionResult implements OwnResult {
  /** ∂r/∂λ per integrator row at the last evaluation. */
  readonly lambdaWeights: Float64Array;
  /** The multipliers to read at the next evaluation (the run sets its current or stored λ). */
  lambda: Float64Array;
  private readonly blocks: MateBlock[] = [];
  private readonly variable: number = -1;
  private readonly c0: number = -1;
  private readonly point: number[] = [0, 0, 0];
  private readonly driverRow: number = -1;
  private readonly driverScale: number = 0;
  private readonly R = new Float64Array(9);
  private readonly res = new Float64Array(64);
  private readonly jac = new Float64Array(4096);
  private readonly dir: Float64Array;

  constructor(private readonly dyn: DynamicsModel, it: Integrator, private readonly what: ReactionWhat, parameters: readonly DynamicParameter[]) {
    const { system, model } = dyn;
    this.lambdaWeights = new Float64Array(it.rows);
    this.lambda = it.lambda;
    this.dir = new Float64Array(it.size);
    // a reaction's coefficients read the mate's geometry: a hardpoint's own move of them is not carried yet
    const moved = parameters.find((p) => p.kind === 'hardpoint' || p.kind === 'combined');
    if (moved && what.kind !== 'driver') throw new GradientRefusal(`a reaction's gradient over hardpoints or a geometry file's parameters is not done yet (${moved.kind === 'combined' ? moved.name : `${moved.part}.${moved.entity}`})`);
    if (what.kind === 'driver') {
      const owners = [`hold:${what.name}`, what.name];
      let names: string[] = [];
      for (let row = 0; row < it.rows; row++) {
        const blk = system.block(it.rowBlock[row]);
        const isDriver = blk.owner.startsWith('hold:') || blk.kind === 'driver' || 'law' in blk;
        if (isDriver) names.push(blk.owner.replace(/^hold:/, ''));
        if (this.driverRow < 0 && owners.includes(blk.owner) && isDriver) {
          this.driverRow = row;
          // a hold's or a coordinate motion's row scale (a point motion has none: NaN, as before)
          const scale = 'scale' in blk ? blk.scale : undefined;
          this.driverScale = typeof scale === 'number' ? scale : NaN;
        }
      }
      names = [...new Set(names)];
      if (this.driverRow < 0) throw new GradientRefusal(`no driver "${what.name}" (drivers: ${names.join(', ') || 'none'})`);
      this.lambdaWeights[this.driverRow] = -this.driverScale;
      return;
    }
    const doc = model.doc, mate = doc.mates[what.mate], handle = model.mates.get(what.mate);
    if (!mate || !handle) throw new GradientRefusal(`no mate "${what.mate}" (mates: ${Object.keys(doc.mates).join(', ')})`);
    if (isCoupling(mate)) throw new GradientRefusal(`mate "${what.mate}" couples coordinates: its reaction is a generalized force, not a force and moment (not offered yet)`);
    const ref = splitReference(mate.b)!;
    this.variable = model.parts.get(ref.owner)!;
    this.c0 = it.layout[this.variable];
    const p = entityPoint(doc.parts[ref.owner], ref.name);
    this.point = [p[0], p[1], p[2]];
    for (const b of handle.blocks) {
      const rows: number[] = [], inBlock: number[] = [];
      for (let row = 0; row < it.rows; row++) if (it.rowBlock[row] === b) { rows.push(row); inBlock.push(it.rowInBlock[row]); }
      if (!rows.length) continue;
      const blk = system.block(b);
      const idx = blk.vars.indexOf(this.variable);
      if (idx < 0) continue;
      if (!blk.duals) throw new GradientRefusal(`mate "${what.mate}": its rows have no second derivatives (not supported yet)`);
      const cols: number[] = [];
      let lc = -1;
      blk.vars.forEach((vid, i) => {
        const vr = system.variables[vid];
        if (i === idx) lc = cols.length;
        for (let k = 0; k < vr.dim; k++) cols.push(it.layout[vid] < 0 ? -1 : it.layout[vid] + k);
      });
      this.blocks.push({ index: b, rows: Int32Array.from(rows), inBlock: Int32Array.from(inBlock), cols: Int32Array.from(cols), lc });
    }
  }

  reads(): boolean { return false; }
  explicit(): number { return 0; }

  /** The covector c on G (body (ω, v)) and the body-frame vector x with r = (Rᵀe)·x. */
  evaluate(state: Float64Array, _v: Float64Array, cq: Float64Array | null, _cv: Float64Array | null, w: number): number {
    const lw = this.lambdaWeights, lambda = this.lambda, what = this.what;
    if (what.kind === 'driver') return -this.driverScale * lambda[this.driverRow];
    const { system } = this.dyn, off = system.variables[this.variable].offset;
    const R = rotationMatrix(this.R, state, off + 3), ax = what.axis, p = this.point;
    const a = [R[ax * 3], R[ax * 3 + 1], R[ax * 3 + 2]]; // Rᵀe_axis
    const c = what.kind === 'force' ? [0, 0, 0, a[0], a[1], a[2]] : [a[0], a[1], a[2], ...cross(p, a)];
    const G = new Float64Array(6);
    lw.fill(0);
    const { res, jac } = this;
    for (const mb of this.blocks) {
      const ld = mb.cols.length;
      system.evaluateBlock(mb.index, res, jac);
      for (let i = 0; i < mb.rows.length; i++) {
        const r = mb.inBlock[i], lam = lambda[mb.rows[i]];
        let s = 0;
        for (let k = 0; k < 6; k++) { G[k] -= jac[r * ld + mb.lc + k] * lam; s += c[k] * jac[r * ld + mb.lc + k]; }
        lw[mb.rows[i]] -= s;
      }
    }
    // the printed value, as frameOf computes it (world force; moment about the entity's point)
    const f = [0, 1, 2].map((i) => R[3 * i] * G[3] + R[3 * i + 1] * G[4] + R[3 * i + 2] * G[5]);
    let value: number;
    if (what.kind === 'force') value = f[ax];
    else {
      const mo = [0, 1, 2].map((i) => R[3 * i] * G[0] + R[3 * i + 1] * G[1] + R[3 * i + 2] * G[2]);
      const at = [0, 1, 2].map((i) => state[off + i] + R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2]);
      const d = [state[off] - at[0], state[off + 1] - at[1], state[off + 2] - at[2]];
      value = mo[ax] + cross(d, f)[ax];
    }
    if (!cq || w === 0) return value;
    // b's own turn: δ(R x) = R(δω × x), so (x × a)·δω
    if (this.c0 >= 0 && what.leaveOut !== 'turn') {
      const gv = [G[3], G[4], G[5]];
      const x = what.kind === 'force' ? gv : (() => { const pg = cross(p, gv); return [G[0] - pg[0], G[1] - pg[1], G[2] - pg[2]]; })();
      const t = cross(x, a);
      for (let i = 0; i < 3; i++) cq[this.c0 + i] += w * t[i];
    }
    // the rows' curvature: −Σ λ_i c·∂Φ_b[i]/∂q_col, one tangent pass per column
    const dir = this.dir;
    if (what.leaveOut === 'curvature') return value;
    for (const mb of this.blocks) {
      const rowsBlock = system.block(mb.index), duals = () => dualsOf(rowsBlock);
      for (let kc = 0; kc < mb.cols.length; kc++) {
        const col = mb.cols[kc];
        if (col < 0) continue;
        dir.fill(0); dir[col] = 1;
        const seeds: TangentSeeds = {
          pose: (k) => (mb.cols[k] >= 0 ? dir.subarray(mb.cols[k], mb.cols[k] + 6) : null),
          local: () => null,
          scalar: (k) => (mb.cols[k] >= 0 ? dir[mb.cols[k]] : 0),
        };
        const rows = withTangents(seeds, () => { system.evaluateBlock(mb.index, res, jac); return duals(); });
        let s = 0;
        for (let i = 0; i < mb.rows.length; i++) {
          const tt = rows[mb.inBlock[i]].t, lam = lambda[mb.rows[i]];
          if (!tt || lam === 0) continue;
          for (let k = 0; k < 6; k++) s -= lam * c[k] * tt.d[mb.lc + k];
        }
        cq[col] += w * s;
      }
    }
    return value;
  }
}
