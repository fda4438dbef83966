/**
 * Zeroed Float64Arrays carved from shared slabs. V8 keeps a typed array of more than 64
 * bytes off the JS heap, and each such allocation costs about ten times an on-heap one;
 * derivative vectors (a dual of width 57 holds 171 numbers) are allocated by the hundred per
 * metric evaluation. A view of a slab is an ordinary Float64Array (nothing in the code
 * base reads `.buffer`); a slab is freed when the last view on it is.
 */
const SLAB = 2048;
/** Below this length a fresh array is on the JS heap and cheaper than a view. */
const ON_HEAP = 8;
let slab = new Float64Array(SLAB);
let used = 0;

export function zeroedFloats(n: number): Float64Array {
  if (n <= ON_HEAP || n > SLAB / 4) return new Float64Array(n);
  if (used + n > SLAB) { slab = new Float64Array(SLAB); used = 0; }
  const out = slab.subarray(used, used + n);
  used += n;
  return out;
}
