/**
 * Sensitivity arrows and fit on the whole car in Debian's headless Chromium (docs/vehicle.md,
 * "Viewer"): the sedan opened, the roll gradient's arrows drawn at its chassis pickups, then the
 * front left tyre's load at rest's (a static figure, the value the panel reads); a fit
 * of the roll gradient to 0.43 deg/g moving the rear pickups in z writes its moves into the
 * car, whose read-out then says 0.4300; Ctrl+Z takes the fit back as one edit. Then two targets
 * at once (roll gradient 0.44 deg/g and heave frequency 3.45 Hz) met by the spring and bar
 * rates alone: the axle files' rates change, the read-out says 0.4400, one Ctrl+Z takes it back.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, warnIfNoChromium } from './page';

warnIfNoChromium('test/e2e/vehicle-design');

/** Every request of the drag's and the design's workers answered, and drawn. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => { const v = window.__kinemate.vehicle; return v.active && v.settled && v.frame !== null && v.design.settled; }, null, { timeout: 120_000, polling: 100 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const figure = (page: Page, key: string) => page.locator(`#vehicle-panel [data-figure="${key}"]`).textContent();

describe.skipIf(!HAVE_CHROMIUM)('vehicle sensitivity arrows and fit in headless Chromium', () => {
  const openViewer = viewerSession();

  it('draws the roll gradient\'s and the front left load\'s arrows; fits the roll gradient to 0.43 deg/g by the rear pickups, then two targets by the rates; Ctrl+Z undoes each fit', async () => {
    const { page, errors } = await openViewer();
    await page.selectOption('#vehicle-sample', 'vehicle:sedan');
    await settled(page);
    const roll0 = Number(await figure(page, 'roll_gradient'));
    expect(roll0).toBeGreaterThan(0.44);

    await page.selectOption('#vehicle-arrows', 'vehicle.roll_gradient');
    await page.waitForFunction(() => window.__kinemate.vehicle.design.rates !== null, null, { timeout: 120_000, polling: 100 });
    await settled(page);
    const arrows = await page.evaluate(() => {
      const d = window.__kinemate.vehicle.design;
      const handles = Object.keys(window.__kinemate.vehicle.frame!.handles).length;
      return { drawn: d.drawn, rates: d.rates!.rates.length, handles, value: d.rates!.value };
    });
    expect(arrows.handles).toBeGreaterThan(20);
    expect(arrows.rates).toBe(arrows.handles);
    expect(arrows.drawn).toBeGreaterThan(20);
    expect(arrows.value).toBeCloseTo(roll0, 4);
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-design-01-roll-gradient-arrows.png') });

    // a static figure's arrows: the front left tyre's load at rest, the value the panel reads
    await page.selectOption('#vehicle-arrows', 'vehicle.front_left.contact_load');
    await page.waitForFunction(() => window.__kinemate.vehicle.design.rates?.metric === 'vehicle.front_left.contact_load', null, { timeout: 120_000, polling: 100 });
    await settled(page);
    const load = await page.evaluate(() => { const d = window.__kinemate.vehicle.design; return { drawn: d.drawn, rates: d.rates!.rates.length, value: d.rates!.value }; });
    expect(load.rates).toBe(arrows.handles);
    expect(load.drawn).toBeGreaterThan(20);
    expect(load.value).toBeCloseTo(Number(await figure(page, 'front_left.load')), -1);
    expect(await page.locator('#vehicle-arrows-note').textContent()).toMatch(/contact load \d+\.\d+ N/);
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-design-01b-front-left-load-arrows.png') });

    await page.selectOption('#vehicle-fit-metric', 'vehicle.roll_gradient');
    await page.fill('#vehicle-fit-value', '0.43');
    await page.selectOption('#vehicle-fit-axle', 'rear');
    await page.selectOption('#vehicle-fit-axes', 'z');
    await page.fill('#vehicle-fit-box', '20');
    await page.click('#vehicle-fit-run');
    await page.waitForFunction(() => window.__kinemate.vehicle.design.fit !== null, null, { timeout: 300_000, polling: 200 });
    await settled(page);
    expect(await page.locator('#vehicle-fit-note [data-fit="status"]').textContent()).toBe('converged');
    expect(Number(await figure(page, 'roll_gradient'))).toBeCloseTo(0.43, 4);
    expect(await page.evaluate(() => window.__kinemate.vehicle.canUndo)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-design-02-fitted.png') });

    await page.keyboard.press('Control+z');
    await settled(page);
    expect(Number(await figure(page, 'roll_gradient'))).toBeCloseTo(roll0, 4);

    // two targets at once, by the spring and bar rates only
    await page.fill('#vehicle-fit-value', '0.44');
    await page.click('#vehicle-fit-add');
    const second = page.locator('.vehicle-fit-target').nth(1);
    await second.locator('select').selectOption('vehicle.heave_frequency');
    await second.locator('input').fill('3.45');
    await page.selectOption('#vehicle-fit-axle', 'none');
    await page.check('#vehicle-fit-rates');
    await page.fill('#vehicle-fit-rate-box', '50');
    const rates = () => page.evaluate(() => { const a = window.__kinemate.vehicle.doc!.axles as unknown as Record<string, { geometry: { axle_config: Record<string, { rate: number }> } }>; return [a.front.geometry.axle_config.spring.rate, a.front.geometry.axle_config.anti_roll.rate, a.rear.geometry.axle_config.spring.rate]; });
    const before = await rates();
    await page.evaluate(() => { window.__kinemate.vehicle.design.fit = null; });
    await page.click('#vehicle-fit-run');
    await page.waitForFunction(() => window.__kinemate.vehicle.design.fit !== null, null, { timeout: 300_000, polling: 200 });
    await settled(page);
    expect(await page.locator('#vehicle-fit-note [data-fit="status"]').textContent(), await page.locator('#vehicle-fit-note').textContent() ?? '').toBe('converged');
    expect(Number(await page.locator('#vehicle-fit-note [data-target="vehicle.heave_frequency"]').textContent())).toBeCloseTo(3.45, 4);
    expect(Number(await figure(page, 'roll_gradient'))).toBeCloseTo(0.44, 4);
    const after = await rates();
    expect(after.some((r, i) => Math.abs(r - before[i]) > 1)).toBe(true);
    after.forEach((r, i) => expect(Math.abs(r - before[i])).toBeLessThanOrEqual(0.5 * before[i] + 1e-9));
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-design-03-two-targets-by-rates.png') });
    await page.keyboard.press('Control+z');
    await settled(page);
    expect(await rates()).toEqual(before);
    expect(Number(await figure(page, 'roll_gradient'))).toBeCloseTo(roll0, 4);
    expect(errors).toEqual([]);
    await page.close();
  }, 420_000);
});
