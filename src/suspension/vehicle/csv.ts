/**
 * The vehicle's states as CSV (vehicle.md: CSV flattens the JSON with `.`): one row per
 * state, a vector's components as `.x`, `.y`, `.z`; a state that failed keeps its status
 * and message and leaves the numbers empty. The summary is JSON's only.
 */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (Array.isArray(value) && value.length === 3 && value.every((x) => typeof x === 'number')) {
    ['x', 'y', 'z'].forEach((c, i) => out.set(`${prefix}.${c}`, value[i]));
  } else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (value !== undefined) out.set(prefix, value);
}

/** A state (or a run's vehicle view) flattened: column name → value, in the JSON's order. */
export function flattenVehicleState(state: object): Map<string, unknown> {
  const out = new Map<string, unknown>();
  flatten(state, '', out);
  return out;
}

const cell = (x: unknown) => (x === undefined || x === null ? '' : typeof x === 'string' ? (/[",\n]/.test(x) ? `"${x.replace(/"/g, '""')}"` : x) : String(x));

export function vehicleCsv(rows: readonly object[]): string {
  const flat = rows.map(flattenVehicleState);
  const columns: string[] = [];
  for (const m of flat) for (const k of m.keys()) if (!columns.includes(k)) columns.push(k);
  // the acceleration and the status first
  const first = ['speed', 'ax', 'ay', 'status', 'message'].filter((c) => columns.includes(c));
  const order = [...first, ...columns.filter((c) => !first.includes(c))];
  return `${[order.join(','), ...flat.map((m) => order.map((c) => cell(m.get(c))).join(','))].join('\n')}\n`;
}
