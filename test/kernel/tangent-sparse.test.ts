/**
 * The sparse tangent route (kernel/tangent-sparse.ts) against the dense QR route of
 * kernel/analysis.ts on toy mechanisms: equal where the rank is clear, and handing back to
 * the dense route where it is not (redundant rows, a toggle position, ill-conditioned
 * targets, too few targets). The suspension topologies are in test/suspension/build/tangent-sparse.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { System, type BlockKind, type ResidualBlock } from '../../kernel/system';
import { solve } from '../../kernel/solver/solve';
import { freedom, pointRate, tangentSpace, type TangentSpace } from '../../kernel/analysis';
import { Dual, DualVec3, dvConstFrom, dvDot, dvPosePoint, dvSub } from '../../kernel/dual';
import * as P from '../../kernel/pose';
import { AxisParallelToWorld, PointCoordinate, PointOnPoint, hingedLink } from './toyBlocks';

/** |p − c|² − d² for a body point p and a world point c (one row). */
class DistanceFromWorldPoint implements ResidualBlock {
  readonly rows = 1;
  readonly vars: number[];
  private p = new DualVec3(6); private c = new DualVec3(6); private diff = new DualVec3(6); private s = new Dual(6);
  constructor(readonly owner: string, b: number, private local: number[], private centre: number[], private d: number, readonly kind: BlockKind = 'constraint') {
    this.vars = [b];
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    dvPosePoint(this.p, state, offsets[0], this.local, 0);
    dvConstFrom(this.c, this.centre);
    dvSub(this.diff, this.p, this.c);
    dvDot(this.s, this.diff, this.diff);
    residual[0] = this.s.v - this.d * this.d;
    if (jacobian) jacobian.set(this.s.d);
  }
}

/** One world coordinate of a body point held at zero as a permanent constraint (one row). */
class PointCoordinateConstraint implements ResidualBlock {
  readonly rows = 1;
  readonly kind = 'constraint' as const;
  private inner: PointCoordinate;
  constructor(readonly owner: string, b: number, local: number[], direction: number[]) {
    this.inner = new PointCoordinate(owner, b, local, direction);
  }
  get vars(): number[] { return this.inner.vars; }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    this.inner.evaluate(state, offsets, residual, jacobian);
  }
}

/** Link a hinged at the origin about z, link b pinned to a's tip with its axis along z. */
function twoLinkArm(elbowAngle = 0.45): { system: System; a: number; b: number } {
  const system = new System(1);
  const a = hingedLink(system, 'a', [0, 0, 0], 0.3);
  const b = system.addPose('b', P.pose([Math.cos(0.3), Math.sin(0.3), 0], [Math.cos(elbowAngle), 0, 0, Math.sin(elbowAngle)]));
  system.addBlock(new PointOnPoint('elbow', a, [1, 0, 0], b, [0, 0, 0]));
  system.addBlock(new AxisParallelToWorld('elbowAxis', b, [0, 0, 1], [0, 0, 1], 1));
  return { system, a, b };
}

function expectSame(sparse: TangentSpace, dense: TangentSpace): void {
  expect(sparse.mobility).toBe(dense.mobility);
  expect(sparse.targetRank).toBe(dense.targetRank);
  expect(sparse.status).toBe(dense.status);
  expect(sparse.rates.length).toBe(dense.rates.length);
  for (let j = 0; j < dense.projectionRatios.length; j++) expect(Math.abs(sparse.projectionRatios[j] - dense.projectionRatios[j])).toBeLessThan(1e-12);
  for (let j = 0; j < dense.rates.length; j++) {
    const d = dense.rates[j], s = sparse.rates[j];
    if (!d) { expect(s).toBeNull(); continue; }
    let largest = 0, diff = 0;
    for (let i = 0; i < d.length; i++) { largest = Math.max(largest, Math.abs(d[i])); diff = Math.max(diff, Math.abs(d[i] - s![i])); }
    expect(diff).toBeLessThanOrEqual(1e-12 * largest);
  }
}

describe('sparse tangent route', () => {
  it('equals the dense route where the rank is clear (two-link arm, tip x and y)', () => {
    const { system, b } = twoLinkArm();
    solve(system);
    const targets = [new PointCoordinate('tipX', b, [1, 0, 0], [1, 0, 0]), new PointCoordinate('tipY', b, [1, 0, 0], [0, 1, 0])];
    const dense = tangentSpace(system, targets, { route: 'dense' });
    const sparse = tangentSpace(system, targets, { route: 'sparse' });
    expect(dense.route).toBe('dense');
    expect(sparse.route).toBe('sparse');
    expect(sparse.status).toBe('unique');
    expectSame(sparse, dense);
    // the answer itself: unit tip-x rate moves the tip along x only
    const world = pointRate(new Float64Array(3), system, sparse, sparse.rates[0]!, b, [1, 0, 0]);
    expect(world[0]).toBeCloseTo(1, 12);
    expect(world[1]).toBeCloseTo(0, 12);
    expect(world[2]).toBeCloseTo(0, 12);
  });

  it('hands a redundant row to the dense route (mobility 2, one target: not unique)', () => {
    // the tip's z is already 0 by the hinges: one redundant row, so n − m = 1 = targets,
    // and only the rank (10 of 11 rows) tells that the targets do not fix the motion
    const { system, b } = twoLinkArm();
    system.addBlock(new PointCoordinateConstraint('tipZ', b, [1, 0, 0], [0, 0, 1]));
    expect(solve(system).converged).toBe(true);
    expect(freedom(system).redundant).not.toHaveLength(0);
    const targets = [new PointCoordinate('tipX', b, [1, 0, 0], [1, 0, 0])];
    const dense = tangentSpace(system, targets, { route: 'dense' });
    const sparse = tangentSpace(system, targets, { route: 'sparse' });
    expect(dense.mobility).toBe(2);
    expect(dense.status).toBe('not_unique');
    expect(sparse.route).toBe('dense');
    expectSame(sparse, dense);
  });

  it('hands a toggle position (and one just off it) to the dense route', () => {
    // The tip held at its reach 2 cos(φ/2) from the hinge, φ the elbow's bend. Stretched
    // (φ = 0) the reach row's gradient lies in the other rows' span: rank 10 of 11, the
    // dense route says mobility 2 and the one target does not fix the motion. Bent by
    // 1e-6 the rank is 11 for the dense QR, but too close to the toggle for the sparse one.
    for (const [bend, mobility, status] of [[0, 2, 'not_unique'], [1e-6, 1, 'unique']] as const) {
      const { system, b } = twoLinkArm(0.15 + bend / 2);
      system.addBlock(new DistanceFromWorldPoint('reach', b, [1, 0, 0], [0, 0, 0], 2 * Math.cos(bend / 2)));
      expect(solve(system).converged).toBe(true);
      const targets = [new PointCoordinate('tipY', b, [1, 0, 0], [0, 1, 0])];
      const dense = tangentSpace(system, targets, { route: 'dense' });
      const sparse = tangentSpace(system, targets, { route: 'sparse' });
      expect(dense.mobility).toBe(mobility);
      expect(dense.status).toBe(status);
      expect(sparse.route).toBe('dense');
      expectSame(sparse, dense);
    }
  });

  it('hands targets that barely move the mechanism to the dense route', () => {
    const { system, b } = twoLinkArm();
    solve(system);
    const targets = [new PointCoordinate('tipZish', b, [1, 0, 0], [1e-7, 0, 1]), new PointCoordinate('tipY', b, [1, 0, 0], [0, 1, 0])];
    const dense = tangentSpace(system, targets, { route: 'dense' });
    const sparse = tangentSpace(system, targets, { route: 'sparse' });
    expect(dense.projectionRatios[0]).toBeLessThan(1e-6);
    expect(sparse.route).toBe('dense');
    expectSame(sparse, dense);
  });

  it('hands too few or too many targets to the dense route', () => {
    const { system, b } = twoLinkArm();
    solve(system);
    const tipX = new PointCoordinate('tipX', b, [1, 0, 0], [1, 0, 0]), tipY = new PointCoordinate('tipY', b, [1, 0, 0], [0, 1, 0]);
    const tipZ = new PointCoordinate('tipZ', b, [1, 0, 0], [0, 0, 1]);
    for (const targets of [[tipX], [tipX, tipY, tipZ]]) {
      const sparse = tangentSpace(system, targets, { route: 'sparse' });
      expect(sparse.route).toBe('dense');
      expectSame(sparse, tangentSpace(system, targets, { route: 'dense' }));
    }
  });
});
