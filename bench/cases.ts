import { System } from '../kernel/system';
import { solve } from '../kernel/solver';
import * as P from '../kernel/pose';
import { hingedLink } from '../test/kernel/toyBlocks';

export interface Benchmark {
  name: string;
  unit: string;
  goal?: string;
  run(): number;
}

/** Median of `rounds` timings of `fn` run `inner` times each, in ns per call. */
export function timeNs(fn: () => void, inner = 1000, rounds = 15): number {
  for (let i = 0; i < inner; i++) fn(); // warm up the JIT
  const t: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < inner; i++) fn();
    t.push(Number(process.hrtime.bigint() - t0) / inner);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}

export const benchmarks: Benchmark[] = [
  {
    name: 'exp_ns',
    unit: 'ns per SE(3) exponential',
    run() {
      const out = new Float64Array(7);
      const xi = Float64Array.from([0.3, -0.2, 0.9, 1, 2, 3]);
      let k = 0;
      return timeNs(() => { xi[0] = (k++ % 100) * 0.01; P.exp(out, xi); }, 200000);
    },
  },
  {
    name: 'halfturn_iterations',
    unit: 'iterations to pull a hinged body from 90° to a 179.5° turn',
    goal: '≤ 12',
    run() {
      const system = new System(1);
      const link = hingedLink(system, 'link', [0, 0, 0], Math.PI / 2);
      const target = (179.5 * Math.PI) / 180;
      return solve(system, { pulls: [{ variable: link, point: [1, 0, 0], target: [Math.cos(target), Math.sin(target), 0] }] }).iterations;
    },
  },
];
