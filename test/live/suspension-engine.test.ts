/**
 * The library's live suspension solve (src/live/suspension-engine.ts), which the viewer's
 * worker runs: driving to a view puts each wheel centre and the rack exactly where the view
 * says; a pull moves only the drivers its mode frees (bump: the wheel, the rack held;
 * steer: the rack, the wheels held; free: both); a view out of reach keeps the last good
 * pose; the pose is a function of the view.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { compileDocument, readSuspensionDocument, SuspensionLiveEngine } from '../../src/live/index.ts';

const corner = (file = 'double_wishbone') => new SuspensionLiveEngine(compileDocument(readSuspensionDocument(readFileSync(`examples/suspension/${file}.yaml`, 'utf8'))).assembly);

/** The wheel centre of corner i, world, read off the model (not off the engine's view). */
function wheelCentre(engine: SuspensionLiveEngine, i = 0): number[] {
  const c = engine.sm.corners[i];
  return Array.from(engine.sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }]));
}
const rackOf = (engine: SuspensionLiveEngine) => engine.model.system.getScalar(engine.sm.steering);

describe('live suspension engine', () => {
  it('drives to a wheel travel and a rack travel: the wheel centre and the rack are exactly there', () => {
    const engine = corner();
    const z0 = wheelCentre(engine)[2], rack0 = rackOf(engine);
    const report = engine.driveTo({ travel: [40], rack: 12 });
    expect(report.converged).toBe(true);
    expect(wheelCentre(engine)[2] - z0).toBeCloseTo(40, 8);
    expect(rackOf(engine) - rack0).toBeCloseTo(12, 8);
    expect(engine.view).toEqual({ travel: [40], rack: 12 });
    expect(engine.freedom().dof).toBe(2); // the linkage's own freedoms (bump, steer): the view's drivers are not rows of the model
  });

  it('the pose is a function of the view: the same view reached two ways is the same pose', () => {
    const a = corner(), b = corner();
    a.driveTo({ travel: [-30], rack: 0 });
    a.driveTo({ travel: [25], rack: -10 });
    b.driveTo({ travel: [25], rack: -10 });
    const pa = a.poses(), pb = b.poses();
    for (const part of Object.keys(pa)) for (let k = 0; k < 7; k++) expect(pa[part][k]).toBeCloseTo(pb[part][k], 9);
    // and from design again: back where design is
    a.driveTo({ travel: [0], rack: 0 }, true);
    const design = corner().poses();
    for (const part of Object.keys(design)) for (let k = 0; k < 7; k++) expect(a.poses()[part][k]).toBeCloseTo(design[part][k], 9);
  });

  it('a bump pull moves the wheel to the pointer height with the rack held; a steer pull moves the rack with the wheel held', () => {
    const engine = corner();
    const c = engine.sm.corners[0];
    const local = Array.from(c.wheelCenterLocal);
    const start = wheelCentre(engine);
    const rack0 = rackOf(engine);
    const bump = engine.pull({ part: c.roles.upright, local, target: [start[0] + 5, start[1], start[2] + 30], mode: 'bump', axis: [0, 0, 1] }, engine.view);
    expect(bump.report?.converged).toBe(true);
    expect(bump.limitedBy).toBeUndefined();
    expect(wheelCentre(engine)[2] - start[2]).toBeCloseTo(30, 6); // only the height counts (axis z)
    expect(engine.view.travel[0]).toBeCloseTo(30, 6);
    expect(rackOf(engine)).toBeCloseTo(rack0, 9);
    // steer: grab the track rod's inner end on the rack, pull it 10 mm along y
    const rackPart = 'rack';
    const inner = engine.sm.model.system.getPose(engine.model.parts.get(rackPart)!);
    expect(inner.length).toBe(7);
    const height = wheelCentre(engine)[2];
    const steer = engine.pull({ part: rackPart, local: [0, 0, 0], target: [inner[0], inner[1] + 10, inner[2]], mode: 'steer', axis: [0, 1, 0] }, engine.view);
    expect(steer.report?.converged).toBe(true);
    expect(rackOf(engine) - rack0).toBeCloseTo(10, 6);
    expect(engine.view.rack).toBeCloseTo(10, 6);
    expect(wheelCentre(engine)[2]).toBeCloseTo(height, 8); // the wheel held
  });

  it('a free pull moves wheel and rack together; a pull past reach stops where the linkage does and says so', () => {
    const engine = corner();
    const c = engine.sm.corners[0];
    const local = Array.from(c.wheelCenterLocal);
    const start = wheelCentre(engine);
    const rack0 = rackOf(engine);
    // toward a point off the bump path: free, the rack turns the wheel to get closer
    const target = [start[0] + 15, start[1], start[2] + 10];
    const held = corner();
    const bump = held.pull({ part: c.roles.upright, local, target, mode: 'bump' }, held.view);
    const free = engine.pull({ part: c.roles.upright, local, target, mode: 'free' }, engine.view);
    expect(free.report?.converged).toBe(true);
    expect(Math.abs(rackOf(engine) - rack0)).toBeGreaterThan(1e-3);
    expect(free.remaining).toBeLessThan(bump.remaining);
    // far past the linkage's reach: limited, the pose good, the view where it stopped
    const far = corner();
    const out = far.pull({ part: c.roles.upright, local, target: [start[0], start[1], start[2] + 5000], mode: 'bump', axis: [0, 0, 1] }, far.view);
    expect(out.remaining).toBeGreaterThan(100);
    expect(out.limitedBy?.converged).toBe(false); // the solve that failed just past where it stopped
    expect(far.view.travel[0]).toBeGreaterThan(0);
    expect(wheelCentre(far)[2] - start[2]).toBeCloseTo(far.view.travel[0], 6);
  });

  it('a view out of reach keeps the last good pose', () => {
    const engine = corner();
    engine.driveTo({ travel: [20], rack: 0 });
    const before = engine.poses();
    const report = engine.driveTo({ travel: [5000], rack: 0 });
    expect(report.converged).toBe(false);
    expect(engine.view).toEqual({ travel: [20], rack: 0 });
    expect(engine.poses()).toEqual(before);
  });

  it('a trailing arm (no rack): bump drives, steer has nothing to move', () => {
    const engine = corner('trailing_arm');
    expect(engine.steered).toBe(false);
    const z0 = wheelCentre(engine)[2];
    expect(engine.driveTo({ travel: [-25], rack: 0 }).converged).toBe(true);
    expect(wheelCentre(engine)[2] - z0).toBeCloseTo(-25, 8);
  });
});
