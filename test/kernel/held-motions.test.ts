/**
 * kernel/held-motions.ts: one QR of the constraints and holds together gives the same
 * admissible motions (the same space, orthonormal in scaled columns) and the same
 * multipliers as kernel/multipliers.ts's route through the constraints' null space, at a
 * state out of balance (the compliant corner's rigid pose under a wheel load), and declines
 * where rows are dependent (the planar four-bar's revolutes).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HeldFactor } from '../../kernel/held-motions';
import { admissibleMotions, constraintMultipliers } from '../../kernel/multipliers';
import { validateAssembly } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { fourBarDoc } from '../../examples/fourbar';
import { parseGeometry, sweepFromShortcut } from '../../src/suspension/files';
import { suspensionAssembly } from '../../src/suspension/build/template';
import { SuspensionModel } from '../../src/suspension/build/model';
import { sweepDrivers } from '../../src/suspension/sweep/sweep';
import { CompliantState } from '../../src/suspension/compliance/state';

/** The compliant DW corner at its rigid pose (drivers held) under 3 kN lateral: Q is not balanced there. */
function loadedCorner() {
  const g = parseGeometry(readFileSync('examples/suspension/double_wishbone_compliant.yaml', 'utf8'));
  const sm = new SuspensionModel(suspensionAssembly(g));
  const state = new CompliantState(sm);
  sm.resetToDesign();
  sm.solveWith(sweepDrivers(sm, sweepFromShortcut('bump', '10:10:1', g)).map((d) => d.block));
  state.setLoad(0, { force: [0, 3000, 0], moment: [0, 0, 0], at: 'contact_patch' });
  state.placeLoads();
  const n = state.dyn.forces.size, Q = new Float64Array(n);
  state.dyn.forces.assemble(new Float64Array(n), 0, Q, null, null);
  return { system: sm.model.system, Q, n };
}

describe('HeldFactor', () => {
  it('gives the admissible motions and the multipliers of kernel/multipliers.ts', () => {
    const { system, Q, n } = loadedCorner();
    const held = new HeldFactor(system);
    expect(held.factor()).toBe(true);
    const mine = held.motions(), theirs = admissibleMotions(system);
    expect(mine.count).toBe(theirs.count);
    expect(mine.count).toBeGreaterThan(0);
    // scaled columns: D⁻¹ N (turns × L) is orthonormal, and each of mine lies in their span
    const L = system.lengthScale, scale = new Float64Array(n);
    for (const v of system.variables) {
      const c0 = mine.layout[v.id];
      if (c0 < 0) continue;
      for (let i = 0; i < v.dim; i++) scale[c0 + i] = v.kind === 'pose' ? (i < 3 ? L : 1) : v.scale;
    }
    const k = mine.count;
    const col = (N: Float64Array, a: number) => Float64Array.from({ length: n }, (_, j) => N[a * n + j] * scale[j]);
    const dot = (x: Float64Array, y: Float64Array) => x.reduce((s, xi, j) => s + xi * y[j], 0);
    for (let a = 0; a < k; a++) {
      const u = col(mine.basis, a);
      for (let b = 0; b < k; b++) expect(Math.abs(dot(u, col(mine.basis, b)) - (a === b ? 1 : 0))).toBeLessThan(1e-12);
      const rest = u.slice();
      for (let b = 0; b < k; b++) { const w = col(theirs.basis, b), c = dot(u, w); for (let j = 0; j < n; j++) rest[j] -= c * w[j]; }
      expect(Math.max(...rest.map(Math.abs))).toBeLessThan(1e-10);
    }
    const a = held.multipliers(Q), b = constraintMultipliers(system, Q);
    const big = Math.max(...Array.from(b.lambda, Math.abs), ...Array.from(b.driverLambda, Math.abs));
    expect(big).toBeGreaterThan(1);
    expect(Array.from(a.rowBlock)).toEqual(Array.from(b.rowBlock));
    expect(a.driverBlocks).toEqual(b.driverBlocks);
    for (let r = 0; r < b.lambda.length; r++) expect(Math.abs(a.lambda[r] - b.lambda[r])).toBeLessThan(1e-10 * big);
    for (let d = 0; d < b.driverLambda.length; d++) expect(Math.abs(a.driverLambda[d] - b.driverLambda[d])).toBeLessThan(1e-10 * big);
  });

  it('factors the parts no row joins on their own: the held rack coordinates take exact zeros in every motion', () => {
    const { system, n } = loadedCorner();
    const held = new HeldFactor(system);
    expect(held.factor()).toBe(true);
    const { basis, count, layout } = held.motions();
    // the rack's pose and travel are held by its slide and its hold; the wheel's parts move
    const rack = system.variables.filter((v) => !v.fixed && /rack/.test(v.name));
    expect(rack.length).toBeGreaterThan(0);
    for (const v of rack) for (let a = 0; a < count; a++) for (let i = 0; i < v.dim; i++) expect(basis[a * n + layout[v.id] + i]).toBe(0);
    const upright = system.variables.find((v) => /upright/.test(v.name))!;
    expect(Array.from({ length: count }, (_, a) => basis[a * n + layout[upright.id] + 3]).some((x) => x !== 0)).toBe(true);
  });

  it('declines dependent rows (the planar four-bar has redundant revolutes) and refuses to be read then', () => {
    const system = buildModel(validateAssembly(fourBarDoc(30))).system;
    const held = new HeldFactor(system);
    expect(held.factor()).toBe(false);
    expect(() => held.motions()).toThrow(/full rank/);
  });
});
