/**
 * Assemble mode end to end, in Debian's headless Chromium driven by playwright-core (the
 * harness of viewer.test.ts): a double-wishbone corner built from library parts by real
 * mouse clicks on entity handles — revolutes between axes, balls between points, a
 * conflicting ball re-made as a distance from the mate menu — with the DOF read-out
 * checked after every step; the saved file run through the real `kinemate solve`; a part
 * imported and undone; then suspension roles applied from the panel, after which the
 * camber read-out and the bump plot come from the suspension analysis of this assembly.
 * Screenshots go to test-artifacts/ (git-ignored).
 *
 * Skipped, with a message, only when /usr/bin/chromium is absent (.ci/run installs it).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, viewerSession, settle, screenOf, warnIfNoChromium } from './page';
import { parseAssembly } from '../../src/assembly';
import { SuspensionModel } from '../../src/suspension/build/model';
import { evaluateState } from '../../src/suspension/metrics/state';

warnIfNoChromium('test/e2e/assemble');


/** A real click on an entity's handle; the panel must say that entity was picked (not another in front of it). */
async function clickEntity(page: Page, ref: string): Promise<void> {
  const p = await screenOf(page, ref);
  await page.mouse.click(p.x, p.y);
}

async function status(page: Page): Promise<string> {
  return (await page.textContent('#asm-status')) ?? '';
}

/** The last mate in the panel's list: `id: type a – b`. */
async function lastMate(page: Page): Promise<string> {
  return page.$$eval('#asm-mates li', (items) => items.at(-1)?.textContent ?? '');
}

const menuTypes = (page: Page) => page.$$eval('#asm-mate option', (os) => os.map((o) => (o as HTMLOptionElement).value));

/** Runs the real command line (`npx kinemate`, this package's own bin) and parses its JSON. */
function kinemate(...args: string[]): { status: string; dof: number } {
  return JSON.parse(execFileSync('npx', ['kinemate', ...args], { cwd: REPO_ROOT, encoding: 'utf8' }));
}

describe.skipIf(!HAVE_CHROMIUM)('assemble mode in headless Chromium', () => {
  const openViewer = viewerSession();

  it('builds a corner by clicks (DOF after every mate), saves a file kinemate solves, imports a part, and runs the suspension metrics after roles are applied', async () => {
    const { page, errors } = await openViewer();

    await page.click('#assemble');
    let s = await settle(page);
    expect(s.kind).toBe('assembly');
    expect(s.dof).toBe(0); // the ground alone
    expect(await page.isDisabled('#asm-mate')).toBe(true);

    const addPart = async (id: string, dof: number) => {
      await page.selectOption('#asm-part', id);
      await page.click('#asm-add');
      s = await settle(page);
      expect(s.dof).toBe(dof);
    };
    /** Two clicks; the mate made (its type), the menu's types, the DOF after. */
    const mate = async (a: string, b: string, expected: { type: string; menu: string[]; dof?: number; ok?: boolean }) => {
      await clickEntity(page, a);
      expect(await status(page)).toContain(`Picked ${a} `);
      await clickEntity(page, b);
      s = await settle(page);
      expect(await lastMate(page)).toMatch(new RegExp(`^${expected.type}_\\w+: ${expected.type} ${a.replace('.', '\\.')} – ${b.replace('.', '\\.')}$`));
      expect(await menuTypes(page)).toEqual(expected.menu);
      expect(await page.inputValue('#asm-mate')).toBe(expected.type);
      expect(s.ok).toBe(expected.ok ?? true);
      if (expected.dof !== undefined) expect(s.dof).toBe(expected.dof);
    };
    const AXIS_AXIS = ['revolute', 'coincident', 'concentric', 'slider', 'cylindrical', 'parallel', 'perpendicular', 'angle', 'universal', 'pinslot', 'planar'];
    const POINT_POINT = ['ball', 'coincident', 'distance'];

    // the lower A-arm on the ground's low hinge axis: 6 − 5
    await addPart('a_arm', 6);
    await mate('ground.hinge_low', 'a_arm.hinge', { type: 'revolute', menu: AXIS_AXIS, dof: 1 });
    // the upper one on the high hinge
    await addPart('a_arm', 7);
    await mate('ground.hinge_high', 'a_arm2.hinge', { type: 'revolute', menu: AXIS_AXIS, dof: 2 });
    // the upright on both ball joints: 8 − 3 − 3 = bump and the upright's turn about its ball joints
    await addPart('upright', 8);
    await mate('a_arm.outboard', 'upright.lower', { type: 'ball', menu: POINT_POINT, dof: 5 });
    await mate('a_arm2.outboard', 'upright.upper', { type: 'ball', menu: POINT_POINT, dof: 2 });
    await page.screenshot({ path: join(ARTIFACTS, 'assemble-01-wishbones.png') });

    // a ball from the chassis pickup to the steering arm cannot hold: it fails, the failing
    // mates are named, the last good pose stays
    await mate('ground.E', 'upright.steer_arm', { type: 'ball', menu: POINT_POINT, ok: false });
    const ballId = (await lastMate(page)).split(':')[0];
    expect(s.failed).toContain(ballId);
    expect(s.hud.failed.some((f) => f.startsWith(ballId))).toBe(true);
    // re-made as a distance (the track rod) from the menu: one edit, bump alone is left
    await page.selectOption('#asm-mate', 'distance');
    s = await settle(page);
    expect(await lastMate(page)).toMatch(/^distance_ground_upright: distance ground\.E – upright\.steer_arm$/);
    expect(s.ok).toBe(true);
    expect(s.dof).toBe(1);
    expect(s.failed).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'assemble-02-corner.png') });

    // delete the last mate and undo it
    await page.click('#asm-delete-mate');
    s = await settle(page);
    expect(s.dof).toBe(2);
    await page.keyboard.press('Control+z');
    s = await settle(page);
    expect(s.dof).toBe(1);

    // the saved file solves with the real command line
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save-assembly')]);
    const file = join(ARTIFACTS, 'assembled-corner.kinemate.json');
    await download.saveAs(file);
    const solved = kinemate('solve', file);
    expect(solved.status).toBe('solved');
    expect(solved.dof).toBe(1);

    // import the moving parts of a four-bar (crank, coupler, rocker): 3 × 6 more; a
    // malformed file names the loader's path and changes nothing; undo takes the import back
    await page.setInputFiles('#asm-import-file', join(REPO_ROOT, 'test/assembly/fixtures/four-bar.kinemate.json'));
    s = await settle(page);
    expect(s.dof).toBe(19);
    expect(await status(page)).toMatch(/^Imported crank, coupler, rocker from four-bar\.kinemate\.json/);
    const broken = readFileSync(join(REPO_ROOT, 'test/assembly/fixtures/four-bar.kinemate.json'), 'utf8').replace('"crank": {', '"crank": { "postion": [0, 0, 0],');
    await page.setInputFiles('#asm-import-file', { name: 'broken.kinemate.json', mimeType: 'application/json', buffer: Buffer.from(broken) });
    await page.waitForSelector('#error:not([hidden])');
    s = await settle(page);
    expect(s.error).toMatch(/broken\.kinemate\.json — nothing changed\.\nparts\.crank\.postion: unknown field "postion"/);
    expect(s.dof).toBe(19);
    await page.click('#error-close');
    await page.keyboard.press('Control+z');
    s = await settle(page);
    expect(s.dof).toBe(1);

    // suspension roles: a wrong upright is refused naming the field, nothing changes
    await page.click('#asm-roles summary');
    expect(await page.inputValue('#role-chassis')).toBe('ground');
    expect(await page.inputValue('#role-axle-inboard')).toBe('upright.axle_inboard');
    await page.selectOption('#role-upright', 'a_arm');
    await page.click('#role-apply');
    await page.waitForSelector('#error:not([hidden])');
    s = await settle(page);
    expect(s.error).toMatch(/Roles not applied — nothing changed\.\nsuspension\.corners\[0\]\.axle\[0\]: "upright\.axle_inboard" is not a point of the upright "a_arm"/);
    expect(s.readouts.camber).toBeUndefined();
    expect(s.dof).toBe(1);
    await page.click('#error-close');
    // the right one: the metrics and the bump plot now run on this assembly
    await page.selectOption('#role-upright', 'upright');
    await page.click('#role-apply');
    s = await settle(page);
    expect(s.error).toBeNull();
    expect(s.ok).toBe(true);
    expect(s.dof).toBe(1);
    expect(s.hud.status).toMatch(/^solved/);
    expect(s.readouts.camber).toMatch(/^-?\d+\.\d{3}$/);
    const camber = Number(s.readouts.camber);
    expect(camber).toBeCloseTo(s.metrics.camber as number, 3);
    const plotted = s.plot.camber.filter((x): x is number => typeof x === 'number' && Number.isFinite(x));
    expect(plotted.length).toBe(21);
    expect(Math.max(...plotted) - Math.min(...plotted)).toBeGreaterThan(1e-4);
    await page.screenshot({ path: join(ARTIFACTS, 'assemble-03-roles.png') });

    // the file saved with roles: kinemate solves it, and the suspension model built from
    // it in Node gives the camber the viewer shows
    const [withRoles] = await Promise.all([page.waitForEvent('download'), page.click('#save-assembly')]);
    const rolesFile = join(ARTIFACTS, 'assembled-corner-roles.kinemate.json');
    await withRoles.saveAs(rolesFile);
    expect(kinemate('solve', rolesFile).status).toBe('solved');
    const doc = parseAssembly(readFileSync(rolesFile, 'utf8'));
    const metrics = evaluateState(new SuspensionModel(doc)).metrics as Record<string, number | null>;
    expect(metrics.camber).toBeCloseTo(camber, 3);

    // one undo entry: Ctrl+Z takes the roles away again
    await page.keyboard.press('Control+z');
    s = await settle(page);
    expect(s.readouts.camber).toBeUndefined();
    expect(s.dof).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);
});
