/**
 * Live plots of the bump sweep with uPlot: a few small charts against wheel travel, each
 * showing the metric its menu picks (camber, toe and caster to start), the current wheel
 * travel as a vertical marker, and (when pinned) the baseline's curve dashed beside the
 * current one. During a drag the y ranges stay where they were (`freeze`), so the curve
 * moves and the axes do not; they rescale on release.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { PLOTTABLE, type PlotSpec, type SweepResult } from '../../src/index.ts';

export type { PlotSpec } from '../../src/index.ts';

/** Metrics that come from the steering response (the sweep then computes it at every step). */
export const needsSteeringResponse = (metric: string): boolean => metric.endsWith('_virtual');

const COLORS = ['#ff8c1a', '#3ddc84', '#5aa9ff'];
/** Metrics the viewer adds to the sweep's own (each from a worker of its own, set with `setExtra`). */
const EXTRA: readonly PlotSpec[] = [{ metric: 'clearance', label: 'Min. clearance', unit: 'mm' }];
const SPECS: readonly PlotSpec[] = [...PLOTTABLE, ...EXTRA];
export const DEFAULT_PLOTS = ['camber', 'toe_angle', 'caster'];

export class PlotPanel {
  private readonly charts: uPlot[] = [];
  private readonly slots: HTMLElement[] = [];
  private frozen: ([number, number] | null)[] = [];
  private marker: number | null = null;
  /** The swept quantity on the x axis. */
  private kind: SweepResult['kind'] = 'bump';
  private current: SweepResult | null = null;
  private baseline: SweepResult | null = null;
  /** The metric each plot shows. */
  readonly chosen: string[];
  /** The metric each plot's menu last picked (shown again when the linkage has it). */
  private readonly preferred: string[];
  /** The linkage's metrics at design (null: it has none there) and the document they belong to. */
  private design: { docKey: number; metrics: Record<string, number | null> } | null = null;
  /** The metrics the menus offer now (joined), so they are rewritten only when it changes. */
  private offered = '';
  /** The viewer's own metrics over the sweep (the clearance), by metric. */
  private readonly extra = new Map<string, { travel: number[]; values: (number | null)[] }>();
  /** An added metric is put in the last plot the first time it comes (once per page). */
  private readonly extraShown = new Set<string>();
  /** Called after a redraw (the benchmark times it). */
  onDraw: (() => void) | null = null;
  /** Called when a plot's menu picks another metric. */
  onChoose: ((chosen: readonly string[]) => void) | null = null;

  constructor(readonly container: HTMLElement, chosen: readonly string[] = DEFAULT_PLOTS) {
    this.chosen = [...chosen];
    this.preferred = [...chosen];
    this.chosen.forEach((metric, index) => {
      const slot = document.createElement('div');
      slot.className = 'plot';
      slot.dataset.metric = metric;
      const menu = document.createElement('select');
      menu.className = 'plot-metric';
      menu.title = 'The metric this plot shows over the bump sweep';
      for (const spec of SPECS) {
        const o = document.createElement('option');
        o.value = spec.metric;
        o.textContent = `${spec.label} (${spec.unit})`;
        menu.appendChild(o);
      }
      menu.value = metric;
      menu.addEventListener('change', () => { this.choose(index, menu.value); menu.blur(); });
      menu.addEventListener('change', () => { this.preferred[index] = menu.value; });
      slot.appendChild(menu);
      // while the first sweep runs the chart has no curve: it says so instead of showing an empty frame
      const computing = document.createElement('div');
      computing.className = 'plot-computing';
      computing.textContent = 'Computing the sweep…';
      slot.appendChild(computing);
      // the value under the pointer, read off the curve (no legend: the plots are small)
      const readout = document.createElement('span');
      readout.className = 'plot-readout';
      slot.appendChild(readout);
      container.appendChild(slot);
      this.slots.push(slot);
      this.frozen.push(null);
      this.charts.push(this.makeChart(index));
    });
    new ResizeObserver(() => this.resize()).observe(container);
  }

  /**
   * A sweep is asked for (true) or every one asked for is answered (false). While one is on
   * its way and no curve is drawn yet (the first sweep of the page), each plot says it is
   * computing (issue 27 item 13); a drag's sweeps redraw curves already there, unmarked.
   */
  setComputing(pending: boolean): void {
    const computing = pending && this.current === null;
    if (this.container.classList.contains('computing') === computing) return;
    this.container.classList.toggle('computing', computing);
    this.container.setAttribute('aria-busy', String(computing));
  }

  private spec(metric: string): PlotSpec {
    return SPECS.find((s) => s.metric === metric) ?? { metric, label: metric, unit: '' };
  }

  private width(): number {
    return Math.max(200, this.container.clientWidth - 4);
  }

  private makeChart(index: number): uPlot {
    const spec = this.spec(this.chosen[index]);
    const opts: uPlot.Options = {
      width: this.width(),
      height: 130,
      legend: { show: false },
      cursor: { show: true, x: true, y: false, points: { show: false }, drag: { x: false, y: false } },
      padding: [8, 10, 0, 0],
      scales: {
        x: { time: false },
        y: { range: (_u, min, max) => this.frozen[index] ?? padRange(min, max) },
      },
      axes: [
        { stroke: '#9aa7b5', grid: { stroke: '#2a323c' }, ticks: { stroke: '#2a323c' }, size: 28, label: this.kind === 'steer' ? 'rack travel (mm)' : 'wheel travel (mm)', labelSize: 14, font: '10px sans-serif', labelFont: '10px sans-serif' },
        { stroke: '#9aa7b5', grid: { stroke: '#2a323c' }, ticks: { stroke: '#2a323c' }, size: 46, label: `${spec.label} (${spec.unit})`, labelSize: 14, font: '10px sans-serif', labelFont: '10px sans-serif' },
      ],
      series: [
        {},
        { label: spec.label, stroke: COLORS[index % COLORS.length], width: 2, spanGaps: false, points: { show: false } },
        { label: `${spec.label} (baseline)`, stroke: '#c8d0da', width: 1.5, dash: [5, 4], points: { show: false } },
      ],
      hooks: {
        setCursor: [
          (u) => {
            const readout = this.slots[index].querySelector<HTMLElement>('.plot-readout');
            if (!readout) return;
            const i = u.cursor.idx;
            const x = u.data[0]?.[i ?? -1], y = u.data[1]?.[i ?? -1];
            readout.textContent = i === null || i === undefined || typeof x !== 'number' || typeof y !== 'number'
              ? ''
              : `${x.toFixed(1)} mm: ${y.toFixed(Math.abs(y) < 0.1 ? 5 : 3)} ${spec.unit}`;
          },
        ],
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
    return new uPlot(opts, this.dataFor(index), this.slots[index]);
  }

  /**
   * The metrics this linkage has: those with a value at design or at some step of its
   * sweep (a trailing arm has no steering axis, so no caster). The menus offer only those;
   * a plot whose metric is missing shows the next one it has, and goes back to its own
   * when a linkage has it again.
   */
  offer(docKey: number, designMetrics: Record<string, number | null>): void {
    this.design = { docKey, metrics: designMetrics };
    this.updateOffer();
  }

  private updateOffer(): void {
    if (!this.design) return;
    // only with this document's sweep: a drag's new document shows its pose before its
    // sweep, and an offer from the pose alone would flip the menus at every frame
    const sweep = this.current?.docKey === this.design.docKey ? this.current : null;
    if (!sweep) return;
    const has = (metric: string) => {
      // loads come with the loads panel's case: every suspension has them (a sweep computes them once picked)
      if (metric.startsWith('loads.')) return true;
      if (EXTRA.some((e) => e.metric === metric)) return this.extra.has(metric);
      const v = this.design!.metrics[metric];
      if (v !== null && v !== undefined) return true;
      return sweep.series[metric]?.some((x) => x !== null) ?? !(metric in this.design!.metrics);
    };
    const available = SPECS.map((p) => p.metric).filter(has);
    // the menus change only when the offer does (not at every sweep of a drag)
    const key = available.join(',');
    if (key !== this.offered) {
      this.offered = key;
      this.slots.forEach((slot) => {
        slot.querySelectorAll('option').forEach((o) => { o.hidden = o.disabled = !available.includes(o.value); });
      });
    }
    const shown = new Set<string>();
    this.preferred.forEach((metric, index) => {
      const want = available.includes(metric) && !shown.has(metric) ? metric : available.find((m) => !shown.has(m) && !this.preferred.includes(m)) ?? metric;
      shown.add(want);
      if (want !== this.chosen[index]) this.choose(index, want);
    });
  }

  /** Show another metric in plot `index` (its chart is made anew: axis label, range). */
  choose(index: number, metric: string): void {
    if (this.chosen[index] === metric) return;
    this.chosen[index] = metric;
    this.slots[index].dataset.metric = metric;
    const menu = this.slots[index].querySelector('select');
    if (menu && menu.value !== metric) menu.value = metric;
    this.charts[index].destroy();
    this.frozen[index] = null;
    this.charts[index] = this.makeChart(index);
    this.onChoose?.(this.chosen);
    this.onDraw?.();
  }

  /** Whether a chosen metric needs the steering response at every step. */
  needsSteering(): boolean {
    return this.chosen.some(needsSteeringResponse);
  }

  /** Whether a chosen metric is a load (wheel rate, motion ratio, a force): the sweep then evaluates the loads at every step. */
  needsLoads(): boolean {
    return this.chosen.some((m) => m.startsWith('loads.'));
  }

  /** Whether a chosen metric is a derivative (camber gain, bump steer). */
  needsDerivatives(): boolean {
    return this.chosen.some((m) => m.startsWith('deriv_') || m.startsWith('axle.deriv_'));
  }

  private resize(): void {
    const w = this.width();
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
    this.updateOffer();
    if (sweep && sweep.kind !== this.kind) {
      // another swept quantity: new x axes (label, range)
      this.kind = sweep.kind;
      this.charts.forEach((c, i) => { c.destroy(); this.frozen[i] = null; this.charts[i] = this.makeChart(i); });
    }
    this.redraw();
  }

  /**
   * One of the viewer's own metrics over the sweep (null: this document has none). The
   * first time one comes it takes the last plot, where the designer sees it without asking.
   */
  setExtra(metric: string, data: { travel: number[]; values: (number | null)[] } | null): void {
    if (data) this.extra.set(metric, data);
    else this.extra.delete(metric);
    if (data && !this.extraShown.has(metric)) {
      this.extraShown.add(metric);
      const last = this.chosen.length - 1;
      if (!this.chosen.includes(metric)) { this.preferred[last] = metric; this.choose(last, metric); }
    }
    this.updateOffer();
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

  /** The plotted data (for tests): per chosen metric, the current curve. */
  data(): Record<string, (number | null)[]> {
    const out: Record<string, (number | null)[]> = {};
    for (const metric of this.chosen) out[metric] = this.current?.series[metric] ?? this.extra.get(metric)?.values ?? [];
    return out;
  }

  private dataFor(index: number): uPlot.AlignedData {
    const s = this.current, metric = this.chosen[index];
    const x = s ? s.travel : [];
    // an added metric's curve is drawn on the sweep's travel when it has its steps (during a
    // drag it may be a sweep behind: drawn still, rather than flickering off)
    const e = this.extra.get(metric);
    const y = s ? s.series[metric] ?? (e && e.travel.length === x.length && e.travel[0] === x[0] && e.travel.at(-1) === x.at(-1) ? e.values : x.map(() => null)) : [];
    const b = this.baseline && this.baseline.kind === s?.kind && this.baseline.travel.length === x.length ? this.baseline.series[metric] ?? x.map(() => null) : x.map(() => null);
    return [x, y, b] as uPlot.AlignedData;
  }

  private redraw(): void {
    this.charts.forEach((chart, i) => chart.setData(this.dataFor(i), true));
    this.onDraw?.();
  }
}

function padRange(min: number | null, max: number | null): [number, number] {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [-1, 1];
  const span = max - min;
  const pad = Math.max(span * 0.12, 0.05);
  return [min - pad, max + pad];
}
