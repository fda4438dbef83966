/**
 * Gradients of the wheel rates (`wheel_rate.<side>`, on request; src/suspension/gradients/
 * wheel-rate.ts): a loaded state's stiffness rate along a hardpoint, with the constraints'
 * third derivatives λ·Φ_qqq (the springs' load runs through the joints). Every entry against
 * extrapolated central differences of the re-solved `sweep --loads`' `rates.wheel_rate` (a step of
 * 0.2 mm: the rate is a second derivative of re-solved states, whose noise swamps shorter steps),
 * or plain ones where a shorter step was measured well inside the bar (the MacPherson's, ±0.02).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGeometry, type Geometry } from '../../../src/suspension/files';
import { parseLoadCase, type LoadCase } from '../../../src/suspension/loads/loads';
import { loadGradients } from './load-differences';
import { gradientError, loadsOf, movedHardpoint, forgetKept } from '../moves';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const cornerCase = parseLoadCase(readFileSync('examples/suspension/loads/corner_cornering_1g.yaml', 'utf8'), ['left']);

/** Every entry against central differences at ±h and ±h/2, extrapolated (or, not `extrapolate`, at ±h alone). */
function check(g: Geometry, at: number, lc: LoadCase, h: number, extrapolate = true, keys?: readonly string[]) {
  const { model, entries } = loadGradients(g, 'bump', at, lc, ['wheel_rate.left']);
  expect(entries.length).toBe(1);
  const v = entries[0].v;
  expect(v).not.toBeNull();
  const rate = (l: ReturnType<typeof loadsOf>) => l.rates!.wheel_rate.left;
  expect(Math.abs(v.value - rate(loadsOf(g, 'bump', at, lc, true)))).toBeLessThan(1e-9 * Math.max(1, Math.abs(v.value)));
  let worst = 0;
  const failures: string[] = [];
  for (const key of keys ?? model.keys) {
    const diff = (d: number) => (rate(loadsOf(movedHardpoint(g, key, d), 'bump', at, lc, true)) - rate(loadsOf(movedHardpoint(g, key, -d), 'bump', at, lc, true))) / (2 * d);
    const fd = extrapolate ? (4 * diff(h / 2) - diff(h)) / 3 : diff(h);
    const err = gradientError(v.gradient[key], fd, v.gradient, 1e-9);
    worst = Math.max(worst, err);
    if (err > 1e-6) failures.push(`${key}: exact ${v.gradient[key]}, differences ${fd}`);
  }
  return { worst, failures, value: v.value };
}

describe('gradients of the wheel rate (wheel_rate.<side>), on request', () => {
  it('pushrod corner with a 2000 N/mm coilover at bump 15: every entry', () => {
    const g = load('double_wishbone_pushrod');
    g.spring = { ...g.spring, rate: 2000 } as Geometry['spring'];
    const { worst, failures, value } = check(g, 15, cornerCase, 0.2);
    expect(Math.abs(value)).toBeGreaterThan(1);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });

  it('MacPherson corner with a 30 N/mm coilover preloaded at design, at bump 20: every entry', () => {
    const g = load('macpherson');
    g.spring = { ...g.spring, rate: 30, free_length: 460 } as Geometry['spring'];
    // central differences at ±0.02 alone: worst 1.5e-8 (extrapolated from ±0.2 and ±0.1: 9e-10; ±0.2 alone 1.8e-6)
    const { worst, failures, value } = check(g, 20, cornerCase, 0.02, false);
    expect(Math.abs(value)).toBeGreaterThan(1);
    expect(failures).toEqual([]);
    expect(worst).toBeLessThan(1e-6);
  });
});
