/**
 * The square system at a solved state, factored (dynamics.md): A = [Φ_q; drivers_q] in scaled
 * columns (LU, or a pivoted QR where A has more rows: state-solver.ts) and B = −Φ_p, its
 * workspaces kept between the states of one structure; and the direct route's state rates
 * from those factors.
 */
import { StateSolver } from './state-solver';
import type { TangentSpace } from '../../../kernel/analysis';
import type { ResidualBlock } from '../../../kernel/system';
import type { SuspensionModel } from '../build/model';
import { SensitivityError, type BlockParameters, type DriverParameters, type StateFactors } from './types';

type Workspace = { M: number; n: number; A: Float64Array; B: Float64Array; solver: StateSolver; res: Float64Array; jac: Float64Array };

export class StateFactoring {
  private workspace: Workspace = { M: -1, n: -1, A: new Float64Array(0), B: new Float64Array(0), solver: new StateSolver(0), res: new Float64Array(0), jac: new Float64Array(0) };

  /**
   * A = [Φ_q; drivers_q] in scaled columns and B = −Φ_p (M × P, column-major) at the current
   * solved state; `blockParameters`: a constraint block's map (the drivers' come with them).
   */
  factor(sm: SuspensionModel, P: number, blockParameters: (blk: ResidualBlock) => BlockParameters | undefined, drivers: readonly DriverParameters[], fresh = false): StateFactors {
    const sys = sm.model.system;
    // a driver whose parameters are refreshed per state (a rod length's) may change which
    // parameter columns its rows touch: the structure is rebuilt then
    for (const d of drivers) if (d.params.refresh) { d.params.refresh(); this.structure = null; }
    const { layout, colScale, n, rows, spans, twists } = this.structureOf(sm, P, blockParameters, drivers, !fresh);
    const M = rows.reduce((s, r) => s + r.block.rows, 0);
    // workspaces kept between states of one structure (a sweep allocates them once); `fresh`: a
    // second system beside the state's (bump-system.ts), whose factors must not overwrite these
    const ws = fresh ? newWorkspace(M, n, P) : this.workspace.M === M && this.workspace.n === n ? this.workspace : (this.workspace = newWorkspace(M, n, P));
    const A = ws.A, B = ws.B;
    A.fill(0);
    B.fill(0);
    let r0 = 0;
    for (let b = 0; b < rows.length; b++) {
      const { block, params, index } = rows[b];
      const ld = sys.blockLocalDim(index);
      const { start, at, w } = twists[b];
      if (ws.jac.length < block.rows * ld) ws.jac = new Float64Array(block.rows * ld);
      if (ws.res.length < block.rows) ws.res = new Float64Array(block.rows);
      const res = ws.res, jac = ws.jac;
      const columns = params.columns!;
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
          for (let e = start[kk]; e < start[kk + 1]; e++) s += jac[r * ld + at[e]] * w[e];
          B[k * M + r0 + r] = -s;
        }
      }
      r0 += block.rows;
    }
    const solver = ws.solver;
    const rank = solver.factor(A, M, n, colScale);
    if (rank < n) throw new SensitivityError(`sensitivity: the state is not fixed by its constraints and drivers (rank ${rank} of ${n}); gradients need a unique state`);
    return { solver, get qr() { return solver.qr(); }, B, M, n, colScale, layout, rows, spans };
  }

  /**
   * The layout, the rows and their parameter spans: the same at every state of one structure
   * (system version, length scale, drivers and parameter count), so built once for a sweep.
   */
  private structure: (Structure & { version: number; L: number; P: number; drivers: DriverParameters[] }) | null = null;
  private structureOf(sm: SuspensionModel, P: number, blockParameters: (blk: ResidualBlock) => BlockParameters | undefined, drivers: readonly DriverParameters[], keep: boolean): Structure {
    const sys = sm.model.system, L = sys.lengthScale;
    const s = this.structure;
    if (s && s.version === sys.version && s.L === L && s.P === P && s.drivers.length === drivers.length
      && s.drivers.every((d, i) => d.block === drivers[i].block && d.params === drivers[i].params)) return s;
    const layout = new Int32Array(sys.variables.length).fill(-1);
    const colScale: number[] = [];
    let n = 0;
    for (const v of sys.variables) {
      if (v.fixed) continue;
      layout[v.id] = n;
      for (let c = 0; c < v.dim; c++) colScale.push(v.kind === 'pose' ? (c < 3 ? 1 / L : 1) : 1 / v.scale);
      n += v.dim;
    }
    const rows: StateFactors['rows'] = [];
    for (let b = 0; b < sys.blockCount; b++) {
      if (!sys.blockEnabled(b)) continue;
      const blk = sys.block(b);
      if (blk.kind === 'limit') continue;
      const params = blockParameters(blk) ?? drivers.find((d) => d.block === blk)?.params;
      if (!params) throw new SensitivityError(`sensitivity: block ${blk.owner} has no parameter map`);
      rows.push({ block: blk, params, index: b });
    }
    for (const { block, params, index } of rows) params.columns ??= parameterColumns(params, sys.blockLocalDim(index), block.rows, P);
    const twists = rows.map(({ params, index }) => twistEntries(params, sys.blockLocalDim(index), P));
    const built = { layout, colScale, n, rows, spans: parameterSpans(rows, P), twists };
    // a second system's (fresh: bump-system.ts) is not kept: it would evict the state's own
    if (keep) this.structure = { ...built, version: sys.version, L, P, drivers: drivers.map((d) => ({ ...d })) };
    return built;
  }
}

function newWorkspace(M: number, n: number, P: number): Workspace {
  return { M, n, A: new Float64Array(M * n), B: new Float64Array(M * P), solver: new StateSolver(n), res: new Float64Array(64), jac: new Float64Array(64 * 64) };
}

type Structure = Pick<StateFactors, 'layout' | 'colScale' | 'n' | 'rows' | 'spans'> & { twists: TwistEntries[] };

/**
 * A block's twist map's nonzeros per parameter column it touches (column kk of `columns`:
 * local slots at[start[kk]..start[kk + 1]) with weights w): a point moves one slot per
 * coordinate of the block's dozen, so Φ_p's rows sum those terms only, in slot order (the
 * skipped terms are exact zeros, so the sums are the full ones bit for bit).
 */
type TwistEntries = { start: Int32Array; at: Int32Array; w: Float64Array };
function twistEntries(params: BlockParameters, localDim: number, P: number): TwistEntries {
  const columns = params.columns!;
  const start = new Int32Array(columns.length + 1), at: number[] = [], w: number[] = [];
  for (let kk = 0; kk < columns.length; kk++) {
    for (let c = 0; c < localDim; c++) {
      const x = params.twist[c * P + columns[kk]];
      if (x !== 0) { at.push(c); w.push(x); }
    }
    start[kk + 1] = at.length;
  }
  return { start, at: Int32Array.from(at), w: Float64Array.from(w) };
}

/** Direct (forward) route: q̇ per parameter, q̇ = −Φ_q⁻¹ Φ_p, as a tangent with one column per parameter. */
export function stateRates(f: StateFactors, P: number): TangentSpace {
  const { solver, B, M, n, layout } = f;
  const rates: Float64Array[] = [];
  for (let k = 0; k < P; k++) rates.push(solver.solve(new Float64Array(n), B.subarray(k * M, (k + 1) * M)));
  return { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates, layout, size: n };
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
