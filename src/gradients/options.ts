/** What a gradient run is asked with and what it gives per result (run.ts, and every stage that reads them). */
import type { IntegratorGroup, IntegratorMethod } from '../../kernel/integrator/integrator';

export interface DynamicGradient {
  /** The result's value. */
  value: number;
  /** Its time (s). */
  t: number;
  /** d(value)/d(parameter) per parameter, in the result's unit per the parameter's file unit. */
  gradient: number[];
  steps: number;
  /** A crossing time's rate with its level, ∂T/∂level (T = t_n + h (X − x_n)/(x_n+1 − x_n): h/(x_n+1 − x_n)). */
  perLevel?: number;
}

export interface GradientOptions {
  duration: number;
  step: number;
  method?: IntegratorMethod;
  rhoInf?: number;
  /**
   * The group poses step on, as `simulate` takes it; default 'R3xSO3', `simulate`'s own (the
   * gradient is then the exact derivative of what it prints: product-step.ts); 'SE3' the other.
   */
  lieGroup?: IntegratorGroup;
  /**
   * The run's Newton bounds (IntegratorOptions' constraintTolerance, residualTolerance); default
   * theirs. Tighter for checks that must follow the discrete map closer than where a
   * tolerance-limited Newton stops (central differences of re-runs at small moves).
   */
  constraintTolerance?: number;
  residualTolerance?: number;
  /** Progress: each forward step taken (steps done of those asked) and, on the adjoint route, each step swept back (of the sweep's). */
  onProgress?: (pass: 'forward' | 'backward', done: number, total: number) => void;
  /**
   * How the start positions move with the parameters: 'file' (default) the file's start solve;
   * 'equilibrium' the start is a static equilibrium (at rest), differentiated by the implicit
   * function theorem on its balance; 'fixed' they do not move (checked: Φ_p = 0 there).
   */
  start?: 'file' | 'equilibrium' | 'fixed';
  /**
   * With start 'equilibrium': adds into K (n × n, the tangent layout, zeroed; ∂Q/∂q's sign) a
   * stiffness the start's balance is differentiated with and the run is not: what held the
   * start where it was solved in directions nothing in the run holds at rest (a whole car's
   * x, y and yaw: the vehicle's datum), so that the start's rate is that solve's.
   */
  startHold?: (K: Float64Array) => void;
}

