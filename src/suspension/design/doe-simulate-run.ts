/**
 * The run side of a simulating DOE (doe-simulate.ts reads the field): each result's column
 * checked against the base geometry's, and one variant simulated. Loaded only when a DOE
 * simulates (batch.ts loadDoeWork): the dynamics code is not every command's.
 */
import type { Geometry } from '../files';
import { prepareSuspensionDynamics, readSuspensionDynamics, simulateSuspension, type SuspensionFrame, type SuspensionSimulationFrame } from '../dynamics/model';
import { CHASSIS_HEAVE, suspensionColumn, suspensionColumnNames } from '../dynamics/result-names';
import type { DoeResult, DoeSimulation } from './doe-simulate';

/** Refuses a result whose column the geometry's simulation does not have, naming its path and the columns. */
export function checkSimulationColumns(geometry: Geometry, sim: DoeSimulation, bad: (path: string, message: string) => never): void {
  const columns = simulationColumns(geometry);
  sim.results.forEach((r, i) => {
    if (!columns.includes(r.column)) bad(`simulate.results[${i}]`, `"${r.name}": no column "${r.name.split('@')[0]}" (columns: ${columns.join(', ')})`);
  });
}

/** The suspension columns of `simulate GEOMETRY --format csv` for this geometry (its prepared model's). */
function simulationColumns(geometry: Geometry): string[] {
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry);
  const model = prepareSuspensionDynamics(geometry, spec);
  return suspensionColumnNames({
    sides: geometry.corners.map((c) => c.side),
    elements: Object.keys(model.designLengths),
    links: Object.entries(model.doc.mates).filter(([, mate]) => (mate as { type: string }).type === 'distance').map(([id]) => id),
    heave: spec.sprungMass !== null,
  });
}

/** A column's value in one step's suspension view. */
function columnValue(s: SuspensionFrame, column: string): number | null {
  const dot = column.lastIndexOf('.');
  const head = column.slice(0, dot), field = column.slice(dot + 1);
  if (column === CHASSIS_HEAVE) return s.chassis_heave ?? null;
  const link = suspensionColumn.link('');
  if (column.startsWith(link)) return s.links[column.slice(link.length)] ?? null;
  const corner = s.corners[head] as Record<string, number | null> | undefined;
  if (corner && field in corner) return corner[field];
  const element = s.elements[head] as Record<string, number> | undefined;
  return element && (field === 'length' || field === 'travel') ? element[field] : null;
}

/** Running value of one result over the steps. */
class Tracker {
  private value: number | null = null;
  private sumSquares = 0;
  private count = 0;
  private last: { t: number; x: number } | null = null;
  constructor(readonly result: DoeResult) {}
  add(t: number, x: number | null): void {
    if (x === null) return;
    const { at, level } = this.result;
    if (at === 'final') this.value = x;
    else if (at === 'max') this.value = this.value === null ? x : Math.max(this.value, x);
    else if (at === 'min') this.value = this.value === null ? x : Math.min(this.value, x);
    else if (at === 'rms') { this.sumSquares += x * x; this.count++; }
    else if (this.value === null && this.last) {
      const a = this.last.x - level!, b = x - level!;
      if (a === 0) this.value = this.last.t;
      else if (a * b <= 0) this.value = this.last.t + ((t - this.last.t) * a) / (a - b);
    }
    this.last = { t, x };
  }
  get(): number | null {
    return this.result.at === 'rms' ? (this.count ? Math.sqrt(this.sumSquares / this.count) : null) : this.value;
  }
}

/** One variant's simulation: its status (completed | failed: message) and each result's value (null: none). */
export function simulateVariant(geometry: Geometry, sim: DoeSimulation): { status: string; values: (number | null)[] } {
  const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry);
  const trackers = sim.results.map((r) => new Tracker(r));
  const run = simulateSuspension(prepareSuspensionDynamics(geometry, spec), {
    duration: sim.duration, step: sim.step, every: 1, keepFrames: false, ...(sim.method ? { method: sim.method } : {}),
    onFrame: (f) => { const s = (f as SuspensionSimulationFrame).suspension; for (const tr of trackers) tr.add(f.t, columnValue(s, tr.result.column)); },
  });
  const status = run.status === 'completed' ? 'completed' : `failed: ${run.message ?? 'the integrator stopped'}`;
  return { status, values: trackers.map((t) => t.get()) };
}
