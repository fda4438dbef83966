/**
 * An axle's load gradients grouped as `kinemate sensitivity` groups an axle's metrics: a
 * side's links (mate `left_trackrod`) as `metrics.left["link_force.trackrod"]`, the rack
 * force and any link of neither side as `metrics.axle.…` (load-sensitivity.ts computes them).
 */
import { LINK_FORCE, type LoadSensitivity } from './load-sensitivity';
import type { DriverParameters, ExtraSideGradients, SideMetrics } from './sensitivity';

export class AxleLoadGradients implements ExtraSideGradients {
  /** Per metric of LoadSensitivity: its group and its name there. */
  private readonly groupOf = new Map<string, [string, string]>();
  readonly names: readonly string[];

  constructor(readonly loads: LoadSensitivity) {
    const sides = loads.model.sides;
    for (const full of loads.names) {
      const id = full.startsWith(LINK_FORCE) ? full.slice(LINK_FORCE.length) : null;
      const side = id === null ? undefined : sides.find((s) => id.startsWith(`${s}_`));
      this.groupOf.set(full, side ? [side, `${LINK_FORCE}${id!.slice(side.length + 1)}`] : ['axle', full]);
    }
    this.names = [...new Set([...this.groupOf.values()].map(([, name]) => name))];
  }

  at(drivers: readonly DriverParameters[]): SideMetrics {
    const all = this.loads.at(drivers);
    const out: SideMetrics = {};
    for (const g of [...this.loads.model.sides, 'axle']) {
      for (const [full, [group, name]] of this.groupOf) if (group === g) (out[g] ??= {})[name] = all[full] ?? null;
    }
    return out;
  }
}
