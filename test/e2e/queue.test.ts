/**
 * Issue 31: `kinemate batch --queue` and `kinemate worker` on a real Redis (started here on
 * a free loopback port), every process the real command: a queued batch writes the same
 * bytes as the local one; a worker killed with SIGKILL mid-chunk loses nothing (the chunk
 * is taken again by another); a coordinator killed mid-run and started again under the
 * same name writes the same CSV without sweeping a chunk twice; two runs share one queue;
 * a bad address and a worker of another build each stop with one line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { kinemate, REPO, tempFolder } from '../cli/helpers.ts';
import { Redis } from 'ioredis';
import { HAVE_REDIS, startRedis, type RedisServer } from '../util/redis-server.ts';

const GEOMETRY = join(REPO, 'examples/suspension/double_wishbone.yaml');

interface Background {
  child: ChildProcess;
  output: () => string;
  /** Resolves when `pattern` appears in stderr (rejects after `ms`). */
  waitFor: (pattern: RegExp, ms?: number) => Promise<void>;
  exited: Promise<number | null>;
}

function background(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Background {
  const child = spawn(process.execPath, [inject('builtCommand'), ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const feed = (chunk: Buffer) => {
    text += chunk.toString();
    for (const w of [...waiters]) if (w.pattern.test(text)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
  };
  child.stderr!.on('data', feed);
  child.stdout!.on('data', () => {});
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    waitFor: (pattern, ms = 60_000) => new Promise((resolve, reject) => {
      if (pattern.test(text)) { resolve(); return; }
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; saw:\n${text}`)), ms);
      waiters.push({ pattern, resolve: () => { clearTimeout(timer); resolve(); } });
    }),
  };
}

async function stop(process_: Background, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (process_.child.exitCode === null && process_.child.signalCode === null) process_.child.kill(signal);
  return process_.exited;
}

/** How often each chunk id was reported done across the workers' logs. */
function doneCounts(...logs: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const log of logs) for (const m of log.matchAll(/chunk (\S+) done/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  return counts;
}

describe.skipIf(!HAVE_REDIS)('kinemate batch --queue on a real Redis', () => {
  let redis: RedisServer;
  let folder: ReturnType<typeof tempFolder>;
  let doe: string, doe2: string, localCsv: string, localCsv2: string;

  beforeAll(async () => {
    redis = await startRedis();
    folder = tempFolder();
    doe = folder.file('doe.yaml');
    writeFileSync(doe, 'vary:\n  upper_wishbone_outboard.z: [-6, 6]\n  lower_wishbone_inboard_front.y: [-4, 4]\nsampling:\n  type: grid\n  levels: 12\nbump: "-40:40:9"\nmetrics: [camber, toe_angle, caster]\n');
    doe2 = folder.file('doe2.yaml');
    writeFileSync(doe2, 'vary:\n  trackrod_outboard.z: [-3, 3]\nsampling:\n  type: latin_hypercube\n  samples: 40\n  seed: 7\nbump: "-20:20:5"\n');
    const [a, b] = await Promise.all([
      kinemate(['batch', GEOMETRY, '--doe', doe, '--threads', '1', '--out', folder.file('local.csv')]),
      kinemate(['batch', GEOMETRY, '--doe', doe2, '--threads', '1', '--out', folder.file('local2.csv')]),
    ]);
    expect(a.stderr).toBe('');
    expect(b.stderr).toBe('');
    localCsv = readFileSync(folder.file('local.csv'), 'utf8');
    localCsv2 = readFileSync(folder.file('local2.csv'), 'utf8');
    expect(localCsv.split('\n').length).toBeGreaterThan(144 * 9);
  }, 120_000);

  afterAll(async () => {
    await redis?.stop();
    folder?.remove();
  });

  it('two workers: the CSV is the local batch\'s bytes; two runs of other names share the queue unmixed; SIGTERM exits 0', async () => {
    const workers = [background(['worker', '--queue', redis.url, '--concurrency', '1']), background(['worker', '--queue', redis.url, '--concurrency', '1'])];
    try {
      await Promise.all(workers.map((w) => w.waitFor(/taking chunks/)));
      const [one, two] = await Promise.all([
        kinemate(['batch', GEOMETRY, '--doe', doe, '--queue', redis.url, '--name', 'first', '--chunk', '16', '--out', folder.file('q1.csv')]),
        kinemate(['batch', GEOMETRY, '--doe', doe2, '--queue', redis.url, '--name', 'second', '--chunk', '7', '--out', folder.file('q2.csv')]),
      ]);
      expect(one.stderr).toBe('');
      expect(one.code).toBe(0);
      expect(two.code).toBe(0);
      expect(readFileSync(folder.file('q1.csv'), 'utf8')).toBe(localCsv);
      expect(readFileSync(folder.file('q2.csv'), 'utf8')).toBe(localCsv2);
      const counts = doneCounts(...workers.map((w) => w.output()));
      expect([...counts.keys()].filter((id) => id.startsWith('first--')).length).toBe(Math.ceil(144 / 16));
      expect([...counts.keys()].filter((id) => id.startsWith('second--')).length).toBe(Math.ceil(40 / 7));
      expect(Math.max(...counts.values())).toBe(1);
    } finally {
      const codes = await Promise.all(workers.map((w) => stop(w)));
      expect(codes).toEqual([0, 0]);
    }
  }, 180_000);

  it('an axle swept by a sweep file beside the DOE, and a simulated DOE: queued equals local (the sweep file travels in the run)', async () => {
    const sweep = folder.file('roll.yaml');
    writeFileSync(sweep, 'version: 1\nsteps: 3\ntargets:\n  - { type: roll, mode: relative, start: -2, stop: 2 }\n');
    const axleDoe = folder.file('axle-doe.yaml');
    writeFileSync(axleDoe, 'vary: { upper_wishbone_outboard.z: [-4, 4], left.trackrod_inboard.z: [-2, 2], spring.rate: [-100, 100] }\nsampling: { type: latin_hypercube, samples: 12, seed: 3 }\nsweep: roll.yaml\nmetrics: [left.camber, right.toe_angle]\n');
    const simDoe = folder.file('sim-doe.yaml');
    writeFileSync(simDoe, 'vary: { spring.rate: [-20, 20], dynamics.masses.upright.mass: [-5, 5] }\nsampling: { type: grid, levels: 2 }\nsimulate: { duration: 0.1, step: 0.001, results: [left.camber@max, spring.travel@rms] }\n');
    const AXLE = join(REPO, 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml'), DYN = join(REPO, 'examples/suspension/double_wishbone_dynamics.yaml');
    const worker = background(['worker', '--queue', redis.url, '--concurrency', '2']);
    try {
      await worker.waitFor(/taking chunks/);
      for (const [geometry, d, name] of [[AXLE, axleDoe, 'axle'], [DYN, simDoe, 'simulated']]) {
        const local = await kinemate(['batch', geometry, '--doe', d, '--threads', '1', '--out', folder.file(`${name}-local.csv`)]);
        expect(local.stderr).toBe('');
        const queued = await kinemate(['batch', geometry, '--doe', d, '--queue', redis.url, '--name', name, '--out', folder.file(`${name}-queued.csv`)]);
        expect(queued.stderr).toBe('');
        expect(queued.code).toBe(0);
        expect(readFileSync(folder.file(`${name}-queued.csv`), 'utf8')).toBe(readFileSync(folder.file(`${name}-local.csv`), 'utf8'));
      }
      expect(readFileSync(folder.file('axle-local.csv'), 'utf8').split('\n')[0]).toContain(',roll,left.camber,right.toe_angle');
    } finally {
      await stop(worker);
    }
  }, 180_000);

  it('a worker killed with SIGKILL mid-chunk loses nothing: another takes its chunk, the CSV is whole', async () => {
    const doomed = background(['worker', '--queue', redis.url, '--concurrency', '1', '--lock', '1000']);
    await doomed.waitFor(/taking chunks/);
    const coordinator = kinemate(['batch', GEOMETRY, '--doe', doe, '--queue', redis.url, '--name', 'killed-worker', '--chunk', '48', '--out', folder.file('q3.csv')]);
    await doomed.waitFor(/chunk killed-worker--\w+--0 started/);
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    expect(doomed.output()).not.toMatch(/killed-worker--\w+--0 done/);
    const rescuer = background(['worker', '--queue', redis.url, '--concurrency', '1', '--lock', '1000']);
    try {
      const run = await coordinator;
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(readFileSync(folder.file('q3.csv'), 'utf8')).toBe(localCsv);
      expect(rescuer.output()).toMatch(/chunk killed-worker--\w+--0 done/);
    } finally {
      await stop(rescuer);
    }
  }, 180_000);

  it('a coordinator killed mid-run and started again with the same --name writes the same CSV, no chunk swept twice', async () => {
    const worker = background(['worker', '--queue', redis.url, '--concurrency', '1']);
    try {
      await worker.waitFor(/taking chunks/);
      const first = background(['batch', GEOMETRY, '--doe', doe, '--queue', redis.url, '--name', 'resumed', '--chunk', '12', '--out', folder.file('q4.csv')]);
      await worker.waitFor(/chunk resumed--\w+--2 done/);
      first.child.kill('SIGKILL');
      await first.exited;
      const again = await kinemate(['batch', GEOMETRY, '--doe', doe, '--queue', redis.url, '--name', 'resumed', '--out', folder.file('q4.csv')]);
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(readFileSync(folder.file('q4.csv'), 'utf8')).toBe(localCsv);
      const counts = doneCounts(worker.output());
      expect([...counts.entries()].filter(([id]) => id.startsWith('resumed--')).map(([, n]) => n)).toEqual(Array(12).fill(1));
    } finally {
      await stop(worker);
    }
  }, 240_000);

  it('a name in use by another geometry or DOE is refused, not mixed', async () => {
    // no worker: the first run stays on the queue while the second asks for its name
    const holder = background(['batch', GEOMETRY, '--doe', doe, '--queue', redis.url, '--name', 'taken', '--chunk', '12', '--out', folder.file('q5.csv')]);
    try {
      const client = new Redis(redis.port, '127.0.0.1');
      try {
        for (let i = 0; i < 600 && !(await client.exists('kinemate:batch-run:taken')); i++) await new Promise((r) => setTimeout(r, 100));
      } finally {
        client.disconnect();
      }
      const clash = await kinemate(['batch', GEOMETRY, '--doe', doe2, '--queue', redis.url, '--name', 'taken', '--out', folder.file('q6.csv')]);
      expect(clash.code).toBe(1);
      expect(clash.stderr).toBe('kinemate: --name: the run "taken" on this queue was started with another geometry or DOE; choose another --name\n');
    } finally {
      await stop(holder, 'SIGKILL');
    }
  }, 120_000);

  it('a worker of another build refuses the chunks and the coordinator stops with one line (exit 1)', async () => {
    const stranger = background(['worker', '--queue', redis.url], { ...process.env, KINEMATE_BUILD_SALT: 'another build' });
    try {
      await stranger.waitFor(/taking chunks/);
      const run = await kinemate(['batch', GEOMETRY, '--doe', doe2, '--queue', redis.url, '--name', 'mismatch', '--chunk', '10', '--out', folder.file('q7.csv')]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^kinemate: a worker refused the run's chunks: build mismatch: this worker runs build \S+-node[\d.]+, the run "mismatch" was started by \S+; run the same code and Node version on every machine\n$/);
    } finally {
      await stop(stranger);
    }
  }, 120_000);

  it('an address with no server is one line naming it within seconds, exit 1', async () => {
    const started = Date.now();
    const run = await kinemate(['batch', GEOMETRY, '--doe', doe, '--queue', 'redis://127.0.0.1:1', '--out', folder.file('never.csv')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^kinemate: cannot reach the queue at redis:\/\/127\.0\.0\.1:1: ECONNREFUSED/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    const worker = await kinemate(['worker', '--queue', 'redis://127.0.0.1:1']);
    expect(worker.code).toBe(1);
    expect(worker.stderr).toMatch(/^kinemate: cannot reach the queue at redis:\/\/127\.0\.0\.1:1: ECONNREFUSED/);
    const bad = await kinemate(['batch', GEOMETRY, '--doe', doe, '--queue', 'http://127.0.0.1:6379']);
    expect(bad.stderr).toBe('kinemate: --queue: expected redis://HOST:PORT[/DB], got "http://127.0.0.1:6379" (only redis:// is understood)\n');
  }, 60_000);
});
