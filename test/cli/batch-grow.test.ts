// kinemate batch beyond corner files and bump sweeps (issue 31 item 0): every variant's rows
// equal `kinemate sweep` of that variant's file alone, whatever the sweep, the topology or the
// numbers varied.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { memoryIO, tempFolder } from './helpers.ts';
import { parseGeometry } from '../../src/suspension/files/index.ts';
import { parseDoe, variantFileText } from '../../src/suspension/design/batch.ts';
import { inlineDoeSweep } from '../../src/suspension/design/doe-sweep.ts';
import { runBatch } from '../../src/suspension/design/batch-pool.ts';
import { suspensionAssembly } from '../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../src/suspension/build/model.ts';
import { flattenMetrics, runSweep } from '../../src/suspension/sweep/sweep.ts';

const DW = 'examples/suspension/double_wishbone.yaml';
const AXLE = 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml';
const SHIM = 'examples/suspension/double_wishbone_camber_shim.yaml';
const tmp = tempFolder();
afterAll(() => tmp.remove());

async function run(args: string[], tty = false) {
  const io = memoryIO({ tty });
  const code = await main(args, io);
  return { code, stdout: io.written.stdout, stderr: io.written.stderr };
}

type Table = { header: string[]; rows: string[][] };
const table = (csv: string): Table => {
  const [head, ...rows] = csv.trimEnd().split('\n').map((l) => l.split(','));
  return { header: head, rows };
};
const cell = (t: Table, row: string[], name: string) => row[t.header.indexOf(name)];

/**
 * Runs the batch, then `kinemate sweep` of each variant's file alone with `sweepArgs`, and
 * checks every metric column of every row against the sweep's (to the solver's tolerance:
 * the command's full evaluation predicts each step from the last state's tangent, the batch
 * from a secant) and exactly against the library's values-only sweep of that file. Returns
 * the batch's table.
 */
async function batchEqualsSweeps(geometryPath: string, doeText: string, sweepArgs: string[], metrics: string[]): Promise<Table> {
  const doe = tmp.file(`doe-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(doe, doeText);
  const r = await run(['batch', geometryPath, '--doe', doe, '--threads', '0']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const batch = table(r.stdout);
  const spec = parseDoe(await inlineDoeSweep(doeText, doe, async (p) => readFileSync(p, 'utf8')), parseGeometry(readFileSync(geometryPath, 'utf8'), geometryPath), doe, geometryPath);
  const variants = new Set(batch.rows.map((row) => row[0]));
  expect(variants.size).toBeGreaterThan(1);
  for (const v of variants) {
    const rows = batch.rows.filter((row) => row[0] === v);
    const moves = rows[0].slice(1, 1 + spec.vary.length).map(Number);
    const file = tmp.file(`variant-${v}-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, variantFileText(spec, moves));
    const alone = await run(['sweep', file, ...sweepArgs, '--format', 'csv']);
    expect(alone.code).toBe(0);
    const sweep = table(alone.stdout);
    expect(sweep.rows).toHaveLength(rows.length);
    const library = runSweep(new SuspensionModel(suspensionAssembly(parseGeometry(readFileSync(file, 'utf8'), file))), spec.sweep!, { valuesOnly: true });
    rows.forEach((row, i) => {
      expect(cell(batch, row, 'status')).toBe('solved');
      const values = flattenMetrics(library.steps[i].metrics);
      for (const m of metrics) {
        expect(Number(cell(batch, row, m)), `variant ${v} step ${i} ${m}`).toBe(values[m]);
        expect(Number(cell(batch, row, m))).toBeCloseTo(Number(cell(sweep, sweep.rows[i], m)), 9);
      }
    });
  }
  return batch;
}

describe('batch grows: axles, any sweep, any number of the file', () => {
  it('a roll sweep of an axle, a symmetric, a one-sided and a centre point moved: each variant equals kinemate sweep of its file', async () => {
    const doe = 'vary:\n  upper_wishbone_outboard.z: [-5, 5]\n  left.trackrod_inboard.z: [-3, 3]\n  center.arb_u_bar_axis_a.z: [-4, 4]\n'
      + 'sampling: { type: latin_hypercube, samples: 3, seed: 5 }\nroll: "-2:2:3"\nmetrics: [left.camber, right.camber, left.toe_angle, right.toe_angle]\n';
    const t = await batchEqualsSweeps(AXLE, doe, ['--roll', '-2:2:3'], ['left.camber', 'right.camber', 'left.toe_angle', 'right.toe_angle']);
    expect(t.header).toEqual(['variant', 'upper_wishbone_outboard.z', 'left.trackrod_inboard.z', 'center.arb_u_bar_axis_a.z', 'step', 'status', 'roll', 'left.camber', 'right.camber', 'left.toe_angle', 'right.toe_angle']);
    expect(t.rows.slice(0, 3).map((r) => Number(cell(t, r, 'roll')))).toEqual([-2, 0, 2]);
    // the symmetric move keeps the mirror; the one-sided one does not
    const spec = parseDoe(doe, parseGeometry(readFileSync(AXLE, 'utf8')), 'doe');
    const moved = JSON.parse(variantFileText(spec, [2, 1, 0.5])).hardpoints;
    expect(moved.left.upper_wishbone_outboard).toEqual({ x: -25, y: 750, z: 502 });
    expect(moved.right.upper_wishbone_outboard).toEqual({ x: -25, y: -750, z: 502 });
    expect(moved.left.trackrod_inboard.z).toBe(251);
    expect(moved.right.trackrod_inboard.z).toBe(250);
    expect(moved.center.arb_u_bar_axis_a.z).toBe(300.5);
  });

  it('a sweep file named by the DOE (read beside it): columns named for what they hold', async () => {
    const sweep = tmp.file('bs.yaml');
    writeFileSync(sweep, readFileSync('examples/suspension/bump_steer.yaml', 'utf8').replace('steps: 11', 'steps: 3'));
    const t = await batchEqualsSweeps(DW, 'vary: { trackrod_inboard.z: [-2, 2] }\nsampling: { type: grid, levels: 2 }\nsweep: bs.yaml\nmetrics: [camber, toe_angle]\n', ['--sweep', sweep], ['camber', 'toe_angle']);
    expect(t.header).toEqual(['variant', 'trackrod_inboard.z', 'step', 'status', 'bump', 'steer', 'camber', 'toe_angle']);
    expect(t.rows.slice(0, 3).map((r) => [Number(cell(t, r, 'bump')), Number(cell(t, r, 'steer'))])).toEqual([[-50, -30], [0, 0], [50, 30]]);
  });

  it('a steer sweep; a spring rate and a shim varied: the shimmed corner set up again from its moved file', async () => {
    const t = await batchEqualsSweeps(SHIM, 'vary:\n  config.camber_shim.setup_thickness: [-2, 2]\n  upper_wishbone_outboard.z: [-3, 3]\n'
      + 'sampling: { type: list, variants: [[-2, 3], [2, -3], [0, 0]] }\nsteer: "-20:20:3"\nmetrics: [camber, toe_angle, kpi]\n', ['--steer', '-20:20:3'], ['camber', 'toe_angle', 'kpi']);
    expect(t.header.slice(-4)).toEqual(['steer', 'camber', 'toe_angle', 'kpi']);
    // thicker shims: more negative camber at design (step 1 of 3, rack centred)
    const design = (v: string) => Number(cell(t, t.rows.find((r) => r[0] === v && r[3] === '1')!, 'camber'));
    expect(design('0')).not.toBe(design('2'));
    // a point alone of a shimmed file: the file's (authored) point moves, the setup is solved again
    await batchEqualsSweeps(SHIM, 'vary: { upper_wishbone_outboard.z: [-3, 3], trackrod_inboard.y: [-2, 2] }\nsampling: { type: grid, levels: 2 }\nbump: "-10:10:3"\n', ['--bump', '-10:10:3'], ['camber', 'toe_angle']);
    const rated = await batchEqualsSweeps(AXLE, 'vary: { spring.rate: [-500, 500], anti_roll.rate: [-1000, 1000] }\nsampling: { type: grid, levels: 2 }\nbump: "-10:10:3"\nmetrics: [left.camber]\n', ['--bump', '-10:10:3'], ['left.camber']);
    expect(rated.header.slice(0, 3)).toEqual(['variant', 'spring.rate', 'anti_roll.rate']);
    const spec = parseDoe('vary: { spring.rate: [-500, 500] }\nsampling: { type: grid, levels: 2 }', parseGeometry(readFileSync(AXLE, 'utf8')), 'doe');
    expect(JSON.parse(variantFileText(spec, [-500])).axle_config.spring.rate).toBe(1500);
  });

  it('refuses a name the file does not have, two sweeps, an axle metric without its side', async () => {
    const doe = tmp.file('bad.yaml');
    const refuse = async (text: string, geometry: string, message: string) => {
      writeFileSync(doe, text);
      const r = await run(['batch', geometry, '--doe', doe]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
    };
    await refuse('vary: { spring.nope: [-1, 1] }\nsampling: { type: grid, levels: 2 }\n', AXLE, `${doe}: vary.spring.nope: expected "<hardpoint>.<x|y|z>"`);
    await refuse('vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: grid, levels: 2 }\nbump: "-1:1:3"\nroll: "-1:1:3"\n', AXLE, `${doe}: roll: one sweep per DOE`);
    await refuse('vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: grid, levels: 2 }\nmetrics: [camber]\n', AXLE, `${doe}: metrics: an axle's metrics are named <left|right|axle>.<metric>`);
    await refuse('vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: grid, levels: 2 }\nroll: "-1:1:3"\n', DW, `${doe}: roll:`);
    // --out never writes over the sweep file the DOE names
    const sweep = tmp.file('kept.yaml');
    writeFileSync(sweep, readFileSync('examples/suspension/bump_steer.yaml', 'utf8'));
    writeFileSync(doe, 'vary: { trackrod_inboard.z: [-1, 1] }\nsampling: { type: grid, levels: 2 }\nsweep: kept.yaml\n');
    const r = await run(['batch', DW, '--doe', doe, '--out', sweep]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/sweep/);
    expect(readFileSync(sweep, 'utf8')).toBe(readFileSync('examples/suspension/bump_steer.yaml', 'utf8'));
    const queued = await run(['batch', DW, '--doe', doe, '--queue', 'redis://127.0.0.1:1', '--out', sweep]);
    expect(queued.code).toBe(1);
    expect(queued.stderr).toMatch(/sweep/);
    expect(readFileSync(sweep, 'utf8')).toBe(readFileSync('examples/suspension/bump_steer.yaml', 'utf8'));
  });

  it('the progress bar on a terminal shows the rate and the time left', async () => {
    const doe = tmp.file('p.yaml');
    writeFileSync(doe, 'vary: { trackrod_inboard.z: [-2, 2] }\nsampling: { type: grid, levels: 3 }\nbump: "-10:10:3"\n');
    const r = await run(['batch', DW, '--doe', doe, '--threads', '0'], true);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/batch \[#+\.*\] 3\/3 {2}[\d.]+\/s {2}\d+ s left/);
  });

  it('a simulation per variant: peaks, a crossing time, an RMS and a final value equal simulate --format csv of the variant\'s file', async () => {
    const DYN = 'examples/suspension/double_wishbone_dynamics.yaml';
    const results = ['left.camber@max', 'left.tyre_force@min', 'spring.travel@rms', 'left.suspension_travel@cross=10', 'toe_angle', 'link.trackrod@max'];
    const text = 'vary: { spring.rate: [-20, 20], dynamics.masses.upright.mass: [-5, 5], lower_wishbone_outboard.z: [-5, 5] }\n'
      + `sampling: { type: list, variants: [[-15, 4, 3], [10, -4, -2]] }\nsimulate: { duration: 0.3, step: 0.001, results: [${results.join(', ')}] }\n`;
    const doe = tmp.file('sim.yaml');
    writeFileSync(doe, text);
    const r = await run(['batch', DYN, '--doe', doe, '--threads', '0']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const t = table(r.stdout);
    expect(t.header).toEqual(['variant', 'spring.rate', 'dynamics.masses.upright.mass', 'lower_wishbone_outboard.z', 'status', ...results]);
    const geometry = parseGeometry(readFileSync(DYN, 'utf8'), DYN);
    const spec = parseDoe(text, geometry, doe, DYN);
    // every variant on a worker thread (which loads the simulation code itself): the same text
    let onWorker = '';
    await runBatch(geometry, spec, { threads: 1, sweepHere: false, write: (x) => { onWorker += x; } });
    expect(onWorker).toBe(r.stdout);
    const got = t.rows.map((row) => row.slice(5).map(Number));
    expect(got[0]).not.toEqual(got[1]);
    for (const [v, row] of t.rows.entries()) {
      expect(cell(t, row, 'status')).toBe('completed');
      const file = tmp.file(`sim-variant-${v}.json`);
      writeFileSync(file, variantFileText(spec, row.slice(1, 4).map(Number)));
      expect(JSON.parse(readFileSync(file, 'utf8')).spring.rate).toBe(60 + Number(row[1]));
      const alone = await run(['simulate', file, '--duration', '0.3', '--step', '0.001', '--format', 'csv']);
      expect(alone.code).toBe(0);
      const sim = table(alone.stdout);
      const column = (name: string) => sim.rows.map((x) => Number(cell(sim, x, name)));
      const times = column('t');
      const travel = column('left.suspension_travel');
      const k = travel.findIndex((x, i) => i > 0 && (travel[i - 1] - 10) * (x - 10) <= 0);
      expect(k).toBeGreaterThan(0);
      const rms = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length);
      const expected = [Math.max(...column('left.camber')), Math.min(...column('left.tyre_force')), rms(column('spring.travel')),
        times[k - 1] + ((times[k] - times[k - 1]) * (travel[k - 1] - 10)) / (travel[k - 1] - travel[k]), column('left.toe_angle').at(-1)!, Math.max(...column('link.trackrod'))];
      expected.forEach((x, i) => expect(got[v][i], results[i]).toBeCloseTo(x, 12));
    }
  });

  it('refuses a simulation without a dynamics section, an unknown column, a sweep beside it', async () => {
    const doe = tmp.file('badsim.yaml');
    const refuse = async (text: string, geometry: string, message: string) => {
      writeFileSync(doe, text);
      const r = await run(['batch', geometry, '--doe', doe]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
    };
    const head = 'vary: { spring.rate: [-1, 1] }\nsampling: { type: grid, levels: 2 }\n';
    await refuse(`${head}simulate: { duration: 0.1, step: 0.001, results: [left.camber@max] }\n`, AXLE, `${doe}: simulate: the geometry has no dynamics section`);
    await refuse(`${head}simulate: { duration: 0.1, step: 0.001, results: [left.nope@max] }\n`, 'examples/suspension/double_wishbone_dynamics.yaml', `${doe}: simulate.results[0]: "left.nope@max": no column "left.nope" (columns: left.wheel_travel`);
    await refuse(`${head}bump: "-1:1:3"\nsimulate: { duration: 0.1, step: 0.001, results: [left.camber] }\n`, 'examples/suspension/double_wishbone_dynamics.yaml', `${doe}: bump: a DOE that simulates has results`);
  });
});
