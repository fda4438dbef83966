/**
 * The viewer's render loop: a frame drawn when something changed, at most once between two
 * animation frames, and the latency of every input from its event to the frame that shows
 * it (pose: the linkage and read-outs; full: the plots too).
 */
import { recordSample } from './samples';
import type { PoseResult, SweepResult } from '../../src/index.ts';
import type { SceneView } from './scene';

/** An input not yet fully on screen: its time, whether the plots must follow, whether its pose is drawn. */
export interface PendingInput { time: number; needsSweep: boolean; poseDone: boolean }

/** What the loop uses of the viewer. */
export interface RenderHost {
  readonly scene: Pick<SceneView, 'render'>;
  readonly stats: { readonly renderMs: number[]; readonly pose: number[]; readonly full: number[] };
  readonly lastPose: PoseResult | null;
  readonly lastSweep: SweepResult | null;
  /** Inputs not yet fully on screen, by the live model's request seq. */
  readonly inputs: Map<number, PendingInput>;
  readonly shownPose: number;
  readonly shownSweep: number;
  ready: boolean;
}

export class RenderLoop {
  private frameRequested = false;
  private drawnThisFrame = false;
  dirty = true;

  constructor(private readonly app: RenderHost) {}

  invalidate(): void {
    this.dirty = true;
    this.requestFrame();
  }

  requestFrame(): void {
    if (this.frameRequested) return;
    this.frameRequested = true;
    requestAnimationFrame(() => {
      this.frameRequested = false;
      this.drawnThisFrame = false;
      this.frame();
    });
  }

  /**
   * Draw a result at once (it is already a frame late: it waited for its frame to be
   * requested), but at most once between two animation frames: the screen shows one
   * frame per refresh, and a second draw before it (the sweep right after the pose)
   * would only double the GPU's work; the next frame draws it instead.
   */
  renderNow(): void {
    this.dirty = true;
    if (!this.drawnThisFrame) {
      this.frame();
      this.drawnThisFrame = true;
    }
    this.requestFrame();
  }

  frame(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const start = performance.now();
    this.app.scene.render();
    const now = performance.now();
    recordSample(this.app.stats.renderMs, now - start);
    this.recordShown(now);
    if (!this.app.ready && this.app.lastPose && (this.app.lastSweep || !this.app.lastPose.suspension)) {
      this.app.ready = true;
      document.body.dataset.ready = 'true';
    }
  }

  /**
   * Latency of every input now drawn, or superseded by a newer one that is: pose = the
   * linkage and read-outs, full = also the plots (for edits, which change them).
   */
  recordShown(now: number): void {
    for (const [seq, input] of this.app.inputs) {
      if (seq > this.app.shownPose) continue;
      if (!input.poseDone) { input.poseDone = true; recordSample(this.app.stats.pose, now - input.time); }
      if (!input.needsSweep || this.app.shownSweep >= seq) { recordSample(this.app.stats.full, now - input.time); this.app.inputs.delete(seq); }
    }
  }
}
