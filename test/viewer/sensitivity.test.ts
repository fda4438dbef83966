/**
 * The sensitivity arrows' presenter (viewer/src/sensitivity.ts): its gradients at the
 * viewed state checked against central differences of the viewer's own pose path (the
 * document edited with the pickup moved ±h, solved again by the pose engine at the same
 * view) — a different route from the library's adjoint.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Engine, type ViewState } from '../../viewer/src/engine';
import { SensitivityPresenter, hoverLines, signedFigure, stateWords } from '../../viewer/src/sensitivity';
import { hardpointPosition } from '../../viewer/src/document';
import { assemblyDocument, liveEdits, suspensionDocument, type LiveDocument } from '../../src/live';
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
  const r = new Engine().pose({ docKey: ++key, doc: history.current, view });
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
      const pose = new Engine().pose({ docKey: 1, doc, view: state });
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

  it('an assembly document and an axle have no arrows, and say why', () => {
    const p = new SensitivityPresenter();
    const asm = p.arrows({ docKey: 1, doc: assemblyDocument(fourBarDoc(30)), view: { travel: [], rack: 0 }, metric: 'camber' });
    expect(asm.status).toBe('unavailable');
    expect(asm.message).toMatch(/suspension geometry/);
    const axle = p.arrows({ docKey: 2, doc: docOf('double_wishbone_axle'), view: { travel: [0, 0], rack: 0 }, metric: 'camber' });
    expect(axle.status).toBe('unavailable');
    expect(axle.message).toMatch(/corner/);
  });

  it('the hover text: "+1 mm in y → +0.013° camber at +30 mm"', () => {
    expect(signedFigure(0.012_96)).toBe('+0.013');
    expect(signedFigure(-0.5)).toBe('−0.50');
    expect(stateWords({ travel: [30], rack: 0 })).toBe('at +30 mm');
    expect(stateWords({ travel: [-12.25], rack: 4 })).toBe('at −12.3 mm, rack +4 mm');
    const lines = hoverLines({ docKey: 1, metric: 'camber', unit: '°', view: { travel: [30], rack: 0 }, status: 'ok', message: null, value: 0, arrows: [], ms: 0 }, { hardpoint: 'p', gradient: [0, 0.01296, -0.002], chassis: true });
    expect(lines).toEqual(['+1 mm in x → 0° camber at +30 mm', '+1 mm in y → +0.013° camber at +30 mm', '+1 mm in z → −0.0020° camber at +30 mm']);
  });
});
