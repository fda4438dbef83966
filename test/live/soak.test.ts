/**
 * A soak: 10,000 frames of random drags on a double-wishbone axle through the live model.
 * Every frame must be good with every constraint row within 1e-9 mm, and the heap must
 * not grow. Also measures the time per frame (reported, not asserted: the machine is shared).
 */
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { queueScheduler } from 'rxjs';
import * as P from '../../kernel/pose';
import { LiveModel, hardpointPosition, simpleSuspensionAnalysis, type LiveError, type SimpleAnalysis } from '../../src/live/index.ts';
import { suspensionExample } from './helpers.ts';
import { rng } from '../util/rng.ts';

const FRAMES = 10_000;
const WARM_UP = 1_000;

/** `global.gc` when node runs with --expose-gc, else one obtained by turning the flag on now. */
function collector(): (() => void) | null {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return existing;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}

function heapAfterCollection(gc: (() => void) | null): number {
  if (gc) for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}


interface Grip {
  readonly part: string;
  readonly point: [number, number, number];
}

describe('soak', () => {
  it(`${FRAMES} frames of random drags on a double-wishbone axle: residual ≤ 1e-9 every frame, no heap growth`, () => {
    const document = suspensionExample('double_wishbone_axle');
    const live = new LiveModel<SimpleAnalysis>(document, { frameScheduler: queueScheduler, analyze: simpleSuspensionAnalysis });
    const errors: LiveError<SimpleAnalysis>[] = [];
    live.errors$.subscribe((e) => errors.push(e));
    const hardpoints = live.document.kind === 'suspension' ? live.document.geometry : {};
    const grips: Grip[] = [];
    for (const side of ['left', 'right'] as const) {
      const sign = side === 'left' ? 1 : -1;
      grips.push({ part: `${side}_upright`, point: [-20, sign * 950, 313.426] }); // the wheel centre
      grips.push({ part: `${side}_upright`, point: [-20, sign * 800, 308.426] });
      grips.push({ part: `${side}_lower_wishbone`, point: [0, sign * 900, 200] });
      grips.push({ part: `${side}_upper_wishbone`, point: [-25, sign * 750, 500] });
    }
    const designZ = (grip: Grip) => grip.point[2];
    const rnd = rng(20260101);
    const gc = collector();
    let frames = 0;
    let worstResidual = 0;
    let limited = 0;
    let heapBefore = 0;
    const solveMs: number[] = [];
    const started = performance.now();
    const check = () => {
      const frame = live.lastGood!;
      expect(frame.document).toBe(live.document);
      expect(frame.result.maxResidual).toBeLessThanOrEqual(1e-9);
      worstResidual = Math.max(worstResidual, frame.result.maxResidual);
      solveMs.push(frame.solveMs + frame.analysisMs);
      frames++;
      if (frames === WARM_UP) heapBefore = heapAfterCollection(gc);
    };
    while (frames < FRAMES) {
      if (frames % 1000 === 500) {
        // now and then a hardpoint drag, cancelled (so the history does not grow)
        const name = rnd() < 0.5 ? 'left_upper_wishbone_inboard_front' : 'right_lower_wishbone_inboard_rear';
        const start = hardpointPosition(hardpoints, name);
        expect(live.beginDrag({ kind: 'hardpoint', name })).toBe(true);
        for (let k = 1; k <= 10 && frames < FRAMES; k++) {
          expect(live.dragTo([start[0], start[1], start[2] + 2 * k])).toBe(true);
          check();
        }
        live.cancelDrag();
        continue;
      }
      const grip = grips[Math.floor(rnd() * grips.length)];
      const model = live.model!;
      const here = P.applyPoint(new Float64Array(3), model.system.getPose(model.parts.get(grip.part)!), grip.point);
      expect(live.beginDrag({ kind: 'pull', part: grip.part, point: grip.point })).toBe(true);
      const length = 10 + Math.floor(rnd() * 50);
      const target = [here[0], here[1], here[2]];
      for (let k = 0; k < length && frames < FRAMES; k++) {
        // a random walk of the pointer, at most ~4 mm a frame, kept within ±70 mm of design height
        target[0] += (rnd() - 0.5) * 2;
        target[1] += (rnd() - 0.5) * 2;
        target[2] = Math.min(designZ(grip) + 70, Math.max(designZ(grip) - 70, target[2] + (rnd() - 0.5) * 8));
        live.dragTo([target[0], target[1], target[2]]);
        check();
        if (live.lastGood!.reach!.status === 'limited') limited++;
      }
      live.endDrag();
    }
    const elapsed = performance.now() - started;
    const heapAfter = heapAfterCollection(gc);
    expect(errors).toEqual([]);
    expect(live.history.undoEntries).toHaveLength(0);
    solveMs.sort((a, b) => a - b);
    const summary = {
      frames,
      seconds: +(elapsed / 1000).toFixed(1),
      medianFrameMs: +solveMs[solveMs.length >> 1].toFixed(3),
      p90FrameMs: +solveMs[Math.floor(solveMs.length * 0.9)].toFixed(3),
      worstResidual,
      limitedPulls: limited,
      heapGrowthMB: +((heapAfter - heapBefore) / 2 ** 20).toFixed(2),
      gc: gc !== null,
    };
    console.log('soak', JSON.stringify(summary));
    // the heap after the soak is no larger than after the warm-up, give or take compiled code
    expect(heapAfter - heapBefore).toBeLessThan((gc ? 4 : 16) * 2 ** 20);
  }, 240_000);
});
