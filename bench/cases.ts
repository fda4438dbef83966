import { readFileSync } from 'node:fs';
import { System } from '../kernel/system';
import { solve } from '../kernel/solver/solve';
import * as P from '../kernel/pose';
import { hingedLink } from '../test/kernel/toyBlocks';
import { validateAssembly } from '../src/assembly';
import { buildModel } from '../src/model/build';
import { driveModel } from '../src/model/operations';
import { fourBarDoc } from '../examples/fourbar';
import { parseGeometry, sweepFromShortcut } from '../src/suspension/files';
import { suspensionAssembly } from '../src/suspension/build/template';
import { SuspensionModel } from '../src/suspension/build/model';
import { runSweep, sweepDrivers } from '../src/suspension/sweep/sweep';
import { CompliantState } from '../src/suspension/compliance/state';
import { kcCoefficients } from '../src/suspension/compliance/coefficients';
import { chainDoc, manyChainsDoc } from './models';
import { LiveModel, compileDocument, liveEdits, readSuspensionDocument, suspensionAnalysis, type LiveDocument } from '../src/live/index.ts';
import { History } from '../src/reactive';
import { LiveViewPresenter } from '../src/live/view/presenter.ts';
import { exportGlb, plotPicture } from '../src/cli/pictures.ts';
import { parseAssembly } from '../src/assembly/load';
import { buildDynamics } from '../src/mechanics/build';
import { modes } from '../src/mechanics/modes';
import { equilibrium } from '../src/mechanics/equilibrium';
import { reactionsHere } from '../src/mechanics/statics';
import { suspensionRates } from '../src/suspension/loads/rates';
import { prepareSimulation } from '../src/mechanics/simulate';
import { SensitivityModel, gradientsAtFirstState } from '../src/suspension/gradients/model';
import { parseDoe } from '../src/suspension/design/batch';
import { runBatch } from '../src/suspension/design/batch-pool';
import { vehicleAyStateMs } from './vehicle-case';
import { vehicleSimStepUs } from './vehicle-sim-case';
import { vehicleDragFrameMs } from './vehicle-drag-case';

export interface Benchmark {
  name: string;
  unit: string;
  goal?: string;
  run(): number | Promise<number>;
}

/**
 * Now in ns: the wall clock, or with BENCH_CLOCK=cpu this process's CPU time (user + system,
 * µs resolution): on a machine shared by many jobs the wall clock counts the time others ran.
 */
const cpuClock = process.env.BENCH_CLOCK === 'cpu';
function nowNs(): number {
  if (!cpuClock) return Number(process.hrtime.bigint());
  const c = process.cpuUsage();
  return (c.user + c.system) * 1000;
}

/**
 * Median of `rounds` timings of `fn` run `inner` times each, in ns per call, after `warmup`
 * calls (default `inner`) that let the JIT optimise what it runs: a case whose calls are few
 * per round takes a warm-up of its own, or its rounds time the compiler (with
 * BENCH_CLOCK=cpu, the compiler threads' CPU too).
 */
export function timeNs(fn: () => void, inner = 1000, rounds = 15, warmup = inner): number {
  for (let i = 0; i < warmup; i++) fn(); // warm up the JIT
  const t: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = nowNs();
    for (let i = 0; i < inner; i++) fn();
    t.push((nowNs() - t0) / inner);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}

/**
 * The viewer's worker work per move of a chassis-pickup drag on the DW corner (Node, no
 * browser): `which` = the pose (rebuild, solve, metrics, steering response, DOF) or the
 * plots' sweep (21-step bump). Median over 120 moves after 60 of warm-up.
 */
function viewerEditMs(which: 'pose' | 'sweep'): number {
  const history = new History<LiveDocument>(readSuspensionDocument(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'), 'double_wishbone.yaml'));
  const engine = new LiveViewPresenter();
  // the page's live model's request: the document compiled once, by the edit's validation on the main thread
  const pose = (version: number, document: LiveDocument) => ({ version, document, compiled: compileDocument(document), settings: { view: { travel: [0], rack: 0 }, loads: null }, pull: null });
  const p0 = engine.pose(pose(0, history.current)).points['chassis.upper_wishbone_inboard_front'];
  const times: number[] = [];
  for (let i = 0; i < 180; i++) {
    const a = (i / 120) * 1.5 * Math.PI;
    history.apply(liveEdits.moveHardpoint('upper_wishbone_inboard_front', [p0[0] + 5 * Math.sin(a), p0[1], p0[2] + 5 * (1 - Math.cos(a))]), 'move');
    const request = pose(i + 1, history.current);
    const t0 = nowNs();
    if (which === 'pose') engine.pose(request);
    else engine.sweep({ docKey: i + 1, doc: request.document, compiled: request.compiled, range: { start: -50, stop: 50, steps: 21 } });
    if (i >= 60) times.push((nowNs() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

function suspension(name: string): SuspensionModel {
  return new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')))));
}
/**
 * Warm-up of the per-state sweep cases: 20 sweeps (2000 states, like timeNs's 1000 calls), so
 * the figure is the steady state whether the case runs alone or after the others. After one
 * sweep a lone run was still compiling (the JIT settles after 10–25 sweeps): its figure
 * counted the compiler, several times the steady one under the CPU clock.
 */
const SWEEP_WARMUP = 20;
const SWEEP_METHOD = `best of 5 sweeps after ${SWEEP_WARMUP} warm-up sweeps; CPU time with BENCH_CLOCK=cpu`;
/** Per-state time (ms) of a 100-step sweep, fully evaluated: best of 5 sweeps after the warm-up. */
function sweepStateMs(name: string, kind: 'bump' | 'steer' | 'roll', range: string): number {
  const sm = suspension(name);
  const spec = sweepFromShortcut(kind, range);
  for (let w = 0; w < SWEEP_WARMUP; w++) runSweep(sm, spec);
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = nowNs();
    runSweep(sm, spec);
    times.push((nowNs() - t0) / 1e6 / spec.steps);
  }
  return Math.min(...times);
}

export const benchmarks: Benchmark[] = [
  {
    name: 'exp_ns',
    unit: 'ns per SE(3) exponential',
    run() {
      const out = new Float64Array(7);
      const xi = Float64Array.from([0.3, -0.2, 0.9, 1, 2, 3]);
      let k = 0;
      return timeNs(() => { xi[0] = (k++ % 100) * 0.01; P.exp(out, xi); }, 200000);
    },
  },
  {
    name: 'halfturn_iterations',
    unit: 'iterations to pull a hinged body from 90° to a 179.5° turn',
    goal: '≤ 12',
    run() {
      const system = new System(1);
      const link = hingedLink(system, 'link', [0, 0, 0], Math.PI / 2);
      const target = (179.5 * Math.PI) / 180;
      return solve(system, { pulls: [{ variable: link, point: [1, 0, 0], target: [Math.cos(target), Math.sin(target), 0] }] }).iterations;
    },
  },
  {
    name: 'fourbar_drive_step_us',
    unit: 'µs per warm-started drive step of the four-bar (1° steps, state output included)',
    goal: '20',
    run() {
      // one drive of warm-up: the figure is the early drives, V8's optimising compiler still at
      // work (bimodal from run to run: docs/solver-warm-up.md); fourbar_drive_warm_step_us, run
      // last so its warm-up warms no other case, is the same drive once compiled
      const model = buildModel(validateAssembly(fourBarDoc(30)));
      driveModel(model, 'jA.angle', 30, 390, 360);
      return bestFourBarDriveUs(5);
    },
  },
  {
    name: 'chain100_drag_frame_ms',
    unit: 'ms per drag frame pulling the tip of a 100-link chain (median of 40)',
    goal: '1',
    run() {
      const model = buildModel(validateAssembly(chainDoc(99, (3.6 * Math.PI) / 180)));
      const tip = model.parts.get('link99')!;
      const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
      // a drag along a small arc, back and forth: 10 warm-up frames, then the median of 40
      const target = (f: number): number[] => [p[0] - 0.3 + 0.3 * Math.cos(f / 20), p[1] + 0.3 * Math.sin(f / 20), 0];
      const times: number[] = [];
      for (let f = 0; f < 50; f++) {
        const t0 = nowNs();
        solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: target(f) }] });
        if (f >= 10) times.push((nowNs() - t0) / 1e6);
      }
      times.sort((a, b) => a - b);
      return times[times.length >> 1];
    },
  },
  {
    name: 'parts2000_drag_frame_ms',
    unit: 'ms per drag frame in 2000 parts (100 independent 20-link chains), one pulled (median of 60)',
    goal: '5',
    run: () => manyChainsDragMs(100),
  },
  {
    name: 'parts20000_drag_frame_ms',
    unit: 'ms per drag frame in 20000 parts (2000 independent 10-link chains), one pulled (median of 60)',
    goal: '5',
    run: () => manyChainsDragMs(2000, 10),
  },
  {
    name: 'dw_corner_bump_state_solve_ms',
    unit: `ms per state, solve only, double-wishbone corner, 100-step bump (best of 5 sweeps after ${SWEEP_WARMUP} warm-up sweeps)`,
    goal: '0.05',
    run() {
      const sm = suspension('double_wishbone');
      const c = sm.corners[0];
      const drivers = [c.wheelCenterZ, sm.rackHold!];
      const z0 = c.design.wheelCenterZ;
      const sweep = () => { for (let i = 0; i < 100; i++) { c.wheelCenterZ.target = z0 - 50 + i; sm.solveWith(drivers); } };
      // the same warm-up as the fully evaluated sweeps: after one sweep the JIT was still
      // compiling, and the figure moved 0.03–0.11 run to run (steady: ~0.026)
      for (let w = 0; w < SWEEP_WARMUP; w++) { sm.resetToDesign(); sweep(); }
      const t: number[] = [];
      for (let r = 0; r < 5; r++) { sm.resetToDesign(); const t0 = nowNs(); sweep(); t.push((nowNs() - t0) / 1e6 / 100); }
      return Math.min(...t);
    },
  },
  { name: 'dw_corner_bump_state_full_ms', unit: `ms per state fully evaluated, DW corner, 100-step bump (${SWEEP_METHOD})`, goal: '0.1', run: () => sweepStateMs('double_wishbone', 'bump', '-50:50:100') },
  { name: 'multilink_steer_state_full_ms', unit: `ms per state fully evaluated, multi-link, 100-step steer (${SWEEP_METHOD})`, goal: '0.25', run: () => sweepStateMs('multi_link', 'steer', '-30:30:100') },
  { name: 'dw_axle_roll_state_full_ms', unit: `ms per state fully evaluated, DW axle, 100-step roll (${SWEEP_METHOD})`, goal: '0.5', run: () => sweepStateMs('double_wishbone_axle', 'roll', '-3:3:100') },
  { name: 'dw_axle_arb_roll_state_full_ms', unit: `ms per state fully evaluated, pushrod-rocker DW axle with a U-bar, 100-step roll (${SWEEP_METHOD})`, goal: '0.6', run: () => sweepStateMs('double_wishbone_axle_u_bar', 'roll', '-3:3:100') },
  {
    name: 'dw_axle_drag_frame_ms',
    unit: 'ms per drag frame of a DW axle (solve, metrics, derivatives, both steering axes), median of 600',
    goal: '2',
    run() {
      const live = new LiveModel(readSuspensionDocument(readFileSync('examples/suspension/double_wishbone_axle.yaml', 'utf8')), { analyze: suspensionAnalysis() });
      live.solveNow();
      // the left wheel centre (upright at identity pose at design: local = world)
      const wc: [number, number, number] = [-20, 950, 313.426];
      const times: number[] = [];
      let seed = 7;
      const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
      live.beginDrag({ kind: 'pull', part: 'left_upright', point: wc });
      let z = wc[2];
      for (let f = 0; f < 700; f++) {
        z = Math.max(wc[2] - 60, Math.min(wc[2] + 60, z + (rand() - 0.5) * 8));
        live.dragTo([wc[0], wc[1], z]);
        const t0 = performance.now();
        live.solveNow();
        if (f >= 100) times.push(performance.now() - t0);
      }
      live.endDrag();
      live.dispose();
      times.sort((a, b) => a - b);
      return times[Math.floor(times.length / 2)];
    },
  },
  { name: 'viewer_edit_pose_ms', unit: 'ms of pose-worker work per move of a DW pickup drag (Node: the model renewed in place from the request\'s compile, solve, metrics, steering response, DOF)', run: () => viewerEditMs('pose') },
  { name: 'viewer_edit_sweep_ms', unit: "ms of sweep-worker work per move of a DW pickup drag (Node: the plots' 21-step bump sweep)", run: () => viewerEditMs('sweep') },
  { name: 'plot_png_ms', unit: 'ms for kinemate plot of the DW corner, 3 metrics over a 101-state bump, to PNG in memory (load, sweep, chart, render)', goal: '150', run: () => medianMs(() => plotPicture('examples/suspension/double_wishbone.yaml', { metrics: ['camber', 'toe_angle', 'caster'], format: 'png', sweep: { bump: '-50:50:101' } }), 8, 21) },
  { name: 'gltf_export_ms', unit: 'ms for kinemate export of the DW corner over a 101-state bump, .glb in memory (load, sweep, poses, meshes, encode)', goal: '50', run: () => medianMs(() => exportGlb('examples/suspension/double_wishbone.yaml', { fps: 25, sweep: { bump: '-50:50:101' } }), 8, 21) },
  {
    name: 'quarter_car_modes_ms',
    unit: 'ms per kinemate modes of the quarter car from its equilibrium (check the balance, linearise on the manifold, eigen-decomposition)',
    goal: '0.5',
    run() {
      const dyn = buildDynamics(parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8')));
      if (modes(dyn).status !== 'solved') throw new Error('quarter car: no modes');
      return timeNs(() => { modes(dyn); }, 200) / 1e6;
    },
  },
  {
    name: 'dw_corner_loads_state_ms',
    unit: 'ms per state of the DW corner under 1 g braking: solve, every mate\'s reaction and link force, motion ratio, wheel rate',
    goal: '0.05',
    run() {
      const dyn = buildDynamics(parseAssembly(readFileSync('examples/dw-corner-braking.kinemate.json', 'utf8')));
      if (equilibrium(dyn).status !== 'solved') throw new Error('dw corner: no equilibrium');
      return timeNs(() => {
        solve(dyn.system);
        reactionsHere(dyn);
        suspensionRates(dyn, 'upright.contact', { spring: 'spring' });
      }, 200) / 1e6;
    },
  },
  {
    name: 'dw_corner_kc_state_ms',
    unit: 'ms per compliant state of the DW corner (bushings at the four inboard pickups, compliant track rod) under 3 kN lateral load: equilibrium from the rigid pose, metrics, bushing and link loads, K&C coefficients (warm: after 1000 states)',
    goal: '0.3',
    run() {
      const g = parseGeometry(readFileSync('examples/suspension/double_wishbone_compliant.yaml', 'utf8'));
      const sm = new SuspensionModel(suspensionAssembly(g));
      const state = new CompliantState(sm);
      const drivers = sweepDrivers(sm, sweepFromShortcut('bump', '0:0:1', g));
      sm.resetToDesign();
      sm.solveWith(drivers.map((d) => d.block));
      const rigid = sm.model.system.snapshot();
      state.setLoad(0, { force: [0, 3000, 0], moment: [0, 0, 0], at: 'contact_patch' });
      // 1000 states of warm-up: after 50 the JIT is still compiling the settle's and the
      // metrics' code for several hundred more, and the median round timed the compiler
      // (0.6–1.1 ms CPU against 0.26–0.28 ms warm, on the loaded 2-core machine)
      return timeNs(() => {
        sm.model.system.restore(rigid);
        if (state.settle().status !== 'solved') throw new Error('dw corner kc: no equilibrium');
        sm.evaluate({ derivatives: false });
        state.loads();
        kcCoefficients(state);
      }, 50, 15, 1000) / 1e6;
    },
  },
  { name: 'pendulum_step_us', unit: 'µs per generalized-α step of the 1 m pendulum example (h = 1 ms, Newton to |Φ| ≤ 1e-10, energy bookkeeping)', goal: '3', run: () => simulationStepUs('examples/pendulum.kinemate.json', 0.001) },
  { name: 'quarter_car_step_us', unit: 'µs per generalized-α step of the quarter car over a bump (h = 1 ms, spring, damper, tyre spring, road motion)', goal: '5', run: () => simulationStepUs('examples/quarter-car-bump.kinemate.json', 0.001) },
  { name: 'dw_corner_sim_step_us', unit: 'µs per generalized-α step of the double wishbone corner over a bump (h = 1 ms; wishbone and upright masses, coilover, tyre spring, road motion)', goal: '8', run: () => simulationStepUs('examples/dw-corner-bump.kinemate.json', 0.001) },
  {
    name: 'dw_corner_sensitivity_state_ms',
    unit: 'ms for the gradients of every first-order hardpoint-sensitivity metric (SENSITIVITY_METRICS: 22, of which 17 defined here) w.r.t. all 30 DW-corner hardpoint coordinates at one solved state (+20 mm bump), adjoint (warm: after 1000 states)',
    goal: '0.1',
    run() {
      const model = new SensitivityModel(parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8')));
      const here = gradientsAtFirstState(model, sweepFromShortcut('bump', '20:20:1'));
      // 1000 calls of warm-up, as the K&C state: the adjoint's functions are each called a few
      // times a state and reach V8's optimising compiler only after several hundred states;
      // with 100 the rounds timed that compiler (with BENCH_CLOCK=cpu its thread counts too)
      return timeNs(() => { here('adjoint'); }, 100, 15, 1000) / 1e6;
    },
  },
  {
    name: 'doe_variants_per_s',
    unit: 'DW corner variants per second, each swept over 21 bump steps (values), on all cores (this thread and workers; their start-up included), 400 Latin-hypercube variants',
    goal: '300',
    run: async () => (await doeRate(undefined)).rate,
  },
  {
    name: 'doe_parallel_speedup',
    unit: 'variants per second on all cores / in one thread, same 400 variants, in steady state: after 8 warm-up runs on all cores (pooled workers whose code V8 has optimised; a cold worker isolate takes several runs), the medians of 3 interleaved pairs',
    goal: '1.8',
    async run() {
      for (let i = 0; i < 8; i++) await doeRate(undefined);
      const all: number[] = [], one: number[] = [];
      for (let i = 0; i < 3; i++) {
        all.push((await doeRate(undefined)).rate);
        one.push((await doeRate(0)).rate);
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
      return median(all) / median(one);
    },
  },
  {
    name: 'drive_into_limit_ms',
    unit: "ms for the README's offset slider-crank drive 90 → −90° in 18 steps, which stops exactly at the slider's limit (best of 5, warm)",
    goal: '100',
    run() {
      const text = readFileSync('examples/offset-slider-crank.kinemate.json', 'utf8');
      const drive = () => driveModel(buildModel(validateAssembly(JSON.parse(text))), 'jA.angle', 90, -90, 18);
      drive();
      const t: number[] = [];
      for (let r = 0; r < 5; r++) {
        const t0 = performance.now();
        drive();
        t.push(performance.now() - t0);
      }
      return Math.min(...t);
    },
  },
  {
    name: 'vehicle_ay_state_ms',
    unit: 'ms for one quasi-static lateral-acceleration state (0.4 g) of the sedan (examples/vehicles: pushrod DW front with a U-bar, multi-link rear), Newton from the state at rest to 1e-10 of the weight, and its report (corners, body, vehicle)',
    goal: '2',
    run: () => vehicleAyStateMs(),
  },
  {
    name: 'vehicle_sim_step_us',
    unit: 'µs per generalized-α step of the sedan (examples/vehicles) over an ISO 8608 class C road at 60 km/h, each side its own seed, the rear wheels delayed (h = 1 ms; every part mass, springs, U-bar, tyre springs, four road motions, energy bookkeeping)',
    goal: '100',
    run: () => vehicleSimStepUs(),
  },
  {
    name: 'vehicle_drag_frame_ms',
    unit: 'ms for one frame of the viewer\'s whole-car drag (the vehicle worker\'s work: the sedan\'s edited document applied to the kept model, solved at rest from the last state, roll gradient and load transfer, pose and quick figures), a front pickup moved 1 mm a frame on both sides; median of 31 frames after 40 (the JIT still compiles over the first tens)',
    goal: '16',
    run: () => vehicleDragFrameMs(),
  },
  {
    name: 'fourbar_drive_warm_step_us',
    unit: 'µs per drive step of the four-bar as fourbar_drive_step_us, once compiled: best of 7 drives after 20 of warm-up (after one, V8 was still compiling the drive\'s functions through every timed round; 7 rounds step around the state output\'s young-generation collection, one round in two)',
    run() {
      for (let w = 0; w < 20; w++) driveModel(buildModel(validateAssembly(fourBarDoc(30))), 'jA.angle', 30, 390, 360);
      return bestFourBarDriveUs(7);
    },
  },
];

/** µs per step of the fastest of `rounds` 361-step drives of a freshly built four-bar. */
function bestFourBarDriveUs(rounds: number): number {
  const t: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const m = buildModel(validateAssembly(fourBarDoc(30)));
    const t0 = nowNs();
    driveModel(m, 'jA.angle', 30, 390, 360);
    t.push((nowNs() - t0) / 1000 / 361);
  }
  return Math.min(...t);
}

/**
 * ms per drag frame of one chain's tip among `groups` independent chains of `links` links
 * (the others hold and are skipped): 10 warm-up frames, then the median of 60.
 */
function manyChainsDragMs(groups: number, links = 20): number {
  const model = buildModel(validateAssembly(manyChainsDoc(groups, links, 0.1)));
  solve(model.system);
  const tip = model.parts.get(`g${groups >> 1}_link${links}`)!;
  const p = P.applyPoint(new Float64Array(3), model.system.getPose(tip), [1, 0, 0]);
  const times: number[] = [];
  for (let f = 0; f < 70; f++) {
    const t0 = nowNs();
    solve(model.system, { pulls: [{ variable: tip, point: [1, 0, 0], target: [p[0] - 0.01 * f, p[1] + 0.01 + 0.015 * f, 0] }] });
    if (f >= 10) times.push((nowNs() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/**
 * µs per integrator step of an example (frames not built), median of rounds of 2000 steps,
 * on the group `simulate` steps on (R³ × SO(3), its default; prepareSimulation's own default
 * is SE(3), the scheme the gradients differentiate).
 */
function simulationStepUs(file: string, h: number): number {
  const sim = prepareSimulation(parseAssembly(readFileSync(file, 'utf8')), { lieGroup: 'R3xSO3' });
  return timeNs(() => { if (!sim.integrator.step(h)) throw new Error(`${file}: a step failed`); }, 2000) / 1000;
}

/** Variants per second of the example DOE (400 variants × 21 steps), with `threads` workers (default: one per core). */
async function doeRate(threads: number | undefined): Promise<{ rate: number }> {
  const geometry = parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));
  const spec = parseDoe(readFileSync('examples/sensitivity/doe_upper_arm.yaml', 'utf8'), geometry);
  const t0 = performance.now();
  const { variants } = await runBatch(geometry, spec, { ...(threads !== undefined ? { threads } : {}), write: () => {} });
  return { rate: variants / ((performance.now() - t0) / 1000) };
}

/** Median wall time of an asynchronous job in ms, after `warmup` runs. */
async function medianMs(job: () => Promise<unknown>, warmup: number, rounds: number): Promise<number> {
  for (let i = 0; i < warmup; i++) await job();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await job();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}
