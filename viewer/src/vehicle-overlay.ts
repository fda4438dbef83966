/**
 * The vehicle's contact loads in the 3D view: at each tyre's contact point an arrow up
 * with length in proportion to its vertical load at rest (blue), and beside it the load
 * at 0.5 g of lateral acceleration (left turn) from the exact load-transfer rates (orange):
 * the outer tyres' arrows grow, the inner ones' shrink, the front against the rear as the
 * roll stiffness splits it.
 */
import { ArrowHelper, Group, Vector3, type Scene } from 'three';
import type { VehicleFrame } from '../../src/index.ts';

/** The lateral acceleration (g) the orange arrows show the loads at. */
export const SHOWN_AY = 0.5;
const STATIC_COLOR = 0x4a90d9, TRANSFER_COLOR = 0xf08c2e;

export class VehicleOverlay {
  private readonly group = new Group();
  private readonly arrows: ArrowHelper[] = [];

  constructor(scene: Scene) {
    this.group.name = 'vehicle-loads';
    scene.add(this.group);
  }

  update(frame: VehicleFrame): void {
    const f = frame.figures;
    if (!f || !frame.pose) { this.clear(); return; }
    const corners = Object.values(f.corners);
    const mean = corners.reduce((s, c) => s + c.load, 0) / corners.length;
    // a mean tyre load is a fifth of the car's size
    const perN = (frame.pose.lengthScale * 0.2) / Math.max(mean, 1e-9);
    const side = frame.pose.lengthScale * 0.03;
    corners.forEach((c, i) => {
      const base = new Vector3(...c.contact_point);
      this.arrow(2 * i, base.clone().setX(base.x + side), c.load * perN, STATIC_COLOR, frame.pose!.lengthScale);
      this.arrow(2 * i + 1, base.clone().setX(base.x - side), (c.load + SHOWN_AY * c.load_per_g) * perN, TRANSFER_COLOR, frame.pose!.lengthScale);
    });
    this.group.visible = true;
  }

  clear(): void {
    this.group.visible = false;
  }

  /** Lengths drawn, for the tests: [static, at 0.5 g] per corner. */
  lengths(): number[] {
    return this.arrows.map((a) => (a.visible ? a.userData.length as number : 0));
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
    if (length > 0) a.setLength(length, Math.min(length * 0.3, scale * 0.04), scale * 0.02);
  }
}
