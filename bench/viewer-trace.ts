/**
 * `npx tsx bench/viewer-trace.ts`: where a drag's time goes, thread by thread. Records a
 * Chrome performance trace of a scripted pickup drag on the default model (headless
 * Debian Chromium, WebGL on SwiftShader, as bench:viewer) and prints the busiest threads
 * and the costliest trace events, e.g. `CrRendererMain | GLES2::ReadPixels` (the page's
 * main thread waiting for the rasteriser to finish a frame). The trace itself is written
 * to test-artifacts/viewer-trace.json (open it in chrome://tracing or Perfetto).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, startViewerServer, REPO_ROOT } from '../viewer/harness/browser';
import type { ViewerApp } from '../viewer/src/app';

declare global {
  interface Window { __kinemate: ViewerApp }
}

interface TraceEvent { ph: string; name: string; pid: number; tid: number; dur?: number; args?: { name?: string } }

async function main(): Promise<void> {
  const [server, browser] = await Promise.all([startViewerServer(), launchChromium()]);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__kinemate?.ready === true, null, { timeout: 90_000 });
    await page.waitForFunction(() => window.__kinemate.snapshot().settled, null, { timeout: 60_000 });
    const from = await page.evaluate(() => window.__kinemate.screenOf('upper_wishbone_inboard_front'));
    if (!from) throw new Error('no handle upper_wishbone_inboard_front');
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'gpu', 'viz', 'cc', 'blink'] });
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) {
      const a = (i / 60) * 1.5 * Math.PI;
      await page.mouse.move(from.x + 25 * Math.sin(a), from.y - 25 * (1 - Math.cos(a)) / 2);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
    await page.waitForFunction(() => window.__kinemate.snapshot().settled, null, { timeout: 60_000 });
    const buffer = await browser.stopTracing();
    const dir = join(REPO_ROOT, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'viewer-trace.json'), buffer);
    const parsed = JSON.parse(buffer.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
    const threads = new Map<string, string>();
    for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
    const busy = new Map<string, number>(), byEvent = new Map<string, { total: number; count: number }>();
    for (const e of events) {
      if (e.ph !== 'X' || !e.dur) continue;
      const thread = threads.get(`${e.pid}:${e.tid}`) ?? '?';
      if (e.name === 'ThreadControllerImpl::RunTask') busy.set(thread, (busy.get(thread) ?? 0) + e.dur / 1000);
      const key = `${thread} | ${e.name}`;
      const entry = byEvent.get(key) ?? { total: 0, count: 0 };
      entry.total += e.dur / 1000;
      entry.count++;
      byEvent.set(key, entry);
    }
    console.log('busiest threads (ms running tasks during the drag):');
    for (const [thread, ms] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`${ms.toFixed(0).padStart(8)}  ${thread}`);
    console.log('costliest events (total ms, count, mean ms; nested events overlap):');
    for (const [key, v] of [...byEvent].sort((a, b) => b[1].total - a[1].total).slice(0, 25)) console.log(`${v.total.toFixed(0).padStart(8)}  ${String(v.count).padStart(5)}  ${(v.total / v.count).toFixed(2).padStart(7)}  ${key}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
