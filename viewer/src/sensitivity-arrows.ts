/**
 * Sensitivity arrows (issue 14): on every chassis pickup, an arrow along the gradient of
 * the chosen metric at the state shown (which way to move the pickup to raise the metric;
 * its length in proportion to how much), from the library's exact adjoint gradients
 * (viewer/src/sensitivity.ts, in its own worker). Hovering a pickup or its arrow says it in
 * words: "+1 mm in y → +0.013° camber at +30 mm". Every pose shown (a drag's too) asks
 * again: one request in flight, the newest pending, so the arrows follow a drag live
 * without ever holding up the pose. An axle: arrows on both sides' and the centre's
 * pickups for the metric of the side chosen beside the metric (sensitivity.ts says what a
 * mirrored axle's arrow means: the drag moves the mirror too).
 */
import { ConeGeometry, CylinderGeometry, Group, InstancedMesh, Matrix4, MeshLambertMaterial, Quaternion, Raycaster, Vector2, Vector3, Color } from 'three';
import type { History } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import type { HandleDragControls } from './drag';
import type { SceneView } from './scene';
import type { PoseResult, ViewerLiveModel } from '../../src/index.ts';
import type { ArrowMessage, ArrowReply } from './sensitivity.worker';
import { ARROW_METRICS, SensitivityPresenter, hoverLines, type ArrowRequest, type ArrowResult, type PickupArrow } from '../../src/index.ts';
import './analysis.css';

const ARROW_COLOR = 0x6ea8ff;
const HOVER_COLOR = 0xffffff;
/** The longest arrow, as a fraction of the model's extent. */
const LONGEST = 0.18;

const _m = new Matrix4();
const _q = new Quaternion();
const _p = new Vector3();
const _s = new Vector3();
const _d = new Vector3();
const _c = new Color();
const UP = new Vector3(0, 1, 0);

/** What is drawn for one pickup: where, which way, how long (world units). */
export interface DrawnArrow extends PickupArrow {
  ref: string;
  at: [number, number, number];
  length: number;
}

/** What the arrows use of the viewer. */
export interface ArrowsHost {
  readonly history: Pick<History<ViewerDocument>, 'current'>;
  readonly scene: Pick<SceneView, 'scene' | 'renderer' | 'camera' | 'handleInfo' | 'toScreen'>;
  readonly drag: Pick<HandleDragControls, 'addEventListener' | 'hovered' | 'dragged'>;
  readonly lastPose: PoseResult | null;
  /** The document's compile (its edit's validation made it): the arrows' worker does not compile it again. */
  readonly live: Pick<ViewerLiveModel, 'compiledOf'>;
  docKey(doc: ViewerDocument): number;
  invalidate(): void;
}

export class SensitivityArrows {
  readonly group = new Group();
  private readonly shafts: InstancedMesh;
  private readonly heads: InstancedMesh;
  private readonly select: HTMLSelectElement;
  private readonly sideSelect: HTMLSelectElement;
  private readonly legend: HTMLElement;
  private readonly tip: HTMLElement;
  private worker: Worker | null = null;
  private readonly presenter: SensitivityPresenter | null = null;
  private nextId = 1;
  private inFlight: ArrowRequest | null = null;
  private pending: ArrowRequest | null = null;
  /** The newest answer, and what was asked for last. */
  result: ArrowResult | null = null;
  private asked: ArrowRequest | null = null;
  private drawn: DrawnArrow[] = [];
  /** The hovered pickup (by hardpoint name), from a handle or an arrow. */
  private hovered: string | null = null;
  private readonly raycaster = new Raycaster();

  constructor(private readonly app: ArrowsHost) {
    const panel = document.createElement('details');
    panel.id = 'sensitivity-panel';
    panel.open = true;
    panel.innerHTML = `<summary>Sensitivity arrows</summary>
      <div class="row"><label title="Arrows on every chassis pickup: the gradient of this metric at the state shown (exact, by the adjoint)">Metric <select id="sens-metric"><option value="">(off)</option>${ARROW_METRICS.map((m) => `<option value="${m}">${m.replace(/_/g, ' ')}</option>`).join('')}</select></label>
        <label id="sens-side-label" hidden title="An axle: whose metric the arrows on both sides' pickups are for">Side <select id="sens-side"><option value="left">left</option><option value="right">right</option></select></label></div>
      <div id="sens-legend" class="note">Pick a metric: each chassis pickup gets an arrow pointing the way that raises it.</div>`;
    const side = document.getElementById('side')!;
    side.insertBefore(panel, document.getElementById('hardpoints-panel'));
    this.select = panel.querySelector('#sens-metric')!;
    this.legend = panel.querySelector('#sens-legend')!;
    this.select.addEventListener('change', () => { this.select.blur(); this.refresh(); });
    this.sideSelect = panel.querySelector('#sens-side')!;
    this.sideSelect.addEventListener('change', () => { this.sideSelect.blur(); this.refresh(); });
    this.tip = document.createElement('div');
    this.tip.id = 'sens-tip';
    this.tip.hidden = true;
    document.getElementById('view')!.appendChild(this.tip);

    const material = new MeshLambertMaterial({ color: 0xffffff, emissive: 0x1a2a40 });
    this.shafts = new InstancedMesh(new CylinderGeometry(1, 1, 1, 10, 1), material, 64);
    this.heads = new InstancedMesh(new ConeGeometry(1, 1, 14, 1), material, 64);
    for (const mesh of [this.shafts, this.heads]) { mesh.count = 0; mesh.frustumCulled = false; this.group.add(mesh); }
    this.group.name = 'sensitivity-arrows';
    app.scene.scene.add(this.group);

    try {
      this.worker = new Worker(new URL('./sensitivity.worker.ts', import.meta.url), { type: 'module', name: 'sensitivity' });
      this.worker.onmessage = (event: MessageEvent<ArrowReply>) => this.onReply(event.data);
    } catch {
      this.presenter = new SensitivityPresenter();
    }
    // hover: a pickup's handle (the drag controls say which) or an arrow (raycast here)
    app.drag.addEventListener('hoveron', (e) => { const h = app.scene.handleInfo.get(e.object); this.setHovered(h?.hardpoint ?? null); });
    app.drag.addEventListener('hoveroff', () => this.setHovered(null));
    const canvas = app.scene.renderer.domElement;
    canvas.addEventListener('pointermove', (e) => this.onPointerMove(e));
    canvas.addEventListener('pointerleave', () => { if (!app.drag.hovered) this.setHovered(null); });
  }

  get metric(): string {
    return this.select.value;
  }

  /** An axle's side whose metric is shown. */
  get side(): string {
    return this.sideSelect.value;
  }

  /** Choose the side (an axle). */
  setSide(side: 'left' | 'right'): void {
    this.sideSelect.value = side;
    this.refresh();
  }

  /** Choose the metric ('' = off). */
  setMetric(metric: string): void {
    this.select.value = metric;
    this.refresh();
  }

  /** A pose was drawn: ask for its arrows (its document and view). */
  update(pose: PoseResult): void {
    void pose;
    this.refresh();
  }

  private refresh(): void {
    const pose = this.app.lastPose;
    const metric = this.metric;
    // the side choice only where there are two (an axle: one travel per wheel)
    const axle = !!pose && pose.view.travel.length > 1;
    (this.sideSelect.parentElement as HTMLElement).hidden = !axle;
    if (!metric || !pose || !pose.suspension) {
      this.asked = null;
      this.pending = null;
      // nothing drawn, nothing to take away: no extra frame on every pose of a drag
      const shown = this.result !== null || this.drawn.length > 0;
      this.result = null;
      if (shown) this.draw();
      if (!metric) this.legend.textContent = 'Pick a metric: each chassis pickup gets an arrow pointing the way that raises it.';
      else this.legend.textContent = 'No suspension: no arrows.';
      return;
    }
    const doc = this.app.history.current;
    const request: ArrowRequest = { docKey: this.app.docKey(doc), doc, compiled: this.app.live.compiledOf(doc), view: pose.view, metric, ...(axle ? { side: this.side } : {}) };
    this.asked = request;
    if (this.inFlight) { this.pending = request; return; }
    this.send(request);
  }

  private send(request: ArrowRequest): void {
    this.inFlight = request;
    if (this.worker) {
      this.worker.postMessage({ id: this.nextId++, request } satisfies ArrowMessage);
      return;
    }
    // no Worker: on this thread, after the current task
    queueMicrotask(() => {
      try { this.onReply({ id: 0, ok: true, result: this.presenter!.arrows(request) }); } catch (error) { this.onReply({ id: 0, ok: false, error: String(error) }); }
    });
  }

  private onReply(reply: ArrowReply): void {
    const asked = this.inFlight;
    this.inFlight = null;
    if (this.pending) { const next = this.pending; this.pending = null; this.send(next); }
    if (!reply.ok) {
      this.legend.textContent = `Sensitivities failed: ${reply.error}`;
      return;
    }
    // a metric switched off meanwhile, or another document shown: not drawn
    if (!this.asked || !asked || reply.result.metric !== this.asked.metric || reply.result.side !== this.asked.side) return;
    this.result = reply.result;
    this.draw();
  }

  /** Whether the arrows shown answer the newest request (for tests). */
  get settled(): boolean {
    if (!this.asked) return this.inFlight === null;
    const r = this.result;
    return this.inFlight === null && this.pending === null && r !== null && r.docKey === this.asked.docKey && r.metric === this.asked.metric && r.side === this.asked.side
      && r.view.rack === this.asked.view.rack && r.view.travel.every((t, i) => t === this.asked!.view.travel[i]);
  }

  private draw(): void {
    const r = this.result;
    const pose = this.app.lastPose;
    this.drawn = [];
    if (r && r.status === 'ok' && pose) {
      // the model's extent sets the longest arrow
      const pts = Object.values(pose.points);
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (const p of pts) for (let i = 0; i < 3; i++) { lo[i] = Math.min(lo[i], p[i]); hi[i] = Math.max(hi[i], p[i]); }
      const extent = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) || 1;
      const size = (a: PickupArrow) => Math.hypot(a.gradient[0], a.gradient[1], a.gradient[2]);
      const chassis = r.arrows.filter((a) => a.chassis);
      const largest = Math.max(0, ...chassis.map(size));
      for (const a of chassis) {
        const h = pose.structure.handles.find((x) => x.hardpoint === a.hardpoint || x.label === a.hardpoint);
        // an axle's centre points have no handle: drawn at their assembly point
        const ref = h?.ref ?? a.ref;
        const at = ref ? pose.points[ref] : undefined;
        if (!ref || !at) continue;
        this.drawn.push({ ...a, ref, at: [at[0], at[1], at[2]], length: largest > 0 ? (LONGEST * extent * size(a)) / largest : 0 });
      }
      const top = chassis.reduce<PickupArrow | null>((best, a) => (!best || size(a) > size(best) ? a : best), null);
      const unit = r.unit === '°' ? '°' : ` ${r.unit}`;
      const metric = r.side ? `${r.side} ${r.metric}` : r.metric;
      const mirrored = chassis.some((a) => a.with) ? ' A pickup\'s drag moves its mirror too: its arrow counts both.' : '';
      this.legend.textContent = top && largest > 0
        ? `${metric} = ${r.value!.toPrecision(5)}${unit}. Arrows point the way that raises it; the longest: ${largest.toPrecision(2)}${unit}/mm (${top.hardpoint}).${mirrored} Hover a pickup for the numbers.`
        : `${metric}: no chassis pickup changes it here.`;
    } else if (r) {
      this.legend.textContent = `No arrows: ${r.message ?? r.status}`;
    }
    let n = 0;
    const extentRadius = this.drawn.reduce((m, a) => Math.max(m, a.length), 0);
    for (const a of this.drawn) {
      if (a.length < 0.02 * extentRadius) continue; // a pickup that barely matters: no arrow, the hover still says it
      const dir = _d.set(a.gradient[0], a.gradient[1], a.gradient[2]).normalize();
      _q.setFromUnitVectors(UP, dir);
      const head = Math.min(0.4 * a.length, 0.22 * extentRadius);
      const shaft = a.length - head;
      const r0 = 0.02 * extentRadius;
      const color = a.hardpoint === this.hovered ? HOVER_COLOR : ARROW_COLOR;
      _p.set(a.at[0], a.at[1], a.at[2]).addScaledVector(dir, shaft / 2);
      this.setAt(this.shafts, n, _m.compose(_p, _q, _s.set(r0, Math.max(shaft, 1e-6), r0)), color);
      _p.set(a.at[0], a.at[1], a.at[2]).addScaledVector(dir, shaft + head / 2);
      this.setAt(this.heads, n, _m.compose(_p, _q, _s.set(r0 * 3, head, r0 * 3)), color);
      this.shafts.userData[n] = this.heads.userData[n] = a.hardpoint;
      n++;
    }
    for (const mesh of [this.shafts, this.heads]) {
      mesh.count = n;
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
      mesh.computeBoundingSphere();
    }
    this.renderTip();
    this.app.invalidate();
  }

  private setAt(mesh: InstancedMesh, i: number, m: Matrix4, color: number): void {
    mesh.setMatrixAt(i, m);
    mesh.setColorAt(i, _c.setHex(color));
  }

  private onPointerMove(e: PointerEvent): void {
    if (this.app.drag.dragged || this.app.drag.hovered || this.shafts.count === 0) return;
    const rect = this.app.scene.renderer.domElement.getBoundingClientRect();
    const ndc = new Vector2(((e.clientX - rect.left) / rect.width) * 2 - 1, -((e.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(ndc, this.app.scene.camera);
    const hit = this.raycaster.intersectObjects([this.shafts, this.heads], false)[0];
    const name = hit && hit.instanceId !== undefined ? (hit.object.userData[hit.instanceId] as string) : null;
    if (name !== this.hovered) this.setHovered(name);
  }

  private setHovered(name: string | null): void {
    if (name === this.hovered) return;
    this.hovered = name;
    this.draw();
  }

  private renderTip(): void {
    const r = this.result;
    const a = this.hovered ? this.drawn.find((x) => x.hardpoint === this.hovered) : undefined;
    if (!r || r.status !== 'ok' || !a) { this.tip.hidden = true; return; }
    const lines = hoverLines(r, a);
    // the axis that matters most in bold
    const big = [0, 1, 2].reduce((b, i) => (Math.abs(a.gradient[i]) > Math.abs(a.gradient[b]) ? i : b), 0);
    this.tip.replaceChildren(Object.assign(document.createElement('b'), { textContent: a.hardpoint }), ...lines.map((line, i) => Object.assign(document.createElement('div'), { textContent: line, className: i === big ? 'main' : '' })));
    const p = this.app.scene.toScreen(a.at);
    const view = document.getElementById('view')!.getBoundingClientRect();
    this.tip.style.left = `${p.x - view.left + 14}px`;
    this.tip.style.top = `${p.y - view.top + 14}px`;
    this.tip.hidden = false;
  }

  /** What the tests read: the arrows drawn, the legend, the hover text. */
  snapshot() {
    return {
      metric: this.metric,
      side: this.result?.side ?? null,
      settled: this.settled,
      status: this.result?.status ?? null,
      message: this.result?.message ?? null,
      docKey: this.result?.docKey ?? null,
      view: this.result?.view ?? null,
      value: this.result?.value ?? null,
      arrows: this.drawn.map((a) => ({ hardpoint: a.hardpoint, ref: a.ref, gradient: a.gradient, length: a.length })),
      shown: this.shafts.count,
      legend: this.legend.textContent,
      tip: this.tip.hidden ? null : Array.from(this.tip.children, (c) => c.textContent ?? ''),
    };
  }
}
