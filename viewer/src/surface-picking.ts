/**
 * Assemble mode on CAD geometry: the pointer over a part's surface highlights what a click
 * would pick (viewer/src/part-meshes.ts), and a click that did not grab a handle picks it:
 * the entity is added to the part (one undo entry) and taken as a pick for the mate tool.
 */
import { Vector2 } from 'three';
import type { PartMeshes, SurfaceHit } from './part-meshes';
import type { SceneView } from './scene';

export interface SurfacePickingHost {
  readonly scene: Pick<SceneView, 'camera' | 'renderer'>;
  readonly partMeshes: PartMeshes;
  readonly assemblePanel: { readonly assembling: boolean; readonly lastHandlePick: number; pickSurface(hit: SurfaceHit): void };
}

export class SurfacePicking {
  private down: { x: number; y: number; time: number } | null = null;
  hovered: SurfaceHit | null = null;

  constructor(private readonly app: SurfacePickingHost) {
    const canvas = app.scene.renderer.domElement;
    canvas.addEventListener('pointermove', (e) => this.hover(e));
    canvas.addEventListener('pointerdown', (e) => { this.down = { x: e.clientX, y: e.clientY, time: performance.now() }; }, { capture: true });
    canvas.addEventListener('pointerup', (e) => this.click(e));
    canvas.addEventListener('pointerleave', () => this.setHovered(null));
  }

  /** The part surface under a page position (CSS px), or null. */
  hitAt(clientX: number, clientY: number): SurfaceHit | null {
    const canvas = this.app.scene.renderer.domElement;
    const rect = canvas.getBoundingClientRect();
    const ndc = new Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    const camera = this.app.scene.camera;
    const perLength = (distance: number) => rect.height / (2 * distance * Math.tan((camera.fov * Math.PI) / 360));
    return this.app.partMeshes.hitAt(ndc, camera, perLength);
  }

  private hover(e: PointerEvent): void {
    if (!this.app.assemblePanel.assembling || this.app.partMeshes.meshes.size === 0) { this.setHovered(null); return; }
    if (e.buttons !== 0) return; // orbiting
    this.setHovered(this.hitAt(e.clientX, e.clientY));
  }

  private setHovered(hit: SurfaceHit | null): void {
    const same = hit && this.hovered && hit.part === this.hovered.part && hit.result.surface === this.hovered.result.surface && hit.result.feature === this.hovered.result.feature && hit.result.segments === this.hovered.result.segments;
    if (same || (!hit && !this.hovered)) return;
    this.hovered = hit;
    this.app.partMeshes.showHighlight(hit);
  }

  private click(e: PointerEvent): void {
    const down = this.down;
    this.down = null;
    if (!down || !this.app.assemblePanel.assembling || this.app.partMeshes.meshes.size === 0) return;
    if (Math.hypot(e.clientX - down.x, e.clientY - down.y) > 4) return; // an orbit, not a click
    if (this.app.assemblePanel.lastHandlePick >= down.time) return; // the click grabbed a handle: that was the pick
    const hit = this.hitAt(e.clientX, e.clientY);
    if (hit) this.app.assemblePanel.pickSurface(hit);
  }
}
