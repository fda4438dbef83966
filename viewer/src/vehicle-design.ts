/**
 * Sensitivity arrows and fit on the whole car (docs/vehicle.md, "Viewer"), a section of the
 * vehicle panel. **Arrows**: a vehicle figure chosen (roll gradient, load transfer, its front
 * share, pitch and understeer gradients, ride and wheel-hop frequencies, a corner's load or
 * ride height at rest), every chassis pickup gets an arrow along the figure's exact gradient
 * (which way to move it to raise the figure, its length in proportion to how much; locked, a
 * pickup and its mirror move as one, as a drag moves them), asked again for each car solved
 * with all its figures (a drag's end, an undo); beside them a table of the figure's rate with
 * respect to each spring, bar, bushing and compliant link rate (what +10 % of each does).
 * **Fit** (vehicle-fit-form.ts): one target or several at once (each a value, or a range, with a weight), and the pickups that may move (the front's, the rear's or both axles',
 * their chosen coordinates within ±box mm) and/or the spring and bar rates and the bushings' rates (within ± a share
 * of their values): the vehicle fit's moves are written into the axle files as one undoable edit.
 * Both run in their own worker (vehicle-design.worker.ts), so a drag is never held up.
 */
import { ArrowHelper, Group, Quaternion, Vector3, type Scene } from 'three';
import { VEHICLE_DESIGN_GROUPS, vehicleMetricUnit, type VehicleDocument, type VehicleDocumentFit, type VehicleLiveFrame, type VehiclePickupRates } from '../../src/index.ts';
import type { VehicleDesignReply, VehicleDesignRequest } from './vehicle-design.worker';
import { VehicleFitForm } from './vehicle-fit-form';

/** What the section uses of vehicle mode. */
export interface VehicleDesignHost {
  readonly doc: VehicleDocument | null;
  readonly frame: VehicleLiveFrame | null;
  readonly locked: boolean;
  /** Replaces the document by an edit (undoable as a drag is). */
  edit(doc: VehicleDocument): void;
}

const ARROW_COLOR = 0x6ea8ff;
/** The longest arrow, as a fraction of the car's half-diagonal. */
const LONGEST = 0.25;
const label = (m: string) => m.replace(/^vehicle\./, '').replace(/[._]/g, ' ');
/** A rate's short name: `front spring`, `front bar`, `front lower wishbone inboard rear: radial`, `front link trackrod`. */
const rateLabel = (name: string) => {
  const m = /^(\w+)\.compliance\.(bushings|links)\.(.+?)(?:\.(axial|radial|torsional|conical))?$/.exec(name);
  if (m) return `${m[1]} ${m[2] === 'links' ? 'link ' : ''}${m[3].replace(/[._]/g, ' ')}${m[4] ? `: ${m[4]}` : ''}`;
  return name.replace(/\.rate$/, '').replace('anti_roll', 'bar').replace(/[._]/g, ' ');
};

export class VehicleDesign {
  readonly root: HTMLDetailsElement;
  private readonly group = new Group();
  private readonly metricSelect: HTMLSelectElement;
  private readonly note: HTMLElement;
  private readonly rateTable: HTMLTableElement;
  private readonly fitNote: HTMLElement;
  /** The fit's targets and what may move. */
  readonly form: VehicleFitForm;
  private worker: Worker | null = null;
  private nextId = 1;
  private waiting = new Map<number, 'rates' | 'fit'>();
  /** The newest arrows' rates, and the last fit's answer (the browser tests read them). */
  rates: VehiclePickupRates | null = null;
  fit: VehicleDocumentFit | { error: string } | null = null;
  private asked: number | null = null;

  constructor(private readonly host: VehicleDesignHost, scene: Scene, parent: HTMLElement) {
    this.group.name = 'vehicle-sensitivity-arrows';
    scene.add(this.group);
    const options = VEHICLE_DESIGN_GROUPS.map((g) => `<optgroup label="${g.label}">${g.metrics.map((m) => `<option value="${m}">${label(m)}</option>`).join('')}</optgroup>`).join('');
    this.root = document.createElement('details');
    this.root.id = 'vehicle-design';
    this.root.open = true;
    this.root.innerHTML = `<summary>Sensitivity arrows and fit</summary>
      <div class="row"><label title="An arrow on every chassis pickup: the exact gradient of this figure at rest (locked: a pickup with its mirror)">Arrows <select id="vehicle-arrows"><option value="">(off)</option>${options}</select></label></div>
      <div id="vehicle-arrows-note" class="note"></div>
      <table id="vehicle-rates-table" hidden></table>
      <div id="vehicle-fit-note" class="note"></div>`;
    this.form = new VehicleFitForm(options, () => this.host.frame, () => this.runFit());
    this.root.insertBefore(this.form.root, this.root.querySelector('#vehicle-fit-note'));
    parent.appendChild(this.root);
    this.metricSelect = this.root.querySelector('#vehicle-arrows')!;
    this.note = this.root.querySelector('#vehicle-arrows-note')!;
    this.rateTable = this.root.querySelector('#vehicle-rates-table')!;
    this.fitNote = this.root.querySelector('#vehicle-fit-note')!;
    this.metricSelect.addEventListener('change', () => { this.metricSelect.blur(); this.refresh(); });
  }

  /** Nothing asked and not answered (the browser tests wait on it). */
  get settled(): boolean { return this.waiting.size === 0; }

  get metric(): string { return this.metricSelect.value; }

  /** A car solved with every figure: the arrows are asked for it again; a quick frame (a drag moving) hides them. */
  update(frame: VehicleLiveFrame): void {
    this.form.fillValues();
    if (frame.figures?.quick) { this.clear(); return; }
    this.refresh();
  }

  clear(): void {
    for (const a of [...this.group.children]) { this.group.remove(a); (a as ArrowHelper).dispose(); }
    this.rateTable.hidden = true;
  }

  /** Asks for the chosen figure's arrows on the car shown. */
  refresh(): void {
    this.clear();
    this.rates = null;
    const doc = this.host.doc, frame = this.host.frame;
    if (!this.metric || !doc || !frame?.pose) { this.note.textContent = this.metric ? '' : 'Pick a figure: each chassis pickup gets an arrow pointing the way that raises it.'; return; }
    this.note.textContent = 'computing…';
    this.asked = this.send({ id: 0, kind: 'rates', doc, metric: this.metric, pickups: Object.values(frame.handles), locked: this.host.locked });
  }

  private runFit(): void {
    const doc = this.host.doc;
    if (!doc) return;
    const request = this.form.request(doc, this.host.locked);
    if (typeof request === 'string') { this.fitNote.textContent = request; return; }
    this.fit = null;
    this.fitNote.textContent = 'fitting…';
    this.send({ id: 0, kind: 'fit', doc, request });
  }

  private send(message: VehicleDesignRequest): number {
    if (!this.worker) {
      this.worker = new Worker(new URL('./vehicle-design.worker.ts', import.meta.url), { type: 'module', name: 'vehicle-design' });
      this.worker.onmessage = (event: MessageEvent<VehicleDesignReply>) => this.onReply(event.data);
    }
    const id = this.nextId++;
    this.waiting.set(id, message.kind);
    this.worker.postMessage({ ...message, id });
    return id;
  }

  private onReply(reply: VehicleDesignReply): void {
    this.waiting.delete(reply.id);
    if (reply.kind === 'fit') { this.showFit(reply.result); return; }
    if (reply.id !== this.asked) return; // an older car's
    const r = reply.result;
    if ('error' in r) { this.note.textContent = `No arrows: ${r.error}`; return; }
    this.rates = r;
    this.draw(r);
    this.showRates(r);
  }

  /**
   * The rates' table: per spring, bar, bushing and compliant link rate, the figure's gradient and
   * what +10 % of the rate does to it (▲ raises, ▼ lowers), the largest effect first.
   */
  private showRates(r: VehiclePickupRates): void {
    const unit = vehicleMetricUnit(r.metric);
    const rows = r.rateGradients.map((g) => ({ ...g, effect: 0.1 * g.value * g.gradient })).sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect));
    const largest = Math.max(...rows.map((x) => Math.abs(x.effect)), 0);
    const arrow = (e: number) => (Math.abs(e) <= 1e-9 * Math.max(largest, 1e-300) || e === 0 ? '·' : e > 0 ? '▲' : '▼');
    const fmt = (x: number) => (x === 0 ? '0' : Math.abs(x) >= 0.01 && Math.abs(x) < 1e4 ? x.toPrecision(3) : x.toExponential(2));
    this.rateTable.innerHTML = `<tr><th>rate</th><th>now</th><th title="${label(r.metric)} per unit of the rate">per unit</th><th title="What the rate 10 % higher does to ${label(r.metric)}">+10 %${unit ? ` (${unit})` : ''}</th></tr>`
      + rows.map((g) => `<tr data-rate="${g.name}"><td title="${g.name}">${rateLabel(g.name)}</td><td>${Number(g.value.toPrecision(4))} ${g.unit}</td><td data-rate-gradient="${g.name}">${fmt(g.gradient)}</td>`
        + `<td class="${g.effect > 0 ? 'up' : g.effect < 0 ? 'down' : ''}">${arrow(g.effect)} ${g.effect >= 0 ? '+' : ''}${fmt(g.effect)}</td></tr>`).join('');
    this.rateTable.hidden = rows.length === 0;
  }

  private showFit(result: VehicleDocumentFit | { error: string }): void {
    this.fit = result;
    if ('error' in result) { this.fitNote.textContent = `Fit: ${result.error}`; return; }
    const reached = result.report.targets.map((t, i) => {
      const o = result.outcomes[i];
      const how = o.met ? (o.edge ? `met, at its ${o.edge}` : 'met') : `missed by ${o.miss >= 0 ? '+' : ''}${o.miss.toPrecision(3)}`;
      return `${label(t.target)} <span data-fit="value"${i ? '' : ' id="vehicle-fit-reached"'} data-target="${t.target}">${t.value.toFixed(4)}</span> (wanted ${t.wanted}: <span data-fit="outcome" data-outcome="${t.target}" class="${o.met ? 'met' : 'missed'}">${how}</span>)`;
    }).join(', ');
    // a pickup's move in mm, a rate's in its file's unit
    const moved = Object.entries(result.report.moves).filter(([, m]) => m.delta !== 0).map(([n, m]) => `${n} ${m.delta >= 0 ? '+' : ''}${m.delta.toFixed(2)}${/\.rate$/.test(n) ? '' : ' mm'}`);
    this.fitNote.innerHTML = `<span data-fit="status">${result.report.status}</span>: ${reached} in ${result.report.iterations} iterations, ${(result.ms / 1000).toFixed(1)} s.${moved.length ? `<div>${moved.join('<br>')}</div>` : ''}${result.report.at_bound.length ? `<div>at the box: ${result.report.at_bound.join(', ')}</div>` : ''}${result.skipped.length ? `<div>left where they are (the gradients do not follow moving them): ${result.skipped.map((x) => `${x.hardpoint.axle} ${x.hardpoint.name}`).join(', ')}</div>` : ''}`;
    if (result.doc) this.host.edit(result.doc);
  }

  /** One arrow per pickup, from where it stands, along the gradient turned with the body. */
  private draw(r: VehiclePickupRates): void {
    const pose = this.host.frame?.pose;
    if (!pose) return;
    const refOf = new Map(Object.entries(this.host.frame!.handles).map(([ref, hp]) => [`${hp.axle}:${hp.name}`, ref]));
    const body = pose.poses.body;
    const q = body ? new Quaternion(body[4], body[5], body[6], body[3]) : new Quaternion();
    const longest = Math.max(...r.rates.map((x) => Math.hypot(...x.gradient)), 1e-300);
    for (const rate of r.rates) {
      const ref = refOf.get(`${rate.hardpoint.axle}:${rate.hardpoint.name}`);
      const at = ref ? pose.points[ref] : undefined;
      const size = Math.hypot(...rate.gradient);
      if (!at || !(size > 0)) continue;
      const dir = new Vector3(...rate.gradient).normalize().applyQuaternion(q);
      const length = (pose.lengthScale * LONGEST * size) / longest;
      const arrow = new ArrowHelper(dir, new Vector3(at[0], at[1], at[2]), length, ARROW_COLOR, Math.min(length * 0.35, pose.lengthScale * 0.03), Math.min(length * 0.2, pose.lengthScale * 0.015));
      arrow.name = `vehicle-arrow:${rate.hardpoint.axle}:${rate.hardpoint.name}`;
      this.group.add(arrow);
    }
    const top = [...r.rates].sort((a, b) => Math.hypot(...b.gradient) - Math.hypot(...a.gradient))[0];
    const none = r.skipped.length ? ` No arrow at ${r.skipped.map((x) => `${x.hardpoint.axle} ${x.hardpoint.name} (${x.why})`).join('; ')}.` : '';
    this.note.textContent = `${label(r.metric)} ${r.value.toFixed(4)} ${vehicleMetricUnit(r.metric)}: ${r.rates.length} pickups in ${(r.ms / 1000).toFixed(1)} s; the longest arrow, ${top ? `${top.hardpoint.axle} ${top.hardpoint.name}: ${Math.hypot(...top.gradient).toExponential(2)} per mm` : '—'}.${none}`;
  }

  /** The arrows drawn (the browser tests count them). */
  get drawn(): number { return this.group.children.length; }
}
