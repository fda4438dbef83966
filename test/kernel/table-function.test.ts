/**
 * TableFunction remembers the segment it last used (a run over a long road table asks in time
 * order): asked in any order, knots included, it answers as the definition — held at the ends,
 * else linear on the first segment with t ≤ t_{i+1} (the left one at a knot).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TableFunction } from '../../kernel/motion';

function reference(rows: [number, number][], t: number): [number, number] {
  const n = rows.length;
  if (t <= rows[0][0]) return [rows[0][1], 0];
  if (t >= rows[n - 1][0]) return [rows[n - 1][1], 0];
  let i = 0;
  while (t > rows[i + 1][0]) i++;
  const slope = (rows[i + 1][1] - rows[i][1]) / (rows[i + 1][0] - rows[i][0]);
  return [rows[i][1] + slope * (t - rows[i][0]), slope];
}

describe('TableFunction', () => {
  it('one instance asked at times in any order (knots, ends, beyond) answers as the definition', () => {
    const table = fc.array(fc.tuple(fc.double({ min: 0.01, max: 1, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true })), { minLength: 2, maxLength: 12 })
      .map((steps) => { let t = -0.5; return steps.map(([dt, y]) => [(t += dt), y] as [number, number]); });
    fc.assert(fc.property(table, fc.array(fc.oneof(fc.double({ min: -1, max: 13, noNaN: true }), fc.nat({ max: 11 })), { minLength: 1, maxLength: 30 }), (rows, asks) => {
      const f = new TableFunction(rows), out = new Float64Array(3);
      for (const a of asks) {
        // an integer asks at a knot exactly
        const t = Number.isInteger(a) && a < rows.length ? rows[a][0] : a;
        f.evaluate(t, out);
        const [y, slope] = reference(rows, t);
        expect(out[0]).toBe(y);
        expect(out[1]).toBe(slope);
      }
    }), { seed: 20261206, numRuns: 300 });
  });
});
