/**
 * A small system's iteration matrix is factored by kernel/lu-small.ts, replaying the dense
 * LU's pivots on the matrix's nonzeros (iteration.ts gives it the pattern the assembly can
 * write: pattern.ts). Along a swinging pendulum every solve equals the dense LU's on the same
 * matrix bit for bit, and most factorisations are replays: a pattern missing an entry the
 * assembly writes, or a replay that strays from partial pivoting, would show here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { prepareSimulation } from '../../../src/mechanics/simulate';
import { LU } from '../../../kernel/linalg';

describe('the small iteration matrix\'s replayed LU', () => {
  it('the pendulum over 1500 steps: every solve the dense LU\'s, bit for bit; few dense factorisations', () => {
    for (const lieGroup of ['R3xSO3', 'SE3'] as const) {
      const sim = prepareSimulation(parseAssembly(readFileSync('examples/pendulum.kinemate.json', 'utf8')), { lieGroup });
      const it = sim.integrator;
      // the iteration system's internals, as the integrator drives them
      const lin = (it as unknown as { lin: { S: Float64Array; factor: (...a: unknown[]) => boolean; solve: (b: Float64Array) => void; luSmall: { denseFactorisations: number } } }).lin;
      const dense = new LU(16);
      let N = 0, solves = 0, differ = 0, factorisations = 0;
      const factor = lin.factor.bind(lin), solve = lin.solve.bind(lin);
      lin.factor = (n: unknown, ...rest: unknown[]) => {
        const ok = factor(n, ...rest);
        N = n as number;
        factorisations++;
        expect(dense.factor(lin.S.slice(0, N * N), N, 1e-15)).toBe(ok);
        return ok;
      };
      lin.solve = (b: Float64Array) => {
        const x = b.slice(0, N);
        dense.solve(x);
        solve(b);
        solves++;
        for (let i = 0; i < N; i++) if (!Object.is(x[i], b[i])) differ++;
      };
      for (let k = 0; k < 1500; k++) expect(it.step(0.001)).toBe(true);
      expect(N).toBe(13);
      expect(solves).toBeGreaterThanOrEqual(1500);
      expect(differ).toBe(0);
      expect(lin.luSmall.denseFactorisations).toBeLessThan(0.05 * factorisations);
    }
  });
});
