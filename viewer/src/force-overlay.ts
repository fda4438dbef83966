/**
 * Link forces drawn on the linkage (issue 12 item 7): a sleeve over every two-force link,
 * coloured by tension or compression and as wide as its share of the largest force
 * (viewer/src/force-style.ts), a label with the force at the link's middle, and the load
 * case's contact force as an arrow at each contact patch. Its own group in the scene and
 * its own label layer over the canvas; the scene only calls it back after each render to
 * place the labels.
 */
import { ConeGeometry, CylinderGeometry, Group, InstancedMesh, Matrix4, Mesh, MeshBasicMaterial, Quaternion, Color, Vector3 } from 'three';
import type { PoseResult } from '../../src/index.ts';
import type { SceneView } from './scene';
import { linkForceStyle, formatForce, type LinkForceStyle } from './force-style';

const UP = new Vector3(0, 1, 0);
const ARROW_COLOR = 0xffe14d;
/** Ball-joint reactions (the force on the upright side), drawn as arrows too. */
const REACTION_COLOR = 0x8fe07a;
const BALLS = new Set(['ball', 'spherical']);

/** What is drawn now (for tests): per link its style, and the contact arrows. */
export interface ForceDrawing {
  shown: boolean;
  links: (LinkForceStyle & { id: string; tension: number })[];
  contacts: { side: string; force: [number, number, number]; label: string }[];
  /** Ball-joint reactions: the force on the joint's b part. */
  reactions: { id: string; force: [number, number, number]; label: string }[];
}

export class ForceOverlay {
  private readonly group = new Group();
  private sleeves: InstancedMesh;
  private capacity = 32;
  private readonly unit = new CylinderGeometry(1, 1, 1, 12, 1);
  private readonly cone = new ConeGeometry(1, 1, 12);
  private readonly material = new MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.85, depthWrite: false });
  private readonly arrows = new Map<string, { shaft: Mesh; head: Mesh }>();
  private readonly labels: HTMLDivElement;
  private readonly labelOf = new Map<string, HTMLSpanElement>();
  /** World anchors of the labels (link middles, contact patches). */
  private anchors: { key: string; at: [number, number, number] }[] = [];
  private drawing: ForceDrawing = { shown: false, links: [], contacts: [], reactions: [] };

  constructor(private readonly view: SceneView) {
    this.group.name = 'forces';
    this.sleeves = this.makeSleeves();
    view.scene.add(this.group);
    this.labels = document.createElement('div');
    this.labels.id = 'force-labels';
    Object.assign(this.labels.style, { position: 'absolute', inset: '0', pointerEvents: 'none', overflow: 'hidden' });
    view.container.appendChild(this.labels);
    view.afterRender.push(() => this.placeLabels());
  }

  private makeSleeves(): InstancedMesh {
    const mesh = new InstancedMesh(this.unit, this.material, this.capacity);
    mesh.name = 'force-sleeves';
    mesh.frustumCulled = false;
    mesh.count = 0;
    this.group.add(mesh);
    return mesh;
  }

  /** Draws the result's loads, or nothing when `show` is off or the result has none. */
  update(result: PoseResult, show: boolean): void {
    const loads = result.loads;
    const on = show && !!loads && result.suspension;
    this.group.visible = on;
    this.labels.hidden = !on;
    this.anchors = [];
    this.drawing = { shown: on, links: [], contacts: [], reactions: [] };
    if (!on || !loads) return;
    const s = result.lengthScale;
    const largest = Math.max(0, ...Object.values(loads.links).map(Math.abs));
    const links = result.structure.rods.filter((r) => r.id in loads.links && result.points[r.a] && result.points[r.b]);
    if (links.length > this.capacity) {
      this.group.remove(this.sleeves);
      this.sleeves.dispose();
      this.capacity = links.length * 2;
      this.sleeves = this.makeSleeves();
    }
    const m = new Matrix4(), q = new Quaternion(), a = new Vector3(), b = new Vector3(), mid = new Vector3(), d = new Vector3(), scale = new Vector3(), c = new Color();
    links.forEach((rod, i) => {
      const tension = loads.links[rod.id];
      const style = linkForceStyle(tension, largest);
      a.fromArray(result.points[rod.a]); b.fromArray(result.points[rod.b]);
      d.subVectors(b, a);
      const len = d.length();
      mid.copy(a).addScaledVector(d, 0.5);
      if (len > 0) q.setFromUnitVectors(UP, d.multiplyScalar(1 / len)); else q.identity();
      // a little wider than the drawn rod (radius 0.0072 s), so the sleeve covers it
      const r = s * 0.0085 * style.width;
      this.sleeves.setMatrixAt(i, m.compose(mid, q, scale.set(r, Math.max(len * 0.96, 1e-9), r)));
      this.sleeves.setColorAt(i, c.setHex(style.color));
      this.drawing.links.push({ id: rod.id, tension, ...style });
      this.anchors.push({ key: `link:${rod.id}`, at: [mid.x, mid.y, mid.z] });
      this.label(`link:${rod.id}`, style.label, style.color);
    });
    this.sleeves.count = links.length;
    this.sleeves.instanceMatrix.needsUpdate = true;
    if (this.sleeves.instanceColor) this.sleeves.instanceColor.needsUpdate = true;
    // the contact forces: an arrow ending at each contact patch, 0.3 of the model for the
    // largest; the ball joints' reactions on the same scale, ending at the joint
    const contacts = Object.entries(loads.contact).map(([side, x]) => ({ key: `contact:${side}`, side, at: x.at, force: x.force, color: ARROW_COLOR }));
    const balls = new Set(result.structure.joints.filter((j) => BALLS.has(j.type)).map((j) => j.id));
    const reactions = Object.entries(loads.joints).filter(([id]) => balls.has(id)).map(([id, w]) => ({ key: `reaction:${id}`, side: id, at: w.at, force: w.force, color: REACTION_COLOR }));
    const biggest = Math.max(0, ...[...contacts, ...reactions].map((x) => Math.hypot(...x.force)));
    const seen = new Set<string>();
    for (const x of [...contacts, ...reactions]) {
      const f = Math.hypot(...x.force);
      const text = formatForce(f).replace('+', '');
      if (x.key.startsWith('contact:')) this.drawing.contacts.push({ side: x.side, force: x.force, label: text });
      else this.drawing.reactions.push({ id: x.side, force: x.force, label: text });
      if (!(f > 1e-3 * biggest) || !(biggest > 0)) continue;
      seen.add(x.key);
      const arrow = this.arrow(x.key, x.color);
      const length = s * 0.3 * (f / biggest);
      d.set(x.force[0], x.force[1], x.force[2]).multiplyScalar(1 / f);
      const tip = new Vector3().fromArray(x.at);
      const base = tip.clone().addScaledVector(d, -length);
      const head = s * 0.03;
      q.setFromUnitVectors(UP, d);
      arrow.shaft.position.copy(base).addScaledVector(d, (length - head) / 2);
      arrow.shaft.quaternion.copy(q);
      arrow.shaft.scale.set(s * 0.004, Math.max(length - head, 1e-9), s * 0.004);
      arrow.head.position.copy(tip).addScaledVector(d, -head / 2);
      arrow.head.quaternion.copy(q);
      arrow.head.scale.set(s * 0.012, head, s * 0.012);
      this.anchors.push({ key: x.key, at: [base.x, base.y, base.z] });
      this.label(x.key, text, x.color);
    }
    for (const [key, arrow] of this.arrows) arrow.shaft.visible = arrow.head.visible = seen.has(key);
    // labels of links or contacts no longer there
    const keys = new Set(this.anchors.map((x) => x.key));
    for (const [key, el] of this.labelOf) if (!keys.has(key)) { el.remove(); this.labelOf.delete(key); }
  }

  private arrow(key: string, color: number): { shaft: Mesh; head: Mesh } {
    let a = this.arrows.get(key);
    if (!a) {
      const material = new MeshBasicMaterial({ color });
      a = { shaft: new Mesh(this.unit, material), head: new Mesh(this.cone, material) };
      a.shaft.name = key;
      this.group.add(a.shaft, a.head);
      this.arrows.set(key, a);
    }
    a.shaft.visible = a.head.visible = true;
    return a;
  }

  private label(key: string, text: string, color: number): void {
    let el = this.labelOf.get(key);
    if (!el) {
      el = document.createElement('span');
      el.className = 'force-label';
      el.dataset.key = key;
      Object.assign(el.style, { position: 'absolute', transform: 'translate(-50%, -50%)', font: '11px sans-serif', padding: '0 4px', borderRadius: '3px', background: 'rgba(10, 14, 20, 0.7)', whiteSpace: 'nowrap' });
      this.labels.appendChild(el);
      this.labelOf.set(key, el);
    }
    if (el.textContent !== text) el.textContent = text;
    el.style.color = `#${color.toString(16).padStart(6, '0')}`;
  }

  /** Puts each label over its anchor (after every render: the camera may have moved). */
  private placeLabels(): void {
    if (this.labels.hidden || this.anchors.length === 0) return;
    const box = this.labels.getBoundingClientRect();
    for (const { key, at } of this.anchors) {
      const el = this.labelOf.get(key);
      if (!el) continue;
      const p = this.view.toScreen(at);
      el.style.left = `${(p.x - box.left).toFixed(1)}px`;
      el.style.top = `${(p.y - box.top).toFixed(1)}px`;
    }
  }

  /** What is drawn now (tests read it through the app). */
  state(): ForceDrawing {
    return this.drawing;
  }
}
