/**
 * Clearance over a suspension sweep (a sweep file, a shortcut, or a bump × steer grid):
 * the sweep runs as `kinemate sweep` runs it (runSweep: one continuation, each state from
 * the last), values only, and at every solved state each pair is measured.
 */
import type { SweepSpec } from '../files/index.ts';
import type { SuspensionModel } from '../build/model.ts';
import { runSweep } from '../sweep/sweep.ts';
import type { ClearanceSet } from '../../assembly/geometry/clearance-set.ts';
import type { PairClearance } from '../../assembly/geometry/clearance.ts';
import type { SuspensionBodies } from './bodies.ts';
import type { GridState } from './grid.ts';

export interface SweepClearanceState {
  index: number;
  /** The grid point (a `--grid` or a `--bump`/`--steer` shortcut): bump mm, steer mm of rack travel. */
  bump?: number;
  steer?: number;
  /** The driven quantities, as `kinemate sweep` reports them. */
  drivers: Record<string, number>;
  status: 'solved' | 'failed';
  message?: string;
  /** Absent where the state failed to solve. */
  pairs?: Record<string, PairClearance>;
}

export interface SweepClearanceOptions {
  /** Per state, the grid point it stands for. */
  grid?: readonly Partial<GridState>[];
  onProgress?: (done: number, total: number) => void;
  /** The steering hold (default: the layout's), as `runSweep` takes it: the viewer's plots sweep with the document's. */
  hold?: string;
}

export function sweepClearance(sm: SuspensionModel, spec: SweepSpec, set: ClearanceSet, bodies: SuspensionBodies, options: SweepClearanceOptions = {}): SweepClearanceState[] {
  const measured = new Map<number, Record<string, PairClearance>>();
  const run = runSweep(sm, spec, {
    metrics: () => ({}),
    onSolvedState: (step) => measured.set(step.index, set.measure(bodies.poseOf)),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.hold !== undefined ? { hold: options.hold } : {}),
  });
  return run.steps.map((step) => {
    const point = options.grid?.[step.index];
    const state: SweepClearanceState = {
      index: step.index,
      ...(point?.bump !== undefined ? { bump: point.bump } : {}),
      ...(point?.steer !== undefined ? { steer: point.steer } : {}),
      drivers: step.drivers,
      status: step.status,
    };
    if (step.message) state.message = step.message;
    const pairs = measured.get(step.index);
    if (step.status === 'solved' && pairs) state.pairs = pairs;
    return state;
  });
}
