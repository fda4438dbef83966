/**
 * Gradients over the bushing and link stiffnesses (src/suspension/compliance/sensitivity.ts):
 * every entry against central differences of the file re-read with that number moved and the
 * state re-solved — the metrics at a loaded state, and the K&C coefficients at zero load.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { kcCoefficients, type KcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { CompliantSensitivity } from '../../../src/suspension/compliance/sensitivity.ts';
import { example, settleUnder, stateAt } from './helpers.ts';
import { setFilePath, settledAt } from './gradient-helpers.ts';

const DW = example('double_wishbone_compliant.yaml');
const ML = example('multi_link_axle_compliant.yaml');

/** The file's text with the number at `path` moved by d. */
function moved(text: string, path: string, d: number): string {
  const raw = YAML.parse(text) as Record<string, unknown>;
  setFilePath(raw, path, (v) => v + d);
  return JSON.stringify(raw);
}

/** |exact − fd| within tol of fd, floored at 1e-3 of the largest entry of the gradient. */
function expectClose(exact: Record<string, number>, fd: Record<string, number>, tol: number, what: string): void {
  const floor = 1e-3 * Math.max(...Object.values(fd).map(Math.abs));
  for (const [k, v] of Object.entries(fd)) expect(Math.abs(exact[k] - v), `${what} ${k}: exact ${exact[k]} fd ${v}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(v), floor));
}

/**
 * The derivative of f at a parameter's value by differences: central over a thousandth of
 * the value; a rate left at 0 (it cannot go negative) one-sided over 10 and 20 N·mm/deg, second order.
 */
function difference(value: number, f: (d: number) => number): number {
  if (value > 0) { const h = 1e-3 * value; return (f(h) - f(-h)) / (2 * h); }
  const h = 10;
  return (-3 * f(0) + 4 * f(h) - f(2 * h)) / (2 * h);
}

describe('gradients over the stiffnesses', () => {
  it('the DW corner under 3 kN of lateral load: every state metric against re-solved states', () => {
    const s = new CompliantSensitivity(parseGeometry(DW));
    settledAt(s, 0, { force: [0, 3000, 0], moment: [0, 0, 0] });
    const exact = s.metricsBySide(['camber', 'toe_angle', 'caster', 'half_track'])[s.sides[0]];
    expect(s.keys).toContain('compliance.bushings.lower_wishbone_inboard_front.radial');
    expect(s.keys).toContain('compliance.links.trackrod');
    const names = ['camber', 'toe_angle', 'caster', 'half_track'] as const;
    const fd: Record<string, Record<string, number>> = Object.fromEntries(names.map((n) => [n, {}]));
    for (const p of s.parameters) {
      const memo = new Map<number, Record<string, number | null>>();
      const at = (d: number) => { if (!memo.has(d)) memo.set(d, settleUnder(stateAt(moved(DW, p.name, d)), [0, 3000, 0])); return memo.get(d)!; };
      for (const n of names) fd[n][p.name] = difference(p.value, (d) => at(d)[n] as number);
    }
    // the re-solve's noise (its balance to 1e-7 N) is about 1e-12 of a metric: 1e-4 of the entry, floored at 1e-3 of the largest
    for (const n of names) expectClose(exact[n]!.gradient, fd[n], 1e-4, n);
    // a real dependence: the track rod's rate steers the wheel under lateral load
    expect(Math.abs(exact.toe_angle!.gradient['compliance.links.trackrod'])).toBeGreaterThan(1e-8);
  });

  it('the DW corner at zero load: every K&C coefficient against the coefficients of re-solved states', () => {
    const s = new CompliantSensitivity(parseGeometry(DW));
    settledAt(s, 0, null);
    const exact = s.metricsBySide()[s.sides[0]];
    const names = Object.keys(kcCoefficients(s.state)[0]!) as (keyof KcCoefficients)[];
    const fd: Record<string, Record<string, number>> = Object.fromEntries(names.map((n) => [n, {}]));
    for (const p of s.parameters) {
      const memo = new Map<number, KcCoefficients>();
      const at = (d: number) => { if (!memo.has(d)) { const t = stateAt(moved(DW, p.name, d)); settleUnder(t, [0, 0, 0]); memo.set(d, kcCoefficients(t.state)[0]!); } return memo.get(d)!; };
      for (const n of names) fd[n][p.name] = difference(p.value, (d) => at(d)[n]);
    }
    for (const n of names) expectClose(exact[`kc.${n}`]!.gradient, fd[n], 1e-5, n);
    // the unloaded state itself does not move with the rates
    for (const v of Object.values(exact.camber!.gradient)) expect(Math.abs(v)).toBeLessThan(1e-12);
  });

  it('the multi-link axle: one parameter per file entry, a shared entry setting both sides', () => {
    const s = new CompliantSensitivity(parseGeometry(ML));
    expect([...s.keys].sort()).toEqual(['compliance.links.left.trackrod', 'compliance.links.lower_front_link', 'compliance.links.trackrod', 'compliance.links.upper_front_link', 'compliance.links.upper_rear_link']);
    expect(s.parameters.find((p) => p.name === 'compliance.links.trackrod')!.targets).toHaveLength(1); // the left side has its own
    expect(s.parameters.find((p) => p.name === 'compliance.links.upper_front_link')!.targets).toHaveLength(2);
    settledAt(s, 0, null);
    const exact = s.metricsBySide(['kc.toe_per_fy', 'kc.lateral_stiffness']);
    for (const p of s.parameters) {
      const h = 1e-3 * p.value;
      const at = (d: number) => { const t = stateAt(moved(ML, p.name, d)); t.sm.model.system.restore(t.rigid); t.state.settle(); return kcCoefficients(t.state); };
      const [a, b] = [at(h), at(-h)];
      s.sides.forEach((side, ci) => {
        for (const n of ['toe_per_fy', 'lateral_stiffness'] as const) {
          const fd = (a[ci]![n] - b[ci]![n]) / (2 * h);
          const e = exact[side][`kc.${n}`]!.gradient[p.name];
          expect(Math.abs(e - fd), `${side} ${n} ${p.name}: exact ${e} fd ${fd}`).toBeLessThanOrEqual(1e-5 * Math.abs(fd) + 1e-9 * Math.abs(exact[side][`kc.${n}`]!.value));
        }
      });
    }
  });
});
