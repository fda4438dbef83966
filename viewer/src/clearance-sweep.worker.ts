/**
 * The clearance plot's worker: the plots' sweep (bump or rack travel, the document's
 * steering hold) run again here with every pair of bodies that no mate joins measured at
 * each solved state (the library's `sweepClearance`, as `kinemate clearance --bump` runs
 * it), so the page never waits for it. The bodies' hierarchies are built once per set of
 * meshes and kept while the document is dragged; each reply is the smallest clearance per
 * state and the pair it is between.
 */
import { ClearanceSet, parseGeometry, pairKey, suspensionAssembly, suspensionBodies, SuspensionModel, sweepClearance, sweepFromShortcut, unjoinedPairs, type PartMesh } from '../../src/index.ts';

export interface ClearanceSweepJob {
  id: number;
  /** Names the meshes: they come with the first job of each set, later jobs reuse them. */
  meshesId: number;
  meshes?: [string, PartMesh][];
  /** The suspension geometry document (JSON-ready), with its `geometry` section. */
  geometry: unknown;
  hold: string;
  kind: 'bump' | 'steer';
  range: { start: number; stop: number; steps: number };
}
export type ClearanceSweepReply =
  | { id: number; kind: 'done'; travel: number[]; min: (number | null)[]; pair: (string | null)[]; ms: number }
  | { id: number; kind: 'error'; error: string };

let meshesId = -1;
let meshes = new Map<string, PartMesh>();
let set: { key: string; set: ClearanceSet } | null = null;

self.onmessage = (event: MessageEvent<ClearanceSweepJob>) => {
  const job = event.data;
  const post = (reply: ClearanceSweepReply) => self.postMessage(reply);
  try {
    const t0 = performance.now();
    if (job.meshes) { meshes = new Map(job.meshes); meshesId = job.meshesId; set = null; }
    if (job.meshesId !== meshesId) throw new Error('clearance sweep: the meshes of this job were not sent');
    const geometry = parseGeometry(JSON.stringify(job.geometry));
    const sm = new SuspensionModel(suspensionAssembly(geometry));
    const names = [...meshes.keys()];
    const bodies = suspensionBodies(sm, names);
    const pairs = unjoinedPairs(names, bodies.joined);
    const key = pairs.map(pairKey).join();
    if (!set || set.key !== key) set = { key, set: new ClearanceSet(meshes, pairs) };
    const { start, stop, steps } = job.range;
    const states = pairs.length === 0 ? [] : sweepClearance(sm, sweepFromShortcut(job.kind, `${start}:${stop}:${steps}`, geometry), set.set, bodies, { hold: job.hold });
    const travel = Array.from({ length: steps }, (_, i) => (steps === 1 ? start : start + ((stop - start) * i) / (steps - 1)));
    const min: (number | null)[] = travel.map(() => null), pair: (string | null)[] = travel.map(() => null);
    for (const s of states) {
      for (const [k, c] of Object.entries(s.pairs ?? {})) {
        if (min[s.index] === null || c.distance < min[s.index]!) { min[s.index] = c.distance; pair[s.index] = k; }
      }
    }
    post({ id: job.id, kind: 'done', travel, min, pair, ms: performance.now() - t0 });
  } catch (error) {
    post({ id: job.id, kind: 'error', error: error instanceof Error ? error.message : String(error) });
  }
};
