/**
 * `kinemate sensitivity` on a compliant file (docs/compliance.md, "Gradients and fit"): the
 * settled states' metrics and the K&C coefficients (`kc.*`), with their gradients over the
 * bushing and link stiffnesses (and, at rest, the hardpoints), in the layout of the rigid
 * command (sweeps.<id>.steps[i].metrics.<name>, an axle's by side).
 */
import { CliError } from './io.ts';
import { readTextFile } from './files.ts';
import type { Geometry, SweepSpec } from '../suspension/files/index.ts';
import { parseLoadCase } from '../suspension/loads/loads.ts';
import { SensitivityError, type SensitivityStep, type SideMetrics } from '../suspension/gradients/types.ts';
import { compliantSensitivitySweep } from '../suspension/compliance/sensitivity-sweep.ts';

/** Each spec's steps, settled under the load case of `loadsPath` (none: no wheel load). */
export async function compliantSensitivitySweeps(geometry: Geometry, specs: [string, SweepSpec][], metrics: readonly string[], loadsPath: string | undefined):
Promise<Record<string, { steps: (SensitivityStep | SensitivityStep<SideMetrics>)[] }>> {
  const loads = loadsPath ? parseLoadCase(await readTextFile(loadsPath, 'loads'), geometry.corners.map((c) => c.side), loadsPath) : null;
  const sweeps: Record<string, { steps: (SensitivityStep | SensitivityStep<SideMetrics>)[] }> = {};
  try {
    for (const [name, spec] of specs) sweeps[name] = compliantSensitivitySweep(geometry, spec, metrics, loads) as { steps: (SensitivityStep | SensitivityStep<SideMetrics>)[] };
  } catch (e) {
    if (e instanceof SensitivityError) throw new CliError(e.message);
    throw e;
  }
  return sweeps;
}
