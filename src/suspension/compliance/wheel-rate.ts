/**
 * The compliant wheel rate (docs/compliance.md, the `vertical` event): the rate of change
 * of a wheel pad's force with the pad's height at a settled state, the other pads and the
 * rack held, the load path through the bushings, compliant links, springs and bars
 * included. Exact, by the implicit function theorem on the equilibrium with the pad as a
 * constraint c(q) = s of multiplier μ: with N′ the admissible motions of every other row
 * and K_r′ = −N′ᵀ K N′ + N′ᵀ (λ·Φ_qq + μ c_qq) N′ the reduced stiffness on them (the
 * curvature of every row, the pad's included, at the multipliers of the settled state),
 * and g = N′ᵀ c_qᵀ the pad's row along them, dμ/ds = 1 / (gᵀ K_r′⁻¹ g). No differences.
 */
import { LU } from '../../../kernel/linalg';
import { admissibleMotions } from '../../../kernel/multipliers';
import type { ResidualBlock } from '../../../kernel/system';
import { exactReducedStiffness } from './coefficients';
import type { CompliantState } from './state';

/**
 * Each corner's compliant wheel rate (N/mm) at the current, settled state, where the
 * system holds a pad row per corner owned `padOwner(side)`; null where the corner has no
 * such row or the stiffness is singular.
 */
export function compliantWheelRates(state: CompliantState, padOwner: (side: string) => string): (number | null)[] {
  const system = state.dyn.system;
  return state.sm.corners.map((c) => {
    const owner = padOwner(c.roles.side);
    const pad = findBlock(system, owner);
    if (!pad) return null;
    // the admissible motions without the pad's row (one more: the pad's own travel)
    system.removeBlocks([pad]);
    let motions: ReturnType<typeof admissibleMotions>;
    try { motions = admissibleMotions(system); } finally { system.addBlock(pad); }
    const { Kr, N, k, n, layout } = exactReducedStiffness(state, motions);
    // g: the pad's row (its height) along each motion, from its Jacobian
    const b = indexOf(system, pad);
    const ld = system.blockLocalDim(b);
    const res = new Float64Array(pad.rows), jac = new Float64Array(pad.rows * ld);
    system.evaluateBlock(b, res, jac);
    const cols: number[] = [];
    for (const v of pad.vars) { const c0 = layout[v]; for (let i = 0; i < system.variables[v].dim; i++) cols.push(c0 >= 0 ? c0 + i : -1); }
    const g = new Float64Array(k);
    for (let a = 0; a < k; a++) { let s = 0; for (let j = 0; j < ld; j++) if (cols[j] >= 0) s += jac[j] * N[a * n + cols[j]]; g[a] = s; }
    const lu = new LU(Math.max(k, 1));
    if (k === 0 || !lu.factor(Kr, k, 1e-12)) return null;
    const x = Float64Array.from(g);
    lu.solve(x);
    let compliance = 0;
    for (let a = 0; a < k; a++) compliance += g[a] * x[a];
    // a negative rate (a linkage past its spring's dead point) is reported as the rigid wheel rate is
    return compliance !== 0 && Number.isFinite(compliance) ? 1 / compliance : null;
  });
}

function findBlock(system: CompliantState['dyn']['system'], owner: string): ResidualBlock | null {
  for (let b = 0; b < system.blockCount; b++) if (system.block(b).owner === owner) return system.block(b);
  return null;
}

function indexOf(system: CompliantState['dyn']['system'], block: ResidualBlock): number {
  for (let b = 0; b < system.blockCount; b++) if (system.block(b) === block) return b;
  return -1;
}
