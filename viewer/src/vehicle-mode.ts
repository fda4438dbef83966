/**
 * The whole car in the viewer (docs/vehicle.md, "Viewer"): a vehicle file opened (with its
 * axle files, or one of the embedded examples) replaces the view's model by the vehicle's
 * — body, both axles, wheels and tyres, solved at rest in the vehicle worker — with the
 * vehicle's figures in a side panel and the contact loads drawn. Dragging a chassis pickup
 * edits the axle file it belongs to (both sides while the axle is locked, as the panel's
 * toggle says); the frame is solved again at most one request at a time, the newest
 * waiting, quick figures while the pointer moves and all of them when it lets go. Ctrl+Z
 * undoes a whole drag. Any other model opened leaves vehicle mode.
 */
import { Quaternion, Vector3, type Object3D } from 'three';
import {
  moveVehicleHardpoint, readVehicleDocument, vehicleHardpointPosition,
  type HandleInfo, type PoseResult, type VehicleDocument, type VehicleLiveFrame, type VehicleHardpoint,
} from '../../src/index.ts';
import { stringify as yamlStringify } from 'yaml';
import type { SceneView } from './scene';
import { download } from './file-io';
import type { HandleDragControls } from './drag';
import type { VehicleWorkerReply, VehicleWorkerRequest } from './vehicle.worker';
import { VEHICLE_FILES, VEHICLE_SAMPLES } from './vehicle-samples';
import { VehiclePanel } from './vehicle-panel';
import { VehicleOverlay } from './vehicle-overlay';
import { VehiclePlayback } from './vehicle-playback';
import { VehicleDesign } from './vehicle-design';
import './vehicle.css';

/** What vehicle mode uses of the viewer. */
export interface VehicleHost {
  readonly scene: SceneView;
  readonly drag: Pick<HandleDragControls, 'addEventListener'>;
  /** Leaving vehicle mode: the live model's document is drawn again. */
  redrawModel(): void;
  /** The one-axle model's overlays: given the vehicle's frame (no compliance, devices or loads) they clear. */
  readonly compliance?: { update(result: PoseResult): void };
  readonly devices?: { update(result: PoseResult): void };
  readonly forces?: { update(result: PoseResult, draw: boolean): void };
  showError(text: string): void;
  hideError(): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
/** Frames of the vehicle are keyed apart from the live model's documents (the scene frames a new key once). */
const KEY_BASE = 1e9;

export class VehicleMode {
  active = false;
  doc: VehicleDocument | null = null;
  frame: VehicleLiveFrame | null = null;
  /** Axles edit both sides together (mirrored) while locked. */
  locked = true;
  private docKey = KEY_BASE;
  /** The document as opened (what Save axle files compares against). */
  private opened: VehicleDocument | null = null;
  private readonly past: VehicleDocument[] = [];
  private readonly future: VehicleDocument[] = [];
  /** Started with the first vehicle opened: a page that never shows one loads no second copy of the library. */
  private worker: Worker | null = null;
  private nextId = 1;
  private inFlight = 0;
  private pending: { quick: boolean } | null = null;
  private gesture: { hp: VehicleHardpoint; start: VehicleDocument; startWorld: Vector3; startHp: [number, number, number]; inverse: Quaternion } | null = null;
  readonly panel: VehiclePanel;
  readonly overlay: VehicleOverlay;
  /** The Simulate section: a run of the car played back. */
  readonly playback: VehiclePlayback;
  /** Sensitivity arrows and fit on the whole car. */
  readonly design: VehicleDesign;

  constructor(private readonly app: VehicleHost) {
    this.panel = new VehiclePanel({ onLock: (locked) => { this.locked = locked; this.panel.render(this); this.design.refresh(); }, onSave: () => this.saveAxles() });
    this.overlay = new VehicleOverlay(app.scene.scene);
    const mode = this;
    this.playback = new VehiclePlayback({
      scene: app.scene, overlay: this.overlay,
      get doc() { return mode.doc; },
      get restPose() { return mode.frame?.pose ?? null; },
      showRest: () => { if (mode.active && mode.frame?.pose) { app.scene.update(mode.frame.pose); mode.overlay.update(mode.frame); } },
    }, this.panel.root);
    this.design = new VehicleDesign({
      get doc() { return mode.doc; }, get frame() { return mode.frame; }, get locked() { return mode.locked; },
      edit: (doc) => { if (mode.doc) { mode.past.push(mode.doc); mode.future.length = 0; mode.setDoc(doc, false); } },
    }, app.scene.scene, this.panel.root);
    this.wireMenu();
    this.wireDrags();
  }

  /** Every request answered and drawn (the browser tests wait on it). */
  get settled(): boolean {
    return this.inFlight === 0 && this.pending === null;
  }

  /** Opens a vehicle file with the files chosen beside it (the embedded examples' files fill in by base name). */
  open(name: string, text: string, files: Readonly<Record<string, string>> = {}): boolean {
    $<HTMLSelectElement>('vehicle-sample').value = '';
    let doc: VehicleDocument;
    try {
      doc = readVehicleDocument(name, text, { ...VEHICLE_FILES, ...files });
    } catch (error) {
      this.app.showError(`Could not open ${name} — the model is unchanged.\n${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    this.past.length = 0;
    this.future.length = 0;
    this.opened = doc;
    this.playback.reset();
    this.enter();
    this.setDoc(doc, false);
    this.app.scene.frameNext = this.docKey;
    return true;
  }

  /** Opens the embedded example of a Model menu entry (`vehicle:sedan`). */
  openSample(id: string): boolean {
    const s = VEHICLE_SAMPLES.find((x) => x.id === id);
    if (!s) return false;
    const ok = this.open(s.name, s.text);
    if (ok) $<HTMLSelectElement>('vehicle-sample').value = id;
    return ok;
  }

  /** Leaves vehicle mode (another model opened): the view draws the live model again. */
  close(): void {
    if (!this.active) return;
    this.active = false;
    this.doc = null;
    this.opened = null;
    this.frame = null;
    this.pending = null;
    this.playback.reset();
    document.body.classList.remove('vehicle-mode');
    $<HTMLSelectElement>('vehicle-sample').value = '';
    this.panel.hide();
    this.overlay.clear();
    this.design.clear();
    this.app.redrawModel();
  }

  undo(): void {
    const doc = this.past.pop();
    if (!doc || !this.doc) return;
    this.future.push(this.doc);
    this.setDoc(doc, false);
  }

  redo(): void {
    const doc = this.future.pop();
    if (!doc || !this.doc) return;
    this.past.push(this.doc);
    this.setDoc(doc, false);
  }

  get canUndo(): boolean { return this.past.length > 0; }
  get canRedo(): boolean { return this.future.length > 0; }
  /** An axle file differs from the one opened. */
  get edited(): boolean { return this.doc !== null && this.opened !== null && (['front', 'rear'] as const).some((a) => this.doc!.axles[a].geometry !== this.opened!.axles[a].geometry); }

  /** Downloads the edited axle files (YAML), each under the name the vehicle file gives it. */
  saveAxles(): void {
    if (!this.doc || !this.opened) return;
    for (const axle of ['front', 'rear'] as const) {
      const a = this.doc.axles[axle];
      if (a.geometry !== this.opened.axles[axle].geometry) download(a.ref.replace(/^.*[\\/]/, ''), yamlStringify(a.geometry), 'application/yaml');
    }
  }

  /** Where a pickup's handle is on the page (`front:left_lower_wishbone_inboard_front`), for the tests. */
  screenOf(hardpoint: string): { x: number; y: number } | null {
    const h = this.frame?.pose?.structure.handles.find((x) => x.hardpoint === hardpoint);
    const p = h && this.frame?.pose?.points[h.ref];
    return p ? this.app.scene.toScreen(p) : null;
  }

  /** The toolbar while a vehicle is shown: no Model entry chosen, undo and redo its own. */
  updateToolbar(): void {
    $<HTMLSelectElement>('template').selectedIndex = -1;
    $<HTMLButtonElement>('undo').disabled = !this.canUndo;
    $<HTMLButtonElement>('redo').disabled = !this.canRedo;
  }

  private enter(): void {
    if (this.active) return;
    this.active = true;
    document.body.classList.add('vehicle-mode');
    this.app.scene.updateSweep(null); // the one-axle model's steering-axis surface
    this.app.hideError();
  }

  private setDoc(doc: VehicleDocument, quick: boolean): void {
    this.playback.leave();
    this.doc = doc;
    this.docKey++;
    this.request(quick);
    this.panel.render(this);
    // no Model entry is shown while a vehicle is: picking any of them (the one shown before too) leaves vehicle mode
    this.updateToolbar();
  }

  /** One request in flight, the newest waiting. */
  private request(quick: boolean): void {
    if (this.inFlight) { this.pending = { quick: quick && (this.pending?.quick ?? true) }; return; }
    if (!this.doc) return;
    this.inFlight = this.nextId++;
    const message: VehicleWorkerRequest = { id: this.inFlight, doc: this.doc, docKey: this.docKey, quick };
    if (!this.worker) {
      this.worker = new Worker(new URL('./vehicle.worker.ts', import.meta.url), { type: 'module', name: 'vehicle' });
      this.worker.onmessage = (event: MessageEvent<VehicleWorkerReply>) => this.onReply(event.data);
      this.worker.onerror = (event) => { this.inFlight = 0; this.pending = null; this.app.showError(`Vehicle worker: ${event.message}`); };
    }
    this.worker.postMessage(message);
  }

  private onReply(reply: VehicleWorkerReply): void {
    if (reply.id !== this.inFlight) return;
    this.inFlight = 0;
    const next = this.pending;
    this.pending = null;
    if (next) this.request(next.quick);
    if (!this.active) return;
    if (!reply.ok) { this.app.showError(`Vehicle: ${reply.error}`); return; }
    const frame = reply.frame;
    // a failed solve keeps the last good car drawn, and says why
    if (frame.pose) {
      this.frame = frame;
      this.app.scene.update(frame.pose);
      this.app.compliance?.update(frame.pose);
      this.app.devices?.update(frame.pose);
      this.app.forces?.update(frame.pose, false);
      this.overlay.update(frame);
      this.design.update(frame);
      this.app.hideError();
    } else this.app.showError(`Vehicle: ${frame.error ?? 'no frame'}`);
    this.panel.render(this, frame);
  }

  /** The toolbar's vehicle menu, beside the Model menu (whose entries stay the one-axle models). */
  private wireMenu(): void {
    const select = document.createElement('select');
    select.id = 'vehicle-sample';
    select.title = 'A whole car: an example vehicle with its axle files (or Open… a *.vehicle.yaml with its axle files)';
    select.innerHTML = `<option value="">Vehicle…</option>${VEHICLE_SAMPLES.map((s) => `<option value="${s.id}">${s.label}</option>`).join('')}`;
    const model = $<HTMLSelectElement>('template');
    model.insertAdjacentElement('afterend', select);
    select.addEventListener('change', () => { if (select.value) this.openSample(select.value); select.blur(); });
  }

  private wireDrags(): void {
    const d = this.app.drag;
    d.addEventListener('dragstart', (e) => {
      if (!this.active || !this.doc || !this.frame) return;
      const h = this.app.scene.handleInfo.get(e.object as Object3D) as HandleInfo | undefined;
      const hp = h && this.frame.handles[h.ref];
      if (!hp) return;
      this.playback.leave();
      const body = this.frame.pose?.poses.body;
      const inverse = body ? new Quaternion(body[4], body[5], body[6], body[3]).invert() : new Quaternion();
      this.gesture = { hp, start: this.doc, startWorld: e.point.clone(), startHp: vehicleHardpointPosition(this.doc, hp), inverse };
    });
    d.addEventListener('drag', (e) => {
      const g = this.gesture;
      if (!g) return;
      // the pickup moves with the pointer in the body's axes (the body sits pitched and rolled on its springs)
      const delta = e.point.clone().sub(g.startWorld).applyQuaternion(g.inverse);
      const p: [number, number, number] = [round3(g.startHp[0] + delta.x), round3(g.startHp[1] + delta.y), round3(g.startHp[2] + delta.z)];
      try {
        this.doc = moveVehicleHardpoint(g.start, g.hp, p, this.locked);
        this.docKey++;
        this.request(true);
      } catch (error) {
        this.app.showError(`Vehicle: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    d.addEventListener('dragend', () => {
      const g = this.gesture;
      this.gesture = null;
      if (!g || !this.doc || this.doc === g.start) return;
      this.past.push(g.start);
      this.future.length = 0;
      this.setDoc(this.doc, false);
    });
    d.addEventListener('dragcancel', () => {
      const g = this.gesture;
      this.gesture = null;
      if (g) this.setDoc(g.start, false);
    });
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

