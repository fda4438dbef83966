/**
 * The integrator steps the gradient files check their runs at. Each check holds at any step on
 * its own (the gradient is the discrete run's, against differences of runs at that step), so
 * `npm run test:fast` (the unit project) checks at the coarser step only (2e-3 s; 5e-3 s in
 * reaction-results and test/suspension/gradients/simulation), and the `fine-steps` project
 * (`npm test`, CI; its files listed in vitest.config.ts FINE_STEPS) runs the same files again
 * with KINEMATE_GRADIENT_STEPS=fine at the finer one only (1e-3 s; 2.5e-3 s),
 * leaving out their tests that have no step of their own (`itOnce`, `describeOnce`): every
 * check still runs at both steps in a full run.
 */
import { describe, it } from 'vitest';

const FINE = process.env.KINEMATE_GRADIENT_STEPS === 'fine';

/** A file's two steps as this run checks them: the coarser, or the finer in the fine-steps project. */
export const stepsOf = (coarse: number, fine: number): readonly number[] => (FINE ? [fine] : [coarse]);
/** 2e-3 s, or 1e-3 s in the fine-steps project. */
export const STEPS = stepsOf(2e-3, 1e-3);
/**
 * A test without a step of its own: run once, in the unit project; in the fine-steps project
 * not registered at all (a skipped test would read as one left out in the run's summary).
 */
const unregistered = (() => undefined) as unknown;
export const itOnce = (FINE ? unregistered : it) as typeof it;
export const describeOnce = (FINE ? unregistered : describe) as typeof describe;
