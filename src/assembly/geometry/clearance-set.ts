/**
 * Clearance of a set of parts at one state: a BVH per part built once, and per pair the
 * last closest triangles kept as the next state's starting bound. Which pairs: every pair
 * of parts with geometry that no mate joins (`unjoinedPairs`), or the pairs a user lists.
 */
import type { PartMesh } from './mesh.ts';
import { ClearanceBody, pairClearance, type PairClearance, type PoseArray } from './clearance.ts';
import { closestResult, type ClosestResult } from './closest.ts';
import { GeometryError } from './errors.ts';

export type Pair = readonly [string, string];

/** `a:b`, the key of a pair in results. */
export function pairKey(pair: Pair): string {
  return `${pair[0]}:${pair[1]}`;
}

/**
 * Every pair of `names` (in their order: a before b as listed) not in `joined`
 * (keys `a:b` or `b:a`, e.g. the parts a mate joins).
 */
export function unjoinedPairs(names: readonly string[], joined: ReadonlySet<string>): Pair[] {
  const pairs: Pair[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = names[i]!, b = names[j]!;
      if (!joined.has(`${a}:${b}`) && !joined.has(`${b}:${a}`)) pairs.push([a, b]);
    }
  }
  return pairs;
}

/** `--pairs a:b,c:d`: each pair two different parts of `names` (with geometry), ordered as `names` lists them. */
export function parsePairs(text: string, names: readonly string[], option = '--pairs'): Pair[] {
  const pairs: Pair[] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    const parts = item.split(':');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw new GeometryError(option, `expected a:b pairs separated by commas, got ${JSON.stringify(item)}`);
    for (const p of parts) if (!names.includes(p!)) throw new GeometryError(option, `no part "${p}" with geometry; parts with geometry: ${names.join(', ') || 'none'}`);
    if (parts[0] === parts[1]) throw new GeometryError(option, `a part is not paired with itself: ${JSON.stringify(item)}`);
    const [a, b] = names.indexOf(parts[0]!) < names.indexOf(parts[1]!) ? [parts[0]!, parts[1]!] : [parts[1]!, parts[0]!];
    if (!pairs.some((q) => q[0] === a && q[1] === b)) pairs.push([a, b]);
  }
  if (pairs.length === 0) throw new GeometryError(option, 'no pair given');
  return pairs;
}

export class ClearanceSet {
  readonly bodies = new Map<string, ClearanceBody>();
  private readonly hints: ClosestResult[];
  /** The order the pairs are measured in (chain): each pair after one that shares a part where one is left. */
  private readonly walk: number[];

  /** Builds each part's BVH (in its own frame) once. */
  constructor(meshes: ReadonlyMap<string, PartMesh>, readonly pairs: readonly Pair[]) {
    const used = new Set(pairs.flat());
    for (const name of used) {
      const mesh = meshes.get(name);
      if (!mesh) throw new GeometryError(name, 'no geometry on this part');
      this.bodies.set(name, new ClearanceBody(mesh));
    }
    this.hints = pairs.map(() => closestResult());
    this.walk = chain(pairs);
  }

  /** Every pair's clearance at the poses `poseOf` gives (world, mm): `{ "a:b": … }`, new objects each call. */
  measure(poseOf: (part: string) => PoseArray): Record<string, PairClearance> {
    const found = this.walk.map(() => undefined as PairClearance | undefined);
    for (const i of this.walk) {
      const [a, b] = this.pairs[i]!;
      found[i] = pairClearance(this.bodies.get(a)!, poseOf(a), this.bodies.get(b)!, poseOf(b), undefined, this.hints[i]);
    }
    const out: Record<string, PairClearance> = {};
    this.pairs.forEach((pair, i) => { out[pairKey(pair)] = found[i]!; });
    return out;
  }
}

/**
 * The pairs' indices in an order where each follows a pair sharing a part with it where one
 * is left: a part's hierarchy is then still in the processor's caches for its next pair.
 */
export function chain(pairs: readonly Pair[]): number[] {
  const left = pairs.map((_, i) => i), out: number[] = [];
  while (left.length > 0) {
    const last = out.length > 0 ? pairs[out[out.length - 1]!]! : undefined;
    let k = last ? left.findIndex((i) => pairs[i]!.some((p) => last.includes(p))) : 0;
    if (k < 0) k = 0;
    out.push(left.splice(k, 1)[0]!);
  }
  return out;
}

export interface PairSummary {
  min_distance: number;
  /** Index of the state where it is smallest. */
  state: number;
  a_point: [number, number, number];
  b_point: [number, number, number];
}

/**
 * Per pair its smallest clearance over `states` (pair order kept), pairs under `min` (mm)
 * first. States without pairs (failed) are skipped; a pair never measured is left out.
 */
export function summarize(states: readonly { index: number; pairs?: Readonly<Record<string, PairClearance>> }[], pairs: readonly Pair[], min = -Infinity): Record<string, PairSummary> {
  const best = new Map<string, PairSummary>();
  for (const state of states) {
    for (const [key, c] of Object.entries(state.pairs ?? {})) {
      const s = best.get(key);
      if (!s || c.distance < s.min_distance) best.set(key, { min_distance: c.distance, state: state.index, a_point: c.a_point, b_point: c.b_point });
    }
  }
  const keys = pairs.map(pairKey).filter((k) => best.has(k));
  const under = keys.filter((k) => best.get(k)!.min_distance < min);
  const rest = keys.filter((k) => !(best.get(k)!.min_distance < min));
  const out: Record<string, PairSummary> = {};
  for (const k of [...under, ...rest]) out[k] = best.get(k)!;
  return out;
}
