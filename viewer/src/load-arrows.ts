/**
 * The K&C rig's load arrows (docs/compliance.md, "Viewer"): on a compliant suspension, an
 * arrow at each contact patch for the horizontal force the rig applies there (Fx, Fy),
 * ending at the patch, with a ball at its tail that the user drags: the force is the
 * vector from the ball to the patch, FORCE_PER_LENGTH newtons per model length. The drag
 * has controls of its own (the same HandleDragControls as the hardpoints, over these balls
 * only), so the hardpoint gestures are untouched. DOM and three.js only: the settle is the
 * pose worker's (src/live/compliant-pose.ts).
 */
import { ConeGeometry, CylinderGeometry, Group, Mesh, MeshBasicMaterial, Quaternion, SphereGeometry, Vector3 } from 'three';
import type { PoseResult, Vec3Tuple } from '../../src/index.ts';
import type { SceneView } from './scene';
import { HandleDragControls } from './drag';

const UP = new Vector3(0, 1, 0);
const ARROW_COLOR = 0xff9b3d;
/** An arrow 0.3 of the model long stands for 4 kN. */
const KN_LENGTH = 0.3 / 4000;

export interface LoadArrowHost {
  readonly scene: SceneView;
  /** The rig's force at a side's patch, N (vehicle axes). */
  rigForce(side: string): Vec3Tuple;
  /** A dragged arrow's new force (x, y; z kept). */
  setRigForce(side: string, force: Vec3Tuple, time: number): void;
  /** The drag began or ended (the plots freeze while it moves). */
  dragging(on: boolean): void;
}

/** What is drawn now (tests). */
export interface LoadArrowState {
  shown: boolean;
  arrows: { side: string; tail: Vec3Tuple; tip: Vec3Tuple; force: Vec3Tuple }[];
}

export class LoadArrows {
  readonly group = new Group();
  /** The tail balls, the only things the arrows' drag controls pick. */
  readonly handles: Mesh[] = [];
  readonly drag: HandleDragControls;
  private readonly shaft = new CylinderGeometry(1, 1, 1, 12, 1);
  private readonly cone = new ConeGeometry(1, 1, 12);
  private readonly ball = new SphereGeometry(1, 16, 12);
  private readonly material = new MeshBasicMaterial({ color: ARROW_COLOR, depthTest: false, transparent: true, opacity: 0.95 });
  private readonly arrows = new Map<string, { shaft: Mesh; head: Mesh; ball: Mesh }>();
  private result: PoseResult | null = null;
  private drawn: LoadArrowState = { shown: false, arrows: [] };
  /** The side being dragged. */
  private side: string | null = null;

  constructor(private readonly host: LoadArrowHost) {
    this.group.name = 'load-arrows';
    this.group.renderOrder = 10;
    host.scene.scene.add(this.group);
    // on the canvas' container: its capture-phase pointerdown runs before the canvas' own
    // (the hardpoint and tyre handles), so a ball in front of the tyre is grabbed, not the tyre
    this.drag = new HandleDragControls(host.scene.camera, host.scene.container, () => (this.group.visible ? this.handles : []));
    this.drag.addEventListener('dragging-changed', (e) => { host.scene.controls.enabled = !e.value; host.dragging(e.value); });
    this.drag.addEventListener('dragstart', (e) => { this.side = (e.object.userData.side as string | undefined) ?? null; });
    this.drag.addEventListener('drag', (e) => this.onDrag(e.point, e.time));
    this.drag.addEventListener('dragend', () => { this.side = null; });
    this.drag.addEventListener('dragcancel', () => { this.side = null; });
  }

  /** The model length one newton of arrow is. */
  private perNewton(): number {
    return (this.result?.lengthScale ?? 1000) * KN_LENGTH;
  }

  private onDrag(point: Vector3, time: number): void {
    const side = this.side, r = this.result;
    if (!side || !r) return;
    const corner = r.corners.find((c) => c.side === side);
    if (!corner?.contact) return;
    const k = 1 / this.perNewton();
    const old = this.host.rigForce(side);
    // the force points from the ball to the patch; only its horizontal part is dragged
    const force: Vec3Tuple = [round((corner.contact[0] - point.x) * k), round((corner.contact[1] - point.y) * k), old[2]];
    this.host.setRigForce(side, force, time);
  }

  /** Draws an arrow per corner of a compliant result; nothing otherwise. */
  update(result: PoseResult): void {
    this.result = result;
    const on = !!result.compliance && result.suspension;
    this.group.visible = on;
    this.drawn = { shown: on, arrows: [] };
    if (!on) return;
    const s = result.lengthScale;
    const q = new Quaternion(), d = new Vector3();
    for (const corner of result.corners) {
      if (!corner.contact) continue;
      const a = this.arrow(corner.side);
      const force = this.host.rigForce(corner.side);
      const tip = new Vector3().fromArray(corner.contact);
      d.set(force[0], force[1], 0);
      const length = d.length() * this.perNewton();
      const tail = tip.clone().addScaledVector(d.lengthSq() > 0 ? d.clone().normalize() : d, -length);
      a.ball.position.copy(tail);
      a.ball.scale.setScalar(s * 0.018);
      a.ball.userData.grabPoint = tail.clone();
      const head = Math.min(s * 0.03, length);
      const shown = length > 1e-6 * s;
      a.shaft.visible = a.head.visible = shown;
      if (shown) {
        d.normalize();
        q.setFromUnitVectors(UP, d);
        a.shaft.position.copy(tail).addScaledVector(d, (length - head) / 2);
        a.shaft.quaternion.copy(q);
        a.shaft.scale.set(s * 0.005, Math.max(length - head, 1e-9), s * 0.005);
        a.head.position.copy(tip).addScaledVector(d, -head / 2);
        a.head.quaternion.copy(q);
        a.head.scale.set(s * 0.014, head, s * 0.014);
      }
      this.drawn.arrows.push({ side: corner.side, tail: [tail.x, tail.y, tail.z], tip: [tip.x, tip.y, tip.z], force });
    }
  }

  private arrow(side: string): { shaft: Mesh; head: Mesh; ball: Mesh } {
    let a = this.arrows.get(side);
    if (!a) {
      a = { shaft: new Mesh(this.shaft, this.material), head: new Mesh(this.cone, this.material), ball: new Mesh(this.ball, this.material) };
      a.ball.name = `load-arrow:${side}`;
      a.ball.userData.side = side;
      for (const m of [a.shaft, a.head, a.ball]) m.renderOrder = 10;
      this.group.add(a.shaft, a.head, a.ball);
      this.handles.push(a.ball);
      this.arrows.set(side, a);
    }
    return a;
  }

  /** What is drawn now (tests read it through the app). */
  state(): LoadArrowState {
    return this.drawn;
  }
}

/** Forces to the newton: what a drag sets is a round number. */
function round(x: number): number {
  return Math.round(x);
}
