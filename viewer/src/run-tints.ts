/**
 * A played-back run's force tints (the corner models' Simulate panel and the car's): each
 * link (a distance mate) tinted by its axial force at the time shown — red in tension, blue
 * in compression, a neutral grey at none — and each moving part orange with its largest
 * joint force, both on the scale of the largest value of the run so far. The 3D view asks
 * `tint` for every rod and part it draws (SceneView.tint).
 */
import type { Playback, PlaybackFrame } from '../../src/index.ts';

const NEUTRAL = [0xd9, 0xd9, 0xd9], TENSION = [0xff, 0x3b, 0x3b], COMPRESSION = [0x3b, 0x7b, 0xff], LOADED = [0xff, 0x8c, 0x1a];

function blend(from: number[], to: number[], s: number): number {
  const k = Math.min(1, Math.max(0, s));
  return (Math.round(from[0] + (to[0] - from[0]) * k) << 16) | (Math.round(from[1] + (to[1] - from[1]) * k) << 8) | Math.round(from[2] + (to[2] - from[2]) * k);
}

/** A tint source for the 3D view: null where it has nothing to say (the view's own colour). */
export type TintFn = (kind: 'rod' | 'part', id: string) => number | null;

/** Lets a second tint source answer where the first has nothing (the corner's and the car's playback share the view). */
export function chainTint(first: TintFn, then: TintFn | null): TintFn {
  return (kind, id) => first(kind, id) ?? then?.(kind, id) ?? null;
}

export class RunTints {
  /** N: the largest |axial force| of any link, the largest joint force on any part, over the frames so far. */
  rodScale = 0;
  loadScale = 0;

  constructor(private readonly model: Playback) {}

  reset(): void { this.rodScale = this.loadScale = 0; }

  scaleFrom(frames: readonly PlaybackFrame[]): void {
    for (const f of frames) {
      for (const x of f.rods) this.rodScale = Math.max(this.rodScale, Math.abs(x));
      for (const x of f.loaded) this.loadScale = Math.max(this.loadScale, x);
    }
  }

  /** The colour of a rod or part at the time shown, or null when the run does not carry it. */
  tint(kind: 'rod' | 'part', id: string): number | null {
    const h = this.model.header;
    if (!h || this.model.frames.length === 0) return null;
    if (kind === 'rod') {
      const i = h.rods.indexOf(id);
      if (i < 0 || this.rodScale === 0) return null;
      const f = this.model.valueAt((fr) => fr.rods[i]);
      return blend(NEUTRAL, f >= 0 ? TENSION : COMPRESSION, Math.abs(f) / this.rodScale);
    }
    const i = h.loaded.indexOf(id);
    if (i < 0 || this.loadScale === 0) return null;
    return blend(NEUTRAL, LOADED, this.model.valueAt((fr) => fr.loaded[i]) / this.loadScale);
  }

  /** What the colours mean, for the run's legend. */
  legend(): string[] {
    const h = this.model.header, out: string[] = [];
    if (h?.rods.length) out.push(`links: red in tension, blue in compression (to ${this.rodScale.toFixed(0)} N)`);
    if (h?.loaded.length) out.push(`parts: orange with their largest joint force (to ${this.loadScale.toFixed(0)} N)`);
    return out;
  }
}
