import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files';
import { parseDoe } from '../../../src/suspension/design/batch';
import { runBatch, type BatchOptions } from '../../../src/suspension/design/batch-pool';

const geometry = parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));
const spec = parseDoe('vary: { lower_wishbone_inboard_rear.z: [-8, 8], trackrod_outboard.y: [-3, 3] }\nsampling: { type: latin_hypercube, samples: 10, seed: 5 }\nbump: "-30:30:4"\nmetrics: [camber, toe_angle]', geometry);

async function text(options: Omit<BatchOptions, 'write'>, doe = spec): Promise<{ text: string; progress: number[] }> {
  let out = '';
  const progress: number[] = [];
  const result = await runBatch(geometry, doe, { ...options, write: (t) => { out += t; }, onProgress: (done) => progress.push(done) });
  expect(result.failed).toBe(0);
  return { text: out, progress };
}

describe('batch pool: who sweeps a variant does not change its rows', () => {
  it('every variant on workers, this thread sweeping too, and this thread alone give the same text', async () => {
    const alone = await text({ threads: 0 });
    const workersOnly = await text({ threads: 2, chunk: 1, sweepHere: false });
    const shared = await text({ threads: 2 });
    expect(workersOnly.text).toBe(alone.text);
    expect(shared.text).toBe(alone.text);
    expect(alone.text.trimEnd().split('\n')).toHaveLength(1 + 10 * 4);
    // progress counts up to every variant, in order
    for (const run of [alone, workersOnly, shared]) {
      expect(run.progress.at(-1)).toBe(10);
      expect([...run.progress].sort((a, b) => a - b)).toEqual(run.progress);
    }
  });
  it('a pooled worker serves a later run with its own DOE', async () => {
    const other = parseDoe('vary: { upper_wishbone_outboard.x: [-4, 4] }\nsampling: { type: list, variants: [[-4], [0], [3], [4], [1]] }\nbump: "-20:40:3"\nmetrics: [kpi, camber]', geometry);
    await text({ threads: 2, sweepHere: false }); // leaves its worker in the pool
    const pooled = await text({ threads: 2, chunk: 1, sweepHere: false }, other);
    const alone = await text({ threads: 0 }, other);
    expect(pooled.text).toBe(alone.text);
    expect(alone.text.split('\n')[0]).toBe('variant,upper_wishbone_outboard.x,step,status,bump,kpi,camber');
  });
});
