/**
 * The small dense algebra the fits need: the eigenvectors of a symmetric 3 × 3 matrix
 * (cyclic Jacobi: exact to rounding, no allocation beyond its outputs) and a small
 * solve (the kernel's LU) for the linear least squares of the circle, cylinder and cone fits.
 */
import { LU } from '../../../../kernel/linalg.ts';

/**
 * Eigen-decomposition of the symmetric matrix `m` (row-major 9). Returns the eigenvalues
 * ascending in `values` and the matching unit eigenvectors as rows of `vectors` (9).
 */
export function symmetricEigen3(m: ArrayLike<number>, values: Float64Array, vectors: Float64Array): void {
  const a = Float64Array.from(m as ArrayLike<number>);
  const v = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]); // columns are eigenvectors
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[1]) + Math.abs(a[2]) + Math.abs(a[5]);
    const scale = Math.abs(a[0]) + Math.abs(a[4]) + Math.abs(a[8]);
    if (off <= 1e-300 || off <= 1e-17 * scale) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]] as const) {
      const apq = a[3 * p + q];
      if (apq === 0) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < 3; k++) { // A ← A J (columns p, q)
        const akp = a[3 * k + p], akq = a[3 * k + q];
        a[3 * k + p] = c * akp - s * akq; a[3 * k + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) { // A ← Jᵀ A (rows p, q)
        const apk = a[3 * p + k], aqk = a[3 * q + k];
        a[3 * p + k] = c * apk - s * aqk; a[3 * q + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[3 * k + p], vkq = v[3 * k + q];
        v[3 * k + p] = c * vkp - s * vkq; v[3 * k + q] = s * vkp + c * vkq;
      }
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[4 * i] - a[4 * j]);
  order.forEach((col, row) => {
    values[row] = a[4 * col];
    for (let k = 0; k < 3; k++) vectors[3 * row + k] = v[3 * k + col];
  });
}

/**
 * Solves the n × n system A x = b in place (A row-major, left as it is; b becomes x).
 * Returns false when A is singular to rounding (a pivot below 1e-14 of the largest).
 */
export function solveInPlace(n: number, A: Float64Array, b: Float64Array): boolean {
  const lu = new LU(n);
  if (!lu.factor(A, n, 1e-14)) return false;
  lu.solve(b);
  return true;
}
