/**
 * kernel/vec3.ts normalizeRate, the rate of a unit vector a/|a| as a moves (the turning axes
 * of the gradient code), against central differences of normalize, for random a and ȧ.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalize, normalizeRate, vec3 } from '../../kernel/vec3';

const coord = fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true });
const v3 = fc.tuple(coord, coord, coord);

describe('normalizeRate', () => {
  it('is the derivative of a/|a| along ȧ (central differences, h = 1e-6)', () => {
    fc.assert(fc.property(v3.filter((a) => Math.hypot(...a) > 0.1), v3, (a, ad) => {
      const h = 1e-6, p = vec3(), m = vec3();
      normalize(p, a.map((x, i) => x + h * ad[i]));
      normalize(m, a.map((x, i) => x - h * ad[i]));
      const r = normalizeRate(vec3(), a, ad);
      const scale = Math.hypot(...ad) / Math.hypot(...a);
      for (let i = 0; i < 3; i++) expect(Math.abs(r[i] - (p[i] - m[i]) / (2 * h))).toBeLessThan(1e-6 * (1 + scale));
    }));
  });

  it('is across the unit vector (its length does not change)', () => {
    fc.assert(fc.property(v3.filter((a) => Math.hypot(...a) > 0.1), v3, (a, ad) => {
      const r = normalizeRate(vec3(), a, ad);
      expect(Math.abs(r[0] * a[0] + r[1] * a[1] + r[2] * a[2])).toBeLessThan(1e-12 * Math.hypot(...a) * (1 + Math.hypot(...r)));
    }));
  });
});
