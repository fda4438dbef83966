/**
 * The interface between the Newton iterations and the two linear algebra paths
 * (./solver-dense.ts, ./solver-sparse.ts).
 */
import type { ScalarTargetBlock } from '../system';
import type { Pull, SolveOptions } from './options';

// ---------------------------------------------------------------------------------------
// Linear algebra paths

/**
 * What the iterations need from a path. Two slots of rows (c and J): the current one and a
 * trial one; a line search evaluates trials and an accepted trial becomes current, so the
 * next iteration needs no evaluation. A trial's J is left out (hasJ false) where the next
 * use may well not need it (a chord step, the check that ends the solve): a mate's rows
 * cost a fraction of their Jacobian, and J is evaluated when a Newton step asks for it.
 */
export interface Linear {
  readonly sparse: boolean;
  /**
   * A drag's modified Newton: solve each step on the last factorisation of its kind first,
   * refined against the current J, and factor anew only when that converges slowly (the
   * sparse path; the dense one factors every Newton step and chords on its own).
   */
  reuseFactors: boolean;
  /** Rows of the current slot, in this path's row order (block rows first, then limits). */
  m: number;
  c: Float64Array;
  cTrial: Float64Array;
  /** Row scale factors of the last normalisation (rows of the current slot). */
  rowK: Float64Array;
  u: Float64Array;
  uTrial: Float64Array;
  /** The current slot holds the raw rows at the current state (with J when hasJ). */
  fresh: boolean;
  hasJ: boolean;
  setLimits(limits: readonly ScalarTargetBlock[]): void;
  /** Whether the last setLimits gave limit rows (false: none since the path was made). */
  limited: boolean;
  /** Evaluate the current slot at the current state; returns m. */
  assemble(withJ: boolean): number;
  /** Evaluate the trial slot (c, and J when asked) at the current state; returns its row count. */
  assembleTrial(withJ: boolean): number;
  /** The trial slot becomes the current one (the state is where it was evaluated). */
  acceptTrial(): void;
  /** Scale each row of the current J and c to unit length (rowK); the slot is no longer raw. */
  normalise(): void;
  /** The minimum-norm Newton step J u = −c (rows normalised). False on non-finite numbers. */
  newtonStep(u: Float64Array): boolean;
  /**
   * A chord step: the last Newton step's factorisation (and row scales) applied to the
   * current raw residual, u = J_last⁺(−c). False when there is none to reuse (another row
   * set since, or a path that keeps no factorisation).
   */
  chordStep(u: Float64Array): boolean;
  /**
   * Whether the last factorisation may start a new solve with a chord step: one of the same
   * rows whose Jacobian had full column rank, so the solution near here is unique and the
   * path Newton takes to it does not choose which one (an under-determined group's
   * minimum-norm step would).
   */
  warmChord(): boolean;
  /**
   * The drag step: the linearised constraints with the least objective (rows normalised).
   * 'still': nothing can move (full rank, or the objective has no descent in the null
   * space); 'nan': non-finite numbers.
   */
  pulledStep(u: Float64Array, pulls: readonly Pull[], options: SolveOptions): 'step' | 'still' | 'nan';
}

/**
 * The largest |a[i]| of the first n; NaN if any is NaN. (A NaN fails `x <= m`, so the NaN
 * test is made only where the maximum moves, not at every entry: ~3 % of a warm four-bar
 * drive step was this loop's, in newton and solve.)
 */
export function maxAbs(a: Float64Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    const x = Math.abs(a[i]);
    if (!(x <= m)) {
      if (x !== x) return NaN;
      m = x;
    }
  }
  return m;
}
/** The Euclidean norm of the first n. */
export function norm2(a: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}
