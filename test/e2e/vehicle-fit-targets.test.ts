/**
 * The vehicle design section's rates' table and a fit to a range by the bushings' rates, in
 * Debian's headless Chromium (docs/vehicle.md, "Viewer"): the sedan opened with a front axle file
 * whose lower wishbones sit on bushings (chosen with the vehicle file); the roll gradient's arrows
 * come with a table of its rate per spring, bar and bushing rate, the values the design worker
 * computed; a fit of the roll gradient to at most 0.0003 deg/g below its value (a range, weight
 * 2) by the bushings' rates alone says the target met and writes the new rates into the axle
 * file; one Ctrl+Z takes it back.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, warnIfNoChromium } from './page';

warnIfNoChromium('test/e2e/vehicle-fit-targets');

/** Every request of the drag's and the design's workers answered, and drawn. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => { const v = window.__kinemate.vehicle; return v.active && v.settled && v.frame !== null && v.design.settled; }, null, { timeout: 120_000, polling: 100 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const COMPLIANT_FRONT = readFileSync(join(REPO_ROOT, 'examples/suspension/double_wishbone_axle_front.yaml'), 'utf8') + `compliance:
  bushings:
    lower_wishbone_inboard_front: { radial: 8000, axial: 1600, conical: 2000 }
    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }
`;

describe.skipIf(!HAVE_CHROMIUM)('vehicle rates\' table and a ranged fit by the bushings in headless Chromium', () => {
  const openViewer = viewerSession();

  it('shows the roll gradient\'s rate per spring, bar and bushing rate; fits it into a range by the bushings\' rates, says it met; Ctrl+Z undoes it', async () => {
    const { page, errors } = await openViewer();
    const file = (name: string, text: string) => ({ name, mimeType: 'application/x-yaml', buffer: Buffer.from(text) });
    await page.setInputFiles('#file', [file('sedan.vehicle.yaml', readFileSync(join(REPO_ROOT, 'examples/vehicles/sedan.vehicle.yaml'), 'utf8')), file('double_wishbone_axle_front.yaml', COMPLIANT_FRONT)]);
    await page.waitForFunction(() => window.__kinemate.vehicle.active && window.__kinemate.vehicle.frame !== null, null, { timeout: 120_000 });
    await settled(page);
    const roll0 = Number(await page.locator('#vehicle-panel [data-figure="roll_gradient"]').textContent());

    await page.selectOption('#vehicle-arrows', 'vehicle.roll_gradient');
    await page.waitForFunction(() => window.__kinemate.vehicle.design.rates !== null, null, { timeout: 120_000, polling: 100 });
    await settled(page);
    const table = await page.evaluate(() => {
      const r = window.__kinemate.vehicle.design.rates!;
      const cell = (name: string) => Number(document.querySelector(`#vehicle-rates-table [data-rate-gradient="${name}"]`)?.textContent);
      return { names: r.rateGradients.map((g) => g.name), gradients: r.rateGradients.map((g) => g.gradient), shown: r.rateGradients.map((g) => cell(g.name)), rows: document.querySelectorAll('#vehicle-rates-table tr[data-rate]').length };
    });
    // three device rates and the five bushing rates the file gives (radial, axial and the front's conical)
    expect(table.names.filter((n) => !n.includes('.compliance.'))).toEqual(['front.spring.rate', 'front.anti_roll.rate', 'rear.spring.rate']);
    expect(table.names.filter((n) => n.startsWith('front.compliance.bushings.'))).toHaveLength(5);
    expect(table.rows).toBe(table.names.length);
    table.gradients.forEach((g, i) => expect(Math.abs(table.shown[i] - g)).toBeLessThanOrEqual(0.006 * Math.abs(g)));
    // a stiffer front bar lowers the roll gradient
    expect(table.gradients[table.names.indexOf('front.anti_roll.rate')]).toBeLessThan(0);
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-fit-targets-01-rates-table.png') });

    const max = Number((roll0 - 0.0003).toFixed(4));
    await page.selectOption('#vehicle-fit-metric', 'vehicle.roll_gradient');
    await page.fill('#vehicle-fit-max', String(max));
    await page.fill('#vehicle-fit-weight', '2');
    expect(await page.locator('#vehicle-fit-value').isDisabled()).toBe(true);
    await page.selectOption('#vehicle-fit-axle', 'none');
    await page.check('#vehicle-fit-bushings');
    const bushings = () => page.evaluate(() => JSON.stringify((window.__kinemate.vehicle.doc!.axles.front.geometry as Record<string, unknown>).compliance));
    const before = await bushings();
    await page.click('#vehicle-fit-run');
    await page.waitForFunction(() => window.__kinemate.vehicle.design.fit !== null, null, { timeout: 300_000, polling: 200 });
    await settled(page);
    const note = await page.locator('#vehicle-fit-note').textContent() ?? '';
    expect(await page.locator('#vehicle-fit-note [data-fit="status"]').textContent(), note).toBe('converged');
    expect(await page.locator('#vehicle-fit-note [data-outcome="vehicle.roll_gradient"]').textContent()).toMatch(/^met/);
    expect(note).toContain(`wanted −∞…${max}`);
    const fitted = Number(await page.locator('#vehicle-panel [data-figure="roll_gradient"]').textContent());
    expect(fitted).toBeLessThanOrEqual(max + 1e-4);
    expect(await bushings()).not.toBe(before);
    const moved = await page.evaluate(() => Object.keys((window.__kinemate.vehicle.design.fit as { report: { moves: Record<string, unknown> } }).report.moves));
    expect(moved.every((n) => n.startsWith('front.compliance.bushings.'))).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-fit-targets-02-fitted-by-bushings.png') });

    await page.keyboard.press('Control+z');
    await settled(page);
    expect(await bushings()).toBe(before);
    expect(Number(await page.locator('#vehicle-panel [data-figure="roll_gradient"]').textContent())).toBeCloseTo(roll0, 4);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
