/**
 * An oriented box around each node of a flattened hierarchy: axes from the principal
 * directions of the node's triangle corners (the covariance's eigenvectors), sizes from
 * the corners' extents along them. A thin or turned patch (a tube's side, a diagonal
 * strut) is boxed tightly whatever the part's axes, where the hierarchy's axis-aligned box
 * grows with the turn; the closest-pair bound takes whichever extent is smaller.
 */

/** 3×3 symmetric eigenvectors by Jacobi rotations: `m` (row-major, overwritten), the vectors into `v` as rows. */
export function symmetricEigenvectors(m: Float64Array, v: Float64Array): void {
  v.fill(0); v[0] = 1; v[4] = 1; v[8] = 1;
  for (let sweep = 0; sweep < 12; sweep++) {
    const off = m[1]! * m[1]! + m[2]! * m[2]! + m[5]! * m[5]!;
    if (off < 1e-30 * (m[0]! * m[0]! + m[4]! * m[4]! + m[8]! * m[8]! + 1e-300)) break;
    for (const [p, q] of PAIRS) {
      const apq = m[3 * p + q]!;
      if (apq === 0) continue;
      const theta = (m[3 * q + q]! - m[3 * p + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      // m ← Jᵀ m J on rows/columns p, q; v's rows p, q turned alike
      for (let k = 0; k < 3; k++) {
        const mkp = m[3 * k + p]!, mkq = m[3 * k + q]!;
        m[3 * k + p] = c * mkp - s * mkq; m[3 * k + q] = s * mkp + c * mkq;
      }
      for (let k = 0; k < 3; k++) {
        const mpk = m[3 * p + k]!, mqk = m[3 * q + k]!;
        m[3 * p + k] = c * mpk - s * mqk; m[3 * q + k] = s * mpk + c * mqk;
      }
      for (let k = 0; k < 3; k++) {
        const vp = v[3 * p + k]!, vq = v[3 * q + k]!;
        v[3 * p + k] = c * vp - s * vq; v[3 * q + k] = s * vp + c * vq;
      }
    }
  }
}
const PAIRS = [[0, 1], [0, 2], [1, 2]] as const;

/**
 * Per node (15 numbers): centre xyz, three unit axes (rows), half sizes. `first`/`count`
 * give each node's triangle range; `tri` the corners (9 per triangle).
 */
export function nodeBoxes(first: Int32Array, count: Int32Array, tri: Float64Array): Float64Array {
  const nodes = first.length;
  const out = new Float64Array(15 * nodes);
  const m = new Float64Array(9), v = new Float64Array(9);
  for (let i = 0; i < nodes; i++) {
    const t0 = first[i]!, t1 = t0 + count[i]!;
    const k = 3 * (t1 - t0);
    let sx = 0, sy = 0, sz = 0;
    for (let o = 9 * t0; o < 9 * t1; o += 3) { sx += tri[o]!; sy += tri[o + 1]!; sz += tri[o + 2]!; }
    sx /= k; sy /= k; sz /= k;
    m.fill(0);
    for (let o = 9 * t0; o < 9 * t1; o += 3) {
      const x = tri[o]! - sx, y = tri[o + 1]! - sy, z = tri[o + 2]! - sz;
      m[0] += x * x; m[1] += x * y; m[2] += x * z; m[4] += y * y; m[5] += y * z; m[8] += z * z;
    }
    m[3] = m[1]!; m[6] = m[2]!; m[7] = m[5]!;
    symmetricEigenvectors(m, v);
    const b = 15 * i;
    for (let a = 0; a < 3; a++) {
      const ax = v[3 * a]!, ay = v[3 * a + 1]!, az = v[3 * a + 2]!;
      let lo = Infinity, hi = -Infinity;
      for (let o = 9 * t0; o < 9 * t1; o += 3) {
        const p = ax * tri[o]! + ay * tri[o + 1]! + az * tri[o + 2]!;
        if (p < lo) lo = p;
        if (p > hi) hi = p;
      }
      out[b + 3 + 3 * a] = ax; out[b + 4 + 3 * a] = ay; out[b + 5 + 3 * a] = az;
      // grown by a rounding's worth: the centre is rebuilt from the axes, and the box must hold every corner
      out[b + 12 + a] = (hi - lo) / 2 + 1e-12 * (Math.abs(hi) + Math.abs(lo));
      const mid = (hi + lo) / 2;
      out[b] += mid * ax; out[b + 1] += mid * ay; out[b + 2] += mid * az;
    }
  }
  return out;
}
