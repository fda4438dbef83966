/**
 * The bench's clearance case (bench/geometry-cases.ts: the fixture corner, ~214,000
 * triangles, the 8 pairs no mate joins, the poses of a 21-state bump in turn), for A/B
 * work on the closest-pair search in one process, in CPU time.
 *
 * Usage:
 *   npx tsx scripts/clearance-states.ts time [SWEEPS]    ms per state: median and best of SWEEPS sweeps
 *   npx tsx scripts/clearance-states.ts states [SWEEPS]  ms per state, each of the 21, averaged
 *   npx tsx scripts/clearance-states.ts pairs [SWEEPS]   per pair: ms per state and closestStats' counts per state
 *   npx tsx scripts/clearance-states.ts table [SWEEPS]   ms per state and pair (a row per pair, a column per state), averaged
 *   npx tsx scripts/clearance-states.ts at K             per pair: closestStats' counts at state K of the sweep (0: the jump back, 10: design)
 *   npx tsx scripts/clearance-states.ts dump [SWEEPS]    every state's answers as JSON (compare two checkouts' with cmp)
 *
 * TUNE=edges=0,laterTies=0 switches closestTuning's flags (numbers as given) for an A/B in one checkout;
 *   TUNE=… TUNE_B=… npx tsx scripts/clearance-states.ts ab [SWEEPS]   alternates the two tunings sweep by sweep
 *   (each with its own hints), ms per state of each: the medians over the sweeps, and per state the means.
 *
 *   npx tsx scripts/clearance-states.ts sweeps [SWEEPS]  each sweep's ms per state in order (WARMUP=1: the JIT settling in a fresh process)
 *
 * WARMUP (default 20) warm-up sweeps first, as the bench. To compare with older code, copy its src, kernel,
 * mates and test folders and this script beside them (git archive), and alternate runs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource, loadDocumentGeometry } from '../src/assembly/geometry/load.ts';
import { ClearanceSet, unjoinedPairs } from '../src/assembly/geometry/clearance-set.ts';
import { pairClearance } from '../src/assembly/geometry/clearance.ts';
import { closestResult, closestStats, closestTuning } from '../src/assembly/geometry/closest.ts';
import { parseGeometry, sweepFromShortcut } from '../src/suspension/files';
import { suspensionAssembly } from '../src/suspension/build/template';
import { SuspensionModel } from '../src/suspension/build/model';
import { runSweep } from '../src/suspension/sweep/sweep';
import { suspensionBodies } from '../src/suspension/clearance/bodies.ts';
import { BENCH, writeCorner } from '../test/assembly/geometry/corner-fixture.ts';

/** closestTuning as TUNE (or TUNE_B) sets it, from the defaults. */
const defaults = { ...closestTuning };
function tune(text: string | undefined): void {
  Object.assign(closestTuning, defaults);
  for (const kv of (text ?? '').split(',').filter(Boolean)) {
    const [k, v] = kv.split('=');
    const t = closestTuning as Record<string, number | boolean>;
    if (!(k! in t)) throw new Error(`TUNE: no closestTuning.${k}`);
    t[k!] = typeof t[k!] === 'boolean' ? v !== '0' : Number(v);
  }
}
tune(process.env.TUNE);
const cpu = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const mode = process.argv[2] ?? 'time';
const sweeps = Number(process.argv[3] ?? 10);

const dir = mkdtempSync(join(tmpdir(), 'kinemate-clearance-states-'));
const file = writeCorner(dir, BENCH);
const geometry = parseGeometry(readFileSync(file, 'utf8'), file);
const { meshes } = await loadDocumentGeometry(geometry.part_geometry!, fileSource(dir));
rmSync(dir, { recursive: true, force: true });
const sm = new SuspensionModel(suspensionAssembly(geometry));
const names = [...meshes.keys()];
const bodies = suspensionBodies(sm, names);
const pairs = unjoinedPairs(names, bodies.joined);
const set = new ClearanceSet(meshes, pairs);
const states: Map<string, Float64Array>[] = [];
runSweep(sm, sweepFromShortcut('bump', '-50:50:21', geometry), {
  metrics: () => ({}),
  onSolvedState: () => states.push(new Map(names.map((n) => [n, Float64Array.from(bodies.poseOf(n))]))),
});
const measure = (s: Map<string, Float64Array>) => set.measure((n) => s.get(n)!);
// warm-up sweeps as the bench (WARMUP=1 for the bench's old single one)
const warmup = Number(process.env.WARMUP ?? 20);
if (process.env.SWEEP_MARKS) console.log(`-- ${warmup} warm-up sweeps`);
for (let w = 0; w < warmup; w++) for (const s of states) measure(s);

if (mode === 'sweeps') {
  // each sweep's ms per state in order after the warm-up, from this fresh process (WARMUP=1: how long the JIT takes to settle)
  const times: string[] = [];
  for (let r = 0; r < sweeps; r++) {
    const t0 = cpu();
    for (const s of states) measure(s);
    times.push(((cpu() - t0) / states.length).toFixed(2));
    if (process.env.SWEEP_MARKS) console.log(`-- sweep ${r} done: ${times[r]}`);
  }
  console.log(times.join(' '));
} else if (mode === 'time') {
  const times: number[] = [];
  for (let r = 0; r < sweeps; r++) {
    const t0 = cpu();
    for (const s of states) measure(s);
    times.push((cpu() - t0) / states.length);
  }
  times.sort((a, b) => a - b);
  console.log(`ms per state: median ${times[times.length >> 1]!.toFixed(3)}, best ${times[0]!.toFixed(3)} (${sweeps} sweeps)`);
} else if (mode === 'states') {
  const sum = new Float64Array(states.length);
  for (let r = 0; r < sweeps; r++) states.forEach((s, i) => { const t0 = cpu(); measure(s); sum[i]! += cpu() - t0; });
  console.log([...sum].map((t) => (t / sweeps).toFixed(2)).join(' '));
} else if (mode === 'ab') {
  const setB = new ClearanceSet(meshes, pairs);
  const runs = [{ set, tuning: process.env.TUNE, sweeps: [] as number[], per: new Float64Array(states.length) },
    { set: setB, tuning: process.env.TUNE_B, sweeps: [] as number[], per: new Float64Array(states.length) }];
  for (const run of runs) { tune(run.tuning); for (const s of states) run.set.measure((n) => s.get(n)!); }
  for (let r = 0; r < sweeps; r++) {
    for (const run of runs) {
      tune(run.tuning);
      let total = 0;
      states.forEach((s, k) => { const t0 = cpu(); run.set.measure((n) => s.get(n)!); const t = cpu() - t0; run.per[k]! += t; total += t; });
      run.sweeps.push(total / states.length);
    }
  }
  for (const run of runs) {
    const sorted = [...run.sweeps].sort((a, b) => a - b);
    console.log(`${run.tuning ?? '(defaults)'}: median ${sorted[sorted.length >> 1]!.toFixed(3)}, best ${sorted[0]!.toFixed(3)} ms per state; per state`, [...run.per].map((t) => (t / sweeps).toFixed(2)).join(' '));
  }
} else if (mode === 'table') {
  // each state's pairs in the set's order, each pair's hint carried as the set carries it
  const hints = pairs.map(() => closestResult());
  const sum = pairs.map(() => new Float64Array(states.length));
  const run = (record: boolean): void => states.forEach((s, k) => pairs.forEach(([a, b], i) => {
    const t0 = cpu();
    pairClearance(set.bodies.get(a)!, s.get(a)!, set.bodies.get(b)!, s.get(b)!, undefined, hints[i]);
    if (record) sum[i]![k]! += cpu() - t0;
  }));
  run(false);
  for (let r = 0; r < sweeps; r++) run(true);
  pairs.forEach(([a, b], i) => console.log(`${a}:${b}`.padEnd(30), [...sum[i]!].map((t) => (t / sweeps).toFixed(2)).join(' ')));
  const total = states.map((_, k) => sum.reduce((t, row) => t + row[k]!, 0) / sweeps);
  console.log('all'.padEnd(30), total.map((t) => t.toFixed(2)).join(' '), ' mean', (total.reduce((x, y) => x + y, 0) / states.length).toFixed(3));
} else if (mode === 'pairs') {
  // each pair over the sweep on its own, its own hint carried from state to state
  for (const [a, b] of pairs) {
    const hint = closestResult();
    for (const s of states) pairClearance(set.bodies.get(a)!, s.get(a)!, set.bodies.get(b)!, s.get(b)!, undefined, hint);
    for (const key of Object.keys(closestStats)) closestStats[key as keyof typeof closestStats] = 0;
    const t0 = cpu();
    for (let r = 0; r < sweeps; r++) for (const s of states) pairClearance(set.bodies.get(a)!, s.get(a)!, set.bodies.get(b)!, s.get(b)!, undefined, hint);
    const n = sweeps * states.length;
    const counts = Object.entries(closestStats).map(([k, v]) => `${k} ${Math.round(v / n)}`).join(', ');
    console.log(`${a}:${b}`.padEnd(30), ((cpu() - t0) / n).toFixed(3), counts);
  }
} else if (mode === 'at') {
  // each pair's work at one state, its hint carried over the sweep up to it (from the last state for K = 0: the jump back)
  const k = sweeps % states.length;
  for (const [a, b] of pairs) {
    const hint = closestResult();
    for (const s of states) pairClearance(set.bodies.get(a)!, s.get(a)!, set.bodies.get(b)!, s.get(b)!, undefined, hint);
    for (let i = 0; i < k; i++) pairClearance(set.bodies.get(a)!, states[i]!.get(a)!, set.bodies.get(b)!, states[i]!.get(b)!, undefined, hint);
    for (const key of Object.keys(closestStats)) closestStats[key as keyof typeof closestStats] = 0;
    const s = states[k]!;
    pairClearance(set.bodies.get(a)!, s.get(a)!, set.bodies.get(b)!, s.get(b)!, undefined, hint);
    console.log(`${a}:${b}`.padEnd(30), Object.entries(closestStats).map(([key, v]) => `${key} ${v}`).join(', '));
  }
} else if (mode === 'dump') {
  const out: unknown[] = [];
  for (let r = 0; r < sweeps; r++) for (const s of states) out.push(measure(s));
  console.log(JSON.stringify(out));
} else {
  console.error('usage: npx tsx scripts/clearance-states.ts time|states|pairs|dump [SWEEPS], at K');
  process.exit(1);
}
