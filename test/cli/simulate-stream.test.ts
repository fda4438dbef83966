/**
 * `kinemate simulate` on long runs (issue 27 item 6): a run of more steps than the cap is
 * refused up front in one line naming the maximum; frames are written as they are computed
 * (CSV) or spooled out of memory (JSON), not collected; the bytes are those of the whole
 * result printed at once, as before.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { MAX_SIMULATE_STEPS } from '../../src/cli/dynamics-commands';
import { toJsonText, type CliIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { jsonWriter, Spool, type Sink } from '../../src/cli/simulation-output';
import { simulateGeometry } from '../../src/cli/suspension-simulate';
import { buildDynamics, simulate, parseAssembly, type SimulationFrame } from '../../src/index';
import { REPO, tempFolder } from './helpers';

const PENDULUM = 'examples/pendulum.kinemate.json';
const GEOMETRY = 'examples/suspension/double_wishbone_dynamics.yaml';
const tmp = tempFolder();
afterAll(() => tmp.remove());

/** The CLI in a child process, killed after `ms` (a run that ignored the cap would go on for days). */
function kinemateWithin(args: string[], ms: number): Promise<{ code: number | null; stderr: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [inject('builtCommand'), ...args], { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'], timeout: ms });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, killed: child.killed }));
  });
}

/** A terminal-like IO that logs every write to stdout and stderr in the order they came. */
function loggingIO(): CliIO & { log: { to: 'out' | 'err'; text: string }[] } {
  const log: { to: 'out' | 'err'; text: string }[] = [];
  return {
    log,
    stderrIsTTY: true,
    out: async (text) => { log.push({ to: 'out', text }); },
    err: async (text) => { log.push({ to: 'err', text }); },
    readStdin: async () => '',
  };
}

const pendulum = () => buildDynamics(parseAssembly(readFileSync(PENDULUM, 'utf8')));

describe('simulate: the step cap', () => {
  it.each([
    ['--duration', '1e9', '--step', '0.001', 1e12],
    ['--duration', '1', '--step', '1e-12', 1e12],
    ['--duration', String((MAX_SIMULATE_STEPS + 1) / 1000), '--step', '0.001', MAX_SIMULATE_STEPS + 1],
  ])('%s %s %s %s is refused at once, naming the maximum', async (...spec) => {
    const [d, duration, s, step, steps] = spec;
    const run = await kinemateWithin(['simulate', PENDULUM, d as string, duration as string, s as string, step as string], 20_000);
    expect(run.killed).toBe(false);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`kinemate: simulate: --duration ${Number(duration)} at --step ${Number(step)} is ${steps} steps; at most ${MAX_SIMULATE_STEPS}: a shorter --duration or a longer --step\n`);
  }, 30_000);

  it('the help names the cap', async () => {
    const io = loggingIO();
    await main(['simulate', '--help'], io);
    expect(io.log.map((l) => l.text).join('')).toContain(`at most ${MAX_SIMULATE_STEPS} steps`);
  });
});

describe('simulate: frames written as they come', () => {
  it('CSV rows reach stdout in chunks while the run goes on (before its progress bar is cleared), the frames of the library run', async () => {
    const io = loggingIO();
    const args = ['simulate', PENDULUM, '--duration', '0.6', '--step', '0.0005', '--format', 'csv'];
    expect(await main(args, io)).toBe(0);
    const outs = io.log.map((l, i) => ({ ...l, i })).filter((l) => l.to === 'out');
    const cleared = io.log.map((l) => l.to === 'err' && l.text === '\r\x1b[K').lastIndexOf(true);
    expect(outs.length).toBeGreaterThan(2);
    expect(cleared).toBeGreaterThan(0);
    expect(outs[0].i).toBeLessThan(cleared); // the first rows were out before the run ended
    for (const o of outs) expect(o.text.length).toBeLessThan(80_000); // chunks, not the whole output
    // the rows are the library run's frames, in order
    const frames = simulate(pendulum(), { duration: 0.6, step: 0.0005 }).frames;
    const lines = outs.map((o) => o.text).join('').trimEnd().split('\n');
    const header = lines[0].split(',');
    expect(lines.length - 1).toBe(frames.length);
    const col = (name: string) => header.indexOf(name);
    frames.forEach((f, k) => {
      const cells = lines[k + 1].split(',');
      expect(cells[col('t')]).toBe(String(f.t));
      expect(cells[col('energy.total')]).toBe(String(f.energy.total));
      expect(cells[col('residual')]).toBe(String(f.residual));
    });
  });

  it('JSON: stdout holds exactly the library result printed at once (frames kept)', async () => {
    const io = loggingIO();
    expect(await main(['simulate', PENDULUM, '--duration', '0.3', '--step', '0.001', '--every', '7'], io)).toBe(0);
    const text = io.log.filter((l) => l.to === 'out').map((l) => l.text).join('');
    expect(text).toBe(toJsonText(simulate(pendulum(), { duration: 0.3, step: 0.001, every: 7 })));
  });

  it('JSON of a geometry file to --out: the same bytes as its whole result', async () => {
    const out = tmp.file('dw.json');
    expect(await main(['simulate', GEOMETRY, '--duration', '0.02', '--step', '0.0005', '--every', '4', '--out', out], loggingIO())).toBe(0);
    const whole = await simulateGeometry(GEOMETRY, readFileSync(GEOMETRY, 'utf8'), { duration: 0.02, step: 0.0005, every: 4 });
    expect(readFileSync(out, 'utf8')).toBe(toJsonText(whole));
  });

  it('JSON frames leave memory as they come (spooled to a file during the run); the document is byte-identical; the spool is removed', async () => {
    const chunks: string[] = [];
    const sink: Sink = { write: (t) => { chunks.push(t); }, close: async () => {} };
    const spool = new Spool(4096);
    const writer = jsonWriter(sink, spool);
    const spilledAt: boolean[] = [];
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('kinemate-simulate-')));
    const result = simulate(pendulum(), { duration: 0.2, step: 0.001, keepFrames: false, onFrame: (f: SimulationFrame) => { writer.frame(f); spilledAt.push(spool.spilled); } });
    expect(result.frames).toEqual([]);
    expect(spilledAt.indexOf(true)).toBeGreaterThan(0);
    expect(spilledAt.indexOf(true)).toBeLessThan(spilledAt.length / 10); // on disk long before the end
    const dirs = readdirSync(tmpdir()).filter((n) => n.startsWith('kinemate-simulate-') && !before.has(n));
    expect(dirs.length).toBe(1);
    await writer.end(result);
    expect(existsSync(`${tmpdir()}/${dirs[0]}`)).toBe(false);
    expect(chunks.join('')).toBe(toJsonText(simulate(pendulum(), { duration: 0.2, step: 0.001 })));
  });
});
