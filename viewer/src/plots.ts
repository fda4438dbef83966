/**
 * Live plots of the bump sweep with uPlot: one small chart per metric against wheel
 * travel, the current wheel travel as a vertical marker, and (when pinned) the baseline's
 * curve dashed beside the current one. During a drag the y ranges stay where they were
 * (`freeze`), so the curve moves and the axes do not; they rescale on release.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { SweepResult } from './engine';

export interface PlotSpec {
  metric: string;
  label: string;
  unit: string;
  color: string;
}

export const PLOTS: readonly PlotSpec[] = [
  { metric: 'camber', label: 'Camber', unit: '°', color: '#ff8c1a' },
  { metric: 'toe_angle', label: 'Toe', unit: '°', color: '#3ddc84' },
  { metric: 'caster', label: 'Caster', unit: '°', color: '#5aa9ff' },
];

export class PlotPanel {
  private readonly charts: uPlot[] = [];
  private frozen: ([number, number] | null)[] = [];
  private marker: number | null = null;
  private current: SweepResult | null = null;
  private baseline: SweepResult | null = null;
  /** Called after a redraw (the benchmark times it). */
  onDraw: (() => void) | null = null;

  constructor(readonly container: HTMLElement) {
    for (const spec of PLOTS) {
      const el = document.createElement('div');
      el.className = 'plot';
      el.dataset.metric = spec.metric;
      container.appendChild(el);
      const index = this.charts.length;
      const opts: uPlot.Options = {
        width: 300,
        height: 130,
        legend: { show: false },
        cursor: { show: false },
        padding: [8, 10, 0, 0],
        scales: {
          x: { time: false },
          y: { range: (_u, min, max) => this.frozen[index] ?? padRange(min, max) },
        },
        axes: [
          { stroke: '#9aa7b5', grid: { stroke: '#2a323c' }, ticks: { stroke: '#2a323c' }, size: 28, label: 'wheel travel (mm)', labelSize: 14, font: '10px sans-serif', labelFont: '10px sans-serif' },
          { stroke: '#9aa7b5', grid: { stroke: '#2a323c' }, ticks: { stroke: '#2a323c' }, size: 46, label: `${spec.label} (${spec.unit})`, labelSize: 14, font: '10px sans-serif', labelFont: '10px sans-serif' },
        ],
        series: [
          {},
          { label: spec.label, stroke: spec.color, width: 2, spanGaps: false, points: { show: false } },
          { label: `${spec.label} (baseline)`, stroke: '#c8d0da', width: 1.5, dash: [5, 4], points: { show: false } },
        ],
        hooks: {
          draw: [
            (u) => {
              if (this.marker === null) return;
              const x = u.valToPos(this.marker, 'x', true);
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = '#ff5a5a';
              ctx.lineWidth = 1.5 * (window.devicePixelRatio || 1);
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              ctx.restore();
            },
          ],
        },
      };
      this.charts.push(new uPlot(opts, [[], [], []], el));
      this.frozen.push(null);
    }
    new ResizeObserver(() => this.resize()).observe(container);
  }

  private resize(): void {
    const w = Math.max(200, this.container.clientWidth - 4);
    for (const c of this.charts) c.setSize({ width: w, height: 130 });
  }

  /** Keep the y ranges during a drag (true), or let them follow the data again (false). */
  freeze(on: boolean): void {
    this.charts.forEach((c, i) => {
      const s = c.scales.y;
      this.frozen[i] = on && s.min !== undefined && s.max !== undefined && s.min !== null && s.max !== null ? [s.min, s.max] : null;
    });
    if (!on) this.redraw();
  }

  setSweep(sweep: SweepResult | null): void {
    this.current = sweep;
    this.redraw();
  }

  setBaseline(sweep: SweepResult | null): void {
    this.baseline = sweep;
    this.redraw();
  }

  setMarker(travel: number | null): void {
    if (travel === this.marker) return;
    this.marker = travel;
    for (const c of this.charts) c.redraw(false, false);
  }

  /** The plotted data (for tests): per metric, the current curve. */
  data(): Record<string, (number | null)[]> {
    const out: Record<string, (number | null)[]> = {};
    PLOTS.forEach((spec) => { out[spec.metric] = this.current?.series[spec.metric] ?? []; });
    return out;
  }

  private redraw(): void {
    const s = this.current;
    PLOTS.forEach((spec, i) => {
      const x = s ? s.travel : [];
      const y = s ? s.series[spec.metric] ?? x.map(() => null) : [];
      const b = this.baseline && this.baseline.travel.length === x.length ? this.baseline.series[spec.metric] ?? x.map(() => null) : x.map(() => null);
      this.charts[i].setData([x, y, b] as uPlot.AlignedData, true);
    });
    this.onDraw?.();
  }
}

function padRange(min: number | null, max: number | null): [number, number] {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [-1, 1];
  const span = max - min;
  const pad = Math.max(span * 0.12, 0.05);
  return [min - pad, max + pad];
}
