/** Helpers of the compliance gradient tests: a number of a file by its path, a settled state of a CompliantSensitivity. */
import { sweepFromShortcut, sweepValues } from '../../../src/suspension/files/index.ts';
import { sweepDrivers } from '../../../src/suspension/sweep/sweep.ts';
import type { CompliantSensitivity } from '../../../src/suspension/compliance/sensitivity.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';

/**
 * Set the number at a dotted path of a parsed file (keys may hold dots themselves:
 * `compliance.links.left.trackrod` is links["left.trackrod"]).
 */
export function setFilePath(raw: Record<string, unknown>, path: string, f: (v: number) => number): void {
  const parts = path.split('.');
  let node = raw as Record<string, unknown>;
  let i = 0;
  while (i < parts.length) {
    let j = i + 1;
    while (j <= parts.length && !(parts.slice(i, j).join('.') in node)) j++;
    if (j > parts.length) {
      // a rate the file leaves out (0)
      if (i === parts.length - 1) { node[parts[i]] = f(0); return; }
      throw new Error(`no ${path} in the file`);
    }
    const key = parts.slice(i, j).join('.');
    if (j === parts.length) { node[key] = f(node[key] as number); return; }
    node = node[key] as Record<string, unknown>;
    i = j;
  }
}

/** Solve the position rigidly from design (bump mm), then settle under a load on every corner (or none). */
export function settledAt(s: CompliantSensitivity, bump: number, load: { force: Vec3Tuple; moment: Vec3Tuple } | null): void {
  const drivers = sweepDrivers(s.sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, s.geometry));
  s.sm.resetToDesign();
  drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, 1)[0]); });
  if (!s.sm.solveWith(drivers.map((d) => d.block)).converged) throw new Error('the position cannot be reached');
  s.sm.corners.forEach((_, i) => s.state.setLoad(i, load ? { ...load, at: 'contact_patch' } : null));
  const r = s.state.settle();
  if (r.status !== 'solved') throw new Error(r.message);
}
