/**
 * Point distances' rows |P_b − P_a| − value and their Jacobians without duals: the dual pass's
 * dvRigidPoint, dvSub, dvLength and dAddConst, bit for bit (mates/exact-rows.ts's reasons). One
 * loop over any number of rows whose data lie side by side: a block's own evaluation is a loop
 * of one, and the integrator's rows evaluate all of a car's sixteen in one call (DistanceGroup),
 * rather than a call through the block a row with its fields read each time (0.70 of the time,
 * a scratch loop at the car's state).
 */
import { tangentMode } from '../kernel/dual';
import type { TurnedGroup, TurnedMember } from '../kernel/system';
import { hypotInto } from './plain-values';

/**
 * The rows' data: row j's points (A's then B's, each in its part's frame) at points[6j ..],
 * its parts' rotations at R[turn[2j] ..] and R[turn[2j + 1] ..] (9 each, row-major), positions
 * at state[offset[2j] ..] and state[offset[2j + 1] ..], length value[j]; its Φ into
 * phi[phiAt[j]] and, where jac is given, its Jacobian (1 × n) into jac[jacAt[j] ..], A's six
 * columns at cols[3j], B's at cols[3j + 1] (−1: none), n = cols[3j + 2].
 */
export interface DistanceRowsData {
  readonly points: Float64Array;
  readonly turn: Int32Array;
  readonly offset: Int32Array;
  readonly value: Float64Array;
  readonly phiAt: Int32Array;
  readonly jacAt: Int32Array;
  readonly cols: Int32Array;
}

/** hypotInto's argument and result (no number passed or returned: none boxed). */
const dl = new Float64Array(4);

/** Rows 0 .. count of `data` (DistanceRowsData): Φ and, where jac is given, the Jacobian. */
export function distanceRows(count: number, data: DistanceRowsData, R: Float64Array, state: Float64Array, phi: Float64Array, jac: Float64Array | null): void {
  const points = data.points, turn = data.turn, offset = data.offset, value = data.value, phiAt = data.phiAt, jacAt = data.jacAt, cols = data.cols;
  for (let j = 0; j < count; j++) {
    const p = 6 * j, a = turn[2 * j], b = turn[2 * j + 1], oA = offset[2 * j], oB = offset[2 * j + 1];
    const ax = points[p], ay = points[p + 1], az = points[p + 2], bx = points[p + 3], by = points[p + 4], bz = points[p + 5];
    const r0 = R[a], r1 = R[a + 1], r2 = R[a + 2], r3 = R[a + 3], r4 = R[a + 4], r5 = R[a + 5], r6 = R[a + 6], r7 = R[a + 7], r8 = R[a + 8];
    const s0 = R[b], s1 = R[b + 1], s2 = R[b + 2], s3 = R[b + 3], s4 = R[b + 4], s5 = R[b + 5], s6 = R[b + 6], s7 = R[b + 7], s8 = R[b + 8];
    const d0 = (s0 * bx + s1 * by + s2 * bz + state[oB]) - (r0 * ax + r1 * ay + r2 * az + state[oA]);
    const d1 = (s3 * bx + s4 * by + s5 * bz + state[oB + 1]) - (r3 * ax + r4 * ay + r5 * az + state[oA + 1]);
    const d2 = (s6 * bx + s7 * by + s8 * bz + state[oB + 2]) - (r6 * ax + r7 * ay + r8 * az + state[oA + 2]);
    // |d| by hypot3's bits (dvLength's value)
    dl[0] = d0; dl[1] = d1; dl[2] = d2;
    hypotInto(dl);
    const l = dl[3];
    phi[phiAt[j]] = l + -value[j];
    if (jac === null) continue;
    const cA = cols[3 * j], cB = cols[3 * j + 1], n = cols[3 * j + 2], e = jacAt[j];
    // both bodies' six columns, all of the row, are written below: the fill only where one is fixed
    if (cA < 0 || cB < 0 || n !== 12) jac.fill(0, e, e + n);
    // (d · dD)/l at each body's six columns, dD its point's seeds (negated for A: 0 − x)
    if (cA >= 0) {
      const a0 = 0 - (-r1 * az + r2 * ay), a1 = 0 - (r0 * az - r2 * ax), a2 = 0 - (-r0 * ay + r1 * ax);
      const b0 = 0 - (-r4 * az + r5 * ay), b1 = 0 - (r3 * az - r5 * ax), b2 = 0 - (-r3 * ay + r4 * ax);
      const c0 = 0 - (-r7 * az + r8 * ay), c1 = 0 - (r6 * az - r8 * ax), c2 = 0 - (-r6 * ay + r7 * ax);
      const k = e + cA;
      jac[k] = (d0 * a0 + d1 * b0 + d2 * c0) / l;
      jac[k + 1] = (d0 * a1 + d1 * b1 + d2 * c1) / l;
      jac[k + 2] = (d0 * a2 + d1 * b2 + d2 * c2) / l;
      jac[k + 3] = (d0 * (0 - r0) + d1 * (0 - r3) + d2 * (0 - r6)) / l;
      jac[k + 4] = (d0 * (0 - r1) + d1 * (0 - r4) + d2 * (0 - r7)) / l;
      jac[k + 5] = (d0 * (0 - r2) + d1 * (0 - r5) + d2 * (0 - r8)) / l;
    }
    if (cB >= 0) {
      const a0 = -s1 * bz + s2 * by, a1 = s0 * bz - s2 * bx, a2 = -s0 * by + s1 * bx;
      const b0 = -s4 * bz + s5 * by, b1 = s3 * bz - s5 * bx, b2 = -s3 * by + s4 * bx;
      const c0 = -s7 * bz + s8 * by, c1 = s6 * bz - s8 * bx, c2 = -s6 * by + s7 * bx;
      const k = e + cB;
      jac[k] = (d0 * a0 + d1 * b0 + d2 * c0) / l;
      jac[k + 1] = (d0 * a1 + d1 * b1 + d2 * c1) / l;
      jac[k + 2] = (d0 * a2 + d1 * b2 + d2 * c2) / l;
      jac[k + 3] = (d0 * s0 + d1 * s3 + d2 * s6) / l;
      jac[k + 4] = (d0 * s1 + d1 * s4 + d2 * s7) / l;
      jac[k + 5] = (d0 * s2 + d1 * s5 + d2 * s8) / l;
    }
  }
}

/** What a distance block gives its group: its points (A's, B's), length, columns and their count. */
export interface DistanceRowSource {
  readonly points: Float64Array;
  readonly value: number;
  readonly cols: Int32Array;
  readonly n: number;
}

/** The integrator's distance rows in one call (ResidualBlock.groupTurned). */
export class DistanceGroup implements TurnedGroup {
  private readonly data: DistanceRowsData;

  constructor(private readonly members: readonly TurnedMember[], sources: readonly DistanceRowSource[]) {
    const count = members.length, points = new Float64Array(6 * count), cols = new Int32Array(3 * count);
    sources.forEach((s, j) => { points.set(s.points, 6 * j); cols[3 * j] = s.cols[0]; cols[3 * j + 1] = s.cols[1]; cols[3 * j + 2] = s.n; });
    this.data = {
      points, cols,
      turn: Int32Array.from(members.flatMap((m) => [9 * m.turnA, 9 * m.turnB])),
      offset: Int32Array.from(members.flatMap((m) => [m.offsets[0], m.offsets[1]])),
      value: Float64Array.from(sources, (s) => s.value),
      phiAt: Int32Array.from(members, (m) => m.row),
      jacAt: Int32Array.from(members, (m) => m.slabAt),
    };
  }

  evaluate(state: Float64Array, rotations: Float64Array, phi: Float64Array, slab: Float64Array | null): void {
    if (tangentMode()) {
      // the dual pass (its tangents are read), each block by its own
      for (const m of this.members) m.block.evaluateTurned!(state, m.offsets, m.RA, m.RB, m.phi, slab ? m.jacobian : null);
      return;
    }
    distanceRows(this.members.length, this.data, rotations, state, phi, slab);
  }
}
