/**
 * Simulation playback in headless Chromium (issue 13 item 7): the pendulum sample run in
 * the simulation worker, the slider scrubbed with the mouse (the bob moves, a quarter
 * period down is the bottom), play and speed, the energy plot drawn; a drag while a long
 * run computes (the pose worker answers it); a run whose step fails keeps its frames and
 * says why. Screenshots go to test-artifacts/.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, settle, snap, warnIfNoChromium } from './page';
import { colourCount, decodePng } from '../../viewer/harness/png';

warnIfNoChromium('test/e2e/playback');

const sim = (page: Page) => page.evaluate(() => window.__kinemate.playback.state());

async function pick(page: Page, template: string): Promise<void> {
  const before = (await snap(page)).poseDocKey;
  await page.selectOption('#template', template);
  await page.waitForFunction((k) => window.__kinemate.snapshot().poseDocKey !== k, before);
  await settle(page);
}

/** Where on the slider a time lies (CSS px), from its box: the thumb's travel is the box less a thumb. */
async function sliderPoint(page: Page, fraction: number): Promise<{ x: number; y: number }> {
  const box = (await page.locator('#sim-time').boundingBox())!;
  const thumb = 16;
  return { x: box.x + thumb / 2 + fraction * (box.width - thumb), y: box.y + box.height / 2 };
}

describe.skipIf(!HAVE_CHROMIUM)('simulation playback in headless Chromium', () => {
  const openViewer = viewerSession();

  it('runs the pendulum, scrubs the slider (the bob swings down a quarter period in), plays at a speed, draws the energy plot', async () => {
    const { page, errors } = await openViewer();
    expect((await sim(page)).visible).toBe(false); // the default corner has no masses
    await pick(page, 'pendulum');
    expect((await sim(page)).visible).toBe(true);
    await page.click('#sim-run');
    await page.waitForFunction(() => window.__kinemate.playback.state().status === 'completed', null, { timeout: 60_000 });
    if ((await sim(page)).playing) await page.click('#sim-play');
    const done = await sim(page);
    expect(done.frames).toBeGreaterThan(200);
    expect(done.duration).toBe(2.4);
    expect(done.playing).toBe(false);

    // scrub: press at the start, drag to a quarter of 2.4 s (0.6 s: a quarter period is 0.592 s)
    const from = await sliderPoint(page, 0);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.waitForFunction(() => window.__kinemate.playback.state().time < 0.02);
    const start = (await sim(page)).points!['bob.mass'];
    await page.screenshot({ path: join(ARTIFACTS, 'playback-01-start.png') });
    const canvasAt0 = await page.locator('#view canvas').screenshot();
    const to = await sliderPoint(page, 0.25);
    for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + ((to.x - from.x) * i) / 10, to.y);
    await page.mouse.up();
    const scrubbed = await sim(page);
    expect(scrubbed.time).toBeGreaterThan(0.45);
    expect(scrubbed.time).toBeLessThan(0.75);
    const bob = scrubbed.points!['bob.mass'];
    expect(Math.abs(start[0])).toBeGreaterThan(990); // released from horizontal
    expect(Math.abs(start[2])).toBeLessThan(10);
    expect(bob[2]).toBeLessThan(-700); // swung down
    expect(Math.hypot(bob[0], bob[1], bob[2])).toBeCloseTo(1000, 0); // on its rod
    // the bob drawn where the frame's energy says: gravity's m g z, and as much kinetic energy as it lost (1 kg)
    expect(scrubbed.energy!.potential).toBeCloseTo((9.80665 * bob[2]) / 1000, 2);
    expect(scrubbed.energy!.kinetic).toBeCloseTo(-scrubbed.energy!.potential, 2);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(ARTIFACTS, 'playback-02-scrubbed.png') });
    const canvasAtQuarter = await page.locator('#view canvas').screenshot();
    expect(canvasAtQuarter.equals(canvasAt0)).toBe(false);

    // the energy plot: every frame's point, drawn in several colours
    expect(scrubbed.energyPoints).toBe(scrubbed.frames);
    const plot = decodePng(await page.locator('#sim-energy canvas').first().screenshot());
    expect(colourCount(plot)).toBeGreaterThan(20);
    expect(scrubbed.tyrePoints).toBe(0);
    expect(await page.locator('#sim-tyre').isHidden()).toBe(true);

    // play at a quarter speed: time goes on from where it was
    await page.selectOption('#sim-speed', '0.25');
    await page.click('#sim-play');
    await page.waitForFunction((t) => window.__kinemate.playback.state().time > t + 0.02, scrubbed.time);
    const playing = await sim(page);
    expect(playing.playing).toBe(true);
    expect(playing.speed).toBe(0.25);
    await page.click('#sim-play');
    expect((await sim(page)).playing).toBe(false);

    // an edit of the document (gravity four times as strong) runs it again, from the edited document
    // (the status read in the same task as the edit: a run of the pendulum now takes a few
    // milliseconds, and its worker could finish before a second round trip from the test)
    const afterEdit = await page.evaluate(() => {
      window.__kinemate.history.apply((d) => { (d as unknown as { doc: { gravity: number[] } }).doc.gravity = [0, 0, -4 * 9806.65]; }, 'gravity');
      return window.__kinemate.playback.state().status;
    });
    expect(afterEdit).toBe('running');
    await page.waitForFunction(() => window.__kinemate.playback.state().status === 'completed', null, { timeout: 60_000 });
    // scrub to an eighth of the run (about a quarter period at four times gravity): how far it
    // played by itself while the run was computing depends on the machine's load
    await page.evaluate(() => {
      const slider = document.querySelector<HTMLInputElement>('#sim-time')!;
      slider.value = String(Number(slider.max) / 8);
      slider.dispatchEvent(new Event('input'));
    });
    const edited = await sim(page);
    const z = edited.points!['bob.mass'][2];
    expect(z).toBeLessThan(-100);
    expect(edited.energy!.potential).toBeCloseTo((4 * 9.80665 * z) / 1000, 2);
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);

  it('a drag is answered while a long run computes in its worker; another model stops the run', async () => {
    const { page, errors } = await openViewer();
    await pick(page, 'pendulum');
    // two million steps: far longer than the drag takes
    await page.fill('#sim-duration', '1000');
    await page.fill('#sim-step', '0.0005');
    await page.click('#sim-run');
    await page.waitForFunction(() => window.__kinemate.playback.state().end > 1);
    const before = await snap(page);
    // pause, set the slider to 0.6 s (the bob near the bottom, in view), then pull the bob where it is drawn
    await page.click('#sim-play');
    await page.waitForFunction(() => !window.__kinemate.playback.state().playing);
    await page.$eval('#sim-time', (el) => { (el as HTMLInputElement).value = '0.6'; el.dispatchEvent(new Event('input', { bubbles: true })); });
    expect((await sim(page)).time).toBeCloseTo(0.6, 6);
    const bob = await page.evaluate(() => window.__kinemate.scene.toScreen(window.__kinemate.playback.state().points!['bob.mass'] as [number, number, number]));
    await page.mouse.move(bob.x, bob.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(bob.x, bob.y + 10 * i);
    await page.mouse.up();
    const after = await settle(page);
    const during = await sim(page);
    expect(during.status).toBe('running');
    expect(during.showing).toBe(false);
    expect(after.points['bob.mass']).not.toEqual(before.points['bob.mass']);
    // another model stops the run
    await pick(page, 'double_pendulum');
    expect((await sim(page)).status).toBe('idle');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('a run whose step fails says so and keeps the frames so far; a tyre gets its plot', async () => {
    const { page, errors } = await openViewer();
    const d = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/slider-crank-torque.kinemate.json'), 'utf8'));
    d.motions = { push: { coordinate: 'jS.slide', table: [[0, 191.20326476671232], [0.5, 260]] } };
    const file = join(ARTIFACTS, 'slider-crank-overdriven.kinemate.json');
    writeFileSync(file, JSON.stringify(d));
    const before = (await snap(page)).poseDocKey;
    await page.setInputFiles('#file', file);
    await page.waitForFunction((k) => window.__kinemate.snapshot().poseDocKey !== k, before);
    await settle(page);
    await page.fill('#sim-duration', '0.5');
    await page.click('#sim-run');
    await page.waitForFunction(() => ['failed', 'error', 'completed'].includes(window.__kinemate.playback.state().status), null, { timeout: 60_000 });
    const failed = await sim(page);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/did not converge/);
    expect(failed.frames).toBeGreaterThan(10);
    expect(await page.locator('#sim-status').textContent()).toContain('kept');
    expect(await page.locator('#sim-time').isDisabled()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'playback-03-failed.png') });

    await pick(page, 'quarter_car_bump');
    await page.fill('#sim-duration', '0.8');
    await page.click('#sim-run');
    await page.waitForFunction(() => window.__kinemate.playback.state().status === 'completed', null, { timeout: 60_000 });
    const quarter = await sim(page);
    expect(quarter.header!.tyres).toEqual(['tyre']);
    expect(quarter.tyrePoints).toBe(quarter.frames);
    expect(await page.locator('#sim-tyre').isVisible()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'playback-04-quarter-car.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
