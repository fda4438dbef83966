/**
 * `xs.map(f)` that always makes a packed array.
 *
 * V8's builtin Array.prototype.map makes a packed array, but TurboFan's inlined map makes a
 * holey one (it allocates the full length first). Once the function calling map is
 * optimised, every reader of its result that was compiled on the packed array meets a
 * second array map and deoptimises ("wrong map"), then recompiles: in a sweep that is a
 * chain of deopts and background recompiles (tens of ms of CPU each) well after warm-up.
 * Pushing keeps one map in every tier. For arrays made per state on a hot path.
 */
export function packedMap<T, U>(xs: readonly T[], f: (x: T, i: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < xs.length; i++) out.push(f(xs[i], i));
  return out;
}
