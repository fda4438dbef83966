/**
 * `simulate --format csv`'s columns, fixed by the run's first frame: t, every coordinate
 * and part origin, the energy budget, the drivers, spring tensions, tyre forces, rolling
 * mates' normal forces, the residual; on a geometry file the suspension's columns after
 * them (suspension-simulate.ts); on a vehicle file the vehicle view's (`corners.<corner>.…`,
 * `body.…`, `vehicle.…`, `roads.<corner>`: the view flattened with `.`, as `kinemate vehicle`'s
 * CSV names a state's). A row is made from one frame alone, so rows can be written as the
 * frames come (simulation-output.ts).
 */
import type { SimulationFrame, SuspensionSimulationFrame, VehicleSimulationFrame } from '../index.ts';
// (the light module itself: a value import of src/index.ts would load the whole library with the command)
import { flattenVehicleState } from '../suspension/vehicle/csv.ts';
import { csvColumn, resultName, RESIDUAL_COLUMN, TIME_COLUMN } from '../mechanics/result-names.ts';
import { suspensionColumns } from './suspension-simulate.ts';
import { InternalError } from '../../kernel/errors.ts';

export interface CsvColumns {
  header: string;
  row(frame: SimulationFrame): string;
}

interface Column { name: string; get: (f: SimulationFrame) => number }

/** The plain run's columns, read off its first frame; their names are the registry's (mechanics/result-names.ts). */
function frameColumns(first: SimulationFrame): Column[] {
  const cols: Column[] = [{ name: TIME_COLUMN, get: (f) => f.t }];
  for (const [key, value] of Object.entries(first.state)) {
    if (typeof value === 'number') cols.push({ name: key, get: (f) => f.state[key] as number });
    else for (const i of [0, 1, 2] as const) cols.push({ name: csvColumn.position(key.slice(0, -'.pose'.length), i), get: (f) => (f.state[key] as { position: number[] }).position[i] });
  }
  for (const key of Object.keys(first.energy)) cols.push({ name: resultName.energy(key), get: (f) => f.energy[key as keyof typeof f.energy] });
  for (const key of Object.keys(first.drivers)) cols.push({ name: csvColumn.driver(key), get: (f) => f.drivers[key] });
  for (const [key, value] of Object.entries(first.forces)) {
    if ('tension' in value) cols.push({ name: resultName.tension(key), get: (f) => (f.forces[key] as { tension: number }).tension });
    else if ('penetration' in value) cols.push({ name: resultName.force(key), get: (f) => (f.forces[key] as { force: number }).force });
  }
  // a rolling mate's contact: its normal force (negative: the wheel would lift off)
  for (const [key, value] of Object.entries(first.reactions)) {
    if ('normal' in value && typeof value.normal === 'number') cols.push({ name: resultName.normal(key), get: (f) => (f.reactions[key] as { normal: number }).normal });
  }
  cols.push({ name: RESIDUAL_COLUMN, get: (f) => f.residual });
  return cols;
}

/** The columns of a run whose first frame is `first`; `suspension`: a geometry file's run, its columns appended. */
export function csvColumns(first: SimulationFrame, suspension: boolean): CsvColumns {
  const cols = frameColumns(first);
  const plainRow = (f: SimulationFrame) => cols.map((c) => String(c.get(f))).join(',');
  const header = cols.map((c) => c.name).join(',');
  if ('vehicle' in first) return withVehicleView(first as VehicleSimulationFrame, cols, header, plainRow);
  if (!suspension) return { header, row: plainRow };
  const extra = suspensionColumns((first as SuspensionSimulationFrame).suspension);
  return {
    header: `${header},${extra.map((c) => c.name).join(',')}`,
    row: (f) => `${plainRow(f)},${extra.map((c) => String(c.get((f as SuspensionSimulationFrame).suspension) ?? '')).join(',')}`,
  };
}

/** A vehicle run's columns: the run's, then its vehicle view flattened (one flattening a frame), the names checked against the run's. */
function withVehicleView(first: VehicleSimulationFrame, cols: readonly Column[], header: string, plainRow: (f: SimulationFrame) => string): CsvColumns {
  const names = [...flattenVehicleState(first.vehicle).keys()];
  const clash = names.find((n) => cols.some((c) => c.name === n));
  if (clash !== undefined) throw new InternalError(`simulate: the vehicle view's CSV column ${clash} is also a column of the run`);
  return {
    header: `${header},${names.join(',')}`,
    row: (f) => {
      const view = flattenVehicleState((f as VehicleSimulationFrame).vehicle);
      return `${plainRow(f)},${names.map((n) => String(view.get(n) ?? '')).join(',')}`;
    },
  };
}
