/**
 * Just enough of the WebAssembly binary format to write the sparse LU's loops (lu-wasm.ts) by
 * hand: LEB128 numbers, sections, one imported memory, functions of i32, f64 and v128 (two f64
 * lanes: the scan's, 128-bit SIMD, in every engine since 2023 — Node 16.4, Chrome 91, Firefox
 * 89, Safari 16.4) locals, and the handful of instructions they use. Hand-written because the
 * loops are a few dozen instructions and the project has no compiler to WebAssembly; the module
 * is 3.1 kB (with the large systems' variants of the loops and the scan), so it compiles
 * synchronously anywhere (browsers allow that up to 4 kB).
 */

export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;

/** Instruction opcodes used (the WebAssembly core specification's numbering). */
export const op = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, return: 0x0f,
  localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Load: 0x28, f64Load: 0x2b, f64Store: 0x39,
  i32Const: 0x41, f64Const: 0x44,
  i32Eqz: 0x45, i32Eq: 0x46, i32LtS: 0x48, i32LtU: 0x49, i32GtU: 0x4b, i32GeS: 0x4e, i32GeU: 0x4f,
  f64Eq: 0x61, f64Ne: 0x62, f64Gt: 0x64, f64Le: 0x65,
  i32Add: 0x6a, i32Sub: 0x6b, i32Shl: 0x74,
  f64Abs: 0x99, f64Add: 0xa0, f64Sub: 0xa1, f64Mul: 0xa2, f64Div: 0xa3,
} as const;

/** 128-bit SIMD instructions (the 0xfd prefix, then the opcode as LEB128): two f64 lanes. */
export const simd = {
  v128Or: 0x50, v128AnyTrue: 0x53, f64x2Ne: 0x48, f64x2ExtractLane: 0x21, f64x2Abs: 0xec, f64x2Mul: 0xf2, f64x2Pmax: 0xf7,
} as const;
export const v128 = (opcode: number): number[] => [0xfd, ...uleb(opcode)];

/** A block without a result (blocktype empty). */
export const VOID = 0x40;

/** Unsigned LEB128. */
export function uleb(x: number): number[] {
  const out: number[] = [];
  do {
    let b = x & 0x7f;
    x >>>= 7;
    if (x) b |= 0x80;
    out.push(b);
  } while (x);
  return out;
}

/** Signed LEB128 (i32 constants). */
export function sleb(x: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = x & 0x7f;
    x >>= 7;
    if ((x === 0 && !(b & 0x40)) || (x === -1 && (b & 0x40))) { out.push(b); return out; }
    out.push(b | 0x80);
  }
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const name = (s: string): number[] => [...uleb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

/** local.get / local.set / i32.const. */
export const get = (i: number): number[] => [op.localGet, ...uleb(i)];
export const set = (i: number): number[] => [op.localSet, ...uleb(i)];
export const i32 = (v: number): number[] => [op.i32Const, ...sleb(v)];
/** f64.const of x (its eight bytes, little-endian). */
export const f64 = (x: number): number[] => [op.f64Const, ...new Uint8Array(Float64Array.of(x).buffer)];

/** Loads and stores at the address on the stack (natural alignment; a load's constant byte offset added to it). */
export const loadI32 = (offset = 0): number[] => [op.i32Load, 2, ...uleb(offset)];
export const loadF64 = (offset = 0): number[] => [op.f64Load, 3, ...uleb(offset)];
export const storeF64 = (): number[] => [op.f64Store, 3, 0];
/** v128.load (alignment hint 8 bytes: the arena's doubles are 8-aligned, not 16). */
export const loadV128 = (offset = 0): number[] => [...v128(0x00), 3, ...uleb(offset)];
export const storeV128 = (offset = 0): number[] => [...v128(0x0b), 3, ...uleb(offset)];
export const tee = (i: number): number[] => [op.localTee, ...uleb(i)];

/** The byte address base + index × 2^shift (index: instructions leaving an i32). */
export const address = (base: number, index: number[], shift: number): number[] => [...get(base), ...index, ...i32(shift), op.i32Shl, op.i32Add];

export interface WasmFunction {
  name: string;
  params: number[];
  results: number[];
  /** Locals after the parameters, in runs of one type. */
  locals: [count: number, type: number][];
  body: number[];
}

/** A module importing one memory (env.memory) and exporting the functions, each its own type. */
export function wasmModule(functions: readonly WasmFunction[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  const codes = functions.map((f) => {
    const body = [...vec(f.locals.map(([count, type]) => [...uleb(count), type])), ...f.body, op.end];
    return [...uleb(body.length), ...body];
  });
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]])),
    ...section(3, vec(functions.map((_, i) => uleb(i)))),
    ...section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vec(codes)),
  ]);
}
