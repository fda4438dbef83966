/**
 * One side of a closest-pair query (closest.ts): the extents (spans.ts) of the nodes and
 * triangles the walk touched, along the bound's axes in this side's frame, each measured
 * once per query and only as far as the bound asks: along F's n first (it alone prunes
 * three quarters of the node pairs the bound prunes on the bench), then F's other two,
 * along A's axes where F's leave a pair open. Also the nodes' capsule segments carried into A's
 * frame. A cache is stale once `query` moves on.
 */
import type { FlatBVH } from './flat-bvh.ts';
import { CAPSULE } from './capsule.ts';
import { nodeSpan, triSpan } from './spans.ts';

export class Side {
  /** Per node: lo, hi along A's axes (0 … 5), then along F's (6 … 11). */
  nodeSpan = new Float64Array(0);
  private stampA = new Int32Array(0);
  private stampN = new Int32Array(0);
  private stampUV = new Int32Array(0);
  /** Per triangle, laid out as nodeSpan. */
  triSpan = new Float64Array(0);
  private triStampA = new Int32Array(0);
  private triStampF = new Int32Array(0);
  capsuleEnds = new Float64Array(0);
  private capsuleStamp = new Int32Array(0);
  /** The bound's axes in this side's frame (rows: A's three, then F's), and the offset of this frame's origin along each. */
  readonly axes = new Float64Array(18);
  readonly offset = new Float64Array(6);
  /** The query the caches hold. */
  query = 0;

  fit(tree: FlatBVH): void {
    const nodes = tree.right.length;
    if (this.stampA.length < nodes) {
      this.nodeSpan = new Float64Array(12 * nodes);
      this.stampA = new Int32Array(nodes).fill(-1);
      this.stampN = new Int32Array(nodes).fill(-1);
      this.stampUV = new Int32Array(nodes).fill(-1);
      this.capsuleEnds = new Float64Array(6 * nodes);
      this.capsuleStamp = new Int32Array(nodes).fill(-1);
    }
    if (this.triStampA.length < tree.triangles) {
      this.triSpan = new Float64Array(12 * tree.triangles);
      this.triStampA = new Int32Array(tree.triangles).fill(-1);
      this.triStampF = new Int32Array(tree.triangles).fill(-1);
    }
  }

  /** Node i's spans along A's axes: their place in nodeSpan. */
  nodeA(tree: FlatBVH, i: number): number {
    const o = 12 * i;
    if (this.stampA[i] !== this.query) { this.stampA[i] = this.query; nodeSpan(tree, i, this.axes, this.offset, 0, this.nodeSpan, o); }
    return o;
  }

  /** Node i's span along F's n: its place in nodeSpan (F's other two follow it, after nodeUV). */
  nodeN(tree: FlatBVH, i: number): number {
    const o = 12 * i + 6;
    if (this.stampN[i] !== this.query) { this.stampN[i] = this.query; nodeSpan(tree, i, this.axes, this.offset, 3, this.nodeSpan, o, 1); }
    return o;
  }

  /** Node i's spans along F's other two axes, after its span along n (nodeN's place + 2). */
  nodeUV(tree: FlatBVH, i: number): void {
    if (this.stampUV[i] !== this.query) { this.stampUV[i] = this.query; nodeSpan(tree, i, this.axes, this.offset, 4, this.nodeSpan, 12 * i + 8, 2); }
  }

  /** Triangle t's spans along A's axes: their place in triSpan. */
  triA(tree: FlatBVH, t: number): number {
    const o = 12 * t;
    if (this.triStampA[t] !== this.query) { this.triStampA[t] = this.query; triSpan(tree, t, this.axes, this.offset, 0, this.triSpan, o); }
    return o;
  }

  /** Triangle t's spans along F's axes: their place in triSpan. */
  triF(tree: FlatBVH, t: number): number {
    const o = 12 * t + 6;
    if (this.triStampF[t] !== this.query) { this.triStampF[t] = this.query; triSpan(tree, t, this.axes, this.offset, 3, this.triSpan, o); }
    return o;
  }

  /** Node i's capsule segment carried by `e` (rotation row-major, then translation) into A's frame: its place in capsuleEnds. */
  ends(tree: FlatBVH, i: number, e: Float64Array): number {
    const out = this.capsuleEnds, o = 6 * i;
    if (this.capsuleStamp[i] !== this.query) {
      this.capsuleStamp[i] = this.query;
      const s = tree.capsule, c = CAPSULE * i;
      for (let k = 0; k < 6; k += 3) {
        const x = s[c + k]!, y = s[c + k + 1]!, z = s[c + k + 2]!;
        out[o + k] = e[0]! * x + e[1]! * y + e[2]! * z + e[9]!;
        out[o + k + 1] = e[3]! * x + e[4]! * y + e[5]! * z + e[10]!;
        out[o + k + 2] = e[6]! * x + e[7]! * y + e[8]! * z + e[11]!;
      }
    }
    return o;
  }
}
