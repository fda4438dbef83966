/**
 * `npx tsx bench/viewer-trace.ts [TEMPLATE PICKUP] [--js]`: where a drag's time goes,
 * thread by thread. Records a Chrome performance trace of a scripted pickup drag (default:
 * the double wishbone's upper_wishbone_inboard_front; headless Debian Chromium, WebGL on
 * SwiftShader, as bench:viewer) after a warm-up drag, and prints the busiest threads and
 * the costliest trace events, e.g. `CrRendererMain | GLES2::ReadPixels` (the page's main
 * thread waiting for the rasteriser to finish a frame), each as wall time and as the
 * thread's own CPU time (which a busy machine inflates far less, so two builds can be
 * compared while other work runs). `--js` adds the page's JavaScript by function (self
 * time, V8's sampling profiler). The trace itself is written to
 * test-artifacts/viewer-trace.json (open it in chrome://tracing or Perfetto).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, startViewerServer, REPO_ROOT } from '../viewer/harness/browser';
import type { ViewerApp } from '../viewer/src/app';

declare global {
  interface Window { __kinemate: ViewerApp }
}

interface TraceEvent { ph: string; name: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }
interface CpuProfile { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] }

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const template = positional[0] ?? 'double_wishbone';
const pickup = positional[1] ?? 'upper_wishbone_inboard_front';
const jsProfile = process.argv.includes('--js');

/** Wall and thread-CPU milliseconds of one name, and how often it ran. */
interface Cost { wall: number; cpu: number; count: number }

function add(map: Map<string, Cost>, key: string, e: TraceEvent): void {
  const c = map.get(key) ?? { wall: 0, cpu: 0, count: 0 };
  c.wall += (e.dur ?? 0) / 1000;
  c.cpu += (e.tdur ?? 0) / 1000;
  c.count++;
  map.set(key, c);
}

/** Self time by function (ms) of a V8 sampling profile, idle and "(program)" left out. */
function selfTimes(profile: CpuProfile): Map<string, number> {
  const perNode = new Map<number, number>();
  profile.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const out = new Map<string, number>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber}`;
    out.set(key, (out.get(key) ?? 0) + (perNode.get(n.id) ?? 0));
  }
  return out;
}

async function main(): Promise<void> {
  const [server, browser] = await Promise.all([startViewerServer(), launchChromium()]);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.url);
    await page.waitForFunction(() => window.__kinemate?.ready === true, null, { timeout: 90_000 });
    const settle = () => page.waitForFunction(() => window.__kinemate.snapshot().settled, null, { timeout: 60_000 });
    await settle();
    if (template !== 'double_wishbone') {
      await page.selectOption('#template', template);
      await page.waitForFunction((t) => window.__kinemate.snapshot().name.startsWith(t), template);
      await settle();
    }
    // most of a slow circle of 25 px at about 60 Hz (every move a real edit), then undone
    const drag = async (moves: number): Promise<void> => {
      const from = await page.evaluate((n) => window.__kinemate.screenOf(n), pickup);
      if (!from) throw new Error(`no handle ${pickup}`);
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      for (let i = 1; i <= moves; i++) {
        const a = (i / moves) * 1.5 * Math.PI;
        await page.mouse.move(from.x + 25 * Math.sin(a), from.y - 25 * (1 - Math.cos(a)) / 2);
        await page.waitForTimeout(16);
      }
      await page.mouse.up();
      await settle();
      await page.keyboard.press('Control+z');
      await settle();
    };
    await drag(20); // warm-up: JIT, worker start-up
    const cdp = jsProfile ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'gpu', 'viz', 'cc', 'blink'] });
    await drag(60);
    const buffer = await browser.stopTracing();
    const profile = cdp ? ((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile : null;
    const dir = join(REPO_ROOT, 'test-artifacts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'viewer-trace.json'), buffer);
    const parsed = JSON.parse(buffer.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
    const events = Array.isArray(parsed) ? parsed : parsed.traceEvents ?? [];
    const threads = new Map<string, string>();
    for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
    const busy = new Map<string, Cost>(), byEvent = new Map<string, Cost>();
    for (const e of events) {
      if (e.ph !== 'X' || !e.dur) continue;
      const thread = threads.get(`${e.pid}:${e.tid}`) ?? '?';
      if (e.name === 'ThreadControllerImpl::RunTask') add(busy, thread, e);
      add(byEvent, `${thread} | ${e.name}`, e);
    }
    const ms = (x: number) => x.toFixed(0).padStart(8);
    console.log(`${template}, a 60-move drag of ${pickup} (and its undo)`);
    console.log('busiest threads (ms running tasks: wall, thread CPU):');
    for (const [thread, c] of [...busy].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 8)) console.log(`${ms(c.wall)}${ms(c.cpu)}  ${thread}`);
    console.log('costliest events (ms wall, ms thread CPU, count; nested events overlap):');
    for (const [key, c] of [...byEvent].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 25)) console.log(`${ms(c.wall)}${ms(c.cpu)}${String(c.count).padStart(7)}  ${key}`);
    if (profile) {
      const self = selfTimes(profile);
      const total = [...self.values()].reduce((a, b) => a + b, 0);
      console.log(`the page's JavaScript, ${total.toFixed(0)} ms sampled (self time by function, ms):`);
      for (const [key, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${ms(t)}  ${key}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
