/** Shared by the picture tests: geometry files, a changed baseline, and the sweep they are checked against. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../src/cli/main.ts';
import { REPO, memoryIO } from '../cli/helpers.ts';

export const DW = join(REPO, 'examples/suspension/double_wishbone.yaml');

/** The DW corner with its upper wishbone's front pickup 25 mm higher: other camber and caster curves. */
export function writeBaseline(path: string): string {
  const text = readFileSync(DW, 'utf8').replace('upper_wishbone_inboard_front: { x: 225, y: 350, z: 500 }', 'upper_wishbone_inboard_front: { x: 225, y: 350, z: 525 }');
  if (!text.includes('z: 525')) throw new Error('the example geometry changed; update writeBaseline');
  writeFileSync(path, text);
  return path;
}

/** `kinemate ARGS…` in this process; the exit code and what it wrote. */
export async function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIO();
  const code = await main(args, io);
  return { code, ...io.written };
}

interface SweepJson {
  sweeps: Record<string, { steps: { status: string; positions: Record<string, [number, number, number]>; metrics: Record<string, number | null>; drivers: Record<string, number> }[] }>;
}

/** `kinemate sweep FILE ARGS… --format json`, parsed: what the pictures must agree with. */
export async function sweepJson(file: string, args: readonly string[]): Promise<SweepJson> {
  const result = await run(['sweep', file, ...args, '--format', 'json']);
  if (result.code !== 0) throw new Error(`sweep failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as SweepJson;
}
