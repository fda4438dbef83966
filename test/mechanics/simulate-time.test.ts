/**
 * simulate's clock: frame k·K is at t = k·K·h, not at a running sum of h (which drifted:
 * --duration 0.03 --step 8e-7 ended at 0.029999999999979), and the run ends exactly at the
 * duration.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { simulate } from '../../src/mechanics/simulate';
import { kinemate } from '../cli/helpers';

const pendulum = () => parseAssembly(readFileSync('examples/pendulum.kinemate.json', 'utf8'));

describe('simulate\'s time', () => {
  it('--duration 0.03 --step 8e-7: every frame at n·h, the last at 0.03 exactly', () => {
    const step = 8e-7, every = 7500;
    const run = simulate(pendulum(), { duration: 0.03, step, every });
    expect(run.status).toBe('completed');
    expect(run.steps).toBe(37500);
    expect(run.frames.map((f) => f.t)).toEqual([0, 1, 2, 3, 4, 5].map((k) => (k === 5 ? 0.03 : k * every * step)));
  });

  it('a duration that is not a whole number of steps still ends at the duration (the last step takes what is left)', () => {
    const run = simulate(pendulum(), { duration: 0.01, step: 0.003 });
    expect(run.frames.map((f) => f.t)).toEqual([0, 0.003, 0.006, 0.01]);
  });

  it('kinemate simulate prints the last frame at the duration', async () => {
    const run = await kinemate(['simulate', 'examples/pendulum.kinemate.json', '--duration', '0.03', '--step', '8e-7', '--every', '37500', '--format', 'csv']);
    expect(run.code, run.stderr).toBe(0);
    const times = run.stdout.trim().split('\n').slice(1).map((line) => line.split(',')[0]);
    expect(times).toEqual(['0', '0.03']);
  }, 60_000);
});
