/**
 * Replays a recorded drag on a double-wishbone corner through the live model and prints,
 * per frame, the solve time, the largest constraint residual and a few metrics.
 *
 *   npx tsx examples/live-drag.ts [geometry.yaml]     (default examples/suspension/double_wishbone.yaml)
 *
 * The recording is what the viewer sends: pointer down on a handle, moves (world
 * targets, one per animation frame), pointer up. Three gestures:
 *  1. the wheel centre pulled up 60 mm, down to −60 mm and back (the rack held: bump);
 *  2. with the wheel back at design, the chassis hardpoint `upper_wishbone_inboard_front`
 *     moved 20 mm up (a geometry edit: one undo entry; the linkage re-solves each frame);
 *  3. the wheel pulled through the same bump again, on the new geometry.
 * Then the hardpoint move is undone and the state re-solved.
 *
 * The frame clock is `queueScheduler`, so each move is solved at once, in order (a script
 * has no animation frames); the scheduling is otherwise the viewer's.
 *
 * The live model's pull is free: the linkage moves the least it must, the rack included.
 * Last, the same wheel bump through the viewer's pull (`SuspensionLiveEngine`: the wheel
 * follows the pointer's height with the rack held, as the viewer drags it), printed every
 * 20 mm beside the free pull's toe at the same heights.
 */
import { readFileSync } from 'node:fs';
import { queueScheduler } from 'rxjs';
import { compileDocument, LiveModel, readSuspensionDocument, simpleSuspensionAnalysis, SuspensionLiveEngine, worldPoint, type LiveFrame, type SimpleAnalysis } from '../src/live/index.ts';
import type { Vec3Tuple } from '../src/index.ts';

type Recorded =
  | { readonly type: 'down'; readonly grab: { kind: 'pull'; part: string; point: Vec3Tuple } | { kind: 'hardpoint'; name: string }; readonly label: string }
  | { readonly type: 'move'; readonly at: Vec3Tuple }
  | { readonly type: 'up' };

const file = process.argv[2] ?? new URL('./suspension/double_wishbone.yaml', import.meta.url).pathname;
const live = new LiveModel<SimpleAnalysis>(readSuspensionDocument(readFileSync(file, 'utf8'), file), {
  frameScheduler: queueScheduler,
  analyze: simpleSuspensionAnalysis,
});
const document = live.document;
if (document.kind !== 'suspension' || document.geometry.scope === 'axle') throw new Error('this example replays a drag on a corner file');
const hardpoints = document.geometry.hardpoints as Record<string, { x: number; y: number; z: number } | Vec3Tuple>;
const xyz = (p: { x: number; y: number; z: number } | Vec3Tuple): Vec3Tuple => (Array.isArray(p) ? [p[0], p[1], p[2]] : [p.x, p.y, p.z]);

// The wheel centre on the upright: axle_outboard less the offset along the spin axis (design pose = identity).
const inboard = xyz(hardpoints.axle_inboard);
const outboard = xyz(hardpoints.axle_outboard);
const offset = Number(((document.geometry.config as { wheel?: { offset?: number } } | undefined)?.wheel?.offset) ?? 0);
const spin = outboard.map((v, i) => v - inboard[i]);
const spinLength = Math.hypot(spin[0], spin[1], spin[2]);
const wheelCenter: Vec3Tuple = [0, 1, 2].map((i) => outboard[i] - (offset * spin[i]) / spinLength) as Vec3Tuple;

/** The recording: pointer events, one move per frame. */
function recording(): Recorded[] {
  const events: Recorded[] = [];
  const bump = (label: string) => {
    events.push({ type: 'down', grab: { kind: 'pull', part: 'upright', point: wheelCenter }, label });
    const heights: number[] = [];
    for (let z = 4; z <= 60; z += 4) heights.push(z);
    for (let z = 56; z >= -60; z -= 4) heights.push(z);
    for (let z = -56; z <= 0; z += 4) heights.push(z);
    for (const dz of heights) events.push({ type: 'move', at: [wheelCenter[0], wheelCenter[1], wheelCenter[2] + dz] });
    events.push({ type: 'up' });
  };
  bump('wheel bump');
  const name = 'upper_wishbone_inboard_front';
  const start = xyz(hardpoints[name]);
  events.push({ type: 'down', grab: { kind: 'hardpoint', name }, label: `move ${name}` });
  for (let k = 1; k <= 20; k++) events.push({ type: 'move', at: [start[0], start[1], start[2] + k] });
  events.push({ type: 'up' });
  bump('wheel bump, upper front pivot +20 mm');
  return events;
}

const fmt = (x: number, digits: number, width: number) => x.toFixed(digits).padStart(width);
let printed = 0;
let label = 'load';
const solveTimes: number[] = [];
function print(frame: LiveFrame<SimpleAnalysis>): void {
  if (printed++ % 40 === 0) {
    console.log('  seq  gesture                                  solve ms  iters  max residual    camber°    toe°   wheel z   reach');
  }
  const corner = frame.analysis!.corners[0];
  const reach = frame.reach ? `${frame.reach.status} ${frame.reach.remaining.toFixed(2)} mm` : frame.rebuilt ? 'rebuilt' : '';
  solveTimes.push(frame.solveMs);
  console.log(
    `${String(frame.seq).padStart(5)}  ${label.padEnd(40)} ${fmt(frame.solveMs, 3, 8)}  ${String(frame.result.iterations).padStart(5)}  ${frame.result.maxResidual.toExponential(2).padStart(12)}  ${fmt(corner.camber, 4, 8)}  ${fmt(corner.toe, 4, 6)}  ${fmt(corner.wheelCenter[2], 2, 8)}   ${reach}`,
  );
}

/** The free pull's toe at each wheel height of the first bump (mm above design → degrees). */
const freeToe = new Map<number, number>();
live.state$.subscribe((frame) => {
  if (label === 'wheel bump' && frame.analysis) freeToe.set(Math.round(frame.analysis.corners[0].wheelCenter[2] - wheelCenter[2]), frame.analysis.corners[0].toe);
});
live.state$.subscribe(print);
live.errors$.subscribe((error) => console.log(`  ! ${error.kind}: ${'reason' in error ? error.reason : error.message}`));

for (const event of recording()) {
  if (event.type === 'down') {
    label = event.label;
    live.beginDrag(event.grab, event.label);
  } else if (event.type === 'move') live.dragTo(event.at);
  else {
    const entry = live.endDrag();
    if (entry) console.log(`  (pointer up: one undo entry "${entry.label}")`);
  }
}
label = 'undo';
live.undo();

const sorted = [...solveTimes].sort((a, b) => a - b);
const dof = live.lastGood!.analysis!.dof;
console.log(
  `\n${solveTimes.length} frames; solve ms median ${sorted[sorted.length >> 1].toFixed(3)}, p90 ${sorted[Math.floor(sorted.length * 0.9)].toFixed(3)}, max ${sorted[sorted.length - 1].toFixed(3)}; DOF ${dof} (the rack held: bump only)`,
);
live.dispose();

// The viewer's pull: the wheel held to the pointer's height, the rack held (bump).
/** Toe of the (left) corner, degrees, from its axle's direction in plan view. */
function toeOf(engine: SuspensionLiveEngine): number {
  const axle = engine.sm.corners[0].roles.axle;
  const i = worldPoint(engine.model, axle[0]), o = worldPoint(engine.model, axle[1]);
  return (Math.atan2(o[0] - i[0], o[1] - i[1]) * 180) / Math.PI;
}
const held = new SuspensionLiveEngine(compileDocument(document).assembly);
const upright = held.sm.corners[0];
console.log('\nthe viewer\'s bump pull (rack held) against the free pull:\n  wheel z   rack mm (held)   toe° free   toe° rack held');
for (const dz of [20, 40, 60, 40, 20, 0, -20, -40, -60]) {
  const outcome = held.pull({ part: upright.roles.upright, local: Array.from(upright.wheelCenterLocal), target: [wheelCenter[0], wheelCenter[1], wheelCenter[2] + dz], mode: 'bump', axis: [0, 0, 1] }, held.view);
  if (!outcome.report?.converged) { console.log(`  ${String(dz).padStart(6)}   the pull did not close`); continue; }
  const toe = toeOf(held);
  const free = freeToe.get(dz);
  console.log(`  ${fmt(dz, 0, 7)}   ${fmt(held.view.rack, 3, 14)}   ${free === undefined ? '       –' : fmt(free, 4, 9)}   ${fmt(toe, 4, 14)}`);
}
