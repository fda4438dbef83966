import type { Geometry } from '../../src/suspension/files';

/**
 * The geometry with the hardpoint coordinate a gradient key names moved by d: `<name>.x`
 * on a corner file, `left.<name>.x` / `right.…` / `center.…` on an axle.
 */
export function movedHardpoint(g: Geometry, key: string, d: number): Geometry {
  const parts = key.split('.');
  const c = { x: 0, y: 1, z: 2 }[parts[parts.length - 1] as 'x' | 'y' | 'z'];
  const out = structuredClone(g);
  const points = parts.length === 2 ? out.corners[0].hardpoints : parts[0] === 'center' ? out.center! : out.corners.find((k) => k.side === parts[0])!.hardpoints;
  points[parts[parts.length - 2]][c] += d;
  return out;
}

/**
 * An exact gradient entry's error against a central difference: relative to the entry,
 * floored at 1e-3 of the metric's largest entry (a driven metric's are all zero) and at
 * `floor`.
 */
export function gradientError(exact: number, fd: number, gradient: Readonly<Record<string, number>>, floor: number): number {
  const scale = Math.max(Math.abs(fd), 1e-3 * Math.max(...Object.values(gradient).map(Math.abs)), floor);
  return Math.abs(exact - fd) / scale;
}
