/**
 * One queued chunk swept with the local batch's code: the chunk's variants as a listed DOE
 * on a pooled worker thread (batch-pool.ts), renumbered to their place in the whole DOE.
 * Each variant's rows are exactly those `kinemate batch` writes for it.
 */
import type { Geometry } from '../files';
import type { DoeSpec } from './batch.ts';
import { runBatch } from './batch-pool.ts';

/** Each variant's CSV lines (joined by newlines), in order. */
export async function sweepChunk(geometry: Geometry, spec: DoeSpec, first: number, moves: number[][]): Promise<string[]> {
  const listed: DoeSpec = { ...spec, sampling: { type: 'list', variants: moves } };
  let text = '';
  await runBatch(geometry, listed, { threads: 1, sweepHere: false, write: (chunk) => { text += chunk; } });
  const lines = text.split('\n').slice(1, -1); // the header off, and the last newline
  const variants: string[][] = moves.map(() => []);
  for (const line of lines) {
    const comma = line.indexOf(',');
    const local = Number(line.slice(0, comma));
    variants[local].push(`${first + local}${line.slice(comma)}`);
  }
  return variants.map((rows) => rows.join('\n'));
}
