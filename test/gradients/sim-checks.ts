/**
 * Checks shared by the start and redundant-row gradient tests: the adjoint against the direct
 * route, and each entry against central differences of whole re-runs (the file changed by a
 * function of the move, the run redone from scratch: build, start solve, projection, steps).
 */
import { expect } from 'vitest';
import { parseParameter, parseResult, simulationGradients, type DynamicGradient, type DynamicResult, type GradientOptions } from '../../src/gradients/run';
import { validateAssembly } from '../../src/assembly/load';
import { prepareSimulation } from '../../src/mechanics/simulate';
import { rotationMatrix } from '../../kernel/dual';
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

/**
 * Direct and adjoint gradients of several results, each entry equal to `tol` relative (floored
 * at `floor` of its result's largest; one floor per result where an array); the direct ones returned. One run each way serves every
 * result (each result's numbers are those of its own single-result run: hardpoints.test.ts).
 */
export function bothRoutesAll(doc: AssemblyDoc, params: string[], results: readonly string[], options: GradientOptions, tol = 1e-10, floor: number | readonly number[] = 1e-4): DynamicGradient[] {
  const ps = params.map(parseParameter), rs = results.map(parseResult);
  const ds = simulationGradients(doc, ps, rs, options, 'direct').results, as = simulationGradients(doc, ps, rs, options, 'adjoint').results;
  return ds.map((d, k) => {
    const a = as[k];
    expect(a.value).toBe(d.value);
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x), `${results[k]} ${params[j]} adjoint ${a.gradient[j]} direct ${x}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(x), (typeof floor === 'number' ? floor : floor[k]) * scale)));
    return d;
  });
}

/** Central differences (±δ_j) of every result at once, fd[j][k] for move j and result k: each move's two re-runs serve them all. */
export function centralDifferences(doc: unknown, moves: readonly Move[], deltas: readonly number[], results: readonly string[], options: GradientOptions): number[][] {
  const rs = results.map(parseResult);
  const values = (d: AssemblyDoc) => simulationGradients(d, [], rs, options, 'direct').results.map((r) => r.value);
  return moves.map((mv, j) => {
    const up = values(movedDoc(doc, mv, deltas[j])), down = values(movedDoc(doc, mv, -deltas[j]));
    return up.map((u, k) => (u - down[k]) / (2 * deltas[j]));
  });
}

/** The entries' relative errors against their differences (floored at 1e-4 of the largest entry), and the largest. */
export function errorsAgainst(gradient: readonly number[], fd: readonly number[]): { worst: number; errors: number[] } {
  const scale = Math.max(...gradient.map(Math.abs));
  const errors = fd.map((f, j) => Math.abs(gradient[j] - f) / Math.max(Math.abs(f), 1e-4 * scale));
  return { worst: Math.max(...errors), errors };
}

/**
 * Per result, each entry's relative error against central differences of whole re-runs (the
 * file moved ±δ by each parameter's own move, validated again), floored at 1e-4 of the
 * result's largest entry.
 */
export function entryErrors(doc: unknown, params: readonly [string, Move, number][], results: DynamicResult[], gradients: number[][], options: GradientOptions): number[][] {
  const value = (x: unknown) => simulationGradients(validateAssembly(structuredClone(x)), [], results, options, 'direct').results.map((r) => r.value);
  const out = results.map(() => [] as number[]);
  params.forEach(([, move, delta], j) => {
    const hi = value(movedDoc(doc, move, delta)), lo = value(movedDoc(doc, move, -delta));
    results.forEach((_, r) => {
      const fd = (hi[r] - lo[r]) / (2 * delta), scale = Math.max(...gradients[r].map(Math.abs));
      out[r].push(Math.abs(gradients[r][j] - fd) / Math.max(Math.abs(fd), 1e-4 * scale));
    });
  });
  return out;
}

/** The result by a plain re-run of the integrator as `simulate` steps it (R³ × SO(3), t_k = k·h): an independent route from the gradient code. */
export function rerun(doc: AssemblyDoc, r: DynamicResult, duration: number, step: number, tight = false): number {
  return rerunAll(doc, [r], duration, step, tight)[0];
}

/**
 * Several results of one plain re-run (each as `rerun` reads it; the run goes on until every
 * crossing is found). tight: Newton converged past its default noise, for differences that
 * must follow the discrete map closer.
 */
export function rerunAll(doc: AssemblyDoc, results: readonly DynamicResult[], duration: number, step: number, tight = false): number[] {
  const sim = prepareSimulation(doc, { lieGroup: 'R3xSO3', ...(tight ? { constraintTolerance: 1e-14, residualTolerance: 1e-12 } : {}) });
  const it = sim.integrator, sys = sim.dyn.system;
  const R = new Float64Array(9);
  const readers = results.map((r) => {
    const v = sys.variables[sim.dyn.model.parts.get(r.part)!];
    const p = r.point ? (doc.parts[r.part].points as any)[r.point] : [0, 0, 0];
    return () => {
      rotationMatrix(R, sys.state, v.offset + 3);
      const row = (x: number[]) => R[r.axis * 3] * x[0] + R[r.axis * 3 + 1] * x[1] + R[r.axis * 3 + 2] * x[2];
      if (r.quantity === 'position') return sys.state[v.offset + r.axis] + row(p);
      const c0 = it.layout[v.id], w = [it.v[c0], it.v[c0 + 1], it.v[c0 + 2]];
      return row([w[1] * p[2] - w[2] * p[1] + it.v[c0 + 3], w[2] * p[0] - w[0] * p[2] + it.v[c0 + 4], w[0] * p[1] - w[1] * p[0] + it.v[c0 + 5]]);
    };
  });
  const sign = results.map((r) => (r.at === 'min' ? -1 : 1));
  const best = results.map((r, k) => (r.at === 'final' ? 0 : sign[k] * readers[k]()));
  const prev = readers.map((read) => read());
  const crossed: (number | null)[] = results.map(() => null);
  const steps = Math.round(duration / step);
  // every step unless all results are crossings, all found
  const done = () => results.every((r, j) => r.at === 'crossing' && crossed[j] !== null);
  for (let k = 0; k < steps && !done(); k++) {
    if (!it.step(step, (k + 1) * step)) throw new Error('step failed');
    results.forEach((r, j) => {
      if (crossed[j] !== null) return;
      const x = readers[j]();
      if (r.at === 'crossing' && (prev[j] - r.level!) * (x - r.level!) <= 0) { crossed[j] = it.t - step + (step * (r.level! - prev[j])) / (x - prev[j]); return; }
      prev[j] = x;
      if (r.at !== 'final') best[j] = Math.max(best[j], sign[j] * readers[j]());
    });
  }
  return results.map((r, j) => {
    if (r.at === 'crossing') { if (crossed[j] === null) throw new Error('no crossing'); return crossed[j]!; }
    return r.at === 'final' ? readers[j]() : sign[j] * best[j];
  });
}
