/**
 * The animation-frame clock of a playback (the corner's and the vehicle's): each frame
 * advances the run by the wall time since the last (at most 0.1 s, so a hidden tab does not
 * jump) and draws, until the playback stops.
 */
import type { Playback } from '../../src/index.ts';

export class PlaybackClock {
  private raf = 0;
  private lastTick = 0;

  /** `show` draws a frame the run moved to; `render` refreshes the controls when it did not. */
  constructor(private readonly model: Playback, private readonly show: () => void, private readonly render: () => void) {}

  /** Starts ticking from now (a no-op for the loop while one is already scheduled). */
  start(): void {
    this.lastTick = performance.now();
    this.loop();
  }

  private loop(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame((now) => {
      this.raf = 0;
      const dt = Math.min(0.1, Math.max(0, (now - this.lastTick) / 1000));
      this.lastTick = now;
      if (this.model.tick(dt)) this.show();
      else this.render();
      if (this.model.playing) this.loop();
    });
  }
}
