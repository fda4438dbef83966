/**
 * `kinemate report` and `kinemate plot` in headless Chromium (a browser test: the `e2e` project, so
 * `npm test` and CI run it and `npm run test:fast` leaves it out, as it does the viewer's): the
 * report opens with no console error and no request, its numbers kinemate sweep's — the key
 * metrics at design, the hardpoints of the file (and their differences from a baseline), the CSV
 * download byte for byte; a plot's SVG parses as an SVG document. On the run's Chromium
 * (test/setup/viewer-server.ts), not one started for this file (~1–3 s of CPU a start).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumAvailable } from '../../viewer/harness/browser.ts';
import { parseGeometry } from '../../src/index.ts';
import { tempFolder } from '../cli/helpers.ts';
import { DW, run, sweepJson, writeBaseline } from './helpers.ts';
import { sessionBrowser } from '../e2e/page.ts';

const temp = tempFolder();
afterAll(() => temp.remove());

describe.skipIf(!chromiumAvailable())('the pictures in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => { browser = await sessionBrowser(); }, 60_000);
  afterAll(async () => { await browser?.close(); });

  it('the report opens without console errors or requests, with the numbers of kinemate sweep', async () => {
    const baseline = writeBaseline(temp.file('raised.yaml'));
    const out = temp.file('report.html');
    expect(await run(['report', DW, '--baseline', baseline, '--out', out])).toMatchObject({ code: 0, stderr: '' });
    const html = readFileSync(out, 'utf8');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//); // nothing to fetch
    const page = await browser.newPage();
    try {
      const problems: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`); });
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('request', (request) => { if (request.url() !== pathToFileURL(out).href) problems.push(`request: ${request.url()}`); });
      await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
      const seen = await page.evaluate(() => ({
        metrics: Object.fromEntries(Array.from(document.querySelectorAll('#key-metrics tr[data-metric]')).map((row) => [
          row.getAttribute('data-metric')!, Array.from(row.querySelectorAll('[data-value]')).map((cell) => Number(cell.getAttribute('data-value'))),
        ])),
        hardpoints: Object.fromEntries(Array.from(document.querySelectorAll('#hardpoints tbody tr')).map((row) => [
          (row as HTMLTableRowElement).cells[0].textContent!, Array.from(row.querySelectorAll('[data-value]')).map((cell) => Number(cell.getAttribute('data-value'))),
        ])),
        changed: Array.from(document.querySelectorAll('#hardpoints td.changed')).map((cell) => `${(cell.parentElement as HTMLTableRowElement).cells[0].textContent} ${cell.textContent}`),
        csv: (document.querySelector('a#csv') as HTMLAnchorElement).href,
        download: (document.querySelector('a#csv') as HTMLAnchorElement).download,
        charts: document.querySelectorAll('figure svg').length,
        curves: Array.from(document.querySelectorAll('figure svg')).map((svg) => svg.querySelectorAll('g.mark-line path').length),
        diagnostics: document.querySelector('#diagnostics')!.textContent,
      }));
      expect(problems).toEqual([]);
      // key metrics at design = kinemate sweep's at zero travel (the default bump's middle step), both geometries
      const [mine, theirs] = [(await sweepJson(DW, [])).sweeps.bump.steps[5], (await sweepJson(baseline, [])).sweeps.bump.steps[5]];
      expect(mine.drivers.wheel_center_z - (await sweepJson(DW, ['--bump', '0:0:1'])).sweeps.bump.steps[0].drivers.wheel_center_z).toBe(0);
      for (const name of ['camber', 'toe_angle', 'caster', 'kpi', 'scrub_radius', 'mechanical_trail', 'half_track', 'deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z']) {
        const [value, base, difference] = seen.metrics[name];
        expect(Math.abs(value - (mine.metrics[name] as number)), name).toBeLessThan(1e-9);
        expect(Math.abs(base - (theirs.metrics[name] as number)), `${name} (baseline)`).toBeLessThan(1e-9);
        expect(difference, name).toBeUndefined(); // the difference column is rounded text, not a data value
      }
      // at design only the gains depend on a chassis pickup: the baseline really differs there
      expect(Math.abs(seen.metrics.deriv_camber_wrt_hub_z[0] - seen.metrics.deriv_camber_wrt_hub_z[1])).toBeGreaterThan(1e-4);
      // the hardpoints are the file's, and the one moved point is marked with its difference
      const geometry = parseGeometry(readFileSync(DW, 'utf8'));
      for (const [name, p] of Object.entries(geometry.corners[0].hardpoints)) expect(seen.hardpoints[name], name).toEqual([...p]);
      expect(seen.changed).toEqual(['upper_wishbone_inboard_front 500.000 -25.000']);
      // the CSV download is kinemate sweep --format csv, byte for byte
      const csv = await run(['sweep', DW, '--format', 'csv']);
      expect(decodeURIComponent(seen.csv.slice(seen.csv.indexOf(',') + 1))).toBe(csv.stdout);
      expect(seen.download).toBe('double_wishbone-bump.csv');
      // the standard curves, each with the baseline beside it; no problems in the sweep
      expect(seen.charts).toBeGreaterThanOrEqual(4);
      expect(seen.curves.every((n) => n >= 2 && n % 2 === 0)).toBe(true);
      expect(seen.diagnostics).toMatch(/^No problems/);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('a plot\'s SVG parses as an SVG document', async () => {
    const out = temp.file('browser.svg');
    expect((await run(['plot', DW, '--bump', '-50:50:11', '--metric', 'camber', '--metric', 'toe_angle', '--out', out])).code).toBe(0);
    const page = await browser.newPage();
    try {
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        return { error: doc.getElementsByTagName('parsererror').length, root: doc.documentElement.namespaceURI, lines: doc.querySelectorAll('g.mark-line path').length };
      }, readFileSync(out, 'utf8'));
      expect(parsed).toEqual({ error: 0, root: 'http://www.w3.org/2000/svg', lines: 2 });
    } finally {
      await page.close();
    }
  }, 60_000);
});
