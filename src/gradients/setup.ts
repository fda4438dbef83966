/**
 * Stage 1 of a gradient run (run.ts): the model built, the names checked (hardpoints before
 * the run, with the file's list), the run started as `simulate` starts it, and the rows the
 * step's linear system is made of. What it returns is read by every later stage.
 */
import type { Dual } from '../../kernel/dual';
import { InternalError } from '../../kernel/errors';
import type { Integrator } from '../../kernel/integrator/integrator';
import { CoordinateMotion } from '../../kernel/motion';
import { ScalarTargetBlock, type System } from '../../kernel/system';
import type { ForceSet } from '../../kernel/forces';
import { CouplingBlock } from '../../mates/couplings';
import type { AssemblyDoc } from '../assembly/types';
import type { Model } from '../model/build';
import { buildDynamics, type DynamicsModel } from '../mechanics/build';
import { prepareSimulation, type Simulation } from '../mechanics/simulate';
import { DynamicSensitivityError } from './errors';
import { parameterName } from './names';
import { asCoefficient } from './parameters/coefficients';
import { hardpointNames, resolveHardpoint, type HardpointParameter } from './parameters/hardpoints';
import { ProductMaps } from './product-step';
import type { GradientOptions } from './options';
import type { DynamicParameter } from './types';

/** One constraint or driver block's rows, in the integrator's order: its first row, count, tangent columns and second derivatives. */
export interface RowBlock { index: number; row0: number; rows: number; cols: Int32Array; duals: (() => readonly Dual[]) | null }

/**
 * Redundant rows: the integrator solves each step on its active rows (kernel/integrator/integrator.ts selectRows), a
 * dropped row's λ left out of the dynamics; so does the run: a dropped row is masked out of J, H and Φ_p, its λ read as
 * zero and its place in a step matrix a unit diagonal (dλ = 0). The set is the step's own (stored for the adjoint).
 */
export interface RowMask {
  rowOn: Uint8Array;
  use(rows: ArrayLike<number>): void;
  /** The integrator's λ with the dropped rows' (stale) values read as zero (a shared buffer). */
  activeLambda(): Float64Array;
  dropInactive(S: Float64Array, ld: number): void;
  mask(x: Float64Array): void;
}

export interface RunSetup {
  options: GradientOptions;
  mode: 'direct' | 'adjoint';
  dyn: DynamicsModel;
  doc: AssemblyDoc;
  startMode: 'file' | 'equilibrium' | 'fixed';
  /** The parameters as read (`bush.stiffness.x` as a coefficient's). */
  parameters: readonly DynamicParameter[];
  combined: boolean;
  /** Every hardpoint the parameters move: j its column, −1 for a combined parameter's (after the plain ones). */
  hardpoints: { j: number; p: HardpointParameter }[];
  /** Per parameter, a combined one's hardpoints (index into `hardpoints`) and weights. */
  combinedHp: { k: number; w: number }[][];
  sim: Simulation;
  /** Whether the start solve left the pose as the file gave it (a start the file leaves free is then differentiable). */
  filePoseKept: boolean;
  it: Integrator;
  system: System;
  forces: ForceSet;
  /** Tangent size, parameters, rows, step-matrix size. */
  n: number; P: number; m: number; N: number;
  /** On R³ × SO(3) (simulate's default): the step's own maps (product-step.ts); null on SE(3). */
  pm: ProductMaps | null;
  rows: RowMask;
  /** The start's active rows. */
  startRows: Int32Array;
  rowBlocks: RowBlock[];
}

/** Stage 1: build, check the names, start the run. */
export function setupRun(source: AssemblyDoc | Model | DynamicsModel, parameters: readonly DynamicParameter[], options: GradientOptions, mode: 'direct' | 'adjoint'): RunSetup {
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
  const sim = prepareSimulation(dyn, { method: options.method ?? 'generalized-alpha', rhoInf: options.rhoInf, lieGroup: options.lieGroup ?? 'R3xSO3', constraintTolerance: options.constraintTolerance, residualTolerance: options.residualTolerance });
  /** Whether the start solve left the pose as the file gave it (a start the file leaves free is then differentiable). */
  const filePoseKept = dyn.system.state.every((x, i) => Math.abs(x - filePose[i]) <= 1e-12 * Math.max(1, Math.abs(filePose[i])));
  const it = sim.integrator, { system, forces } = dyn;
  const n = it.size, P = parameters.length;
  const pm = (options.lieGroup ?? 'R3xSO3') === 'R3xSO3' ? new ProductMaps(system, it.layout, n, it.bodies) : null;
  const m = it.rows, N = n + m;
  const rows = rowMask(it, n, m);
  rows.use(it.activeRows());
  const startRows = Int32Array.from(it.activeRows());
  return {
    options, mode, dyn, doc, startMode, parameters, combined, hardpoints, combinedHp, sim, filePoseKept, it, system, forces,
    n, P, m, N, pm, rows, startRows, rowBlocks: rowBlocksOf(system, it, m),
  };
}

function rowMask(it: Integrator, n: number, m: number): RowMask {
  const rowOn = new Uint8Array(m), lamOn = new Float64Array(m);
  return {
    rowOn,
    use: (rows) => { rowOn.fill(0); for (let i = 0; i < rows.length; i++) rowOn[rows[i]] = 1; },
    activeLambda: () => { for (let r = 0; r < m; r++) lamOn[r] = rowOn[r] ? it.lambda[r] : 0; return lamOn; },
    dropInactive: (S, ld) => { for (let r = 0; r < m; r++) if (!rowOn[r]) S[(n + r) * ld + n + r] = 1; },
    mask: (x) => { for (let r = 0; r < m; r++) if (!rowOn[r]) x[r] = 0; },
  };
}

/** The rows: every enabled constraint and driver block, in the integrator's order. */
function rowBlocksOf(system: System, it: Integrator, m: number): RowBlock[] {
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
  if (row !== m) throw new InternalError('gradients rowBlocksOf: the rows disagree with the integrator\'s');
  return rowBlocks;
}
