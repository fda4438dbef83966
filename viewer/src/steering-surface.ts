/** The surface the physical steering axis sweeps through a bump sweep, as triangles between successive axes. */
import { BufferAttribute, type BufferGeometry } from 'three';
import type { Vec3Tuple } from '../../src/index.ts';

/** Fills `g` with the strip between successive `axes` (each extended like the drawn axis). */
export function fillAxisSurface(g: BufferGeometry, axes: readonly [Vec3Tuple, Vec3Tuple][]): void {
  const n = axes.length;
  const pos = new Float32Array(n * 2 * 3);
  axes.forEach(([a, b], i) => {
    // extend each axis like the drawn one
    const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    pos.set([a[0] - 0.3 * d[0], a[1] - 0.3 * d[1], a[2] - 0.3 * d[2]], i * 6);
    pos.set([a[0] + 1.25 * d[0], a[1] + 1.25 * d[1], a[2] + 1.25 * d[2]], i * 6 + 3);
  });
  const index: number[] = [];
  for (let i = 0; i + 1 < n; i++) index.push(2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 1, 2 * i + 3, 2 * i + 2);
  g.setAttribute('position', new BufferAttribute(pos, 3));
  g.setIndex(index);
  g.computeBoundingSphere();
}
