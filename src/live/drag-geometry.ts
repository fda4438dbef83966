/**
 * What a live drag holds and reads (src/live/live-model.ts): the drag in progress, a pull's
 * strategy as plain data, where a hardpoint is now and the coordinates a move of it writes
 * (a suspension's design position as given, an assembly point in its part's frame, placed
 * by the last good solve or else by the document).
 */
import * as P from '../../kernel/pose';
import { splitReference, type Vec3Doc } from '../assembly/types.ts';
import { EditRefused } from '../reactive/history.ts';
import { hardpointPosition, type LiveDocument } from './document.ts';
import type { LiveFrame, WarmState } from './engine.ts';
import type { LiveFrameCore, PullStrategy } from './live-types.ts';

/** The drag in progress: a pull (no document change) or a hardpoint's gesture. */
export type ActiveDrag =
  | {
      readonly kind: 'pull';
      readonly dragId: number;
      readonly part: string;
      readonly point: readonly [number, number, number];
      target: readonly [number, number, number];
      readonly strategy: PullStrategy;
      /** The state at pointerdown, for cancel (in-process only). */
      readonly start: WarmState | null;
      /** The view settings at pointerdown, for cancel. */
      readonly startSettings: unknown;
    }
  | { readonly kind: 'hardpoint'; readonly name: string; readonly label: string };

/** True when `frame` is the in-process engine's (a solver may answer with frames of its own type). */
export function isLiveFrame<A>(frame: LiveFrameCore): frame is LiveFrame<A> {
  return 'result' in frame && 'poses' in frame && 'warm' in frame;
}

/** The strategy fields of a pull spec, only those given (requests stay plain data). */
export function pullStrategy(spec: PullStrategy): PullStrategy {
  return {
    ...(spec.mode !== undefined ? { mode: spec.mode } : {}),
    ...(spec.axis !== undefined ? { axis: [spec.axis[0], spec.axis[1], spec.axis[2]] as Vec3Doc } : {}),
    ...(spec.corner !== undefined ? { corner: spec.corner } : {}),
  };
}

function splitPoint(name: string): { part: string; point: string } {
  const ref = splitReference(name);
  return ref === undefined ? { part: name, point: '' } : { part: ref.owner, point: ref.name };
}

/** A part's pose: solved when there is a good in-process frame, else as the document places it. */
export function partPose(document: LiveDocument, good: LiveFrameCore | null, part: string): P.Pose {
  const solved = good !== null && isLiveFrame(good) ? good.poses[part] : undefined;
  if (solved !== undefined) return P.pose(solved.position, solved.rotation);
  if (document.kind !== 'assembly') return P.pose();
  const fromState = document.doc.state[`${part}.pose`];
  const pose = typeof fromState === 'object' && fromState !== null ? fromState : document.doc.parts[part].pose;
  return P.pose(pose.position, pose.rotation);
}

/** Where a hardpoint is now (world); throws a document error if there is none. */
export function hardpointStart(document: LiveDocument, good: LiveFrameCore | null, name: string): [number, number, number] {
  if (document.kind === 'suspension') return hardpointPosition(document.geometry, name);
  const { part, point } = splitPoint(name);
  const partDoc = document.doc.parts[part];
  const local = Object.hasOwn(document.doc.parts, part) && partDoc.points !== undefined && Object.hasOwn(partDoc.points, point) ? partDoc.points[point] : undefined;
  if (local === undefined) throw new EditRefused('', `parts.${part}.points.${point}: no point "${point}" on part "${part}"`);
  const w = P.applyPoint(new Float64Array(3), partPose(document, good, part), local);
  return [w[0], w[1], w[2]];
}

/** The coordinates a hardpoint move writes: a suspension's design position as given, an assembly point in its part's frame. */
export function hardpointCoordinates(document: LiveDocument, good: LiveFrameCore | null, name: string, world: [number, number, number]): [number, number, number] {
  if (document.kind === 'suspension') return world;
  const local = P.applyInversePoint(new Float64Array(3), partPose(document, good, splitPoint(name).part), world);
  return [local[0], local[1], local[2]];
}
