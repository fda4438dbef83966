/**
 * The compliant state's tangent (src/suspension/compliance/tangent.ts): the closed-form
 * curvature of point rows (ball joints, wheel pads) equals the tangent-mode passes it
 * replaces, and the settled pose is the loads', not the path's (the polishing step).
 */
import { describe, expect, it } from 'vitest';
import { dwCompliance, example, stateAt } from './helpers.ts';
import type { CompliantState } from '../../../src/suspension/compliance/state.ts';

const DW = example('double_wishbone.yaml') + dwCompliance();

/** K_r by closed forms and by tangent passes at the state now: their largest difference over the largest entry. */
function closedVsPasses(state: CompliantState): number {
  const t = state.tangent;
  t.byPasses = true;
  const passes = t.exact();
  t.byPasses = false;
  const closed = t.exact();
  let big = 0, diff = 0;
  for (let i = 0; i < passes.Kr.length; i++) { big = Math.max(big, Math.abs(passes.Kr[i])); diff = Math.max(diff, Math.abs(passes.Kr[i] - closed.Kr[i])); }
  expect(big).toBeGreaterThan(0);
  return diff / big;
}

describe('compliant tangent', () => {
  for (const [name, text, bump] of [
    ['the DW corner', DW, 20],
    ['the compliant multi-link axle', example('multi_link_axle_compliant.yaml'), -15],
    ['the compliant DW corner example', example('double_wishbone_compliant.yaml'), 0],
  ] as const) {
    it(`${name}: closed-form curvature = tangent passes, under a load that loads every joint and pad`, () => {
      const s = stateAt(text, bump);
      s.sm.corners.forEach((_, i) => s.state.setLoad(i, { force: [-1500, 3000, 2000], moment: [0, 0, 40000], at: 'contact_patch' }));
      expect(s.state.settle().status).toBe('solved');
      expect(closedVsPasses(s.state)).toBeLessThan(1e-12);
    });
  }

  it('K_r = −Nᵀ(K − H)N bit for bit as the plain product over every slot (the projection\'s blocking and skipped zeros change no bit)', () => {
    for (const [text, bump] of [[DW, 20], [example('multi_link_axle_compliant.yaml'), -15], [example('double_wishbone_compliant.yaml'), 0]] as const) {
      const s = stateAt(text, bump);
      s.sm.corners.forEach((_, i) => s.state.setLoad(i, { force: [-1500, 3000, 2000], moment: [0, 0, 40000], at: 'contact_patch' }));
      expect(s.state.settle().status).toBe('solved');
      const { Kr, N, k, n, KH } = s.state.tangent.exact();
      // AN = (K − H) N by rows, each summed over the slots in order; then −Σ_p N[a][p] AN[p][b]
      const AN = new Float64Array(n * k);
      for (let p = 0; p < n; p++) for (let q = 0; q < n; q++) for (let b = 0; b < k; b++) AN[p * k + b] += KH[p * n + q] * N[b * n + q];
      for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) {
        let sum = 0;
        for (let p = 0; p < n; p++) sum += N[a * n + p] * AN[p * k + b];
        expect(Object.is(Kr[a * k + b], -sum), `K_r[${a}][${b}]`).toBe(true);
      }
      expect(k).toBeGreaterThan(0);
    }
  });

  it('the settled pose does not depend on where Newton started (to 1e-9; without the polishing step 1.4e-7, within the balance tolerance)', () => {
    const s = stateAt(DW, 10);
    const system = s.sm.model.system;
    s.state.placeLoads();
    const settle = (fy: number) => { s.state.setLoad(0, { force: [0, fy, 0], moment: [0, 0, 0], at: 'contact_patch' }); expect(s.state.settle(false).status).toBe('solved'); };
    settle(-2000);
    const cold = system.snapshot();
    for (const fy of [4000, 1000]) { system.restore(s.rigid); settle(fy); }
    settle(-2000);
    let worst = 0;
    for (let i = 0; i < cold.length; i++) worst = Math.max(worst, Math.abs(system.state[i] - cold[i]));
    expect(worst).toBeLessThan(1e-9);
  });

  it("an exact reduction's K − H, formed when read, is its own state's; read after the tangent reduced another state, it throws", () => {
    const s = stateAt(DW, 10);
    const system = s.sm.model.system, t = s.state.tangent;
    const load = (fy: number) => s.state.setLoad(0, { force: [0, fy, 0], moment: [0, 0, 0], at: 'contact_patch' });
    const settleAndReduce = (fy: number): ReturnType<typeof t.exact> => {
      load(fy);
      system.restore(s.rigid);
      expect(s.state.settle().status).toBe('solved');
      t.begin();
      return t.exact();
    };
    const first = settleAndReduce(3000);
    const kept = first.KH;
    const late = settleAndReduce(3000);
    const other = settleAndReduce(-2000).KH;
    // the same state reduced again gives the same K − H, another load's differs
    const again = settleAndReduce(3000).KH;
    let moved = 0, same = 0;
    for (let i = 0; i < kept.length; i++) { moved = Math.max(moved, Math.abs(kept[i] - other[i])); same = Math.max(same, Math.abs(kept[i] - again[i])); }
    expect(moved).toBeGreaterThan(0);
    expect(same).toBe(0);
    // not read before the tangent moved on: never another state's numbers
    expect(() => late.KH).toThrow(/read after the tangent reduced another state/);
  });
});
