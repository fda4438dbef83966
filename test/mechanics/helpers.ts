/** Central differences of a force block's Q through each variable's retraction and in its velocities (tests only). */
import type { ForceBlock } from '../../kernel/forces';
import type { System } from '../../kernel/system';

export function forceDerivatives(system: System, block: ForceBlock, velocity: Float64Array, t: number, h = 1e-6) {
  const offsets = new Int32Array(block.vars.map((v) => system.variables[v].offset));
  const d = block.vars.reduce((s, v) => s + system.variables[v].dim, 0);
  const Q = new Float64Array(d), K = new Float64Array(d * d), C = new Float64Array(d * d);
  block.evaluate(system.state, offsets, velocity, t, Q, K, C);
  const Kfd = new Float64Array(d * d), Cfd = new Float64Array(d * d);
  const plus = new Float64Array(d), minus = new Float64Array(d);
  const snapshot = system.snapshot();
  let col = 0;
  for (const vid of block.vars) {
    const v = system.variables[vid];
    for (let k = 0; k < v.dim; k++, col++) {
      const step = new Float64Array(v.dim);
      step[k] = h; system.retractVariable(v, step, 0);
      block.evaluate(system.state, offsets, velocity, t, plus, null, null);
      system.restore(snapshot);
      step[k] = -h; system.retractVariable(v, step, 0);
      block.evaluate(system.state, offsets, velocity, t, minus, null, null);
      system.restore(snapshot);
      for (let r = 0; r < d; r++) Kfd[r * d + col] = (plus[r] - minus[r]) / (2 * h);
      const vel = velocity.slice();
      vel[col] += h; block.evaluate(system.state, offsets, vel, t, plus, null, null);
      vel[col] -= 2 * h; block.evaluate(system.state, offsets, vel, t, minus, null, null);
      for (let r = 0; r < d; r++) Cfd[r * d + col] = (plus[r] - minus[r]) / (2 * h);
    }
  }
  return { Q, K, C, Kfd, Cfd, d };
}

/** Largest |a − b| relative to the largest |b| (plus a floor). */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>, floor = 1e-9): number {
  let m = 0, s = floor;
  for (let i = 0; i < a.length; i++) { m = Math.max(m, Math.abs(a[i] - b[i])); s = Math.max(s, Math.abs(b[i])); }
  return m / s;
}
