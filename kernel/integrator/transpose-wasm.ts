/**
 * Jᵀλ block by block (rows.ts addTransposeTimesByBlock) as WebAssembly, for a large system's
 * rows (a whole car: 139 rows, ~1.5k terms, ~5 a Newton iteration). In V8's code for the
 * JavaScript loops every slab read is bounds-checked and each loop re-checks its arrays; here a
 * term is its load, a multiply and an add (as in lu-wasm.ts, whose encoder it shares).
 * WebAssembly's f64 arithmetic is IEEE 754's, as JavaScript's: each block's column sums are the
 * JavaScript's, term for term in row order, a zero λ skipped alike, so r is the same to the bit
 * (test/kernel/integrator/transpose-wasm.test.ts).
 *
 * The slab (each block's Jacobian, written by the blocks through their views) lives in this
 * memory, with the lists; λ and r are copied in and r out per call (a memory copy each). The
 * memory is sized once and never grown (lu-wasm.ts: a grown memory detaches its buffer, which
 * slows every typed-array access of the process).
 */
import { F64, I32, VOID, f64, get, i32, loadF64, loadI32, op, set, storeF64, wasmModule, type WasmFunction } from '../lu-wasm-encode';

// locals: the parameters, then the block's fields and the pointers, then λ and the sum
const L = { blocks: 0, table: 1, cols: 2, slabs: 3, tp: 4, lam: 5, rows: 6, ld: 7, cp: 8, sp: 9, end: 10, x: 11, c: 12, k: 13, zero: 14, t: 15, l0: 16, s: 22 } as const;

/** The table's five i32 a block: λ's address of its first row, its rows, its slab row stride in bytes, its first and end entry's offset in the lists (bytes). */
const FIELDS = 5;

/** s += slab[x + j·ld] · l_j for rows j = 0 … count − 1 (x the entry's first-row address). */
function terms(count: number): number[] {
  const out: number[] = [...get(L.x), ...set(L.t)];
  for (let j = 0; j < count; j++) {
    if (j > 0) out.push(...get(L.t), ...get(L.ld), op.i32Add, ...set(L.t));
    out.push(...get(L.s), ...get(L.t), ...loadF64(), ...get(L.l0 + j), op.f64Mul, op.f64Add, ...set(L.s));
  }
  return out;
}

/** For each entry from cp to end: c ← r's address, x ← the slab's, s ← r[c]; `body`; r[c] ← s. */
function entries(body: number[]): number[] {
  return [
    op.block, VOID, op.loop, VOID,
    ...get(L.cp), ...get(L.end), op.i32GeU, op.brIf, 1,
    ...get(L.cp), ...loadI32(), ...set(L.c), ...get(L.sp), ...loadI32(), ...set(L.x),
    ...get(L.c), ...loadF64(), ...set(L.s),
    ...body,
    ...get(L.c), ...get(L.s), ...storeF64(),
    ...get(L.cp), ...i32(4), op.i32Add, ...set(L.cp), ...get(L.sp), ...i32(4), op.i32Add, ...set(L.sp),
    op.br, 0, op.end, op.end,
  ];
}

/** The general block (some λ zero, or another row count): each row's term where its λ is nonzero. */
function general(): number[] {
  return entries([
    ...get(L.x), ...set(L.t), ...i32(0), ...set(L.k),
    op.block, VOID, op.loop, VOID,
    ...get(L.k), ...get(L.rows), op.i32GeS, op.brIf, 1,
    ...get(L.lam), ...get(L.k), ...i32(3), op.i32Shl, op.i32Add, ...loadF64(), ...set(L.l0),
    ...get(L.l0), ...f64(0), op.f64Ne, op.if, VOID,
    ...get(L.s), ...get(L.t), ...loadF64(), ...get(L.l0), op.f64Mul, op.f64Add, ...set(L.s),
    op.end,
    ...get(L.t), ...get(L.ld), op.i32Add, ...set(L.t),
    ...get(L.k), ...i32(1), op.i32Add, ...set(L.k),
    op.br, 0, op.end, op.end,
  ]);
}

/** if rows = count (and no λ zero): λ into l0 … and the entries' unrolled sums; else `otherwise`. */
function unrolled(count: number, otherwise: number[]): number[] {
  const loads: number[] = [];
  for (let j = 0; j < count; j++) loads.push(...get(L.lam), ...loadF64(8 * j), ...set(L.l0 + j));
  return [...get(L.rows), ...i32(count), op.i32Eq, op.if, VOID, ...loads, ...entries(terms(count)), op.else, ...otherwise, op.end];
}

/**
 * transpose(blocks, table, cols, slabs): r += Jᵀλ block by block; the table as FIELDS says,
 * the lists' entries r's byte address of the column (cols) and the slab's of its first row's
 * entry (slabs) side by side at the same offsets.
 */
const transpose: WasmFunction = {
  name: 'transpose', params: [I32, I32, I32, I32], results: [], locals: [[12, I32], [7, F64]],
  body: [
    ...get(L.table), ...set(L.tp),
    op.block, VOID, op.loop, VOID,
    ...get(L.blocks), op.i32Eqz, op.brIf, 1,
    ...get(L.tp), ...loadI32(0), ...set(L.lam), ...get(L.tp), ...loadI32(4), ...set(L.rows), ...get(L.tp), ...loadI32(8), ...set(L.ld),
    ...get(L.tp), ...loadI32(12), ...get(L.cols), op.i32Add, ...set(L.cp),
    ...get(L.tp), ...loadI32(16), ...get(L.cols), op.i32Add, ...set(L.end),
    ...get(L.tp), ...loadI32(12), ...get(L.slabs), op.i32Add, ...set(L.sp),
    // zero: 1 where some λ of the block is exactly zero
    ...i32(0), ...set(L.zero), ...i32(0), ...set(L.k),
    op.block, VOID, op.loop, VOID,
    ...get(L.k), ...get(L.rows), op.i32GeS, op.brIf, 1,
    ...get(L.lam), ...get(L.k), ...i32(3), op.i32Shl, op.i32Add, ...loadF64(), ...f64(0), op.f64Eq, op.if, VOID, ...i32(1), ...set(L.zero), op.end,
    ...get(L.k), ...i32(1), op.i32Add, ...set(L.k),
    op.br, 0, op.end, op.end,
    ...get(L.zero), op.if, VOID, ...general(), op.else,
    ...unrolled(6, unrolled(3, unrolled(1, general()))),
    op.end,
    ...get(L.tp), ...i32(4 * FIELDS), op.i32Add, ...set(L.tp),
    ...get(L.blocks), ...i32(1), op.i32Sub, ...set(L.blocks),
    op.br, 0, op.end, op.end,
  ],
};

let compiled: WebAssembly.Module | null = null;

/** The car's rows' Jᵀλ in its own memory: the slab, λ, r and the lists. */
export class TransposeArena {
  /** The blocks' Jacobians (rows.ts's slab), λ and r as the call sees them: views of the memory. */
  readonly slab: Float64Array;
  private readonly lambda: Float64Array;
  private readonly r: Float64Array;
  private readonly blocks: number;
  private readonly table: number;
  private readonly cols: number;
  private readonly slabs: number;
  private readonly run: (blocks: number, table: number, cols: number, slabs: number) => void;

  /**
   * For `slabSize` slab numbers, m rows and n columns; each block's first row and row count,
   * its slab's start and row stride (in numbers), and its free columns (column[e] with the slab
   * place slabAt[e] of its first row's entry, block i's at [start[i], start[i + 1])).
   */
  constructor(slabSize: number, m: number, n: number, row0: Int32Array, slabStride: Int32Array, start: Int32Array, column: Int32Array, slabAt: Int32Array) {
    const blocks = slabStride.length, count = column.length;
    let top = 0;
    const take = (bytes: number): number => { const at = top; top += (bytes + 7) & ~7; return at; };
    const slab = take(8 * Math.max(1, slabSize)), lambda = take(8 * m), r = take(8 * n);
    const table = take(4 * FIELDS * blocks), cols = take(4 * count), slabs = take(4 * count);
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(top / 65536)) });
    compiled ??= new WebAssembly.Module(wasmModule([transpose]));
    this.run = new WebAssembly.Instance(compiled, { env: { memory } }).exports.transpose as TransposeArena['run'];
    const buf = memory.buffer;
    this.slab = new Float64Array(buf, slab, Math.max(1, slabSize));
    this.lambda = new Float64Array(buf, lambda, m);
    this.r = new Float64Array(buf, r, n);
    const t = new Int32Array(buf, table, FIELDS * blocks);
    for (let i = 0; i < blocks; i++) {
      t.set([lambda + 8 * row0[i], row0[i + 1] - row0[i], 8 * slabStride[i], 4 * start[i], 4 * start[i + 1]], FIELDS * i);
    }
    new Int32Array(buf, cols, count).set(Int32Array.from(column, (c) => r + 8 * c));
    new Int32Array(buf, slabs, count).set(Int32Array.from(slabAt, (x) => slab + 8 * x));
    this.blocks = blocks; this.table = table; this.cols = cols; this.slabs = slabs;
  }

  /** r += Jᵀλ (all rows, the slab as the blocks last wrote it). */
  addTransposeTimes(r: Float64Array, lambda: Float64Array): void {
    this.lambda.set(lambda);
    this.r.set(r);
    this.run(this.blocks, this.table, this.cols, this.slabs);
    r.set(this.r);
  }
}
