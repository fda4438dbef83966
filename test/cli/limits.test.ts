/**
 * Issue 16, items 1 and 2: a drive or a solve that runs into a joint limit stops exactly
 * there, says so, and exits 2. On main before the kernel continuation, the README's drive
 * of the offset slider-crank never finished (these tests timed out), and the solve past a
 * held coordinate's limit said "no descent" with `atLimit: []`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder, writeModel } from './helpers.ts';

interface Step { value: number; status: string; state: Record<string, unknown>; atLimit?: string[]; message?: string }

const SLIDER = join(REPO, 'examples/offset-slider-crank.kinemate.json');
/** The offset slider-crank's slider position at crank angle θ (crank 1, rod 3, offset 0.5). */
const slideAt = (deg: number): number => {
  const t = (deg * Math.PI) / 180;
  return Math.cos(t) + Math.sqrt(9 - (Math.sin(t) - 0.5) ** 2);
};

let folder: ReturnType<typeof tempFolder>;
let limitedCrank: string;
beforeAll(() => {
  folder = tempFolder();
  const doc = JSON.parse(readFileSync(SLIDER, 'utf8'));
  doc.mates.jA.limits = { angle: [0, 120] };
  limitedCrank = writeModel(folder.file('limited-crank.kinemate.json'), JSON.stringify(doc));
});
afterAll(() => folder.remove());

describe('a drive into a joint limit', () => {
  it("the README's example stops at the slider's limit: the steps so far, the state at the limit, exit 2", async () => {
    const run = await runMain(['drive', SLIDER, '--coordinate', 'jA.angle', '--from', '90', '--to', '-90', '--steps', '18']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(2);
    const { steps } = JSON.parse(run.stdout) as { steps: Step[] };
    expect(run.stdout).toBe(`${JSON.stringify({ steps }, null, 2)}\n`); // streamed, yet the same text
    // 90, 80, …, 30 solved (x(30°) = 3.866 < 3.9), then the step to 20° stops at the limit
    expect(steps.map((s) => s.status)).toEqual([...Array(7).fill('solved'), 'failed']);
    const last = steps[7];
    expect(last.value).toBe(20);
    expect(last.atLimit).toEqual(['jS.slide']);
    const slide = last.state['jS.slide'] as number, crank = last.state['jA.angle'] as number;
    expect(Math.abs(slide - 3.9)).toBeLessThan(1e-9); // exactly at the limit
    expect(Math.abs(slideAt(crank) - 3.9)).toBeLessThan(1e-9); // on the closed form there
    expect(crank).toBeGreaterThan(20);
    expect(crank).toBeLessThan(30);
    expect(last.message).toMatch(/^jS\.slide is limited to \[2, 3\.9\]: the drive stops at the limit, jA\.angle = 25\.7\d+ \(asked for 20\)$/);
  }, 20_000);

  it('one step across the limit (30 → 10 in 2) stops at the same place', async () => {
    const run = await runMain(['drive', SLIDER, '--coordinate', 'jA.angle', '--from', '30', '--to', '10', '--steps', '2']);
    expect(run.code).toBe(2);
    const { steps } = JSON.parse(run.stdout) as { steps: Step[] };
    expect(steps).toHaveLength(2);
    expect(Math.abs((steps[1].state['jS.slide'] as number) - 3.9)).toBeLessThan(1e-9);
  }, 20_000);

  it("a held coordinate driven past its own limit stops at the limit (30 → 200 in one step, limit [0, 120])", async () => {
    const run = await runMain(['drive', limitedCrank, '--coordinate', 'jA.angle', '--from', '30', '--to', '200', '--steps', '1']);
    expect(run.code).toBe(2);
    const { steps } = JSON.parse(run.stdout) as { steps: Step[] };
    expect(steps.map((s) => s.status)).toEqual(['solved', 'failed']);
    expect(steps[1].atLimit).toEqual(['jA.angle']);
    expect(Math.abs((steps[1].state['jA.angle'] as number) - 120)).toBeLessThan(1e-9);
    expect(Math.abs((steps[1].state['jS.slide'] as number) - slideAt(120))).toBeLessThan(1e-9);
    expect(steps[1].message).toMatch(/^jA\.angle is limited to \[0, 120\]: the drive stops at the limit, jA\.angle = 120 \(asked for 200\)$/);
  }, 20_000);
});

describe('a solve past a limit', () => {
  it('solve --set past a held coordinate\'s limit names the limit and reports the solve at it', async () => {
    const run = await runMain(['solve', limitedCrank, '--set', 'jA.angle=150']);
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout) as { status: string; atLimit: string[]; message: string; state: Record<string, number> };
    expect(result.status).toBe('failed');
    expect(result.atLimit).toEqual(['jA.angle']);
    expect(result.message).toBe('jA.angle is limited to [0, 120]: the solve stops at the limit, jA.angle = 120 (asked for 150)');
    expect(Math.abs(result.state['jA.angle'] - 120)).toBeLessThan(1e-9);
    expect(Math.abs(result.state['jS.slide'] - slideAt(120))).toBeLessThan(1e-9);
  }, 20_000);

  it('a file held past its limit fails with the limit named', async () => {
    const doc = JSON.parse(readFileSync(limitedCrank, 'utf8'));
    doc.state['jA.angle'] = 130;
    const file = writeModel(folder.file('held-past.kinemate.json'), JSON.stringify(doc));
    const run = await runMain(['solve', file]);
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout) as { atLimit: string[]; message: string };
    expect(result.atLimit).toContain('jA.angle');
    expect(result.message).toMatch(/jA\.angle held past its limit/);
  }, 20_000);
});
