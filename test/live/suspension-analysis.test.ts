import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { LiveModel } from '../../src/live/live-model';
import { readSuspensionDocument } from '../../src/live/document';
import { suspensionAnalysis, type LiveSuspensionAnalysis } from '../../src/live/suspension-analysis';
import type { MetricValues } from '../../src/suspension/build/model';

describe('the live model with the suspension analysis', () => {
  it('gives the sweep engine\'s metrics at design and updates them as the wheel is pulled', () => {
    const live = new LiveModel(readSuspensionDocument(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8')), { analyze: suspensionAnalysis() });
    const frames: LiveSuspensionAnalysis[] = [];
    const sub = live.analysis$.subscribe((a) => { if (a.value) frames.push(a.value); });
    live.solveNow();
    const design = frames.at(-1)!.metrics as MetricValues;
    expect(design.camber).toBeCloseTo(-1.909, 3);
    expect(design.caster).toBeCloseTo(4.764, 3);
    expect(design.wheel_travel).toBeCloseTo(0, 9);
    // steering response: kingpin under the default hold, so virtual = physical
    expect(design.kpi_virtual).toBeCloseTo(design.kpi as number, 8);
    // pull the wheel up 30 mm: travel follows, camber changes, the design references stay
    const wc = frames.at(-1)!.positions.wheel_center;
    live.beginDrag({ kind: 'pull', part: 'upright', point: [wc[0], wc[1], wc[2]] });
    for (let k = 1; k <= 10; k++) { live.dragTo([wc[0], wc[1], wc[2] + 3 * k]); live.solveNow(); }
    live.endDrag();
    const bumped = frames.at(-1)!.metrics as MetricValues;
    expect(bumped.wheel_travel).toBeGreaterThan(25);
    expect(bumped.camber).not.toBeCloseTo(design.camber as number, 3);
    expect(frames.length).toBeGreaterThanOrEqual(11);
    sub.unsubscribe();
    live.dispose();
  });
});
