/**
 * The consistent start's two linear solves (Integrator.start): the velocity projection's
 * metric, and the accelerations and multipliers of the constrained equations at t0.
 */
import { IntegratorError } from './errors';
import { masslessNames } from './massless';
import type { ConstraintRows } from './rows';
import type { IterationSystem, IntegratorBody } from './iteration';
import type { TimeDriver } from '../motion';
import type { System } from '../system';

/**
 * The projection's metric per tangent slot: a turn rate counts as L × it, a scalar's rate as
 * scale × it (D); W is D with the `specified` slots made stiff, so the projection keeps them.
 */
export function velocityMetric(system: System, layout: Int32Array, n: number, specified: ArrayLike<number> | null): { D: Float64Array; W: Float64Array } {
  const L = system.lengthScale, D = new Float64Array(n);
  for (const v of system.variables) {
    const c0 = layout[v.id];
    if (c0 < 0) continue;
    for (let k = 0; k < v.dim; k++) D[c0 + k] = v.kind === 'pose' ? (k < 3 ? L * L : 1) : v.scale * v.scale;
  }
  const W = D.map((d, i) => (specified && specified[i] ? d * 1e10 : d));
  return { D, W };
}

/** What the acceleration solve reads: the integrator's parts at the start. */
export interface StartParts {
  system: System;
  bodies: readonly IntegratorBody[];
  lin: IterationSystem;
  constraints: ConstraintRows;
  drivers: readonly TimeDriver[];
  driverRow: Int32Array;
}

/**
 * [M, Jᵀ; J, 0] [v̇; λ] = [Q − g; −Φ_tt] on the active rows, at velocity v (Q already in
 * lin.Q, g in lin.G): v̇ into vdot and a, λ into lambda (zero on inactive rows).
 */
export function startAccelerations(p: StartParts, n: number, vdot: Float64Array, a: Float64Array, lambda: Float64Array): void {
  const { lin, constraints } = p;
  const ma = constraints.activeCount, active = constraints.active;
  const N = n + ma, S = lin.S, rhs = lin.rhs;
  S.fill(0, 0, N * N);
  lin.addMass(S, N, 1);
  constraints.addToMatrix(S, N);
  for (let i = 0; i < n; i++) rhs[i] = lin.Q[i] - lin.G[i];
  for (let i = 0; i < ma; i++) rhs[n + i] = 0;
  p.drivers.forEach((d, k) => {
    const row = p.driverRow[k];
    for (let i = 0; i < ma; i++) if (active[i] === row) rhs[n + i] = -d.acceleration();
  });
  if (!lin.lu.factor(S, N, 1e-13)) {
    const names = masslessNames(p.system, p.bodies);
    throw new IntegratorError(`the mass matrix is singular on the motion the mates allow${names.length ? `: ${names.join(', ')} move without mass or inertia` : ''}`);
  }
  lin.lu.solve(rhs);
  for (let i = 0; i < n; i++) { vdot[i] = rhs[i]; a[i] = rhs[i]; }
  lambda.fill(0);
  for (let i = 0; i < ma; i++) lambda[active[i]] = rhs[n + i];
  for (let i = 0; i < rhs.length; i++) if (!Number.isFinite(rhs[i])) throw new IntegratorError('the start is singular (non-finite accelerations)');
}
