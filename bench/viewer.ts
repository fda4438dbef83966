/**
 * `npm run bench:viewer [-- --json]`: the viewer in headless Chromium (Debian's, with
 * WebGL on SwiftShader), a scripted drag of a chassis pickup, and the median time from a
 * pointer move to the rendered frame that shows it: the what-if edit, the solve, the
 * analyses (metrics, derivatives, steering response), the bump sweep behind the plots,
 * the plot update and the render. Inputs superseded before they were drawn count until
 * the frame that shows a newer one (latest wins). Moves come at about 60 Hz.
 *
 * Last line (with --json): { "viewer_drag_frame_ms": …, "viewer_drag_frame_ms_multilink": … }.
 * Earlier lines give the pose-only latency (the linkage and read-outs, plots not waited
 * for) and the worker times, for context.
 */
import { chromiumAvailable, launchChromium, startViewerServer } from '../viewer/harness/browser';
import type { ViewerApp } from '../viewer/src/app';

declare global {
  interface Window { __kinemate: ViewerApp }
}

const json = process.argv.includes('--json');
const MOVES = Number(process.env.BENCH_VIEWER_MOVES ?? 90);

const median = (xs: number[]) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  if (!chromiumAvailable()) {
    console.error('bench:viewer needs /usr/bin/chromium (apt-get install -y chromium)');
    process.exit(1);
  }
  const [server, browser] = await Promise.all([startViewerServer(), launchChromium()]);
  const results: Record<string, number> = {};
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__kinemate?.ready === true, null, { timeout: 90_000 });
    const settle = () => page.waitForFunction(() => window.__kinemate.snapshot().settled, null, { timeout: 60_000, polling: 20 });
    // what one 3D frame costs the rasteriser: render + a 1-pixel read-back (which waits for
    // the frame), median of 15, at full and at drag resolution (a string: tsx would wrap
    // named functions in a helper the page does not have)
    const frameCost = await page.evaluate(`(() => {
      const sc = window.__kinemate.scene, gl = sc.renderer.getContext(), px = new Uint8Array(4);
      const median = () => { const t = []; for (let i = 0; i < 15; i++) { const t0 = performance.now(); sc.render(); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); t.push(performance.now() - t0); } t.sort((a, b) => a - b); return t[7]; };
      const full = median(); sc.setInteractive(true); const drag = median(); sc.setInteractive(false);
      return { full, drag, calls: sc.renderer.info.render.calls, rasteriser: sc.rasteriser.name };
    })()`) as { full: number; drag: number; calls: number; rasteriser: string };
    console.log(`3D frame (render + read-back): ${round(frameCost.full)} ms full, ${round(frameCost.drag)} ms at drag resolution, ${frameCost.calls} draw calls; ${frameCost.rasteriser}`);
    const cases: [string, string, string][] = [
      ['viewer_drag_frame_ms', 'double_wishbone', 'upper_wishbone_inboard_front'],
      ['viewer_drag_frame_ms_multilink', 'multi_link', 'lower_front_link_inboard'],
    ];
    for (const [key, template, pickup] of cases) {
      await page.selectOption('#template', template);
      await page.waitForFunction((t) => window.__kinemate.snapshot().name.startsWith(t), template);
      await settle();
      // a warm-up drag (JIT, worker start-up), undone, then the measured one
      for (const measured of [false, true]) {
        const from = await page.evaluate((n) => window.__kinemate.screenOf(n), pickup);
        if (!from) throw new Error(`no handle ${pickup}: ${JSON.stringify(await page.evaluate(() => { const s = window.__kinemate.snapshot(); return { name: s.name, hud: s.hud, settled: s.settled }; }))}`);
        await page.evaluate(() => window.__kinemate.resetStats());
        await page.mouse.move(from.x, from.y);
        await page.mouse.down();
        const moves = measured ? MOVES : 20;
        for (let i = 1; i <= moves; i++) {
          // most of a slow circle of 25 px: every move a real edit
          const a = (i / moves) * 1.5 * Math.PI; // ends away from the start: the drag is an edit
          await page.mouse.move(from.x + 25 * Math.sin(a), from.y - 25 * (1 - Math.cos(a)) / 2);
          await page.waitForTimeout(16);
        }
        await page.mouse.up();
        await settle();
        if (!(await page.evaluate(() => window.__kinemate.history.canUndo))) throw new Error(`the drag of ${pickup} made no edit`);
        const stats = await page.evaluate(() => ({ ...window.__kinemate.stats }));
        const trips = await page.evaluate(() => ({ pose: window.__kinemate.poseClient.trips, sweep: window.__kinemate.sweepClient.trips }));
        if (measured) {
          results[key] = round(median(stats.full));
          const line = `${template}: drag frame (pose + plots) median ${round(median(stats.full))} ms over ${stats.full.length} moves; a move reaches the page after ${round(median(stats.dispatch))} ms; pose only ${round(median(stats.pose))} ms; pose worker ${round(median(stats.solveMs))} ms/solve, sweep worker ${round(median(stats.sweepMs))} ms/sweep, render ${round(median(stats.renderMs))} ms/frame, drawing a result ${round(median(stats.applyMs))} ms; a solved input's result arrives after ${round(median(stats.poseArrival))} ms (pose), ${round(median(stats.sweepArrival))} ms (sweep: started after ${round(median(stats.sweepStart))} ms, round trip ${round(median(stats.sweepRoundTrip))} ms)`;
          console.log(line);
          const trip = (t: { toWorker: number[]; inWorker: number[]; back: number[] }) => `to the worker ${round(median(t.toWorker))}, in it ${round(median(t.inWorker))}, back to the page ${round(median(t.back))} ms`;
          console.log(`  round trips (medians): pose ${trip(trips.pose)}; sweep ${trip(trips.sweep)}`);
          if (process.env.BENCH_VIEWER_DEBUG) console.log(JSON.stringify({ start: stats.sweepStart.slice(0, 20).map(Math.round), rt: stats.sweepRoundTrip.slice(0, 20).map(Math.round), arrival: stats.sweepArrival.slice(0, 20).map(Math.round), poseArrival: stats.poseArrival.slice(0, 20).map(Math.round) }));
        }
        await page.keyboard.press('Control+z');
        await settle();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (json) console.log(JSON.stringify({ viewer_drag_frame_ms: results.viewer_drag_frame_ms, viewer_drag_frame_ms_multilink: results.viewer_drag_frame_ms_multilink }));
  else console.log(results);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
