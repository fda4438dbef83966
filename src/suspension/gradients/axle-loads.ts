/**
 * An axle's load gradients grouped as `kinemate sensitivity` groups an axle's metrics: a
 * side's links (mate `left_trackrod`) as `metrics.left["link_force.trackrod"]`, its joints
 * (`left_lower_ball`) as `metrics.left["joint_force.lower_ball.x"]`, the rack force and
 * anything of neither side as `metrics.axle.…` (load-sensitivity.ts computes them).
 */
import { LINK_FORCE, type LoadSensitivity } from './loads';
import { JOINT_FORCE, JOINT_MOMENT } from './joint-wrenches';
import { ELEMENT_FORCE, ELEMENT_MOMENT, ELEMENT_TENSION, HOLD_FORCE } from './element-holds';
import { MOTION_RATIO } from './motion-ratios';
import type { DriverParameters, ExtraSideGradients, SideMetrics } from './types';

export class AxleLoadGradients implements ExtraSideGradients {
  /** Per metric of LoadSensitivity: its group and its name there. */
  private readonly groupOf = new Map<string, [string, string]>();
  readonly names: readonly string[];
  readonly requestable: readonly string[];

  constructor(readonly loads: LoadSensitivity) {
    const sides = loads.model.sides;
    const group = (full: string): [string, string] => {
      const prefix = [LINK_FORCE, JOINT_FORCE, JOINT_MOMENT, ELEMENT_TENSION, HOLD_FORCE, MOTION_RATIO, ELEMENT_FORCE, ELEMENT_MOMENT].find((p) => full.startsWith(p));
      const id = prefix ? full.slice(prefix.length) : '';
      const side = prefix ? sides.find((s) => id.startsWith(`${s}_`) || (prefix === HOLD_FORCE && id.startsWith(`${s}:`))) : undefined;
      return side ? [side, `${prefix}${id.slice(side.length + 1)}`] : ['axle', full];
    };
    for (const full of [...loads.names, ...loads.requestable]) this.groupOf.set(full, group(full));
    const local = (list: readonly string[]) => [...new Set(list.map((full) => this.groupOf.get(full)![1]))];
    this.names = local(loads.names);
    this.requestable = local(loads.requestable);
  }

  /** The offered names, and the requested ones of `requestable` (a name asks for both sides'). */
  at(drivers: readonly DriverParameters[], names: readonly string[] = []): SideMetrics {
    const wanted = [...this.groupOf].filter(([full, [, name]]) => this.loads.names.includes(full) || names.includes(name)).map(([full]) => full);
    const all = this.loads.at(drivers, wanted);
    const out: SideMetrics = {};
    for (const g of [...this.loads.model.sides, 'axle']) {
      for (const full of wanted) {
        const [group, name] = this.groupOf.get(full)!;
        if (group === g) (out[g] ??= {})[name] = all[full] ?? null;
      }
    }
    return out;
  }
}
