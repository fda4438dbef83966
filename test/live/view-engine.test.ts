/**
 * The live engine a view hosts (src/live/view-engine.ts), which the viewer's pose worker
 * runs: documents known by version (not identity), a suspension solved at its view, the
 * pull strategies, the last good state on failure, the library's analysis on each frame,
 * and frames that are plain data. Each check is against another route: the pose read off
 * the frame's own part poses by a hand-written rotation, the bump sweep of the CLI, a
 * second engine solved straight to the view.
 */
import { describe, expect, it } from 'vitest';
import { assemblyDocument, compileDocument, drivenSuspension, flatMetrics, LiveViewEngine, liveEdits, type LiveDocument, type LiveViewFrame, type LiveViewRequest } from '../../src/live/index.ts';
import { runSweep } from '../../src/suspension/sweep/sweep.ts';
import { SweepLoads, type LoadCase, type StateLoads } from '../../src/suspension/loads/loads.ts';
import { sweepFromShortcut } from '../../src/suspension/files/index.ts';
import { History } from '../../src/reactive/index.ts';
import { addMate } from '../../src/assembly/edits.ts';
import { fourBarDoc } from '../../examples/fourbar.ts';
import { suspensionExample, WHEEL_CENTER } from './helpers.ts';

/** A point of a part (its own frame) in world coordinates, from a frame's pose [x, y, z, w, qx, qy, qz]. */
function world(pose: readonly number[], local: readonly number[]): number[] {
  const [px, py, pz, w, x, y, z] = pose;
  // v' = v + 2w (q × v) + 2 q × (q × v)
  const [vx, vy, vz] = local;
  const cx = y * vz - z * vy, cy = z * vx - x * vz, cz = x * vy - y * vx;
  const dx = y * cz - z * cy, dy = z * cx - x * cz, dz = x * cy - y * cx;
  return [px + vx + 2 * (w * cx + dx), py + vy + 2 * (w * cy + dy), pz + vz + 2 * (w * cz + dz)];
}

/** The live model's request as the view engine reads it: the view (and a load case) are its settings. */
const request = (version: number, document: LiveDocument, travel: number[], rack = 0, { loads, ...rest }: Partial<LiveViewRequest> & { loads?: LoadCase } = {}): LiveViewRequest => ({ version, document, settings: { view: { travel, rack }, loads: loads ?? null }, pull: null, ...rest });

describe('LiveViewEngine: a suspension at its view', () => {
  it('drives to the view: the wheel centre is where the view says, and the metrics are the bump sweep\'s at that travel', () => {
    const doc = suspensionExample('double_wishbone');
    const engine = new LiveViewEngine();
    const design = engine.solve(request(1, doc, [0]));
    expect(design.rebuilt).toBe(true);
    expect(design.atDesign).toBe(true);
    expect(world(design.poses.upright, WHEEL_CENTER)[2]).toBeCloseTo(WHEEL_CENTER[2], 9);
    const frame = engine.solve(request(1, structuredClone(doc), [30], 0));
    // the same version in a new object (a structured clone): the model stays
    expect(frame.rebuilt).toBe(false);
    expect(frame.ok && frame.good).toBe(true);
    expect(world(frame.poses.upright, WHEEL_CENTER)[2] - WHEEL_CENTER[2]).toBeCloseTo(30, 6);
    expect(frame.view).toEqual({ travel: [30], rack: 0 });
    expect(frame.dof).toBe(2);
    // the CLI's bump sweep, stepping from design by its own continuation
    const sm = drivenSuspension(compileDocument(doc).assembly);
    const run = runSweep(sm, sweepFromShortcut('bump', '-30:30:3'), { noSteering: true, valuesOnly: true });
    const swept = run.steps[2].metrics as Record<string, number | null>;
    const metrics = flatMetrics(frame.analysis!);
    for (const key of ['camber', 'toe_angle', 'caster', 'kpi']) expect(metrics[key]).toBeCloseTo(swept[key] as number, 8);
    // a new version rebuilds
    expect(engine.solve(request(2, doc, [30])).rebuilt).toBe(true);
  });

  it('a frame is plain data: it survives a structured clone unchanged, without the document or the model', () => {
    const engine = new LiveViewEngine();
    const frame = engine.solve(request(1, suspensionExample('double_wishbone_axle'), [10, -5], 4));
    expect(structuredClone(frame)).toEqual(frame);
    expect(Object.keys(frame)).not.toContain('document');
    expect(Object.keys(frame)).not.toContain('assembly');
    // an axle's flat metrics: the left corner's as they are, the right's and the axle's prefixed
    const m = frame.analysis!.metrics as { left: Record<string, number | null>; right: Record<string, number | null>; axle: Record<string, number | null> };
    const flat = flatMetrics(frame.analysis!);
    expect(flat.camber).toBe(m.left.camber);
    expect(flat['right.camber']).toBe(m.right.camber);
    expect(flat['axle.roll_center_z']).toBe(m.axle.roll_center_z);
    expect(flat.camber).not.toBe(flat['right.camber']); // 10 and −5 mm of travel: not the same corner state
  });

  it('the design analysis comes with every frame: at a first view away from design, the numbers of a frame solved at design', () => {
    const doc = suspensionExample('double_wishbone');
    const away = new LiveViewEngine().solve(request(1, doc, [25], 6));
    expect(away.atDesign).toBe(false);
    const atDesign = new LiveViewEngine().solve(request(1, doc, [0]));
    const a = flatMetrics(away.design!), d = flatMetrics(atDesign.analysis!);
    for (const key of ['camber', 'toe_angle', 'caster_virtual', 'kpi_virtual', 'deriv_camber_wrt_hub_z']) expect(a[key]).toBeCloseTo(d[key] as number, 9);
    expect(flatMetrics(away.analysis!).camber).not.toBeCloseTo(d.camber as number, 3);
  });

  it('a view out of reach: the frame fails, says what it could not reach, and shows the last good pose and its analysis', () => {
    const doc = suspensionExample('double_wishbone');
    const engine = new LiveViewEngine();
    const good = engine.solve(request(1, doc, [20]));
    const bad = engine.solve(request(1, doc, [5000]));
    expect(bad.good).toBe(false);
    expect(bad.status).toBe('failed');
    expect(bad.message).toMatch(/cannot reach wheel travel \+5000\.0 mm/);
    expect(bad.view).toEqual({ travel: [20], rack: 0 });
    expect(bad.poses).toEqual(good.poses);
    expect(bad.analysis!.metrics).toEqual(good.analysis!.metrics);
    expect(bad.failed.every((o) => !o.startsWith('wheel travel'))).toBe(true);
  });

  it('pull strategies: bump moves the wheel with the rack held, steer the rack with the wheel held; past reach it is limited', () => {
    const doc = suspensionExample('double_wishbone');
    const engine = new LiveViewEngine();
    const start = engine.solve(request(1, doc, [0]));
    const wc = world(start.poses.upright, WHEEL_CENTER);
    const bump = engine.solve(request(1, doc, [0], 0, { pull: { dragId: 1, part: 'upright', point: WHEEL_CENTER, target: [wc[0] + 7, wc[1], wc[2] + 30], mode: 'bump', axis: [0, 0, 1] } }));
    expect(bump.status).toBe('solved');
    expect(bump.view.travel[0]).toBeCloseTo(30, 6);
    expect(bump.view.rack).toBe(0);
    expect(world(bump.poses.upright, WHEEL_CENTER)[2] - wc[2]).toBeCloseTo(30, 6);
    const rack = start.poses.rack;
    const steer = engine.solve(request(1, doc, [0], 0, { pull: { dragId: 2, part: 'rack', point: [0, 0, 0], target: [rack[0], rack[1] + 10, rack[2]], mode: 'steer', axis: [0, 1, 0] } }));
    expect(steer.view.rack).toBeCloseTo(10, 6);
    expect(steer.view.travel).toEqual([0]); // driven back to the request's view first, then held
    expect(world(steer.poses.upright, WHEEL_CENTER)[2]).toBeCloseTo(wc[2], 8);
    const far = engine.solve(request(1, doc, [0], 0, { pull: { dragId: 3, part: 'upright', point: WHEEL_CENTER, target: [wc[0], wc[1], wc[2] + 5000], mode: 'bump', axis: [0, 0, 1] } }));
    expect(far.status).toBe('limited');
    expect(far.good).toBe(true);
    expect(far.ok).toBe(false);
    expect(far.message).toMatch(/^beyond reach: the wheel stops at \+\d+\.\d mm of travel/);
    expect(world(far.poses.upright, WHEEL_CENTER)[2] - wc[2]).toBeCloseTo(far.view.travel[0], 6);
    // pulled on from the edge (the pointer held beyond it; a sequence of pointer heights that
    // ends the bisection at the dead point): there the motion is not determined, and that is
    // still the limit of reach, not "solved"
    const edge = new LiveViewEngine();
    let at = edge.solve(request(1, doc, [0]));
    for (const h of [160, 880, 1040]) at = edge.solve(request(1, doc, [...at.view.travel], at.view.rack, { pull: { dragId: 4, part: 'upright', point: WHEEL_CENTER, target: [wc[0], wc[1], wc[2] + h], mode: 'bump', axis: [0, 0, 1] } }));
    const further = at;
    expect(further.status).toBe('limited');
    expect(further.message).toMatch(/^beyond reach: the wheel stops at \+\d+\.\d mm of travel/);
    expect(further.view.travel[0]).toBeCloseTo(far.view.travel[0], 6);
  });

  it('with a load case, the frame carries the loads at the pose shown: the bump sweep\'s at the same travel, computed on a model of its own', () => {
    const doc = suspensionExample('double_wishbone_axle_u_bar_rates');
    const loadCase = { each: { corner_mass: 300, cornering_g: 1, braking_g: 0.3 } };
    const engine = new LiveViewEngine();
    const frame = engine.solve(request(1, doc, [25, 25], 0, { loads: loadCase }));
    const sm = drivenSuspension(compileDocument(doc).assembly);
    const loads = new SweepLoads(sm, loadCase);
    const seen: StateLoads[] = [];
    runSweep(sm, sweepFromShortcut('bump', '0:25:2'), { onSolvedState: () => { seen.push(loads.evaluate()); } });
    const expected = seen[1];
    const scale = Math.max(...Object.values(expected.links).map(Math.abs));
    expect(scale).toBeGreaterThan(100);
    expect(Object.keys(frame.loads!.links).sort()).toEqual(Object.keys(expected.links).sort());
    for (const [id, force] of Object.entries(expected.links)) expect(Math.abs(frame.loads!.links[id] - force), id).toBeLessThan(1e-7 * scale);
    expect(frame.loads!.rates!.roll_stiffness!).toBeCloseTo(expected.rates!.roll_stiffness!, 3);
    // no case: no loads; and the loads leave the pose as it was (the next frame at the same view is unchanged)
    const plain = engine.solve(request(1, doc, [25, 25]));
    expect(plain.loads).toBeNull();
    expect(plain.poses).toEqual(frame.poses);
    expect(plain.analysis!.metrics).toEqual(frame.analysis!.metrics);
  });

  it('fresh: the view solved again from design gives the numbers of a new engine driven straight there', () => {
    const doc = suspensionExample('double_wishbone');
    const engine = new LiveViewEngine();
    engine.solve(request(1, doc, [0]));
    engine.solve(request(1, doc, [-40], 5));
    const again = engine.solve(request(1, doc, [20], 2, { fresh: true }));
    const straight = new LiveViewEngine().solve(request(7, doc, [20], 2));
    expect(again.poses).toEqual(straight.poses);
    expect(again.analysis!.metrics).toEqual(straight.analysis!.metrics);
  });
});

describe('LiveViewEngine: a plain assembly', () => {
  const coupler = (frame: LiveViewFrame) => world(frame.poses.coupler, [0.9, 0.3, 0]);

  it('pulls with the document\'s drivers freed; a cancelled drag returns to its start; an edit into conflict keeps the last good poses', () => {
    const history = new History<LiveDocument>(assemblyDocument(fourBarDoc(30)));
    const engine = new LiveViewEngine();
    const first = engine.solve(request(1, history.current, []));
    expect(first.suspension).toBe(false);
    expect(first.analysis).toBeNull();
    expect(first.dof).toBe(1); // the crank's hold freed: the four-bar's one freedom
    const p = coupler(first);
    const pulled = engine.solve(request(1, history.current, [], 0, { pull: { dragId: 1, part: 'coupler', point: [0.9, 0.3, 0], target: [p[0] - 0.1, p[1] + 0.1, 0] } }));
    expect(pulled.good).toBe(true);
    expect(Math.hypot(coupler(pulled)[0] - p[0], coupler(pulled)[1] - p[1])).toBeGreaterThan(0.01);
    const back = engine.solve(request(1, history.current, [], 0, { cancelledDrag: 1 }));
    coupler(back).forEach((x, i) => expect(x).toBeCloseTo(p[i], 6));
    // the coupler pinned to a ground pivot: a new version that cannot be solved
    history.apply(liveEdits.assembly(addMate('pin', { type: 'ball', a: 'ground.pivotD', b: 'coupler.mid' })), 'pin');
    const bad = engine.solve(request(2, history.current, []));
    expect(bad.good).toBe(false);
    expect(bad.failed).toContain('pin');
    expect(bad.message).toMatch(/^the mechanism cannot follow/);
    expect(bad.poses).toEqual(back.poses);
    history.undo();
    expect(engine.solve(request(1, history.current, [])).good).toBe(true);
  });

  it('fresh goes back to the document\'s own pose: nothing carried', () => {
    const doc = assemblyDocument(fourBarDoc(30));
    const engine = new LiveViewEngine();
    const first = engine.solve(request(1, doc, []));
    const p = coupler(first);
    engine.solve(request(1, doc, [], 0, { pull: { dragId: 1, part: 'coupler', point: [0.9, 0.3, 0], target: [p[0] - 0.2, p[1] + 0.2, 0] } }));
    const reset = engine.solve(request(1, doc, [], 0, { fresh: true }));
    expect(reset.rebuilt).toBe(true);
    expect(reset.poses).toEqual(new LiveViewEngine().solve(request(1, doc, [])).poses);
  });
});
