/**
 * The vehicle's side panel: the lock that mirrors pickup edits across each axle, and the
 * figures of the car at rest — corner loads and ride heights, the roll gradient and the
 * lateral load transfer per axle (their exact rates at 0 g), the pitch gradient and, with
 * tyres, the understeer gradient — each cell tagged `data-figure` (the browser tests read them).
 */
import { UNDERSTEER_RADIUS, type VehicleFigures, type VehicleLiveFrame } from '../../src/index.ts';

export interface VehiclePanelHost { onLock(locked: boolean): void; onSave(): void }

/** What the panel reads of vehicle mode. */
export interface VehiclePanelSource { readonly doc: { name: string } | null; readonly frame: VehicleLiveFrame | null; readonly locked: boolean; readonly settled: boolean; readonly edited: boolean }

const CORNER_LABELS: Record<string, string> = { front_left: 'FL', front_right: 'FR', rear_left: 'RL', rear_right: 'RR' };

export class VehiclePanel {
  readonly root: HTMLElement;
  private readonly lock: HTMLInputElement;
  private readonly body: HTMLElement;
  private readonly status: HTMLElement;
  /** The last frame with every figure (not a drag's quick one). */
  private lastFull: VehicleFigures | null = null;

  constructor(host: VehiclePanelHost) {
    this.root = document.createElement('section');
    this.root.id = 'vehicle-panel';
    this.root.hidden = true;
    this.root.innerHTML = `<h3>Vehicle <span id="vehicle-name"></span></h3>
      <label class="row" title="Locked: a pickup dragged on one side moves its mirror on the other side of the axle too"><input id="vehicle-lock" type="checkbox" checked /> Mirror edits across each axle (locked)</label>
      <div class="row"><button id="vehicle-save" title="Download the edited axle files (YAML, named as the vehicle file names them)">Save axle files</button></div>
      <div class="note">Drag an orange chassis pickup: its axle file is edited and the car solved again at rest. Esc cancels a drag, Ctrl+Z undoes it.</div>
      <div id="vehicle-status"></div>
      <div id="vehicle-figures"></div>`;
    const side = document.getElementById('side')!;
    side.insertBefore(this.root, document.getElementById('model-name')?.nextSibling ?? side.firstChild);
    this.lock = this.root.querySelector('#vehicle-lock')!;
    this.lock.addEventListener('change', () => host.onLock(this.lock.checked));
    this.root.querySelector('#vehicle-save')!.addEventListener('click', () => host.onSave());
    this.body = this.root.querySelector('#vehicle-figures')!;
    this.status = this.root.querySelector('#vehicle-status')!;
  }

  hide(): void { this.root.hidden = true; this.lastFull = null; }

  render(mode: VehiclePanelSource, latest: VehicleLiveFrame | null = mode.frame): void {
    this.root.hidden = false;
    this.root.querySelector('#vehicle-name')!.textContent = mode.doc?.name ?? '';
    document.getElementById('model-name')!.textContent = mode.doc?.name ?? '';
    this.lock.checked = mode.locked;
    this.root.querySelector<HTMLButtonElement>('#vehicle-save')!.disabled = !mode.edited;
    const failed = latest && !latest.figures ? `Not solved: ${latest.error}` : '';
    this.status.textContent = failed || (mode.settled ? (mode.frame ? `Solved at rest in ${mode.frame.ms.toFixed(0)} ms.` : '') : 'solving…');
    this.status.classList.toggle('failed', failed !== '');
    const f = mode.frame?.figures;
    if (!f) { this.body.innerHTML = ''; return; }
    const cell = (key: string, value: number | null, digits: number) => `<td data-figure="${key}">${value === null ? '—' : value.toFixed(digits)}</td>`;
    const rows = Object.entries(f.corners).map(([c, x]) => `<tr><th>${CORNER_LABELS[c] ?? c}</th>${cell(`${c}.load`, x.load, 0)}${cell(`${c}.load_per_g`, x.load_per_g, 0)}${cell(`${c}.ride_height`, x.ride_height, 1)}${cell(`${c}.wheel_travel`, x.wheel_travel, 1)}</tr>`).join('');
    // a quick frame (a drag moving) has no pitch or understeer gradient: the last full frame's, greyed, until the pointer lets go
    const slow = f.quick && this.lastFull ? this.lastFull : f;
    if (!f.quick) this.lastFull = f;
    const stale = f.quick ? ' class="stale" title="before this drag: computed again when the pointer lets go"' : '';
    const slowCell = (key: string, value: number | null, digits: number, note: string | null) => `<td data-figure="${key}"${stale || (value === null && note ? ` title="${escapeHtml(note)}"` : '')}>${value === null ? '—' : value.toFixed(digits)}</td>`;
    const understeer = slowCell('understeer_gradient', slow.understeer_gradient, 3, slow.understeer_note);
    this.body.innerHTML = `<table class="vehicle-figures">
      <tr><th>Roll gradient</th>${cell('roll_gradient', f.roll_gradient, 4)}<td>deg/g</td></tr>
      <tr><th>Lateral load transfer, front</th>${cell('lateral_load_transfer.front', f.lateral_load_transfer.front, 1)}<td>N/g</td></tr>
      <tr><th>Lateral load transfer, rear</th>${cell('lateral_load_transfer.rear', f.lateral_load_transfer.rear, 1)}<td>N/g</td></tr>
      <tr><th>Front share of it</th>${cell('front_load_transfer_share', f.front_load_transfer_share, 3)}<td></td></tr>
      <tr><th>Pitch gradient (braking)</th>${slowCell('pitch_gradient', slow.pitch_gradient, 4, 'needs front_brake_bias or driven_axle')}<td>deg/g</td></tr>
      <tr><th>Understeer gradient (R ${UNDERSTEER_RADIUS} m)</th>${understeer}<td>deg/g</td></tr>
      <tr><th>Mass</th>${cell('mass', f.mass, 1)}<td>kg</td></tr>
      <tr><th>Body heave, pitch, roll</th><td colspan="2" data-figure="body">${f.body.heave.toFixed(2)} mm, ${f.body.pitch.toFixed(3)}°, ${f.body.roll.toFixed(3)}°</td></tr>
    </table>
    <table class="vehicle-corners"><tr><th></th><th>Fz N</th><th>N/g</th><th>ride mm</th><th>travel mm</th></tr>${rows}</table>
    ${mode.frame?.notes.length ? `<details class="note"><summary>${mode.frame.notes.length} note${mode.frame.notes.length > 1 ? 's' : ''} on the axle files</summary>${mode.frame.notes.map((n) => `<div>${escapeHtml(n)}</div>`).join('')}</details>` : ''}
    <div class="note">At rest on a flat road; N/g: each tyre's load change per g of lateral acceleration (left turn), drawn as the orange arrows (at 0.5 g) beside the blue static loads.</div>`;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
