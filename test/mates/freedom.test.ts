/**
 * The joint freedom table (MATH.md) through the whole path file → model → dof: one fixed
 * part and one free part joined by each joint between two frames, the free part drawn off
 * the joint so the solve has to assemble it first. Then redundancy (two coaxial
 * revolutes) and conflict (two revolutes on parallel but distinct axes).
 */
import { describe, expect, it } from 'vitest';
import { validateAssembly, type AssemblyDoc, type MateDoc } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { dofModel, solveModel } from '../../src/model/operations';
import { axisAngle, compose, inverse, unit, type Q4 } from '../../examples/mechanisms/geometry';

const Q_GROUND = [0.8, 0.2, 0.1, -0.3] as const;
const Q_BODY = [0.7, -0.1, 0.3, 0.2] as const;

const normalized = (q: readonly number[]): Q4 => { const n = Math.hypot(q[0], q[1], q[2], q[3]); return [q[0] / n, q[1] / n, q[2] / n, q[3] / n]; };
/** The body's pose with its frame f on the ground's frame f, then turned `deg` about a skew axis and shifted. */
function offPose(deg: number): { position: readonly number[]; rotation: readonly number[] } {
  const exact = compose({ q: normalized(Q_GROUND), t: [0.1, 0.2, 0.3] }, inverse({ q: normalized(Q_BODY), t: [0.4, 0.1, -0.2] }));
  const moved = compose({ q: axisAngle(unit([1, 2, -1]), (deg * Math.PI) / 180), t: [0.1, -0.07, 0.08] }, exact);
  return { position: moved.t, rotation: moved.q };
}

/** A ground with frames f (and g), a body with frames f (and g), the body off the joint. */
function pairDoc(mates: Record<string, MateDoc>, extra: { groundG?: readonly number[]; bodyG?: readonly number[]; bodyPose?: { position: readonly number[]; rotation: readonly number[] } } = {}): AssemblyDoc {
  const groundFrames: Record<string, { origin: readonly number[]; rotation: readonly number[] }> = { f: { origin: [0.1, 0.2, 0.3], rotation: Q_GROUND } };
  const bodyFrames: Record<string, { origin: readonly number[]; rotation: readonly number[] }> = { f: { origin: [0.4, 0.1, -0.2], rotation: Q_BODY } };
  if (extra.groundG) groundFrames.g = { origin: extra.groundG, rotation: Q_GROUND };
  if (extra.bodyG) bodyFrames.g = { origin: extra.bodyG, rotation: Q_BODY };
  return validateAssembly({
    format: 'kinemate.assembly/1',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: groundFrames },
      body: { pose: extra.bodyPose ?? { position: [0.3, -0.2, 0.5], rotation: [0.9, 0.1, -0.2, 0.3] }, frames: bodyFrames },
    },
    mates,
    state: {},
    held: [],
  });
}

/** A point `distance` along a frame's local axis (the frame rotation q, unit or not) from its origin. */
function along(origin: readonly number[], q: readonly number[], local: readonly number[], distance: number): number[] {
  const [w, x, y, z] = q;
  const k = 2 / (w * w + x * x + y * y + z * z);
  const R = [
    [1 - k * (y * y + z * z), k * (x * y - w * z), k * (x * z + w * y)],
    [k * (x * y + w * z), 1 - k * (x * x + z * z), k * (y * z - w * x)],
    [k * (x * z - w * y), k * (y * z + w * x), 1 - k * (x * x + y * y)],
  ];
  return [0, 1, 2].map((i) => origin[i] + distance * (R[i][0] * local[0] + R[i][1] * local[1] + R[i][2] * local[2]));
}

describe('freedom table: one fixed part, one free part, one joint between frames', () => {
  const table: [string, number][] = [
    ['free', 6], ['fastened', 0], ['revolute', 1], ['slider', 1], ['cylindrical', 2],
    ['pinslot', 2], ['planar', 3], ['universal', 2], ['ball', 3],
  ];
  for (const [type, dof] of table) {
    it(`${type}: ${dof}`, () => {
      const mates: Record<string, MateDoc> = type === 'free' ? {} : { j: { type, a: 'ground.f', b: 'body.f' } as MateDoc };
      const model = buildModel(pairDoc(mates));
      const solved = solveModel(model);
      expect(solved.status).toBe('solved');
      const d = dofModel(model);
      expect(d.dof).toBe(dof);
      expect(d.parts).toEqual({ ground: 0, body: dof });
      expect(d.redundant).toEqual([]);
      expect(d.conflicting).toEqual([]);
    });
  }
});

// From here the body starts 20° and about 0.15 off the joints: near enough that no joint is
// half a turn away (where the tan-half-angle rows fail honestly, MATH.md).
describe('redundancy and conflict', () => {
  it('two coaxial revolutes between the same parts: dof 1, redundant, solved, no conflict', () => {
    // g one unit along each frame's own z: the two hinges share one axis
    const doc = pairDoc(
      { j1: { type: 'revolute', a: 'ground.f', b: 'body.f' }, j2: { type: 'revolute', a: 'ground.g', b: 'body.g' } },
      { groundG: along([0.1, 0.2, 0.3], Q_GROUND, [0, 0, 1], 1), bodyG: along([0.4, 0.1, -0.2], Q_BODY, [0, 0, 1], 1), bodyPose: offPose(20) },
    );
    const model = buildModel(doc);
    const solved = solveModel(model);
    expect(solved.status).toBe('solved');
    expect(solved.conflicting).toEqual([]);
    const d = dofModel(model);
    expect(d.dof).toBe(1);
    expect(d.redundant.length).toBeGreaterThan(0);
    expect(d.conflicting).toEqual([]);
    // both hinge angles move together
    expect(solved.state['j1.angle']).toBeCloseTo(solved.state['j2.angle'] as number, 9);
  });

  it('two revolutes on parallel but distinct axes: failed, and exactly those two conflict', () => {
    // the axes are 1 apart on the ground and 1.3 apart on the body: they cannot both hold
    const doc = pairDoc(
      { j1: { type: 'revolute', a: 'ground.f', b: 'body.f' }, j2: { type: 'revolute', a: 'ground.g', b: 'body.g' } },
      { groundG: along([0.1, 0.2, 0.3], Q_GROUND, [1, 0, 0], 1), bodyG: along([0.4, 0.1, -0.2], Q_BODY, [1, 0, 0], 1.3), bodyPose: offPose(20) },
    );
    const model = buildModel(doc);
    const solved = solveModel(model);
    expect(solved.status).toBe('failed');
    expect(solved.converged).toBe(false);
    expect([...solved.conflicting].sort()).toEqual(['j1', 'j2']);
    expect([...dofModel(model).conflicting].sort()).toEqual(['j1', 'j2']);
  });

  it('the same two axes 1 apart on both parts are consistent: a weld, dof 0, redundant', () => {
    const doc = pairDoc(
      { j1: { type: 'revolute', a: 'ground.f', b: 'body.f' }, j2: { type: 'revolute', a: 'ground.g', b: 'body.g' } },
      { groundG: along([0.1, 0.2, 0.3], Q_GROUND, [1, 0, 0], 1), bodyG: along([0.4, 0.1, -0.2], Q_BODY, [1, 0, 0], 1), bodyPose: offPose(20) },
    );
    const model = buildModel(doc);
    const solved = solveModel(model);
    expect(solved.status).toBe('solved');
    const d = dofModel(model);
    expect(d.dof).toBe(0);
    expect(d.redundant.length).toBeGreaterThan(0);
    expect(d.conflicting).toEqual([]);
  });
});
