/**
 * The compliance panel (docs/compliance.md, "Viewer"), shown for a suspension with a
 * `compliance:` section: the K&C coefficients at zero load at the pose's travel (a column
 * per side), the factor the drawn deflection is exaggerated by, the rig's load at each
 * contact patch (Fx, Fy typed here or dragged on the load arrows, load-arrows.ts) and the
 * settle's status. The rig loads and the factor are view settings of the live model (no
 * undo entry), as the loads panel's case is; the pose worker settles under them. The K&C
 * curves are kc-plots.ts. DOM only.
 */
import type { PoseResult, RigLoads, Vec3Tuple, ViewerLiveModel } from '../../src/index.ts';
import { KC_COEFFICIENTS } from '../../src/index.ts';
import { LoadArrows } from './load-arrows';
import { KcPlots, type KcPlotsHost } from './kc-plots';
import type { SceneView } from './scene';

export interface ComplianceHost extends KcPlotsHost {
  readonly live: Pick<ViewerLiveModel, 'settings' | 'setSettings' | 'compiledOf'>;
  readonly scene: SceneView;
  readonly plots: { freeze(on: boolean): void };
  noteInput(time?: number): void;
}

const EXAGGERATIONS = [1, 10, 30, 100];

export class CompliancePanel {
  readonly panel: HTMLDetailsElement;
  readonly arrows: LoadArrows;
  readonly kcPlots: KcPlots;
  private rig: Record<string, Vec3Tuple> = {};
  private exaggeration = 1;
  private readonly coefficients: HTMLTableElement;
  private readonly loadsTable: HTMLTableElement;
  private readonly status: HTMLElement;
  private sidesKey = '';

  constructor(private readonly host: ComplianceHost) {
    this.panel = document.createElement('details');
    this.panel.id = 'compliance-panel';
    this.panel.open = true;
    this.panel.hidden = true;
    Object.assign(this.panel.style, { border: '1px solid var(--line)', borderRadius: '6px', padding: '6px 8px', margin: '8px 0' });
    this.panel.innerHTML = `
      <summary>Compliance (K&amp;C)</summary>
      <div class="row" title="The drawn deflection from the unloaded pose, times this factor; the numbers are the true pose's">Exaggerate deflection ×
        <input id="kc-exaggeration" type="number" min="1" step="1" value="1" style="width:5em" />
        ${EXAGGERATIONS.map((x) => `<button class="kc-x" data-x="${x}">×${x}</button>`).join(' ')}</div>
      <div class="note">Rig load at each contact patch (ISO 8855: x forward, y left), N — or drag the orange arrows' balls</div>
      <table id="kc-loads"></table>
      <div class="row"><button id="kc-unload" title="Every rig load back to zero">Unload</button> <span id="kc-status"></span></div>
      <table id="kc-coefficients" title="At zero load at this travel, exact (implicit function theorem on the equilibrium)"></table>
      <div id="kc-plots"></div>`;
    const side = document.getElementById('side')!;
    side.insertBefore(this.panel, document.getElementById('loads-panel'));
    this.coefficients = this.panel.querySelector('#kc-coefficients')!;
    this.loadsTable = this.panel.querySelector('#kc-loads')!;
    this.status = this.panel.querySelector('#kc-status')!;
    const input = this.panel.querySelector<HTMLInputElement>('#kc-exaggeration')!;
    input.addEventListener('change', () => {
      const x = Number(input.value);
      if (Number.isFinite(x) && x >= 1) this.setExaggeration(x);
      else input.value = String(this.exaggeration);
    });
    this.panel.querySelectorAll<HTMLButtonElement>('.kc-x').forEach((b) => b.addEventListener('click', () => this.setExaggeration(Number(b.dataset.x))));
    this.panel.querySelector('#kc-unload')!.addEventListener('click', () => { this.rig = {}; this.send(); });
    this.arrows = new LoadArrows({
      scene: host.scene,
      rigForce: (s) => this.rig[s] ?? [0, 0, 0],
      setRigForce: (s, force, time) => { this.rig[s] = force; this.send(time); },
      dragging: (on) => host.plots.freeze(on),
    });
    this.kcPlots = new KcPlots(this.panel.querySelector('#kc-plots')!, host);
  }

  setExaggeration(x: number): void {
    this.exaggeration = x;
    this.panel.querySelector<HTMLInputElement>('#kc-exaggeration')!.value = String(x);
    this.send();
  }

  /** Sets a side's rig force (tests, a typed value) and solves. */
  setRigForce(side: string, force: Vec3Tuple): void {
    this.rig[side] = force;
    this.send();
  }

  /** The live model's settings gain the rig loads and the factor: a pose request. */
  private send(time = performance.now()): void {
    const rig: RigLoads = Object.fromEntries(Object.entries(this.rig).map(([s, f]) => [s, { force: f }]));
    this.host.live.setSettings({ ...this.host.live.settings, rig, exaggeration: this.exaggeration });
    this.host.noteInput(time);
  }

  /** The panel and the arrows for a pose (hidden for a rigid suspension or an assembly). */
  update(r: PoseResult): void {
    const c = r.compliance ?? null;
    this.panel.hidden = !c;
    this.arrows.update(r);
    if (!c) return;
    const sides = c.sides;
    const key = sides.join(',');
    if (key !== this.sidesKey) {
      this.sidesKey = key;
      this.loadsTable.innerHTML = `<tr><td></td><td>Fx</td><td>Fy</td></tr>` + sides.map((s) => `<tr data-side="${s}"><td>${s}</td>${[0, 1].map((i) => `<td><input type="number" step="100" data-side="${s}" data-axis="${i}" style="width:6em" /></td>`).join('')}</tr>`).join('');
      this.loadsTable.querySelectorAll<HTMLInputElement>('input').forEach((input) => input.addEventListener('change', () => this.onTyped(input)));
    }
    this.loadsTable.querySelectorAll<HTMLInputElement>('input').forEach((input) => {
      if (document.activeElement === input) return;
      const v = String((this.rig[input.dataset.side!] ?? [0, 0, 0])[Number(input.dataset.axis)]);
      if (input.value !== v) input.value = v;
    });
    this.status.textContent = c.status === 'solved' ? '' : c.message ?? 'no equilibrium';
    this.status.className = c.status === 'solved' ? 'note' : 'failed';
    this.coefficients.innerHTML = `<tr><td></td>${sides.map((s) => `<td>${s}</td>`).join('')}<td></td></tr>` + KC_COEFFICIENTS.map(({ metric, label, unit, digits }) => `<tr><td>${label}</td>${sides.map((s) => {
      const v = c.coefficients[s]?.[metric];
      return `<td class="v" data-kc="${sides.length > 1 ? `${s}.` : ''}${metric}">${typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '—'}</td>`;
    }).join('')}<td class="u">${unit}</td></tr>`).join('')
      + `<tr title="kinemate kc --event vertical's: the pad force's rate with its height, through the rubber"><td>Wheel rate</td>${sides.map((s) => {
        const v = c.wheelRates[s];
        return `<td class="v" data-kc="${sides.length > 1 ? `${s}.` : ''}wheel_rate">${typeof v === 'number' && Number.isFinite(v) ? v.toFixed(2) : '—'}</td>`;
      }).join('')}<td class="u">N/mm</td></tr>`;
    this.kcPlots.update(r);
  }

  private onTyped(input: HTMLInputElement): void {
    const side = input.dataset.side!, axis = Number(input.dataset.axis);
    const value = Number(input.value);
    const now = this.rig[side] ?? [0, 0, 0];
    if (input.value.trim() === '' || !Number.isFinite(value)) { input.value = String(now[axis]); return; }
    const next: Vec3Tuple = [now[0], now[1], now[2]];
    next[axis] = value;
    this.setRigForce(side, next);
  }

  /** What is shown (tests): the coefficients' cells, the arrows drawn, the factor. */
  state(): { shown: boolean; exaggeration: number; coefficients: Record<string, string>; arrows: ReturnType<LoadArrows['state']> } {
    const coefficients = Object.fromEntries(Array.from(this.coefficients.querySelectorAll<HTMLElement>('[data-kc]'), (el) => [el.dataset.kc!, el.textContent ?? '']));
    return { shown: !this.panel.hidden, exaggeration: this.exaggeration, coefficients, arrows: this.arrows.state() };
  }
}
