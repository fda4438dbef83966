/**
 * The results a gradient run reads, one tracker each: a part's point (position, velocity), an
 * element's own result (tension, force, a suspension quantity), a constraint's multiplier or a
 * frame's reaction, at the end, at its extreme or as a crossing time (result-reading.ts reads them).
 */
import { DynamicSensitivityError } from './errors';
import { GradientRefusal } from './refusal';
import type { HardpointParameter } from './parameters/hardpoints';
import { ownResult } from './results/own';
import { ReactionResult } from './results/reactions';
import type { RunSetup } from './setup';
import type { DynamicParameter, DynamicResult, OwnResult } from './types';

/** One result's bookkeeping over the run. */
export interface Tracker {
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

/** The trackers of the results asked, and (a reaction asked) the buffer of every row's λ' per parameter (direct). */
export function makeTrackers(s: RunSetup, results: readonly DynamicResult[]): { trackers: Tracker[]; lamAll: Float64Array | null } {
  const { dyn, it, system, parameters, doc, rowBlocks, m, P } = s;
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
  return { trackers, lamAll };
}
