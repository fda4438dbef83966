/**
 * Assemble mode: build a mechanism from parts and mates in the viewer. Parts come from a
 * small library (points in the part's own frame, mm); mates join two picked points (a
 * ball, or a distance at the picked points' current distance). Every step is one edit of
 * an assembly document (`src/assembly/edits.ts`), so it is undone like any other and
 * checked by the document's validator; the DOF and any redundant or conflicting mates
 * come back with the next solve.
 */
import type { AssemblyDoc, PartDoc } from '../../src/assembly/types';
import { addMate, addPart } from '../../src/assembly/edits';
import { assemblyDocument, liveEdits, type LiveRecipe } from '../../src/live';
import type { ViewerDocument, Vec3 } from './document';

export interface LibraryPart {
  id: string;
  label: string;
  points: Record<string, Vec3>;
}

export const PART_LIBRARY: readonly LibraryPart[] = [
  { id: 'rod', label: 'Rod', points: { a: [0, 0, 0], b: [300, 0, 0] } },
  { id: 'a_arm', label: 'A-arm', points: { inboard_front: [0, -150, 0], inboard_rear: [0, 150, 0], outboard: [350, 0, 0] } },
  { id: 'upright', label: 'Upright with wheel', points: { upper: [0, 0, 250], lower: [0, 0, -150], axle_inboard: [0, 0, 0], axle_outboard: [0, 120, 0] } },
  { id: 'rocker', label: 'Rocker', points: { pivot: [0, 0, 0], pushrod: [80, 0, 0], spring: [0, 100, 0] } },
  { id: 'rack', label: 'Rack', points: { left: [0, -300, 0], right: [0, 300, 0] } },
  { id: 'strut', label: 'Strut', points: { bottom: [0, 0, 0], top: [0, 0, 400] } },
];

export type PickMateType = 'ball' | 'distance';

const IDENTITY = { position: [0, 0, 0] as Vec3, rotation: [1, 0, 0, 0] as [number, number, number, number] };

/** A new assembly: a fixed ground with four anchor points, nothing else. */
export function newAssembly(): ViewerDocument {
  const doc: AssemblyDoc = {
    format: 'kinemate.assembly/1',
    name: 'assembly',
    units: { length: 'mm', angle: 'deg' },
    parts: { ground: { fixed: true, pose: IDENTITY, points: { A: [0, 0, 0], B: [500, 0, 0], C: [0, 400, 0], D: [500, 400, 0] } } },
    mates: {},
    state: {},
    held: [],
  };
  return assemblyDocument(doc);
}

function freeName(taken: Readonly<Record<string, unknown>>, base: string): string {
  if (!Object.hasOwn(taken, base)) return base;
  for (let i = 2; ; i++) if (!Object.hasOwn(taken, `${base}${i}`)) return `${base}${i}`;
}

/** The edit adding a library part, placed beside what is there; returns its name too. */
export function addLibraryPart(doc: ViewerDocument, id: string): { recipe: LiveRecipe; name: string } {
  if (doc.kind !== 'assembly') throw new Error('assemble mode works on an assembly');
  const entry = PART_LIBRARY.find((p) => p.id === id);
  if (!entry) throw new Error(`no library part "${id}"`);
  const name = freeName(doc.doc.parts, id);
  const n = Object.keys(doc.doc.parts).length;
  const part: PartDoc = { pose: { position: [100 * n, 150 + 60 * n, 50 * (n % 3)], rotation: [1, 0, 0, 0] }, points: entry.points };
  return { recipe: liveEdits.assembly(addPart(name, part)), name };
}

/** The edit adding a mate between two picked points (`part.point`). */
export function mateRecipe(doc: ViewerDocument, type: PickMateType, a: string, b: string, distance: number): { recipe: LiveRecipe; id: string } {
  if (doc.kind !== 'assembly') throw new Error('assemble mode works on an assembly');
  const id = freeName(doc.doc.mates, `${type}_${a.split('.')[0]}_${b.split('.')[0]}`);
  const mate = type === 'ball' ? { type: 'ball' as const, a, b } : { type: 'distance' as const, a, b, value: Math.round(distance * 1000) / 1000 };
  return { recipe: liveEdits.assembly(addMate(id, mate)), id };
}
