/**
 * The Fit panel on an axle in headless Chromium: the axle's example fit runs in the worker
 * with progress, its preview shows both sides' chassis pickups, Accept is one undo entry
 * that moves each pickup and its mirror, the page's own pose measures the fitted camber gain
 * on both sides, and Ctrl+Z gives back every number bit for bit.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, settle, warnIfNoChromium } from './page';
import { REPO_ROOT } from '../../viewer/harness/browser';

warnIfNoChromium('test/e2e/fit-axle');

describe.skipIf(!HAVE_CHROMIUM)('the Fit panel on an axle in headless Chromium', () => {
  const openViewer = viewerSession();

  it('runs the axle example symmetrically; Accept moves both sides as one undo entry; Ctrl+Z restores every number', async () => {
    const { page, errors } = await openViewer();
    const first = (await page.evaluate(() => window.__kinemate.snapshot())).poseDocKey;
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/suspension/double_wishbone_axle.yaml'));
    await page.waitForFunction((k) => window.__kinemate.snapshot().poseDocKey !== k, first);
    await page.evaluate(() => window.__kinemate.setView({ travel: [25, 25], rack: 0 }));
    const before = await settle(page);
    const entries = () => page.evaluate(() => window.__kinemate.history.undoEntries.length);
    const entriesBefore = await entries(); // opening a file may itself be an entry
    await page.locator('#fit-panel summary').click();
    // the untouched example follows the design shown: the axle's
    expect(await page.locator('#fit-targets').inputValue()).toMatch(/side: left/);
    await page.locator('#fit-run').click();
    await page.waitForFunction(() => window.__kinemate.fitPanel.snapshot().progress.length > 0, null, { timeout: 120_000, polling: 20 });
    await page.waitForFunction(() => !window.__kinemate.fitPanel.snapshot().running, null, { timeout: 300_000, polling: 100 });
    const fit = await page.evaluate(() => window.__kinemate.fitPanel.snapshot());
    expect(fit.error).toBeNull();
    expect(fit.progress.map((p) => p.iteration)).toEqual(fit.progress.map((_, i) => i + 1));
    const outcome = fit.outcome!;
    expect(fit.canAccept).toBe(true);
    // both upper inboard points on both sides are chassis pickups among the moves
    expect(fit.previewed).toBe(4);
    const text = await page.locator('#fit-result').textContent();
    expect(text).toContain('left.upper_wishbone_inboard_rear.y');
    expect(text).toContain('right.upper_wishbone_inboard_rear.y');
    expect((await settle(page)).docKey).toBe(before.docKey); // nothing moved before Accept
    await page.screenshot({ path: join(ARTIFACTS, '14f-fit-axle-result.png') });

    await page.locator('#fit-accept').click();
    const accepted = await settle(page);
    expect(await entries()).toBe(entriesBefore + 1);
    const moved = await page.evaluate(() => window.__kinemate.lastPose!.points);
    for (const [name, p] of Object.entries(outcome.positions)) {
      const ref = `chassis.${name}`;
      if (moved[ref]) expect(moved[ref]).toEqual(p);
    }
    // each side's camber gain over 0…25 mm, measured by the page's pose, is the fitted one
    const c25 = { left: accepted.metrics.camber as number, right: accepted.metrics['right.camber'] as number };
    await page.evaluate(() => window.__kinemate.setView({ travel: [0, 0], rack: 0 }));
    const at0 = await settle(page);
    for (const side of ['left', 'right'] as const) {
      const t = outcome.targets.find((x) => x.target === `targets[0] ${side} camber gain 0…25`)!;
      expect(c25[side] - (at0.metrics[side === 'left' ? 'camber' : 'right.camber'] as number)).toBeCloseTo(t.value, 6);
    }
    await page.evaluate(() => window.__kinemate.setView({ travel: [25, 25], rack: 0 }));
    await settle(page);
    await page.screenshot({ path: join(ARTIFACTS, '14g-fit-axle-accepted.png') });

    await page.keyboard.press('Control+z');
    const undone = await settle(page);
    expect(await entries()).toBe(entriesBefore);
    expect(undone.docKey).toBe(before.docKey);
    expect(undone.points).toEqual(before.points);
    expect(undone.metrics).toEqual(before.metrics);
    expect(errors).toEqual([]);
    await page.close();
  }, 600_000);
});
