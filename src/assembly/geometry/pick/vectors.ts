/** Plain 3-vectors as tuples (the document's own form), and a basis square to a direction. */
import { basisAcross as kernelBasisAcross, type Vec3Tuple } from '../../../../kernel/vec3.ts';

export type Vec3T = Vec3Tuple;

const u64 = new Float64Array(3), w64 = new Float64Array(3), d64 = new Float64Array(3);

/** Two unit vectors (u, w) that with unit d make a right-handed orthonormal basis (the kernel's choice of u). */
export function basisAcross(u: Vec3T, w: Vec3T, d: Readonly<Vec3T>): void {
  d64[0] = d[0]; d64[1] = d[1]; d64[2] = d[2];
  kernelBasisAcross(u64, w64, d64);
  for (let k = 0; k < 3; k++) { u[k] = u64[k]; w[k] = w64[k]; }
}
