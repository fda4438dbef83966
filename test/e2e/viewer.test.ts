/**
 * The viewer end to end, in Debian's headless Chromium driven by playwright-core: the
 * built app served on a free port, real mouse drags (page.mouse), real key presses.
 * Screenshots of each state go to test-artifacts/ (git-ignored).
 *
 * Skipped, with a message, only when /usr/bin/chromium is absent (.ci/run installs it).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, noChromiumNotice, viewerSession, screenOf, settle, snap, warnIfNoChromium, type Snapshot } from './page';
import { decodePng, lumaVariance, colourCount } from '../../viewer/harness/png';

warnIfNoChromium('test/e2e/viewer');


/** A real drag with the mouse: press on `from`, move in steps by (dx, dy), release (or not). */
async function mouseDrag(page: Page, from: { x: number; y: number }, dx: number, dy: number, options: { steps?: number; release?: boolean } = {}): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  const steps = options.steps ?? 12;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(from.x + (dx * i) / steps, from.y + (dy * i) / steps);
  }
  if (options.release !== false) await page.mouse.up();
}

/** Joints through an entity of each part (the pin of a hinge, a ball's centre): a part's drawing must reach them. */
const JOINED = new Set(['revolute', 'ball', 'spherical', 'universal', 'cylindrical']);

async function shot(page: Page, name: string): Promise<Buffer> {
  const png = await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  return png;
}

describe.skipIf(!HAVE_CHROMIUM)('viewer in headless Chromium', () => {
  const openViewer = viewerSession();

  it('loads with no console errors and renders the default double wishbone', async () => {
    const { page, errors } = await openViewer();
    const s = await snap(page);
    expect(s.name).toBe('double_wishbone.yaml');
    expect(s.status).toBe('solved');
    expect(s.dof).toBe(2);
    expect(s.readouts.camber).toBe('-1.909'); // suspension.md's sanity geometry
    expect(s.readouts.caster).toBe('4.764');
    expect(s.plot.camber.length).toBe(21);
    await shot(page, '01-default-model');
    const canvas = await page.locator('#view canvas').screenshot();
    const img = decodePng(canvas);
    expect(lumaVariance(img)).toBeGreaterThan(50);
    expect(colourCount(img)).toBeGreaterThan(100);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a mouse drag of a chassis hardpoint changes the camber read-out and the plot; Ctrl+Z restores them exactly; Escape cancels', async () => {
    const { page, errors } = await openViewer();
    // bump the wheel first (a pull), so the camber read-out is at +travel, where the
    // pickups decide it; at design camber is set by the axle points alone
    await mouseDrag(page, await screenOf(page, 'wheel'), 0, -40);
    const before = await settle(page);
    expect(before.view.travel[0]).toBeGreaterThan(5);
    await shot(page, '02a-bumped');

    const pickup = await screenOf(page, 'upper_wishbone_inboard_front');
    await mouseDrag(page, pickup, 0, 45);
    const after = await settle(page);
    await shot(page, '02b-pickup-dragged');
    expect(after.docKey).not.toBe(before.docKey);
    expect(after.canUndo).toBe(true);
    expect(after.readouts.camber).not.toBe(before.readouts.camber);
    expect(after.readouts.deriv_camber_wrt_hub_z).not.toBe(before.readouts.deriv_camber_wrt_hub_z);
    expect(after.plot.camber).not.toEqual(before.plot.camber);
    expect(after.view.travel[0]).toBeCloseTo(before.view.travel[0], 9); // the pull's travel is kept

    // one undo entry for the whole drag
    await page.keyboard.press('Control+z');
    const undone = await settle(page);
    await shot(page, '02c-undone');
    expect(undone.readouts).toEqual(before.readouts);
    expect(undone.plot).toEqual(before.plot);
    expect(undone.points).toEqual(before.points);
    expect(undone.canUndo).toBe(false);

    await page.keyboard.press('Control+Shift+z');
    const redone = await settle(page);
    expect(redone.readouts).toEqual(after.readouts);

    // Escape during a drag rolls it back: no entry, nothing moved
    await page.keyboard.press('Control+z');
    const base = await settle(page);
    await mouseDrag(page, await screenOf(page, 'upper_wishbone_inboard_rear'), 30, 30, { release: false });
    const mid = await settle(page);
    expect(mid.readouts.camber).not.toBe(base.readouts.camber);
    await page.keyboard.press('Escape');
    await page.mouse.up();
    const cancelled = await settle(page);
    expect(cancelled.readouts).toEqual(base.readouts);
    expect(cancelled.canUndo).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('dragging the wheel moves the linkage', async () => {
    const { page, errors } = await openViewer();
    const before = await snap(page);
    await mouseDrag(page, await screenOf(page, 'wheel'), 0, -60);
    const after = await settle(page);
    await shot(page, '03-wheel-dragged');
    expect(after.status).toBe('solved');
    expect(after.view.travel[0]).toBeGreaterThan(10);
    expect(Number(after.readouts.wheel_travel)).toBeCloseTo(after.view.travel[0], 1);
    const z = (s: Snapshot, ref: string) => s.points[ref][2];
    expect(z(after, 'upright.upper_wishbone_outboard')).toBeGreaterThan(z(before, 'upright.upper_wishbone_outboard') + 5);
    expect(z(after, 'lower_wishbone.lower_wishbone_inboard_front')).toBeCloseTo(z(before, 'lower_wishbone.lower_wishbone_inboard_front'), 6); // pivots stay
    expect(after.readouts.camber).not.toBe(before.readouts.camber);
    // the rack steers
    await mouseDrag(page, await screenOf(page, 'trackrod_inboard'), 40, 0);
    const steered = await settle(page);
    await shot(page, '03b-rack-dragged');
    expect(Math.abs(steered.view.rack)).toBeGreaterThan(1);
    expect(steered.readouts.toe_angle).not.toBe(after.readouts.toe_angle);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a drag beyond reach keeps the last good pose and says why', async () => {
    const { page, errors } = await openViewer();
    const wheel = await screenOf(page, 'wheel');
    // up and on, past the top of the page (the pointer is captured): far beyond the bump stop
    await mouseDrag(page, wheel, 0, -(wheel.y + 600), { steps: 40, release: false });
    const s = await settle(page);
    await shot(page, '04-beyond-reach');
    expect(s.hud.status).toMatch(/failed|limit/i);
    expect(s.message).toMatch(/cannot|reach/i);
    // the HUD lists the rows that cannot close; when the step that failed broke only the
    // pull's own rows (which pointer positions reach the worker depends on its load), the
    // message says instead where the wheel stopped
    if (s.hud.failed.length === 0) expect(s.message).toMatch(/beyond reach: the wheel stops at [+−-]?\d/);
    for (const p of Object.values(s.points)) expect(p.every(Number.isFinite)).toBe(true);
    expect(s.view.travel[0]).toBeGreaterThan(20); // it went as far as it could
    await page.mouse.up();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a 100-link chain opens in the generic mode and draws every link (the batches grow past their first size)', async () => {
    const { page, errors } = await openViewer();
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/chain.kinemate.json'));
    await page.waitForFunction(() => window.__kinemate.snapshot().name === 'chain.kinemate.json');
    const s = await settle(page);
    expect(s.dof).toBe(97);
    const counts = await page.evaluate(() => window.__kinemate.scene.batchCounts());
    expect(counts.tubes).toBeGreaterThanOrEqual(99); // a tube per moving link
    expect(counts.handles).toBeGreaterThanOrEqual(2 * 99); // both ends of every moving link
    await shot(page, '11-chain');
    const img = decodePng(await page.locator('#view canvas').screenshot());
    expect(lumaVariance(img)).toBeGreaterThan(50);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a malformed file shows a clear error and keeps the model', async () => {
    const { page, errors } = await openViewer();
    const before = await snap(page);
    const bad = 'type: double_wishbone\nhardpoints:\n  lower_wishbone_outboard: { x: 0, y: wide, z: 200 }\n';
    await page.setInputFiles('#file', { name: 'bad.yaml', mimeType: 'application/yaml', buffer: Buffer.from(bad) });
    await page.waitForSelector('#error:not([hidden])');
    const s = await settle(page);
    await shot(page, '05-malformed-file');
    expect(s.error).toContain('bad.yaml');
    expect(s.error).toContain('hardpoints.lower_wishbone_outboard.y');
    expect(s.name).toBe(before.name);
    expect(s.readouts).toEqual(before.readouts);
    // a broken assembly dropped on the window: the loader's path is named
    const badAssembly = JSON.stringify({ format: 'kinemate.assembly/1', name: 'x', units: { length: 'mm', angle: 'deg' }, parts: { a: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { p: [0, 0, 0] } } }, mates: { m: { type: 'ball', a: 'a.p', b: 'nope.q' } } });
    await page.evaluate((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'broken.kinemate.json', { type: 'application/json' }));
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, badAssembly);
    await page.waitForFunction(() => window.__kinemate.snapshot().error?.includes('broken.kinemate.json'));
    const t = await snap(page);
    expect(t.error).toMatch(/mates\.m\.b/);
    expect(t.name).toBe(before.name);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('switching templates works, and any *.kinemate.json opens in the generic mode', async () => {
    const { page, errors } = await openViewer();
    const expected: Record<string, number> = { double_wishbone_pushrod: 2, macpherson: 2, multi_link: 2, trailing_arm: 1, fourbar: 1, double_wishbone: 2 };
    for (const [id, dof] of Object.entries(expected)) {
      await page.selectOption('#template', id);
      await page.waitForFunction((name) => window.__kinemate.snapshot().name.startsWith(name), id === 'fourbar' ? 'four-bar' : id);
      const s = await settle(page);
      await shot(page, `06-template-${id}`);
      expect(s.status).toBe('solved');
      expect(s.dof).toBe(dof);
      if (id !== 'fourbar') expect(s.plot.camber.filter((x) => x !== null).length).toBeGreaterThan(10);
    }
    // the four-bar: drag the coupler (a pull through the mechanism's own coordinate)
    await page.selectOption('#template', 'fourbar');
    const fb = await settle(page);
    await mouseDrag(page, await screenOf(page, 'coupler.mid'), 60, -40);
    const dragged = await settle(page);
    await shot(page, '06b-fourbar-dragged');
    expect(dragged.status).toBe('solved');
    expect(dragged.points['coupler.mid']).not.toEqual(fb.points['coupler.mid']);
    // undo walks back through the template switches
    await page.keyboard.press('Control+z');
    const back = await settle(page);
    expect(back.name).not.toBe('four-bar.kinemate.json');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('what-if: a pinned baseline stays beside the edited design, with the differences', async () => {
    const { page, errors } = await openViewer();
    await page.click('#pin-baseline');
    await mouseDrag(page, await screenOf(page, 'wheel'), 0, -30);
    await mouseDrag(page, await screenOf(page, 'lower_wishbone_inboard_rear'), 0, 40);
    const s = await settle(page);
    await shot(page, '07-baseline');
    expect(s.baseline).toBe(true);
    expect(s.deltas.camber).toMatch(/^Δ [+-]\d/);
    expect(s.deltas.deriv_camber_wrt_hub_z).not.toBe('Δ +0.00000');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('assemble mode: rods mated between parts by clicks change the DOF as expected; the saved file solves with kinemate solve', async () => {
    const { page, errors } = await openViewer();
    await page.click('#assemble');
    let s = await settle(page);
    expect(s.kind).toBe('assembly');
    expect(s.dof).toBe(0); // the ground alone
    await page.selectOption('#asm-part', 'rod');
    for (const expected of [6, 12]) {
      await page.click('#asm-add');
      s = await settle(page);
      expect(s.dof).toBe(expected);
    }
    // ground.A – rod – rod2 – ground.B with ball joints: 12 − 3 × 3 = 3 (each rod's idle
    // spin about its own axis, and the chain's swing about A–B)
    const mates: [string, string, number][] = [['ground.A', 'rod.a', 9], ['rod.b', 'rod2.a', 6], ['rod2.b', 'ground.B', 3]];
    for (const [a, b, dof] of mates) {
      for (const ref of [a, b]) {
        const p = await screenOf(page, ref);
        await page.mouse.click(p.x, p.y);
      }
      s = await settle(page);
      expect(s.status).toBe('solved');
      expect(s.dof).toBe(dof);
    }
    await shot(page, '08-assembled');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-assembly')]);
    const file = join(ARTIFACTS, 'assembled.kinemate.json');
    await download.saveAs(file);
    const solved = JSON.parse(execFileSync(process.execPath, [join(REPO_ROOT, 'bin/kinemate.js'), 'solve', file], { encoding: 'utf8' }));
    expect(solved.status).toBe('solved');
    expect(solved.dof).toBe(3);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a plot shows the metric its menu picks: a virtual-axis metric brings the steering response into the sweep', async () => {
    const { page, errors } = await openViewer();
    const before = await snap(page);
    expect(Object.keys(before.plot)).toEqual(['camber', 'toe_angle', 'caster']);
    const menus = page.locator('#plots select.plot-metric');
    await menus.nth(1).selectOption('kpi_virtual');
    await menus.nth(2).selectOption('scrub_radius');
    const s = await settle(page);
    expect(Object.keys(s.plot)).toEqual(['camber', 'kpi_virtual', 'scrub_radius']);
    for (const key of ['kpi_virtual', 'scrub_radius']) {
      expect(s.plot[key]).toHaveLength(21);
      expect(s.plot[key].every((x) => typeof x === 'number')).toBe(true);
    }
    // at travel 0 (step 10 of -50..50 in 21) each curve passes through the read-out at design
    expect(s.plot.kpi_virtual[10]!.toFixed(3)).toBe(s.readouts.kpi_virtual);
    expect(s.plot.scrub_radius[10]!.toFixed(2)).toBe(s.readouts.scrub_radius);
    // hovering a plot reads the curve under the pointer: the middle of the camber plot is travel 0
    const box = (await page.locator('#plots .plot').first().locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(() => page.locator('#plots .plot-readout').first().textContent()).toMatch(/^-?0\.0 mm: -1\.909 °$/);
    await shot(page, '09-plots-chosen');
    // two routes to one axis: a double wishbone's virtual steering axis (the screw of its
    // steering response) is the physical one through its ball joints, at every travel
    await menus.nth(2).selectOption('kpi');
    const k = await settle(page);
    expect(k.plot.kpi).toHaveLength(21);
    k.plot.kpi_virtual.forEach((x, i) => expect(x).toBeCloseTo(k.plot.kpi[i] as number, 6));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sweeps: bump or steer from the menu or from a sweep file (range, steps, hold); any other sweep file is refused with where it runs', async () => {
    const { page, errors } = await openViewer();
    // a file is read asynchronously: wait for the banner naming it, then for the solves
    const open = async (path: string) => {
      const name = path.split('/').at(-1)!;
      await page.setInputFiles('#file', path);
      await page.waitForFunction((n) => (document.getElementById('error-text')?.textContent ?? '').includes(n), name);
      return settle(page);
    };
    const sweepFile = join(ARTIFACTS, 'bump-20.yaml');
    writeFileSync(sweepFile, 'version: 1\nsteps: 9\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: relative, start: -20, stop: 60 }\n  - { type: actuator_position, actuator: rack, direction: { axis: y }, hold: true }\nanalysis: { virtual_steering: { suspension_hold: contact_patch } }\n');
    let s = await open(sweepFile);
    expect(s.notice).toContain('Bump sweep from bump-20.yaml: -20 to 60 mm in 9 steps');
    expect(s.error).toBeNull();
    expect(s.name).toBe('double_wishbone.yaml'); // the model stays
    expect(s.plot.camber).toHaveLength(9);
    expect(await page.inputValue('#hold')).toBe('contact_patch');

    // the steer sweep of the examples: toe against rack travel, through the read-out at centre
    s = await open(join(REPO_ROOT, 'examples/suspension/steer.yaml'));
    expect(s.notice).toContain('Steer sweep from steer.yaml: -30 to 30 mm in 11 steps');
    expect(await page.inputValue('#sweep-kind')).toBe('steer');
    expect(s.plot.toe_angle).toHaveLength(11);
    expect(Math.abs(s.plot.toe_angle[5]! - Number(s.readouts.toe_angle))).toBeLessThanOrEqual(5e-4); // shown to 3 decimals
    const toe = s.plot.toe_angle as number[];
    expect(Math.max(...toe) - Math.min(...toe)).toBeGreaterThan(5); // the rack steers the wheel by degrees
    await shot(page, '10-steer-sweep');

    // back to bump from the menu: the bump range comes back
    await page.selectOption('#sweep-kind', 'bump');
    s = await settle(page);
    expect(await page.inputValue('#sweep-from')).toBe('-20');
    expect(s.plot.camber).toHaveLength(9);

    // a sweep to absolute wheel-centre heights is not one the plots draw
    const absoluteFile = join(ARTIFACTS, 'absolute.yaml');
    writeFileSync(absoluteFile, 'version: 1\nsteps: 5\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: absolute, start: 250, stop: 350 }\n');
    s = await open(absoluteFile);
    expect(s.error).toContain('absolute.yaml');
    expect(s.error).toContain('wheel_center z (absolute)');
    expect(s.error).toContain('kinemate sweep');
    expect(s.plot.camber).toHaveLength(9); // nothing changed

    // a range typed with no length is named and put back
    await page.fill('#sweep-to', '-20');
    await page.press('#sweep-to', 'Enter');
    s = await settle(page);
    expect(s.error).toContain('needs a range');
    expect(await page.inputValue('#sweep-to')).toBe('60');
    expect(s.plot.camber).toHaveLength(9);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('exports the sweep as CSV and saves the geometry and the assembly', async () => {
    const { page, errors } = await openViewer();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    const csvText = await (await csv.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks as Buffer[]).toString('utf8'));
    expect(csvText.split('\n')[0]).toContain('camber');
    expect(csvText.trim().split('\n').length).toBe(22);
    const [asm] = await Promise.all([page.waitForEvent('download'), page.click('#save-assembly')]);
    expect(asm.suggestedFilename()).toBe('double_wishbone.kinemate.json');
    const [geo] = await Promise.all([page.waitForEvent('download'), page.click('#save-geometry')]);
    const geoText = await (await geo.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks as Buffer[]).toString('utf8'));
    writeFileSync(join(ARTIFACTS, 'saved-geometry.yaml'), geoText);
    expect(geoText).toContain('upper_wishbone_inboard_front');
    expect(errors).toEqual([]);
    await page.close();
  });
  it('saves the plots shown as SVG (one path per curve, a point per state) and PNG, and exports the sweep as glTF naming the parts', async () => {
    const { page, errors } = await openViewer();
    const read = async (d: Download): Promise<Buffer> => Buffer.concat(await (await d.createReadStream()).toArray() as Buffer[]);
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));
    await page.click('#save-plots');
    await expect.poll(() => downloads.length, { timeout: 60_000 }).toBe(2);
    const svgFile = downloads.find((d) => d.suggestedFilename().endsWith('.svg'))!;
    const pngFile = downloads.find((d) => d.suggestedFilename().endsWith('.png'))!;
    expect(svgFile.suggestedFilename()).toBe('double_wishbone-bump-plots.svg');
    const svg = (await read(svgFile)).toString('utf8');
    writeFileSync(join(ARTIFACTS, 'saved-plots.svg'), svg);
    // parsed by the browser's XML parser: one line path per plot shown, 21 points each
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.nodeName,
        lines: Array.from(doc.querySelectorAll('g.mark-line path'), (p) => p).map((p) => (p.getAttribute('d') ?? '').match(/[ML]/g)?.length ?? 0),
      };
    }, svg);
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    expect(parsed.lines).toEqual([21, 21, 21]);
    const png = await read(pngFile);
    writeFileSync(join(ARTIFACTS, 'saved-plots.png'), png);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const image = decodePng(png);
    expect([image.width, image.height]).toEqual([720, 60 + 220 * 3]);
    expect(lumaVariance(image)).toBeGreaterThan(10);

    const [glbFile] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.click('#export-gltf')]);
    expect(glbFile.suggestedFilename()).toBe('double_wishbone-bump.glb');
    const glb = await read(glbFile);
    writeFileSync(join(ARTIFACTS, 'saved-sweep.glb'), glb);
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(glb.readUInt32LE(4)).toBe(2);
    expect(glb.readUInt32LE(8)).toBe(glb.length);
    expect(glb.subarray(16, 20).toString('latin1')).toBe('JSON');
    const json = JSON.parse(glb.subarray(20, 20 + glb.readUInt32LE(12)).toString('utf8')) as { nodes: { name: string }[]; animations: { samplers: { input: number }[] }[]; accessors: { count: number }[] };
    const names = json.nodes.map((n) => n.name);
    expect(names).toContain('kinemate');
    expect(names.some((n) => /upper.*wishbone|wishbone.*upper/i.test(n))).toBe(true);
    expect(names.some((n) => n.endsWith('_tyre'))).toBe(true);
    // a keyframe per state of the sweep shown (21)
    expect(json.accessors[json.animations[0].samplers[0].input].count).toBe(21);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('every template and every example geometry draws every moving part, joined at its joints (issue 16: the trailing arm had no arm)', async () => {
    const { page, errors } = await openViewer();
    // every geometry file (sweep files, which set the plots' range, have no hardpoints)
    const dir = join(REPO_ROOT, 'examples/suspension');
    const files = readdirSync(dir).filter((f) => f.endsWith('.kinemate.json') || (/\.ya?ml$/.test(f) && readFileSync(join(dir, f), 'utf8').includes('hardpoints'))).sort();
    expect(files.length).toBeGreaterThan(15);
    const templates = await page.$$eval('#template option', (os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ''));
    const models: { label: string; open: () => Promise<unknown> }[] = [
      // the current model (the first template) last: picking it again would change nothing
      ...templates.reverse().map((id) => ({ label: `template ${id}`, open: () => page.selectOption('#template', id) })),
      ...files.map((f) => ({ label: f, open: () => page.setInputFiles('#file', join(REPO_ROOT, 'examples/suspension', f)) })),
    ];
    const undrawn: string[] = [];
    for (const m of models) {
      const before = (await snap(page)).poseDocKey;
      await m.open();
      await page.waitForFunction((k) => { const s = window.__kinemate.snapshot(); return s.poseDocKey !== k || s.error !== null; }, before)
        .catch((e: Error) => { throw new Error(`${m.label}: ${e.message}`); });
      const s = await settle(page);
      expect(s.error, m.label).toBeNull();
      const drawn = await page.evaluate(() => {
        const structure = window.__kinemate.lastPose!.structure;
        return { bodies: window.__kinemate.scene.partBodies(), parts: structure.parts, joints: structure.joints, points: window.__kinemate.lastPose!.points, scale: window.__kinemate.lastPose!.lengthScale };
      });
      for (const part of drawn.parts) {
        if (part.fixed) continue;
        if (!(drawn.bodies[part.name] >= 1)) undrawn.push(`${m.label}: ${part.name} has no body drawn`);
        // every joint of the part (a hinge, a ball) sits on the part's drawing: no floating pivots
        for (const j of drawn.joints) {
          if (!JOINED.has(j.type)) continue;
          const drawnAt = (ref: string) => part.refs.some((r) => { const a = drawn.points[r], b = drawn.points[ref]; return a && b && Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) < 1e-6 * drawn.scale; });
          for (const ref of [j.at, j.to]) if (ref.startsWith(`${part.name}.`) && !drawnAt(ref)) undrawn.push(`${m.label}: ${part.name} is not drawn to its joint ${j.id} (${ref})`);
        }
      }
    }
    expect(undrawn).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  it('the trailing arm offers only what it has (no caster plot, no empty Hold menu); a generic assembly shows no suspension controls; "(opened file)" is not pickable before a file is opened', async () => {
    const { page, errors } = await openViewer();
    const visible = (id: string) => page.evaluate((i) => { const el = document.getElementById(i)!; return !el.hidden && el.offsetParent !== null; }, id);
    const opened = () => page.$eval('#template-opened', (o) => ({ hidden: (o as HTMLOptionElement).hidden, disabled: (o as HTMLOptionElement).disabled }));
    // the default double wishbone: every suspension control, caster plotted
    expect(await visible('hold-control')).toBe(true);
    expect(await visible('sweep-control')).toBe(true);
    expect(await visible('hint-suspension')).toBe(true);
    expect(await visible('hint-assembly')).toBe(false);
    expect((await snap(page)).plot.caster.filter((x) => x !== null).length).toBe(21);
    expect(await opened()).toEqual({ hidden: true, disabled: true });

    await page.selectOption('#template', 'trailing_arm');
    await page.waitForFunction(() => window.__kinemate.snapshot().name === 'trailing_arm.yaml');
    const ta = await settle(page);
    expect(await visible('hold-control')).toBe(false);
    expect(await visible('sweep-control')).toBe(true);
    const offered = await page.$$eval('#plots select.plot-metric', (ms) => ms.map((m) => Array.from((m as HTMLSelectElement).options).filter((o) => !o.disabled).map((o) => o.value)));
    for (const menu of offered) {
      expect(menu).not.toContain('caster');
      expect(menu).not.toContain('kpi');
      expect(menu).toContain('camber');
    }
    // every plot shows a curve: none is an empty frame
    for (const [metric, series] of Object.entries(ta.plot)) expect(series.filter((x) => x !== null).length, metric).toBe(21);
    await shot(page, '14-trailing-arm');

    await page.selectOption('#template', 'fourbar');
    await page.waitForFunction(() => window.__kinemate.snapshot().name === 'four-bar.kinemate.json');
    await settle(page);
    expect(await visible('hold-control')).toBe(false);
    expect(await visible('sweep-control')).toBe(false);
    expect(await visible('hint-suspension')).toBe(false);
    expect(await visible('hint-assembly')).toBe(true);
    expect(await opened()).toEqual({ hidden: true, disabled: true });

    // back to a suspension: its plots show caster again (the menu's own pick comes back)
    await page.selectOption('#template', 'double_wishbone');
    await page.waitForFunction(() => window.__kinemate.snapshot().name === 'double_wishbone.yaml');
    const dw = await settle(page);
    expect(dw.plot.caster.filter((x) => x !== null).length).toBe(21);
    expect(await visible('hold-control')).toBe(true);

    // an opened file: the entry names it and is the one picked
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/four-bar.kinemate.json'));
    await page.waitForFunction(() => window.__kinemate.snapshot().name === 'four-bar.kinemate.json' || window.__kinemate.snapshot().error !== null);
    await settle(page);
    expect(await page.$eval('#template', (s) => (s as HTMLSelectElement).value)).toBe('fourbar');
    await page.setInputFiles('#file', join(REPO_ROOT, 'examples/slider-crank.kinemate.json'));
    await page.waitForFunction(() => window.__kinemate.snapshot().name === 'slider-crank.kinemate.json');
    await settle(page);
    expect(await opened()).toEqual({ hidden: false, disabled: false });
    expect(await page.$eval('#template', (s) => (s as HTMLSelectElement).value)).toBe('');
    expect(errors).toEqual([]);
    await page.close();
  });
});

noChromiumNotice();
