/**
 * Loads and devices in the real viewer (headless Chromium, real mouse and keyboard):
 * the loads panel's load case changes the link forces drawn (colours, labels, pixels) and
 * they follow a hardpoint drag; a plot can show the wheel rate; the suspension devices
 * (anti-roll bars, heave link, torsion bar, camber shim) are drawn, and the shim's
 * thickness is edited in the panel as one undo entry. Screenshots in test-artifacts/.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, screenOf, settle, warnIfNoChromium } from './page';
import { decodePng, type Image } from '../../viewer/harness/png';
import { TENSION_COLOR, COMPRESSION_COLOR } from '../../viewer/src/force-style';

warnIfNoChromium('test/e2e/forces');

type Drawing = { shown: boolean; links: { id: string; tension: number; color: number; label: string; sign: string }[]; contacts: { side: string; label: string }[]; reactions: { id: string; force: number[]; label: string }[] };
const drawing = (page: Page): Promise<Drawing> => page.evaluate(() => window.__kinemate.forces.state() as unknown as Drawing);
/** The label text each link shows on the page (the DOM layer over the canvas). */
const labels = (page: Page): Promise<Record<string, string>> => page.$$eval('#force-labels .force-label', (els) => Object.fromEntries(els.filter((e) => !(e.parentElement as HTMLElement).hidden).map((e) => [(e as HTMLElement).dataset.key!, e.textContent ?? ''])));

async function shot(page: Page, name: string): Promise<Image> {
  return decodePng(await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) }));
}

/** Pixels within a small distance of a colour (the sleeves are unlit: their colour is drawn as is, up to blending). */
function near(img: Image, color: number, tolerance = 40): number {
  const r = (color >> 16) & 255, g = (color >> 8) & 255, b = color & 255;
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) if (Math.abs(img.data[i] - r) + Math.abs(img.data[i + 1] - g) + Math.abs(img.data[i + 2] - b) < tolerance) n++;
  return n;
}

async function setInput(page: Page, selector: string, value: string): Promise<void> {
  await page.fill(selector, value);
  await page.press(selector, 'Enter');
  await page.evaluate((s) => (document.querySelector(s) as HTMLInputElement).dispatchEvent(new Event('change')), selector);
}

async function mouseDrag(page: Page, from: { x: number; y: number }, dx: number, dy: number): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let i = 1; i <= 10; i++) await page.mouse.move(from.x + (dx * i) / 10, from.y + (dy * i) / 10);
  await page.mouse.up();
}

describe.skipIf(!HAVE_CHROMIUM)('loads and devices in headless Chromium', () => {
  const openViewer = viewerSession();

  it('the loads panel\'s case changes the drawn link colours and labels; they follow a hardpoint drag; a plot shows the wheel rate', async () => {
    const { page, errors } = await openViewer();
    // closed, the panel asks for no loads (a drag pays nothing for them); opened, they are drawn
    expect((await drawing(page)).shown).toBe(false);
    await page.click('#loads-panel > summary');
    await settle(page);
    // the default corner under its own weight (300 kg at 1 g, the panel's default)
    const vertical = await drawing(page);
    expect(vertical.shown).toBe(true);
    expect(vertical.links.map((l) => l.id)).toEqual(expect.arrayContaining(['trackrod']));
    expect(vertical.contacts[0].label).toBe(`${(300 * 9.80665 / 1000).toFixed(2)} kN`);
    const verticalLabels = await labels(page);
    for (const l of vertical.links) expect(verticalLabels[`link:${l.id}`]).toBe(l.label);
    const withForces = await shot(page, 'f01-vertical');

    // 1.2 g cornering and 1 g braking: other forces, other colours
    await setInput(page, '#loads-cornering_g', '1.2');
    await setInput(page, '#loads-braking_g', '1');
    await settle(page);
    const cornering = await drawing(page);
    await shot(page, 'f02-cornering-braking');
    // (the pads carry the vertical load of an unsprung corner: the track rod takes the cornering and braking)
    const tr0 = vertical.links.find((l) => l.id === 'trackrod')!, tr1 = cornering.links.find((l) => l.id === 'trackrod')!;
    expect(Math.abs(tr1.tension)).toBeGreaterThan(10 * Math.abs(tr0.tension));
    expect(tr1.label).not.toBe(tr0.label);
    expect(tr1.sign).toBe('compression');
    expect(tr1.color).toBe(COMPRESSION_COLOR);
    expect((await labels(page))['link:trackrod']).toBe(tr1.label);
    // the ball joints' reactions are drawn and labelled too, and grow with the load
    const ball = (d: Drawing, id: string) => Math.hypot(...d.reactions.find((x) => x.id === id)!.force);
    expect(ball(cornering, 'lower_ball')).toBeGreaterThan(ball(vertical, 'lower_ball'));
    expect((await labels(page))['reaction:lower_ball']).toBe(cornering.reactions.find((x) => x.id === 'lower_ball')!.label);

    // the colours are on the screen: without the sleeves there are (almost) none of them
    await page.click('#loads-draw');
    await settle(page);
    const plain = await shot(page, 'f03-forces-off');
    expect((await drawing(page)).shown).toBe(false);
    const coloured = (img: Image) => near(img, TENSION_COLOR) + near(img, COMPRESSION_COLOR);
    expect(coloured(withForces)).toBeGreaterThan(coloured(plain) + 200);
    await page.click('#loads-draw');
    await settle(page);

    // a chassis hardpoint dragged: the link forces follow
    await mouseDrag(page, await screenOf(page, 'upper_wishbone_inboard_front'), 0, 40);
    await settle(page);
    const dragged = await drawing(page);
    expect(dragged.links.find((l) => l.id === 'trackrod')!.tension).not.toBe(tr1.tension);

    // a sprung axle: the wheel rate in the read-outs and in a plot
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml'));
    await page.waitForFunction(() => window.__kinemate.snapshot().name.includes('u_bar_rates'));
    const axle = await settle(page);
    const rate = Number(axle.readouts['loads.wheel_rate']);
    expect(rate).toBeGreaterThan(1);
    await page.selectOption('.plot[data-metric="caster"] select', 'loads.wheel_rate');
    const plotted = await settle(page);
    const curve = plotted.plot['loads.wheel_rate'];
    expect(curve.filter((x) => x !== null).length).toBe(21);
    expect(curve[10]!).toBeCloseTo(Number(plotted.metrics['loads.wheel_rate']), 3);
    await shot(page, 'f04-axle-wheel-rate');
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('devices are drawn and draggable, their metrics plotted; the camber shim thickness is one undo entry that makes camber more negative', async () => {
    const { page, errors } = await openViewer();
    type Shape = { id: string; kind: string; a?: number[] };
    const devices = (): Promise<Shape[]> => page.evaluate(() => window.__kinemate.lastPose!.devices as unknown as Shape[]);
    const drawn = (): Promise<{ id: string; kind: string }[]> => page.evaluate(() => window.__kinemate.devices.state());
    // the U-bar axle: the bar and both arms drawn
    await page.selectOption('#template', 'axle_u_bar');
    await page.waitForFunction(() => window.__kinemate.snapshot().name.includes('u_bar'));
    await settle(page);
    expect((await drawn()).map((d) => d.id).sort()).toEqual(['left_u_bar_arm', 'right_u_bar_arm', 'u_bar']);
    await shot(page, 'f05-u-bar');
    // its axis point is a chassis hardpoint: a mouse drag moves the bar (one undo entry)
    const before = (await devices()).find((d) => d.id === 'u_bar')!;
    await mouseDrag(page, await screenOf(page, 'center_arb_u_bar_axis_a'), 0, 30);
    const moved = await settle(page);
    expect(moved.canUndo).toBe(true);
    expect((await devices()).find((d) => d.id === 'u_bar')!.a).not.toEqual(before.a);
    await page.keyboard.press('Control+z');
    await settle(page);
    expect((await devices()).find((d) => d.id === 'u_bar')!.a).toEqual(before.a);
    // a device metric in a plot
    await page.selectOption('.plot[data-metric="caster"] select', 'arb_arm_angle');
    const plotted = await settle(page);
    expect(plotted.plot.arb_arm_angle.filter((x) => x !== null).length).toBe(21);
    await shot(page, 'f06-u-bar-dragged-plotted');

    // the heave link and the T-bar
    await page.selectOption('#template', 'axle_heave_link');
    await page.waitForFunction(() => window.__kinemate.snapshot().name.includes('heave_link'));
    await settle(page);
    expect((await drawn()).map((d) => d.id)).toEqual(expect.arrayContaining(['heave_link', 'left_torsion_bar']));
    await shot(page, 'f07-heave-link');
    await page.selectOption('#template', 'axle_t_bar');
    await page.waitForFunction(() => window.__kinemate.snapshot().name.includes('t_bar'));
    await settle(page);
    expect((await drawn()).map((d) => d.id)).toEqual(expect.arrayContaining(['t_bar_crossbar', 't_bar_stem']));

    // the camber shim: its block drawn, its thickness typed in the devices panel
    await page.selectOption('#template', 'camber_shim');
    await page.waitForFunction(() => window.__kinemate.snapshot().name.includes('camber_shim'));
    const shim = await settle(page);
    expect((await drawn()).map((d) => d.id)).toEqual(['camber_shim']);
    const input = 'input[data-shim="config"]';
    expect(await page.inputValue(input)).toBe('5');
    const undoBefore = shim.canUndo;
    await page.fill(input, '8');
    await page.press(input, 'Enter');
    await page.waitForFunction((k) => window.__kinemate.snapshot().docKey !== k, shim.docKey);
    const thicker = await settle(page);
    await shot(page, 'f08-camber-shim-8mm');
    expect(Number(thicker.readouts.camber)).toBeLessThan(Number(shim.readouts.camber) - 0.05);
    expect(thicker.canUndo).toBe(true);
    await page.click('#undo');
    const undone = await settle(page);
    expect(undone.readouts).toEqual(shim.readouts);
    expect(undone.canUndo).toBe(undoBefore);
    expect(await page.inputValue(input)).toBe('5');
    expect(errors).toEqual([]);
    await page.close();
  }, 240_000);
});
