/**
 * Loads in the viewer's presenter (no DOM: it runs in the solver workers and in Node): the
 * flat `loads.*` metrics (read-outs and plots) of the library's loads at a state, which
 * the pose frames carry under the loads panel's case (src/live/loads-at-pose.ts).
 */
import type { StateLoads } from '../../suspension/loads/loads.ts';
import type { ReadoutSpec } from './frame-types.ts';

export type { LoadCase, WheelLoad, StateLoads } from '../../suspension/loads/loads.ts';

/** Flat loads metrics (read-outs and plots), with their labels and units. */
export const LOAD_METRICS: readonly ReadoutSpec[] = [
  { metric: 'loads.wheel_rate', label: 'Wheel rate', unit: 'N/mm', digits: 2 },
  { metric: 'loads.motion_ratio', label: 'Motion ratio (spring)', unit: 'mm/mm', digits: 4 },
  { metric: 'loads.spring_force', label: 'Spring force', unit: 'N', digits: 0 },
  { metric: 'loads.wheel_load', label: 'Wheel pad force', unit: 'N', digits: 0 },
  { metric: 'loads.rack_force', label: 'Rack force', unit: 'N', digits: 0 },
  { metric: 'loads.heave_wheel_rate', label: 'Heave wheel rate', unit: 'N/mm', digits: 2 },
  { metric: 'loads.roll_wheel_rate', label: 'Roll wheel rate', unit: 'N/mm', digits: 2 },
  { metric: 'loads.roll_stiffness', label: 'Roll stiffness', unit: 'N·mm/°', digits: 0 },
];

/** The spring of the first corner (an element named `spring` or `<side>_spring`), else its first element with a motion ratio. */
function springOf(loads: StateLoads, side: string): string | null {
  const ids = Object.keys(loads.rates?.motion_ratios ?? {});
  return ids.find((id) => id === 'spring' || id === `${side}_spring`) ?? ids.find((id) => id.startsWith(`${side}_`)) ?? ids[0] ?? null;
}

/** The flat metrics of a state's loads for the first corner (`side`), axle rates as well. */
export function loadsMetrics(loads: StateLoads, side: string): Record<string, number | null> {
  const r = loads.rates;
  const spring = springOf(loads, side);
  const element = spring ? loads.elements[spring] : undefined;
  const hold = Object.entries(loads.holds).find(([h]) => h.startsWith(`${side}:`));
  return {
    'loads.wheel_rate': r?.wheel_rate[side] ?? null,
    'loads.motion_ratio': spring && r ? r.motion_ratios[spring]?.[side] ?? null : null,
    'loads.spring_force': element && 'tension' in element && typeof element.tension === 'number' ? element.tension : null,
    'loads.wheel_load': hold ? hold[1] : null,
    'loads.rack_force': loads.rack_force,
    'loads.heave_wheel_rate': r?.heave_wheel_rate ?? null,
    'loads.roll_wheel_rate': r?.roll_wheel_rate ?? null,
    'loads.roll_stiffness': r?.roll_stiffness ?? null,
  };
}
