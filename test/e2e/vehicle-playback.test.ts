/**
 * A vehicle run played back in Debian's headless Chromium (docs/vehicle.md, "Viewer"): the
 * sedan over a bump opened from the Vehicle menu, Simulate runs it in its worker (a short
 * run), then the time slider scrubbed to the bump moves the body (it rolls and pitches off
 * its rest pose), the front left wheel rises over the bump, and scrubbing back to t = 0
 * shows the rest pose again; the links are tinted by their force at the time shown (the
 * bumped corner's pushrod a deeper blue over the bump than at rest, a rear link in tension
 * red), none at rest; the energy and tyre-load plots have a point a frame; Play runs to
 * the end, and a pickup drag goes back to the car at rest.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, warnIfNoChromium } from './page';

warnIfNoChromium('test/e2e/vehicle-playback');

/** Scrub the slider to `value` (0…1000) as a user's input does, and read the body and front left wheel drawn. */
async function scrub(page: Page, value: number): Promise<{ body: number[]; wheel: number[] }> {
  return page.evaluate((v) => {
    const slider = document.getElementById('vehicle-sim-time') as HTMLInputElement;
    slider.value = String(v);
    slider.dispatchEvent(new Event('input'));
    const p = window.__kinemate.vehicle.playback;
    const last = (window.__kinemate.scene as unknown as { last: { corners: { wheelCenter: number[] }[] } }).last;
    return { body: p.shownBody!, wheel: last.corners[0].wheelCenter };
  }, value);
}

describe.skipIf(!HAVE_CHROMIUM)('vehicle playback in headless Chromium', () => {
  const openViewer = viewerSession();

  it('runs the sedan over its bump in a worker and scrubs: the body and the bumped wheel move, t = 0 is the rest pose', async () => {
    const { page, errors } = await openViewer();
    await page.selectOption('#vehicle-sample', 'vehicle:sedan_bump');
    await page.waitForFunction(() => { const v = window.__kinemate.vehicle; return v.active && v.settled && v.frame?.pose != null; }, null, { timeout: 60_000, polling: 50 });
    // a short run: the bump (0.05 s to 0.11 s) and a little after
    await page.fill('#vehicle-sim-duration', '0.16');
    await page.click('#vehicle-sim-run');
    await page.waitForFunction(() => window.__kinemate.vehicle.playback.status !== 'running', null, { timeout: 90_000, polling: 100 });
    const state = await page.evaluate(() => { const p = window.__kinemate.vehicle.playback; return { status: p.status, message: p.message, frames: p.model.frames.length, end: p.model.end }; });
    expect(state.status, state.message).toBe('completed');
    expect(state.end).toBeCloseTo(0.16, 6);
    expect(state.frames).toBeGreaterThan(5);
    expect(await page.locator('#vehicle-sim-status').textContent()).toContain('steps');
    // the energy budget and the four tyre loads are plotted, a point a frame
    const plotted = await page.evaluate(() => ({ ...window.__kinemate.vehicle.playback.plots.points(), tyreShown: !document.getElementById('vehicle-sim-tyre')!.hidden }));
    expect(plotted).toEqual({ energy: state.frames, tyre: state.frames, tyreShown: true });

    const tint = (id: string) => page.evaluate((rod) => window.__kinemate.vehicle.playback.tintOf('rod', rod), id);
    const rgb = (c: number | null) => (c === null ? null : [(c >> 16) & 255, (c >> 8) & 255, c & 255]);
    const rest = await scrub(page, 0);
    const pushRest = rgb(await tint('front_left_pushrod'))!;
    // mid-bump (t = 0.08 s): compression blue, tension red, deeper the larger the force: the bumped pushrod is pushed harder than at rest
    await scrub(page, 1000 * (0.08 / 0.16));
    const pushBump = rgb(await tint('front_left_pushrod'))!;
    const rearLink = rgb(await tint('rear_left_lower_rear_link'))!;
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-playback-00-tints.png') });
    expect(pushRest[2]).toBeGreaterThan(pushRest[0]);
    expect(pushBump[0]).toBeLessThan(pushRest[0]);
    expect(rearLink[0]).toBeGreaterThan(rearLink[2]);
    expect(await page.locator('#vehicle-sim-legend').textContent()).toContain('red in tension');
    const rolled = await scrub(page, 1000 * (0.12 / 0.16));
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-playback-01-bump.png') });
    const quat = (b: number[]) => b.slice(3);
    // the bump under one front wheel rolls and pitches the body: its rotation leaves the rest one
    const turn = Math.hypot(...quat(rolled.body).map((x, k) => x - quat(rest.body)[k]));
    expect(turn).toBeGreaterThan(1e-4);
    // the bumped wheel (front left) rose against its rest height
    expect(rolled.wheel[2] - rest.wheel[2]).toBeGreaterThan(2);
    expect(await page.locator('#vehicle-sim-clock').textContent()).toContain('roll');
    // back at t = 0: the rest pose of the run is the car at rest (solved the same way)
    const again = await scrub(page, 0);
    expect(again.body).toEqual(rest.body);
    const atRest = await page.evaluate(() => window.__kinemate.vehicle.frame!.pose!.poses.body);
    atRest.forEach((x, k) => expect(rest.body[k]).toBeCloseTo(x, 2));

    // play runs the clock to the end
    await page.click('#vehicle-sim-play');
    await page.waitForFunction(() => { const m = window.__kinemate.vehicle.playback.model; return !m.playing && m.time >= m.end; }, null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.__kinemate.vehicle.playback.showing)).toBe(true);
    // a pickup drag takes the view back to the car at rest
    const at = await page.evaluate(() => window.__kinemate.vehicle.screenOf('front:left_lower_wishbone_inboard_front'));
    expect(at).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    await page.mouse.down();
    await page.mouse.move(at!.x, at!.y - 10, { steps: 3 });
    await page.mouse.up();
    expect(await page.evaluate(() => window.__kinemate.vehicle.playback.showing)).toBe(false);
    expect(await tint('front_left_pushrod')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
