/**
 * Central differences of whole geometry-file re-runs (the number moved in the read geometry,
 * rebuilt, re-settled, re-run) and the geometry route with chosen parameters, for the
 * geometry-gradient tests (sim-geometry-frames, sim-geometry-masses).
 */
import { expect } from 'vitest';
import { prepareSuspensionDynamics } from '../../../../src/suspension/dynamics/model';
import { geometrySimulationGradients, movedGeometrySource, parseGeometryResult, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { simulationGradients, type CombinedParameter } from '../../../../src/gradients/run';

export interface Case { source: GeometrySource; results: string[]; duration: number }

/**
 * Per result, per name: (value(θ + d) − value(θ − d))/(2d), d = delta(name), with each
 * difference's own round-off floor 1e4·|value|·ε/d (where it is 1e-4 of the entry).
 */
export interface Differences { fd: number[][]; floor: number[][] }
export function differences(c: Case, names: string[], step: number, delta: (name: string) => number): Differences {
  const value = (s: GeometrySource) => geometrySimulationGradients(s, [], c.results, { duration: c.duration, step }, 'direct').results.map((r) => r.value);
  const fd = c.results.map(() => [] as number[]), floor = c.results.map(() => [] as number[]);
  for (const name of names) {
    const d = delta(name), hi = value(movedGeometrySource(c.source, name, d)!), lo = value(movedGeometrySource(c.source, name, -d)!);
    c.results.forEach((_, r) => { fd[r].push((hi[r] - lo[r]) / (2 * d)); floor[r].push((1e4 * Math.abs(hi[r]) * Number.EPSILON) / d); });
  }
  return { fd, floor };
}

/** Relative errors against the differences, floored at 1e-4 of the result's largest entry and at the round-off floor. */
export function errors(gradients: number[][], { fd, floor }: Differences): number[][] {
  return fd.map((row, r) => {
    const scale = Math.max(...row.map(Math.abs));
    return row.map((x, j) => Math.abs(gradients[r][j] - x) / Math.max(Math.abs(x), 1e-4 * scale, floor[r][j]));
  });
}

/** Direct and adjoint routes agree to 1e-10 (floored at 1e-3 of the largest entry: a zero entry's round-off); the direct gradients. */
export function directEqualsAdjoint(c: Case, names: string[], step: number): number[][] {
  const options = { duration: c.duration, step };
  const direct = geometrySimulationGradients(c.source, names, c.results, options, 'direct');
  const adjoint = geometrySimulationGradients(c.source, names, c.results, options, 'adjoint');
  direct.results.forEach((d, r) => {
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    d.gradient.forEach((x, j) => expect(Math.abs(adjoint.results[r].gradient[j] - x), `${c.results[r]} / ${names[j]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-3 * scale)));
  });
  return direct.results.map((r) => r.gradient);
}

/** The geometry route with the parameters given (as geometrySimulationGradients builds them; no travel results). */
export function withParameters(c: Case, ps: CombinedParameter[], step: number): number[][] {
  const m = prepareSuspensionDynamics(c.source.geometry, c.source.spec);
  m.ran = true;
  const rs = c.results.map((r) => parseGeometryResult(c.source, r, m.doc).result);
  const start = c.source.spec.start === 'equilibrium' ? 'equilibrium' : 'fixed';
  return simulationGradients(m.dyn, ps, rs, { duration: c.duration, step, start }, 'direct').results.map((r) => r.gradient);
}
