/**
 * `kinemate plot`: the SVG is a real SVG with one path per curve, a point per state, at
 * places that are an affine image of the sweep's own numbers (that it parses in Chromium too is
 * report.test.ts's, in the report's browser); the PNG has the asked size and its labels are
 * drawn; bad options are refused with a clear message.
 */
import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePng } from '../../viewer/harness/png.ts';
import { svgToPng } from '../../src/cli/png.ts';
import { chartSvg, type Chart } from '../../src/pictures/plot.ts';
import { main } from '../../src/cli/main.ts';
import { REPO, memoryIO, tempFolder } from '../cli/helpers.ts';
import { DW, run, sweepJson, writeBaseline } from './helpers.ts';

const temp = tempFolder();
afterAll(() => temp.remove());

/** The line paths of the SVG (Vega draws each curve of a line mark as one path), as point lists. */
function linePaths(svg: string): { points: [number, number][]; dashed: boolean }[] {
  const groups = [...svg.matchAll(/<g class="mark-line role-mark[^>]*>(.*?)<\/g>/gs)].map((m) => m[1]);
  return groups.flatMap((group) => [...group.matchAll(/<path [^>]*?d="([^"]*)"[^>]*>/g)].map((m) => ({
    points: [...m[1].matchAll(/[ML](-?[\d.e+-]+),(-?[\d.e+-]+)/g)].map((p) => [Number(p[1]), Number(p[2])] as [number, number]),
    dashed: /stroke-dasharray="(?!1,0")[^"]+"/.test(m[0]),
  })));
}

/** Largest distance of ys from the affine function of values through the points of least and greatest value. */
function affineMisfit(ys: readonly number[], values: readonly number[]): number {
  const lo = values.indexOf(Math.min(...values)), hi = values.indexOf(Math.max(...values));
  const slope = (ys[hi] - ys[lo]) / (values[hi] - values[lo]);
  return Math.max(...ys.map((y, i) => Math.abs(ys[lo] + slope * (values[i] - values[lo]) - y)));
}

describe('kinemate plot', () => {
  it('draws a camber plot as SVG: one path per curve, a point per state, the numbers of the sweep', async () => {
    const baseline = writeBaseline(temp.file('raised.yaml'));
    const out = temp.file('camber.svg');
    const result = await run(['plot', DW, '--bump', '-40:60:21', '--metric', 'camber', '--baseline', baseline, '--out', out]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const svg = readFileSync(out, 'utf8');
    // a real SVG: resvg parses it (it throws on anything else) to the size asked
    const parsed = new Resvg(svg);
    expect([parsed.width, parsed.height]).toEqual([720, 280]);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const paths = linePaths(svg);
    expect(paths).toHaveLength(2);
    expect(paths.map((p) => p.points.length)).toEqual([21, 21]);
    expect(paths.map((p) => p.dashed)).toEqual([false, true]);
    // x: the 21 travels evenly spaced; y: an affine image of each geometry's camber from kinemate sweep
    for (const [path, file] of [[paths[0], DW], [paths[1], baseline]] as const) {
      const camber = (await sweepJson(file, ['--bump', '-40:60:21'])).sweeps.bump.steps.map((s) => s.metrics.camber as number);
      const xs = path.points.map((p) => p[0]), ys = path.points.map((p) => p[1]);
      expect(affineMisfit(xs, Array.from({ length: 21 }, (_, i) => -40 + 5 * i))).toBeLessThan(2e-3);
      expect(affineMisfit(ys, camber)).toBeLessThan(2e-3);
      expect(ys[0]).not.toBeCloseTo(ys[20], 0); // the curve is not flat: the fit means something
    }
    // the two geometries differ, so do their curves
    expect(Math.max(...paths[0].points.map((p, i) => Math.abs(p[1] - paths[1].points[i][1])))).toBeGreaterThan(1);
    // axis titles with units, the design points marked (one per geometry)
    expect(svg).toContain('>camber (°)</text>');
    expect(svg).toContain('>wheel travel (mm)</text>');
    expect([...svg.matchAll(/<g class="mark-symbol role-mark[^>]*>(.*?)<\/g>/gs)].flatMap((m) => m[1].match(/<path /g) ?? [])).toHaveLength(2);
  });

  it('writes a PNG of the size asked, with its labels drawn', async () => {
    const out = temp.file('three.png');
    const result = await run(['plot', DW, '--steer', '-30:30:31', '--metric', 'toe_angle', '--metric', 'camber', '--metric', 'caster', '--width', '640', '--height', '900', '--out', out]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const image = decodePng(readFileSync(out));
    expect([image.width, image.height]).toEqual([640, 900]);
    // not blank: a good share of the pixels are drawn (curves, grid, text)
    let inked = 0;
    for (let i = 0; i < image.data.length; i += 4) if (image.data[i] < 128) inked++;
    expect(inked).toBeGreaterThan(2000);
  });

  it('renders the text: the same chart without its text elements differs where the labels are', async () => {
    const chart: Chart = { xTitle: 'wheel travel (mm)', panels: [{ yTitle: 'camber (°)', curves: [{ source: 'a', x: [0, 1, 2], y: [0, 1, 4] }] }] };
    const svg = await chartSvg(chart, { width: 400, height: 300 });
    const withText = decodePng(svgToPng(svg)), without = decodePng(svgToPng(svg.replace(/<text[^>]*>[^<]*<\/text>/g, '')));
    let differing = 0;
    for (let i = 0; i < withText.data.length; i += 4) if (Math.abs(withText.data[i] - without.data[i]) > 64) differing++;
    expect(differing).toBeGreaterThan(300);
  });

  it('plots coordinates of a drive against the driven one', async () => {
    const out = temp.file('fourbar.svg');
    const model = `${REPO}examples/four-bar.kinemate.json`;
    const result = await run(['plot', model, '--drive', 'jA.angle', '--from', '30', '--to', '390', '--steps', '36', '--metric', 'jD.angle', '--out', out]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const svg = readFileSync(out, 'utf8');
    const paths = linePaths(svg);
    expect(paths.map((p) => p.points.length)).toEqual([37]);
    expect(svg).toContain('>jA.angle (°)</text>');
    expect(svg).toContain('>jD.angle (°)</text>');
    const drive = JSON.parse((await run(['drive', model, '--coordinate', 'jA.angle', '--from', '30', '--to', '390', '--steps', '36'])).stdout) as { steps: { state: Record<string, number> }[] };
    expect(affineMisfit(paths[0].points.map((p) => p[1]), drive.steps.map((s) => s.state['jD.angle']))).toBeLessThan(2e-3);
  });

  it('leaves a gap where a step could not be solved, writes the picture and exits with 2', async () => {
    const out = temp.file('beyond.svg');
    const result = await run(['plot', DW, '--bump', '0:600:7', '--metric', 'camber', '--out', out]);
    expect(result).toMatchObject({ code: 2, stderr: '' });
    const solved = (await run(['sweep', DW, '--bump', '0:600:7', '--format', 'json'])).stdout;
    const statuses = (JSON.parse(solved) as { sweeps: { bump: { steps: { status: string }[] } } }).sweeps.bump.steps.map((s) => s.status);
    expect(statuses).toContain('failed');
    expect(linePaths(readFileSync(out, 'utf8')).map((p) => p.points.length)).toEqual([statuses.filter((s) => s === 'solved').length]);
  });

  it('draws a progress bar on a terminal\'s stderr, and erases it', async () => {
    const io = memoryIO({ tty: true });
    expect(await main(['plot', DW, '--bump', '-50:50:11', '--metric', 'camber', '--out', temp.file('tty.svg')], io)).toBe(0);
    expect(io.written.stderr).toContain(`\rplot [${'#'.repeat(30)}] 11/11`);
    expect(io.written.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(io.written.stdout).toBe('');
  });

  it('refuses bad options with a clear message, before any work', async () => {
    const refuse = async (args: string[], message: string | RegExp) => {
      const result = await run(args);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(typeof message === 'string' ? new RegExp(`^kinemate: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) : message);
    };
    await refuse(['plot', DW, '--metric', 'camberr', '--out', temp.file('x.svg')], 'plot: --metric camberr: no such metric; the metrics are camber, toe_angle, steer_angle, caster, kpi,');
    await refuse(['plot', DW, '--metric', 'camber', '--out', temp.file('missing/x.svg')], `plot: --out "${temp.file('missing/x.svg')}": the folder "${temp.file('missing')}" does not exist`);
    await refuse(['plot', DW, '--metric', 'camber', '--out', temp.file('x.gif')], 'plot: --out');
    await refuse(['plot', DW, '--metric', 'camber'], 'plot: --out FILE.svg|FILE.png is required');
    await refuse(['plot', DW, '--out', temp.file('x.svg')], 'plot: --metric NAME is required');
    await refuse(['plot', DW, '--metric', 'camber', '--bump', '-1:1:3', '--steer', '-1:1:3', '--out', temp.file('x.svg')], 'plot: one sweep at a time (got --bump, --steer)');
    await refuse(['plot', `${REPO}examples/four-bar.kinemate.json`, '--drive', 'jA.angle', '--from', '0', '--to', '10', '--steps', '2', '--metric', 'jZ.angle', '--out', temp.file('x.svg')],
      'plot: --metric jZ.angle: no such coordinate; the coordinates are jA.angle, jB.angle, jC.angle, jD.angle');
    await refuse(['plot', `${REPO}examples/four-bar.kinemate.json`, '--drive', 'jA.angle', '--metric', 'jD.angle', '--out', temp.file('x.svg')], 'plot: --drive needs --from A --to B --steps N');
    await refuse(['plot', `${REPO}examples/four-bar.kinemate.json`, '--drive', 'jQ.angle', '--from', '0', '--to', '10', '--steps', '2', '--metric', 'jD.angle', '--out', temp.file('x.svg')],
      '--drive jQ.angle: no such coordinate in four-bar.kinemate.json; the coordinates are jA.angle, jB.angle, jC.angle, jD.angle');
    await refuse(['plot', DW, '--metric', 'camber', '--width', 'wide', '--out', temp.file('x.png')], '--width: expected a whole number');
    await refuse(['plot', DW, '--metric', 'camber', '--height', '20000', '--out', temp.file('x.png')], '--height: at most 10000 px, got 20000');
    await refuse(['plot', DW, '--metric', 'camber', '--baseline', `${REPO}examples/suspension/double_wishbone_axle.yaml`, '--out', temp.file('x.svg')],
      'plot: --metric camber: the baseline double_wishbone_axle.yaml has no such metric (a corner against an axle?)');
  });
});
