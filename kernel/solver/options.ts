/** What a solve is asked for: its pulls and settings (read by every part of the solver, so apart from solve.ts). */
export interface Pull {
  /** The pose variable grabbed. */
  variable: number;
  /** The grabbed point in the body's own frame. */
  point: ArrayLike<number>;
  /** Where the pointer wants it, in world coordinates. */
  target: ArrayLike<number>;
  /** Weight of this pull (default 1). */
  weight?: number;
}

export interface SolveOptions {
  pulls?: readonly Pull[];
  /** Newton iterations per group (default 60). */
  maxIterations?: number;
  /** Constraint tolerance relative to the model length scale (default 1e-12). */
  tolerance?: number;
  /** Weight of "stay where you were" for every free variable not grabbed (default 1e-4). */
  damping?: number;
  /** Weight of the grabbed body's resistance to turning (default 1e-2). */
  turnResistance?: number;
  /** Largest scaled step per iteration, relative to the length scale (default 0.5). */
  trustRadius?: number;
  /**
   * Skip groups that already hold and are not pulled (default true). A group whose blocks
   * are all constraints (no drivers, whose targets change in place) and that held at exactly
   * the current values of the state it reads is skipped without evaluating it.
   */
  skipSatisfied?: boolean;
  /**
   * Linear algebra per group: 'dense' (pivoted QR, exact rank), 'sparse' (block-sparse
   * normal equations, envelope Cholesky) or 'auto' (default): sparse above
   * SPARSE_MIN_UNKNOWNS unknowns.
   */
  linearSolver?: 'auto' | 'dense' | 'sparse';
  /**
   * Take every warm chord chain on to a hundredth of the tolerance, not only the long ones
   * (default false; kernel/solver/newton.ts). A drive asks for it: its high-order predictor
   * leaves chains of one or two chords, which would otherwise stop just under the tolerance.
   */
  polish?: boolean;
}
