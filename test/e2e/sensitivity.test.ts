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
import { REPO_ROOT } from '../../viewer/harness/browser';
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

  it('an axle: arrows on both sides\' pickups for the chosen side\'s metric, equal to the presenter in Node; the hover names the side and the mirror', async () => {
    const { page, errors } = await openViewer();
    const before = (await page.evaluate(() => window.__kinemate.snapshot())).poseDocKey;
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/suspension/double_wishbone_axle.yaml'));
    await page.waitForFunction((k) => window.__kinemate.snapshot().poseDocKey !== k, before);
    await page.evaluate(() => window.__kinemate.setView({ travel: [20, 5], rack: 0 }));
    await settle(page);
    expect(await page.isVisible('#sens-side')).toBe(true);
    await page.selectOption('#sens-metric', 'camber');
    await page.selectOption('#sens-side', 'right');
    const a = await arrowsSettled(page);
    expect(a.status).toBe('ok');
    expect(a.side).toBe('right');
    const pose = await page.evaluate(() => { const r = window.__kinemate.lastPose!; return { chassis: r.structure.handles.filter((h) => h.kind === 'hardpoint').map((h) => h.hardpoint!), camber: r.metrics['right.camber'] }; });
    expect(a.arrows.map((x) => x.hardpoint).sort()).toEqual([...pose.chassis].sort());
    expect(a.arrows.some((x) => x.hardpoint.startsWith('left_')) && a.arrows.some((x) => x.hardpoint.startsWith('right_'))).toBe(true);
    expect(a.value).toBeCloseTo(pose.camber as number, 8);
    const expected = new SensitivityPresenter().arrows({ docKey: 1, doc: await currentDoc(page), view: { travel: [20, 5], rack: 0 }, metric: 'camber', side: 'right' });
    for (const x of a.arrows) {
      const e = expected.arrows.find((y) => y.hardpoint === x.hardpoint)!;
      for (let i = 0; i < 3; i++) expect(x.gradient[i]).toBeCloseTo(e.gradient[i], 9);
    }
    expect(a.legend).toMatch(/^right camber = /);
    const pickup = await screenOf(page, 'right_upper_wishbone_inboard_front');
    await page.mouse.move(pickup.x, pickup.y);
    await page.waitForFunction(() => window.__kinemate.sensitivity.snapshot().tip !== null, null, { timeout: 10_000 });
    const tip = (await arrows(page)).tip!;
    expect(tip[0]).toBe('right_upper_wishbone_inboard_front');
    expect(tip[2]).toMatch(/^\+1 mm in y → ([+−][0-9.]+|0)° right camber at \+20 \/ \+5 mm$/);
    expect(tip[4]).toBe('left_upper_wishbone_inboard_front moves with it, mirrored (the axle stays symmetric)');
    await page.screenshot({ path: join(ARTIFACTS, '14e-sensitivity-axle.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the Fit panel runs the example fit in its worker with progress; Accept is one undo entry; Ctrl+Z gives back every number bit for bit', async () => {
    const { page, errors } = await openViewer();
    await page.evaluate(() => window.__kinemate.setView({ travel: [25], rack: 0 }));
    const before = await settle(page);
    await page.locator('#fit-panel summary').click();
    await page.locator('#fit-run').click();
    // progress is shown while it runs
    await page.waitForFunction(() => window.__kinemate.fitPanel.snapshot().progress.length > 0, null, { timeout: 60_000, polling: 20 });
    await page.waitForFunction(() => !window.__kinemate.fitPanel.snapshot().running, null, { timeout: 120_000, polling: 50 });
    const fit = await page.evaluate(() => window.__kinemate.fitPanel.snapshot());
    expect(fit.error).toBeNull();
    expect(fit.progress.length).toBeGreaterThan(2);
    expect(fit.progress.map((p) => p.iteration)).toEqual(fit.progress.map((_, i) => i + 1));
    const outcome = fit.outcome!;
    expect(outcome.status).toBe('converged'); // docs/sensitivity.md: the example reaches its targets (issue 27: its track rod boxes were too small)
    expect(fit.canAccept).toBe(true);
    expect(fit.previewed).toBe(2); // the chassis pickups among the moves: both upper inboard points (the track rod's ends are on the rack and the upright)
    expect(await page.locator('#fit-result').textContent()).toContain('upper_wishbone_inboard_rear.y');
    // nothing moved before Accept
    expect((await settle(page)).docKey).toBe(before.docKey);
    await page.screenshot({ path: join(ARTIFACTS, '14c-fit-result.png') });

    await page.locator('#fit-accept').click();
    const accepted = await settle(page);
    expect(accepted.canUndo).toBe(true);
    expect(await page.evaluate(() => window.__kinemate.history.undoEntries.length)).toBe(1);
    expect((await page.evaluate(() => window.__kinemate.fitPanel.snapshot())).previewed).toBe(0);
    const moved = await page.evaluate(() => window.__kinemate.lastPose!.points);
    for (const [name, p] of Object.entries(outcome.positions)) {
      const ref = `chassis.${name}`;
      if (moved[ref]) expect(moved[ref]).toEqual(p);
    }
    // the design's camber gain over 0…25 mm is now the fitted one (about −1°): read at +25 and at 0
    const camber25 = accepted.metrics.camber as number;
    await page.evaluate(() => window.__kinemate.setView({ travel: [0], rack: 0 }));
    const at0 = await settle(page);
    expect(camber25 - (at0.metrics.camber as number)).toBeCloseTo(outcome.targets[0].value, 6);
    await page.evaluate(() => window.__kinemate.setView({ travel: [25], rack: 0 }));
    await settle(page);
    await page.screenshot({ path: join(ARTIFACTS, '14d-fit-accepted.png') });

    await page.keyboard.press('Control+z');
    const undone = await settle(page);
    expect(undone.canUndo).toBe(false);
    expect(undone.points).toEqual(before.points);
    expect(undone.metrics).toEqual(before.metrics);
    expect(undone.readouts).toEqual(before.readouts);
    expect(undone.plot).toEqual(before.plot);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a fit can be discarded (the design stays) and a bad targets file is refused with its path', async () => {
    const { page, errors } = await openViewer();
    const before = await settle(page);
    await page.locator('#fit-panel summary').click();
    await page.evaluate(() => window.__kinemate.fitPanel.setTargets('move: { nope: { y: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]\n', 'bad.yaml'));
    await page.locator('#fit-run').click();
    await page.waitForFunction(() => window.__kinemate.fitPanel.snapshot().error !== null, null, { timeout: 60_000 });
    expect((await page.evaluate(() => window.__kinemate.fitPanel.snapshot())).status).toMatch(/bad\.yaml: move\.nope: no hardpoint "nope"/);
    await page.evaluate(() => window.__kinemate.fitPanel.setTargets('move: { upper_wishbone_inboard_front: { z: [-10, 10] } }\ntargets: [{ metric: camber, gain: [0, 25], value: -0.2 }]\n', 'small.yaml'));
    await page.locator('#fit-run').click();
    await page.waitForFunction(() => window.__kinemate.fitPanel.snapshot().canAccept, null, { timeout: 120_000 });
    // an edit meanwhile: the result no longer answers the design shown, and Accept says so
    const grab = await screenOf(page, 'lower_wishbone_inboard_rear');
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(grab.x, grab.y + 5 * i);
    await page.mouse.up();
    const edited = await settle(page);
    expect(edited.canUndo).toBe(true);
    expect((await page.evaluate(() => window.__kinemate.fitPanel.snapshot())).previewed).toBe(0);
    await page.locator('#fit-accept').click();
    expect((await page.evaluate(() => window.__kinemate.fitPanel.snapshot())).status).toMatch(/design changed/);
    expect(await page.evaluate(() => window.__kinemate.history.undoEntries.length)).toBe(1); // the drag only
    // undo back to the fitted design: the result is shown again
    await page.keyboard.press('Control+z');
    await settle(page);
    expect((await page.evaluate(() => window.__kinemate.fitPanel.snapshot())).previewed).toBe(1);
    await page.locator('#fit-discard').click();
    const after = await settle(page);
    expect(after.docKey).toBe(before.docKey);
    expect(after.canUndo).toBe(false);
    expect((await page.evaluate(() => window.__kinemate.fitPanel.snapshot())).canAccept).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
