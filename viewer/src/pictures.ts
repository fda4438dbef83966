/**
 * The viewer's "Save plots" and "Export glTF": the plots shown and the current sweep as
 * files, made by the same code as `kinemate plot` and `kinemate export` (src/pictures). That
 * code (Vega, glTF-Transform) is loaded on the first use (a dynamic import), so the viewer
 * starts without it. The PNG is the SVG drawn on a canvas (the command's resvg is Node-only).
 */
import type { AssemblyDoc } from '../../src/index.ts';
import type { StateJSON } from '../../src/index.ts';
import type { Chart, Curve, DesignPoint } from '../../src/pictures/index';
import type { PlotSpec, SweepResult } from '../../src/index.ts';

const loadPictures = () => import('../../src/pictures/index');

export interface PlotsInput {
  /** Legend entry of the current design: the file's name. */
  readonly source: string;
  readonly sweep: SweepResult;
  /** The pinned baseline's sweep, drawn dashed when it has the same steps. */
  readonly baseline: SweepResult | null;
  /** The metric of each plot shown, with its label and unit. */
  readonly plots: readonly PlotSpec[];
  /** The design's metrics (the design point, at zero travel). */
  readonly design: Readonly<Record<string, number | null>> | null;
}

/** The plots shown as one chart: a panel per plot, the current curve solid, the baseline dashed. */
export function plotsChart(input: PlotsInput): Chart {
  const { sweep, baseline } = input;
  const sameSteps = baseline !== null && baseline.kind === sweep.kind && baseline.travel.length === sweep.travel.length;
  return {
    xTitle: sweep.kind === 'steer' ? 'rack travel (mm)' : 'wheel travel (mm)',
    title: input.source,
    panels: input.plots.map((plot) => {
      const curves: Curve[] = [{ source: input.source, x: sweep.travel, y: sweep.series[plot.metric] ?? sweep.travel.map(() => null) }];
      if (sameSteps && baseline.series[plot.metric]) curves.push({ source: 'baseline', x: baseline.travel, y: baseline.series[plot.metric], dashed: true });
      const y = input.design?.[plot.metric];
      const design: DesignPoint[] = typeof y === 'number' && Number.isFinite(y) ? [{ source: input.source, x: 0, y }] : [];
      return { yTitle: `${plot.label} (${plot.unit})`, curves, design };
    }),
  };
}

/** The chart as SVG (Vega's SVG renderer, as the command) and as PNG (that SVG on a canvas), same size. */
export async function plotsPictures(chart: Chart): Promise<{ svg: string; png: Blob }> {
  const { chartSvg, chartSize } = await loadPictures();
  const svg = await chartSvg(chart);
  const { width, height } = chartSize(chart);
  return { svg, png: await svgToPng(svg, width, height) };
}

/** Draws an SVG document on a width × height canvas and encodes it as PNG. */
async function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image(width, height);
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas to draw the PNG on');
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas gave no PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The animated .glb of a sweep's states, as `kinemate export --gltf` builds it (25 states a second). */
export async function sweepGlb(assembly: AssemblyDoc, states: readonly StateJSON[], extras: Record<string, unknown>): Promise<Uint8Array> {
  const { assemblyScene, sceneToGlb } = await loadPictures();
  return sceneToGlb(assemblyScene(assembly, states, { interval: 1 / 25, extras }));
}
