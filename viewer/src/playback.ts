/**
 * Playback of a simulation: the frame buffer (frames arrive in batches while the run
 * computes), the clock (play, pause, speed), the time → frame lookup with interpolation
 * between frames, and the time slider's mapping. No DOM: the panel (playback-panel.ts)
 * drives it from animation frames, tests drive it with explicit time steps.
 */
import { splitReference } from '../../src/assembly/types';
import type { PlaybackFrame, SimulationHeader } from './simulation';
import type { CornerGeometry, PoseResult } from './engine';
import type { Vec3Tuple } from '../../src/index';

/** Where a time falls: between frame `index` and the next, `fraction` of the way (0 at the last frame). */
export interface FrameLocation { index: number; fraction: number }

/** The slider's value runs over 0…SLIDER_STEPS (any value between) for 0…duration. */
export const SLIDER_STEPS = 1000;

export class Playback {
  header: SimulationHeader | null = null;
  readonly frames: PlaybackFrame[] = [];
  /** The run's planned end (s): the slider's full length. */
  duration = 0;
  /** Every frame is here (the run finished or failed). */
  complete = false;
  /** The time shown (s). */
  time = 0;
  playing = false;
  /** Simulated seconds per wall-clock second. */
  speed = 1;

  /** A new run: the buffer emptied; the time shown is kept (clamped as frames arrive). */
  reset(duration: number, header: SimulationHeader | null = null): void {
    this.frames.length = 0;
    this.header = header;
    this.duration = duration;
    this.complete = false;
  }

  append(frames: readonly PlaybackFrame[]): void {
    for (const f of frames) this.frames.push(f);
  }

  /** The last time a frame covers (s); 0 with no frames. */
  get end(): number {
    return this.frames.length ? this.frames[this.frames.length - 1].t : 0;
  }

  get start(): number {
    return this.frames.length ? this.frames[0].t : 0;
  }

  play(): void {
    // at the end of a finished run, play starts again from the beginning
    if (this.complete && this.time >= this.end) this.time = this.start;
    this.playing = true;
  }

  pause(): void {
    this.playing = false;
  }

  /** Show time `t` (s), kept within the frames there are. */
  seek(t: number): void {
    this.time = Math.min(Math.max(t, this.start), this.end);
  }

  /**
   * Advance the clock by `wallSeconds` of real time at the speed. Past the last frame it
   * stops there: for good when the run is complete, otherwise it waits for more frames.
   * Returns whether the time shown changed.
   */
  tick(wallSeconds: number): boolean {
    if (!this.playing || this.frames.length === 0) return false;
    const before = this.time;
    const next = this.time + wallSeconds * this.speed;
    if (next >= this.end) {
      this.time = this.end;
      if (this.complete) this.playing = false;
    } else this.time = Math.max(next, this.start);
    return this.time !== before;
  }

  /** The frames on either side of `t` (binary search: frames are in time order). */
  locate(t = this.time): FrameLocation {
    const f = this.frames;
    if (f.length === 0) return { index: -1, fraction: 0 };
    if (t <= f[0].t) return { index: 0, fraction: 0 };
    if (t >= f[f.length - 1].t) return { index: f.length - 1, fraction: 0 };
    let lo = 0, hi = f.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (f[mid].t <= t) lo = mid; else hi = mid;
    }
    return { index: lo, fraction: (t - f[lo].t) / (f[hi].t - f[lo].t) };
  }

  /** A scalar of the frames at `t`, linear between frames. */
  valueAt(read: (frame: PlaybackFrame) => number, t = this.time): number {
    const { index, fraction } = this.locate(t);
    if (index < 0) return NaN;
    const a = read(this.frames[index]);
    return fraction === 0 ? a : a + (read(this.frames[index + 1]) - a) * fraction;
  }

  /**
   * Every part's pose at `t` (position, then rotation w, x, y, z): positions linear between
   * frames, rotations along the shorter arc (normalised linear blend: frames are a few
   * milliseconds apart, where it and the slerp agree to the drawing's precision).
   */
  posesAt(t = this.time): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    const { index, fraction } = this.locate(t);
    if (index < 0 || !this.header) return out;
    const a = this.frames[index].poses, b = fraction === 0 ? a : this.frames[index + 1].poses;
    this.header.parts.forEach((part, i) => {
      const p = a[i], q = b[i];
      const s = p[3] * q[3] + p[4] * q[4] + p[5] * q[5] + p[6] * q[6] < 0 ? -1 : 1;
      const pose = p.map((x, k) => x + ((k < 3 ? q[k] : s * q[k]) - x) * fraction);
      const n = Math.hypot(pose[3], pose[4], pose[5], pose[6]) || 1;
      for (let k = 3; k < 7; k++) pose[k] /= n;
      out[part] = pose;
    });
    return out;
  }

  /** The slider's value for the time shown. */
  sliderValue(t = this.time): number {
    return this.duration > 0 ? (t / this.duration) * SLIDER_STEPS : 0;
  }

  /** The time a slider value stands for, kept within the frames there are. */
  timeOfSlider(value: number): number {
    const t = (value / SLIDER_STEPS) * this.duration;
    return Math.min(Math.max(t, this.start), this.end);
  }
}

/** A point's world position under a pose [x, y, z, w, qx, qy, qz] from its part-local one, and back. */
function rotate(q: readonly number[], v: readonly number[], inverse: boolean): Vec3Tuple {
  const w = q[3], x = inverse ? -q[4] : q[4], y = inverse ? -q[5] : q[5], z = inverse ? -q[6] : q[6];
  const cx = y * v[2] - z * v[1], cy = z * v[0] - x * v[2], cz = x * v[1] - y * v[0];
  return [v[0] + 2 * (w * cx + y * cz - z * cy), v[1] + 2 * (w * cy + z * cx - x * cz), v[2] + 2 * (w * cz + x * cy - y * cx)];
}
function toLocal(pose: readonly number[], p: readonly number[]): Vec3Tuple {
  return rotate(pose, [p[0] - pose[0], p[1] - pose[1], p[2] - pose[2]], true);
}
function toWorld(pose: readonly number[], local: readonly number[]): Vec3Tuple {
  const r = rotate(pose, local, false);
  return [r[0] + pose[0], r[1] + pose[1], r[2] + pose[2]];
}

/**
 * A solved pose result with its parts moved to `poses` (a frame's): every point follows its
 * part rigidly (its local position read off the result's own pose), a wheel its upright.
 */
export function posedResult(base: PoseResult, poses: Readonly<Record<string, number[]>>): PoseResult {
  const points: Record<string, Vec3Tuple> = {};
  for (const [ref, p] of Object.entries(base.points)) {
    const part = splitReference(ref)?.owner;
    const from = part && base.poses[part], to = part && poses[part];
    points[ref] = from && to ? toWorld(to, toLocal(from, p)) : p;
  }
  const wheelPart = (i: number) => base.structure.handles.find((h) => h.kind === 'wheel' && (h.corner ?? 0) === i)?.part;
  const corners = base.corners.map((c, i): CornerGeometry => {
    const part = wheelPart(i);
    const from = part ? base.poses[part] : undefined, to = part ? poses[part] : undefined;
    if (!from || !to) return c;
    const spin = rotate(to, rotate(from, c.spin, true), false);
    // what is measured on the solved pose (axes, instant centres) is not shown moving
    return { ...c, wheelCenter: toWorld(to, toLocal(from, c.wheelCenter)), spin, contact: null, steeringAxis: null, damper: null, svic: null, fvic: null, screwAxis: null };
  });
  return { ...base, points, poses: { ...base.poses, ...poses }, corners, rollCenter: null };
}
