import { describe, expect, it } from 'vitest';
import {
  CONSTRAINT_TYPES,
  CONTACT_TYPES,
  COUPLING_TYPES,
  JOINT_TYPES,
  coordinatesOfMate,
  entityKind,
  isConstraint,
  isCoupling,
  isJoint,
  isRolling,
  parseAssembly,
  splitReference,
  type MateDoc,
  type MateType,
} from '../../src/assembly/index.ts';
import { fixtureText } from './helpers.ts';

describe('coordinatesOfMate', () => {
  const expected: Record<MateType, readonly string[]> = {
    revolute: ['angle'],
    slider: ['slide'],
    cylindrical: ['angle', 'slide'],
    pinslot: ['angle', 'slideX'],
    planar: ['angle', 'slideX', 'slideY'],
    path: ['u'],
    fastened: [], universal: [], ball: [],
    coincident: [], concentric: [], parallel: [], perpendicular: [], distance: [], angle: [], tangent: ["u"],
    gear: [], belt: [], rackpinion: [], screw: [], linear: [],
    rolling: ['u'],
  };

  it.each(Object.entries(expected))('%s frees %j', (type, coordinates) => {
    expect(coordinatesOfMate({ type: type as MateType })).toEqual(coordinates);
  });
});

describe('entityKind', () => {
  const doc = parseAssembly(fixtureText('kitchen-sink'));

  it.each([
    ['ground.A', 'point'],
    ['ground.pivot', 'frame'],
    ['ground.rail', 'axis'],
    ['ground.floor', 'plane'],
    ['ground.rim', 'circle'],
    ['ground.track', 'curve'],
  ])('%s is a %s', (ref, kind) => {
    expect(entityKind(doc, ref)).toBe(kind);
  });

  it.each(['ground', 'ground.', '.A', 'nope.A', 'ground.nope', 'constructor.A', 'ground.toString', 'j1.angle'])(
    '%s is undefined',
    (ref) => {
      expect(entityKind(doc, ref)).toBeUndefined();
    },
  );
});

describe('splitReference', () => {
  it('splits at the first dot and refuses empty halves', () => {
    expect(splitReference('crank.tip')).toEqual({ owner: 'crank', name: 'tip' });
    expect(splitReference('a.b.c')).toEqual({ owner: 'a', name: 'b.c' });
    for (const bad of ['crank', '.tip', 'crank.', '']) expect(splitReference(bad)).toBeUndefined();
  });
});

describe('mate categories', () => {
  it('put every mate type in exactly one category', () => {
    const all = [...CONSTRAINT_TYPES, ...JOINT_TYPES, ...COUPLING_TYPES, ...CONTACT_TYPES];
    expect(new Set(all).size).toBe(22);
    for (const type of all) {
      const mate = { type, a: 'x.y', b: 'z.w' } as MateDoc;
      expect([isConstraint(mate), isJoint(mate), isCoupling(mate), isRolling(mate)].filter(Boolean)).toHaveLength(1);
    }
    expect(isRolling({ type: 'rolling', a: 'wheel.rim', b: 'track.profile' })).toBe(true);
    expect(isJoint({ type: 'ball', a: 'x.y', b: 'z.w' })).toBe(true);
    expect(isCoupling({ type: 'screw', a: 'j.angle', b: 'j.slide', lead: 2 })).toBe(true);
    expect(isConstraint({ type: 'distance', a: 'x.y', b: 'z.w', value: 1 })).toBe(true);
  });
});
