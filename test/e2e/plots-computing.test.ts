/**
 * While the first sweep runs the plots say they are computing (issue 27 item 13: they
 * showed empty frames with no sign of it). The solver workers' script is held back until the
 * test has looked at the page, so it is seen before any sweep has come back: each plot then
 * shows its "Computing the sweep…" line and no curve; once the sweep is drawn the line is gone.
 * (It was held for a fixed 2.5 s, which a loaded machine's page load outlasted: the line was
 * then never seen.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { ViewerServer } from '../../viewer/harness/browser';
import { HAVE_CHROMIUM, sessionBrowser, settle, viewerServer, warnIfNoChromium } from './page';

warnIfNoChromium('test/e2e/plots-computing');

describe.skipIf(!HAVE_CHROMIUM)('plots while the first sweep runs', () => {
  let server: ViewerServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([viewerServer(), sessionBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('each plot says it is computing until the first sweep is drawn, then shows its curve', async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    let held = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => { release = resolve; });
    await page.route(/solver\.worker/, async (route) => {
      held++;
      await released;
      await route.continue();
    });
    await page.goto(server!.url);
    const computing = page.locator('#plots .plot-computing');
    await computing.first().waitFor({ state: 'visible', timeout: 60_000 });
    expect(held).toBeGreaterThan(0);
    // every plot says it, and none has a curve yet
    expect(await computing.count()).toBe(3);
    for (const line of await computing.all()) expect(await line.isVisible()).toBe(true);
    expect(await page.locator('#plots').getAttribute('aria-busy')).toBe('true');
    expect(await page.evaluate(() => window.__kinemate.lastSweep)).toBeNull();
    release();

    await page.waitForFunction(() => window.__kinemate?.ready === true, null, { timeout: 60_000 });
    const s = await settle(page);
    expect(s.plot.camber.length).toBe(21);
    for (const line of await computing.all()) expect(await line.isVisible()).toBe(false);
    expect(await page.locator('#plots').getAttribute('aria-busy')).toBe('false');
    expect(errors).toEqual([]);
    await page.close();
  });
});
