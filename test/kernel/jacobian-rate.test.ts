/**
 * kernel/jacobian-rate.ts: the rate of a block's Jacobian along a direction of the state, by
 * tangent mode, against central differences of the Jacobian itself with the state moved
 * along that direction (retracted, as the solver moves it), on every curved block of the
 * four-bar and of the pendulum.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { JacobianRate, blockColumns } from '../../kernel/jacobian-rate';
import { validateAssembly } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { fourBarDoc } from '../../examples/fourbar';

const models = {
  'four-bar': () => buildModel(validateAssembly(fourBarDoc(30))),
  pendulum: () => buildModel(validateAssembly(JSON.parse(readFileSync('examples/pendulum.kinemate.json', 'utf8')))),
};

describe('JacobianRate', () => {
  for (const [name, build] of Object.entries(models)) {
    it(`${name}: equals central differences of each curved block's Jacobian`, () => {
      const system = build().system;
      const layout = new Int32Array(system.variables.length);
      let n = 0;
      for (const v of system.variables) { layout[v.id] = n; n += v.dim; }
      // a fixed direction with every coordinate moving
      const dir = Float64Array.from({ length: n }, (_, i) => Math.sin(1.7 * i + 0.3));
      const rate = new JacobianRate();
      let curved = 0;
      for (let b = 0; b < system.blockCount; b++) {
        const blk = system.block(b);
        if (!blk.duals) continue;
        curved++;
        const cols = blockColumns(system, b, layout);
        const ld = cols.length, res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
        const rows = rate.of(system, b, cols, dir, res, jac).map((d) => (d.t ? Array.from(d.t.d.subarray(0, ld)) : null));
        const at = system.snapshot();
        const jacobianAt = (h: number) => {
          system.restore(at);
          const step = dir.map((x) => h * x);
          for (const v of system.variables) system.retractVariable(v, step, layout[v.id]);
          const J = new Float64Array(blk.rows * ld);
          system.evaluateBlock(b, new Float64Array(blk.rows), J);
          system.restore(at);
          return J;
        };
        const h = 1e-6, plus = jacobianAt(h), minus = jacobianAt(-h);
        for (let r = 0; r < blk.rows; r++) {
          for (let c = 0; c < ld; c++) {
            const fd = (plus[r * ld + c] - minus[r * ld + c]) / (2 * h);
            const exact = rows[r] ? rows[r]![c] : 0;
            expect(Math.abs(exact - fd), `${blk.owner} row ${r} column ${c}`).toBeLessThan(1e-6 * (1 + Math.abs(fd)));
          }
        }
      }
      expect(curved).toBeGreaterThan(0);
    });
  }
});

describe('JacobianRate.mixed (the second tangent level)', () => {
  for (const [name, build] of Object.entries(models)) {
    it(`${name}: d/dr of each curved block's Jacobian rate along s equals central differences of the rate with the state moved along r`, () => {
      const system = build().system;
      const layout = new Int32Array(system.variables.length);
      let n = 0;
      for (const v of system.variables) { layout[v.id] = n; n += v.dim; }
      const s = Float64Array.from({ length: n }, (_, i) => Math.sin(1.7 * i + 0.3));
      const r = Float64Array.from({ length: n }, (_, i) => Math.cos(0.9 * i + 1.1));
      const second = {
        pose: (col: number) => r.subarray(col, col + 6),
        local: () => null,
        scalar: (col: number) => r[col],
      };
      const rate = new JacobianRate();
      let curved = 0, moved = 0;
      for (let b = 0; b < system.blockCount; b++) {
        const blk = system.block(b);
        if (!blk.duals) continue;
        curved++;
        const cols = blockColumns(system, b, layout);
        const ld = cols.length, res = new Float64Array(blk.rows), jac = new Float64Array(blk.rows * ld);
        const seeds2 = { ...second, pose: (col: number) => (cols[col] >= 0 ? r.subarray(cols[col], cols[col] + 6) : null), scalar: (col: number) => (cols[col] >= 0 ? r[cols[col]] : 0) };
        const duals = rate.mixed(system, b, cols, s, seeds2, res, jac);
        const mixed = duals.map((d) => (d.t?.t2 ? Array.from(d.t.t2.d.subarray(0, ld)) : null));
        // the first level is unchanged by the second
        const plain = rate.of(system, b, cols, s, res, jac).map((d) => (d.t ? Array.from(d.t.d.subarray(0, ld)) : null));
        duals.forEach((d, i) => { if (plain[i]) for (let c = 0; c < ld; c++) expect(d.t!.d[c]).toBe(plain[i]![c]); });
        const at = system.snapshot();
        const rateAt = (h: number) => {
          system.restore(at);
          const step = r.map((x) => h * x);
          for (const v of system.variables) system.retractVariable(v, step, layout[v.id]);
          const out = rate.of(system, b, cols, s, res, jac).map((d) => (d.t ? Array.from(d.t.d.subarray(0, ld)) : new Array<number>(ld).fill(0)));
          system.restore(at);
          return out;
        };
        const h = 1e-5, plus = rateAt(h), minus = rateAt(-h);
        for (let row = 0; row < blk.rows; row++) {
          for (let c = 0; c < ld; c++) {
            const fd = (plus[row][c] - minus[row][c]) / (2 * h);
            const exact = mixed[row] ? mixed[row]![c] : 0;
            if (Math.abs(fd) > 1e-3) moved++;
            expect(Math.abs(exact - fd), `${blk.owner} row ${row} column ${c}: exact ${exact} fd ${fd}`).toBeLessThan(1e-6 * (1 + Math.abs(fd)));
          }
        }
      }
      expect(curved).toBeGreaterThan(0);
      expect(moved).toBeGreaterThan(0);
    });
  }
});
