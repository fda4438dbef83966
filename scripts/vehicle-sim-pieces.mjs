#!/usr/bin/env node
/**
 * The bench's vehicle simulation (bench/vehicle-sim-case.ts: the sedan over an ISO 8608 class C
 * road, h = 1 ms, R³ × SO(3)) taken apart, for work on an evaluation's pieces:
 *
 *   node scripts/vehicle-sim-pieces.mjs hash [CHECKOUT]              the state, v and λ every 50 steps (300–1500), hashed
 *   node scripts/vehicle-sim-pieces.mjs time OTHER_CHECKOUT [ROUNDS]   the pieces at a fixed state, interleaved (default 21)
 *
 * `hash`: a change that does the same operations in the same order prints the same hash (and
 * factorisation count) as the checkout it started from. `time`: both checkouts step 300 times,
 * then each piece of an evaluation — the rows with their Jacobian (ConstraintRows.evaluate as a
 * Newton iteration calls it), Jᵀλ, the forces' Q, the gyroscopic force, the dynamic residual, a
 * solve with the kept factors, a refactor's assembly of the compact matrix (the rows' entries, the dynamic
 * block with K and C's products kept), a retraction with its followProduct, a whole refactor
 * (the matrix's assembly and its factors) — runs 2000 times in a loop, the checkouts in
 * turn (who goes first alternating), CPU time (process.cpuUsage); prints the medians in µs a
 * call (A: OTHER_CHECKOUT, B: this one) and of the rounds' B/A. Each checkout's sources are
 * bundled by esbuild (packages left as imports) into node_modules/.cache/vehicle-sim-pieces/ of
 * this checkout; nothing is written to the other. It reads the integrator's private fields
 * (constraints, forces, lambda): a checkout where they are named otherwise needs this adapted.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleStepper, timeInterleaved } from './vehicle-sim-stepper.mjs';

const here = resolve(fileURLToPath(new URL('..', import.meta.url)));
const out = join(here, 'node_modules/.cache/vehicle-sim-pieces');
mkdirSync(out, { recursive: true });

/** makeIntegrator of REPO's bundle (scripts/vehicle-sim-stepper.mjs): each call a fresh model's integrator. */
async function bundleIntegrator(repo, name) {
  const make = await bundleStepper(repo, out, name);
  return () => make().integrator;
}

/** Where the checkout's writers put a refactor's matrix: the factors' places (IterationPattern.directTo, Session 18), or null where it has no targets. */
function target(it) {
  const l = it.lin, p = l.pattern;
  if (!p.directTo) return null;
  const placed = l.luNonzero.placeCompact(p.entries, p.N, p.keptEntries);
  return placed ? p.directTo(placed) : p.plain;
}

const stepTo = (it, from, to) => { for (let k = from + 1; k <= to; k++) if (!it.step(0.001, k * 0.001)) throw new Error(`the step at ${k} ms failed`); };

async function hash(repo) {
  const it = (await bundleIntegrator(repo, 'hash'))();
  const h = createHash('sha256');
  for (let k = 0; k < 1500; k += 50) {
    stepTo(it, k, k + 50);
    if (k + 50 >= 300) for (const a of [it.system.state, it.v, it.lambda]) h.update(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  }
  console.log(`${h.digest('hex').slice(0, 16)}  factorisations ${it.factorisations}  (${repo})`);
}

async function time(other, rounds) {
  const its = [];
  for (const [i, repo] of [other, here].entries()) { const it = (await bundleIntegrator(repo, `time-${i}`))(); stepTo(it, 0, 300); its.push(it); }
  const pieces = {
    rows: (it) => { const c = it.constraints; return () => c.evaluate(true, false); },
    'Jᵀλ': (it) => { const c = it.constraints, r = new Float64Array(it.size); c.evaluate(true, false); return () => c.addTransposeTimes(r, it.lambda); },
    Q: (it) => { const f = it.forces, Q = new Float64Array(it.size); return () => f.assemble(it.v, 0.3, Q, null, null); },
    // the step's own work (kernel/integrator): the gyroscopic force, the dynamic residual with its Jᵀλ, a solve, a retraction with its followProduct
    gyro: (it) => { const lin = it.lin; return () => lin.gyro(it.v); },
    resid: (it) => { const lin = it.lin, c = it.constraints; c.evaluate(true, false); return () => lin.dynamicResidual(it.vdot, it.lambda, c); },
    solve: (it) => { const lin = it.lin, b = new Float64Array(lin.rhs.length); return () => { b.fill(1e-3); lin.solve(b); }; },
    // a refactor's assembly of the compact matrix (kernel/integrator/pattern.ts): the rows' entries, the dynamic block with kept K and C products,
    // into the factors' places where the checkout writes them there (a target: Session 18), else into the list
    'J→list': (it) => { const p = it.lin.pattern, c = it.constraints, t = target(it); c.evaluate(true, false); return t ? () => p.addRows(t, c) : () => p.addRows(c); },
    dynamic: (it) => {
      const l = it.lin, p = l.pattern, t = target(it);
      return t ? () => p.writeDynamic(t, l.gyroBlocks, l.gyroScale, l.masses, l.bodySlot, l.K, l.C, 1000, 0.5, l.derivatives) : () => p.writeDynamic(l.gyroBlocks, l.gyroScale, l.masses, l.bodySlot, l.K, l.C, 1000, 0.5, l.derivatives);
    },
    // the whole refactor as the step makes it: the matrix assembled (the rows as evaluated above), then its factors
    factor: (it) => { const l = it.lin, c = it.constraints, s = it.scheme, N = it.size + it.activeRows().length; return () => { if (!l.factor(N, s.betaP, s.gammaP, c)) throw new Error('the refactor failed'); }; },
    retract: (it) => { const s = it.system.state, saved = s.slice(), step = new Float64Array(it.size).fill(1e-4); return () => { s.set(saved); it.retract(step); it.followProduct(); }; },
  };
  timeInterleaved(its, pieces, rounds);
}

const [mode, arg, roundsArg] = process.argv.slice(2);
if (mode === 'hash') await hash(resolve(arg ?? here));
else if (mode === 'time' && arg) await time(resolve(arg), Number(roundsArg ?? 21));
else { console.error('usage: node scripts/vehicle-sim-pieces.mjs hash [CHECKOUT] | time OTHER_CHECKOUT [ROUNDS]'); process.exit(1); }
