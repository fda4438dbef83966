/**
 * Geometry figures (docs/geometry.md): the clearance of one state and the envelope of a
 * 21 × 21 bump × steer grid, on the fixture corner with ~200,000 triangles on six bodies
 * (test/assembly/geometry/corner-fixture.ts writes it: the bench makes its own meshes).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource, loadDocumentGeometry } from '../src/assembly/geometry/load.ts';
import { ClearanceSet, unjoinedPairs } from '../src/assembly/geometry/clearance-set.ts';
import { parseGeometry, sweepFromShortcut } from '../src/suspension/files';
import { suspensionAssembly } from '../src/suspension/build/template';
import { SuspensionModel } from '../src/suspension/build/model';
import { runSweep } from '../src/suspension/sweep/sweep';
import { suspensionBodies } from '../src/suspension/clearance/bodies.ts';
import { gridSweep } from '../src/suspension/clearance/grid.ts';
import { suspensionEnvelope } from '../src/suspension/clearance/envelope.ts';
import { BENCH, writeCorner } from '../test/assembly/geometry/corner-fixture.ts';
import type { Benchmark } from './cases';

/** ms now: the wall clock, or with BENCH_CLOCK=cpu this process's CPU time (as bench/cases.ts). */
function nowMs(): number {
  if (process.env.BENCH_CLOCK !== 'cpu') return performance.now();
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

async function corner() {
  const dir = mkdtempSync(join(tmpdir(), 'kinemate-bench-geom-'));
  try {
    const file = writeCorner(dir, BENCH);
    const geometry = parseGeometry(readFileSync(file, 'utf8'), file);
    const { meshes } = await loadDocumentGeometry(geometry.part_geometry!, fileSource(dir));
    return { geometry, meshes, sm: new SuspensionModel(suspensionAssembly(geometry)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Warm-up sweeps of the clearance case (21 states each) before the timed ones. */
const CLEARANCE_WARMUP = 20;

/** ms per state: every pair no mate joins (8 of the 15), the poses of a 21-state bump visited in turn (as a drag visits them). */
async function clearanceStateMs(): Promise<number> {
  const { meshes, sm, geometry } = await corner();
  const names = [...meshes.keys()];
  const bodies = suspensionBodies(sm, names);
  const set = new ClearanceSet(meshes, unjoinedPairs(names, bodies.joined));
  // the poses of each state, recorded once
  const states: Map<string, Float64Array>[] = [];
  runSweep(sm, sweepFromShortcut('bump', '-50:50:21', geometry), {
    metrics: () => ({}),
    onSolvedState: () => states.push(new Map(names.map((n) => [n, Float64Array.from(bodies.poseOf(n))]))),
  });
  let k = 0;
  const measure = (): void => { const s = states[k++ % states.length]!; set.measure((n) => s.get(n)!); };
  // Warm-up as the per-state sweep cases (bench/cases.ts SWEEP_WARMUP): after one sweep a lone
  // run was still compiling (TurboFan took up closestPair, pairClearance, the depth's and
  // three-mesh-bvh's functions in sweeps 1–10; the compiler threads' time counts in the CPU
  // clock): its sweeps 2–4 read 1.6–2.9 ms where the same process settles at 1.2–1.5.
  for (let i = 0; i < CLEARANCE_WARMUP * states.length; i++) measure();
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = nowMs();
    for (let i = 0; i < states.length; i++) measure();
    times.push((nowMs() - t0) / states.length);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

/** ms for the tyre's envelope over a 21 × 21 grid (bump ±50 mm, rack ±20 mm): the 441 solves, the union and the surface. */
async function envelopeGridMs(): Promise<number> {
  const { meshes, sm, geometry } = await corner();
  const bodies = suspensionBodies(sm, ['tyre']);
  const grid = gridSweep(Array.from({ length: 21 }, (_, i) => -50 + 5 * i), Array.from({ length: 21 }, (_, i) => -20 + 2 * i), geometry);
  const run = (): number => suspensionEnvelope(sm, grid, bodies, 'tyre', meshes.get('tyre')!).mesh.indices.length;
  run();
  const times: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t0 = nowMs();
    run();
    times.push(nowMs() - t0);
  }
  times.sort((a, b) => a - b);
  return times[1]!;
}

export const geometryBenchmarks: Benchmark[] = [
  { name: 'clearance_state_ms', unit: 'ms per state, DW corner with geometry on six bodies (~214,000 triangles as CAD tessellates: torus tyre, grid-box liner, tube arms, upright and damper), the 8 pairs no mate joins, poses of a 21-state bump in turn (median of 5 sweeps after 20 warm-up sweeps)', goal: '2', run: clearanceStateMs },
  { name: 'envelope_grid_ms', unit: 'ms for the tyre envelope (49,152-triangle torus) over a 21 x 21 bump x steer grid: solves, union, closed surface', goal: '2000', run: envelopeGridMs },
];
