/**
 * The closest pair of points of two meshes, to within a tie slack of 10⁻¹² (exact without
 * it: closest-tuning.ts): a dual walk of their three-mesh-bvh hierarchies (read into flat
 * arrays, flat-bvh.ts) that skips only what provably cannot come nearer than the best pair
 * so far, less the slack.
 *
 * The bound: both boxes (or both triangles) are measured along three orthogonal axes F
 * whose first is n, the direction of the best pair at the start (the last state's closest
 * triangles, re-measured at this state); a box's extent along any axis is exact whatever
 * its turn, and the gaps on orthogonal axes add in squares (|q − p|² = Σ (f·(q − p))²).
 * Two faces across n are bounded tightly by the gap along n, parts slid along a face by the
 * other two: near-ties are told apart without measuring them, where axis-aligned boxes
 * turned into the other frame overshoot by the turn. Without a start (no hint, or the
 * parts meet) F is A's own axes. Large node pairs those leave open are also bounded by
 * their capsules (capsule.ts), exact for round tubes whatever their turn. Only pairs the
 * bound cannot rule out are measured exactly (tri-distance.ts). A state near the last one
 * starts with the last answer as its bound and visits only the nodes around it.
 */
import { Matrix4, Vector3 } from 'three';
import { triangleDistance } from './tri-distance.ts';
import { CAPSULE, segmentGap } from './capsule.ts';
import type { FlatBVH } from './flat-bvh.ts';
import { Side } from './side.ts';
import { Front } from './front.ts';
import { setFrame } from './frame.ts';
import { Seeds } from './seeds.ts';
import { closestStats, closestTuning } from './closest-tuning.ts';

export { closestStats, closestTuning } from './closest-tuning.ts';
import { centroidGapTo, edgeArgs, edgeGap2To, sideGap } from './tri-gaps.ts';
import { centreBound, frameGap2 } from './node-gaps.ts';

export { centroidGap } from './tri-gaps.ts';

export interface ClosestResult {
  distance: number;
  /** On A, in A's frame. */
  readonly a: Vector3;
  /** On B, in A's frame. */
  readonly b: Vector3;
  /** The triangles (BVH order) of the closest pair: the next query's hint. -1 when none yet. */
  triA: number;
  triB: number;
  /** Where the parts overlapped: the deepest vertex of A inside B and of B inside A (clearance.ts's hint), -1 when none. */
  readonly deepest: [number, number];
  /** Where the last walk stopped: the next one starts there. */
  readonly front: Front;
  /** The closest triangles of the recent states by pose (seeds.ts): a far move's start. */
  readonly seeds: Seeds;
}

export function closestResult(): ClosestResult {
  return { distance: Infinity, a: new Vector3(), b: new Vector3(), triA: -1, triB: -1, deepest: [-1, -1], front: new Front(), seeds: new Seeds() };
}

/** Axes of the bound: A's own three, then F's three (when there is an n). */
let axes = 3;

const sideA = new Side(), sideB = new Side();
let query = 0;

/** A new query, or F turned: the sides' cached spans are stale. */
function nextQuery(): void {
  query++;
  sideA.query = query; sideB.query = query;
}
const e = new Float64Array(12); // bToA: rotation (row-major 3×3), then translation
const carried = new Float64Array(9); // B's triangle in A's frame
const pts = new Float64Array(6); // the last measured pair's points: on A, on B
let stack = new Int32Array(2 * 1024);
let stackBound = new Float64Array(1024);

/** Triangles ta of A and tb of B: the larger of the two frames' bounds; F's alone once it is over the cut (usually the tighter, and enough to prune). */
function gap2(A: FlatBVH, ta: number, B: FlatBVH, tb: number): number {
  if (axes === 3) return frameGap2(A.ownTri, 6 * ta, sideB.triSpan, sideB.triA(B, tb));
  const h = frameGap2(sideA.triSpan, sideA.triF(A, ta), sideB.triSpan, sideB.triF(B, tb));
  if (h > cut2) return h;
  const g = frameGap2(A.ownTri, 6 * ta, sideB.triSpan, sideB.triA(B, tb));
  return g > h ? g : h;
}

/**
 * The squared lower bound of node pair (i, j), into `bound[0]`: written, not returned, as
 * the walk's functions are too large for V8 to inline this into them, and a double returned
 * from a call not inlined is boxed (a heap number per node pair, as for centreBound's and
 * the triangle bounds' answers, written likewise: with them about 0.4 MB per state).
 */
function boundNodes(A: FlatBVH, i: number, B: FlatBVH, j: number): void {
  closestStats.nodeBounds++;
  if (axes === 3) { bound[0] = frameGap2(A.ownNode, 6 * i, sideB.nodeSpan, sideB.nodeA(B, j)); return; }
  spanGapF2(A, i, B, j);
  const h = bound[0]!;
  if (h > cut2) return;
  centreBound(A, i, B, j, e, bound, 0);
  const c = bound[0]!;
  const c2 = c > 0 ? c * c : 0;
  if (c2 > cut2) { bound[0] = c2; return; }
  const g = frameGap2(A.ownNode, 6 * i, sideB.nodeSpan, sideB.nodeA(B, j));
  const m = g > h ? (g > c2 ? g : c2) : (h > c2 ? h : c2);
  if (m > cut2 || A.count[i]! + B.count[j]! < closestTuning.capsuleMin) { bound[0] = m; return; }
  capsuleBound(A, i, B, j);
  const k = bound[0]!;
  const k2 = k > 0 ? k * k : 0;
  bound[0] = k2 > m ? k2 : m;
}
const bound = new Float64Array(1);

/** boundNodes' bound, returned: for the few calls a walk makes outside its loops (the roots, the dive). */
function nodeBound2(A: FlatBVH, i: number, B: FlatBVH, j: number): number {
  boundNodes(A, i, B, j);
  return bound[0]!;
}

/** frameGap2 along F, node i of A and j of B, into bound[0]: n's gap first, the other two axes' spans only where it leaves the pair open (the same sum, in the same order). */
function spanGapF2(A: FlatBVH, i: number, B: FlatBVH, j: number): void {
  const a = sideA.nodeSpan, b = sideB.nodeSpan, oa = sideA.nodeN(A, i), ob = sideB.nodeN(B, j);
  const gn = Math.max(b[ob]! - a[oa + 1]!, a[oa]! - b[ob + 1]!);
  let sum = gn > 0 ? gn * gn : 0;
  if (sum > cut2) { bound[0] = sum; return; }
  sideA.nodeUV(A, i); sideB.nodeUV(B, j);
  for (let k = 2; k < 6; k += 2) {
    const g = Math.max(b[ob + k]! - a[oa + k + 1]!, a[oa + k]! - b[ob + k + 1]!);
    if (g > 0) sum += g * g;
  }
  bound[0] = sum;
}

/** The gap between two nodes' capsules (capsule.ts), B's segment carried into A's frame (cached for this query), into bound[0]. */
function capsuleBound(A: FlatBVH, i: number, B: FlatBVH, j: number): void {
  closestStats.capsuleBounds++;
  const p = A.capsule, oa = CAPSULE * i, ob = sideB.ends(B, j, e);
  segmentGap(p, oa, sideB.capsuleEnds, ob, bound, 0);
  bound[0] = bound[0]! - p[oa + 6]! - B.capsule[CAPSULE * j + 6]!;
}


/** B's triangle t carried into A's frame, into `carried`. */
function carry(B: FlatBVH, t: number): void {
  const s = B.tri;
  for (let o = 9 * t, k = 0; k < 9; o += 3, k += 3) {
    const x = s[o]!, y = s[o + 1]!, z = s[o + 2]!;
    carried[k] = e[0]! * x + e[1]! * y + e[2]! * z + e[9]!;
    carried[k + 1] = e[3]! * x + e[4]! * y + e[5]! * z + e[10]!;
    carried[k + 2] = e[6]! * x + e[7]! * y + e[8]! * z + e[11]!;
  }
}

/**
 * Lower bound of A's triangle i to B's (carried) triangle j: how far each lies off the
 * other's plane, into planeGaps[5]. Tight where two faces face each other, as the near-ties of two
 * surfaces over a patch do, which the spans along F overshoot by the triangles' tilt.
 */
function planeBound(A: FlatBVH, i: number, B: FlatBVH, j: number): void {
  const p = A.plane, q = B.plane;
  const g = sideGap(p[4 * i]!, p[4 * i + 1]!, p[4 * i + 2]!, p[4 * i + 3]!, carried, 0);
  const mx = q[4 * j]!, my = q[4 * j + 1]!, mz = q[4 * j + 2]!;
  const nx = e[0]! * mx + e[1]! * my + e[2]! * mz;
  const ny = e[3]! * mx + e[4]! * my + e[5]! * mz;
  const nz = e[6]! * mx + e[7]! * my + e[8]! * mz;
  const h = sideGap(nx, ny, nz, q[4 * j + 3]! + nx * e[9]! + ny * e[10]! + nz * e[11]!, A.tri, 9 * i);
  planeGaps[0] = g; planeGaps[1] = h; planeGaps[2] = nx; planeGaps[3] = ny; planeGaps[4] = nz;
  planeGaps[5] = g > h ? g : h;
}

const planeGaps = new Float64Array(6); // the last planeBound's parts: B's gap off A's plane, A's off B's, B's normal in A's frame; the bound

/**
 * Squared lower bound of the last planeBound's pair (B's triangle carried): each plane's
 * gap along its normal and the other triangle's gap beyond its edges, square to it, added
 * in squares (tri-gaps.ts); the larger of A's plane's and B's, into planeGaps[5].
 */
function edgeBound2(A: FlatBVH, i: number): void {
  const p = A.plane, g = planeGaps[0]!, h = planeGaps[1]!, n = edgeArgs;
  // B's side only where A's leaves the pair open (each stops once over the cut)
  n[0] = p[4 * i]!; n[1] = p[4 * i + 1]!; n[2] = p[4 * i + 2]!; n[3] = cut2 - g * g;
  edgeGap2To(A.tri, 9 * i, carried, 0, n);
  const a = g * g + n[4]!;
  if (a > cut2) { planeGaps[5] = a; return; }
  n[0] = planeGaps[2]!; n[1] = planeGaps[3]!; n[2] = planeGaps[4]!; n[3] = cut2 - h * h;
  edgeGap2To(carried, 0, A.tri, 9 * i, n);
  const b = h * h + n[4]!;
  planeGaps[5] = a > b ? a : b;
}

function keep(out: ClosestResult, ta: number, tb: number): void {
  out.a.set(pts[0]!, pts[1]!, pts[2]!);
  out.b.set(pts[3]!, pts[4]!, pts[5]!);
  out.triA = ta; out.triB = tb;
  bestOA = orderA[ta]!; bestOB = orderB[tb]!;
}

function push(top: number, i: number, j: number, bound2: number): number {
  top = pushPair(top, i, j);
  stackBound[top - 1] = bound2;
  return top;
}

/** push without the bound, which the caller writes at stackBound[top − 1] (a double passed to a call not inlined is boxed). */
function pushPair(top: number, i: number, j: number): number {
  if (top >= stackBound.length) {
    const s = new Int32Array(4 * top); s.set(stack); stack = s;
    const b = new Float64Array(2 * top); b.set(stackBound); stackBound = b;
  }
  stack[2 * top] = i; stack[2 * top + 1] = j;
  return top + 1;
}

/** Which node of a pair to open: the inner one, the larger when both are. */
function splitA(A: FlatBVH, i: number, B: FlatBVH, j: number): boolean {
  if (A.right[i]! < 0) return false;
  if (B.right[j]! < 0) return true;
  const a = A.box, b = B.box;
  return a[6 * i + 3]! + a[6 * i + 4]! + a[6 * i + 5]! >= b[6 * j + 3]! + b[6 * j + 4]! + b[6 * j + 5]!;
}

/**
 * The best pair so far and the pruning limits. A pair is kept when it is nearer, or as near
 * and first in (triangle of A, triangle of B) order. With a tie slack a bound prunes from
 * `floor` (best less the slack) up. Exact (no slack): a bound prunes only above `cut`, a
 * hair over `best` (the bounds are rounded too), so no pair that could tie or win is
 * skipped, and the answer is the smallest distance over every triangle pair, the first
 * such pair on a tie, whatever order the walk takes.
 */
let best = Infinity, cut = Infinity, cut2 = Infinity, best2 = Infinity, floor = Infinity, floor2 = Infinity;
/** Does a bound prune from `floor` up whatever the pair (closestTuning.tieSlack > 0, read per query)? */
let slack = false;

let orderA: Int32Array = new Int32Array(0), orderB: Int32Array = new Int32Array(0);
let minA: Int32Array = new Int32Array(0), minB: Int32Array = new Int32Array(0);
/** The best pair's triangles in the meshes' order (NONE while there is none). */
const NONE = 0x7fffffff;
let bestOA = NONE, bestOB = NONE;

/**
 * Can node pair (i, j), bounded by d2 (squared), be skipped? Above `cut`, as nothing under
 * it can tie or win; from `floor` up (best less closestTuning.tieSlack), as nothing under
 * it can come more than that nearer. Exact (no slack), from `best` up (closestTuning.laterTies)
 * where none of its triangle pairs comes before the best's in (A's, B's) mesh order (each
 * is at or after (minA, minB)): such a pair only wins by coming strictly nearer, which a
 * bound at or over the best denies but for rounding (docs/geometry.md: "Which pair, on a tie").
 * The walk writes it out, `d2 > cut2 || (d2 >= floor2 && laterNodes(i, j))`: d2 passed to
 * a call V8 does not inline (the walk's functions are past its inlining budget) is boxed.
 */
function laterNodes(i: number, j: number): boolean {
  if (slack) return true;
  if (!closestTuning.laterTies) return false;
  const ma = minA[i]!;
  return ma > bestOA || (ma === bestOA && minB[j]! >= bestOB);
}

/** Can triangle pair (ta, tb), bounded at or over `floor`, be skipped? With a slack, yes; exact, where it comes after the best's in the meshes' order (it can win only by coming strictly nearer). */
function later(ta: number, tb: number): boolean {
  if (slack) return true;
  if (!closestTuning.laterTies) return false;
  const ma = orderA[ta]!;
  return ma > bestOA || (ma === bestOA && orderB[tb]! >= bestOB);
}

/** Does node pair 1 come before node pair 2 in (A's, B's) mesh order of their first triangles? */
function earlier(i1: number, j1: number, i2: number, j2: number): boolean {
  return minA[i1]! < minA[i2]! || (minA[i1] === minA[i2] && minB[j1]! <= minB[j2]!);
}

function consider(d: number, ta: number, tb: number, out: ClosestResult): void {
  if (!(d <= best)) return;
  if (d === best) {
    // a tie: the first pair in the meshes' own triangle order (the hierarchy's order depends on how it was built)
    const ma = orderA[ta]!, mb = orderB[tb]!, oa = orderA[out.triA]!, ob = orderB[out.triB]!;
    if (ma > oa || (ma === oa && mb >= ob)) return;
  }
  setBest(d);
  keep(out, ta, tb);
}

function setBest(d: number): void {
  best = d;
  best2 = d * d;
  floor = d * (1 - closestTuning.tieSlack);
  floor2 = floor * floor;
  cut = d * (1 + 1e-12) + 1e-9;
  cut2 = cut * cut;
}

/** Down the nearer child pair to two leaves, their triangle pairs measured: a first bound where there is no last state. */
function dive(A: FlatBVH, B: FlatBVH, out: ClosestResult): void {
  let i = 0, j = 0;
  while (A.right[i]! >= 0 || B.right[j]! >= 0) {
    if (splitA(A, i, B, j)) i = nodeBound2(A, i + 1, B, j) <= nodeBound2(A, A.right[i]!, B, j) ? i + 1 : A.right[i]!;
    else j = nodeBound2(A, i, B, j + 1) <= nodeBound2(A, i, B, B.right[j]!) ? j + 1 : B.right[j]!;
  }
  for (let tb = B.first[j]!; tb < B.first[j]! + B.count[j]!; tb++) {
    carry(B, tb);
    for (let ta = A.first[i]!; ta < A.first[i]! + A.count[i]!; ta++) consider(triangleDistance(A.tri, 9 * ta, carried, 0, pts), ta, tb, out);
  }
}

/** A walk starts again on a new F at most this often, when the best has come this much nearer and turned from n. */
const MAX_RESTARTS = 2, RESTART_GAIN = 0.995, RESTART_COS = Math.cos((3 * Math.PI) / 180);

/** Has the best pair's direction turned from F's n by more than 3°? */
function turned(out: ClosestResult): boolean {
  const f = sideA.axes;
  const c = (f[9]! * (out.b.x - out.a.x) + f[10]! * (out.b.y - out.a.y) + f[11]! * (out.b.z - out.a.z)) / best;
  return axes === 6 && c < RESTART_COS;
}

const start = new Vector3(), end = new Vector3(), merged = new Int32Array(2), seedPair = new Int32Array(2);

/** The walk's restart bookkeeping: the best when F was last set, and how often it was set again. */
let frameBest = Infinity, restarts = 0;

/**
 * Walks the node pairs on the stack (down from `top`) until it is empty or the surfaces
 * meet, writing where it stops (each pruned pair, each pair of leaves) into `front`.
 * Where the best comes far nearer on a turned direction, the walk starts again from the
 * roots on F turned onto it (its bounds are then tight), the stack and the front written
 * so far dropped (the roots cover them): true then.
 */
function drain(A: FlatBVH, B: FlatBVH, bToA: Matrix4, out: ClosestResult, top: number, front: Front): boolean {
  let again = false;
  while (top > 0 && best > 0) {
    top--;
    const i = stack[2 * top]!, j = stack[2 * top + 1]!;
    const d0 = stackBound[top]!;
    if (d0 > cut2 || (d0 >= floor2 && laterNodes(i, j))) { front.add(i, j); continue; }
    closestStats.nodePairs++;
    if (A.right[i]! < 0 && B.right[j]! < 0) {
      front.add(i, j);
      leafPair(A, i, B, j, out);
      if (best < RESTART_GAIN * frameBest && best > 0 && restarts < MAX_RESTARTS && turned(out)) {
        restarts++;
        frameBest = best;
        nextQuery();
        axes = setFrame(bToA, best, out.a, out.b, e, sideA, sideB);
        front.begin();
        top = push(0, 0, 0, nodeBound2(A, 0, B, 0));
        again = true;
      }
      continue;
    }
    // open one node; the nearer child pair goes on top, to be walked first (the earlier in mesh order of two as near)
    let i1: number, j1: number, i2: number, j2: number;
    if (splitA(A, i, B, j)) { i1 = i + 1; i2 = A.right[i]!; j1 = j; j2 = j; }
    else { i1 = i; i2 = i; j1 = j + 1; j2 = B.right[j]!; }
    boundNodes(A, i1, B, j1);
    const d1 = bound[0]!;
    boundNodes(A, i2, B, j2);
    const d2 = bound[0]!;
    if (d1 < d2 || (d1 === d2 && earlier(i1, j1, i2, j2))) {
      if (!(d2 > cut2 || (d2 >= floor2 && laterNodes(i2, j2)))) { top = pushPair(top, i2, j2); stackBound[top - 1] = d2; } else front.add(i2, j2);
      if (!(d1 > cut2 || (d1 >= floor2 && laterNodes(i1, j1)))) { top = pushPair(top, i1, j1); stackBound[top - 1] = d1; } else front.add(i1, j1);
    } else {
      if (!(d1 > cut2 || (d1 >= floor2 && laterNodes(i1, j1)))) { top = pushPair(top, i1, j1); stackBound[top - 1] = d1; } else front.add(i1, j1);
      if (!(d2 > cut2 || (d2 >= floor2 && laterNodes(i2, j2)))) { top = pushPair(top, i2, j2); stackBound[top - 1] = d2; } else front.add(i2, j2);
    }
  }
  return again;
}

/** Two leaves: each triangle pair bounded, the rest measured. */
function leafPair(A: FlatBVH, i: number, B: FlatBVH, j: number, out: ClosestResult): void {
  for (let tb = B.first[j]!, endB = tb + B.count[j]!; tb < endB && best > 0; tb++) {
    let carriedNow = false;
    for (let ta = A.first[i]!, endA = ta + A.count[i]!; ta < endA && best > 0; ta++) {
      closestStats.triangleBounds++;
      // a pair after the best's in mesh order is skipped from the best up, one before it only above the cut (laterNodes())
      const g2 = gap2(A, ta, B, tb);
      if (g2 > cut2 || (g2 >= floor2 && later(ta, tb))) continue;
      if (!carriedNow) { carry(B, tb); carriedNow = true; }
      planeBound(A, ta, B, tb);
      const plane = planeGaps[5]!;
      if (plane > cut || (plane >= floor && later(ta, tb))) continue;
      if (closestTuning.centroid) {
        centroidGapTo(A.tri, 9 * ta, carried, 0, planeGaps, 5);
        const c = planeGaps[5]!;
        if (c > cut || (c >= floor && later(ta, tb))) continue;
      }
      if (closestTuning.edges) {
        edgeBound2(A, ta);
        const k2 = planeGaps[5]!;
        if (k2 > cut2 || (k2 >= floor2 && later(ta, tb))) continue;
      }
      closestStats.triangleDistances++;
      consider(triangleDistance(A.tri, 9 * ta, carried, 0, pts, plane > 0), ta, tb, out);
    }
  }
}

/**
 * The walk from the last state's front: each of its pairs bounded at this state, and
 * walked down where the bound leaves it open; two halves of a pair pruned become that
 * pair where its bound prunes it too, so the front climbs back up where the parts part.
 * Writes the new front (from the roots where the walk started again there).
 */
function frontWalk(A: FlatBVH, B: FlatBVH, bToA: Matrix4, out: ClosestResult, front: Front): void {
  front.begin();
  const old = front.pairs;
  for (let k = 0; k < front.size && best > 0; k++) {
    const i = old[2 * k]!, j = old[2 * k + 1]!;
    boundNodes(A, i, B, j);
    const d = bound[0]!;
    if (d > cut2 || (d >= floor2 && laterNodes(i, j))) {
      front.addPruned(i, j);
      while (front.lastTwoParent(A, B, merged)) {
        boundNodes(A, merged[0]!, B, merged[1]!);
        const m = bound[0]!;
        if (!(m > cut2 || (m >= floor2 && laterNodes(merged[0]!, merged[1]!)))) break;
        front.merge(merged);
      }
      continue;
    }
    pushPair(0, i, j);
    stackBound[0] = d;
    if (drain(A, B, bToA, out, 1, front)) {
      front.commit(A, B, true);
      return;
    }
  }
  front.commit(A, B, false);
}

/**
 * The closest points of A's and B's meshes (B placed in A's frame by `bToA`), both in A's
 * frame, into `out`; `out`'s triangles, where set, start the search as its first bound
 * and direction (after a far move also those remembered at the nearest pose seen before,
 * seeds.ts), and its front (front.ts), where it has one for these meshes, as where the
 * walk starts. The distance is the smallest over every triangle pair to within
 * closestTuning.tieSlack (exact with no slack: then the first such pair on a tie),
 * whatever the start. Stops early at distance 0 (the surfaces meet):
 * the touching pair it reports then is the one the walk from the roots meets first.
 */
export function closestPair(A: FlatBVH, B: FlatBVH, bToA: Matrix4, out: ClosestResult): ClosestResult {
  sideA.fit(A);
  sideB.fit(B);
  nextQuery();
  axes = setFrame(bToA, 0, null, null, e, sideA, sideB);
  best = Infinity; cut = Infinity; cut2 = Infinity; best2 = Infinity; floor = Infinity; floor2 = Infinity;
  slack = closestTuning.tieSlack > 0;
  orderA = A.order; orderB = B.order; minA = A.minOrder; minB = B.minOrder;
  bestOA = NONE; bestOB = NONE;
  const hintA = out.triA, hintB = out.triB;
  if (hintA >= 0 && hintB >= 0 && hintA < A.triangles && hintB < B.triangles) {
    carry(B, hintB);
    consider(triangleDistance(A.tri, 9 * hintA, carried, 0, pts), hintA, hintB, out);
  }
  if (closestTuning.seeds) seedFromMemory(A, B, out);
  if (best === Infinity) dive(A, B, out);
  if (best > 0) {
    nextQuery(); // F turns onto n: the spans cached so far were along A's axes
    axes = setFrame(bToA, best, out.a, out.b, e, sideA, sideB);
  }
  const front = out.front;
  frameBest = best; restarts = 0;
  // after a far move the last front lies around the last answer, not this one: bounding each of its pairs again costs more than a walk from the roots
  if (best > 0 && closestTuning.front && front.usable(A, B) && !(closestTuning.seeds && out.seeds.far)) {
    const startBest = best, startA = out.triA, startB = out.triB, startQuery = query;
    start.copy(out.a); end.copy(out.b);
    frontWalk(A, B, bToA, out, front);
    if (best > 0) return finish(out);
    // touching: which touching pair is reported depends on the walk, so it is the walk from the roots' (F as it was set above)
    setBest(startBest);
    out.a.copy(start); out.b.copy(end); out.triA = startA; out.triB = startB;
    bestOA = orderA[startA]!; bestOB = orderB[startB]!;
    frameBest = best; restarts = 0;
    if (query !== startQuery) { nextQuery(); axes = setFrame(bToA, best, out.a, out.b, e, sideA, sideB); }
  }
  front.begin();
  drain(A, B, bToA, out, push(0, 0, 0, nodeBound2(A, 0, B, 0)), front);
  // a walk stopped at touching surfaces left pairs unvisited
  if (best > 0) front.commit(A, B, true); else front.drop();
  return finish(out);
}

/** After a far move, the pair remembered at the pose nearest to this one (seeds.ts), re-measured: the start where it is nearer than the last state's. */
function seedFromMemory(A: FlatBVH, B: FlatBVH, out: ClosestResult): void {
  const b = B.box, reach = Math.hypot(b[0]!, b[1]!, b[2]!) + Math.hypot(b[3]!, b[4]!, b[5]!);
  out.seeds.find(A, B, e, reach);
  if (!out.seeds.far || !out.seeds.pairOf(seedPair)) return;
  const ta = seedPair[0]!, tb = seedPair[1]!;
  if ((ta === out.triA && tb === out.triB) || ta >= A.triangles || tb >= B.triangles) return;
  carry(B, tb);
  consider(triangleDistance(A.tri, 9 * ta, carried, 0, pts), ta, tb, out);
}

/** The answer's distance, and this state remembered for a later far move. */
function finish(out: ClosestResult): ClosestResult {
  out.distance = best;
  if (closestTuning.seeds && out.triA >= 0) out.seeds.remember(e, out.triA, out.triB);
  return out;
}
