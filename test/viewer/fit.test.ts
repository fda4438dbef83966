/**
 * The Fit panel's job (viewer/src/fit.ts): the library's fit on the document shown, with
 * progress; accepting it is one undo entry whose undo gives back the geometry and every
 * number shown bit for bit; the accepted design meets the targets when the pose engine
 * (not the fit's own sweep) measures it.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { LiveViewPresenter } from '../../src/live/view/presenter.ts';
import { acceptFitRecipe, runFit } from '../../src/live/view/fit.ts';
import { suspensionDocument, type LiveDocument } from '../../src/live';
import { parseText, validateGeometry } from '../../src/suspension/files';
import { History } from '../../src/reactive';

const read = (path: string) => readFileSync(new URL(`../../examples/${path}`, import.meta.url), 'utf8');
const dw = () => suspensionDocument(parseText(read('suspension/double_wishbone.yaml')), { name: 'double_wishbone.yaml' });
const targets = read('sensitivity/fit_camber_gain.yaml');

describe('viewer fit job', () => {
  it('runs the fit with progress; accept is one undo entry; undo restores the geometry and the numbers bit for bit', () => {
    const history = new History<LiveDocument>(dw());
    const original = history.current;
    const view = { travel: [25], rack: 0 };
    const before = new LiveViewPresenter().pose(poseAt(1, original, view));

    const progress: { iteration: number; cost: number }[] = [];
    const outcome = runFit(original, targets, 'fit_camber_gain.yaml', (p) => progress.push({ iteration: p.iteration, cost: p.cost }));
    expect(progress.length).toBeGreaterThan(2);
    progress.forEach((p, i) => {
      expect(p.iteration).toBe(i + 1);
      if (i > 0) expect(p.cost).toBeLessThan(progress[i - 1].cost); // Levenberg–Marquardt accepts descents only
    });
    expect(progress.at(-1)!.cost).toBe(outcome.cost.end);
    expect(outcome.cost.end).toBeLessThan(outcome.cost.start / 100);

    history.apply(acceptFitRecipe(outcome), 'fit');
    expect(history.undoEntries.length).toBe(1);
    // every moved coordinate is where the fit put it, every other one where it was
    const fitted = validateGeometry(history.current.kind === 'suspension' ? history.current.geometry : null).corners[0].hardpoints;
    const start = validateGeometry(original.kind === 'suspension' ? original.geometry : null).corners[0].hardpoints;
    for (const [name, p] of Object.entries(start)) {
      for (let axis = 0; axis < 3; axis++) {
        const move = outcome.moves[`${name}.${'xyz'[axis]}`];
        expect(fitted[name][axis]).toBe(move ? move.to : p[axis]);
      }
    }
    // the accepted design, measured by the pose engine: camber(25) − camber(0) is the gain the fit reports
    const gainTarget = outcome.targets.find((t) => t.target.startsWith('targets[0]'))!;
    const at = (doc: LiveDocument, travel: number) => new LiveViewPresenter().pose(poseAt(2, doc, { travel: [travel], rack: 0 })).metrics.camber as number;
    expect(at(history.current, 25) - at(history.current, 0)).toBeCloseTo(gainTarget.value, 8);
    expect(Math.abs(gainTarget.value - -1)).toBeLessThan(0.01);

    history.undo();
    expect(history.canUndo).toBe(false);
    expect(history.current).toBe(original);
    expect(history.current.kind === 'suspension' && history.current.geometry).toEqual(original.kind === 'suspension' && original.geometry);
    const undone = new LiveViewPresenter().pose(poseAt(3, history.current, view));
    expect(undone.metrics).toEqual(before.metrics);
    expect(undone.points).toEqual(before.points);
  });

  it('a bad targets file is refused with the file and the path named', () => {
    expect(() => runFit(dw(), 'move: { nope: { y: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]\n', 't.yaml')).toThrow(/t\.yaml: move\.nope: no hardpoint "nope"/);
    expect(() => runFit(dw(), 'move: { trackrod_inboard: { z: [-1, 1] } }\ntargets: [{ metric: camber, value: 1 }]\n', 't.yaml')).toThrow(/t\.yaml: targets\[0\]: give exactly one of at, gain, slope, curve/);
  });
});
