/**
 * Tangent mode through a force element's stiffness (kernel/dual.ts withTangents on
 * mates/forces.ts): the duals' tangents are d(K)/ds, checked against central differences of
 * the first level (K at the state retracted along ±h·s) — for a bushing at exactly zero
 * deflection (the series branch of its rotation vector, which had no curvature) and a
 * compliant link on a linear law (whose law gave no curvature): both read NaN before.
 */
import { describe, expect, it } from 'vitest';
import { withTangents, type TangentSeeds } from '../../kernel/dual.ts';
import { retract } from '../../kernel/pose.ts';
import { tangentLayout } from '../../kernel/forces.ts';
import { BushingForce, PointToPointForce } from '../../mates/forces.ts';
import { stateAt } from '../suspension/compliance/helpers.ts';
import { example } from '../suspension/compliance/helpers.ts';

describe('a force element\'s stiffness rate in tangent mode', () => {
  it('equals central differences of its stiffness along a random motion (bushings at rest, a compliant link)', () => {
    const { state } = stateAt(example('double_wishbone_compliant.yaml'), 0);
    const dyn = state.dyn, system = dyn.system;
    const { layout } = tangentLayout(system);
    let checked = 0;
    dyn.forces.blocks.forEach((block, index) => {
      if (!(block instanceof BushingForce || block instanceof PointToPointForce)) return;
      const m = dyn.forces.slotsOf(index).length;
      const moving = block.vars.map((v) => layout[v] >= 0);
      // a direction per pose (ω in rad, v in mm), fixed parts still
      const dir = block.vars.map((_, b) => Float64Array.from({ length: 6 }, (_, i) => (moving[b] ? Math.sin(7 * b + i + 1) * (i < 3 ? 0.3 : 20) : 0)));
      const stiffnessAt = (h: number): Float64Array => {
        const saved = system.state.slice();
        block.vars.forEach((v, b) => { if (moving[b]) retract(system.state, system.state, dir[b].map((x) => x * h), system.variables[v].offset, system.variables[v].offset); });
        const K = new Float64Array(m * m);
        block.evaluate(system.state, dyn.forces.offsetsOf(index), new Float64Array(m), 0, new Float64Array(m), K, null);
        system.state.set(saved);
        return K;
      };
      const seeds: TangentSeeds = { pose: (col) => (moving[col / 6] ? dir[col / 6] : null), local: () => null, scalar: () => 0 };
      const K0 = new Float64Array(m * m);
      const duals = withTangents(seeds, () => { block.evaluate(system.state, dyn.forces.offsetsOf(index), new Float64Array(m), 0, new Float64Array(m), K0, null); return block.duals!(); });
      const h = 1e-5;
      const [Kp, Km] = [stiffnessAt(h), stiffnessAt(-h)];
      const scale = Math.max(...Kp.map(Math.abs));
      for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) {
        const fd = (Kp[i * m + j] - Km[i * m + j]) / (2 * h);
        const t = duals[i].t!.d[j];
        expect(Number.isFinite(t), `${block.owner} K[${i}][${j}]`).toBe(true);
        // the duals' derivatives are the element's stiffness (to its rounding)
        expect(Math.abs(duals[i].d[j] - K0[i * m + j])).toBeLessThanOrEqual(1e-5 * scale);
        expect(Math.abs(t - fd), `${block.owner} dK[${i}][${j}]/ds: ${t} vs ${fd}`).toBeLessThanOrEqual(1e-5 * scale);
      }
      checked++;
    });
    expect(checked).toBe(5);
  });
});
