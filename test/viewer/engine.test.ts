/**
 * The viewer's adapter (viewer/src/engine.ts) in Node, no browser: what the e2e tests rely
 * on, checked directly and fast. Each check compares with something computed another way
 * (a pose solved at the step's travel, a finite difference, the documented design numbers),
 * never with the same computation.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { LiveViewPresenter, type PoseResult } from '../../src/live/view/presenter.ts';
import { assemblyDocument, compileDocument, liveEdits, suspensionDocument, type LiveDocument } from '../../src/live';
import { parseText } from '../../src/suspension/files';
import { History } from '../../src/reactive';
import { addMate } from '../../src/assembly/edits';
import { fourBarDoc } from '../../examples/fourbar';

const geometryText = (name: string) => readFileSync(new URL(`../../examples/suspension/${name}.yaml`, import.meta.url), 'utf8');
const dw = () => suspensionDocument(parseText(geometryText('double_wishbone')), { name: 'double_wishbone.yaml' });

describe('viewer engine', () => {
  it('solves the default corner at design: the sanity numbers of suspension.md', () => {
    const r = new LiveViewPresenter().pose(poseAt(1, dw(), { travel: [0], rack: 0 }));
    expect(r.ok).toBe(true);
    expect(r.dof).toBe(2);
    expect(r.metrics.camber).toBeCloseTo(-1.909, 3);
    expect(r.metrics.caster).toBeCloseTo(4.764, 3);
    expect(r.structure.handles.filter((h) => h.kind === 'hardpoint').map((h) => h.label)).toContain('upper_wishbone_inboard_front');
    expect(r.corners[0].screwAxis).not.toBeNull();
  });

  it('the pose is a function of the document and the view: an undone edit gives the same numbers bit for bit', () => {
    const history = new History<LiveDocument>(dw());
    const engine = new LiveViewPresenter();
    const view = { travel: [35], rack: 4 };
    const before = engine.pose(poseAt(1, history.current, view));
    history.apply(liveEdits.moveHardpoint('upper_wishbone_inboard_front', [225, 330, 540]), 'move');
    const edited = engine.pose(poseAt(2, history.current, view));
    expect(edited.metrics.camber).not.toBe(before.metrics.camber);
    history.undo();
    const undone = engine.pose(poseAt(3, history.current, view));
    expect(undone.metrics).toEqual(before.metrics);
    expect(undone.points).toEqual(before.points);
  });

  it('a pull moves the wheel in bump and sets the view; past reach it stops, keeps a good pose and names the mates', () => {
    const engine = new LiveViewPresenter();
    const doc = dw();
    let r: PoseResult = engine.pose(poseAt(1, doc, { travel: [0], rack: 0 }));
    const wc = r.corners[0].wheelCenter;
    const local = r.structure.handles.find((h) => h.kind === 'wheel')!.local;
    r = engine.pose(poseAt(1, doc, r.view, { pull: { part: 'upright', point: local, target: [wc[0], wc[1], wc[2] + 30], mode: 'bump', dragId: 1, axis: [0, 0, 1] } }));
    expect(r.ok).toBe(true);
    expect(r.view.travel[0]).toBeCloseTo(30, 6);
    for (let k = 1; k <= 12 && r.ok; k++) {
      r = engine.pose(poseAt(1, doc, r.view, { pull: { part: 'upright', point: local, target: [wc[0], wc[1], wc[2] + 30 + 100 * k], mode: 'bump', dragId: 1, axis: [0, 0, 1] } }));
    }
    expect(r.ok).toBe(false);
    expect(r.status).toBe('limited');
    expect(r.message).toMatch(/beyond reach/);
    expect(r.failed.length).toBeGreaterThan(0);
    expect(Object.values(r.points).flat().every(Number.isFinite)).toBe(true);
    expect(r.view.travel[0]).toBeGreaterThan(300);
  });

  it("the sweep's curves are the poses at its travels, and its derivative is the slope of its curve", () => {
    const doc = dw();
    const engine = new LiveViewPresenter();
    const s = engine.sweep({ docKey: 1, doc, range: { start: -50, stop: 50, steps: 11 }, full: true });
    expect(s.travel).toEqual([-50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50]);
    // each step solved again on its own, by the pose path, from design straight to that travel
    for (const k of [0, 3, 5, 8, 10]) {
      const pose = new LiveViewPresenter().pose(poseAt(1, doc, { travel: [s.travel[k]], rack: 0 }));
      expect(s.series.camber[k]).toBeCloseTo(pose.metrics.camber as number, 8);
      expect(s.series.toe_angle[k]).toBeCloseTo(pose.metrics.toe_angle as number, 8);
    }
    // at design, the documented sanity number (suspension.md)
    expect(s.series.camber[5]).toBeCloseTo(-1.909, 3);
    // the exact derivative against the curve's own central difference (10 mm apart: to 2e-3 °/mm)
    for (let k = 1; k < 10; k++) {
      const slope = ((s.series.camber[k + 1] as number) - (s.series.camber[k - 1] as number)) / 20;
      expect(Math.abs((s.series.deriv_camber_wrt_hub_z[k] as number) - slope)).toBeLessThan(2e-3);
    }
    expect(s.csv.split('\n')[0]).toContain('camber');
    expect(s.axes.every((a) => a !== null)).toBe(true);
  });

  it('the steer sweep moves the rack with the wheel held: toe is the pose at each rack travel, zero rack the design', () => {
    const doc = dw();
    const s = new LiveViewPresenter().sweep({ docKey: 1, doc, kind: 'steer', range: { start: -30, stop: 30, steps: 7 }, full: true });
    expect(s.kind).toBe('steer');
    expect(s.travel).toEqual([-30, -20, -10, 0, 10, 20, 30]);
    expect(s.failedSteps).toBe(0);
    const design = new LiveViewPresenter().pose(poseAt(1, doc, { travel: [0], rack: 0 }));
    expect(s.series.toe_angle[3]).toBeCloseTo(design.metrics.toe_angle as number, 8);
    for (const k of [0, 6]) {
      const pose = new LiveViewPresenter().pose(poseAt(1, doc, { travel: [0], rack: s.travel[k] }));
      expect(s.series.toe_angle[k]).toBeCloseTo(pose.metrics.toe_angle as number, 8);
    }
    // the rack steers the wheel one way across the range, by degrees, not noise
    const toe = s.series.toe_angle as number[];
    const steps = toe.slice(1).map((t, i) => t - toe[i]);
    expect(steps.every((d) => Math.sign(d) === Math.sign(steps[0]) && Math.abs(d) > 0.5)).toBe(true);
    expect(s.csv.split('\n')[1].startsWith('steer,')).toBe(true);
    // a linkage without a rack has no steer sweep: said, not a silent flat line
    const trailing = suspensionDocument(parseText(geometryText('trailing_arm')), { name: 'trailing_arm.yaml' });
    expect(() => new LiveViewPresenter().sweep({ docKey: 2, doc: trailing, kind: 'steer', range: { start: -10, stop: 10, steps: 3 } })).toThrow(/needs a rack/);
  });

  it("the plots' sweep leaves out only the steering response: the same curves and axes as the full one, and the design metrics of the pose", () => {
    const doc = dw();
    const engine = new LiveViewPresenter();
    const range = { start: -40, stop: 30, steps: 8 };
    const plots = engine.sweep({ docKey: 1, doc, range });
    const full = engine.sweep({ docKey: 1, doc, range, full: true });
    // values only, each step predicted by the secant instead of the tangent: the same states to
    // the solver's tolerance
    for (const key of ['camber', 'toe_angle', 'caster', 'kpi', 'scrub_radius']) plots.series[key].forEach((x, i) => expect(x).toBeCloseTo(full.series[key][i] as number, 9));
    plots.axes.forEach((a, i) => a!.forEach((p, k) => p.forEach((x, j) => expect(x).toBeCloseTo(full.axes[i]![k][j], 7))));
    // no derivatives unless a plot asks for them
    expect(plots.series.deriv_camber_wrt_hub_z.every((x) => x === null)).toBe(true);
    const withDerivs = engine.sweep({ docKey: 1, doc, range, derivatives: true });
    withDerivs.series.deriv_camber_wrt_hub_z.forEach((x, i) => expect(x).toBe(full.series.deriv_camber_wrt_hub_z[i]));
    // the full sweep has the steering response at every step, the plots' sweep does not
    expect(full.series.kpi_virtual.every((x) => typeof x === 'number')).toBe(true);
    expect(plots.series.kpi_virtual.every((x) => x === null)).toBe(true);
    expect(plots.csv).toBe('');
  });

  it('the design metrics (what the what-if deltas compare) come with every pose: at design its own, elsewhere the design state evaluated', () => {
    const doc = dw();
    const atDesign = new LiveViewPresenter().pose(poseAt(1, doc, { travel: [0], rack: 0 }));
    // at design: the documented sanity numbers (suspension.md)
    expect(atDesign.designMetrics.camber).toBeCloseTo(-1.909, 3);
    expect(atDesign.designMetrics.caster).toBeCloseTo(4.764, 3);
    // a fresh engine whose first pose is away from design: the design state is evaluated apart
    const away = new LiveViewPresenter().pose(poseAt(1, doc, { travel: [30], rack: 5 }));
    expect(away.metrics.camber).not.toBeCloseTo(atDesign.metrics.camber as number, 3);
    for (const key of ['camber', 'toe_angle', 'caster_virtual', 'kpi_virtual', 'deriv_camber_wrt_hub_z', 'scrub_radius']) expect(away.designMetrics[key]).toBeCloseTo(atDesign.metrics[key] as number, 9);
    // and the state shown is still the one asked for
    expect(away.view).toEqual({ travel: [30], rack: 5 });
    expect(away.corners[0].wheelCenter[2]).toBeCloseTo(atDesign.corners[0].wheelCenter[2] + 30, 6);
  });

  it('a multi-link has no physical steering axis: its plots\' sweep keeps the steering response (the axis drawn is the virtual one)', () => {
    const doc = suspensionDocument(parseText(geometryText('multi_link')), { name: 'multi_link.yaml' });
    const s = new LiveViewPresenter().sweep({ docKey: 1, doc, range: { start: -20, stop: 20, steps: 5 } });
    expect(s.axes.every((a) => a !== null)).toBe(true);
    expect(s.series.caster.every((x) => typeof x === 'number')).toBe(true);
  });

  it('a generic assembly edited into conflict keeps showing its last good poses (a new document, the same linkage)', () => {
    const engine = new LiveViewPresenter();
    const history = new History<LiveDocument>(assemblyDocument(fourBarDoc(30)));
    const good = engine.pose(poseAt(1, history.current, { travel: [], rack: 0 }));
    expect(good.ok).toBe(true);
    // the coupler's mid point pinned to a ground pivot: no four-bar can do that
    history.apply(liveEdits.assembly(addMate('pin', { type: 'ball', a: 'ground.pivotD', b: 'coupler.mid' })), 'pin');
    const bad = engine.pose(poseAt(2, history.current, { travel: [], rack: 0 }));
    expect(bad.ok).toBe(false);
    expect(bad.failed).toContain('pin');
    expect(bad.points).toEqual(good.points);
    expect(bad.poses).toEqual(good.poses);
  });

  it('a generic assembly drags on the live engine, its drivers freed', () => {
    const engine = new LiveViewPresenter();
    const doc = assemblyDocument(fourBarDoc(30));
    const r0 = engine.pose(poseAt(1, doc, { travel: [], rack: 0 }));
    expect(r0.ok).toBe(true);
    expect(r0.suspension).toBe(false);
    const mid = r0.points['coupler.mid'];
    const r1 = engine.pose(poseAt(1, doc, r0.view, { pull: { part: 'coupler', point: [0.9, 0.3, 0], target: [mid[0] - 0.1, mid[1] + 0.1, 0], mode: 'free', dragId: 1 } }));
    expect(r1.ok).toBe(true);
    expect(r1.points['coupler.mid']).not.toEqual(mid);
    const back = engine.pose(poseAt(1, doc, r1.view, { cancelledDrag: 1 }));
    for (let i = 0; i < 3; i++) expect(back.points['coupler.mid'][i]).toBeCloseTo(mid[i], 6);
  });

  it("a drag's sweeps, each from the request's compile on a model renewed in place, equal sweeps on a model built afresh", () => {
    const history = new History<LiveDocument>(dw());
    const engine = new LiveViewPresenter();
    const range = { start: -40, stop: 40, steps: 5 };
    const strip = (r: { ms: number }) => ({ ...r, ms: 0 });
    for (let k = 1; k <= 4; k++) {
      history.apply(liveEdits.moveHardpoint('lower_wishbone_inboard_rear', [-250, 450, 200 + 2 * k]), 'move');
      const doc = history.current;
      const kind = k % 2 ? 'bump' : 'steer';
      const renewed = engine.sweep({ docKey: k, doc, compiled: compileDocument(doc), kind, range, derivatives: true });
      expect(renewed.failedSteps).toBe(0);
      expect(strip(renewed)).toEqual(strip(new LiveViewPresenter().sweep({ docKey: k, doc, kind, range, derivatives: true })));
    }
    // another topology: built afresh, its own numbers
    const trailing = suspensionDocument(parseText(geometryText('trailing_arm')), { name: 'trailing_arm.yaml' });
    expect(strip(engine.sweep({ docKey: 9, doc: trailing, range }))).toEqual(strip(new LiveViewPresenter().sweep({ docKey: 9, doc: trailing, range })));
  });
});
