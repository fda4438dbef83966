/**
 * A compliant suspension in the live model (src/live/compliant-pose.ts, docs/compliance.md
 * "Viewer"): the pose a view frame shows under a wheel load is the K&C rig's (runKc, the
 * CLI's route: a model of its own, solved at the position and settled) at the same travel
 * and load, and so are the coefficients; an edited rate or pickup re-solves it; the pose is
 * a function of the document, the view and the loads, not of the frames before; a load the
 * rubber cannot carry says so and shows the unloaded pose; the exaggerated drawing scales
 * the deflection from the unloaded pose exactly.
 */
import { describe, expect, it } from 'vitest';
import { LiveViewEngine, liveEdits, type LiveDocument, type LiveViewFrame } from '../../src/live/index.ts';
import { LiveViewPresenter, type PoseResult } from '../../src/live/view/index.ts';
import type { RigLoads } from '../../src/live/compliant-pose.ts';
import { runKc } from '../../src/suspension/compliance/kc.ts';
import { SuspensionModel } from '../../src/suspension/build/model.ts';
import { compileDocument } from '../../src/live/document.ts';
import type { MetricValues } from '../../src/suspension/build/model.ts';
import { produce } from 'immer';
import { suspensionExample } from './helpers.ts';
import { readFileSync } from 'node:fs';
import { readSuspensionDocument } from '../../src/live/index.ts';

const doc = () => suspensionExample('double_wishbone_compliant');
const lateral = (fy: number): RigLoads => ({ left: { force: [0, fy, 0] } });
const solveAt = (engine: LiveViewEngine, version: number, document: LiveDocument, travel: number, rig: RigLoads | null): LiveViewFrame =>
  engine.solve({ version, document, settings: { view: { travel: [travel], rack: 0 }, loads: null, rig }, pull: null });
const metricsOf = (f: LiveViewFrame) => f.analysis!.metrics as MetricValues;

/** The rig's lateral event at a bump position, one load: the library's other route to the same state. */
function kcAt(document: LiveDocument, bump: number, fy: number) {
  const sm = new SuspensionModel(compileDocument(document).assembly);
  return runKc(sm, 'lateral', { at: { kind: 'bump', value: bump }, range: [fy, fy, 1] });
}

function edit(document: LiveDocument, recipe: ReturnType<typeof liveEdits.setGeometryValue>): LiveDocument {
  return produce(document, recipe as (d: LiveDocument) => void);
}

describe('live compliance', () => {
  it('the pose under a lateral load and the coefficients are the K&C rig\'s at the same travel and load', () => {
    const engine = new LiveViewEngine();
    const frame = solveAt(engine, 1, doc(), 20, lateral(3000));
    expect(frame.ok, frame.message ?? '').toBe(true);
    const kc = kcAt(doc(), 20, 3000);
    const step = kc.steps[0].metrics as MetricValues;
    const m = metricsOf(frame);
    expect(Math.abs((m.toe_angle as number) - (step.toe_angle as number))).toBeLessThan(1e-6);
    expect(Math.abs((m.camber as number) - (step.camber as number))).toBeLessThan(1e-6);
    // the load did move it: a tenth of a degree of toe for 3 kN on this corner
    expect(Math.abs(m.toe_angle as number)).toBeGreaterThan(0.05);
    const summary = kc.summary as unknown as Record<string, number>;
    for (const [k, v] of Object.entries(summary)) expect(Math.abs(frame.compliance!.coefficients.left![k as 'toe_per_fy'] - v), k).toBeLessThan(1e-6 * Math.max(1, Math.abs(v)));
    expect(frame.compliance!.applied.left.force).toEqual([0, 3000, 0]);
  });

  it('the pose is the document\'s, view\'s and loads\': reached after other loads and travels, it is the same', () => {
    const direct = solveAt(new LiveViewEngine(), 1, doc(), 10, lateral(-2000));
    const engine = new LiveViewEngine();
    for (const [travel, fy] of [[30, 4000], [10, 1000]] as const) solveAt(engine, 1, doc(), travel, lateral(fy));
    const after = solveAt(engine, 1, doc(), 10, lateral(-2000));
    for (const part of Object.keys(direct.poses)) for (let i = 0; i < 7; i++) expect(Math.abs(after.poses[part][i] - direct.poses[part][i]), part).toBeLessThan(1e-7);
    // and the unloaded reference at that view is the same as well
    for (const [part, p] of Object.entries(direct.compliance!.unloaded)) for (let i = 0; i < 7; i++) expect(Math.abs(after.compliance!.unloaded[part][i] - p[i]), part).toBeLessThan(1e-7);
  });

  it('an edited rate and an edited pickup re-solve the pose under the same load (as the rig finds on the edited file)', () => {
    const engine = new LiveViewEngine();
    const before = solveAt(engine, 1, doc(), 0, lateral(3000));
    const softer = edit(doc(), liveEdits.setGeometryValue(['compliance', 'links', 'trackrod'], 3000));
    const soft = solveAt(engine, 2, softer, 0, lateral(3000));
    expect(Math.abs((metricsOf(soft).toe_angle as number) - (metricsOf(before).toe_angle as number))).toBeGreaterThan(0.01);
    expect(Math.abs((metricsOf(soft).toe_angle as number) - ((kcAt(softer, 0, 3000).steps[0].metrics as MetricValues).toe_angle as number))).toBeLessThan(1e-6);
    const moved = produce(softer, liveEdits.moveHardpoint('upper_wishbone_outboard', [10, 870, 520]) as (d: LiveDocument) => void);
    const frame = solveAt(engine, 3, moved, 0, lateral(3000));
    expect(frame.ok, frame.message ?? '').toBe(true);
    const kc = kcAt(moved, 0, 3000).steps[0].metrics as MetricValues;
    expect(Math.abs((metricsOf(frame).camber as number) - (kc.camber as number))).toBeLessThan(1e-6);
    expect(frame.compliance!.coefficients.left!.toe_per_fy).toBeCloseTo((kcAt(moved, 0, 3000).summary as unknown as Record<string, number>).toe_per_fy, 6);
  });

  it('dragging the wheel in bump moves the pads to the pointer (no kinematic tangent: secant steps), and settles there as a direct solve does', () => {
    const engine = new LiveViewEngine();
    solveAt(engine, 1, doc(), 0, lateral(2000));
    const wc: [number, number, number] = [-20, 950, 313.426];
    const pulled = engine.solve({ version: 1, document: doc(), settings: { view: { travel: [0], rack: 0 }, loads: null, rig: lateral(2000) }, pull: { dragId: 1, part: 'upright', point: wc, target: [wc[0] + 40, wc[1], wc[2] + 30], mode: 'bump', axis: [0, 0, 1] } });
    expect(pulled.ok, pulled.message ?? '').toBe(true);
    // the wheel centre's z is the pad's: the pointer's z, whatever the bushings do
    expect(pulled.view.travel[0]).toBeCloseTo(30, 4);
    const direct = solveAt(new LiveViewEngine(), 1, doc(), pulled.view.travel[0], lateral(2000));
    for (const part of Object.keys(direct.poses)) for (let i = 0; i < 7; i++) expect(Math.abs(pulled.poses[part][i] - direct.poses[part][i]), part).toBeLessThan(1e-6);
  });

  it('the compliant wheel rate at the view is the rig\'s vertical event\'s at that travel', () => {
    const text = readFileSync(new URL('../../examples/suspension/double_wishbone_pushrod.yaml', import.meta.url), 'utf8').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90 }')
      + 'compliance:\n  bushings:\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1600 }\n    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }\n  links:\n    pushrod: 20000\n';
    const document = readSuspensionDocument(text, 'sprung.yaml');
    const frame = solveAt(new LiveViewEngine(), 1, document, -10, null);
    const rig = runKc(new SuspensionModel(compileDocument(document).assembly), 'vertical', { range: [-10, -10, 1] }).steps[0].wheel_rate as number;
    expect(rig).toBeGreaterThan(1);
    expect(Math.abs(frame.compliance!.wheelRates.left! - rig)).toBeLessThan(1e-6 * rig);
  });

  it('the loads panel\'s case and the rig\'s arrows add: 1 kN + 2 kN is the pose of 3 kN', () => {
    const engine = new LiveViewEngine();
    const both = engine.solve({ version: 1, document: doc(), settings: { view: { travel: [0], rack: 0 }, loads: { each: { force: [0, 1000, 0] } }, rig: lateral(2000) }, pull: null });
    expect(both.compliance!.applied.left.force).toEqual([0, 3000, 0]);
    expect(both.loads!.contact.left.force).toEqual([0, 3000, 0]);
    const one = solveAt(new LiveViewEngine(), 1, doc(), 0, lateral(3000));
    for (const part of Object.keys(one.poses)) for (let i = 0; i < 7; i++) expect(Math.abs(both.poses[part][i] - one.poses[part][i]), part).toBeLessThan(1e-9);
  });

  it('a load beyond what the rubber carries: failed, said why, the unloaded pose shown', () => {
    const engine = new LiveViewEngine();
    const unloaded = solveAt(engine, 1, doc(), 0, null);
    const frame = solveAt(engine, 1, doc(), 0, lateral(5e8));
    expect(frame.compliance!.status).toBe('failed');
    expect(frame.ok).toBe(false);
    expect(frame.message).toMatch(/under the loads: equilibrium not found/);
    expect(frame.poses).toEqual(unloaded.poses);
  });

  it('the drawn deflection is the true one times the factor; the metrics are the true pose\'s', () => {
    const document = doc();
    const presenter = new LiveViewPresenter();
    const pose = (exaggeration: number): PoseResult => presenter.pose({ version: 1, document, settings: { view: { travel: [0], rack: 0 }, loads: null, rig: lateral(3000), exaggeration }, pull: null });
    const one = pose(1), ten = pose(10);
    expect(ten.metrics.toe_angle).toBe(one.metrics.toe_angle);
    expect(ten.compliance!.exaggeration).toBe(10);
    const unloaded = presenter.pose({ version: 1, document, settings: { view: { travel: [0], rack: 0 }, loads: null, rig: null }, pull: null });
    // each part: its translation from the unloaded pose ten times, its turn about the same axis through ten times the angle
    let largest = 0;
    for (const [part, p] of Object.entries(one.poses)) {
      const u = unloaded.poses[part], t = ten.poses[part];
      for (let i = 0; i < 3; i++) expect(Math.abs(t[i] - u[i] - 10 * (p[i] - u[i])), part).toBeLessThan(1e-9);
      const turn = (q: number[]) => rotationVector(quatMul(q.slice(3), [u[3], -u[4], -u[5], -u[6]]));
      const a = turn(p), b = turn(t);
      for (let i = 0; i < 3; i++) expect(Math.abs(b[i] - 10 * a[i]), part).toBeLessThan(1e-9);
      largest = Math.max(largest, Math.hypot(p[0] - u[0], p[1] - u[1], p[2] - u[2]));
    }
    expect(largest).toBeGreaterThan(0.2);
    // what is drawn follows the poses: a point of the upright moved about ten times as far
    const key = 'upright.axle_inboard';
    const moved = (r: PoseResult) => Math.hypot(...r.points[key].map((x, i) => x - unloaded.points[key][i]));
    expect(moved(ten) / moved(one)).toBeGreaterThan(8);
    expect(moved(ten) / moved(one)).toBeLessThan(12);
    // the bushings' deflections are reported, keyed by pickup
    expect(Object.keys(one.compliance!.bushings)).toContain('lower_wishbone_inboard_front');
  });
});

function quatMul(a: number[], b: number[]): number[] {
  return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3], a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2], a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1], a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]];
}

/** The rotation vector (axis × angle, rad) of a unit quaternion. */
function rotationVector(q: number[]): number[] {
  const s = q[0] < 0 ? -1 : 1;
  const v = [q[1] * s, q[2] * s, q[3] * s], n = Math.hypot(...v);
  if (n < 1e-15) return [0, 0, 0];
  const angle = 2 * Math.atan2(n, q[0] * s);
  return v.map((x) => (x / n) * angle);
}
