/** Random draws for fuzzing poses and points: uniform numbers, vectors, and quaternions that are deliberately not unit (a pose's quaternion need not be). */
export type Rand = () => number;
export const between = (r: Rand, lo: number, hi: number) => lo + (hi - lo) * r();
export const vec = (r: Rand, s = 1): [number, number, number] => [between(r, -s, s), between(r, -s, s), between(r, -s, s)];
export const quat = (r: Rand): [number, number, number, number] => {
  const q = [between(r, -1, 1), between(r, -1, 1), between(r, -1, 1), between(r, -1, 1)];
  const k = between(r, 0.6, 1.7) / (Math.hypot(...q) || 1);
  return [q[0] * k, q[1] * k, q[2] * k, q[3] * k];
};
