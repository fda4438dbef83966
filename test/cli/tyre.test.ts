/** `kinemate tyre` and `kinemate plot FILE.tir`, run as a user would (the real command once, its `main` in this process for the rest). */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { kinemate, memoryIO, tempFolder } from './helpers.ts';
import { main } from '../../src/cli/main.ts';
import { readTyreText, steadyForces } from '../../mates/tyres/index.ts';

const SAMPLE = 'examples/tyres/pacejka_205_60R15.tir';

/** `main` in this process: the same code as the command, without a process start. */
async function inProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIO();
  const code = await main(args, io);
  return { code, ...io.written };
}

describe.concurrent('kinemate tyre', () => {
  it('JSON: every combination, slip angle slowest, the file\'s forces at its nominal load; unused keys warned once', async () => {
    const run = await kinemate(['tyre', SAMPLE, '--slip-angle', '-4:4:3', '--slip-ratio', '0:0.1:2', '--camber', '1']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { tyre: Record<string, unknown>; steps: Record<string, number>[] };
    expect(out.tyre).toMatchObject({ file: SAMPLE, model: 'Magic Formula 6.1', nominal_load: 4000, unloaded_radius: 313 });
    expect(out.steps.map((s) => [s.slip_angle, s.slip_ratio])).toEqual([[-4, 0], [-4, 0.1], [0, 0], [0, 0.1], [4, 0], [4, 0.1]]);
    const tyre = readTyreText('t', readFileSync(SAMPLE, 'utf8')).tyre;
    for (const s of out.steps) {
      const f = steadyForces(tyre, (s.slip_angle * Math.PI) / 180, s.slip_ratio, 4000, Math.PI / 180);
      expect([s.load, s.camber, s.fx, s.fy, s.mz]).toEqual([4000, 1, f.fx, f.fy, f.mz]);
    }
    expect(out.steps[4].fy).toBeLessThan(0); // ISO-W: +4° → negative side force
    expect(run.stderr.trim().split('\n')).toEqual([`kinemate: tyre: warning: ${SAMPLE}: [DIMENSION] not used: WIDTH, ASPECT_RATIO, RIM_RADIUS`]);
  });

  it('CSV to --out at a given load; a .tir missing a key is one line naming section and key, exit 1', async () => {
    const tmp = tempFolder();
    try {
      const run = await inProcess(['tyre', SAMPLE, '--load', '3000', '--slip-ratio', '-0.1:0.1:3', '--format', 'csv', '--out', tmp.file('t.csv')]);
      expect(run.code).toBe(0);
      const lines = readFileSync(tmp.file('t.csv'), 'utf8').trim().split('\n');
      expect(lines[0]).toBe('load,slip_angle,slip_ratio,camber,fx,fy,mz');
      expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual(['3000,0,-0.1,0', '3000,0,0,0', '3000,0,0.1,0']);
      expect(Number(lines[3].split(',')[4])).toBeGreaterThan(0);
      const broken = tmp.file('broken.tir');
      writeFileSync(broken, readFileSync(SAMPLE, 'utf8').replace(/^PKY1 = .*$/m, ''));
      const bad = await inProcess(['tyre', broken]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toBe(`kinemate: ${broken}: [LATERAL_COEFFICIENTS] PKY1: missing (the Magic Formula needs it)\n`);
    } finally {
      tmp.remove();
    }
  });

  it('plot FILE.tir --metric fy draws the side force against the slip angle, one curve per slip ratio; a wrong metric names the tyre\'s', async () => {
    const tmp = tempFolder();
    try {
      const run = await inProcess(['plot', SAMPLE, '--metric', 'fy', '--slip-ratio', '0:0.2:2', '--slip-angle', '-10:10:21', '--out', tmp.file('fy.svg')]);
      expect(run.code).toBe(0);
      const svg = readFileSync(tmp.file('fy.svg'), 'utf8');
      expect(svg).toMatch(/^<svg/);
      for (const text of ['slip angle (°)', 'fy, lateral force (N)', 'slip ratio 0.2']) expect(svg).toContain(text);
      const bad = await inProcess(['plot', SAMPLE, '--metric', 'camber', '--out', tmp.file('x.svg')]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toBe('kinemate: plot: --metric camber: a tyre\'s metrics are fx, fy, mz\n');
    } finally {
      tmp.remove();
    }
  });

  it('bad options are one line before the file is read: a range without N, --out over the tyre file it reads', async () => {
    const range = await inProcess(['tyre', SAMPLE, '--slip-angle', '1:2']);
    expect([range.code, range.stderr]).toEqual([1, 'kinemate: --slip-angle: expected A:B:N (N values from A to B, both ends included; N ≥ 2, or 1 when A = B), got "1:2"\n']);
    const over = await inProcess(['tyre', SAMPLE, '--out', SAMPLE]);
    expect([over.code, over.stderr]).toEqual([1, `kinemate: tyre: --out "${SAMPLE}" is the tyre file it reads: give another output file\n`]);
  });
});
