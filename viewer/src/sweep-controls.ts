/**
 * The plots' sweep controls: which sweep (bump or steer), its range and steps, each kind
 * keeping its own range, a bad entry named and put back, and where the pose shown sits on
 * the plots' x axis.
 */
import type { PoseResult, SweepKind } from '../../src/index.ts';
import type { PlotPanel } from './plots';

export type SweepRange = { start: number; stop: number; steps: number };
/** The plots' sweep to start with: wheel travel ±50 mm, rack travel ±30 mm, 21 states. */
export const SWEEP_DEFAULTS: Readonly<Record<SweepKind, SweepRange>> = { bump: { start: -50, stop: 50, steps: 21 }, steer: { start: -30, stop: 30, steps: 21 } };

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** What the controls use of the viewer. */
export interface SweepControlsHost {
  readonly lastPose: PoseResult | null;
  readonly plots: Pick<PlotPanel, 'setMarker'>;
  requestSweep(): void;
  showError(text: string): void;
  hideError(): void;
}

export class SweepControls {
  constructor(private readonly app: SweepControlsHost) {}

  kind(): SweepKind {
    return ($('sweep-kind') as HTMLSelectElement).value === 'steer' ? 'steer' : 'bump';
  }

  /** The range each kind of sweep had when the other was picked (bump and steer keep their own). */
  private readonly ranges: Record<SweepKind, SweepRange> = { bump: { ...SWEEP_DEFAULTS.bump }, steer: { ...SWEEP_DEFAULTS.steer } };

  /** The kind whose range the inputs hold. */
  private rangeKind: SweepKind = 'bump';

  setKind(kind: SweepKind, range?: SweepRange): void {
    if (this.rangeKind !== kind) this.ranges[this.rangeKind] = this.range();
    this.rangeKind = kind;
    ($('sweep-kind') as HTMLSelectElement).value = kind;
    const r = range ?? this.ranges[kind];
    ($('sweep-from') as HTMLInputElement).value = String(r.start);
    ($('sweep-to') as HTMLInputElement).value = String(r.stop);
    ($('sweep-steps') as HTMLInputElement).value = String(r.steps);
    if (this.app.lastPose) this.app.plots.setMarker(this.markerOf(this.app.lastPose));
    this.app.requestSweep();
  }

  /** The last range the inputs held that was a range (what a bad entry goes back to). */
  goodRange: SweepRange | null = null;

  /** A sweep input changed: a bad entry is named and put back, a good one sweeps. */
  onInput(): void {
    const read = (id: string) => { const input = $(id) as HTMLInputElement; return input.value.trim() === '' ? NaN : Number(input.value); };
    const from = read('sweep-from'), to = read('sweep-to'), steps = read('sweep-steps');
    const problem = !Number.isFinite(from) ? 'the sweep\'s start is not a number'
      : !Number.isFinite(to) ? 'the sweep\'s end is not a number'
      : from === to ? `the sweep starts and ends at ${from} mm: it needs a range`
      : !Number.isInteger(steps) || steps < 2 || steps > 201 ? 'the sweep\'s steps must be a whole number from 2 to 201'
      : null;
    if (problem) {
      const back = this.goodRange ?? SWEEP_DEFAULTS[this.kind()];
      this.app.showError(`Sweep refused — ${problem}; it stays ${back.start} to ${back.stop} mm in ${back.steps} steps.`);
      ($('sweep-from') as HTMLInputElement).value = String(back.start);
      ($('sweep-to') as HTMLInputElement).value = String(back.stop);
      ($('sweep-steps') as HTMLInputElement).value = String(back.steps);
      return;
    }
    this.app.hideError();
    this.app.requestSweep();
  }

  /** Where the current pose is on the plots' x axis. */
  markerOf(result: PoseResult): number | null {
    if (!result.suspension) return null;
    return this.kind() === 'steer' ? result.view.rack : result.view.travel[0] ?? 0;
  }

  range(): SweepRange {
    // an empty or zero-length range falls back to this kind's defaults
    const fallback = SWEEP_DEFAULTS[this.kind()];
    const num = (id: string, d: number) => { const input = $(id) as HTMLInputElement; const v = Number(input.value); return input.value.trim() !== '' && Number.isFinite(v) ? v : d; };
    const start = num('sweep-from', fallback.start), stop = num('sweep-to', fallback.stop);
    const steps = Math.max(2, Math.min(201, Math.round(num('sweep-steps', fallback.steps))));
    return start === stop ? { start: fallback.start, stop: fallback.stop, steps } : { start, stop, steps };
  }
}
