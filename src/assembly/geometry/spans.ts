/**
 * Extents (spans) of a hierarchy's nodes and triangles along three axes: the closest-pair
 * bound's numbers (closest.ts). One arithmetic for the spans measured per state (along F,
 * and along A's axes carried into B's frame) and for those along a part's own axes, which
 * no pose changes and which the hierarchy keeps from the start (flat-bvh.ts).
 */

/** What the spans read of a flattened hierarchy (flat-bvh.ts's FlatBVH). */
export interface SpanSource {
  readonly box: Float64Array;
  readonly obb: Float64Array;
  readonly right: Int32Array;
  readonly tri: Float64Array;
  readonly corners: Float64Array;
  readonly leafCorner: Int32Array;
}

/**
 * Node i's extent along axes k0 … k0 + count − 1 of `f` (rows), each moved by `offset[k]`:
 * lo, hi per axis into out[o …]. A leaf's is its corners' exactly; an inner node's the
 * tighter of its axis-aligned and its oriented box's.
 */
export function nodeSpan(tree: SpanSource, i: number, f: Float64Array, offset: Float64Array, k0: number, out: Float64Array, o: number, count = 3): void {
  if (tree.right[i]! < 0) {
    // a leaf: its corners' extent exactly, each shared corner once
    const p = tree.corners, c0 = 3 * tree.leafCorner[i]!, c1 = 3 * tree.leafCorner[i + 1]!;
    for (let k = k0, w = o; k < k0 + count; k++, w += 2) {
      const fx = f[3 * k]!, fy = f[3 * k + 1]!, fz = f[3 * k + 2]!;
      let lo = Infinity, hi = -Infinity;
      for (let c = c0; c < c1; c += 3) {
        const x = fx * p[c]! + fy * p[c + 1]! + fz * p[c + 2]!;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
      out[w] = lo + offset[k]!;
      out[w + 1] = hi + offset[k]!;
    }
    return;
  }
  const b = tree.box, ob = 6 * i, q = tree.obb, oq = 15 * i;
  const cx = b[ob]!, cy = b[ob + 1]!, cz = b[ob + 2]!, hx = b[ob + 3]!, hy = b[ob + 4]!, hz = b[ob + 5]!;
  for (let k = k0, w = o; k < k0 + count; k++, w += 2) {
    const fx = f[3 * k]!, fy = f[3 * k + 1]!, fz = f[3 * k + 2]!, off = offset[k]!;
    const c = fx * cx + fy * cy + fz * cz + off;
    const r = Math.abs(fx) * hx + Math.abs(fy) * hy + Math.abs(fz) * hz;
    const c2 = fx * q[oq]! + fy * q[oq + 1]! + fz * q[oq + 2]! + off;
    const r2 = Math.abs(fx * q[oq + 3]! + fy * q[oq + 4]! + fz * q[oq + 5]!) * q[oq + 12]!
      + Math.abs(fx * q[oq + 6]! + fy * q[oq + 7]! + fz * q[oq + 8]!) * q[oq + 13]!
      + Math.abs(fx * q[oq + 9]! + fy * q[oq + 10]! + fz * q[oq + 11]!) * q[oq + 14]!;
    out[w] = Math.max(c - r, c2 - r2);
    out[w + 1] = Math.min(c + r, c2 + r2);
  }
}

/** Triangle t's extent along axes k0 … k0 + 2 of `f`, moved by `offset[k]`: lo, hi per axis into out[o …]. */
export function triSpan(tree: SpanSource, t: number, f: Float64Array, offset: Float64Array, k0: number, out: Float64Array, o: number): void {
  const p = tree.tri, q = 9 * t;
  for (let k = k0, w = o; k < k0 + 3; k++, w += 2) {
    const fx = f[3 * k]!, fy = f[3 * k + 1]!, fz = f[3 * k + 2]!;
    const a = fx * p[q]! + fy * p[q + 1]! + fz * p[q + 2]!;
    const b = fx * p[q + 3]! + fy * p[q + 4]! + fz * p[q + 5]!;
    const c = fx * p[q + 6]! + fy * p[q + 7]! + fz * p[q + 8]!;
    out[w] = Math.min(a, b, c) + offset[k]!;
    out[w + 1] = Math.max(a, b, c) + offset[k]!;
  }
}

const OWN = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), NONE = new Float64Array(3);

/** Every node's and triangle's span along the part's own axes (6 numbers each, into ownNode and ownTri): the same arithmetic as a state's, done once. */
export function ownSpans(tree: SpanSource, ownNode: Float64Array, ownTri: Float64Array): void {
  for (let i = 0; i < ownNode.length / 6; i++) nodeSpan(tree, i, OWN, NONE, 0, ownNode, 6 * i);
  for (let t = 0; t < ownTri.length / 6; t++) triSpan(tree, t, OWN, NONE, 0, ownTri, 6 * t);
}
