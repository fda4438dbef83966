/**
 * Quantities read off a bump curve (value at a travel, gain, mean slope, RMS error to a
 * target curve) and their gradients, against the same quantities built from `kinemate
 * sweep`'s values of the geometry re-solved with each hardpoint coordinate moved ±h.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { curveSensitivity, parseCurveTargets, type CurveQuantity } from '../../../src/suspension/gradients/curves';
import { fit, type FitTarget } from '../../../src/suspension/design/fit';
import { main } from '../../../src/cli/main';
import { memoryIO, tempFolder } from '../../cli/helpers';
import { gradientError, movedHardpoint } from '../moves';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const tmp = tempFolder();
afterAll(() => tmp.remove());

/** The metric of one side at a bump travel, as `kinemate sweep --bump V:V:1` prints it. */
function swept(g: Geometry, travel: number, metric: string, side?: string): number {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const step = runSweep(sm, sweepFromShortcut('bump', `${travel}:${travel}:1`, g)).steps[0];
  const m = (side ? (step.metrics as Record<string, Record<string, number>>)[side] : step.metrics) as Record<string, number>;
  if (step.status !== 'solved' || typeof m[metric] !== 'number') throw new Error(`${metric} at ${travel}: not solved`);
  return m[metric];
}

/** The quantity a target names, from swept values only. */
function quantityOf(g: Geometry, t: FitTarget, side?: string): number {
  const m = (x: number) => swept(g, x, t.metric, side);
  if (t.at !== undefined) return m(t.at);
  if (t.gain) return m(t.gain[1]) - m(t.gain[0]);
  if (t.slope) return (m(t.slope[1]) - m(t.slope[0])) / (t.slope[1] - t.slope[0]);
  const e = t.curve!.at.map((x, j) => m(x) - t.curve!.values[j]);
  return Math.sqrt(e.reduce((s, v) => s + v * v, 0) / e.length);
}

function checkAgainstDifferences(g: Geometry, targets: FitTarget[], quantities: CurveQuantity[], keys: string[], h = 1e-3): number {
  let worst = 0;
  let q = 0;
  targets.forEach((t) => {
    const sides = g.scope === 'axle' ? (t.side === 'left' || t.side === 'right' ? [t.side] : ['left', 'right']) : [undefined];
    for (const side of sides) {
      const got = quantities[q++];
      expect(got.value).toBeCloseTo(quantityOf(g, t, side), 9);
      const gradient = got.gradient as Record<string, number>;
      for (const key of keys) {
        const fd = (quantityOf(movedHardpoint(g, key, h), t, side) - quantityOf(movedHardpoint(g, key, -h), t, side)) / (2 * h);
        const err = gradientError(gradient[key], fd, gradient, 1e-7);
        worst = Math.max(worst, err);
        if (err > 2e-4) throw new Error(`${got.target} ${key}: exact ${gradient[key]}, differences ${fd}`);
      }
    }
  });
  expect(q).toBe(quantities.length);
  return worst;
}

const TARGETS: FitTarget[] = [
  { metric: 'camber', gain: [0, 25] },
  { metric: 'camber', slope: [-20, 30] },
  { metric: 'toe_angle', at: 20 },
  { metric: 'toe_angle', curve: { at: [-25, 0, 25], values: [0.1, 0, -0.1] } },
];

describe('curve quantities and their gradients (kinemate sensitivity --targets)', () => {
  it('a corner: value at a travel, gain, mean slope and RMS error, every hardpoint coordinate against central differences of the re-solved sweep', () => {
    const g = load('double_wishbone');
    const qs = curveSensitivity(g, TARGETS);
    expect(qs.map((q) => q.kind)).toEqual(['gain', 'slope', 'at', 'rms']);
    const keys = Object.keys(qs[0].gradient);
    expect(keys).toHaveLength(30);
    const worst = checkAgainstDifferences(g, TARGETS, qs, keys);
    expect(worst).toBeLessThan(2e-4);
    // the RMS gradient is not the mean of its points' gradients: it weighs each by its error
    const direct = curveSensitivity(g, TARGETS, 'direct');
    for (const key of keys) expect(direct[3].gradient[key]).toBeCloseTo(qs[3].gradient[key] as number, 10);
  });

  it('an axle: each side (and one side when asked), the mirrored right with the left’s value', () => {
    const g = load('double_wishbone_axle');
    const targets: FitTarget[] = [{ metric: 'camber', slope: [0, 25] }, { metric: 'toe_angle', curve: { at: [-20, 20], values: [0.05, -0.05] }, side: 'right' }];
    const qs = curveSensitivity(g, targets);
    expect(qs.map((q) => `${q.side} ${q.kind}`)).toEqual(['left slope', 'right slope', 'right rms']);
    expect(qs[1].value).toBeCloseTo(qs[0].value, 10);
    // a sample of the keys over both sides (each entry re-solves the axle at every travel twice)
    const keys = ['left.upper_wishbone_inboard_front.z', 'left.trackrod_inboard.x', 'right.trackrod_outboard.z', 'right.lower_wishbone_outboard.y', 'left.axle_outboard.z'];
    for (const k of keys) expect(qs[0].gradient).toHaveProperty(k);
    checkAgainstDifferences(g, targets, qs, keys);
    // the mirror: the right slope's right-side entries are the left's own, y mirrored
    expect(qs[1].gradient['right.trackrod_inboard.x']).toBeCloseTo(qs[0].gradient['left.trackrod_inboard.x'] as number, 10);
    expect(qs[1].gradient['right.trackrod_inboard.y']).toBeCloseTo(-(qs[0].gradient['left.trackrod_inboard.y'] as number), 10);
  });

  it('an RMS error of zero has no gradient (null), and a fit on a slope target reaches it', () => {
    const g = load('double_wishbone');
    const at = [-20, 0, 20];
    const values = at.map((x) => swept(g, x, 'camber'));
    const [q] = curveSensitivity(g, [{ metric: 'camber', curve: { at, values } }]);
    expect(q.value).toBeLessThan(1e-9);
    if (q.value === 0) expect(Object.values(q.gradient).every((d) => d === null)).toBe(true);
    const slope = curveSensitivity(g, [{ metric: 'camber', slope: [0, 25] }])[0].value;
    const report = fit(g, { move: { upper_wishbone_inboard_front: { z: [-30, 30] }, upper_wishbone_inboard_rear: { z: [-30, 30] } }, targets: [{ metric: 'camber', slope: [0, 25], value: slope - 0.004 }] });
    expect(report.status).toBe('converged');
    expect(Math.abs(report.targets[0].value - (slope - 0.004))).toBeLessThan(1e-8);
  });

  it('the CLI prints the library’s quantities (json and csv), refuses sweep options beside --targets and names a bad target’s path', async () => {
    const file = join(tmp.dir, 'targets.yaml');
    writeFileSync(file, 'targets:\n  - { metric: camber, gain: [0, 25] }\n  - { metric: toe_angle, curve: { at: [-25, 0, 25], values: [0.1, 0, -0.1] } }\n');
    const DW = 'examples/suspension/double_wishbone.yaml';
    const run = async (args: string[]) => { const io = memoryIO(); const code = await main(args, io); return { code, out: io.written.stdout, err: io.written.stderr }; };
    const json = await run(['sensitivity', DW, '--targets', file]);
    expect(json.err).toBe('');
    expect(json.code).toBe(0);
    const printed = JSON.parse(json.out) as { scope: string; targets: CurveQuantity[] };
    const lib = curveSensitivity(load('double_wishbone'), parseCurveTargets(readFileSync(file, 'utf8'), load('double_wishbone')));
    expect(printed.targets.map((t) => t.target)).toEqual(['targets[0] camber gain 0…25', 'targets[1] toe_angle rms error to 3 points']);
    expect(printed.targets[1].value).toBeCloseTo(lib[1].value, 12);
    expect(printed.targets[1].gradient['trackrod_inboard.z']).toBeCloseTo(lib[1].gradient['trackrod_inboard.z'] as number, 12);
    const csv = await run(['sensitivity', DW, '--targets', file, '--format', 'csv']);
    expect(csv.out.trim().split('\n')).toHaveLength(1 + 2 * 30);
    const clash = await run(['sensitivity', DW, '--targets', file, '--bump', '0:10:2']);
    expect(clash.code).toBe(1);
    expect(clash.err).toMatch(/drop --bump/);
    writeFileSync(file, 'targets:\n  - { metric: camber, slope: [10, 10] }\n');
    const bad = await run(['sensitivity', DW, '--targets', file]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('targets[0].slope');
  });
});
