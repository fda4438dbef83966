/**
 * Derivative storage of duals (kernel/dual.ts, kernel/float-slab.ts): widths past V8's on-heap limit share slabs;
 * every dual must still get its own zeroed derivatives, of its own length.
 */
import { describe, expect, it } from 'vitest';
import { Dual, DualVec3, dvSub } from '../../kernel/dual';
import { reusingFloats } from '../../kernel/float-slab';
import * as D from '../../src/suspension/metrics/dualops';

describe('dual derivative storage', () => {
  it('gives every dual its own zeroed derivatives, across slab boundaries and widths', () => {
    const made: Float64Array[] = [];
    // enough width-3 vectors (72 bytes each) to cross several slabs, and the edges of the slab path
    for (let i = 0; i < 300; i++) {
      for (const n of [1, 2, 3, 8, 9, 21, 22]) {
        const v = new DualVec3(n), s = new Dual(n + 56);
        expect(v.d.length).toBe(3 * n);
        expect(s.d.length).toBe(n + 56);
        expect(v.d.every((x) => x === 0)).toBe(true);
        expect(s.d.every((x) => x === 0)).toBe(true);
        v.d.fill(i + 1); s.d.fill(-(i + 1));
        made.push(v.d, s.d);
      }
    }
    // nothing written later overlapped an earlier one
    for (let k = 0; k < made.length; k++) expect(made[k].every((x) => Math.abs(x) === Math.floor(k / 14) + 1)).toBe(true);
  });

  it('computes on slab-backed duals as on plain ones', () => {
    const a = new DualVec3(3), b = new DualVec3(3), out = new DualVec3(3);
    for (let i = 0; i < 9; i++) { a.d[i] = i; b.d[i] = 2 * i * i; }
    a.v.set([1, 2, 3]); b.v.set([4, 6, 8]);
    dvSub(out, b, a);
    expect(Array.from(out.v)).toEqual([3, 4, 5]);
    expect(Array.from(out.d)).toEqual(Array.from({ length: 9 }, (_, i) => 2 * i * i - i));
  });
});

describe('scoped reuse of derivative storage (reusingFloats)', () => {
  it('a scope hands back the last scope’s arrays, zeroed and distinct; nested scopes free only at the outermost end', () => {
    const first: Float64Array[] = [];
    reusingFloats(() => {
      for (let i = 0; i < 5; i++) { const d = new Dual(30); d.d.fill(i + 1); first.push(d.d); }
      first.push(new DualVec3(30).d);
    });
    const second: Float64Array[] = [];
    reusingFloats(() => {
      for (let i = 0; i < 5; i++) second.push(new Dual(30).d);
      second.push(new DualVec3(30).d);
      // a nested scope does not free the outer one's arrays
      reusingFloats(() => { second.push(new Dual(30).d); });
      second.push(new Dual(30).d);
    });
    // the same six arrays again, zeroed; then two new ones, not the ones still in use
    for (let i = 0; i < 6; i++) expect(second[i]).toBe(first[i]);
    for (const a of second) expect(a.every((x) => x === 0)).toBe(true);
    expect(new Set(second).size).toBe(second.length);
    // outside a scope every dual gets fresh storage
    const outside = new Dual(30).d;
    expect(second.includes(outside)).toBe(false);
  });
});

describe('duals an operation fills whole (written)', () => {
  it('reuse the last scope’s arrays without zeroing them; unwritten duals are still zeroed; outside a scope all are fresh zeros', () => {
    const kept: Float64Array[] = [];
    reusingFloats(() => { kept.push(new Dual(30).d.fill(7), new DualVec3(30).d.fill(8)); });
    const again: Float64Array[] = [];
    reusingFloats(() => { again.push(new Dual(30, 0, true).d, new DualVec3(30, true).d); });
    expect(again[0]).toBe(kept[0]);
    expect(again[1]).toBe(kept[1]);
    // not zeroed: the operation that made them overwrites every entry
    expect(again[0].every((x) => x === 7)).toBe(true);
    expect(again[1].every((x) => x === 8)).toBe(true);
    reusingFloats(() => { again.push(new Dual(30).d); });
    expect(again[2]).toBe(kept[0]);
    expect(again[2].every((x) => x === 0)).toBe(true);
    expect(new Dual(30, 0, true).d.every((x) => x === 0)).toBe(true);
  });

  it('every metric operation gives the same value and derivatives on reused, dirtied storage as on fresh', () => {
    const n = 5;
    const vec = (s: number) => {
      const p = new DualVec3(n);
      for (let i = 0; i < 3; i++) p.v[i] = s * (i + 1) + 0.3 * i * i - 0.7;
      for (let k = 0; k < 3 * n; k++) p.d[k] = Math.sin(s * 7 + k);
      return p;
    };
    const run = () => {
      const a = vec(1.3), b = vec(-0.4), s = D.dot(a, b), l = D.vlength(a);
      const outs = [
        D.add(s, l), D.sub(s, l), D.mul(s, l), D.div(s, l), D.scale(s, 3), D.neg(s), D.sqrt(l), D.abs(D.neg(l)), D.sin(s), D.cos(s), D.atan(s),
        D.atan2(s, l), D.deg(s), D.comp(a, 1), D.vlength(D.vadd(a, b)), D.dot(D.vsub(a, b), D.vscale(a, s)), D.dot(D.vscaleK(b, 2), D.vaddScaled(a, b, l)),
        D.dot(D.cross(a, b), D.unit(b)), D.dot(D.midpoint(a, b), D.reject(a, D.unit(b))),
      ];
      return outs.map((x) => [x.v, ...x.d]);
    };
    const fresh = run();
    // a scope that leaves every pooled array full of NaN, then the same evaluation reusing them
    reusingFloats(() => { for (let i = 0; i < 200; i++) { new Dual(n).d.fill(NaN); new DualVec3(n).d.fill(NaN); } });
    const reused = reusingFloats(run);
    expect(reused).toEqual(fresh);
  });
});
