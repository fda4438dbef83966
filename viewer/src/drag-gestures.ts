/**
 * The viewer's drag gestures on the 3D view: a grabbed handle becomes the live model's drag
 * (a chassis hardpoint, or Alt on a moving part's hardpoint: a geometry edit, one undo
 * entry; any other moving point: a pull with the suspension's strategy, the rack in steer,
 * the wheel in bump, a mechanism freely), Escape cancels, and in assemble mode a click picks.
 */
import { Quaternion, type Vector3 } from 'three';
import type { History } from '../../src/index.ts';
import { hardpointPosition, type ViewerDocument } from './document';
import type { Vec3Tuple } from '../../src/index.ts';
import type { PoseResult, PullMode, ViewerLiveModel } from '../../src/index.ts';
import { round6 } from './panels';
import { recordSample } from './samples';
import type { HandleDragControls } from './drag';
import type { SceneView } from './scene';
import type { PlotPanel } from './plots';
import type { AssemblePanel } from './assemble-panel';

/** What the gestures use of the viewer. */
export interface GesturesHost {
  readonly drag: Pick<HandleDragControls, 'addEventListener'>;
  readonly scene: Pick<SceneView, 'controls' | 'setInteractive' | 'setHovered' | 'handleInfo'>;
  readonly assemblePanel: Pick<AssemblePanel, 'assembling' | 'pick'>;
  readonly plots: Pick<PlotPanel, 'freeze'>;
  readonly history: Pick<History<ViewerDocument>, 'current'>;
  readonly live: Pick<ViewerLiveModel, 'beginDrag' | 'dragTo' | 'endDrag' | 'cancelDrag' | 'resolve'>;
  readonly stats: { readonly dispatch: number[] };
  readonly lastPose: PoseResult | null;
  /** A whole vehicle shown: its own drags (viewer/src/vehicle-mode.ts) take the gesture. */
  readonly vehicle?: { readonly active: boolean };
  /** The reason of the live model's last refused edit. */
  readonly lastRefusal: string;
  refusal: string | null;
  pendingEditTime: number | undefined;
  noteInput(time?: number): void;
  renderHud(): void;
  updateToolbar(): void;
}

export class DragGestures {
  /** The drag in progress as the viewer sees it (the live model holds the gesture). */
  gesture: { kind: 'edit'; name: string; startWorld: Vector3; startHp: Vec3Tuple; inverse: Quaternion } | { kind: 'pull' } | null = null;
  altAtPointerDown = false;

  constructor(private readonly app: GesturesHost) {
    // remember modifier keys of the pointerdown before the drag controls see it (window, capture phase: first)
    window.addEventListener('pointerdown', (e) => { this.altAtPointerDown = e.altKey; }, { capture: true });
    const d = this.app.drag;
    // lighter frames while something moves (a click that picks in assemble mode moves nothing)
    d.addEventListener('dragging-changed', (e) => { this.app.scene.controls.enabled = !e.value; this.app.scene.setInteractive(e.value && !this.app.assemblePanel.assembling); });
    d.addEventListener('hoveron', (e) => this.app.scene.setHovered(e.object));
    d.addEventListener('hoveroff', () => this.app.scene.setHovered(null));
    d.addEventListener('dragstart', (e) => {
      const h = this.app.scene.handleInfo.get(e.object);
      if (!h || !this.app.lastPose || this.app.vehicle?.active) return;
      if (this.app.assemblePanel.assembling) { this.app.assemblePanel.pick(h.ref); return; } // assemble mode: clicks pick points
      if (h.kind === 'anchor') return; // a fixed part's point: nothing to drag
      this.app.plots.freeze(true);
      const doc = this.app.history.current;
      const edit = doc.kind === 'suspension' && h.hardpoint !== undefined && (h.kind === 'hardpoint' || this.altAtPointerDown);
      if (edit && doc.kind === 'suspension') {
        const start = hardpointPosition(doc, h.hardpoint!);
        if (!start || !this.app.live.beginDrag({ kind: 'hardpoint', name: h.hardpoint! }, `move ${h.hardpoint}`)) return;
        const pose = this.app.lastPose.poses[h.part];
        const q = pose ? new Quaternion(pose[4], pose[5], pose[6], pose[3]).invert() : new Quaternion();
        this.gesture = { kind: 'edit', name: h.hardpoint!, startWorld: e.point.clone(), startHp: start, inverse: q };
        this.app.refusal = null;
      } else {
        // the suspension pull's strategy: the rack in steer, the wheel in bump; a mechanism pulls freely
        const mode: PullMode = h.kind === 'rack' ? 'steer' : this.app.lastPose.suspension ? 'bump' : 'free';
        const axis = e.object.userData.dragAxis as Vector3 | null | undefined;
        const corner = h.corner !== undefined && this.app.lastPose.corners.length > 1 ? { corner: h.corner } : {};
        if (!this.app.live.beginDrag({ kind: 'pull', part: h.part, point: h.local, mode, ...(axis ? { axis: [axis.x, axis.y, axis.z] } : {}), ...corner })) return;
        this.gesture = { kind: 'pull' };
      }
    });
    d.addEventListener('drag', (e) => {
      const g = this.gesture;
      if (!g) return;
      recordSample(this.app.stats.dispatch, performance.now() - e.time);
      if (g.kind === 'edit') {
        const delta = e.point.clone().sub(g.startWorld).applyQuaternion(g.inverse);
        const p: Vec3Tuple = [round6(g.startHp[0] + delta.x), round6(g.startHp[1] + delta.y), round6(g.startHp[2] + delta.z)];
        // the edit's time: the live model's request for it is noted when the document changes
        this.app.pendingEditTime = e.time;
        if (this.app.live.dragTo(p)) this.app.refusal = null;
        else { this.app.pendingEditTime = undefined; this.app.refusal = `${g.name}: ${this.app.lastRefusal}`; this.app.renderHud(); }
      } else {
        this.app.live.dragTo([e.point.x, e.point.y, e.point.z]);
        this.app.noteInput(e.time);
      }
    });
    d.addEventListener('dragend', () => {
      const g = this.gesture;
      this.gesture = null;
      if (g) this.app.live.endDrag();
      // a pull ends where it let go, solved again from the design: the pose is then a
      // function of the document and the view alone (exact undo)
      if (g?.kind === 'pull' && this.app.lastPose?.suspension) { this.app.live.resolve({ fresh: true }); this.app.noteInput(); }
      this.app.plots.freeze(false);
      this.app.refusal = null;
      this.app.updateToolbar();
    });
    d.addEventListener('dragcancel', () => {
      const g = this.gesture;
      this.gesture = null;
      // an edit rolls back; a pull returns to the view (and state) at its start
      if (g) this.app.live.cancelDrag();
      if (g?.kind === 'pull') this.app.noteInput();
      this.app.plots.freeze(false);
      this.app.refusal = null;
      this.app.updateToolbar();
    });
  }
}
