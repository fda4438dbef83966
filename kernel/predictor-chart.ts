/**
 * The chart of a continuation's polynomial predictor (kernel/continuation.ts, order ≥ 2):
 * each accepted state's poses in body coordinates about one reference state,
 * ξ = log(ref⁻¹ ∘ x), kept with the state, so a prediction is one Lagrange sum and one
 * exponential per pose. (Coordinates about the last state, as the predictor took before,
 * are new for every past state at every sub-step: order × poses logarithms a sub-step,
 * a third of a four-bar drive step at degree 6.)
 *
 * The reference moves to the newest state once any pose has turned more than REBASE_TURN
 * from it, and every kept state's coordinates are taken again then: the chart stays far
 * from the logarithm's cut at a half turn, where its coordinates stop being smooth. A path
 * that is a polynomial of degree k in any one pose's body coordinates (a screw motion
 * whose angle is a polynomial of the driven value) is one in these, and the prediction
 * through k + 1 states is exact on it. Scalars are extrapolated as they are.
 */
import { compose, invert, log, retract } from './pose';
import type { System } from './system';

/** Largest turn (rad) of any pose from the reference before the chart moves to the newest state. */
export const REBASE_TURN = 0.5;

export class PredictorChart {
  /** The reference state's poses and their inverses (at each pose's own offset), and the state length they were taken for. */
  private ref = new Float64Array(0);
  private refInv = new Float64Array(0);
  private length = -1;

  /** Forget the reference: the next `place` takes the newest state as its reference. */
  reset(): void {
    this.length = -1;
  }

  /**
   * Coordinates of `newest` (just accepted) into `coords` (state-sized, poses at their
   * offsets, 6 numbers each). When the chart must move (no reference, another state
   * length, or a pose turned past REBASE_TURN), the newest state becomes the reference and
   * `older` (every other kept state, with its coordinates) is taken again.
   */
  place(system: System, newest: Float64Array, coords: Float64Array, older: readonly { state: Float64Array; coords: Float64Array }[]): void {
    if (this.length === newest.length && this.coordinates(system, newest, coords) <= REBASE_TURN) return;
    this.rebase(system, newest);
    this.coordinates(system, newest, coords);
    for (const s of older) this.coordinates(system, s.state, s.coords);
  }

  private rebase(system: System, state: Float64Array): void {
    if (this.ref.length !== state.length) { this.ref = new Float64Array(state.length); this.refInv = new Float64Array(state.length); }
    this.ref.set(state);
    for (const v of system.variables) {
      if (v.fixed || v.kind !== 'pose') continue;
      for (let i = 0; i < 7; i++) scratchA[i] = state[v.offset + i];
      invert(scratchB, scratchA);
      for (let i = 0; i < 7; i++) this.refInv[v.offset + i] = scratchB[i];
    }
    this.length = state.length;
  }

  /** ξ = log(ref⁻¹ ∘ x) of each free pose of `state` into coords; returns the largest turn |ω|. */
  private coordinates(system: System, state: Float64Array, coords: Float64Array): number {
    let turn = 0;
    for (const v of system.variables) {
      if (v.fixed || v.kind !== 'pose') continue;
      const o = v.offset;
      for (let i = 0; i < 7; i++) { scratchA[i] = this.refInv[o + i]; scratchB[i] = state[o + i]; }
      compose(scratchRel, scratchA, scratchB);
      log(scratchTwist, scratchRel);
      for (let j = 0; j < 6; j++) coords[o + j] = scratchTwist[j];
      const w2 = scratchTwist[0] * scratchTwist[0] + scratchTwist[1] * scratchTwist[1] + scratchTwist[2] * scratchTwist[2];
      if (!(w2 <= turn * turn)) turn = Math.sqrt(w2); // NaN: far
    }
    return turn;
  }

  /**
   * Writes into the system's state the polynomial through the last state (`x0`, with
   * coordinates `c0`) and past[0..k) (weights w[1..k]): each free pose at
   * ref ∘ exp(ξ₀ + Σ wᵢ (ξᵢ − ξ₀)), each free scalar at x₀ + Σ wᵢ (xᵢ − x₀) (the weights sum to 1).
   */
  predict(system: System, x0: Float64Array, c0: Float64Array, past: readonly { state: Float64Array; coords: Float64Array }[], k: number, w: Float64Array): void {
    const state = system.state;
    for (const v of system.variables) {
      if (v.fixed) continue;
      const o = v.offset;
      if (v.kind === 'pose') {
        for (let j = 0; j < 6; j++) {
          let x = c0[o + j];
          for (let i = 1; i <= k; i++) x += w[i] * (past[i - 1].coords[o + j] - c0[o + j]);
          scratchTwist[j] = x;
        }
        retract(state, this.ref, scratchTwist, o, o, 0);
      } else {
        let x = x0[o];
        for (let i = 1; i <= k; i++) x += w[i] * (past[i - 1].state[o] - x0[o]);
        state[o] = x;
      }
    }
  }
}

const scratchA = new Float64Array(7), scratchB = new Float64Array(7), scratchRel = new Float64Array(7), scratchTwist = new Float64Array(6);
