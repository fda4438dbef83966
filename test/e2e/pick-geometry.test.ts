/**
 * Mates by picking CAD geometry, end to end in Debian's headless Chromium: an assembly
 * whose two parts carry STL cylinders (a bore on the fixed ground, a pin on a free arm) is
 * opened with its geometry files; in assemble mode the pointer over the bore's side
 * highlights its cylindrical face, a click adds its axis to the part, a click on the pin's
 * side picks the pin's axis and makes the revolute: the DOF goes from 6 to 1. Before, the
 * closest pair is drawn with its clearance (90 mm, the closed form); after, the parts are
 * joined and no longer a pair. The saved
 * document holds the picked axes as ordinary entities. A STEP file is read in the browser
 * too. Screenshots go to test-artifacts/.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, settle, viewerSession, warnIfNoChromium } from './page';
import { rodCylinder, stlBytes } from '../../scripts/cad/solids';

warnIfNoChromium('test/e2e/pick-geometry');

const pose = (x: number) => ({ position: [x, 0, 0], rotation: [1, 0, 0, 0] });
const assembly = {
  format: 'kinemate.assembly/1',
  name: 'bore and pin',
  units: { length: 'mm', angle: 'deg' },
  parts: {
    ground: { fixed: true, pose: pose(0), points: { a: [0, 0, -30], b: [40, 40, 30] }, geometry: [{ file: 'bore.stl' }] },
    arm: { pose: pose(120), points: { tip: [0, 0, 50], foot: [0, 0, -50] }, geometry: [{ file: 'pin.stl' }] },
  },
  mates: {}, state: {}, held: [],
};
const file = (name: string, bytes: Uint8Array | string, mimeType: string) => ({ name, mimeType, buffer: Buffer.from(bytes) });

describe.skipIf(!HAVE_CHROMIUM)('picking CAD geometry in headless Chromium', () => {
  const openViewer = viewerSession();

  it('hover highlights the cylindrical face, two clicks on cylinders make a revolute: DOF 6 → 1', async () => {
    const { page, errors } = await openViewer();
    await page.setInputFiles('#file', [
      file('bore-and-pin.kinemate.json', JSON.stringify(assembly), 'application/json'),
      file('bore.stl', stlBytes([rodCylinder([0, 0, -30], [0, 0, 30], 20)], 24), 'model/stl'),
      file('pin.stl', stlBytes([rodCylinder([0, 0, -50], [0, 0, 50], 10)], 24), 'model/stl'),
    ]);
    let s = await settle(page);
    expect(s.kind).toBe('assembly');
    expect(s.dof).toBe(6);
    await page.waitForFunction(() => Object.keys(window.__kinemate.geometryDrawn()).length === 2, null, { timeout: 30_000 });
    expect(await page.evaluate(() => window.__kinemate.geometryDrawn())).toEqual({ ground: 96, arm: 96 });
    // the closest pair, drawn: the pin's side 120 − 10 from the axis, the bore's 20 (both have a vertex there)
    await page.waitForFunction(() => Object.keys(window.__kinemate.clearances()).length === 1, null, { timeout: 30_000 });
    const clear = await page.evaluate(() => window.__kinemate.clearances());
    expect(clear['ground:arm'].distance).toBeCloseTo(90, 3);
    expect(clear['ground:arm'].touching).toBe(false);
    expect(await page.textContent('#clearance-label')).toBe('ground – arm: 90.0 mm');
    await page.click('#assemble');
    s = await settle(page);
    expect(s.kind).toBe('assembly');

    // the bore's side, towards the camera (−y), between its rims
    const bore = (await page.evaluate(() => window.__kinemate.screenOfPartPoint('ground', [0, -20, 5])))!;
    await page.mouse.move(bore.x, bore.y);
    await settle(page);
    expect(await page.evaluate(({ x, y }) => window.__kinemate.surfaceAt(x, y), bore)).toEqual({ part: 'ground', feature: 'cylindrical face', kind: 'axis' });
    await page.screenshot({ path: join(ARTIFACTS, 'pick-geometry-hover.png') });
    await page.mouse.click(bore.x, bore.y);
    s = await settle(page);
    expect(await page.textContent('#asm-status')).toMatch(/^Picked ground\.pick_axis_1 \(axis: cylindrical face, radius 20\.00 mm/);

    const pin = (await page.evaluate(() => window.__kinemate.screenOfPartPoint('arm', [0, -10, 20])))!;
    await page.mouse.click(pin.x, pin.y);
    s = await settle(page);
    expect(await page.$$eval('#asm-mates li', (items) => items.at(-1)?.textContent ?? '')).toMatch(/^revolute_\w+: revolute ground\.pick_axis_1 – arm\.pick_axis_1$/);
    expect(s.ok).toBe(true);
    expect(s.dof).toBe(1);
    expect(await page.evaluate(() => window.__kinemate.clearances())).toEqual({}); // joined by a mate: not a pair
    // the arm now turns about the bore's axis: its foot and tip are on the z axis
    expect(Math.hypot(s.points['arm.tip'][0], s.points['arm.tip'][1])).toBeLessThan(1e-6);
    await page.screenshot({ path: join(ARTIFACTS, 'pick-geometry-mated.png') });
    // one undo takes the mate back, the next the picked axis
    await page.keyboard.press('Control+z');
    s = await settle(page);
    expect(s.dof).toBe(6);
    expect(errors).toEqual([]);
  }, 180_000);

  it("reads a STEP file in the browser (the reader's WebAssembly served by the bundle): the tyre's split side is one cylindrical face", async () => {
    const { page, errors } = await openViewer();
    const doc = { ...assembly, parts: { ground: { fixed: true, pose: pose(0), points: { centre: [-20, 950, 313.426] }, geometry: [{ file: 'tyre.step' }] } } };
    await page.setInputFiles('#file', [
      file('tyre.kinemate.json', JSON.stringify(doc), 'application/json'),
      file('tyre.step', readFileSync(join(REPO_ROOT, 'examples/cad/step/tyre.step')), 'application/step'),
    ]);
    await settle(page);
    await page.waitForFunction(() => Object.keys(window.__kinemate.geometryDrawn()).length === 1, null, { timeout: 60_000 });
    await page.click('#assemble');
    await settle(page);
    const tread = (await page.evaluate(() => window.__kinemate.screenOfPartPoint('ground', [100, 950, 313.426 + 280])))!;
    expect(await page.evaluate(({ x, y }) => window.__kinemate.surfaceAt(x, y), tread)).toEqual({ part: 'ground', feature: 'cylindrical face', kind: 'axis' });
    expect((await settle(page)).error).toBeNull();
    expect(errors).toEqual([]);
  }, 180_000);

  it('the CAD corner (a suspension file and its STL files): six bodies drawn, the closest pair measured live', async () => {
    const { page, errors } = await openViewer();
    const bodies = ['upright', 'lower_wishbone', 'upper_wishbone', 'tyre', 'damper', 'wheelhouse_liner'];
    await page.setInputFiles('#file', [
      join(REPO_ROOT, 'examples/cad/double_wishbone_stl.yaml'),
      ...bodies.map((b) => join(REPO_ROOT, `examples/cad/stl/${b}.stl`)),
    ]);
    const s = await settle(page);
    expect(s.kind).toBe('suspension');
    await page.waitForFunction(() => Object.keys(window.__kinemate.clearances()).length > 0, null, { timeout: 60_000 });
    expect(Object.keys(await page.evaluate(() => window.__kinemate.geometryDrawn())).sort()).toEqual(['chassis', 'damper', 'lower_wishbone', 'tyre', 'upper_wishbone', 'upright']);
    const clear = await page.evaluate(() => window.__kinemate.clearances());
    // pairs in the order the file lists its bodies; at design everything clears (the tyre
    // touches the liner only at full bump and lock); joined bodies are no pairs
    expect(Object.keys(clear)).toContain('tyre:chassis');
    for (const [pair, c] of Object.entries(clear)) expect(c.distance, pair).toBeGreaterThan(5);
    expect(clear['upright:tyre']).toBeUndefined();
    expect(clear['upper_wishbone:chassis']).toBeUndefined();
    await page.screenshot({ path: join(ARTIFACTS, 'pick-geometry-corner.png') });
    // full bump, full lock: the tyre reaches into the liner (1 mm for the round tyre, less for
    // the 64-sided STL one), the pair drawn red
    await page.evaluate(() => { const live = window.__kinemate.live; live.setSettings({ ...live.settings, view: { travel: [50], rack: -30 } }); });
    await settle(page);
    await page.waitForFunction(() => window.__kinemate.clearances()['tyre:chassis']?.touching === true, null, { timeout: 30_000 });
    const depth = (await page.evaluate(() => window.__kinemate.clearances()))['tyre:chassis'].distance;
    expect(depth).toBeLessThan(-0.5);
    expect(depth).toBeGreaterThan(-1.01);
    expect(await page.textContent('#clearance-label')).toMatch(/^tyre – chassis: touching, 0\.\d mm deep$/);
    // the envelope the tyre sweeps, drawn translucent: computed in a worker, so the click
    // returns at once (nothing drawn yet) and the page counts the grid's states meanwhile
    await page.click('#envelope');
    expect(await page.evaluate(() => window.__kinemate.envelope.triangles)).toBe(0);
    await page.waitForFunction(() => window.__kinemate.envelope.triangles > 0 || /\d+ of 49 states solved/.test(window.__kinemate.snapshot().notice ?? ''), null, { timeout: 60_000 });
    await page.waitForFunction(() => window.__kinemate.envelope.triangles > 0, null, { timeout: 60_000 });
    expect(await page.evaluate(() => window.__kinemate.snapshot().notice)).toMatch(/^Envelope of the tyre over bump −50…50 mm × rack −30…30 mm \(7 × 7 states\): \d+ triangles/);
    await settle(page);
    await page.screenshot({ path: join(ARTIFACTS, 'pick-geometry-corner-touching.png') });
    expect(errors).toEqual([]);
  }, 180_000);
});
