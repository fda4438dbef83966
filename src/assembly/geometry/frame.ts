/**
 * The frame of a closest-pair walk (closest.ts): B's pose in A's frame as plain numbers,
 * and F, the bound's axes, in each side's frame (side.ts).
 */
import type { Matrix4, Vector3 } from 'three';
import type { Side } from './side.ts';

/**
 * B's pose in A's frame into `e` (rotation row-major, then translation), and the bound's
 * axes into each side: A's own three, then F: n (from a to b, d apart), then two axes
 * square to it; A's alone where there is no n (a or b null, or d not a positive distance).
 * Returns how many axes the bound uses: 3 (A's) or 6 (A's, then F's).
 */
export function setFrame(bToA: Matrix4, d: number, a: Vector3 | null, b: Vector3 | null, e: Float64Array, sideA: Side, sideB: Side): number {
  const t = bToA.elements; // column-major
  e[0] = t[0]!; e[1] = t[4]!; e[2] = t[8]!;
  e[3] = t[1]!; e[4] = t[5]!; e[5] = t[9]!;
  e[6] = t[2]!; e[7] = t[6]!; e[8] = t[10]!;
  e[9] = t[12]!; e[10] = t[13]!; e[11] = t[14]!;
  const f = sideA.axes;
  f.fill(0, 0, 9);
  f[0] = 1; f[4] = 1; f[8] = 1;
  let axes = 3;
  if (a && b && d > 0 && Number.isFinite(d)) {
    const nx = (b.x - a.x) / d, ny = (b.y - a.y) / d, nz = (b.z - a.z) / d;
    // u: n crossed with the axis it is least along, then v = n × u
    const ax = Math.abs(nx), ay = Math.abs(ny), az = Math.abs(nz);
    let ux: number, uy: number, uz: number;
    if (ax <= ay && ax <= az) { ux = 0; uy = nz; uz = -ny; } else if (ay <= az) { ux = -nz; uy = 0; uz = nx; } else { ux = ny; uy = -nx; uz = 0; }
    const ul = Math.hypot(ux, uy, uz);
    ux /= ul; uy /= ul; uz /= ul;
    f[9] = nx; f[10] = ny; f[11] = nz; f[12] = ux; f[13] = uy; f[14] = uz;
    f[15] = ny * uz - nz * uy; f[16] = nz * ux - nx * uz; f[17] = nx * uy - ny * ux;
    axes = 6;
  }
  sideA.offset.fill(0);
  // in B's frame an axis w of A's is Rᵀw, and B's origin sits at w·t along it
  for (let k = 0; k < axes; k++) {
    const wx = f[3 * k]!, wy = f[3 * k + 1]!, wz = f[3 * k + 2]!;
    sideB.axes[3 * k] = e[0]! * wx + e[3]! * wy + e[6]! * wz;
    sideB.axes[3 * k + 1] = e[1]! * wx + e[4]! * wy + e[7]! * wz;
    sideB.axes[3 * k + 2] = e[2]! * wx + e[5]! * wy + e[8]! * wz;
    sideB.offset[k] = wx * e[9]! + wy * e[10]! + wz * e[11]!;
  }
  return axes;
}
