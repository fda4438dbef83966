#!/usr/bin/env node
/**
 * The integrator's own pieces around the solve (kernel/integrator, kernel/forces.ts), of the
 * bench's vehicle simulation at step 300's state, two checkouts interleaved in one process:
 *
 *   node scripts/vehicle-sim-iteration.mjs OTHER_CHECKOUT [ROUNDS]      (default 15)
 *
 * Pieces, each 2000 times a round, CPU time (process.cpuUsage), who goes first alternating:
 * `assembly` a refactor's matrix as a deferred refresh makes it (clear, gyroscopic blocks, mass,
 * K and C, the rows) with the LU itself stubbed out; `Q` the forces as a Newton iteration asks
 * them (K and C cleared on their pattern, the integrator's rotation matrices where a checkout
 * takes them); `gyres` the gyroscopic force with the dynamic residual and its Jᵀλ. Prints the
 * medians in µs a call (A: OTHER_CHECKOUT, B: this one) and of the rounds' B/A. It reads the
 * integrator's private fields (lin, constraints, forces): a checkout naming them otherwise needs
 * this adapted. (scripts/vehicle-sim-pieces.mjs times the evaluation's pieces.)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper, timeInterleaved } from './vehicle-sim-stepper.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = join(here, 'node_modules/.cache/vehicle-sim-iteration');
mkdirSync(out, { recursive: true });
const [other, roundsArg] = process.argv.slice(2);
if (!other) { console.error('usage: node scripts/vehicle-sim-iteration.mjs OTHER_CHECKOUT [ROUNDS]'); process.exit(1); }
const rounds = Number(roundsArg ?? 15);

const its = [];
for (const [i, repo] of [resolve(other), here].entries()) {
  const step = (await bundleStepper(repo, out, `it-${i}`))();
  step(300);
  its.push(step.integrator);
}
const pieces = {
  assembly: (it) => {
    const lin = it.lin, c = it.constraints, N = it.size + c.activeCount;
    c.evaluate(true, false);
    lin.luNonzero.factorCompact = () => true;
    return () => { lin.deferredMatrix(it.forces, false, it.v, it.vdot, it.lambda, c, 0.3, N, 0.5); lin.factor(N, 1e6, 1e3, c); };
  },
  Q: (it) => { const f = it.forces, Q = new Float64Array(it.size), turns = it.lin.turns ?? null; return () => f.assemble(it.v, 0.3, Q, null, null, true, turns); },
  gyres: (it) => { const lin = it.lin, c = it.constraints; c.evaluate(true, false); return () => lin.gyroResidual(it.v, it.vdot, it.lambda, c); },
};
timeInterleaved(its, pieces, rounds, 8);
