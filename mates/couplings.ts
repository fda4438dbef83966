/**
 * Couplings: one linear row between two coordinates, b = k·a + offset, in b's units
 * times b's length scale (so the row is a length). Gear, belt, rack-and-pinion, screw and
 * linear are presets of the same relation.
 */
import type { ResidualBlock } from '../kernel/system';

import type { CouplingType } from './vocabulary';
export type { CouplingType };

export class CouplingBlock implements ResidualBlock {
  readonly rows = 1;
  readonly kind = 'constraint' as const;
  readonly vars: readonly number[];
  /**
   * @param k b per unit of a (internal units: radians, lengths)
   * @param offset b at a = 0 (internal units)
   * @param scaleB length that one unit of b stands for
   */
  constructor(readonly owner: string, a: number, b: number, readonly k: number, readonly offset: number, private scaleB: number) {
    this.vars = [a, b];
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    const a = state[offsets[0]], b = state[offsets[1]];
    residual[0] = (b - this.k * a - this.offset) * this.scaleB;
    if (jacobian) { jacobian[0] = -this.k * this.scaleB; jacobian[1] = this.scaleB; }
  }
}

export type CoordinateKind = 'angle' | 'length' | 'parameter';

/**
 * The factor k of b = k·a for a coupling preset, from the file's numbers:
 * gear / belt / linear: `ratio` (gear −1/2: follower turns half as fast the other way);
 * rackpinion: slide = −radius·angle (a turn of the pinion by +θ moves the rack by −rθ);
 * screw: slide = lead·angle/2π (lead per turn). Either coordinate may come first.
 */
export function couplingFactor(type: CouplingType, kindA: CoordinateKind, kindB: CoordinateKind, params: { ratio?: number; radius?: number; lead?: number }): number {
  switch (type) {
    case 'gear': case 'belt': case 'linear':
      return params.ratio ?? 1;
    case 'rackpinion': {
      const r = params.radius ?? 1;
      return kindA === 'angle' && kindB === 'length' ? -r : kindA === 'length' && kindB === 'angle' ? -1 / r : -r;
    }
    case 'screw': {
      const perRad = (params.lead ?? 1) / (2 * Math.PI);
      return kindA === 'angle' && kindB === 'length' ? perRad : kindA === 'length' && kindB === 'angle' ? 1 / perRad : perRad;
    }
  }
}
