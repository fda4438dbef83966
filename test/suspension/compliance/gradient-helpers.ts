/** Helpers of the compliance gradient tests: a number of a file by its path, a settled state of a CompliantSensitivity. */
import { sweepFromShortcut, sweepValues } from '../../../src/suspension/files/index.ts';
import { sweepDrivers } from '../../../src/suspension/sweep/sweep.ts';
import type { CompliantSensitivity } from '../../../src/suspension/compliance/sensitivity.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import { setNumberAtPath } from '../../../src/suspension/compliance/fit-rates.ts';

/** The number at a dotted path of a parsed file, f(old): the library's own path rule (fit-rates.ts). */
export const setFilePath = setNumberAtPath;

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
