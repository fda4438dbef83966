import { describe, expect, it } from 'vitest';
import { recordMaker } from '../../../src/suspension/gradients/hardpoint-index';

describe('recordMaker (a gradient record compiled once per key list)', () => {
  it('gives every key its entry, in key order, as own enumerable numbers', () => {
    const keys = ['upper_fore.x', 'upper_fore.y', 'upper_fore.z', 'left.tie rod.x'];
    const g = Float64Array.from([1.5, -2, 0, 1e-300]);
    const r = recordMaker(keys)(g);
    expect(Object.keys(r)).toEqual(keys);
    expect(Object.values(r)).toEqual([1.5, -2, 0, 1e-300]);
  });

  it('makes a fresh record per call (callers change one without the other)', () => {
    const make = recordMaker(['a.x']);
    const one = make(Float64Array.from([1]));
    const two = make(Float64Array.from([2]));
    expect(one).not.toBe(two);
    expect([one['a.x'], two['a.x']]).toEqual([1, 2]);
  });

  it('quotes names with quotes, backslashes and code-like text (never run as code)', () => {
    const keys = ['a"b.x', 'c\\d.y', "e'}; throw 1; ({'.z", '\u2028.x'];
    const r = recordMaker(keys)(Float64Array.from([1, 2, 3, 4]));
    expect(Object.entries(r)).toEqual([[keys[0], 1], [keys[1], 2], [keys[2], 3], [keys[3], 4]]);
  });

  it('keeps a __proto__ name an own property, the prototype untouched', () => {
    const keys = ['p.x', '__proto__', 'p.z'];
    const r = recordMaker(keys)(Float64Array.from([1, 2, 3]));
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(Object.entries(r)).toEqual([['p.x', 1], ['__proto__', 2], ['p.z', 3]]);
  });

  it('makes the same records where compiling code is forbidden (a page with a Content-Security-Policy)', () => {
    const keys = ['a.x', 'a.y', 'b.z'], g = Float64Array.from([4, 5, 6]);
    const compiled = recordMaker(keys)(g);
    const real = globalThis.Function;
    let tried = 0;
    globalThis.Function = function () { tried++; throw new EvalError('Refused to evaluate a string as JavaScript'); } as unknown as FunctionConstructor;
    let r: Record<string, number>;
    try {
      r = recordMaker(keys)(g);
    } finally {
      globalThis.Function = real;
    }
    expect(tried).toBe(1);
    expect(Object.entries(r)).toEqual(Object.entries(compiled));
  });
});
