/**
 * The whole vehicle in the viewer, in Debian's headless Chromium (docs/vehicle.md,
 * "Viewer"): the sedan opened from the Model menu draws its four wheels; a real mouse drag
 * of a front pickup on one side moves its mirror on the other side (the axle locked) and
 * the roll gradient read-out follows; Ctrl+Z restores it exactly; the load transfer is drawn;
 * a vehicle file opened with its axle files chosen beside it reads those; a Model entry
 * leaves vehicle mode.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { REPO_ROOT } from '../../viewer/harness/browser';
import type { Page } from 'playwright-core';
import { ARTIFACTS, HAVE_CHROMIUM, settle, viewerSession, warnIfNoChromium } from './page';

warnIfNoChromium('test/e2e/vehicle-viewer');

/** Wait until the vehicle worker has answered every request and its frame is drawn. */
async function vehicleSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => { const v = window.__kinemate.vehicle; return v.active && v.settled && v.frame !== null; }, null, { timeout: 60_000, polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const figure = (page: Page, key: string) => page.locator(`#vehicle-panel [data-figure="${key}"]`).textContent();

/** A pickup's design position (the edited axle file's, drawn as the ghost). */
const designOf = (page: Page, hardpoint: string) => page.evaluate((hp) => {
  const pose = window.__kinemate.vehicle.frame!.pose!;
  const h = pose.structure.handles.find((x) => x.hardpoint === hp)!;
  return pose.design[h.ref];
}, hardpoint);

describe.skipIf(!HAVE_CHROMIUM)('vehicle in headless Chromium', () => {
  const openViewer = viewerSession();

  it('opens the sedan with four wheels; a front pickup drag moves both sides and the roll gradient; Ctrl+Z undoes it; its axle files can be chosen', async () => {
    const { page, errors } = await openViewer();
    await page.selectOption('#vehicle-sample', 'vehicle:sedan');
    await vehicleSettled(page);
    const drawn = await page.evaluate(() => {
      const objects = (window.__kinemate.scene as unknown as { objects: Map<string, { visible: boolean; parent: unknown }> }).objects;
      return [0, 1, 2, 3, 4].map((i) => objects.get(`tyre:c${i}`)?.visible === true);
    });
    expect(drawn).toEqual([true, true, true, true, false]);
    expect(await page.locator('#model-name').textContent()).toBe('sedan.vehicle.yaml');
    const roll0 = await figure(page, 'roll_gradient');
    expect(Number(roll0)).toBeGreaterThan(0.3); // docs/vehicle.md: 0.4475 deg/g
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-01-sedan.png') });

    const left = 'front:left_lower_wishbone_inboard_front', right = 'front:right_lower_wishbone_inboard_front';
    const [l0, r0] = [await designOf(page, left), await designOf(page, right)];
    const at = await page.evaluate((hp) => window.__kinemate.vehicle.screenOf(hp), left);
    expect(at).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(at!.x, at!.y - 5 * i);
    await page.mouse.up();
    await vehicleSettled(page);
    await page.screenshot({ path: join(ARTIFACTS, 'vehicle-02-pickup-dragged.png') });
    const [l1, r1] = [await designOf(page, left), await designOf(page, right)];
    expect(l1[2] - l0[2]).toBeGreaterThan(1); // dragged up
    // the mirror moved the same way: x and z equal, y mirrored
    expect(r1[0]).toBeCloseTo(l1[0], 9);
    expect(r1[1]).toBeCloseTo(-l1[1], 9);
    expect(r1[2]).toBeCloseTo(l1[2], 9);
    expect(r1[2]).not.toBeCloseTo(r0[2], 3);
    const roll1 = await figure(page, 'roll_gradient');
    expect(roll1).not.toBe(roll0);

    await page.keyboard.press('Control+z');
    await vehicleSettled(page);
    expect(await figure(page, 'roll_gradient')).toBe(roll0);
    expect(await designOf(page, right)).toEqual(r0);
    // the load transfer drawn: in a left turn the right (outer) tyres' arrows grow, the left ones' shrink
    const [flRest, flTurn, frRest, frTurn] = await page.evaluate(() => window.__kinemate.vehicle.overlay.lengths().slice(0, 4));
    expect(flTurn).toBeLessThan(flRest);
    expect(frTurn).toBeGreaterThan(frRest);

    // a vehicle file opened with its axle files chosen together uses those (a stiffer front bar here)
    const dir = mkdtempSync(join(tmpdir(), 'kinemate-vehicle-'));
    const front = readFileSync(join(REPO_ROOT, 'examples/suspension/double_wishbone_axle_front.yaml'), 'utf8');
    expect(front).toContain('anti_roll: { type: u_bar, rate: 30000 }');
    writeFileSync(join(dir, 'double_wishbone_axle_front.yaml'), front.replace('anti_roll: { type: u_bar, rate: 30000 }', 'anti_roll: { type: u_bar, rate: 90000 }'));
    await page.setInputFiles('#file', [join(REPO_ROOT, 'examples/vehicles/sedan.vehicle.yaml'), join(dir, 'double_wishbone_axle_front.yaml')]);
    await page.waitForFunction((r) => document.querySelector('#vehicle-panel [data-figure="roll_gradient"]')?.textContent !== r, roll0, { timeout: 60_000 });
    await vehicleSettled(page);
    expect(Number(await figure(page, 'roll_gradient'))).toBeLessThan(Number(roll0));
    expect(Number(await figure(page, 'front_load_transfer_share'))).toBeGreaterThan(0.726);
    rmSync(dir, { recursive: true, force: true });
    // the lock toggle unlocks the mirror (docs/vehicle.md; the edit itself: test/live/vehicle-document.test.ts)
    await page.locator('#vehicle-lock').uncheck();
    expect(await page.evaluate(() => window.__kinemate.vehicle.locked)).toBe(false);

    // a Model entry leaves vehicle mode: the one-axle model is drawn and read out again
    await page.selectOption('#template', 'double_wishbone');
    await page.waitForFunction(() => !window.__kinemate.vehicle.active);
    const s = await settle(page);
    expect(s.name).toBe('double_wishbone.yaml');
    expect(s.status).toBe('solved');
    expect(await page.locator('#vehicle-panel').isHidden()).toBe(true);
    expect(await page.locator('#readouts').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
