/**
 * A run's energy budget and tyre forces against time, with the time shown as a red line:
 * the corner models' Simulate panel and the vehicle's playback draw the same two charts.
 * The frames come from the run's Playback model; `update` redraws from them (mark them
 * dirty as frames arrive), `redraw` only moves the time line.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import './playback.css';
import type { Playback, PlaybackFrame } from '../../src/index.ts';

export const ENERGY_SERIES = [
  { key: 'kinetic', label: 'kinetic', stroke: '#5aa9ff' },
  { key: 'potential', label: 'gravity', stroke: '#3ddc84' },
  { key: 'elastic', label: 'elastic', stroke: '#f2c94c' },
  { key: 'dissipated', label: 'dissipated', stroke: '#ff8c1a' },
  { key: 'external', label: 'external work', stroke: '#b36bff' },
  { key: 'total', label: 'total', stroke: '#ffffff' },
] as const;
const TYRE_COLORS = ['#ff5a5a', '#27c3d9', '#f2c94c', '#3ddc84'];
const HEIGHT = 140;

export class RunPlots {
  private readonly energy: uPlot;
  private readonly tyre: uPlot;
  private tyreSeries = 0;
  /** New frames arrived: the next render sets the charts' data again. */
  dirty = false;

  /** `energyEl` and `tyreEl` hold the charts (the tyre one is hidden while a run has no tyres). */
  constructor(private readonly model: Playback, private readonly energyEl: HTMLElement, private readonly tyreEl: HTMLElement, private readonly width: () => number) {
    this.energy = this.chart(energyEl, 'energy (J)', ENERGY_SERIES.map((s) => ({ label: s.label, stroke: s.stroke })));
    this.tyre = this.chart(tyreEl, 'tyre force (N)', []);
  }

  private chart(el: HTMLElement, label: string, series: { label: string; stroke: string }[]): uPlot {
    const axis = { stroke: '#9aa7b5', grid: { stroke: '#2a323c' }, ticks: { stroke: '#2a323c' }, labelSize: 14, font: '10px sans-serif', labelFont: '10px sans-serif' };
    return new uPlot({
      width: this.width(), height: HEIGHT,
      legend: { show: true, live: false },
      cursor: { show: false },
      padding: [8, 10, 0, 0],
      scales: { x: { time: false } },
      axes: [{ ...axis, size: 28, label: 't (s)' }, { ...axis, size: 50, label }],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.stroke, width: 1.5, points: { show: false } }))],
      hooks: {
        draw: [(u) => {
          // the time shown
          if (this.model.frames.length === 0) return;
          const x = u.valToPos(this.model.time, 'x', true);
          u.ctx.save();
          u.ctx.strokeStyle = '#ff5a5a';
          u.ctx.lineWidth = 1.5 * (window.devicePixelRatio || 1);
          u.ctx.beginPath(); u.ctx.moveTo(x, u.bbox.top); u.ctx.lineTo(x, u.bbox.top + u.bbox.height); u.ctx.stroke();
          u.ctx.restore();
        }],
      },
    }, [[]], el);
  }

  resize(): void {
    for (const c of [this.energy, this.tyre]) c.setSize({ width: this.width(), height: HEIGHT });
  }

  /** Sets the data again where frames arrived, else moves the time line. */
  render(): void {
    if (this.dirty) this.update();
    else { this.energy.redraw(false); if (this.tyreSeries) this.tyre.redraw(false); }
  }

  private update(): void {
    this.dirty = false;
    const f = this.model.frames as PlaybackFrame[], tyres = this.model.header?.tyres ?? [];
    const t = f.map((x) => x.t);
    this.energy.setData([t, ...ENERGY_SERIES.map((s) => f.map((x) => x.energy[s.key]))]);
    this.tyreEl.hidden = tyres.length === 0;
    if (tyres.length !== this.tyreSeries) {
      while (this.tyre.series.length > 1) this.tyre.delSeries(1);
      tyres.forEach((id, i) => this.tyre.addSeries({ label: id, stroke: TYRE_COLORS[i % TYRE_COLORS.length], width: 1.5, points: { show: false } }));
      this.tyreSeries = tyres.length;
    }
    if (tyres.length) this.tyre.setData([t, ...tyres.map((_, i) => f.map((x) => x.tyres[i]))]);
  }

  /** For tests: the points plotted. */
  points(): { energy: number; tyre: number } {
    return { energy: this.energy.data[0]?.length ?? 0, tyre: this.tyreSeries ? this.tyre.data[0]?.length ?? 0 : 0 };
  }
}
