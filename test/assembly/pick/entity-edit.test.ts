/**
 * A picked entity is an ordinary entity of the part under a generated name: the document
 * stays valid, saves and loads as any assembly, and a mate between two picked axes is an
 * ordinary revolute that leaves one degree of freedom.
 */
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import {
  addMate, addPickedEntity, buildModel, dofModel, entityFromPick, parseAssembly, pickedEntityName, serializeAssembly, validateAssembly,
  type AssemblyDoc,
} from '../../../src/index.ts';
import { boxMesh, cylinderMesh, transformed } from './primitives.ts';

const doc = (): AssemblyDoc => validateAssembly({
  format: 'kinemate.assembly/1',
  units: { length: 'mm', angle: 'deg' },
  parts: {
    ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { pick_axis_1: [0, 0, 0] } },
    arm: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] } },
  },
  mates: {}, state: {}, held: [],
});

describe('a picked entity in the document', () => {
  it('takes the first free generated name, across all the part\'s entity groups', () => {
    const d = doc();
    const pin = entityFromPick(cylinderMesh({ radius: 5, height: 40, segments: 16 }), 0);
    expect(pickedEntityName(d.parts.ground, pin.entity)).toBe('pick_axis_2');
    expect(pickedEntityName(d.parts.arm, pin.entity)).toBe('pick_axis_1');
  });

  it('a circle comes with its centre point, in one edit', () => {
    const rim = entityFromPick(cylinderMesh({ radius: 5, height: 40, segments: 16, faces: false }), 0, { point: [5, 0, 40], tolerance: 0.5 });
    expect(rim.entity.kind).toBe('circle');
    const next = produce(doc(), addPickedEntity('arm', pickedEntityName(doc().parts.arm, rim.entity), rim.entity));
    expect(Object.keys(next.parts.arm.circles!)).toEqual(['pick_circle_1']);
    expect(next.parts.arm.points!.pick_circle_1_centre).toEqual([0, 0, 40]);
    expect(() => validateAssembly(next)).not.toThrow();
  });

  it('refuses a name the part already uses and a part that is not there', () => {
    const top = entityFromPick(boxMesh([1, 1, 1]), 10);
    expect(() => produce(doc(), addPickedEntity('ground', 'pick_axis_1', top.entity))).toThrow(/parts\.ground\.pick_axis_1: part "ground" already has an entity named "pick_axis_1"/);
    expect(() => produce(doc(), addPickedEntity('nope', 'x', top.entity))).toThrow(/parts\.nope: no part "nope"/);
  });

  it('two picked cylinder axes mated by a revolute leave the arm one degree of freedom, and the file round-trips', () => {
    // the ground's bore and the arm's pin, each a cylinder along a tilted axis through the same line
    const q = [Math.cos(0.3), Math.sin(0.3), 0, 0];
    const bore = transformed(cylinderMesh({ radius: 10, height: 30, segments: 24, splitSide: true }), q, [0, 0, 0]);
    const pin = transformed(cylinderMesh({ radius: 8, height: 60, segments: 24 }), q, [0, 0, 0]);
    let d = doc();
    const a = entityFromPick(bore, 30), b = entityFromPick(pin, 3);
    const na = pickedEntityName(d.parts.ground, a.entity), nb = pickedEntityName(d.parts.arm, b.entity);
    d = produce(d, addPickedEntity('ground', na, a.entity));
    d = produce(d, addPickedEntity('arm', nb, b.entity));
    expect(dofModel(buildModel(d)).dof).toBe(6);
    d = produce(d, addMate('hinge', { type: 'revolute', a: `ground.${na}`, b: `arm.${nb}` }));
    expect(dofModel(buildModel(d)).dof).toBe(1);
    const again = parseAssembly(serializeAssembly(d));
    expect(again).toEqual(d);
    expect(dofModel(buildModel(again)).dof).toBe(1);
  });
});
