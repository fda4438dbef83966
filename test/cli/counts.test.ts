/**
 * Issue 16, items 3 and 7: step counts have a documented maximum with a clear refusal, a
 * large allowed drive is streamed, and a sweep range of one state is refused (N counts
 * states in sweep, steps in drive). On main `drive --steps 1000000000` ran out of memory
 * after minutes, `sweep --bump -50:50:1000000000` likewise, and `-50:50:1` returned one
 * state at −50.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { MAX_DRIVE_STEPS } from '../../src/index.ts';
import { MAX_SWEEP_STEPS, parseSweep } from '../../src/suspension/files/index.ts';
import { REPO, memoryIO, runMain } from './helpers.ts';

const FOUR_BAR = join(REPO, 'examples/four-bar.kinemate.json');
const GEOMETRY = join(REPO, 'examples/suspension/double_wishbone.yaml');

function expectRefused(run: { code: number | null; stdout: string; stderr: string }, message: string): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe(`kinemate: ${message}\n`);
}

describe('maximum step counts', () => {
  it('drive refuses more than MAX_DRIVE_STEPS steps, at once, naming the maximum', async () => {
    expect(MAX_DRIVE_STEPS).toBe(100_000);
    expectRefused(await runMain(['drive', FOUR_BAR, '--coordinate', 'jA.angle', '--from', '0', '--to', '1', '--steps', '1000000000']),
      '--steps: at most 100000 steps (100001 states), got 1000000000; drive a shorter range, or fewer steps');
    expectRefused(await runMain(['drive', FOUR_BAR, '--coordinate', 'jA.angle', '--from', '0', '--to', '1', '--steps', '100001']),
      '--steps: at most 100000 steps (100001 states), got 100001; drive a shorter range, or fewer steps');
  });

  it('sweep refuses more than MAX_SWEEP_STEPS states on the command line and in a sweep file', async () => {
    expect(MAX_SWEEP_STEPS).toBe(10_001);
    expectRefused(await runMain(['sweep', GEOMETRY, '--bump', '-50:50:1000000000']), '--bump: at most 10001 states, got 1000000000');
    expect(() => parseSweep('version: 1\nsteps: 10002\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: relative, start: -50, stop: 50 }\n'))
      .toThrow(/steps: must be a whole number of states from 1 to 10001/);
  });

  it('a large allowed drive is printed as it goes, in chunks, not as one string at the end', async () => {
    const io = memoryIO();
    const sizes: number[] = [];
    const out = io.out;
    const code = await main(['drive', FOUR_BAR, '--coordinate', 'jA.angle', '--from', '30', '--to', '390', '--steps', '2000'], {
      ...io, out: async (text) => { sizes.push(text.length); await out(text); },
    });
    expect(code).toBe(0);
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBeLessThan(2 * 65_536);
    const parsed = JSON.parse(io.written.stdout) as { steps: unknown[] };
    expect(parsed.steps).toHaveLength(2001);
    expect(io.written.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  }, 30_000);
});

describe('what N means', () => {
  it('sweep A:B:N counts states; a range of one state is refused, one state where A = B is fine', async () => {
    expectRefused(await runMain(['sweep', GEOMETRY, '--bump', '-50:50:1']),
      '--bump: one state cannot go from start to stop: the sweep\'s steps count states, both ends included; give at least 2 (or start = stop for one state), got "-50:50:1"');
    expect(() => parseSweep('version: 1\nsteps: 1\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: relative, start: -50, stop: 50 }\n'))
      .toThrow(/steps: one state cannot go from start to stop/);
    const run = await runMain(['sweep', GEOMETRY, '--bump', '-50:50:3']);
    expect(run.code).toBe(0);
    const drivers = (JSON.parse(run.stdout) as { sweeps: { bump: { steps: { drivers: Record<string, number> }[] } } }).sweeps.bump.steps;
    expect(drivers).toHaveLength(3); // three states: −50, 0, 50 from design
    const z = drivers.map((s) => s.drivers.wheel_center_z);
    expect(z[1] - z[0]).toBeCloseTo(50, 9);
    expect(z[2] - z[1]).toBeCloseTo(50, 9);
  }, 30_000);

  it('drive --steps N counts steps: N + 1 states', async () => {
    const run = await runMain(['drive', FOUR_BAR, '--coordinate', 'jA.angle', '--from', '30', '--to', '50', '--steps', '2']);
    expect((JSON.parse(run.stdout) as { steps: { value: number }[] }).steps.map((s) => s.value)).toEqual([30, 40, 50]);
  });

  it('both help texts say which', async () => {
    expect((await runMain(['sweep', '--help'])).stdout).toMatch(/N counts states, both ends included/);
    expect((await runMain(['drive', '--help'])).stdout).toMatch(/N \+ 1 states \(N\s+counts the steps between them/);
  });
});

describe('sweep output in chunks', () => {
  it('is the same text as one JSON document, written a chunk of steps at a time', async () => {
    const { sweepJsonChunks } = await import('../../src/cli/sweep-run.ts');
    const step = (index: number) => ({ index, status: 'solved', drivers: { z: index / 3 }, positions: { p: [1, -0, 1e-300] }, metrics: { camber: null } });
    const sweeps = { bump: { steps: Array.from({ length: 2000 }, (_, i) => step(i)) }, roll: { steps: [] }, steer: { steps: [step(0)] } };
    const chunks = [...sweepJsonChunks('axle', sweeps as never)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.join('')).toBe(`${JSON.stringify({ scope: 'axle', sweeps }, null, 2)}\n`);
    expect([...sweepJsonChunks('corner', {})].join('')).toBe(`${JSON.stringify({ scope: 'corner', sweeps: {} }, null, 2)}\n`);
  });

  it('the command prints the same JSON', async () => {
    const io = memoryIO();
    const sizes: number[] = [];
    const code = await main(['sweep', GEOMETRY, '--bump', '-20:20:5'], { ...io, out: async (text) => { sizes.push(text.length); await io.out(text); } });
    expect(code).toBe(0);
    const parsed = JSON.parse(io.written.stdout) as { sweeps: { bump: { steps: unknown[] } } };
    expect(parsed.sweeps.bump.steps).toHaveLength(5);
    expect(io.written.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  }, 30_000);
});
