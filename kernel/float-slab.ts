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
let slab = new ArrayBuffer(SLAB * 8);
let used = 0;

export function zeroedFloats(n: number): Float64Array {
  if (n <= ON_HEAP || n > SLAB / 4) return new Float64Array(n);
  if (used + n > SLAB) { slab = new ArrayBuffer(SLAB * 8); used = 0; }
  // a view made by the constructor: cheaper than subarray's species lookup
  const out = new Float64Array(slab, used * 8, n);
  used += n;
  return out;
}
