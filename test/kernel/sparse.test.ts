/**
 * The sparse path for large groups (kernel/sparse.ts and the solver's 'sparse' linear
 * algebra): the ordering, the block-wise normal equations and their envelope Cholesky, and
 * the solver giving the same answers as the dense path on mechanisms small enough for both.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BlockRows, NormalEquations, blockAdjacency, reverseCuthillMcKee, type RowBlockPattern } from '../../kernel/sparse';
import { System } from '../../kernel/system';
import { solve, groupsOf, type SolveOptions } from '../../kernel/solver/solve';
import { freedom } from '../../kernel/analysis';
import * as P from '../../kernel/pose';
import { validateAssembly, type AssemblyDoc } from '../../src/assembly';
import { buildModel, type Model } from '../../src/model/build';
import { bennettDoc, bennettK } from '../../examples/mechanisms/bennett';
import { chainDoc } from '../../examples/mechanisms/chain';
import { PointOnPoint, AxisParallelToWorld } from './toyBlocks';
import { rng } from '../util/rng';


/** Blocks of a chain: block k reads variables k − 1 and k (7 columns each: a pose and an angle). */
function chainPatterns(blocks: number): RowBlockPattern[] {
  const out: RowBlockPattern[] = [];
  for (let k = 0; k < blocks; k++) {
    const cols: number[] = [];
    if (k > 0) for (let d = 0; d < 7; d++) cols.push(7 * (k - 1) + d);
    for (let d = 0; d < 7; d++) cols.push(7 * k + d);
    out.push({ rows: 6, cols });
  }
  return out;
}

function bandwidth(J: BlockRows): number {
  let b = 0;
  for (let i = 0; i < J.m; i++) b = Math.max(b, i - J.first[i]);
  return b;
}

describe('ordering', () => {
  it('reverse Cuthill–McKee gives a shuffled chain a narrow envelope', () => {
    const natural = chainPatterns(100);
    const r = rng(7);
    const shuffled = natural.map((p) => ({ p, key: r() })).sort((a, b) => a.key - b.key).map((x) => x.p);
    const scattered = new BlockRows(700, shuffled);
    const adjacency = blockAdjacency(shuffled, 700);
    const order = reverseCuthillMcKee(shuffled.length, adjacency.ptr, adjacency.adj);
    expect([...order].sort((a, b) => a - b)).toEqual([...Array(100).keys()]);
    const ordered = new BlockRows(700, Array.from(order, (k) => shuffled[k]));
    // a chain in order: each row reaches back at most over the block before it
    expect(bandwidth(ordered)).toBeLessThanOrEqual(11);
    expect(ordered.profile).toBeLessThanOrEqual(new BlockRows(700, natural).profile);
    expect(ordered.profile).toBeLessThan(ordered.m * 12);
    expect(scattered.profile).toBeGreaterThan(10 * ordered.profile);
  });

  it('orders every component of a disconnected graph, each block once', () => {
    const patterns = [...chainPatterns(5), { rows: 2, cols: [100, 101] }, { rows: 1, cols: [101, 102] }, { rows: 3, cols: [200] }];
    const adjacency = blockAdjacency(patterns, 201);
    const order = reverseCuthillMcKee(patterns.length, adjacency.ptr, adjacency.adj);
    expect([...order].sort((a, b) => a - b)).toEqual([...Array(patterns.length).keys()]);
  });

  it('the solver orders the 100-link chain into a band', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 100, thetaDeg: 3.6 })));
    const report = solve(model.system, { skipSatisfied: false, linearSolver: 'sparse' });
    expect(report.converged).toBe(true);
    const g = groupsOf(model.system).groups[0];
    const rows = (g.ws as unknown as { sparse: { rows: BlockRows } }).sparse.rows;
    expect(rows.m).toBeGreaterThan(590);
    expect(bandwidth(rows)).toBeLessThanOrEqual(11);
    expect(rows.profile).toBeLessThan(rows.m * 12);
  });
});

/** A random block pattern over n columns with random values. */
function randomRows(seed: number, n: number, blocks: number): BlockRows {
  const r = rng(seed);
  const patterns: RowBlockPattern[] = [];
  for (let k = 0; k < blocks; k++) {
    const cols: number[] = [];
    const width = 1 + Math.floor(r() * 6);
    for (let t = 0; t < width; t++) cols.push(Math.floor(r() * n));
    patterns.push({ rows: 1 + Math.floor(r() * 4), cols });
  }
  const J = new BlockRows(n, patterns);
  for (let i = 0; i < J.vals.length; i++) J.vals[i] = 2 * r() - 1;
  return J;
}

describe('block-sparse normal equations', () => {
  it('assembles S = J Jᵀ and S = W Jᵀ (W = J·diag) by blocks as the dense products', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 15 }), (seed, n, blocks) => {
      const J = randomRows(seed, n, blocks);
      const D = J.toDense();
      const ne = new NormalEquations(J);
      const d = Float64Array.from({ length: n }, (_, j) => 0.5 + j);
      const W = new Float64Array(J.vals.length);
      for (let k = 0; k < J.blocks; k++) {
        const w = J.colPtr[k + 1] - J.colPtr[k];
        for (let r = 0; r < J.rowPtr[k + 1] - J.rowPtr[k]; r++) for (let t = 0; t < w; t++) W[J.valPtr[k] + r * w + t] = J.vals[J.valPtr[k] + r * w + t] * d[J.cols[J.colPtr[k] + t]];
      }
      for (const weighted of [false, true]) {
        ne.assemble(weighted ? W : null);
        for (let i = 0; i < J.m; i++) {
          for (let j = 0; j <= i; j++) {
            let s = 0;
            for (let c = 0; c < n; c++) s += D[i * n + c] * D[j * n + c] * (weighted ? d[c] : 1);
            if (j < J.first[i]) expect(s).toBe(0); // nothing outside the envelope
            else expect(ne.L[J.envPtr[i] + j - J.first[i]]).toBeCloseTo(s, 12);
          }
        }
      }
    }), { numRuns: 60 });
  });

  it('factors S + ε·diag(S) and solves with it; J x and Jᵀ y agree with the dense matrix', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
      const J = randomRows(seed, 10, 8);
      const D = J.toDense();
      const ne = new NormalEquations(J);
      ne.assemble();
      const S = new Float64Array(J.m * J.m);
      for (let i = 0; i < J.m; i++) for (let j = 0; j < J.m; j++) { let s = 0; for (let c = 0; c < 10; c++) s += D[i * 10 + c] * D[j * 10 + c]; S[i * J.m + j] = s; }
      const eps = 1e-3;
      expect(ne.factor(eps)).toBe(true);
      const b = Float64Array.from({ length: J.m }, (_, i) => Math.sin(i + seed));
      const x = Float64Array.from(b);
      ne.solve(x);
      for (let i = 0; i < J.m; i++) {
        // backward error: the residual against the size of what was summed
        let s = (S[i * J.m + i] > 0 ? eps * S[i * J.m + i] : 1) * x[i], size = Math.abs(s) + Math.abs(b[i]);
        for (let j = 0; j < J.m; j++) { s += S[i * J.m + j] * x[j]; size += Math.abs(S[i * J.m + j] * x[j]); }
        expect(Math.abs(s - b[i])).toBeLessThan(1e-11 * size);
      }
      const y = new Float64Array(J.m), z = new Float64Array(10);
      const v = Float64Array.from({ length: 10 }, (_, j) => Math.cos(j * seed));
      J.mul(y, v);
      J.mulT(z, b);
      for (let i = 0; i < J.m; i++) { let s = 0; for (let c = 0; c < 10; c++) s += D[i * 10 + c] * v[c]; expect(y[i]).toBeCloseTo(s, 12); }
      for (let c = 0; c < 10; c++) { let s = 0; for (let i = 0; i < J.m; i++) s += D[i * 10 + c] * b[i]; expect(z[c]).toBeCloseTo(s, 12); }
    }), { numRuns: 200 });
  });

  it('redundant rows: the factor does not break down, and the regularised step is the minimum-norm one', () => {
    // rows 0 and 2 equal (a redundant but consistent pair), row 1 independent
    const J = new BlockRows(3, [{ rows: 2, cols: [0, 1, 2] }, { rows: 1, cols: [0, 1, 2] }]);
    J.vals.set([1, 2, 0, 0, 1, 1, 1, 2, 0]);
    const ne = new NormalEquations(J);
    ne.assemble();
    expect(ne.factor(1e-13)).toBe(true);
    // J δ = −c with c consistent: c = −J δ* for δ* in the row space (the minimum-norm solution)
    const target = Float64Array.from([0.3, -0.2, 0.5]);
    const c = new Float64Array(3);
    J.mul(c, target);
    const mu = Float64Array.from(c);
    ne.solve(mu);
    const delta = new Float64Array(3);
    J.mulT(delta, mu);
    // δ* projected on the row space span{(1,2,0), (0,1,1)}: check J δ = c and δ ⟂ null(J) = (2, −1, 1)
    const Jd = new Float64Array(3);
    J.mul(Jd, delta);
    for (let i = 0; i < 3; i++) expect(Jd[i]).toBeCloseTo(c[i], 9);
    expect(2 * delta[0] - delta[1] + delta[2]).toBeCloseTo(0, 12);
  });

  it('reports non-finite input instead of throwing', () => {
    const J = new BlockRows(2, [{ rows: 2, cols: [0, 1] }]);
    J.vals.set([1, 0, NaN, 1]);
    const ne = new NormalEquations(J);
    ne.assemble();
    expect(ne.factor(1e-13)).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------
// Random mechanisms, drawn assembled

type Q = [number, number, number, number];
const qmul = (a: readonly number[], b: readonly number[]): Q => [
  a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
  a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
  a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
  a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
];
const qconj = (a: readonly number[]): Q => [a[0], -a[1], -a[2], -a[3]];
const qrot = (q: readonly number[], v: readonly number[]) => { const r = qmul(qmul(q, [0, ...v]), qconj(q)); return [r[1], r[2], r[3]]; };
function randomQ(r: () => number): Q {
  const u = [r(), r(), r()], a = Math.sqrt(1 - u[0]), b = Math.sqrt(u[0]);
  return [a * Math.sin(2 * Math.PI * u[1]), a * Math.cos(2 * Math.PI * u[1]), b * Math.sin(2 * Math.PI * u[2]), b * Math.cos(2 * Math.PI * u[2])];
}

/**
 * A random spatial mechanism drawn assembled: `parts` bodies in a tree of random joints at
 * random world frames, plus `loops` coincident closures at random world points.
 */
function randomMechanism(seed: number, parts: number, loops: number): AssemblyDoc {
  const r = rng(seed);
  const types = ['revolute', 'slider', 'cylindrical', 'ball', 'universal', 'planar'];
  const poses: { p: number[]; q: Q }[] = [{ p: [0, 0, 0], q: [1, 0, 0, 0] }];
  type PartDraft = { fixed?: boolean; pose: { position: number[]; rotation: number[] }; frames: Record<string, unknown>; points: Record<string, number[]> };
  const docParts: Record<string, PartDraft> = { ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: {}, points: {} } };
  const mates: Record<string, unknown> = {};
  const name = (k: number) => (k === 0 ? 'ground' : `p${k}`);
  const point = () => [4 * r() - 2, 4 * r() - 2, 4 * r() - 2];
  const local = (k: number, x: number[]) => qrot(qconj(poses[k].q), [x[0] - poses[k].p[0], x[1] - poses[k].p[1], x[2] - poses[k].p[2]]);
  for (let k = 1; k <= parts; k++) {
    const pose = { p: point(), q: randomQ(r) };
    poses.push(pose);
    docParts[name(k)] = { pose: { position: pose.p, rotation: pose.q }, frames: {}, points: {} };
  }
  for (let k = 1; k <= parts; k++) {
    const parent = Math.floor(r() * k);
    const type = types[Math.floor(r() * types.length)];
    const X = point(), q = randomQ(r);
    // a universal joint bent 90° about its a pin (a's x): the pins stay square
    const qb = type === 'universal' ? qmul(q, [Math.SQRT1_2, Math.SQRT1_2, 0, 0]) : q;
    docParts[name(parent)].frames[`f${k}`] = { origin: local(parent, X), rotation: qmul(qconj(poses[parent].q), q) };
    docParts[name(k)].frames[`g${k}`] = { origin: local(k, X), rotation: qmul(qconj(poses[k].q), qb) };
    mates[`j${k}`] = { type, a: `${name(parent)}.f${k}`, b: `${name(k)}.g${k}` };
  }
  for (let l = 0; l < loops; l++) {
    const a = Math.floor(r() * (parts + 1));
    let b = Math.floor(r() * (parts + 1));
    if (b === a) b = (a % parts) + 1;
    const X = point();
    docParts[name(a)].points[`x${l}`] = local(a, X);
    docParts[name(b)].points[`y${l}`] = local(b, X);
    mates[`loop${l}`] = { type: 'coincident', a: `${name(a)}.x${l}`, b: `${name(b)}.y${l}` };
  }
  return { format: 'kinemate.assembly/1', name: `random ${seed}`, units: { length: 'mm', angle: 'deg' }, parts: docParts, mates, state: {}, held: [] } as unknown as AssemblyDoc;
}

/** Move every free variable by a random step of about `size`. */
function perturb(model: Model, seed: number, size: number): void {
  const r = rng(seed);
  const xi = new Float64Array(6);
  for (const v of model.system.variables) {
    if (v.fixed) continue;
    if (v.kind === 'pose') {
      for (let i = 0; i < 6; i++) xi[i] = size * (2 * r() - 1);
      model.system.retractVariable(v, xi, 0);
    } else model.system.state[v.offset] += size * (2 * r() - 1);
  }
}

function stateDiff(a: System, b: System): number {
  let d = 0;
  for (let i = 0; i < a.state.length; i++) d = Math.max(d, Math.abs(a.state[i] - b.state[i]));
  return d;
}

const sparse: SolveOptions = { linearSolver: 'sparse' };
const dense: SolveOptions = { linearSolver: 'dense' };

describe('sparse and dense paths agree', () => {
  it('Newton from a perturbed state: the same solution to 1e-9 (no redundant rows), both solved when redundant', () => {
    let compared = 0, redundantSolved = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const doc = randomMechanism(seed, 3 + (seed % 9), seed % 3);
      const a = buildModel(validateAssembly(doc)), b = buildModel(validateAssembly(doc));
      const redundant = freedom(a.system).redundant.length > 0;
      perturb(a, 1000 + seed, 0.05);
      perturb(b, 1000 + seed, 0.05);
      const ra = solve(a.system, dense), rb = solve(b.system, sparse);
      if (!ra.converged) continue; // a perturbation that lands somewhere singular
      expect(rb.converged, `seed ${seed}: ${rb.message}`).toBe(true);
      expect(rb.maxResidual).toBeLessThan(1e-11 * b.system.lengthScale);
      if (redundant) { redundantSolved++; continue; }
      // with redundant rows each path keeps its own choice of rows, and the two land on
      // different points of the solution set; without, every step is the same step
      expect(stateDiff(a.system, b.system), `seed ${seed}`).toBeLessThan(1e-9);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(15);
    expect(redundantSolved).toBeGreaterThanOrEqual(3);
  });

  it('drags: the same frames, the same states (1e-7: a drag stops within its step tolerance)', () => {
    let compared = 0;
    for (let seed = 1; seed <= 16; seed++) {
      const doc = randomMechanism(seed, 3 + (seed % 9), seed % 3);
      const a = buildModel(validateAssembly(doc)), b = buildModel(validateAssembly(doc));
      if (freedom(a.system).redundant.length > 0) continue;
      const r = rng(seed);
      const names = [...a.parts.keys()].filter((k) => k !== 'ground');
      const v = a.parts.get(names[Math.floor(r() * names.length)])!;
      const local = [r() - 0.5, r() - 0.5, r() - 0.5];
      const p0 = P.applyPoint(new Float64Array(3), a.system.getPose(v), local);
      for (let f = 1; f <= 3; f++) {
        const pulls = [{ variable: v, point: local, target: [p0[0] + 0.02 * f, p0[1] - 0.01 * f, p0[2] + 0.015 * f] }];
        const ra = solve(a.system, { ...dense, pulls }), rb = solve(b.system, { ...sparse, pulls });
        expect(ra.converged).toBe(true);
        expect(rb.converged, `seed ${seed} frame ${f}: ${rb.message}`).toBe(true);
        expect(rb.maxResidual).toBeLessThan(1e-11 * b.system.lengthScale);
      }
      expect(stateDiff(a.system, b.system), `seed ${seed}`).toBeLessThan(1e-7);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(8);
  });

  it('the 100-link chain: a drag on the sparse path pulls the tip onto the target and keeps the joints', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 100, thetaDeg: 3.6 })));
    const tip = model.parts.get('link100')!;
    const start = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
    for (let f = 1; f <= 5; f++) {
      const target = [start[0] + 0.1 * f, start[1] - 0.05 * f, 0];
      const report = solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target }] });
      expect(report.converged, report.message).toBe(true);
      expect(report.maxResidual).toBeLessThan(1e-11 * model.system.lengthScale);
      const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
      expect(Math.hypot(p[0] - target[0], p[1] - target[1], p[2])).toBeLessThan(1e-8);
    }
  });
});

describe('sparse path: redundancy, conflict, NaN, limits', () => {
  it('the Bennett linkage (three redundant loop rows) driven on the sparse path keeps its closure identity', () => {
    const model = buildModel(validateAssembly(bennettDoc(60)));
    const system = model.system, K = bennettK();
    const j1 = model.coordinates.get('j1.angle')!.variable;
    system.hold(j1);
    let worst = 0;
    for (let deg = 60; deg <= 150; deg += 2) {
      system.setScalar(j1, (deg * Math.PI) / 180);
      const report = solve(system, sparse);
      expect(report.converged, `${deg}°: ${report.message}`).toBe(true);
      const [t1, t2] = [1, 2].map((i) => system.getScalar(model.coordinates.get(`j${i}.angle`)!.variable));
      worst = Math.max(worst, Math.abs(Math.sin(t1 / 2) * Math.sin(t2 / 2) - K * Math.cos(t1 / 2) * Math.cos(t2 / 2)));
    }
    expect(worst).toBeLessThan(1e-9);
  });

  it('the closed 100-link ring (a redundant closure row) solves from an open spiral', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 100, thetaDeg: 3.6, drawnDeg: 3.5, close: true })));
    const report = solve(model.system);
    expect(report.converged, report.message).toBe(true);
    const tip = P.applyPoint(new Float64Array(3), model.system.getPose(model.parts.get('link100')!), [1, 0, 0]);
    expect(Math.hypot(tip[0], tip[1], tip[2])).toBeLessThan(1e-9);
  });

  it('conflicting rows end failed, without throwing or hanging', () => {
    const system = new System(1);
    const link = system.addPose('link', P.pose([0, 0, 0], [1, 0, 0, 0]));
    system.addBlock(new PointOnPoint('hingeA', -1, [0, 0, 0], link, [0, 0, 0]));
    system.addBlock(new AxisParallelToWorld('axisA', link, [0, 0, 1], [0, 0, 1], 1));
    system.addBlock(new PointOnPoint('hingeB', -1, [1, 0, 0], link, [0, 0, 0]));
    const report = solve(system, sparse);
    expect(report.status).toBe('failed');
    expect(report.failed.sort()).toEqual(['hingeA', 'hingeB']);
  });

  it('a 20-link chain whose tip is pinned out of its reach ends failed', () => {
    const model = buildModel(validateAssembly(chainDoc({ n: 20, thetaDeg: 5 })));
    const tip = model.parts.get('link20')!;
    model.system.addBlock(new PointOnPoint('reach', -1, [40, 0, 0], tip, [1, 0, 0]));
    const report = solve(model.system);
    expect(report.status).toBe('failed');
    expect(report.failed).toContain('reach');
  });

  it('never throws on NaN', () => {
    for (const options of [sparse, { ...sparse, pulls: [] }]) {
      const system = new System(1);
      const link = system.addPose('link', P.pose([NaN, 0, 0], [1, 0, 0, 0]));
      system.addBlock(new PointOnPoint('pin', -1, [0, 0, 0], link, [0, 0, 0]));
      const report = solve(system, options);
      expect(report.converged).toBe(false);
      expect(report.message).toMatch(/non-finite/);
    }
    // a pull toward NaN moves nothing: the frame ends where it was, on the constraints
    const model = buildModel(validateAssembly(chainDoc({ n: 20, thetaDeg: 5 })));
    const tip = model.parts.get('link20')!;
    const before = model.system.snapshot();
    const report = solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: [NaN, 0, 0] }] });
    expect(report.maxResidual).toBeLessThan(1e-11 * model.system.lengthScale);
    expect(model.system.snapshot()).toEqual(before);
  });

  it('a limited coordinate stops at its limit on the sparse path as on the dense one', () => {
    // a 12-link chain (77 unknowns) with joint 6 limited to ±10°, its angle set to 30°: the
    // joint's rows pull angle and links together, past the limit, and the active set clamps it
    const doc = chainDoc({ n: 12, thetaDeg: 5 }) as unknown as { mates: Record<string, Record<string, unknown>> };
    doc.mates.j6.limits = { angle: [-10, 10] };
    const models = (['dense', 'sparse'] as const).map((linearSolver) => {
      const model = buildModel(validateAssembly(doc as unknown as AssemblyDoc));
      const v = model.coordinates.get('j6.angle')!.variable;
      model.system.setScalar(v, (30 * Math.PI) / 180);
      const report = solve(model.system, { linearSolver });
      return { model, report, angle: (model.system.getScalar(v) * 180) / Math.PI };
    });
    for (const { report, angle } of models) {
      expect(report.converged, report.message).toBe(true);
      expect(report.atLimit).toHaveLength(1);
      expect(angle).toBeCloseTo(10, 10);
    }
    expect(models[1].report.atLimit).toEqual(models[0].report.atLimit);
    expect(stateDiff(models[0].model.system, models[1].model.system)).toBeLessThan(1e-9);
  });
});
