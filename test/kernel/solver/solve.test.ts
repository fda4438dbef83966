import { describe, expect, it } from 'vitest';
import { System, ScalarTargetBlock, type ResidualBlock } from '../../../kernel/system';
import { solve } from '../../../kernel/solver/solve';
import { freedom, conflictingSet, tangentSpace } from '../../../kernel/analysis';
import * as P from '../../../kernel/pose';
import { PointOnPoint, AxisParallelToWorld, hingedLink, PointCoordinate } from '../toyBlocks';
import { finiteDifferenceJacobian, maxAbsDiff } from '../../util/fd';

function angleOf(system: System, id: number): number {
  const q = system.getPose(id);
  const x = P.applyDirection(new Float64Array(3), q, [1, 0, 0]);
  return Math.atan2(x[1], x[0]);
}

describe('solver', () => {
  it('pulls a hinged body to a 179.5° turn in at most 12 iterations', () => {
    // From where a drag leaves it (170°) and from a quarter turn away (90°). From 0° the
    // pull starts antipodal, where no point pull has torque (sin 179.5° ≈ 0.009): that is the
    // pull's geometry, not the chart's, and a drag never asks for it in one frame.
    for (const startDeg of [170, 90]) {
      const system = new System(1);
      const link = hingedLink(system, 'link', [0, 0, 0], (startDeg * Math.PI) / 180);
      const target = (179.5 * Math.PI) / 180;
      const report = solve(system, { pulls: [{ variable: link, point: [1, 0, 0], target: [Math.cos(target), Math.sin(target), 0] }] });
      expect(report.converged).toBe(true);
      expect(report.iterations).toBeLessThanOrEqual(12);
      expect(Math.abs(angleOf(system, link) - target)).toBeLessThan(1e-9);
    }
  });

  it('shows why: a global chart normalize(1, w/2) needs hundreds of damped steps near a half turn', () => {
    // The model problem of the seed: one turn angle θ(w) = 2·atan(w/2), a pull with
    // damping μ, steps δw = −κ r/(κ² + μ²). Count steps from 170° to 179.5° within 1e-6 rad.
    const target = (179.5 * Math.PI) / 180, mu = 1e-4;
    const count = (theta: (w: number) => number, slope: (w: number) => number, w0: number) => {
      let w = w0, steps = 0;
      while (Math.abs(theta(w) - target) > 1e-6 && steps < 100000) {
        const r = theta(w) - target, k = slope(w);
        w -= (k * r) / (k * k + mu * mu);
        steps++;
      }
      return steps;
    };
    const chartSteps = count((w) => 2 * Math.atan(w / 2), (w) => 1 / (1 + (w * w) / 4), 2 * Math.tan((85 * Math.PI) / 180));
    // A twist from where the body is has slope one everywhere.
    const twistSteps = count((w) => w, () => 1, (170 * Math.PI) / 180);
    expect(chartSteps).toBeGreaterThan(200);
    expect(twistSteps).toBeLessThanOrEqual(2);
  });

  it('solves a consistent redundant system and reports the redundant rows', () => {
    const system = new System(1);
    const link = system.addPose('link', P.pose([0.3, -0.2, 0.1], [0.95, 0.1, 0.2, 0.05]));
    system.addBlock(new PointOnPoint('pinA', -1, [0, 0, 0], link, [0, 0, 0]));
    system.addBlock(new AxisParallelToWorld('axisA', link, [0, 0, 1], [0, 0, 1], 1));
    // the same hinge again, stated by another pair of points on the axis
    system.addBlock(new PointOnPoint('pinB', -1, [0, 0, 1], link, [0, 0, 1]));
    const report = solve(system);
    expect(report.converged).toBe(true);
    expect(report.maxResidual).toBeLessThan(1e-12);
    const f = freedom(system);
    expect(f.dof).toBe(1);
    expect(f.redundant.length).toBeGreaterThan(0);
    expect(f.redundant).not.toContain('pinA');
  });

  it('reports conflicting rows and names exactly the minimal set', () => {
    const system = new System(1);
    const link = system.addPose('link', P.pose([0, 0, 0], [1, 0, 0, 0]));
    const other = system.addPose('other', P.pose([5, 0, 0], [1, 0, 0, 0]));
    system.addBlock(new PointOnPoint('hingeA', -1, [0, 0, 0], link, [0, 0, 0]));
    system.addBlock(new AxisParallelToWorld('axisA', link, [0, 0, 1], [0, 0, 1], 1));
    // the same body's origin also on another world point: a conflict of geometry
    system.addBlock(new PointOnPoint('hingeB', -1, [1, 0, 0], link, [0, 0, 0]));
    system.addBlock(new PointOnPoint('unrelated', -1, [5, 1, 0], other, [0, 1, 0]));
    const report = solve(system);
    expect(report.converged).toBe(false);
    expect(report.status).toBe('failed');
    expect(report.failed.length).toBeGreaterThan(0);
    const set = conflictingSet(system);
    expect(set.sort()).toEqual(['hingeA', 'hingeB']);
  });

  it('never throws or hangs on NaN', () => {
    const system = new System(1);
    const link = system.addPose('link', P.pose([NaN, 0, 0], [1, 0, 0, 0]));
    system.addBlock(new PointOnPoint('pin', -1, [0, 0, 0], link, [0, 0, 0]));
    const report = solve(system);
    expect(report.converged).toBe(false);
    expect(report.message).toMatch(/non-finite/);
  });

  it('splits into independent groups and skips the ones that already hold', () => {
    const system = new System(1);
    for (let i = 0; i < 5; i++) hingedLink(system, `l${i}`, [i * 3, 0, 0], 0.1 * i);
    const first = solve(system);
    expect(first.groups).toBe(5);
    expect(first.groupsSolved).toBe(0);
    const pulled = system.variable('l2').id;
    const r = solve(system, { pulls: [{ variable: pulled, point: [1, 0, 0], target: [6, 1, 0] }] });
    expect(r.groupsSolved).toBe(1);
    expect(angleOf(system, pulled)).toBeCloseTo(Math.PI / 2, 8);
  });

  it('does not evaluate a group again while its state is exactly where it held, and does once it moves', () => {
    const system = new System(1);
    const base = system.addPose('base', P.pose([0, 0, 0], [1, 0, 0, 0]), { fixed: true });
    const link = system.addPose('link', P.pose([0, 0, 0], [1, 0, 0, 0]));
    let evaluations = 0;
    const pin = new PointOnPoint('pin', base, [1, 2, 0], link, [0, 0, 0]);
    const counted: ResidualBlock = { owner: pin.owner, vars: pin.vars, rows: pin.rows, kind: pin.kind, evaluate: (...args) => { evaluations++; pin.evaluate(...args); } };
    system.addBlock(counted);
    expect(solve(system).converged).toBe(true); // moves the link onto the pin
    evaluations = 0;
    const held = solve(system);
    expect(held.converged).toBe(true);
    expect(held.groupsSolved).toBe(0);
    expect(evaluations).toBeLessThanOrEqual(1); // checked once, then remembered
    evaluations = 0;
    expect(solve(system).groupsSolved).toBe(0);
    expect(evaluations).toBe(0);
    // the fixed base moves: the group's rows read it, so it is solved again
    system.setPose(base, P.pose([3, 0, 0], [1, 0, 0, 0]));
    const moved = solve(system);
    expect(moved.groupsSolved).toBe(1);
    expect(system.getPose(link)[0]).toBeCloseTo(4, 12);
    // and the link itself moved by hand
    const q = system.getPose(link);
    q[1] += 0.5;
    system.setPose(link, q);
    expect(solve(system).groupsSolved).toBe(1);
    expect(system.getPose(link)[1]).toBeCloseTo(2, 12);
  });

  it('re-evaluates a group with a driver whose target changed in place (no state change)', () => {
    const system = new System(1);
    const x = system.addScalar('x', 0, { scale: 1 });
    const driver = new ScalarTargetBlock('drive', x, 0, 1, 'driver');
    system.addBlock(driver);
    expect(solve(system).converged).toBe(true);
    driver.target = 0.25;
    const report = solve(system);
    expect(report.groupsSolved).toBe(1);
    expect(system.getScalar(x)).toBeCloseTo(0.25, 14);
  });

  it('keeps a limited coordinate at its limit and reports it', () => {
    const system = new System(1);
    const theta = system.addScalar('theta', 0, { limits: [-0.5, 0.8] });
    // a toy: the coordinate must equal a pulled value through a one-row block
    system.hold(theta, 1.2);
    system.release(theta);
    system.setScalar(theta, 1.2);
    const r = solve(system);
    expect(r.atLimit).toEqual(['theta']);
    expect(system.getScalar(theta)).toBeCloseTo(0.8, 14);
  });
});

describe('analyses', () => {
  function twoLinkArm() {
    const system = new System(1);
    const a = hingedLink(system, 'a', [0, 0, 0], 0.3);
    const bPose = P.pose([Math.cos(0.3), Math.sin(0.3), 0], [Math.cos(0.45), 0, 0, Math.sin(0.45)]);
    const b = system.addPose('b', bPose);
    system.addBlock(new PointOnPoint('elbow', a, [1, 0, 0], b, [0, 0, 0]));
    system.addBlock(new AxisParallelToWorld('elbowAxis', b, [0, 0, 1], [0, 0, 1], 1));
    return { system, a, b };
  }

  it('counts the freedom of a two-link arm in total and per body', () => {
    const { system } = twoLinkArm();
    expect(solve(system).converged).toBe(true);
    const f = freedom(system);
    expect(f.unknowns).toBe(12);
    expect(f.dof).toBe(2);
    expect(f.perVariable).toEqual({ a: 1, b: 2 });
  });

  it('tangents: unique with two targets, not unique with one, weak coupling has a small projection ratio', () => {
    const { system, b } = twoLinkArm();
    solve(system);
    const tipX = new PointCoordinate('tipX', b, [1, 0, 0], [1, 0, 0]);
    const tipY = new PointCoordinate('tipY', b, [1, 0, 0], [0, 1, 0]);
    const two = tangentSpace(system, [tipX, tipY]);
    expect(two.mobility).toBe(2);
    expect(two.status).toBe('unique');
    // unit rate of tip x with tip y held: check by the point-rate route
    const rates = two.rates[0]!;
    const layout = two.layout[b];
    const q = system.getPose(b);
    const w = [rates[layout], rates[layout + 1], rates[layout + 2]], v = [rates[layout + 3], rates[layout + 4], rates[layout + 5]];
    const local = [w[1] * 0 - w[2] * 0 + v[0], w[2] * 1 - w[0] * 0 + v[1], w[0] * 0 - w[1] * 1 + v[2]];
    const world = P.applyDirection(new Float64Array(3), q, local);
    expect(world[0]).toBeCloseTo(1, 10);
    expect(world[1]).toBeCloseTo(0, 10);
    const one = tangentSpace(system, [tipX]);
    expect(one.status).toBe('not_unique');
    expect(one.rates).toEqual([]);
    const weak = new PointCoordinate('tipZish', b, [1, 0, 0], [1e-7, 0, 1]);
    const w3 = tangentSpace(system, [weak, tipY]);
    expect(w3.projectionRatios[0]).toBeLessThan(1e-6);
    expect(w3.projectionRatios[1]).toBeGreaterThan(0.1);
  });

  it('checks every toy block Jacobian against central differences', () => {
    const { system } = twoLinkArm();
    for (let i = 0; i < system.blockCount; i++) {
      const { analytic, numeric } = finiteDifferenceJacobian(system, i);
      expect(maxAbsDiff(analytic, numeric)).toBeLessThan(1e-8);
    }
  });
});
