import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { packedMap } from '../../kernel/packed-map';

describe('packedMap', () => {
  it('gives what Array.prototype.map gives, index included', () => {
    fc.assert(fc.property(fc.array(fc.double({ noNaN: true })), (xs) => {
      expect(packedMap(xs, (x, i) => [x, i])).toEqual(xs.map((x, i) => [x, i]));
    }));
  });

  it('stays packed once its caller is optimised (TurboFan inlines map as a holey array)', () => {
    // the module as plain JS, run by a node that exposes V8's natives
    const js = transformSync(readFileSync('kernel/packed-map.ts', 'utf8'), { loader: 'ts', format: 'cjs' }).code;
    const script = `${js.replace('module.exports', 'const m')}
      const f = (a) => packedMap(a, (x) => x + 0.5);
      const a = [1, 2, 3];
      %PrepareFunctionForOptimization(f); %PrepareFunctionForOptimization(packedMap);
      f(a); f(a);
      %OptimizeFunctionOnNextCall(f); %OptimizeFunctionOnNextCall(packedMap);
      const r = [f(a), packedMap(a, (x) => x + 0.5)];
      console.log(JSON.stringify({ holey: r.map((x) => %HasHoleyElements(x)), optimised: (%GetOptimizationStatus(f) & 16) !== 0 }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' }));
    expect(out).toEqual({ holey: [false, false], optimised: true });
  });
});
