/**
 * The closest pair of parts drawn live (docs/picking.md): a line between the two closest
 * points with the clearance at its middle, red where the parts touch or overlap, green
 * otherwise; and an envelope (a closed mesh in world axes) drawn translucent. The numbers
 * come from the library's clearance; this only draws them.
 */
import { BufferAttribute, BufferGeometry, DoubleSide, Group, Line, LineBasicMaterial, Mesh, MeshLambertMaterial } from 'three';
import type { SceneView } from './scene';

/** One pair's clearance as the library reports it (mm, world axes). */
export interface ClearanceShown {
  readonly pair: string;
  readonly distance: number;
  readonly a_point: readonly [number, number, number];
  readonly b_point: readonly [number, number, number];
  readonly touching: boolean;
}

const TOUCH = 0xff4040, CLEAR = 0x40d080;

export class ClearanceOverlay {
  readonly group = new Group();
  private readonly line: Line;
  private readonly label: HTMLSpanElement;
  private shown: ClearanceShown | null = null;
  private envelope: Mesh | null = null;

  constructor(private readonly view: Pick<SceneView, 'scene' | 'container' | 'afterRender' | 'toScreen'>) {
    this.group.name = 'clearance';
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
    this.line = new Line(geometry, new LineBasicMaterial({ color: CLEAR, depthTest: false }));
    this.line.renderOrder = 10;
    this.line.visible = false;
    this.group.add(this.line);
    view.scene.add(this.group);
    this.label = document.createElement('span');
    this.label.id = 'clearance-label';
    Object.assign(this.label.style, { position: 'absolute', pointerEvents: 'none', font: '12px system-ui, sans-serif', padding: '1px 4px', borderRadius: '3px', background: 'rgba(20,24,30,0.8)', display: 'none' });
    view.container.appendChild(this.label);
    view.afterRender.push(() => this.placeLabel());
  }

  /** Draws the closest pair (or nothing). */
  show(c: ClearanceShown | null): void {
    this.shown = c;
    this.line.visible = c !== null;
    this.label.style.display = c ? 'block' : 'none';
    if (!c) return;
    const p = this.line.geometry.getAttribute('position') as BufferAttribute;
    p.setXYZ(0, c.a_point[0], c.a_point[1], c.a_point[2]);
    p.setXYZ(1, c.b_point[0], c.b_point[1], c.b_point[2]);
    p.needsUpdate = true;
    this.line.geometry.computeBoundingSphere();
    const color = c.touching ? TOUCH : CLEAR;
    (this.line.material as LineBasicMaterial).color.setHex(color);
    this.label.style.color = `#${color.toString(16).padStart(6, '0')}`;
    this.label.textContent = `${c.pair.replace(':', ' – ')}: ${c.touching && c.distance <= 0 ? `touching, ${(-c.distance).toFixed(1)} mm deep` : `${c.distance.toFixed(1)} mm`}`;
  }

  /** The envelope a part sweeps (world axes, mm), translucent; null removes it. */
  showEnvelope(mesh: { positions: Float32Array; indices: Uint32Array } | null): void {
    if (this.envelope) { this.group.remove(this.envelope); this.envelope.geometry.dispose(); this.envelope = null; }
    if (!mesh) return;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(mesh.positions, 3));
    g.setIndex(new BufferAttribute(mesh.indices, 1));
    g.computeVertexNormals();
    this.envelope = new Mesh(g, new MeshLambertMaterial({ color: 0x7aa7ff, transparent: true, opacity: 0.25, side: DoubleSide, depthWrite: false }));
    this.envelope.name = 'envelope';
    this.group.add(this.envelope);
  }

  private placeLabel(): void {
    const c = this.shown;
    if (!c) return;
    const mid: [number, number, number] = [(c.a_point[0] + c.b_point[0]) / 2, (c.a_point[1] + c.b_point[1]) / 2, (c.a_point[2] + c.b_point[2]) / 2];
    const s = this.view.toScreen(mid);
    const box = this.view.container.getBoundingClientRect();
    this.label.style.left = `${s.x - box.left + 8}px`;
    this.label.style.top = `${s.y - box.top - 8}px`;
  }
}
