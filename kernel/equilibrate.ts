/**
 * Symmetric equilibration of a square matrix (Ruiz's iteration): scales D with every row
 * and column of D A D of largest entry near 1 (row i and column i share D_i). An iteration matrix mixes masses (10⁻³ t),
 * inertias (10⁴ t·mm²) and constraint rows of unit or lever-arm size; threshold pivoting
 * on it as it stands trades the diagonal for a larger entry in most columns, and each such
 * swap spreads fill. On D A D the diagonal pivots hold far more often: the sedan's factors
 * have half the nonzeros and a third of the refactor's work (lu-ordered.ts).
 * Scales are powers of two, so that scaling and unscaling round nothing.
 */

/**
 * D (length n) for A (n×n row-major): `sweeps` passes of D_i ← D_i / √(max_j |D_i A_ij D_j|, |D_j A_ji D_i|).
 * `nonzeros` (first `count`), when given, lists A's entries that may be nonzero (row-major
 * indices); every other entry is zero. A row of zeros keeps its scale.
 */
export function equilibrate(A: ArrayLike<number>, n: number, D: Float64Array, rowMax: Float64Array, sweeps: number, nonzeros: Int32Array | null = null, count = 0): void {
  D.fill(1, 0, n);
  for (let s = 0; s < sweeps; s++) {
    rowMax.fill(0, 0, n);
    if (nonzeros) {
      for (let e = 0; e < count; e++) {
        const k = nonzeros[e], i = (k / n) | 0, j = k - i * n;
        const x = Math.abs(A[k]) * D[i] * D[j];
        if (x > rowMax[i]) rowMax[i] = x;
        if (x > rowMax[j]) rowMax[j] = x;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const di = D[i], r = i * n;
        for (let j = 0; j < n; j++) {
          const x = Math.abs(A[r + j]) * di * D[j];
          if (x > rowMax[i]) rowMax[i] = x;
          if (x > rowMax[j]) rowMax[j] = x;
        }
      }
    }
    for (let i = 0; i < n; i++) if (rowMax[i] > 0) D[i] = powerOfTwo(D[i] / Math.sqrt(rowMax[i]));
  }
}

/** The power of two nearest x > 0 (in the logarithm). */
function powerOfTwo(x: number): number {
  return 2 ** Math.round(Math.log2(x));
}
