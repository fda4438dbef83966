/**
 * The sensitivity arrows' presenter (viewer/src/sensitivity.ts): its gradients at the
 * viewed state checked against central differences of the viewer's own pose path (the
 * document edited with the pickup moved ±h, solved again by the pose engine at the same
 * view) — a different route from the library's adjoint.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { LiveViewPresenter, type ViewState } from '../../src/live/view/presenter.ts';
import { SensitivityPresenter, hoverLines, signedFigure, stateWords } from '../../src/live/view/sensitivity.ts';
import { hardpointPosition } from '../../viewer/src/document';
import { assemblyDocument, compileDocument, liveEdits, suspensionDocument, type LiveDocument } from '../../src/live';
import { parseText } from '../../src/suspension/files';
import { History } from '../../src/reactive';
import { fourBarDoc } from '../../examples/fourbar';

const geometryText = (name: string) => readFileSync(new URL(`../../examples/suspension/${name}.yaml`, import.meta.url), 'utf8');
const docOf = (name: string) => suspensionDocument(parseText(geometryText(name)), { name: `${name}.yaml` });

let key = 100;
/** The metric as the pose engine shows it at `view`, with one hardpoint coordinate moved by `d` mm. */
function metricMoved(doc: LiveDocument, view: ViewState, metric: string, hardpoint: string, axis: number, d: number): number {
  const p = hardpointPosition(doc, hardpoint)!;
  const q: [number, number, number] = [p[0], p[1], p[2]];
  q[axis] += d;
  const history = new History<LiveDocument>(doc);
  history.apply(liveEdits.moveHardpoint(hardpoint, q), 'fd');
  const r = new LiveViewPresenter().pose(poseAt(++key, history.current, view));
  expect(r.ok).toBe(true);
  return r.metrics[metric] as number;
}

describe('sensitivity arrows presenter', () => {
  for (const [name, metric, view] of [
    ['double_wishbone', 'camber', { travel: [30], rack: 0 }],
    ['double_wishbone', 'toe_angle', { travel: [-20], rack: 4 }],
    ['macpherson', 'scrub_radius', { travel: [15], rack: 0 }],
  ] as const) {
    it(`${name}: d(${metric})/d(pickup) at travel ${view.travel[0]}, rack ${view.rack} equals central differences of the pose engine`, () => {
      const doc = docOf(name);
      const state: ViewState = { travel: [...view.travel], rack: view.rack };
      const r = new SensitivityPresenter().arrows({ docKey: 1, doc, view: state, metric });
      expect(r.status).toBe('ok');
      // the value is the pose engine's at the same view
      const pose = new LiveViewPresenter().pose(poseAt(1, doc, state));
      expect(r.value).toBeCloseTo(pose.metrics[metric] as number, 8);
      // the chassis pickups are the pose's chassis handles
      const chassis = pose.structure.handles.filter((h) => h.kind === 'hardpoint').map((h) => h.hardpoint).sort();
      expect(r.arrows.filter((a) => a.chassis).map((a) => a.hardpoint).sort()).toEqual(chassis);
      const h = 1e-3;
      let largest = 0;
      for (const arrow of r.arrows.filter((a) => a.chassis)) {
        for (let axis = 0; axis < 3; axis++) {
          const fd = (metricMoved(doc, state, metric, arrow.hardpoint, axis, h) - metricMoved(doc, state, metric, arrow.hardpoint, axis, -h)) / (2 * h);
          const g = arrow.gradient[axis];
          largest = Math.max(largest, Math.abs(g));
          expect(Math.abs(g - fd), `${arrow.hardpoint}.${'xyz'[axis]}: ${g} vs ${fd}`).toBeLessThan(1e-6 + 1e-5 * Math.abs(fd));
        }
      }
      expect(largest).toBeGreaterThan(1e-4); // the comparison is not between zeros
    });
  }

  it('an assembly document has no arrows, and says why', () => {
    const p = new SensitivityPresenter();
    const asm = p.arrows({ docKey: 1, doc: assemblyDocument(fourBarDoc(30)), view: { travel: [], rack: 0 }, metric: 'camber' });
    expect(asm.status).toBe('unavailable');
    expect(asm.message).toMatch(/suspension geometry/);
  });

  /** The axle's metric of `side` as the pose engine shows it, after `edit` (a pickup drag's edit, or a centre point's). */
  function axleMetric(doc: LiveDocument, view: ViewState, metric: string, side: string, edit: ((h: History<LiveDocument>) => void) | null): number {
    const history = new History<LiveDocument>(doc);
    if (edit) edit(history);
    const r = new LiveViewPresenter().pose(poseAt(++key, history.current, view));
    expect(r.ok).toBe(true);
    return r.metrics[side === 'left' ? metric : `${side}.${metric}`] as number;
  }
  const dragBy = (name: string, axis: number, d: number) => (h: History<LiveDocument>) => {
    const p = hardpointPosition(h.current, name)!;
    const q: [number, number, number] = [p[0], p[1], p[2]];
    q[axis] += d;
    h.apply(liveEdits.moveHardpoint(name, q), 'fd');
  };
  const centreBy = (name: string, axis: number, d: number) => (h: History<LiveDocument>) => {
    const g = h.current.kind === 'suspension' ? (h.current.geometry as { hardpoints: { center: Record<string, { x: number; y: number; z: number }> } }) : null;
    const p = g!.hardpoints.center[name];
    const q = { x: p.x, y: p.y, z: p.z };
    q[(['x', 'y', 'z'] as const)[axis]] += d;
    h.apply(liveEdits.setGeometryValue(['hardpoints', 'center', name], q), 'fd');
  };
  /** The same axle with its right side written out: each pickup then moves alone. */
  const explicitRight = (name: string) => {
    const raw = parseText(geometryText(name)) as { hardpoints: { left: Record<string, { x: number; y: number; z: number }>; right?: unknown } };
    raw.hardpoints.right = Object.fromEntries(Object.entries(raw.hardpoints.left).map(([n, p]) => [n, { x: p.x, y: 0 - p.y, z: p.z }]));
    return suspensionDocument(raw, { name: `${name}_explicit.yaml` });
  };

  for (const [label, makeDoc, metric, side, view] of [
    ['mirrored double wishbone axle', () => docOf('double_wishbone_axle'), 'camber', 'right', { travel: [20, 5], rack: 3 }],
    ['U-bar axle (centre points)', () => docOf('double_wishbone_axle_u_bar'), 'toe_angle', 'left', { travel: [-10, -10], rack: 0 }],
    ['axle with an explicit right side', () => explicitRight('double_wishbone_axle'), 'kpi', 'left', { travel: [10, -15], rack: 0 }],
  ] as const) {
    it(`${label}: d(${side} ${metric})/d(pickup) on both sides and the centre equals central differences of the pose engine`, () => {
      const doc = makeDoc();
      const state: ViewState = { travel: [...view.travel], rack: view.rack };
      const r = new SensitivityPresenter().arrows({ docKey: 1, doc, view: state, metric, side });
      expect(r.status, r.message ?? '').toBe('ok');
      expect(r.side).toBe(side);
      expect(r.value).toBeCloseTo(axleMetric(doc, state, metric, side, null), 8);
      // every chassis handle of the pose has its arrow, on both sides; centre points beside them
      const pose = new LiveViewPresenter().pose(poseAt(1, doc, state));
      const handles = pose.structure.handles.filter((h) => h.kind === 'hardpoint').map((h) => h.hardpoint!);
      const chassis = r.arrows.filter((a) => a.chassis);
      const sidePoints = (names: string[]) => names.filter((n) => !n.startsWith('center_')).sort();
      expect(sidePoints(chassis.map((a) => a.hardpoint))).toEqual(sidePoints(handles));
      // the centre points are drag handles too (the bar's axis): each has its arrow
      for (const c of handles.filter((n) => n.startsWith('center_'))) expect(chassis.some((a) => a.hardpoint === c)).toBe(true);
      expect(handles.some((h) => h.startsWith('left_')) && handles.some((h) => h.startsWith('right_'))).toBe(true);
      const centre = chassis.filter((a) => a.hardpoint.startsWith('center_'));
      if (label.startsWith('U-bar')) {
        expect(centre.length).toBe(2);
        for (const a of centre) expect(pose.points[a.ref!]).toBeDefined();
      }
      const mirrored = !label.includes('explicit');
      const h = 1e-3;
      let largest = 0, largestOther = 0;
      for (const arrow of chassis) {
        expect(arrow.with !== undefined).toBe(mirrored && !arrow.hardpoint.startsWith('center_'));
        for (let axis = 0; axis < 3; axis++) {
          const at = (d: number) => axleMetric(doc, state, metric, side, (hist) => (arrow.hardpoint.startsWith('center_') ? centreBy(arrow.hardpoint.slice(7), axis, d) : dragBy(arrow.hardpoint, axis, d))(hist));
          const fd = (at(h) - at(-h)) / (2 * h);
          const g = arrow.gradient[axis];
          largest = Math.max(largest, Math.abs(g));
          if (!arrow.hardpoint.startsWith(`${side}_`)) largestOther = Math.max(largestOther, Math.abs(g));
          expect(Math.abs(g - fd), `${arrow.hardpoint}.${'xyz'[axis]}: ${g} vs ${fd}`).toBeLessThan(1e-6 + 1e-5 * Math.abs(fd));
        }
      }
      expect(largest).toBeGreaterThan(1e-4); // the comparison is not between zeros
      // the other side's pickups move this side's metric only through the mirror (or a shared rack / bar)
      if (mirrored) expect(largestOther).toBeGreaterThan(1e-4);
      // the hover names the side, and the mirror that moves along
      const a = chassis.find((x) => x.hardpoint.startsWith('right_'))!;
      const lines = hoverLines(r, a);
      expect(lines[1]).toMatch(new RegExp(`^\\+1 mm in y → \\S+ ${side} ${metric} at `));
      if (mirrored) expect(lines[3]).toBe(`${a.with} moves with it, mirrored (the axle stays symmetric)`);
      else expect(lines).toHaveLength(3);
    });
  }

  it('the hover text: "+1 mm in y → +0.013° camber at +30 mm"', () => {
    expect(signedFigure(0.012_96)).toBe('+0.013');
    expect(signedFigure(-0.5)).toBe('−0.50');
    expect(stateWords({ travel: [30], rack: 0 })).toBe('at +30 mm');
    expect(stateWords({ travel: [-12.25], rack: 4 })).toBe('at −12.3 mm, rack +4 mm');
    expect(stateWords({ travel: [20, 20], rack: 0 })).toBe('at +20 mm');
    expect(stateWords({ travel: [20, -5], rack: 0 })).toBe('at +20 / −5 mm');
    const lines = hoverLines({ docKey: 1, metric: 'camber', unit: '°', view: { travel: [30], rack: 0 }, status: 'ok', message: null, value: 0, arrows: [], ms: 0 }, { hardpoint: 'p', gradient: [0, 0.01296, -0.002], chassis: true });
    expect(lines).toEqual(['+1 mm in x → 0° camber at +30 mm', '+1 mm in y → +0.013° camber at +30 mm', '+1 mm in z → −0.0020° camber at +30 mm']);
  });

  it("the arrows' worker reads the request's compile: a compile of a moved design gives that design's arrows", () => {
    const doc = suspensionDocument(parseText(geometryText('double_wishbone')), { name: 'double_wishbone.yaml' });
    const history = new History<LiveDocument>(doc);
    const [x, y, z] = hardpointPosition(doc, 'upper_wishbone_inboard_front')!;
    const other = history.apply(liveEdits.moveHardpoint('upper_wishbone_inboard_front', [x, y, z + 15]), 'move');
    const view = { travel: [10], rack: 0 };
    const strip = (r: { ms: number }) => ({ ...r, ms: 0 });
    // a probe: the request names one document and carries the compile of another, 15 mm apart
    const probed = new SensitivityPresenter().arrows({ docKey: 1, doc, compiled: compileDocument(other), view, metric: 'camber' });
    expect(probed.status).toBe('ok');
    expect(strip(probed)).toEqual(strip(new SensitivityPresenter().arrows({ docKey: 1, doc: other, view, metric: 'camber' })));
    expect(strip(probed)).not.toEqual(strip(new SensitivityPresenter().arrows({ docKey: 1, doc, view, metric: 'camber' })));
  });
});
