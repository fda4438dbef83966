/**
 * A compliant suspension in the real viewer (headless Chromium, real mouse): the
 * compliance panel shows the K&C coefficients; dragging the load arrow's ball at the
 * contact patch applies a rig force and the toe changes by about what the coefficients
 * say (the settle is nonlinear, the coefficients its exact slope at zero load); the
 * exaggeration factor moves the drawing, not the numbers; the K&C curves are drawn.
 * Screenshots in test-artifacts/.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, settle, warnIfNoChromium } from './page';

warnIfNoChromium('test/e2e/compliance');

type State = { shown: boolean; exaggeration: number; coefficients: Record<string, string>; arrows: { shown: boolean; arrows: { side: string; tail: number[]; force: number[] }[] } };
const state = (page: Page): Promise<State> => page.evaluate(() => window.__kinemate.compliance.state() as unknown as State);
const pose = (page: Page) => page.evaluate(() => { const r = window.__kinemate.lastPose!; return { toe: r.metrics.toe_angle as number, camber: r.metrics.camber as number, coefficients: r.compliance!.coefficients.left!, upright: r.points['upright.axle_inboard'] }; });

describe.skipIf(!HAVE_CHROMIUM)('compliance in headless Chromium', () => {
  const openViewer = viewerSession();

  it('coefficients in the panel; a dragged load arrow changes toe as the coefficients say; exaggeration; K&C curves', async () => {
    const { page, errors } = await openViewer();
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/suspension/double_wishbone_compliant.yaml'));
    await page.waitForFunction(() => window.__kinemate.snapshot().name.includes('compliant'));
    const opened = await settle(page);
    const before = await pose(page);
    const panel = await state(page);
    expect(panel.shown).toBe(true);
    expect(panel.coefficients.toe_per_fy).toBe(before.coefficients.toe_per_fy.toFixed(4));
    expect(panel.arrows.arrows.map((a) => a.side)).toEqual(['left']);
    expect(panel.arrows.arrows[0].force).toEqual([0, 0, 0]);

    // grab the ball at the contact patch and drag it sideways on the screen
    const ball = await page.evaluate(() => window.__kinemate.scene.toScreen(window.__kinemate.compliance.state().arrows.arrows[0].tail as [number, number, number]));
    await page.mouse.move(ball.x, ball.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(ball.x + 12 * i, ball.y + 2 * i);
    await page.mouse.up();
    await settle(page);
    const loaded = await pose(page);
    const force = (await state(page)).arrows.arrows[0].force;
    expect(Math.hypot(force[0], force[1])).toBeGreaterThan(200);
    const dToe = loaded.toe - before.toe;
    expect(Math.abs(dToe)).toBeGreaterThan(1e-3);
    // first order: the coefficients (deg/kN) times the load (kN)
    const linear = (before.coefficients.toe_per_fy * force[1] + before.coefficients.toe_per_fx * force[0]) / 1000;
    expect(Math.abs(dToe - linear)).toBeLessThan(0.15 * Math.abs(linear));
    // a drag of the view settings, not of the document: the same document version
    expect((await settle(page)).docKey).toBe(opened.docKey);
    await page.screenshot({ path: join(ARTIFACTS, 'kc01-load-arrow.png') });

    // exaggerated ×30: the upright is drawn elsewhere, the toe read-out is the same
    await page.click('.kc-x[data-x="30"]');
    await settle(page);
    const drawn = await pose(page);
    expect(drawn.toe).toBe(loaded.toe);
    expect(Math.hypot(...drawn.upright.map((x, i) => x - loaded.upright[i]))).toBeGreaterThan(1);
    await page.screenshot({ path: join(ARTIFACTS, 'kc02-exaggerated.png') });

    // the K&C curves: the lateral event at this travel, drawn as a chart
    await page.waitForFunction(() => { const k = window.__kinemate.compliance.kcPlots; return k.settled && k.shown !== null; }, null, { timeout: 60_000, polling: 100 });
    const curves = await page.evaluate(() => { const s = window.__kinemate.compliance.kcPlots.shown!; return { load: s.result.series.load, metrics: s.metrics, toe: s.result.series.rows.map((r) => r.toe_angle) }; });
    expect(curves.load).toHaveLength(9);
    expect(curves.metrics).toEqual(['toe_angle', 'camber']);
    // the curve's slope at zero load is the coefficient (deg per N here)
    const slope = ((curves.toe[5] as number) - (curves.toe[3] as number)) / (curves.load[5] - curves.load[3]);
    expect(Math.abs(slope * 1000 - before.coefficients.toe_per_fy)).toBeLessThan(0.05 * Math.abs(before.coefficients.toe_per_fy));
    expect(await page.locator('#kc-chart svg').count()).toBe(1);
    await page.screenshot({ path: join(ARTIFACTS, 'kc03-curves.png') });
    await page.locator('#compliance-panel').screenshot({ path: join(ARTIFACTS, 'kc04-panel.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
