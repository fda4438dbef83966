/**
 * kernel/integrator/transpose-wasm.ts: a large system's Jᵀλ in WebAssembly gives r bit for bit
 * as the row loop (rows.ts addTransposeTimesByRows: each term added into r in row order),
 * with λ exactly zero (either sign) in some rows of a block, a fixed part's columns left out,
 * and blocks of 6, 3 and 1 rows and other counts over poses and scalars.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { System, type ResidualBlock } from '../../../kernel/system';
import { ConstraintRows } from '../../../kernel/integrator/rows';

/** A block whose rows are zero and whose Jacobian is the numbers it holds. */
function block(owner: string, vars: number[], rows: number, width: number, values: () => number): ResidualBlock & { jac: Float64Array } {
  const jac = Float64Array.from({ length: rows * width }, values);
  return {
    owner, vars, rows, kind: 'constraint', jac,
    evaluate(_state, _offsets, residual, jacobian) {
      residual.fill(0, 0, rows);
      if (jacobian) jacobian.set(jac);
    },
  };
}

/** A system of 12 poses (the first fixed) and 3 scalars with 64 rows in blocks of 6, 5, 3, 2 and 1 rows. */
function rowsOf(seed: number): { rows: ConstraintRows; n: number; m: number } {
  let s = seed >>> 0;
  const next = (): number => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s / 2 ** 32) * 200 - 100; };
  const system = new System(1);
  const poses = Array.from({ length: 12 }, (_, k) => system.addPose(`p${k}`, [k, 0, 0, 1, 0, 0, 0], { fixed: k === 0 }));
  const scalars = Array.from({ length: 3 }, (_, k) => system.addScalar(`s${k}`, k));
  const layout = new Int32Array(system.variables.length).fill(-1);
  let n = 0;
  for (const v of system.variables) if (!v.fixed) { layout[v.id] = n; n += v.dim; }
  const add = (vars: number[], rows: number): void => {
    const width = vars.reduce((w, id) => w + system.variables[id].dim, 0);
    system.addBlock(block(`b${system.blockCount}`, vars, rows, width, next));
  };
  for (let k = 0; k < 5; k++) add([poses[k], poses[k + 1]], 6);
  add([poses[6], scalars[0]], 6);
  add([poses[7], poses[8]], 5);
  for (let k = 0; k < 4; k++) add([poses[k + 2], poses[11 - k]], 3);
  add([poses[3], scalars[1]], 2);
  for (let k = 0; k < 6; k++) add([poses[k], poses[k + 4]], 1);
  for (const v of scalars) add([v], 1);
  const rows = new ConstraintRows(system, layout, n);
  rows.evaluate(true, false);
  // every row active, as a car's are (select's QR would drop rows of these random blocks)
  for (let k = 0; k < rows.count; k++) rows.active[k] = k;
  rows.activeCount = rows.count;
  // the WebAssembly sums apply (every block's columns distinct, 32 rows or more)
  expect((rows as unknown as { transpose: unknown }).transpose).not.toBeNull();
  return { rows, n, m: rows.count };
}

describe('Jᵀλ in WebAssembly', () => {
  it('r as the row loop gives it, bit for bit, zeros of λ skipped alike', () => {
    // mostly nonzero (a block without a zero λ takes its row count's unrolled sums), now and then ±0
    const value = fc.oneof({ arbitrary: fc.double({ min: -1e3, max: 1e3, noNaN: true, noDefaultInfinity: true }).filter((x) => x !== 0), weight: 40 }, { arbitrary: fc.constantFrom(0, -0), weight: 1 });
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.array(value, { minLength: 64, maxLength: 64 }), fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 80, maxLength: 80 }), (seed, lambdaIn, rIn) => {
      const { rows, n, m } = rowsOf(seed);
      expect([m, n]).toEqual([64, 69]);
      expect(rows.activeCount).toBe(m);
      const lambda = Float64Array.from(lambdaIn), byRows = Float64Array.from(rIn.slice(0, n)), wasm = byRows.slice();
      (rows as unknown as { addTransposeTimesByRows(r: Float64Array, l: Float64Array): void }).addTransposeTimesByRows(byRows, lambda);
      rows.addTransposeTimes(wasm, lambda);
      for (let c = 0; c < n; c++) expect(Object.is(wasm[c], byRows[c]), `r[${c}]: ${wasm[c]} against ${byRows[c]}`).toBe(true);
    }), { numRuns: 60 });
  });

  it('a change to the Jacobian or to λ moves r (the sums read both)', () => {
    const { rows, n } = rowsOf(7);
    const lambda = new Float64Array(64).fill(1), base = new Float64Array(n);
    rows.addTransposeTimes(base, lambda);
    const moved = new Float64Array(n);
    lambda[10] = 2;
    rows.addTransposeTimes(moved, lambda);
    expect(moved.some((x, c) => x !== base[c])).toBe(true);
  });
});
