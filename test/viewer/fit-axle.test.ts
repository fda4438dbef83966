/**
 * The Fit panel's job on an axle (viewer/src/fit.ts): the library's symmetric fit, its moves
 * named as the viewer names an axle's pickups, accepted as one undo entry that keeps the
 * file's layout (a left-only file stays left-only and symmetric; an explicit right side
 * gets its mirrored moves); the pose engine, not the fit, measures the result.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { LiveViewPresenter } from '../../src/live/view/presenter.ts';
import { acceptFitRecipe, runFit } from '../../src/live/view/fit.ts';
import { hardpointPosition } from '../../viewer/src/document';
import { suspensionDocument, type LiveDocument } from '../../src/live';
import { parseText } from '../../src/suspension/files';
import { History } from '../../src/reactive';

const read = (path: string) => readFileSync(new URL(`../../examples/${path}`, import.meta.url), 'utf8');
const axleDoc = () => suspensionDocument(parseText(read('suspension/double_wishbone_axle.yaml')), { name: 'double_wishbone_axle.yaml' });
const targets = read('sensitivity/fit_axle_camber_gain.yaml');
type Raw = { hardpoints: { left: Record<string, { x: number; y: number; z: number }>; right?: Record<string, { x: number; y: number; z: number }>; center?: Record<string, { x: number; y: number; z: number }> } };
const rawOf = (doc: LiveDocument) => (doc.kind === 'suspension' ? (doc.geometry as unknown as Raw) : null)!;

let key = 0;
/** A metric of `side` as the pose engine shows it, both wheels at `travel`. */
function measured(doc: LiveDocument, travel: number, metric: string, side: 'left' | 'right'): number {
  const r = new LiveViewPresenter().pose(poseAt(++key, doc, { travel: [travel, travel], rack: 0 }));
  expect(r.ok).toBe(true);
  return r.metrics[side === 'left' ? metric : `${side}.${metric}`] as number;
}

describe('viewer fit job on an axle', () => {
  it('mirrored axle: symmetric moves, one undo entry, the file left-only and symmetric; the engine measures the fitted gains on both sides', () => {
    const history = new History<LiveDocument>(axleDoc());
    const original = history.current;
    const progress: number[] = [];
    const outcome = runFit(original, targets, 'fit_axle_camber_gain.yaml', (p) => progress.push(p.cost));
    expect(progress.length).toBeGreaterThan(2);
    expect(outcome.cost.end).toBeLessThan(outcome.cost.start / 100);
    // both sides' pickups, by the viewer's names, each the other's mirror
    const names = Object.keys(outcome.positions).sort();
    expect(names).toContain('left_upper_wishbone_inboard_front');
    expect(names).toContain('right_upper_wishbone_inboard_front');
    for (const name of names.filter((n) => n.startsWith('left_'))) {
      const l = outcome.positions[name], r = outcome.positions[`right_${name.slice(5)}`];
      expect(r).toEqual([l[0], -l[1], l[2]]);
    }

    history.apply(acceptFitRecipe(outcome), 'fit');
    expect(history.undoEntries.length).toBe(1);
    const raw = rawOf(history.current);
    expect(raw.hardpoints.right).toBeUndefined();
    for (const [point, p] of Object.entries(rawOf(original).hardpoints.left)) {
      for (const [i, axis] of (['x', 'y', 'z'] as const).entries()) {
        const move = outcome.moves[`left.${point}.${axis}`];
        expect(raw.hardpoints.left[point][axis]).toBe(move ? move.to : p[axis]);
      }
      // the right pickup the engine builds is the left one's mirror
      expect(hardpointPosition(history.current, `right_${point}`)).toEqual([raw.hardpoints.left[point].x, 0 - raw.hardpoints.left[point].y, raw.hardpoints.left[point].z]);
    }
    // the accepted design, by the pose engine: each side's camber gain 0…25 is the one the fit reports
    for (const side of ['left', 'right'] as const) {
      const t = outcome.targets.find((x) => x.target === `targets[0] ${side} camber gain 0…25`)!;
      expect(measured(history.current, 25, 'camber', side) - measured(history.current, 0, 'camber', side)).toBeCloseTo(t.value, 8);
      expect(Math.abs(t.value + 1)).toBeLessThan(0.01);
    }

    history.undo();
    expect(history.canUndo).toBe(false);
    expect(history.current).toBe(original);
    expect(rawOf(history.current)).toEqual(rawOf(original));
  });

  it('an axle with its right side written out: the accept writes both sides, mirrored', () => {
    const raw = parseText(read('suspension/double_wishbone_axle.yaml')) as Raw;
    raw.hardpoints.right = Object.fromEntries(Object.entries(raw.hardpoints.left).map(([n, p]) => [n, { x: p.x, y: 0 - p.y, z: p.z }]));
    const history = new History<LiveDocument>(suspensionDocument(raw, { name: 'explicit.yaml' }));
    const outcome = runFit(history.current, 'move:\n  upper_wishbone_inboard_front: { z: [-40, 40] }\ntargets:\n  - { metric: camber, gain: [0, 25], value: -0.1 }\n', 't.yaml');
    expect(outcome.status).toBe('converged');
    history.apply(acceptFitRecipe(outcome), 'fit');
    expect(history.undoEntries.length).toBe(1);
    const after = rawOf(history.current).hardpoints;
    const dz = outcome.moves['left.upper_wishbone_inboard_front.z'].delta;
    expect(Math.abs(dz)).toBeGreaterThan(0.1);
    expect(after.left.upper_wishbone_inboard_front.z).toBe(raw.hardpoints.left.upper_wishbone_inboard_front.z + dz);
    expect(after.right!.upper_wishbone_inboard_front.z).toBe(after.left.upper_wishbone_inboard_front.z);
    expect(after.right!.upper_wishbone_inboard_front.y).toBe(0 - after.left.upper_wishbone_inboard_front.y);
    for (const side of ['left', 'right'] as const) expect(measured(history.current, 25, 'camber', side) - measured(history.current, 0, 'camber', side)).toBeCloseTo(-0.1, 8);
  });

  it("a centre point (the U-bar's axis) moves alone, named center_<point>; an axle's own metric is a target", () => {
    const history = new History<LiveDocument>(suspensionDocument(parseText(read('suspension/double_wishbone_axle_u_bar.yaml')), { name: 'u.yaml' }));
    const before = rawOf(history.current).hardpoints.center!.arb_u_bar_axis_a;
    const outcome = runFit(history.current, 'move:\n  center.arb_u_bar_axis_a: { z: [-5, 5] }\n  upper_wishbone_inboard_front: { z: [-10, 10] }\ntargets:\n  - { metric: roll_center_kinematic_z, at: 0, value: 20 }\nmax_iterations: 30\n', 't.yaml');
    expect(Object.keys(outcome.positions)).toContain('center_arb_u_bar_axis_a');
    expect(outcome.targets[0].target).toBe('targets[0] axle roll_center_kinematic_z at 0');
    history.apply(acceptFitRecipe(outcome), 'fit');
    expect(history.undoEntries.length).toBe(1);
    const after = rawOf(history.current).hardpoints.center!.arb_u_bar_axis_a;
    expect(after.z).toBe(outcome.moves['center.arb_u_bar_axis_a.z'].to);
    expect([after.x, after.y]).toEqual([before.x, before.y]);
  });
});
