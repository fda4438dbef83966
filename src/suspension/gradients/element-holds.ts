/**
 * Load gradients of what `kinemate sweep --loads` prints beside the links and joints
 * (issue 14 item 2; docs/sensitivity.md "Element tensions and hold forces"):
 *   element_tension.<element>  a spring's / damper's tension (N), as `loads.elements.<id>.tension`;
 *   hold_force.<hold>          the force a driver's hold carries, as `loads.holds.<hold>`;
 *   element_force.<bar>.<x|y|z>, element_moment.…  an anti-roll bar's bushing wrench on its b
 *                              part (world, the moment about its point), as `loads.elements.<bar>`.
 * A tension is a function of the state and the hardpoints: its rate along (q̇_k, e_k) is the
 * element's own dual code in tangent mode (ends moving with the state and, as hardpoints,
 * with e_k), plus −(dT/dl)·(d free/dp_k) where the template regenerates the free length from
 * the ends. A bar's force and moment: its bushing's dual code in tangent mode with its frames
 * moving with the hardpoints (device-load-rates.ts barBushingRate), read from the wrench's
 * tangents. A hold's force is −scale·λ of its driver row: its rate is −scale·λ̇ from the
 * load pass's transposed solve (load-sensitivity.ts), no further solve.
 */
import { withTangents, type Dual, type TangentSeeds } from '../../../kernel/dual';
import type { ForceSet } from '../../../kernel/forces';
import type { System } from '../../../kernel/system';
import type { DualVec3 } from '../../../kernel/dual';
import type { PointToPointForce } from '../../../mates/forces';
import { barBushingRate, type BarBushing } from './device-loads';
import type { MetricGradient, SensitivityContext, StateFactors } from './types';

export const ELEMENT_TENSION = 'element_tension.';
export const HOLD_FORCE = 'hold_force.';
export const ELEMENT_FORCE = 'element_force.';
export const ELEMENT_MOMENT = 'element_moment.';

/** `element_force.<bar>.<axis>` and `element_moment.…` of each anti-roll bar. */
export function barWrenchNames(ids: readonly string[]): string[] {
  return ids.flatMap((id) => [ELEMENT_FORCE, ELEMENT_MOMENT].flatMap((k) => ['x', 'y', 'z'].map((a) => `${k}${id}.${a}`)));
}

/** A spring or damper between two points as load-sensitivity.ts keeps it. */
export interface TwoPointElement { index: number; block: PointToPointForce; slope: number; ja: number; jb: number }

/** The hold's name as sweep --loads prints it (its driver block's owner without the prefix). */
export function holdName(owner: string): string {
  return owner.replace(/^(driver|target|hold):/, '');
}

/** The metric names: each two-point element's tension, each driver row's hold force. */
export function elementHoldNames(ids: readonly string[], f: Pick<StateFactors, 'rows'> | null, holds?: readonly string[]): string[] {
  const h = holds ?? (f ? f.rows.filter((r) => r.block.kind === 'driver').map((r) => holdName(r.block.owner)) : []);
  return [...ids.map((id) => `${ELEMENT_TENSION}${id}`), ...h.map((n) => `${HOLD_FORCE}${n}`)];
}

export class ElementHoldRates {
  private readonly tensions: { name: string; e: TwoPointElement; value: number; grad: Float64Array }[] = [];
  private readonly holds: { name: string; row: number; scale: number; grad: Float64Array }[] = [];
  private readonly bars: { id: string; bar: BarBushing; value: number[]; grads: Float64Array[] }[] = [];

  constructor(private readonly model: SensitivityContext, private readonly forces: ForceSet, elements: readonly { id: string; e: TwoPointElement }[],
    f: StateFactors, private readonly lambda: Float64Array, names: readonly string[], bars: readonly { id: string; bar: BarBushing }[] = []) {
    const P = model.parameterCount, sys = model.sm.model.system;
    for (const { id, bar } of bars) {
      if (barWrenchNames([id]).some((m) => names.includes(m))) this.bars.push({ id, bar, value: new Array(6).fill(NaN), grads: Array.from({ length: 6 }, () => new Float64Array(P)) });
    }
    for (const { id, e } of elements) {
      const name = `${ELEMENT_TENSION}${id}`;
      if (!names.includes(name)) continue;
      this.tensions.push({ name, e, value: NaN, grad: new Float64Array(P) });
    }
    let r0 = 0;
    for (const r of f.rows) {
      const name = `${HOLD_FORCE}${holdName(r.block.owner)}`;
      if (r.block.kind === 'driver' && names.includes(name)) {
        const v = sys.variables[r.block.vars[0]];
        // a coordinate hold's row is (x − target)·scale; a point target's is in mm (as SweepLoads.evaluate)
        const scale = -(r.block.vars.length === 1 && v.kind !== 'pose' ? v.scale : 1);
        this.holds.push({ name, row: r0, scale, grad: new Float64Array(P) });
      }
      r0 += r.block.rows;
    }
  }

  get empty(): boolean { return !this.tensions.length && !this.holds.length && !this.bars.length; }

  /** Record column k: the tensions' rates along (q̇_k, e_k), the holds' from λ̇. */
  finish(k: number, qd: Float64Array, lambdaDot: Float64Array): void {
    const sys = this.model.sm.model.system;
    for (const t of this.tensions) {
      const [value, rate] = tensionRate(t.e, this.forces, sys, qd, k);
      t.value = value; t.grad[k] = rate;
    }
    for (const h of this.holds) h.grad[k] = h.scale * lambdaDot[h.row];
    for (const b of this.bars) {
      barBushingRate(new Float64Array(qd.length), b.bar, this.forces, sys, qd, k);
      // the world force and moment (about its point) on b, with their tangents
      const wrench = b.bar.block;
      [wrench.forceDual, wrench.momentDual].forEach((w, i) => { for (let c = 0; c < 3; c++) { b.value[3 * i + c] = w.v[c]; b.grads[3 * i + c][k] = w.t ? w.t.v[c] : 0; } });
    }
  }

  results(): Record<string, MetricGradient> {
    const keys = this.model.keys, out: Record<string, MetricGradient> = {};
    const grad = (g: Float64Array) => Object.fromEntries(keys.map((key, k) => [key, g[k]]));
    for (const t of this.tensions) out[t.name] = { value: t.value, gradient: grad(t.grad) };
    for (const h of this.holds) out[h.name] = { value: h.scale * this.lambda[h.row], gradient: grad(h.grad) };
    for (const b of this.bars) barWrenchNames([b.id]).forEach((m, i) => { out[m] = { value: b.value[i], gradient: grad(b.grads[i]) }; });
    return out;
  }
}

/** A two-point element's tension and its rate along (q̇, e_k). */
function tensionRate(e: TwoPointElement, forces: ForceSet, sys: System, qd: Float64Array, k: number): [number, number] {
  const slots = forces.slotsOf(e.index), blk = e.block;
  const unitMove = (j: number) => {
    if (j < 0 || k < 3 * j || k >= 3 * j + 3) return null;
    const t = new Float64Array(6); t[3 + k - 3 * j] = 1; return t;
  };
  const seeds: TangentSeeds = {
    pose: (col) => (col < 12 && slots[col] >= 0 ? qd.subarray(slots[col], slots[col] + 6) : null),
    local: (col, p, isPoint) => (!isPoint ? null : col === 0 && p === blk.a ? unitMove(e.ja) : col === 6 && p === blk.b ? unitMove(e.jb) : null),
    scalar: () => 0,
  };
  const localV = new Float64Array(12), localQ = new Float64Array(12), localK = new Float64Array(144);
  // the full pass (K asked for): a values-only pass carries no tangents
  const tension = withTangents(seeds, () => {
    blk.evaluate(sys.state, forces.offsetsOf(e.index), localV, 0, localQ, localK, null);
    return blk.tensionDual;
  });
  let rate = tension.t ? tension.t.v : 0;
  if (e.slope !== 0) {
    // free length regenerated from the design ends: d(free)/dp_k = ±(b − a)_c / |b − a|
    const A = blk.a, B = blk.b, L = Math.hypot(B[0] - A[0], B[1] - A[1], B[2] - A[2]);
    for (let c = 0; c < 3; c++) {
      if (e.jb >= 0 && k === 3 * e.jb + c) rate -= (e.slope * (B[c] - A[c])) / L;
      if (e.ja >= 0 && k === 3 * e.ja + c) rate += (e.slope * (B[c] - A[c])) / L;
    }
  }
  return [tension.v, rate];
}
