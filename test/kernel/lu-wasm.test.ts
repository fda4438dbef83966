/**
 * kernel/lu-wasm-encode.ts and lu-wasm.ts: the LEB128 numbers against a decoder written out
 * here (fast-check) and the specification's examples; and one PatternLU whose arena moves to a
 * larger memory (a larger analysis after a smaller one: every view made again, the old memory
 * dropped, never grown: a detached ArrayBuffer slows every typed array in V8) factoring and
 * solving as the plain elimination and sweeps do on the same pattern, bit for bit: for the
 * large system (SPLIT_MIN unknowns or more) the plain loops written out in the split loops'
 * order (reciprocal pivots, the row sums in four). The scan of a list written in place (its
 * kept entries put in place, each entry scaled, the largest |x|, a nonzero sink) against the
 * same written out one entry at a time.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sleb, uleb } from '../../kernel/lu-wasm-encode';
import { PatternLU, SPLIT_MIN } from '../../kernel/lu-refactor';
import { LU } from '../../kernel/linalg';
import { OrderedLU, minimumDegreeOrder } from '../../kernel/lu-ordered';
import { LUArena } from '../../kernel/lu-wasm';
import { rng } from '../util/rng';

/** LEB128 back to a number (signed: sign-extended from the last group's bit 6). */
function decode(bytes: number[], signed: boolean): number {
  let x = 0n, shift = 0n, last = 0;
  for (const b of bytes) { x |= BigInt(b & 0x7f) << shift; shift += 7n; last = b; }
  if (signed && last & 0x40) x -= 1n << shift;
  return Number(x);
}

/** [M, Jᵀ; J, 0] with 3×3 mass blocks in a chain, a constraint row on each neighbouring pair (random columns). */
function saddle(r: () => number, blocks: number): { A: Float64Array; N: number } {
  const n = 3 * blocks, rows = blocks - 1, N = n + rows, A = new Float64Array(N * N);
  for (let b = 0; b < blocks; b++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) A[(3 * b + i) * N + 3 * b + j] = i === j ? 1 + r() : 0.2 * (r() - 0.5);
  for (let k = 0; k < rows; k++) {
    const b = k;
    for (const c of [3 * b + Math.floor(r() * 3), 3 * (b + 1) + Math.floor(r() * 3)]) { const x = r() - 0.5; A[(n + k) * N + c] = x; A[c * N + n + k] = x; }
  }
  return { A, N };
}

/** s − Σ val[e] y[col[e]] over [from, to) in order; `split` (four or more entries): the entries in turn into s and three sums from zero, (s + s₁) + (s₂ + s₃), while four are left, then the rest into that. */
function rowSum(s: number, val: Float64Array, col: Int32Array, y: Float64Array, from: number, to: number, split: boolean): number {
  let e = from;
  if (split && to - from >= 4) {
    let s1 = 0, s2 = 0, s3 = 0;
    for (; e + 4 <= to; e += 4) {
      s -= val[e] * y[col[e]]; s1 -= val[e + 1] * y[col[e + 1]]; s2 -= val[e + 2] * y[col[e + 2]]; s3 -= val[e + 3] * y[col[e + 3]];
    }
    s = (s + s1) + (s2 + s3);
  }
  for (; e < to; e++) s -= val[e] * y[col[e]];
  return s;
}

type Fields = { val: Float64Array; col: Int32Array; rowStart: Int32Array; diagPos: Int32Array; rowOf: Int32Array; colOf: Int32Array; map: Int32Array };

describe('the sparse LU\'s WebAssembly', () => {
  it('writes LEB128 numbers that decode to themselves, and the specification\'s examples', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (x) => decode(uleb(x), false) === x), { numRuns: 2000 });
    fc.assert(fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (x) => decode(sleb(x), true) === x), { numRuns: 2000 });
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
    expect(sleb(64)).toEqual([0xc0, 0x00]);
    expect(sleb(-64)).toEqual([0x40]);
  });

  it('factors and solves as the plain elimination and sweeps, after a larger memory took over for a larger analysis', () => {
    const r = rng(11), pattern = new PatternLU(1200, 100);
    const arena = (pattern as unknown as { arena: { memory: WebAssembly.Memory } }).arena, first = arena.memory.buffer;
    for (const blocks of [4, 300, 5]) {
      const { A, N } = saddle(r, blocks);
      const perm = new Int32Array(N), lu = new LU(N);
      minimumDegreeOrder(A, N, perm);
      expect(lu.factor(A, N, 1e-14, perm, 0.1)).toBe(true);
      pattern.analyse(A, N, perm, lu);
      expect(pattern.refactor(A, N, 1e-14)).toBe(true);
      const f = pattern as unknown as Fields;
      // the plain elimination on the pattern through a dense work row; a large system's
      // (SPLIT_MIN) with reciprocal pivots, its sums four in turn (lu-wasm.ts eliminateSplit, solveSplit)
      const split = N >= SPLIT_MIN, inv = new Float64Array(N);
      const val = new Float64Array(f.val.length), w = new Float64Array(N);
      for (let i = 0; i < N * N; i++) if (A[i] !== 0) val[f.map[i]] = A[i];
      for (let k = 0; k < N; k++) {
        for (let e = f.rowStart[k]; e < f.rowStart[k + 1]; e++) w[f.col[e]] = val[e];
        for (let e = f.rowStart[k]; e < f.diagPos[k]; e++) {
          const j = f.col[e], l = split ? w[j] * inv[j] : w[j] / val[f.diagPos[j]];
          w[j] = l;
          for (let g = f.diagPos[j] + 1; g < f.rowStart[j + 1]; g++) w[f.col[g]] -= l * val[g];
        }
        for (let e = f.rowStart[k]; e < f.rowStart[k + 1]; e++) val[e] = w[f.col[e]];
        inv[k] = 1 / val[f.diagPos[k]];
      }
      expect(Array.from(f.val)).toEqual(Array.from(val));
      // the plain sweeps, with and without scales; b and D of the system's size or longer (a workspace's, its tail untouched)
      for (const [D, extra] of [[null, 0], [Float64Array.from({ length: N }, (_, i) => 2 ** ((i % 5) - 2)), 0], [null, 3], [Float64Array.from({ length: N + 2 }, (_, i) => 2 ** ((i % 3) - 1)), 2]] as const) {
        const b = Float64Array.from({ length: N + extra }, () => r() - 0.5), x = b.slice(), y = new Float64Array(N), want = b.slice();
        pattern.solve(x, D);
        for (let k = 0; k < N; k++) y[k] = D ? b[f.rowOf[k]] * D[f.rowOf[k]] : b[f.rowOf[k]];
        for (let k = 0; k < N; k++) y[k] = rowSum(y[k], val, f.col, y, f.rowStart[k], f.diagPos[k], split);
        for (let k = N - 1; k >= 0; k--) {
          const s = rowSum(y[k], val, f.col, y, f.diagPos[k] + 1, f.rowStart[k + 1], split);
          y[k] = split ? s * inv[k] : s / val[f.diagPos[k]];
        }
        for (let j = 0; j < N; j++) want[f.colOf[j]] = D ? y[j] * D[f.colOf[j]] : y[j];
        expect(Array.from(x)).toEqual(Array.from(want));
      }
    }
    // the large analysis did not fit the first page: a larger memory took over, and the first one was not detached
    expect(arena.memory.buffer.byteLength).toBeGreaterThan(65536);
    expect(first.byteLength).toBe(65536);
  });

  it('refactors a compact list placed after a large analysis (the arena moved, the analysis carried over) as the n² matrix', () => {
    const r = rng(12), { A, N } = saddle(r, 300);
    // every entry listed, zeros too: a list too long for the room the analysis left
    const list = Int32Array.from(A.keys()), values = Float64Array.from(list, (e) => A[e]);
    const compact = new OrderedLU(N, true, true), plain = new OrderedLU(N, true, true), out = new Float64Array(N * N);
    for (let round = 0; round < 2; round++) {
      expect(compact.factorCompact(values, list, out, N, 1e-15)).toBe(true);
      expect(plain.factor(A, N, 1e-15, list, list.length)).toBe(true);
    }
    expect(compact.refactored).toBe(1);
    const b = Float64Array.from({ length: N }, () => r() - 0.5), x = b.slice(), y = b.slice();
    compact.solve(x); plain.solve(y);
    expect(Array.from(x)).toEqual(Array.from(y));
  });

  it('scans a list written in place as one entry at a time: kept entries placed, products stored, the largest |x|, a nonzero sink', () => {
    const r = rng(13);
    for (const [count, sinks, kept] of [[0, 0, 0], [1, 1, 0], [7, 3, 2], [8, 0, 5], [9, 5, 1], [250, 17, 40], [251, 16, 41]]) {
      for (const trial of ['plain', 'NaN', 'sink', 'NaN sink', 'kept sink']) {
        const arena = new LUArena();
        arena.layout(3, count, 1);
        const buf = arena.list(count, sinks, kept), at = arena.at;
        const val = new Float64Array(buf, at.val, count), valScale = new Float64Array(buf, at.valScale, count);
        const sink = new Float64Array(buf, at.sink, sinks), sinkScale = new Float64Array(buf, at.sinkScale, sinks);
        const keptValue = new Float64Array(buf, at.keptValue, kept), keptPlace = new Int32Array(buf, at.keptPlace, kept);
        // a quarter exact zeros (+0 and −0), scales powers of two, kept entries over distinct factor places (or the last sink)
        for (let i = 0; i < count; i++) { val[i] = r() < 0.25 ? (r() < 0.5 ? 0 : -0) : (r() - 0.5) * 2 ** Math.floor(20 * r() - 10); valScale[i] = 2 ** Math.floor(8 * r() - 4); }
        for (let k = 0; k < sinks; k++) sinkScale[k] = 2 ** Math.floor(8 * r() - 4);
        for (let k = 0; k < kept; k++) { keptValue[k] = r() - 0.5; keptPlace[k] = at.val + 8 * ((k * 7) % count); }
        if (trial === 'NaN' && count) val[count - 1] = NaN;
        if (trial === 'sink' && sinks) sink[(sinks * 3) >> 2] = 1e-300;
        if (trial === 'NaN sink' && sinks) sink[sinks - 1] = NaN;
        if (trial === 'kept sink' && sinks && kept) keptPlace[kept - 1] = at.sink + 8 * (sinks - 1);
        // one at a time: the kept values placed, x = v · s stored, the largest |x| (a NaN never larger), any sink's product ≠ 0
        const mem = new Float64Array(buf), want = val.slice();
        for (let k = 0; k < kept; k++) { const a = keptPlace[k]; if (a < at.sink) want[(a - at.val) / 8] = keptValue[k]; }
        let largest = 0;
        for (let i = 0; i < count; i++) { want[i] *= valScale[i]; const a = Math.abs(want[i]); if (a > largest) largest = a; }
        const sinkAfter = sink.slice();
        for (let k = 0; k < kept; k++) if (keptPlace[k] >= at.sink) sinkAfter[(keptPlace[k] - at.sink) / 8] = keptValue[k];
        const nonzeroSink = Array.from(sinkAfter).some((x, k) => x * sinkScale[k] !== 0);
        const got = arena.scan(count, sinks, kept);
        expect(got, `${count} entries, ${trial}`).toBe(nonzeroSink ? -1 : largest);
        for (let i = 0; i < count; i++) expect(Object.is(mem[at.val / 8 + i], want[i]), `${count} entries, ${trial}: entry ${i}`).toBe(true);
        if (trial.endsWith('sink') && sinks && (trial !== 'kept sink' || kept)) expect(nonzeroSink).toBe(true);
      }
    }
  });
});
