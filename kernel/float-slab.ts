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

/**
 * Scoped reuse of derivative storage. A dual evaluation whose every dual is dead once its
 * results are copied out (the adjoint's metric evaluation, once per state) makes the same
 * hundred-odd arrays at every state; within `reusingFloats(fn)`, `scratchFloats` hands back
 * those of the last such scope, zeroed, instead of new views (making a view costs far more
 * than zeroing it, and dead views and slabs are the collector's work). The caller promises
 * that nothing made inside fn is read after the outermost scope returns: the next scope
 * overwrites it. Outside a scope it is zeroedFloats.
 */
let scopeDepth = 0;
/** Per length: the arrays kept and how many the current scope has handed out. */
const pools: { list: Float64Array[]; next: number }[] = [];

export function scratchFloats(n: number): Float64Array {
  return scratchOf(n, true);
}

/**
 * scratchFloats for an array its caller overwrites whole before reading any of it (a dual
 * operation's result): a reused one keeps the last scope's numbers rather than being zeroed
 * (a quarter of a state's arrays' cost went to zeroing them). Outside a scope: zeroedFloats.
 */
export function overwrittenFloats(n: number): Float64Array {
  return scratchOf(n, false);
}

function scratchOf(n: number, zero: boolean): Float64Array {
  if (scopeDepth === 0) return zeroedFloats(n);
  const p = (pools[n] ??= { list: [], next: 0 });
  if (p.next < p.list.length) {
    const a = p.list[p.next++];
    if (zero) a.fill(0);
    return a;
  }
  const a = zeroedFloats(n);
  p.list.push(a);
  p.next++;
  return a;
}

export function reusingFloats<T>(fn: () => T): T {
  scopeDepth++;
  try {
    return fn();
  } finally {
    if (--scopeDepth === 0) for (const p of pools) if (p) p.next = 0;
  }
}
