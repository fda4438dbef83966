/**
 * A DOE's variants by index, so a run of ten million never holds them all: a grid's and a
 * list's are computed from the index; a Latin hypercube's need each coordinate's strata
 * permutation. Up to STORED_LHS samples that permutation is the seeded Fisher–Yates shuffle
 * it always was (the same variants as before for those sizes), kept as one Float64Array of
 * samples per coordinate (8 bytes × samples × coordinates: 8 MB per coordinate at a
 * million). Above that, each permutation is a seeded Feistel bijection of [0, samples)
 * (cycle-walked) and each jitter a hash of (seed, coordinate, index): O(1) memory.
 */
import { seededRandom } from '../../../kernel/random';

export interface DoeSampling {
  type: 'grid' | 'latin_hypercube' | 'list';
  levels?: number;
  samples?: number;
  seed?: number;
  variants?: number[][];
}

export interface DoeRange { low: number; high: number }

/** The variants of a DOE: how many, and each one's moves (one per varied coordinate). */
export interface DoeVariantSource { count: number; at(index: number): number[] }

/** Latin hypercubes of at most this many samples keep their stored Fisher–Yates columns. */
export const STORED_LHS = 1_000_000;

export function variantSource(vary: readonly DoeRange[], s: DoeSampling): DoeVariantSource {
  if (s.type === 'list') return { count: s.variants!.length, at: (i) => [...s.variants![i]] };
  if (s.type === 'grid') {
    const levels = s.levels!;
    return {
      count: levels ** vary.length,
      at(i) {
        let rest = i;
        return vary.map((c) => {
          const level = rest % levels;
          rest = Math.floor(rest / levels);
          return c.low + ((c.high - c.low) * level) / (levels - 1);
        });
      },
    };
  }
  const n = s.samples!;
  return n <= STORED_LHS ? storedHypercube(vary, n, s.seed ?? 1) : streamedHypercube(vary, n, s.seed ?? 1);
}

/** Each coordinate's range cut in `n` strata, each used once: Fisher–Yates from one seeded stream. */
function storedHypercube(vary: readonly DoeRange[], n: number, seed: number): DoeVariantSource {
  const rnd = seededRandom(seed);
  const columns = vary.map((c) => {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = n - 1; i > 0; i--) { const j = Math.floor(rnd() * (i + 1)); const t = order[i]; order[i] = order[j]; order[j] = t; }
    const col = new Float64Array(n);
    for (let i = 0; i < n; i++) col[i] = c.low + ((c.high - c.low) * (order[i] + rnd())) / n;
    return col;
  });
  return { count: n, at: (i) => columns.map((col) => col[i]) };
}

/** As storedHypercube, with each permutation a keyed Feistel bijection and each jitter a hash. */
function streamedHypercube(vary: readonly DoeRange[], n: number, seed: number): DoeVariantSource {
  let bits = 2;
  while (2 ** bits < n) bits += 2;
  const half = bits / 2, mask = 2 ** half - 1;
  const keys = vary.map((_, c) => Array.from({ length: 4 }, (_, r) => mix(seed, c, r, 0x9e3779b9)));
  const permute = (c: number, i: number) => {
    let x = i;
    do {
      let l = x >>> half, r = x & mask;
      for (const k of keys[c]) { const t = l ^ (mix(r, k, c, 0x85ebca6b) & mask); l = r; r = t; }
      x = (l << half) | r;
    } while (x >= n); // cycle-walk back into [0, n)
    return x;
  };
  return {
    count: n,
    at: (i) => vary.map((c, k) => c.low + ((c.high - c.low) * (permute(k, i) + mix(seed, k, i, 0xc2b2ae35) / 2 ** 32)) / n),
  };
}

/** A 32-bit hash of four integers (murmur3's finaliser over their combination), unsigned. */
function mix(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x27d4eb2f, 0x165667b1) ^ Math.imul(b + 0x3c6ef372, 0x85ebca6b) ^ Math.imul(c + 0x1b873593, 0xcc9e2d51) ^ d;
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
