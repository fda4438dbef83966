/**
 * What the 3D view adds for a whole vehicle: the body, a translucent box around its
 * pickups posed where the body sits on its springs, and the contact loads — at each tyre's
 * contact point an arrow up in proportion to its vertical load at rest (blue), and beside it
 * the load at 0.5 g of lateral acceleration (left turn) from the exact load-transfer rates
 * (orange): the outer tyres' arrows grow, the inner ones' shrink, front against rear as the
 * roll stiffness splits the transfer. A run played back (vehicle-playback.ts) moves the body
 * and draws each tyre's load at that instant instead.
 */
import { ArrowHelper, Box3, BoxGeometry, EdgesGeometry, Group, LineBasicMaterial, LineSegments, Mesh, MeshBasicMaterial, Quaternion, Vector3, type Scene } from 'three';
import type { PoseResult, VehicleLiveFrame } from '../../src/index.ts';

/** The lateral acceleration (g) the orange arrows show the loads at. */
export const SHOWN_AY = 0.5;
const STATIC_COLOR = 0x4a90d9, TRANSFER_COLOR = 0xf08c2e, BODY_COLOR = 0x8fa3b8;

export class VehicleOverlay {
  private readonly group = new Group();
  private readonly arrows: ArrowHelper[] = [];
  private readonly body = new Group();
  private readonly box = new Mesh(new BoxGeometry(1, 1, 1), new MeshBasicMaterial({ color: BODY_COLOR, transparent: true, opacity: 0.08, depthWrite: false }));
  private readonly edges = new LineSegments(new EdgesGeometry(new BoxGeometry(1, 1, 1)), new LineBasicMaterial({ color: BODY_COLOR, transparent: true, opacity: 0.5 }));

  constructor(scene: Scene) {
    this.group.name = 'vehicle-overlay';
    this.body.add(this.box, this.edges);
    this.group.add(this.body);
    scene.add(this.group);
  }

  update(frame: VehicleLiveFrame): void {
    const f = frame.figures, pose = frame.pose;
    if (!f || !pose) { this.clear(); return; }
    this.drawBody(pose);
    const corners = Object.values(f.corners);
    const mean = corners.reduce((s, c) => s + c.load, 0) / corners.length;
    // a mean tyre load is 0.4 of the car's half-diagonal: about twice the tyre's radius, above the tyre
    const perN = (pose.lengthScale * 0.4) / Math.max(mean, 1e-9);
    const side = pose.lengthScale * 0.03;
    corners.forEach((c, i) => {
      const base = new Vector3(...c.contact_point);
      this.arrow(2 * i, base.clone().setX(base.x + side), c.load * perN, STATIC_COLOR, pose.lengthScale);
      this.arrow(2 * i + 1, base.clone().setX(base.x - side), (c.load + SHOWN_AY * c.load_per_g) * perN, TRANSFER_COLOR, pose.lengthScale);
    });
    this.group.visible = true;
  }

  /**
   * A frame of a run played back: the body where it is, and at each contact one arrow (blue)
   * for the tyre's vertical load then, on the scale of the loads at rest (`restMean`, N).
   */
  updateRun(pose: PoseResult, contacts: readonly (readonly number[])[], loads: readonly number[], restMean: number): void {
    this.drawBody(pose);
    const perN = (pose.lengthScale * 0.4) / Math.max(restMean, 1e-9);
    contacts.forEach((c, i) => {
      this.arrow(2 * i, new Vector3(c[0], c[1], c[2]), loads[i] * perN, STATIC_COLOR, pose.lengthScale);
      this.arrow(2 * i + 1, new Vector3(c[0], c[1], c[2]), 0, TRANSFER_COLOR, pose.lengthScale);
    });
    this.group.visible = true;
  }

  clear(): void {
    this.group.visible = false;
  }

  /** Lengths drawn (mm), for the tests: per corner, at rest then at 0.5 g. */
  lengths(): number[] {
    return this.arrows.map((a) => (a.visible ? (a.userData.length as number) : 0));
  }

  /** The box around the body's pickups (its own axes), padded, where the body stands. */
  private drawBody(pose: PoseResult): void {
    const p = pose.poses.body;
    const bounds = new Box3();
    for (const h of pose.structure.handles) if (h.part === 'body') bounds.expandByPoint(new Vector3(...h.local));
    if (!p || bounds.isEmpty()) { this.body.visible = false; return; }
    const pad = pose.lengthScale * 0.08;
    bounds.min.x -= pad * 2; bounds.max.x += pad * 2; bounds.max.z += pad;
    const size = bounds.getSize(new Vector3()), centre = bounds.getCenter(new Vector3());
    for (const o of [this.box, this.edges]) { o.scale.copy(size); o.position.copy(centre); }
    this.body.position.set(p[0], p[1], p[2]);
    this.body.quaternion.copy(new Quaternion(p[4], p[5], p[6], p[3]));
    this.body.visible = true;
  }

  private arrow(i: number, origin: Vector3, length: number, color: number, scale: number): void {
    let a = this.arrows[i];
    if (!a) {
      a = new ArrowHelper(new Vector3(0, 0, 1), origin, 1, color);
      this.arrows[i] = a;
      this.group.add(a);
    }
    a.position.copy(origin);
    a.visible = length > 0;
    a.userData.length = length;
    if (length > 0) a.setLength(length, Math.min(length * 0.3, scale * 0.06), scale * 0.035);
  }
}
