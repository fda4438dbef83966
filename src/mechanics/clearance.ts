/**
 * Clearance on a general assembly: which part pairs to check (those no mate joins), the
 * parts' poses out of the solved state, and the clearance of every state of a drive (the
 * drive of `kinemate drive`, N + 1 states, each solved from the last).
 */
import type { AssemblyDoc } from '../assembly/types.ts';
import { KinemateError } from '../../kernel/errors.ts';
import { COUPLING_TYPES } from '../../mates/vocabulary.ts';
import type { Model } from '../model/build.ts';
import { driveSteps } from '../model/operations.ts';
import type { PoseArray, PairClearance } from '../assembly/geometry/clearance.ts';
import type { ClearanceSet } from '../assembly/geometry/clearance-set.ts';

/** `a:b` for every two parts a mate (constraint, joint or contact) joins; couplings join coordinates, not parts. */
export function joinedPartPairs(doc: AssemblyDoc): Set<string> {
  const joined = new Set<string>();
  const couplings: readonly string[] = COUPLING_TYPES;
  for (const mate of Object.values(doc.mates)) {
    if (couplings.includes(mate.type)) continue;
    const refs = [(mate as { a?: unknown }).a, (mate as { b?: unknown }).b].filter((r): r is string => typeof r === 'string');
    const parts = refs.map((r) => r.slice(0, r.indexOf('.')));
    if (parts.length === 2 && parts[0] !== parts[1]) joined.add(`${parts[0]}:${parts[1]}`);
  }
  return joined;
}

/**
 * Part name → its pose now ([tx, ty, tz, qw, qx, qy, qz]), copied out of the model's state
 * into one buffer per part (the state array itself may be replaced when it grows).
 */
export function partPoses(model: Model): (part: string) => PoseArray {
  const buffers = new Map<string, { offset: number; pose: Float64Array }>();
  return (part) => {
    let entry = buffers.get(part);
    if (!entry) {
      const variable = model.parts.get(part);
      if (variable === undefined) throw new KinemateError(part, 'no such part in the model');
      entry = { offset: model.system.variables[variable]!.offset, pose: new Float64Array(7) };
      buffers.set(part, entry);
    }
    const state = model.system.state;
    for (let k = 0; k < 7; k++) entry.pose[k] = state[entry.offset + k]!;
    return entry.pose;
  };
}

export interface DriveClearanceState {
  index: number;
  /** The driven coordinate's value (file units). */
  value: number;
  status: 'solved' | 'failed';
  message?: string;
  /** Absent where the state failed to solve. */
  pairs?: Record<string, PairClearance>;
}

/** Clearance at every state of a drive of `coordinate` from `from` to `to` in `steps` steps (stops at the first failure, as the drive does). */
export function driveClearance(model: Model, set: ClearanceSet, coordinate: string, from: number, to: number, steps: number, onProgress?: (done: number, total: number) => void): DriveClearanceState[] {
  const poseOf = partPoses(model);
  const states: DriveClearanceState[] = [];
  for (const step of driveSteps(model, coordinate, from, to, steps, onProgress ? { onProgress } : {})) {
    const index = states.length;
    if (step.status === 'solved') states.push({ index, value: step.value, status: 'solved', pairs: set.measure(poseOf) });
    else states.push({ index, value: step.value, status: 'failed', ...(step.message ? { message: step.message } : {}) });
  }
  return states;
}
