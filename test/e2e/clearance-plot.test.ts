/**
 * The clearance plot, end to end in headless Chromium: the CAD corner (a suspension file
 * and its six STL files) opened, the plots' sweep measured for clearance in a worker, and
 * the smallest clearance per state drawn in the last plot against wheel travel. The values
 * the plot holds are the library's (`sweepClearance` over the same sweep, every unjoined
 * pair, computed here in Node); a steer sweep redraws it against rack travel.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../../viewer/harness/browser';
import { ARTIFACTS, HAVE_CHROMIUM, settle, viewerSession, warnIfNoChromium } from './page';
import { ClearanceSet, fileSource, loadDocumentGeometry, parseGeometry, suspensionAssembly, suspensionBodies, SuspensionModel, sweepClearance, sweepFromShortcut, unjoinedPairs } from '../../src/index.ts';

warnIfNoChromium('test/e2e/clearance-plot');

const FILES = ['upright', 'lower_wishbone', 'upper_wishbone', 'tyre', 'damper', 'wheelhouse_liner'];

/** The smallest clearance per state of the sweep, as the library measures it. */
async function libraryCurve(kind: 'bump' | 'steer', range: { start: number; stop: number; steps: number }): Promise<(number | null)[]> {
  const yaml = join(REPO_ROOT, 'examples/cad/double_wishbone_stl.yaml');
  const geometry = parseGeometry(readFileSync(yaml, 'utf8'), yaml);
  const { meshes, errors } = await loadDocumentGeometry(geometry.part_geometry!, fileSource(join(REPO_ROOT, 'examples/cad')));
  expect(errors).toEqual([]);
  const sm = new SuspensionModel(suspensionAssembly(geometry));
  const names = [...new Map(meshes).keys()];
  const bodies = suspensionBodies(sm, names);
  const set = new ClearanceSet(new Map(meshes), unjoinedPairs(names, bodies.joined));
  const states = sweepClearance(sm, sweepFromShortcut(kind, `${range.start}:${range.stop}:${range.steps}`, geometry), set, bodies);
  return states.map((s) => (s.pairs ? Math.min(...Object.values(s.pairs).map((c) => c.distance)) : null));
}

describe.skipIf(!HAVE_CHROMIUM)('the clearance plot in headless Chromium', () => {
  const openViewer = viewerSession();

  it('plots the smallest clearance over the sweep: the library\'s values, state by state', async () => {
    const { page, errors } = await openViewer();
    await page.setInputFiles('#file', [
      join(REPO_ROOT, 'examples/cad/double_wishbone_stl.yaml'),
      ...FILES.map((b) => join(REPO_ROOT, `examples/cad/stl/${b}.stl`)),
    ]);
    await settle(page);
    const plotted = async () => {
      await page.waitForFunction(() => {
        const app = window.__kinemate;
        return app.clearancePlot.settled && app.clearancePlot.shown !== null && (app.plots.data().clearance?.length ?? 0) > 0;
      }, null, { timeout: 90_000 });
      return page.evaluate(() => ({ chosen: window.__kinemate.plots.chosen, data: window.__kinemate.plots.data().clearance, kind: window.__kinemate.sweepControls.kind(), range: window.__kinemate.sweepControls.range(), shown: window.__kinemate.clearancePlot.shown }));
    };
    const bump = await plotted();
    // it came to the last plot by itself
    expect(bump.chosen.at(-1)).toBe('clearance');
    expect(bump.kind).toBe('bump');
    expect(bump.data).toHaveLength(bump.range.steps);
    const want = await libraryCurve('bump', bump.range);
    bump.data!.forEach((v, i) => expect(v, `state ${i}`).toBeCloseTo(want[i]!, 6));
    // the pair nearest at each state is named; over a bump, the smallest is not everywhere the same
    expect(bump.shown!.pair.every((p) => typeof p === 'string')).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'clearance-plot.png') });
    expect(errors).toEqual([]);
  }, 240_000);
});
