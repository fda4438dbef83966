/**
 * The solver: hard constraints c(x) = 0 (mates, joints, couplings, held coordinates, active
 * limits) and a ranked soft objective (drag pulls, the grabbed body's resistance to
 * turning, damping of every other free variable toward where it was). Each step satisfies
 * the linearised constraints and, among such steps, takes the one with the least
 * objective: a constrained Gauss–Newton/Levenberg–Marquardt, so a long lever can never turn
 * tiny constraint slack into visible motion.
 *
 * Two linear algebra paths, one iteration scheme (Newton with backtracking; drags as
 * feasible steps, see pulledNewton):
 *
 * - dense, for small groups (a suspension corner, a four-bar), exact and rank-revealing:
 *     J δ = −c on the independent rows (pivoted QR of Jᵀ: rank, redundancy for free),
 *     δ = Q [y; z],  R₁₁ᵀ y = −c_P,  z = argmin objective in the null space Z = Q[:, r:].
 * - sparse, for groups above SPARSE_MIN_UNKNOWNS unknowns (kernel/sparse.ts): J stored by
 *   row blocks, the minimum-norm step from the normal equations of the rows,
 *     (J Jᵀ + ε·diag) μ = −c,  δ = Jᵀ μ  (then iterative refinement),
 *   and a drag's step from the range-space form of the KKT system with the objective's
 *   block-diagonal Gauss–Newton Hessian H:
 *     (J H⁻¹ Jᵀ + ε·diag) λ = c − J H⁻¹ g,  δ = −H⁻¹ (g + Jᵀ λ),
 *   both factored by an envelope Cholesky in reverse Cuthill–McKee block order. The small
 *   relative ε makes redundant but consistent rows (a closed planar loop's out-of-plane
 *   rows, the Bennett linkage) harmless; conflicting rows still end "failed" (no descent).
 *
 * Groups that hold and are not pulled are skipped; a group of pure constraint blocks that
 * was found holding is remembered with the exact state values its blocks read, and is not
 * evaluated again until one of them changes (a drag in a large assembly evaluates only the
 * pulled group).
 *
 * With no objective the step is the minimum-norm Newton step: the linkage moves the least.
 * The solve never throws on numerical trouble: it returns a report.
 *
 * The parts, each in its own file of kernel/solver/: options.ts (what a solve is asked for),
 * groups.ts (groups, workspaces, assembly of rows), objective.ts (pulls, damping), linear.ts
 * (the Linear interface), dense.ts and sparse.ts (its two paths), newton.ts (the iterations).
 */
import { ScalarTargetBlock, type System } from '../system';
import { type Group, type Workspace, groupsOf, workspace, stillHolds, recordHolds, colMapOf } from './groups';
import { maxAbs, type Linear } from './linear';
import { DenseLinear } from './dense';
import { SparseLinear } from './sparse';
import { newton, pulledNewton } from './newton';
export { type Group, groupsOf, RANK_TOLERANCE, assembleGroup } from './groups';
export { SPARSE_REGULARISATION } from './sparse';
import type { Pull, SolveOptions } from './options';
export type { Pull, SolveOptions } from './options';

/**
 * Groups with more unknowns than this use the sparse path under linearSolver 'auto'. Measured:
 * the sparse step overtakes the dense one from about 30 unknowns (a drag's null-space
 * objective even earlier), but below this size the dense path is still well under a
 * millisecond and its rank decisions are exact, so every suspension group (the double
 * wishbone axle is 47) and the four-bars keep it; a 100-link chain (693) or a Stewart
 * platform (84) do not.
 */
export const SPARSE_MIN_UNKNOWNS = 60;

export interface SolveReport {
  status: 'solved' | 'failed';
  converged: boolean;
  /** Newton iterations, summed over groups. */
  iterations: number;
  /** Largest |row| of the hard constraints at the end (a length). */
  maxResidual: number;
  /** Owners of blocks whose rows do not hold. */
  failed: string[];
  /** Names of scalar variables that sit at a limit. */
  atLimit: string[];
  /** Independent groups in the system, and how many were actually solved. */
  groups: number;
  groupsSolved: number;
  /** Set when something numerical went wrong (NaN, stall). */
  message?: string;
}

/**
 * Solve every group that needs it. Never throws on numerical trouble; see SolveReport.
 */
export function solve(system: System, options: SolveOptions = {}): SolveReport {
  const structure = groupsOf(system);
  const L = system.lengthScale;
  const tol = (options.tolerance ?? 1e-12) * L;
  const pulls = options.pulls ?? NO_PULLS;
  let iterations = 0, groupsSolved = 0;
  let message: string | undefined;
  const atLimit: string[] = [];
  let groupMax = 0;
  const skip = options.skipSatisfied ?? true;
  // Each group in turn (one function with solve, not a function of its own: run once a solve,
  // the two were marked for V8's optimising compiler a drive later each, and their compiles
  // landed in the drives fourbar_drive_step_us times; docs/solver-warm-up.md, session 16).
  for (let gi = 0; gi < structure.groups.length; gi++) {
    const g = structure.groups[gi];
    const groupPulls = pulls.length === 0 ? NO_PULLS : pullsOf(structure, pulls, gi);
    const ws = workspace(g, system);
    const lin = linearOf(system, g, ws, options);
    let limits: ScalarTargetBlock[] = NO_LIMITS; // a new list only when a limit binds
    let groupResidual: number, solved = false;
    // A group that held at exactly this state still holds: no evaluation needed.
    if (skip && groupPulls.length === 0 && stillHolds(system, ws, tol) && !limitViolated(system, g, tol)) {
      groupResidual = ws.verifiedMax;
    } else {
      // Release nothing we carry over: each solve starts with no active limit; a limit that
      // the motion pushes past is clamped and the group re-solved (the active set). (Only
      // when the last solve left limit rows: without them setLimits would change nothing the
      // assembly below does not set, and a small method called once a solve was compiled on
      // its own in a fresh process's drives 4–5: docs/solver-warm-up.md.)
      if (lin.limited) lin.setLimits(limits);
      // The Jacobian comes along when the group will surely need it (pulled) or on the sparse
      // path (no chord steps); the dense path's Newton step asks for it.
      let m = lin.assemble(groupPulls.length > 0 || lin.sparse);
      if (skip && groupPulls.length === 0 && maxAbs(lin.c, m) <= tol && !limitViolated(system, g, tol)) {
        groupResidual = maxAbs(lin.c, m);
        recordHolds(system, g, ws, groupResidual);
      } else {
        let groupMessage: string | undefined;
        const r = groupPulls.length > 0 ? pulledNewton(system, g, lin, ws, groupPulls, options, tol) : newton(system, g, lin, ws.saved, options, tol);
        iterations += r.iterations;
        if (!r.converged) groupMessage = r.message;
        else if (g.limited.length > 0) {
          limits = activeSet(system, g, lin, ws, groupPulls, options, tol);
          iterations += activeSetTally.iterations;
          groupMessage = activeSetTally.message;
        }
        m = lin.fresh ? lin.m : lin.assemble(false);
        // the hard rows of the blocks come first; active limit rows after them are the active set's own
        groupResidual = maxAbs(lin.c, m - limits.length);
        solved = true;
        if (groupMessage) { if (!message) message = groupMessage; }
        else if (limits.length === 0 && groupResidual <= tol) recordHolds(system, g, ws, groupResidual);
      }
    }
    if (!(groupResidual <= groupMax)) groupMax = groupResidual;
    if (solved) groupsSolved++;
    if (g.limited.length) atLimitNames(system, g, tol, atLimit);
  }
  // Each group knows its own largest row; only blocks that read no free variable remain.
  const maxResidual = structure.frozenBlocks.length === 0 ? groupMax : frozenMax(system, structure.frozenBlocks, groupMax);
  if (maxResidual <= tol * 10 && system.heldPastLimits(0) === null) {
    // the common case, kept short (V8 optimises a short function sooner): converged, nothing held past a limit
    return { status: 'solved', converged: true, iterations, maxResidual, failed: [], atLimit, groups: structure.groups.length, groupsSolved };
  }
  return finishReport(system, structure.groups.length, iterations, groupsSolved, atLimit, maxResidual, tol, message);
}

/** What activeSet adds to its solve: its iterations, and the message of a pass that did not converge. */
const activeSetTally = { iterations: 0, message: undefined as string | undefined };

/**
 * The active set of g's limits, after a first solve that converged: clamp every coordinate
 * that went past a limit and solve again, until none does (at most one pass a limited
 * coordinate). Returns the limit rows; activeSetTally says what the passes took. (Out of
 * solve, which runs at every step of a drive: V8 optimises a function after ticks in
 * proportion to its size, and its ticks come from the code that runs; docs/solver-warm-up.md.)
 */
function activeSet(system: System, g: Group, lin: Linear, ws: Workspace, groupPulls: readonly Pull[], options: SolveOptions, tol: number): ScalarTargetBlock[] {
  let limits = NO_LIMITS, iterations = 0, message: string | undefined;
  for (let pass = 1; ;) {
    const more = clampPastLimits(system, g, tol, limits);
    if (more === null) break;
    limits = more;
    lin.fresh = false;
    lin.setLimits(limits);
    if (!(pass <= g.limited.length)) break;
    pass++;
    const r = groupPulls.length > 0 ? pulledNewton(system, g, lin, ws, groupPulls, options, tol) : newton(system, g, lin, ws.saved, options, tol);
    iterations += r.iterations;
    if (!r.converged) { message = r.message; break; }
  }
  activeSetTally.iterations = iterations;
  activeSetTally.message = message;
  return limits;
}

/** The pulls on group gi (NO_PULLS: none). */
function pullsOf(structure: { groupOfVar: Int32Array }, pulls: readonly Pull[], gi: number): readonly Pull[] {
  for (const p of pulls) if (structure.groupOfVar[p.variable] === gi) return pulls.filter((q) => structure.groupOfVar[q.variable] === gi);
  return NO_PULLS;
}

/** The largest row of the blocks that read no free variable (limits aside), or `max` when larger. */
function frozenMax(system: System, frozenBlocks: readonly number[], max: number): number {
  for (const b of frozenBlocks) {
    const blk = system.block(b);
    if (blk.kind === 'limit') continue;
    if (frozenBuf.length < blk.rows) frozenBuf = new Float64Array(blk.rows);
    system.evaluateBlock(b, frozenBuf, null);
    const mx = maxAbs(frozenBuf, blk.rows);
    if (!(mx <= max)) max = mx;
  }
  return max;
}

/** The report when a row does not hold or a coordinate is held (the failing owners, holds past their limits). */
function finishReport(system: System, groups: number, iterations: number, groupsSolved: number, atLimit: string[], maxResidual: number, tol: number, message: string | undefined): SolveReport {
  // Name the failing owners only when something fails (an extra pass over the blocks).
  const report = maxResidual <= tol * 10 ? { maxResidual, failed: [] as string[] } : system.residualReport(tol * 10);
  let converged = report.failed.length === 0 && Number.isFinite(report.maxResidual);
  // A coordinate held past its own limit: the hold and the limit cannot both be kept.
  const pastLimits = system.heldPastLimits(0);
  if (pastLimits !== null) {
    converged = false;
    for (const name of pastLimits) {
      if (!atLimit.includes(name)) atLimit.push(name);
      if (!report.failed.includes(`hold:${name}`)) report.failed.push(`hold:${name}`);
    }
    message = `${pastLimits.join(', ')} held past ${pastLimits.length > 1 ? 'their limits' : 'its limit'}`;
  }
  if (!converged && !message) message = Number.isFinite(report.maxResidual) ? 'constraints do not hold' : 'non-finite residual';
  const out: SolveReport = {
    status: converged ? 'solved' : 'failed',
    converged,
    iterations,
    maxResidual: report.maxResidual,
    failed: report.failed,
    atLimit,
    groups,
    groupsSolved,
  };
  if (message && !converged) out.message = message;
  return out;
}

const NO_PULLS: readonly Pull[] = [];
const NO_LIMITS: ScalarTargetBlock[] = [];
let frozenBuf = new Float64Array(16);

/** The group's linear algebra for this solve: sparse above the threshold (or when asked). */
function linearOf(system: System, g: Group, ws: Workspace, options: SolveOptions): Linear {
  const mode = options.linearSolver ?? 'auto';
  const sparse = mode === 'sparse' || (mode === 'auto' && g.n > SPARSE_MIN_UNKNOWNS);
  if (sparse) return ws.sparse ??= new SparseLinear(system, g, colMapOf(system, g));
  return ws.dense ??= new DenseLinear(system, g, colMapOf(system, g));
}

/**
 * Clamp every limited coordinate of g that went past a bound and has no limit row yet; returns
 * the limit rows with theirs added (a new list when `limits` is NO_LIMITS), or null when none was.
 */
function clampPastLimits(system: System, g: Group, tol: number, limits: ScalarTargetBlock[]): ScalarTargetBlock[] | null {
  let added = false;
  for (const v of g.limited) {
    const variable = system.variables[v];
    const [lo, hi] = variable.limits!;
    const x = system.state[variable.offset];
    const slack = tol / variable.scale;
    const bound = x < lo - slack ? lo : x > hi + slack ? hi : null;
    if (bound === null || limits.some((l) => l.vars[0] === v)) continue;
    system.state[variable.offset] = bound;
    if (limits === NO_LIMITS) limits = [];
    limits.push(new ScalarTargetBlock(`limit:${variable.name}`, v, bound, variable.scale, 'limit'));
    added = true;
  }
  return added ? limits : null;
}

function limitViolated(system: System, g: Group, tol: number): boolean {
  for (const v of g.limited) {
    const variable = system.variables[v];
    const [lo, hi] = variable.limits!;
    const x = system.state[variable.offset];
    const slack = tol / variable.scale;
    if (x < lo - slack || x > hi + slack) return true;
  }
  return false;
}
/** Append the names of g's limited coordinates that sit at a bound to `names`. */
function atLimitNames(system: System, g: Group, tol: number, names: string[]): void {
  for (const v of g.limited) {
    const variable = system.variables[v];
    const [lo, hi] = variable.limits!;
    const x = system.state[variable.offset];
    const slack = 10 * tol / variable.scale;
    if (Math.abs(x - lo) <= slack || Math.abs(x - hi) <= slack) names.push(variable.name);
  }
}

