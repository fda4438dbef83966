/**
 * One mate vocabulary (mates/vocabulary.ts): the file loader accepts exactly the entity
 * pairs the kernel's catalogue builds, for every entity mate and every pair of kinds, and
 * both free the coordinates the vocabulary names.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { addMate, Curve, frameEntity, type Entity, type EntityKind, type MateSpec } from '../../mates';
import { CONSTRAINT_TYPES, JOINT_TYPES, MATE_COORDINATES, mateTypesJoining, type EntityMateType } from '../../mates/vocabulary.ts';
import { AssemblyError, mateTypesJoining as loaderMateTypesJoining, validateAssembly } from '../../src/assembly/index.ts';
import { coordinatesOfMate } from '../../src/assembly/types.ts';

const KINDS: EntityKind[] = ['point', 'frame', 'axis', 'plane', 'circle', 'curve'];
const TYPES: EntityMateType[] = [...CONSTRAINT_TYPES, ...JOINT_TYPES];

/** One entity of each kind, as a file writes it (group, name, value) and as the kernel holds it. */
const FILE_ENTITIES = {
  point: ['points', { e: [0, 0, 0] }],
  frame: ['frames', { e: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } }],
  axis: ['axes', { e: { origin: [0, 0, 0], direction: [0, 0, 1] } }],
  plane: ['planes', { e: { origin: [0, 0, 0], normal: [0, 0, 1] } }],
  circle: ['circles', { e: { center: [0, 0, 0], normal: [0, 0, 1], radius: 1 } }],
  curve: ['curves', { e: { polyline: [[0, 0, 0], [1, 0, 0], [1, 1, 0]] } }],
} as const;

function kernelEntity(kind: EntityKind): Entity {
  switch (kind) {
    case 'point': return { kind, point: [0, 0, 0] };
    case 'frame': return frameEntity([0, 0, 0], [1, 0, 0, 0]);
    case 'axis': return { kind, origin: [0, 0, 0], direction: [0, 0, 1] };
    case 'plane': return { kind, origin: [0, 0, 0], normal: [0, 0, 1] };
    case 'circle': return { kind, center: [0, 0, 0], normal: [0, 0, 1], radius: 1 };
    case 'curve': return { kind, curve: new Curve([[0, 0, 0], [1, 0, 0], [1, 1, 0]], false, false) };
  }
}

function loaderAccepts(type: EntityMateType, ka: EntityKind, kb: EntityKind): boolean {
  const part = (kind: EntityKind) => ({ pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, [FILE_ENTITIES[kind][0]]: FILE_ENTITIES[kind][1] });
  const mate: Record<string, unknown> = { type, a: 'A.e', b: 'B.e' };
  if (type === 'distance' || type === 'angle') mate.value = type === 'angle' ? 30 : 5;
  try {
    validateAssembly({ format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' }, parts: { A: part(ka), B: part(kb) }, mates: { m: mate } });
    return true;
  } catch (error) {
    if (!(error instanceof AssemblyError)) throw error;
    // refused for the kinds, at the mate's a or b, not for something else
    expect(error.message, `${type} ${ka}–${kb}`).toMatch(/^mates\.m\.[ab]: an? \w+ (joint|mate) joins /);
    return false;
  }
}

function kernelAccepts(type: EntityMateType, ka: EntityKind, kb: EntityKind): { ok: boolean; coordinates: string[] } {
  const system = new System(1);
  const a = system.addPose('A', P.pose([0, 0, 0], [1, 0, 0, 0]));
  const b = system.addPose('B', P.pose([0, 0, 0], [1, 0, 0, 0]));
  const spec = { type, a: { part: a, entity: kernelEntity(ka) }, b: { part: b, entity: kernelEntity(kb) }, value: type === 'angle' ? 0.5 : 5 } as MateSpec;
  try {
    return { ok: true, coordinates: Object.keys(addMate(system, 'm', spec).coordinates) };
  } catch {
    return { ok: false, coordinates: [] };
  }
}

describe('the mate vocabulary, one table for the loader and the kernel', () => {
  it('the loader accepts a pair of kinds exactly when the kernel builds it', () => {
    const disagreements: string[] = [];
    let accepted = 0;
    for (const type of TYPES) {
      for (const ka of KINDS) {
        for (const kb of KINDS) {
          const loader = loaderAccepts(type, ka, kb), kernel = kernelAccepts(type, ka, kb).ok;
          if (loader !== kernel) disagreements.push(`${type} ${ka}–${kb}: loader ${loader}, kernel ${kernel}`);
          if (loader) accepted++;
          expect(mateTypesJoining(ka, kb).includes(type), `${type} ${ka}–${kb}`).toBe(loader);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(accepted).toBeGreaterThan(60);
    expect(loaderMateTypesJoining).toBe(mateTypesJoining);
  });

  it('coincident joins no frames: two frames made one are a fastened joint', () => {
    expect(mateTypesJoining('frame', 'frame')).not.toContain('coincident');
    expect(mateTypesJoining('frame', 'frame')).toContain('fastened');
    expect(mateTypesJoining('point', 'frame')).toEqual(['ball']);
    expect(loaderAccepts('coincident', 'frame', 'frame')).toBe(false);
    expect(kernelAccepts('coincident', 'point', 'frame').ok).toBe(false);
  });

  it('the kernel frees the coordinates the vocabulary and the file format name', () => {
    for (const type of TYPES) {
      for (const [ka, kb] of [['frame', 'frame'], ['point', 'curve'], ['circle', 'curve']] as const) {
        const built = kernelAccepts(type, ka, kb);
        if (!built.ok) continue;
        expect(built.coordinates, `${type} ${ka}–${kb}`).toEqual([...MATE_COORDINATES[type]]);
        expect(coordinatesOfMate({ type })).toEqual(MATE_COORDINATES[type]);
      }
    }
  });
});
