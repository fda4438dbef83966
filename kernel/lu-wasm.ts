/**
 * The pattern refactor's elimination and solve (lu-refactor.ts) as WebAssembly. In V8's code
 * for the same loops in JavaScript every pass re-checks each typed array's map and reloads its
 * length and data pointer, and every index is bounds- and overflow-checked: ~15 instructions
 * a term where the arithmetic is two. Here a term is its loads, a multiply and a subtract.
 * WebAssembly's f64 arithmetic is IEEE 754's, as JavaScript's (no fused multiply-adds), and
 * `solve` and `eliminate` do the JavaScript's operations in its order: the same factors and
 * solutions to the bit (test/kernel/lu-compact.test.ts, lu-ordered.test.ts: against plain
 * sweeps and a dense work row's elimination). `solveSplit` and `eliminateSplit`, for large
 * systems only (lu-refactor.ts SPLIT_MIN), reorder them: reciprocal pivots and each long row's
 * sum in four (lu-wasm.test.ts mirrors their order bit for bit, lu-split.test.ts checks them
 * against a dense LU).
 *
 * Each PatternLU has its own memory (`LUArena`); its arrays live there, laid out per analysis.
 */
import { InternalError } from './errors';
import { F64, I32, V128, VOID, address, f64, get, i32, loadF64, loadI32, loadV128, op, set, simd, storeF64, storeV128, tee, v128, wasmModule, type WasmFunction } from './lu-wasm-encode';

// solve's locals
const S = { n: 0, rowStart: 1, diagPos: 2, rowOf: 3, colOf: 4, val: 5, yAt: 6, y: 7, b: 8, scale: 9, inv: 10, k: 11, at: 12, cp: 13, end: 14, r: 15, s: 16, x: 17, s1: 18, s2: 19, s3: 20 } as const;

/** s −= val[e] · y[col[e]] (accumulator `acc`) for the entry `j` places past `at`, `cp` alongside in yAt (y[col[e]]'s address). */
function term(j: number, acc: number): number[] {
  return [...get(acc), ...get(S.at), ...loadF64(8 * j), ...get(S.cp), ...loadI32(4 * j), ...loadF64(), op.f64Mul, op.f64Sub, ...set(acc)];
}

/** The entries four a pass while four are left, into the accumulators `accs` (one, or four in turn); at and cp moved past them. */
function fours(accs: readonly number[]): number[] {
  return [
    op.block, VOID, op.loop, VOID,
    ...get(S.at), ...i32(24), op.i32Add, ...get(S.end), op.i32GeU, op.brIf, 1,
    ...[0, 1, 2, 3].flatMap((j) => term(j, accs[j % accs.length])),
    ...get(S.at), ...i32(32), op.i32Add, ...set(S.at), ...get(S.cp), ...i32(16), op.i32Add, ...set(S.cp),
    op.br, 0, op.end, op.end,
  ];
}

/**
 * s −= val[e] · y[col[e]] for the entries from `at` (val's address) to `end`, `cp` their
 * y addresses' (yAt) alongside. `split` false: four terms a pass while four are left (the loop's own
 * compare, branch and steps were as many instructions as a term's), then one a pass: the
 * same subtractions in the same order. `split`: a row of four or more takes its entries in
 * turn into four sums (s and three from zero), added as (s + s₁) + (s₂ + s₃) before the rest
 * go into s one a pass: four dependency chains a quarter as long (each subtraction waits on
 * the one before it in its sum), other roundings.
 */
function rowSum(split: boolean): number[] {
  const quads = split
    ? [
      ...get(S.at), ...i32(24), op.i32Add, ...get(S.end), op.i32LtU, op.if, VOID,
      ...f64(0), ...set(S.s1), ...f64(0), ...set(S.s2), ...f64(0), ...set(S.s3),
      ...fours([S.s, S.s1, S.s2, S.s3]),
      ...get(S.s), ...get(S.s1), op.f64Add, ...get(S.s2), ...get(S.s3), op.f64Add, op.f64Add, ...set(S.s),
      op.end,
    ]
    : fours([S.s]);
  return [
    ...quads,
    op.block, VOID, op.loop, VOID,
    ...get(S.at), ...get(S.end), op.i32GeU, op.brIf, 1,
    ...term(0, S.s),
    ...get(S.at), ...i32(8), op.i32Add, ...set(S.at), ...get(S.cp), ...i32(4), op.i32Add, ...set(S.cp),
    op.br, 0, op.end, op.end,
  ];
}

/** at, cp, end ← the entries [from, to) of the factors (from, to: instructions leaving entry indices). */
function entries(from: number[], to: number[]): number[] {
  return [...address(S.val, from, 3), ...set(S.at), ...address(S.yAt, from, 2), ...set(S.cp), ...address(S.val, to, 3), ...set(S.end)];
}

/**
 * solve(n, rowStart, diagPos, rowOf, colOf, val, yAt, y, b, scale, inv): lu-refactor.ts's
 * sweeps, b (n) in place, y n scratch numbers, yAt each entry's y[col[e]] address (a load a
 * term, not an index's shift and add), scale 0 for none (addresses in bytes). `split`
 * (solveSplit): rowSum's four sums, and x_k = s · inv_k (1/U_kk, the elimination's): the
 * division (~4 times a multiply's latency) off each row's chain.
 */
function solveOf(split: boolean): WasmFunction {
  return {
    name: split ? 'solveSplit' : 'solve', params: Array(11).fill(I32), results: [], locals: [[5, I32], [5, F64]],
    body: [
      // forward: y_k = b_rowOf(k) D_rowOf(k) − Σ L_ke y_col(e)
      ...i32(0), ...set(S.k),
      op.block, VOID, op.loop, VOID,
      ...get(S.k), ...get(S.n), op.i32GeS, op.brIf, 1,
      ...address(S.rowOf, get(S.k), 2), ...loadI32(), ...set(S.r),
      ...address(S.b, get(S.r), 3), ...loadF64(), ...set(S.s),
      ...get(S.scale), op.if, VOID, ...get(S.s), ...address(S.scale, get(S.r), 3), ...loadF64(), op.f64Mul, ...set(S.s), op.end,
      ...entries([...address(S.rowStart, get(S.k), 2), ...loadI32()], [...address(S.diagPos, get(S.k), 2), ...loadI32()]),
      ...rowSum(split),
      ...address(S.y, get(S.k), 3), ...get(S.s), ...storeF64(),
      ...get(S.k), ...i32(1), op.i32Add, ...set(S.k),
      op.br, 0, op.end, op.end,
      // backward: x_k = (y_k − Σ U_ke x_col(e)) / U_kk, b_colOf(k) = x_k D_colOf(k)
      ...get(S.n), ...i32(1), op.i32Sub, ...set(S.k),
      op.block, VOID, op.loop, VOID,
      ...get(S.k), ...i32(0), op.i32LtS, op.brIf, 1,
      ...address(S.y, get(S.k), 3), ...loadF64(), ...set(S.s),
      ...address(S.diagPos, get(S.k), 2), ...loadI32(), ...set(S.r),
      ...entries([...get(S.r), ...i32(1), op.i32Add], [...address(S.rowStart, [...get(S.k), ...i32(1), op.i32Add], 2), ...loadI32()]),
      ...rowSum(split),
      ...get(S.s), ...(split ? [...address(S.inv, get(S.k), 3), ...loadF64(), op.f64Mul] : [...address(S.val, get(S.r), 3), ...loadF64(), op.f64Div]), ...set(S.x),
      ...address(S.y, get(S.k), 3), ...get(S.x), ...storeF64(),
      ...address(S.colOf, get(S.k), 2), ...loadI32(), ...set(S.r),
      ...get(S.scale), op.if, VOID, ...get(S.x), ...address(S.scale, get(S.r), 3), ...loadF64(), op.f64Mul, ...set(S.x), op.end,
      ...address(S.b, get(S.r), 3), ...get(S.x), ...storeF64(),
      ...get(S.k), ...i32(1), op.i32Sub, ...set(S.k),
      op.br, 0, op.end, op.end,
    ],
  };
}

// eliminate's locals
const E = { n: 0, rowStart: 1, diagPos: 2, col: 3, val: 4, target: 5, inv: 6, limit: 7, floor: 8, k: 9, e: 10, d: 11, j: 12, dj: 13, f: 14, fe: 15, t: 16, p: 17, l: 18 } as const;

/** Row j's U entries f (to fe) into row k: val[target[t]] −= l · val[f], t (target's address) along. */
function update(): number[] {
  // four a pass while four are left, then one a pass (as rowSum): each update whole, in order
  const one = (j: number): number[] => [
    ...get(E.val), ...get(E.t), ...loadI32(4 * j), ...i32(3), op.i32Shl, op.i32Add, ...set(E.p),
    ...get(E.p), ...get(E.p), ...loadF64(), ...get(E.l), ...address(E.val, get(E.f), 3), ...loadF64(8 * j), op.f64Mul, op.f64Sub, ...storeF64(),
  ];
  return [
    op.block, VOID, op.loop, VOID,
    ...get(E.f), ...i32(3), op.i32Add, ...get(E.fe), op.i32GeS, op.brIf, 1,
    ...one(0), ...one(1), ...one(2), ...one(3),
    ...get(E.f), ...i32(4), op.i32Add, ...set(E.f), ...get(E.t), ...i32(16), op.i32Add, ...set(E.t),
    op.br, 0, op.end, op.end,
    op.block, VOID, op.loop, VOID,
    ...get(E.f), ...get(E.fe), op.i32GeS, op.brIf, 1,
    ...address(E.val, [...get(E.t), ...loadI32()], 3), ...set(E.p),
    ...get(E.p), ...get(E.p), ...loadF64(), ...get(E.l), ...address(E.val, get(E.f), 3), ...loadF64(), op.f64Mul, op.f64Sub, ...storeF64(),
    ...get(E.f), ...i32(1), op.i32Add, ...set(E.f), ...get(E.t), ...i32(4), op.i32Add, ...set(E.t),
    op.br, 0, op.end, op.end,
  ];
}

/**
 * eliminate(n, rowStart, diagPos, col, val, target, inv, limit, floor) → 1, or 0 for a
 * multiplier beyond `limit` or a pivot at or below `floor`: lu-refactor.ts's IKJ elimination
 * in place by its schedule (target: each update's place in val, in order; addresses in
 * bytes). `reciprocal` (eliminateSplit): inv_k = 1/U_kk stored as each row's pivot passes,
 * and l = val[e] · inv_j, one division a row instead of one a multiplier, and none on the
 * chain from a row's updates to its next multiplier (other roundings).
 */
function eliminateOf(reciprocal: boolean): WasmFunction {
  return {
    name: reciprocal ? 'eliminateSplit' : 'eliminate', params: [I32, I32, I32, I32, I32, I32, I32, F64, F64], results: [I32], locals: [[9, I32], [1, F64]],
    body: [
      ...get(E.target), ...set(E.t),
      ...i32(0), ...set(E.k),
      op.block, VOID, op.loop, VOID,
      ...get(E.k), ...get(E.n), op.i32GeS, op.brIf, 1,
      ...address(E.diagPos, get(E.k), 2), ...loadI32(), ...set(E.d),
      ...address(E.rowStart, get(E.k), 2), ...loadI32(), ...set(E.e),
      // each L entry e of row k, on row j: l = val[e] / U_jj, then row j's U entries into row k
      op.block, VOID, op.loop, VOID,
      ...get(E.e), ...get(E.d), op.i32GeS, op.brIf, 1,
      ...address(E.col, get(E.e), 2), ...loadI32(), ...set(E.j),
      ...address(E.diagPos, get(E.j), 2), ...loadI32(), ...set(E.dj),
      ...address(E.rowStart, [...get(E.j), ...i32(1), op.i32Add], 2), ...loadI32(), ...set(E.fe),
      ...address(E.val, get(E.e), 3), ...loadF64(),
      ...(reciprocal ? [...address(E.inv, get(E.j), 3), ...loadF64(), op.f64Mul] : [...address(E.val, get(E.dj), 3), ...loadF64(), op.f64Div]), ...set(E.l),
      ...get(E.l), op.f64Abs, ...get(E.limit), op.f64Le, op.i32Eqz, op.if, VOID, ...i32(0), op.return, op.end,
      ...address(E.val, get(E.e), 3), ...get(E.l), ...storeF64(),
      ...get(E.dj), ...i32(1), op.i32Add, ...set(E.f),
      // l = 0 (either sign): its updates skipped, the schedule's place moved past them
      ...get(E.l), ...f64(0), op.f64Eq,
      op.if, VOID, ...get(E.t), ...get(E.fe), ...get(E.f), op.i32Sub, ...i32(2), op.i32Shl, op.i32Add, ...set(E.t),
      op.else, ...update(), op.end,
      ...get(E.e), ...i32(1), op.i32Add, ...set(E.e),
      op.br, 0, op.end, op.end,
      ...address(E.val, get(E.d), 3), ...loadF64(), op.f64Abs, ...get(E.floor), op.f64Gt, op.i32Eqz, op.if, VOID, ...i32(0), op.return, op.end,
      ...(reciprocal ? [...address(E.inv, get(E.k), 3), ...f64(1), ...address(E.val, get(E.d), 3), ...loadF64(), op.f64Div, ...storeF64()] : []),
      ...get(E.k), ...i32(1), op.i32Add, ...set(E.k),
      op.br, 0, op.end, op.end,
      ...i32(1),
    ],
  };
}

// scan's locals
const C = {
  val: 0, valScale: 1, count: 2, sink: 3, sinkScale: 4, sinks: 5, keptValue: 6, keptPlace: 7, kept: 8,
  p: 9, end: 10, q: 11, m0: 12, m1: 13, m2: 14, m3: 15, nz: 16, zero: 17, x: 18, scale: 19, a: 20,
} as const;

/** The pair at p + offset times its scales' (at q + offset), stored back; m = pmax(m, |it|): the larger lane by lane, a NaN never taken (as `a > m ? a : m`). */
const pairScaled = (m: number, offset: number): number[] => [
  ...get(C.p), ...get(C.p), ...loadV128(offset), ...get(C.q), ...loadV128(offset), ...v128(simd.f64x2Mul), ...tee(C.x), ...storeV128(offset),
  ...get(m), ...get(C.x), ...v128(simd.f64x2Abs), ...v128(simd.f64x2Pmax), ...set(m),
];

/** p and q (stepping alongside) past `bytes`. */
const step = (bytes: number): number[] => [...get(C.p), ...i32(bytes), op.i32Add, ...set(C.p), ...get(C.q), ...i32(bytes), op.i32Add, ...set(C.q)];

/** p + bytes > end: the loop's way out. */
const pastEnd = (bytes: number): number[] => [...get(C.p), ...i32(bytes), op.i32Add, ...get(C.end), op.i32GtU, op.brIf, 1];

/**
 * scan(val, valScale, count, sink, sinkScale, sinks, keptValue, keptPlace, kept) → the largest
 * |x| of the `count` factor entries, or −1 when a sink is nonzero (NaN included): what a
 * gather of the compact list found as it wrote it, scaled (lu-refactor.ts `refactorPlaced`; the
 * writers put each entry unscaled in its place, one outside the pattern in a sink of its own).
 * First the `kept` entries go to their places (keptValue[k] to the byte address keptPlace[k]:
 * the caller's entries that change seldom, written once into the arena); then each entry is
 * multiplied by its scale (valScale[i], sinkScale[k]: D_i D_j, the gather's products) in place.
 * Two lanes at a time, the maximum into four (exact in any order; chains a quarter as long).
 */
const scan: WasmFunction = {
  name: 'scan', params: Array(9).fill(I32), results: [F64], locals: [[3, I32], [7, V128], [2, F64]],
  body: [
    ...get(C.keptPlace), ...set(C.p), ...address(C.keptPlace, get(C.kept), 2), ...set(C.end), ...get(C.keptValue), ...set(C.q),
    op.block, VOID, op.loop, VOID,
    ...get(C.p), ...get(C.end), op.i32GeU, op.brIf, 1,
    ...get(C.p), ...loadI32(), ...get(C.q), ...loadF64(), ...storeF64(),
    ...get(C.p), ...i32(4), op.i32Add, ...set(C.p), ...get(C.q), ...i32(8), op.i32Add, ...set(C.q),
    op.br, 0, op.end, op.end,
    // the factor entries: eight a pass while eight are left, then two, then the odd last one
    ...get(C.val), ...set(C.p), ...get(C.valScale), ...set(C.q), ...address(C.val, get(C.count), 3), ...set(C.end),
    op.block, VOID, op.loop, VOID,
    ...pastEnd(64), ...pairScaled(C.m0, 0), ...pairScaled(C.m1, 16), ...pairScaled(C.m2, 32), ...pairScaled(C.m3, 48), ...step(64),
    op.br, 0, op.end, op.end,
    op.block, VOID, op.loop, VOID,
    ...pastEnd(16), ...pairScaled(C.m0, 0), ...step(16),
    op.br, 0, op.end, op.end,
    ...get(C.m0), ...get(C.m1), ...v128(simd.f64x2Pmax), ...get(C.m2), ...get(C.m3), ...v128(simd.f64x2Pmax), ...v128(simd.f64x2Pmax), ...set(C.m0),
    ...get(C.m0), ...v128(simd.f64x2ExtractLane), 0, ...set(C.scale),
    ...get(C.m0), ...v128(simd.f64x2ExtractLane), 1, ...set(C.a),
    ...get(C.a), ...get(C.scale), op.f64Gt, op.if, VOID, ...get(C.a), ...set(C.scale), op.end,
    ...get(C.p), ...get(C.end), op.i32LtU, op.if, VOID,
    ...get(C.p), ...get(C.p), ...loadF64(), ...get(C.q), ...loadF64(), op.f64Mul, ...storeF64(),
    ...get(C.p), ...loadF64(), op.f64Abs, ...set(C.a),
    ...get(C.a), ...get(C.scale), op.f64Gt, op.if, VOID, ...get(C.a), ...set(C.scale), op.end,
    op.end,
    // the sinks: any lane's product ≠ 0 (`zero` is never set: a local starts as zeros)
    ...get(C.sink), ...set(C.p), ...get(C.sinkScale), ...set(C.q), ...address(C.sink, get(C.sinks), 3), ...set(C.end),
    op.block, VOID, op.loop, VOID,
    ...pastEnd(16),
    ...get(C.nz), ...get(C.p), ...loadV128(), ...get(C.q), ...loadV128(), ...v128(simd.f64x2Mul), ...get(C.zero), ...v128(simd.f64x2Ne), ...v128(simd.v128Or), ...set(C.nz),
    ...step(16),
    op.br, 0, op.end, op.end,
    ...get(C.nz), ...v128(simd.v128AnyTrue), op.if, VOID, ...f64(-1), op.return, op.end,
    ...get(C.p), ...get(C.end), op.i32LtU, op.if, VOID,
    ...get(C.p), ...loadF64(), ...get(C.q), ...loadF64(), op.f64Mul, ...f64(0), op.f64Ne, op.if, VOID, ...f64(-1), op.return, op.end,
    op.end,
    ...get(C.scale),
  ],
};

let compiled: WebAssembly.Module | null = null;

type Solve = (n: number, rowStart: number, diagPos: number, rowOf: number, colOf: number, val: number, yAt: number, y: number, b: number, scale: number, inv: number) => void;
type Eliminate = (n: number, rowStart: number, diagPos: number, col: number, val: number, target: number, inv: number, limit: number, floor: number) => number;

/** The arrays of one analysis in an arena's memory: typed views and their byte addresses. */
export interface ArenaLayout {
  rowStart: number; diagPos: number; rowOf: number; colOf: number; col: number; target: number; val: number; y: number; b: number; scale: number;
  /** The split elimination's reciprocal pivots; each factor entry's y[col[e]] address (the solve's). */
  inv: number; yAt: number;
  /**
   * A compact list's (after the analysis's arrays; lu-refactor.ts placeList): each factor
   * entry's scale, the sinks of its entries outside the pattern and their scales, and its kept
   * entries' values and places (scan).
   */
  valScale: number; sink: number; sinkScale: number; keptValue: number; keptPlace: number;
}

/**
 * One PatternLU's WebAssembly memory and instance. `layout` places an analysis's arrays, and
 * `list` a compact list's after them. A memory is never grown: growing detaches its ArrayBuffer, and
 * the first ArrayBuffer detached in a process makes V8 check every typed-array access of all
 * its optimised code for detachment from then on (its "detaching protector"): the car's
 * whole step was ~8 % slower in a process of its own, though the LU's loops were faster.
 * Where the arrays do not fit, a new memory and instance take over (the old one is dropped,
 * not detached); the caller makes its views again on the buffer returned.
 */
export class LUArena {
  private memory!: WebAssembly.Memory;
  /** Each [exact, split]: the JavaScript's operations in its order, or the reordered sweeps (lu-refactor.ts, large systems). */
  private solveFns!: [Solve, Solve];
  private eliminateFns!: [Eliminate, Eliminate];
  private scanFn!: (val: number, valScale: number, count: number, sink: number, sinkScale: number, sinks: number, keptValue: number, keptPlace: number, kept: number) => number;
  at: ArenaLayout = { rowStart: 0, diagPos: 0, rowOf: 0, colOf: 0, col: 0, target: 0, val: 0, y: 0, b: 0, scale: 0, inv: 0, yAt: 0, valScale: 0, sink: 0, sinkScale: 0, keptValue: 0, keptPlace: 0 };
  /** The end of the analysis's arrays (a compact list goes after it). */
  private top = 0;

  constructor() {
    if (typeof WebAssembly === 'undefined') throw new InternalError('the sparse LU needs WebAssembly, which this JavaScript engine lacks');
    compiled ??= new WebAssembly.Module(wasmModule([solveOf(false), solveOf(true), eliminateOf(false), eliminateOf(true), scan]));
    this.instantiate(1);
  }

  /** A new memory of `pages` and an instance on it. */
  private instantiate(pages: number): void {
    this.memory = new WebAssembly.Memory({ initial: pages });
    const exports = new WebAssembly.Instance(compiled!, { env: { memory: this.memory } }).exports;
    this.solveFns = [exports.solve as Solve, exports.solveSplit as Solve];
    this.eliminateFns = [exports.eliminate as Eliminate, exports.eliminateSplit as Eliminate];
    this.scanFn = exports.scan as LUArena['scanFn'];
  }

  /** Place the arrays of an analysis of size n with `count` factor entries and `updates` schedule entries; the buffer to view them in. */
  layout(n: number, count: number, updates: number): ArrayBuffer {
    let top = 0;
    const take = (bytes: number): number => { const at = top; top += (bytes + 7) & ~7; return at; };
    // doubles first (8-aligned by take), then the indices
    this.at = {
      val: take(8 * count), y: take(8 * n), b: take(8 * n), scale: take(8 * n), inv: take(8 * n),
      rowStart: take(4 * (n + 1)), diagPos: take(4 * n), rowOf: take(4 * n), colOf: take(4 * n), col: take(4 * count), yAt: take(4 * count), target: take(4 * updates),
      valScale: top, sink: top, sinkScale: top, keptValue: top, keptPlace: top,
    };
    this.top = top;
    return this.fit(top, 0);
  }

  /** Place a list's scales for the `count` factor entries, its `sinks` and `kept` entries after the analysis's arrays (which stay where they are); the buffer to view them in. */
  list(count: number, sinks: number, kept: number): ArrayBuffer {
    const at = this.at;
    at.valScale = this.top; at.sink = at.valScale + 8 * count; at.sinkScale = at.sink + 8 * sinks;
    at.keptValue = at.sinkScale + 8 * sinks; at.keptPlace = at.keptValue + 8 * kept;
    return this.fit(at.keptPlace + 4 * kept, this.top);
  }

  /** A memory of at least `bytes` (a new one, with a fifth more room, where the present one is smaller), its first `keep` bytes carried over. */
  private fit(bytes: number, keep: number): ArrayBuffer {
    if (bytes > this.memory.buffer.byteLength) {
      const old = this.memory.buffer;
      this.instantiate(Math.ceil((1.2 * bytes) / 65536));
      new Uint8Array(this.memory.buffer, 0, keep).set(new Uint8Array(old, 0, keep));
    }
    return this.memory.buffer;
  }

  /** The `kept` entries put in place and every entry scaled, then the largest |x| of the `count` factor entries, or −1 when one of the `sinks` is nonzero (scan). */
  scan(count: number, sinks: number, kept: number): number {
    const a = this.at;
    return this.scanFn(a.val, a.valScale, count, a.sink, a.sinkScale, sinks, a.keptValue, a.keptPlace, kept);
  }

  /** The elimination on the laid-out arrays; false for a multiplier beyond `limit` or a pivot at or below `floor`. */
  eliminate(n: number, limit: number, floor: number, split: boolean): boolean {
    const a = this.at;
    return this.eliminateFns[split ? 1 : 0](n, a.rowStart, a.diagPos, a.col, a.val, a.target, a.inv, limit, floor) === 1;
  }

  /** The sweeps on the laid-out factors, on b as placed in the arena's b (and D in its scale, when `scaled`). */
  solve(n: number, scaled: boolean, split: boolean): void {
    const a = this.at;
    this.solveFns[split ? 1 : 0](n, a.rowStart, a.diagPos, a.rowOf, a.colOf, a.val, a.yAt, a.y, a.b, scaled ? a.scale : 0, a.inv);
  }
}
