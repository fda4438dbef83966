/**
 * Dragging handles in 3D, in the manner of three.js's DragControls/TransformControls:
 * `enabled`, `connect/disconnect/dispose`, listeners bound once, one reused event object
 * per type, documented events.
 *
 * - Picking raycasts only the handle meshes the owner lists.
 * - The pointer ray is met with a plane through the grabbed point: facing the camera for
 *   a free point, or, for a point constrained to an axis, the plane that contains the
 *   axis and faces the eye most. The grab offset is kept, so nothing jumps.
 * - pointerdown is taken in the capture phase (register before OrbitControls) and, on a
 *   handle, stopped there: the orbit never starts. `setPointerCapture` keeps the drag
 *   alive outside the canvas. `dragging-changed` fires like TransformControls' so the
 *   owner disables the orbit for the drag.
 * - Escape during a drag fires `dragcancel` (the owner rolls the gesture back).
 *
 * Events: `hoveron`/`hoveroff` { object }, `dragstart` { object, point }, `drag`
 * { object, point, time } (point: where the grabbed point should go, world), `dragend`
 * { object }, `dragcancel` { object }, `dragging-changed` { value }.
 */
import { EventDispatcher, Plane, Raycaster, Vector2, Vector3, type Camera, type Object3D } from 'three';

export interface HandleDragEventMap {
  hoveron: { object: Object3D };
  hoveroff: { object: Object3D };
  dragstart: { object: Object3D; point: Vector3 };
  drag: { object: Object3D; point: Vector3; time: number };
  dragend: { object: Object3D };
  dragcancel: { object: Object3D };
  'dragging-changed': { value: boolean };
}

/** What a handle may carry in `userData.dragAxis`: a unit world axis the point is kept on. */
export type DragAxis = Vector3 | null;

const _ray = new Raycaster();
// handles may be pick proxies on a layer the camera does not draw (the scene draws them
// batched): the ray sees every layer
_ray.layers.enableAll();
const _pointer = new Vector2();
const _hit = new Vector3();
const _eye = new Vector3();
const _tmp = new Vector3();

export class HandleDragControls extends EventDispatcher<HandleDragEventMap> {
  enabled = true;
  /** The handle being dragged, or null. */
  dragged: Object3D | null = null;
  hovered: Object3D | null = null;
  private readonly plane = new Plane();
  /** Grabbed point minus where the ray met the plane at pointerdown. */
  private readonly offset = new Vector3();
  /** The grabbed point at pointerdown (world). */
  private readonly anchor = new Vector3();
  private axis: Vector3 | null = null;
  private pointerId = -1;
  private readonly point = new Vector3();
  private readonly events = {
    hoveron: { type: 'hoveron' as const, object: null as unknown as Object3D },
    hoveroff: { type: 'hoveroff' as const, object: null as unknown as Object3D },
    dragstart: { type: 'dragstart' as const, object: null as unknown as Object3D, point: this.point },
    drag: { type: 'drag' as const, object: null as unknown as Object3D, point: this.point, time: 0 },
    dragend: { type: 'dragend' as const, object: null as unknown as Object3D },
    dragcancel: { type: 'dragcancel' as const, object: null as unknown as Object3D },
    changed: { type: 'dragging-changed' as const, value: false },
  };

  constructor(
    private readonly camera: Camera,
    readonly domElement: HTMLElement,
    /** The pickable handles (only these are raycast). */
    private readonly handles: () => readonly Object3D[],
  ) {
    super();
    this.onPointerDown = this.onPointerDown.bind(this);
    this.onPointerMove = this.onPointerMove.bind(this);
    this.onPointerUp = this.onPointerUp.bind(this);
    this.onKeyDown = this.onKeyDown.bind(this);
    this.connect();
  }

  /**
   * Moves during a drag come from `pointerrawupdate` where the browser has it: dispatched
   * as the pointer moves, not held for the next animation frame as `pointermove` is (up to
   * a frame, ~8 ms on average at 60 Hz, of latency saved). Hovering uses `pointermove`.
   */
  private readonly raw = typeof window !== 'undefined' && 'onpointerrawupdate' in window;

  connect(): void {
    this.domElement.addEventListener('pointerdown', this.onPointerDown, { capture: true });
    this.domElement.addEventListener('pointermove', this.onPointerMove);
    if (this.raw) this.domElement.addEventListener('pointerrawupdate' as 'pointermove', this.onPointerMove);
    this.domElement.addEventListener('pointerup', this.onPointerUp);
    this.domElement.addEventListener('pointercancel', this.onPointerUp);
    window.addEventListener('keydown', this.onKeyDown);
    this.domElement.style.touchAction = 'none';
  }

  disconnect(): void {
    this.domElement.removeEventListener('pointerdown', this.onPointerDown, { capture: true });
    this.domElement.removeEventListener('pointermove', this.onPointerMove);
    if (this.raw) this.domElement.removeEventListener('pointerrawupdate' as 'pointermove', this.onPointerMove);
    this.domElement.removeEventListener('pointerup', this.onPointerUp);
    this.domElement.removeEventListener('pointercancel', this.onPointerUp);
    window.removeEventListener('keydown', this.onKeyDown);
  }

  dispose(): void {
    this.disconnect();
  }

  /** The first handle under a client position, and where the ray met it. */
  pick(clientX: number, clientY: number): { object: Object3D; point: Vector3 } | null {
    const rect = this.domElement.getBoundingClientRect();
    _pointer.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    _ray.setFromCamera(_pointer, this.camera);
    const hits = _ray.intersectObjects(this.handles() as Object3D[], false);
    const hit = hits.find((h) => h.object.visible);
    return hit ? { object: hit.object, point: hit.point.clone() } : null;
  }

  private rayAt(event: PointerEvent): void {
    const rect = this.domElement.getBoundingClientRect();
    _pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    _ray.setFromCamera(_pointer, this.camera);
  }

  private onPointerDown(event: PointerEvent): void {
    if (!this.enabled || event.button !== 0 || this.dragged) return;
    const hit = this.pick(event.clientX, event.clientY);
    if (!hit) return;
    // ours: OrbitControls must not see it
    event.stopImmediatePropagation();
    event.preventDefault();
    const object = hit.object;
    const grab = (object.userData.grabPoint as Vector3 | undefined) ?? object.getWorldPosition(new Vector3());
    this.anchor.copy(grab);
    this.axis = (object.userData.dragAxis as DragAxis | undefined) ?? null;
    this.camera.getWorldDirection(_eye);
    if (this.axis) {
      // the plane containing the axis that faces the eye most: normal = a × (e × a)
      _tmp.crossVectors(_eye, this.axis);
      const n = new Vector3().crossVectors(this.axis, _tmp);
      if (n.lengthSq() < 1e-12) n.copy(_eye);
      this.plane.setFromNormalAndCoplanarPoint(n.normalize(), grab);
    } else {
      this.plane.setFromNormalAndCoplanarPoint(_eye.clone().negate(), grab);
    }
    this.rayAt(event);
    if (!_ray.ray.intersectPlane(this.plane, _hit)) return;
    this.offset.copy(grab).sub(_hit);
    this.dragged = object;
    this.pointerId = event.pointerId;
    try { this.domElement.setPointerCapture(event.pointerId); } catch { /* synthetic events cannot capture */ }
    this.domElement.style.cursor = 'grabbing';
    this.events.changed.value = true;
    this.dispatchEvent(this.events.changed);
    this.point.copy(grab);
    this.events.dragstart.object = object;
    this.dispatchEvent(this.events.dragstart);
  }

  private onPointerMove(event: PointerEvent): void {
    if (!this.enabled) return;
    const rawEvent = event.type === 'pointerrawupdate';
    if (!this.dragged) {
      if (rawEvent) return; // hovering: pointermove, once a frame, is enough
      const hit = this.pick(event.clientX, event.clientY);
      const object = hit ? hit.object : null;
      if (object !== this.hovered) {
        if (this.hovered) { this.events.hoveroff.object = this.hovered; this.dispatchEvent(this.events.hoveroff); }
        this.hovered = object;
        if (object) { this.events.hoveron.object = object; this.dispatchEvent(this.events.hoveron); }
        this.domElement.style.cursor = object ? 'grab' : '';
      }
      return;
    }
    if (event.pointerId !== this.pointerId) return;
    // one source of moves per drag: the raw updates where there are any
    if (this.raw && !rawEvent) return;
    this.rayAt(event);
    if (!_ray.ray.intersectPlane(this.plane, _hit)) return;
    this.point.copy(_hit).add(this.offset);
    if (this.axis) {
      // keep only the motion along the axis
      const along = _tmp.copy(this.point).sub(this.anchor).dot(this.axis);
      this.point.copy(this.anchor).addScaledVector(this.axis, along);
    }
    this.events.drag.object = this.dragged;
    // the event's own time stamp (same clock as performance.now): includes input queueing
    this.events.drag.time = event.timeStamp > 0 ? event.timeStamp : performance.now();
    this.dispatchEvent(this.events.drag);
  }

  private finish(cancelled: boolean): void {
    const object = this.dragged;
    if (!object) return;
    this.dragged = null;
    try { if (this.domElement.hasPointerCapture(this.pointerId)) this.domElement.releasePointerCapture(this.pointerId); } catch { /* ignore */ }
    this.pointerId = -1;
    this.domElement.style.cursor = this.hovered ? 'grab' : '';
    if (cancelled) { this.events.dragcancel.object = object; this.dispatchEvent(this.events.dragcancel); }
    else { this.events.dragend.object = object; this.dispatchEvent(this.events.dragend); }
    this.events.changed.value = false;
    this.dispatchEvent(this.events.changed);
  }

  private onPointerUp(event: PointerEvent): void {
    if (this.dragged && event.pointerId === this.pointerId) this.finish(false);
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.dragged) {
      event.preventDefault();
      this.finish(true);
    }
  }
}
