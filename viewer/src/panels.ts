/**
 * The side panels and the HUD, drawn from a pose result: the read-outs (with the what-if
 * differences from a pinned baseline), the solver HUD, and the hardpoint table of a
 * suspension geometry. DOM only: what to show comes in, nothing is solved here.
 */
import { hardpointPosition, type ViewerDocument } from './document';
import type { PoseResult, ReadoutSpec } from '../../src/index.ts';

/** Read-outs: metric key, label, unit, digits. */
export const READOUTS: [string, string, string, number][] = [
  ['camber', 'Camber', '°', 3],
  ['deriv_camber_wrt_hub_z', 'Camber gain', '°/mm', 5],
  ['toe_angle', 'Toe', '°', 3],
  ['deriv_toe_angle_wrt_hub_z', 'Bump steer', '°/mm', 5],
  ['caster', 'Caster', '°', 3],
  ['kpi', 'KPI', '°', 3],
  ['caster_virtual', 'Caster (virtual axis)', '°', 3],
  ['kpi_virtual', 'KPI (virtual axis)', '°', 3],
  ['scrub_radius', 'Scrub radius', 'mm', 2],
  ['mechanical_trail', 'Mech. trail', 'mm', 2],
  ['half_track', 'Half track', 'mm', 2],
  ['wheel_travel', 'Wheel travel', 'mm', 2],
  ['rack', 'Rack', 'mm', 2],
  ['svic_z', 'Side-view IC z', 'mm', 1],
  ['fvic_z', 'Front-view IC z', 'mm', 1],
  ['anti_dive', 'Anti-dive', '%', 1],
  ['axle.roll_center_z', 'Roll centre z', 'mm', 1],
  ['damper_length', 'Damper length', 'mm', 2],
  ['loads.motion_ratio', 'Motion ratio (spring)', 'mm/mm', 4],
  ['loads.wheel_rate', 'Wheel rate', 'N/mm', 2],
];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** A metric's value when it is a finite number, else null. */
export function finite(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/**
 * The read-outs table: a suspension's metrics (a row hidden where the linkage has no such
 * metric), each with its difference from the pinned baseline's design (`baselineDesign`,
 * null when none is pinned); a generic assembly's part and mate counts.
 */
export function renderReadouts(table: HTMLElement, r: PoseResult, baselineDesign: Record<string, number | null> | null): void {
  if (!r.suspension) {
    table.innerHTML = `<tr><td>Parts</td><td class="v">${r.structure.parts.length}</td></tr><tr><td>Mates</td><td class="v">${r.structure.rods.length + r.structure.joints.length}</td></tr>`;
    table.dataset.kind = 'assembly';
    return;
  }
  if (table.dataset.kind !== 'suspension') {
    table.innerHTML = READOUTS.map(([key, label, unit]) => `<tr><td>${label}</td><td class="v" data-metric="${key}"></td><td class="u">${unit}</td><td class="d" data-delta="${key}"></td></tr>`).join('');
    table.dataset.kind = 'suspension';
  }
  for (const [key, , , digits] of READOUTS) {
    const cell = table.querySelector<HTMLElement>(`[data-metric="${CSS.escape(key)}"]`)!;
    const value = key === 'rack' ? r.view.rack : r.metrics[key];
    cell.textContent = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '—';
    cell.parentElement!.hidden = value === undefined || (value === null && key !== 'camber');
    // the what-if difference, at design (wheel travel 0, from the two sweeps): not at
    // the current pose, which the baseline may never have been at
    const dcell = table.querySelector<HTMLElement>(`[data-delta="${CSS.escape(key)}"]`)!;
    const base = baselineDesign ? finite(baselineDesign[key]) : null;
    const now = baselineDesign ? finite(r.designMetrics[key]) : null;
    dcell.textContent = base !== null && now !== null ? `Δ ${now - base >= 0 ? '+' : ''}${(now - base).toFixed(digits)}` : '';
    dcell.title = 'difference from the pinned baseline, at design';
  }
}

/** The HUD: DOF, solver status, what failed; a refused edit or a worker error says so over the pose's own status. */
export function renderHud(r: PoseResult | null, refusal: string | null, workerError: string | null): void {
  $('hud-dof').textContent = r ? `${r.dof}${r.suspension ? (r.dof === 2 ? ' (bump, steer)' : r.dof === 1 ? ' (bump)' : '') : ''}${r.redundant.length ? ` · redundant: ${r.redundant.join(', ')}` : ''}` : '–';
  const status = $('hud-status');
  const msg = $('hud-message');
  const list = $('hud-failed');
  let text = '–', state = '';
  let message = '';
  let failed: string[] = [];
  if (r) {
    state = r.ok ? 'solved' : 'failed';
    text = r.ok ? `solved${r.iterations ? ` · ${r.iterations} it` : ''} · ${r.ms.total.toFixed(1)} ms` : r.status === 'limited' ? 'at the limit of reach — showing the last good pose' : 'failed — showing the last good pose';
    message = r.message ?? '';
    failed = r.failed;
  }
  if (refusal) { state = 'failed'; text = 'edit refused — kept the last valid geometry'; message = refusal; }
  if (workerError) { state = 'failed'; text = 'error — showing the last good pose'; message = workerError; }
  status.textContent = text;
  status.dataset.status = state;
  msg.textContent = message;
  msg.className = r && r.ok && !refusal && !workerError ? 'note' : '';
  list.innerHTML = '';
  for (const f of failed) { const li = document.createElement('li'); li.textContent = r?.status === 'limited' ? `${f} cannot close a step further` : `${f} does not hold`; list.appendChild(li); }
}

/** The hardpoint table of a suspension geometry: a row per hardpoint, x/y/z inputs; a changed input goes to `onEdit`. */
export class HardpointTable {
  private key = '';

  constructor(private readonly panel: HTMLElement, private readonly table: HTMLElement, private readonly onEdit: (input: HTMLInputElement) => void) {}

  render(doc: ViewerDocument, r: PoseResult): void {
    this.panel.hidden = doc.kind !== 'suspension';
    if (doc.kind !== 'suspension') return;
    const table = this.table;
    const names = r.structure.hardpoints;
    const key = names.join(',');
    if (key !== this.key) {
      this.key = key;
      const chassis = new Set(r.structure.handles.filter((h) => h.kind === 'hardpoint').map((h) => h.hardpoint));
      table.innerHTML = '<tr><td></td><td>x</td><td>y</td><td>z</td></tr>' + names.map((n) => `<tr class="${chassis.has(n) ? 'chassis' : ''}" data-hardpoint="${n}"><td title="${n}">${n.replace(/_/g, ' ')}</td>${[0, 1, 2].map((i) => `<td><input type="number" step="1" data-axis="${i}" /></td>`).join('')}</tr>`).join('');
      table.querySelectorAll<HTMLInputElement>('input').forEach((input) => input.addEventListener('change', () => this.onEdit(input)));
    }
    table.querySelectorAll<HTMLTableRowElement>('tr[data-hardpoint]').forEach((row) => {
      const p = hardpointPosition(doc, row.dataset.hardpoint!);
      row.querySelectorAll<HTMLInputElement>('input').forEach((input) => {
        if (document.activeElement === input || !p) return;
        const v = String(round6(p[Number(input.dataset.axis)]));
        if (input.value !== v) input.value = v;
      });
    });
  }
}

/** Read-out rows of the specs whose metric the pose has, each value cell marked `data-<attribute>="<metric>"`. */
export function metricRows(specs: readonly ReadoutSpec[], r: PoseResult, attribute: string): string {
  return specs.filter(({ metric }) => typeof r.metrics[metric] === 'number')
    .map(({ metric, label, unit, digits }) => `<tr><td>${label}</td><td class="v" data-${attribute}="${metric}">${(r.metrics[metric] as number).toFixed(digits)}</td><td class="u">${unit}</td></tr>`).join('');
}
