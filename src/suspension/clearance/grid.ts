/**
 * A bump × steer grid as one sweep: both targets list their values, the states walked row
 * by row with the bump direction reversed on every other steer row (a serpentine), so each
 * state is one small move from the last and the continuation never jumps across the grid.
 * Each state keeps the (bump, steer) it stands for.
 */
import { parseRange, validateSweep, SuspensionFileError, type Geometry, type SweepSpec } from '../files/index.ts';

export interface GridState { bump: number; steer: number }

export interface GridSweep {
  spec: SweepSpec;
  /** Per state of the sweep, the grid point. */
  states: GridState[];
  bump: number[];
  steer: number[];
}

function values(start: number, stop: number, n: number): number[] {
  return n === 1 ? [start] : Array.from({ length: n }, (_, i) => start + ((stop - start) * i) / (n - 1));
}

/** `bump=A:B:N,steer=A:B:N` (either order; a missing one is held at 0). */
export function parseGrid(text: string, option = '--grid'): { bump: number[]; steer: number[] } {
  const out: { bump?: number[]; steer?: number[] } = {};
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const eq = item.indexOf('=');
    const key = item.slice(0, eq).trim();
    if (eq < 0 || (key !== 'bump' && key !== 'steer')) {
      throw new SuspensionFileError([{ path: option, message: `expected bump=A:B:N,steer=A:B:N, got ${JSON.stringify(item)}` }]);
    }
    if (out[key]) throw new SuspensionFileError([{ path: option, message: `${key} given twice` }]);
    const [a, b, n] = parseRange(`${option} ${key}`, item.slice(eq + 1));
    out[key] = values(a, b, n);
  }
  if (!out.bump && !out.steer) throw new SuspensionFileError([{ path: option, message: 'expected bump=A:B:N,steer=A:B:N' }]);
  return { bump: out.bump ?? [0], steer: out.steer ?? [0] };
}

/** The grid's sweep on `geometry` (rack steering needed when steer moves). */
export function gridSweep(bump: readonly number[], steer: readonly number[], geometry?: Geometry): GridSweep {
  const states: GridState[] = [];
  steer.forEach((s, row) => {
    const order = row % 2 === 0 ? bump : [...bump].reverse();
    for (const b of order) states.push({ bump: b, steer: s });
  });
  const steered = steer.some((s) => s !== 0);
  const targets: unknown[] = [{ type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', values: states.map((g) => g.bump) }];
  targets.push(steered
    ? { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', values: states.map((g) => g.steer) }
    : { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true });
  const spec = validateSweep({ version: 1, steps: states.length, targets }, geometry);
  return { spec, states, bump: [...bump], steer: [...steer] };
}
