/** Random joints for the row tests (joint-rows, exact-rows, turned-rows): two parts at random poses joined at random ends. */
import type { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { addMate, frameEntity, type Entity, type EntityKind, type MateHandle } from '../../mates';
import type { JointType } from '../../mates/vocabulary';
import { between, quat, vec, type Rand } from '../util/random-pose';

/** The kinds of end a joint may take. */
export const JOINT_END_KINDS: readonly EntityKind[] = ['frame', 'axis', 'point'];

/** A random end of a joint: a frame, an axis or a point. */
export function randomEnd(r: Rand, kind: EntityKind): Entity {
  if (kind === 'frame') return frameEntity(vec(r), quat(r));
  if (kind === 'axis') return { kind, origin: vec(r), direction: vec(r) };
  return { kind: 'point', point: vec(r) };
}

/**
 * Parts A and B at random poses (origins within ±spread) joined by a `type` joint between
 * random ends of kinds ka and kb, each coordinate moved by up to ±jiggle from where the mate put it.
 */
export function joinRandomParts(system: System, r: Rand, type: JointType, ka: EntityKind, kb: EntityKind, spread: number, jiggle: number): MateHandle {
  const a = system.addPose('A', P.pose(vec(r, spread), quat(r)));
  const b = system.addPose('B', P.pose(vec(r, spread), quat(r)));
  const handle = addMate(system, 'j', { type, a: { part: a, entity: randomEnd(r, ka) }, b: { part: b, entity: randomEnd(r, kb) } });
  for (const v of Object.values(handle.coordinates)) system.setScalar(v, system.getScalar(v) + between(r, -jiggle, jiggle));
  return handle;
}
