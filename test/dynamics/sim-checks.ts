/**
 * Checks shared by the start and redundant-row gradient tests: the adjoint against the direct
 * route, and each entry against central differences of whole re-runs (the file changed by a
 * function of the move, the run redone from scratch: build, start solve, projection, steps).
 */
import { expect } from 'vitest';
import { parseParameter, parseResult, simulationGradient, simulationGradientAdjoint, type DynamicGradient, type GradientOptions } from '../../src/dynamics/sensitivity';
import type { AssemblyDoc } from '../../src/assembly/types';

/** A change of the file by d (a copy is passed): the parameter's own move. */
export type Move = (doc: any, d: number) => void;

/** A copy of `doc` with `move` applied by d. */
export function movedDoc(doc: unknown, move: Move, d: number): AssemblyDoc {
  const c = structuredClone(doc);
  move(c, d);
  return c as AssemblyDoc;
}

/** An entity coordinate's move: a point, or a frame's origin. */
export const entity = (part: string, group: 'points' | 'frames', name: string, axis: 0 | 1 | 2): Move => (doc, d) => {
  const e = doc.parts[part][group][name];
  (Array.isArray(e) ? e : e.origin)[axis] += d;
};

/** Direct and adjoint gradients, each entry equal to `tol` relative (floored at `floor` of the largest); the direct one returned. */
export function bothRoutes(doc: AssemblyDoc, params: string[], result: string, options: GradientOptions, tol = 1e-10, floor = 1e-4): DynamicGradient {
  const ps = params.map(parseParameter), r = parseResult(result);
  const d = simulationGradient(doc, ps, r, options), a = simulationGradientAdjoint(doc, ps, r, options);
  expect(a.value).toBe(d.value);
  const scale = Math.max(...d.gradient.map(Math.abs));
  expect(scale).toBeGreaterThan(0);
  d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x), `${result} ${params[j]} adjoint ${a.gradient[j]} direct ${x}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(x), floor * scale)));
  return d;
}

/** The largest relative error of the entries against central differences (±δ_j), floored at 1e-4 of the largest entry. */
export function differenceError(doc: unknown, gradient: readonly number[], moves: readonly Move[], deltas: readonly number[], result: string, options: GradientOptions): { worst: number; errors: number[] } {
  const value = (d: AssemblyDoc) => simulationGradient(d, [], parseResult(result), options).value;
  const scale = Math.max(...gradient.map(Math.abs));
  const errors = moves.map((mv, j) => {
    const fd = (value(movedDoc(doc, mv, deltas[j])) - value(movedDoc(doc, mv, -deltas[j]))) / (2 * deltas[j]);
    return Math.abs(gradient[j] - fd) / Math.max(Math.abs(fd), 1e-4 * scale);
  });
  return { worst: Math.max(...errors), errors };
}
