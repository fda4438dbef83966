/**
 * Charts of curves against one swept quantity, as SVG: one panel per metric stacked
 * vertically, a shared x quantity, each geometry a colour (a baseline dashed), the design
 * point of each geometry marked. Built as a Vega-Lite spec, compiled to Vega and rendered by
 * Vega's headless SVG renderer: no DOM, no Node API, so the viewer can call the same code.
 *
 * Text is measured by Vega's estimate when no canvas is at hand (Node): labels are placed
 * from that estimate, which is close for the sans-serif fonts a renderer falls back to.
 */
import type { TopLevelSpec } from 'vega-lite';

/** One curve: y against x, one value per state; null where the metric is undefined. */
export interface Curve {
  /** The geometry (or model) it belongs to: its legend entry. */
  readonly source: string;
  readonly x: readonly number[];
  readonly y: readonly (number | null)[];
  /** Drawn dashed (a baseline). */
  readonly dashed?: boolean;
}

/** A marked point: the design state of a source. */
export interface DesignPoint {
  readonly source: string;
  readonly x: number;
  readonly y: number;
}

export interface Panel {
  /** The y axis title, with its unit: `camber (°)`. */
  readonly yTitle: string;
  readonly curves: readonly Curve[];
  readonly design?: readonly DesignPoint[];
}

export interface Chart {
  /** The x axis title, with its unit: `wheel travel (mm)`. */
  readonly xTitle: string;
  readonly panels: readonly Panel[];
  readonly title?: string;
}

export interface ChartSize {
  /** Outer width of the picture in px (SVG user units = PNG pixels). Default 720. */
  readonly width?: number;
  /** Outer height in px. Default 60 + 220 per panel. */
  readonly height?: number;
}

/** Room around the plotting area that Vega's axes, titles and legend take (px, estimated). */
const MARGIN = { left: 62, right: 18, top: 44, perPanel: 38 } as const;
/** Solid for the current geometry, dashed for a baseline (SVG dash arrays). */
const SOLID = [1, 0], DASHED = [7, 4];

/** The chart's default size: `width` 720, `height` 60 + 220 per panel. */
export function chartSize(chart: Chart, size: ChartSize = {}): { width: number; height: number } {
  return { width: size.width ?? 720, height: size.height ?? 60 + 220 * chart.panels.length };
}

/**
 * The Vega-Lite spec of a chart (exported for tests and for anyone who wants to restyle it).
 * Each panel is a layer of its curves (one line each: colour by source, dashed by flag) and
 * its design points; the panels are concatenated vertically with independent y scales.
 */
export function chartSpec(chart: Chart, size: ChartSize = {}): TopLevelSpec {
  const { width, height } = chartSize(chart, size);
  const n = Math.max(1, chart.panels.length);
  const panelWidth = Math.max(80, width - MARGIN.left - MARGIN.right);
  const panelHeight = Math.max(40, (height - MARGIN.top - MARGIN.perPanel * n) / n);
  const sources = [...new Set(chart.panels.flatMap((p) => p.curves.map((c) => c.source)))];
  const dashedSources = new Set(chart.panels.flatMap((p) => p.curves.filter((c) => c.dashed).map((c) => c.source)));
  const color = { field: 'source', type: 'nominal', title: null, scale: { domain: sources } } as const;
  const strokeDash = {
    field: 'source', type: 'nominal', title: null,
    scale: { domain: sources, range: sources.map((s) => (dashedSources.has(s) ? DASHED : SOLID)) },
  } as const;
  const panels = chart.panels.map((panel, index) => {
    const rows = panel.curves.flatMap((curve, k) => curve.x.map((x, i) => ({ source: curve.source, curve: k, i, x, y: curve.y[i] ?? null })));
    const xAxis = { field: 'x', type: 'quantitative', title: index === n - 1 ? chart.xTitle : null, scale: { zero: false } } as const;
    const yAxis = { field: 'y', type: 'quantitative', title: panel.yTitle, scale: { zero: false } } as const;
    const layers: object[] = [{
      data: { values: rows },
      // a null breaks the line instead of joining across the gap
      mark: { type: 'line', strokeWidth: 1.75, invalid: 'break-paths-show-path-domains' },
      encoding: { x: xAxis, y: yAxis, color, strokeDash, detail: { field: 'curve', type: 'nominal' }, order: { field: 'i', type: 'quantitative' } },
    }];
    if (panel.design && panel.design.length > 0) {
      layers.push({
        data: { values: panel.design.map((d) => ({ source: d.source, x: d.x, y: d.y })) },
        mark: { type: 'point', shape: 'circle', filled: true, size: 55, opacity: 1, stroke: 'white', strokeWidth: 1 },
        encoding: { x: xAxis, y: yAxis, color },
      });
    }
    return { width: panelWidth, height: panelHeight, layer: layers };
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...(chart.title ? { title: { text: chart.title, anchor: 'start' } } : {}),
    background: 'white',
    padding: 8,
    vconcat: panels,
    resolve: { scale: { y: 'independent' } },
    config: {
      font: 'sans-serif',
      legend: { orient: 'top', direction: 'horizontal', symbolType: 'stroke', symbolStrokeWidth: 2, labelLimit: 400 },
      axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#e6e6e6' },
      range: { category: ['#1f5fbf', '#d9700f', '#2a9d4a', '#b8336a', '#6a4fb3'] },
    },
  } as TopLevelSpec;
}

/**
 * The chart as an SVG document of exactly `width` × `height` px (the drawing is scaled to
 * fit and centred when Vega's own layout comes out a little larger or smaller).
 */
export async function chartSvg(chart: Chart, size: ChartSize = {}): Promise<string> {
  const { width, height } = chartSize(chart, size);
  // imported here, not at the top: vega is ES-module only, and the built command (CommonJS, see bin/load-command.js) can load it only with import()
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new View(parse(compile(chartSpec(chart, size)).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return fitSvg(svg, width, height);
  } finally {
    view.finalize();
  }
}

/** Rewrites the root element's size to width × height, keeping Vega's viewBox (centred, scaled to fit). */
function fitSvg(svg: string, width: number, height: number): string {
  return svg.replace(/^<svg([^>]*?) width="[^"]*" height="[^"]*"/, (_all, attributes: string) =>
    `<svg${attributes} width="${width}" height="${height}" preserveAspectRatio="xMidYMid meet"`);
}
