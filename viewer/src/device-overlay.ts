/**
 * The suspension devices drawn in the 3D view (issue 15 item 6): anti-roll bars and their
 * arms, the heave link, torsion bars and camber shim blocks, from the presenter's shapes
 * (viewer/src/devices.ts). A mesh per device, in its own group (a few per model); drop
 * links and dampers are the scene's own rods and dampers. Their points are the linkage's
 * handles, so they drag like any other.
 */
import { BoxGeometry, CylinderGeometry, Group, Matrix4, Mesh, MeshLambertMaterial, Quaternion, Vector3 } from 'three';
import type { PoseResult } from '../../src/index.ts';
import type { DeviceShape } from '../../src/index.ts';
import type { SceneView } from './scene';

export const DEVICE_COLORS = { arb: 0xc77dff, torsion: 0xff9f43, heave: 0x4dd4ff, shim: 0xffd24d } as const;

const UP = new Vector3(0, 1, 0);

function colorOf(shape: DeviceShape): number {
  if (shape.kind === 'block') return DEVICE_COLORS.shim;
  if (shape.kind === 'link') return DEVICE_COLORS.heave;
  return shape.id.includes('torsion') ? DEVICE_COLORS.torsion : DEVICE_COLORS.arb;
}

export class DeviceOverlay {
  private readonly group = new Group();
  private readonly meshes = new Map<string, Mesh>();
  private readonly cylinder = new CylinderGeometry(1, 1, 1, 16, 1);
  private readonly box = new BoxGeometry(1, 1, 1);
  private readonly materials = new Map<number, MeshLambertMaterial>();
  private drawn: { id: string; kind: DeviceShape['kind']; color: number }[] = [];

  constructor(view: SceneView) {
    this.group.name = 'devices';
    view.scene.add(this.group);
  }

  private mesh(id: string, block: boolean, color: number): Mesh {
    let m = this.meshes.get(id);
    if (!m) {
      let material = this.materials.get(color);
      if (!material) { material = new MeshLambertMaterial({ color }); this.materials.set(color, material); }
      m = new Mesh(block ? this.box : this.cylinder, material);
      m.name = `device:${id}`;
      this.group.add(m);
      this.meshes.set(id, m);
    }
    m.visible = true;
    return m;
  }

  update(result: PoseResult): void {
    const s = result.lengthScale;
    const seen = new Set<string>();
    this.drawn = [];
    for (const shape of result.devices ?? []) {
      const color = colorOf(shape);
      const m = this.mesh(shape.id, shape.kind === 'block', color);
      seen.add(shape.id);
      this.drawn.push({ id: shape.id, kind: shape.kind, color });
      if (shape.kind === 'block') {
        const [e1, e2, e3] = shape.axes.map((a) => new Vector3(a[0], a[1], a[2]));
        m.quaternion.setFromRotationMatrix(new Matrix4().makeBasis(e1, e2, e3));
        m.position.set(...shape.center);
        m.scale.set(...shape.size);
        continue;
      }
      const a = new Vector3(...shape.a), b = new Vector3(...shape.b);
      const d = b.clone().sub(a);
      const len = d.length();
      m.position.copy(a).addScaledVector(d, 0.5);
      m.quaternion.copy(len > 0 ? new Quaternion().setFromUnitVectors(UP, d.multiplyScalar(1 / len)) : new Quaternion());
      const r = s * (shape.kind === 'bar' ? 0.009 : shape.kind === 'link' ? 0.008 : 0.007);
      m.scale.set(r, Math.max(len, 1e-9), r);
    }
    for (const [id, m] of this.meshes) if (!seen.has(id)) m.visible = false;
  }

  /** What is drawn now (tests read it through the app). */
  state(): { id: string; kind: DeviceShape['kind']; color: number }[] {
    return this.drawn;
  }
}
