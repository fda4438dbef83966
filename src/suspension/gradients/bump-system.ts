/**
 * The square system the second-order metrics are defined on, whatever drives the state.
 *
 * `kinemate sweep` takes the `deriv_*` metrics, the kinematic roll centre, a beam's
 * `roll_center_linkage_y/z` and the devices' rates along its derivative tangent
 * (SuspensionModel.derivativeTangent): the permanent constraints with one hub-z row per
 * corner and the rack hold, Ã = [Φ_q; hub_q; rack_q], at every solved state — a bump, steer
 * or roll sweep (whose drivers are those rows) or any other (a damper length, a heave link,
 * another point). The bump motion q̇_b = Ã⁻¹e_b is that system's; the state itself moves with
 * a hardpoint by q̇_k of its own drivers. So when the drivers are not the hub and rack rows,
 * Ã is factored beside the state's system (its hub rows' Jacobians move with the axle
 * points: the wheel centre is a point of the upright that moves with them), and the
 * second-order passes run on it with the state's q̇_k.
 */
import type { DriverParameters, SensitivityContext, StateFactors } from './types';
import { SensitivityError } from './types';
import { driverRowsOf } from './roll-centre';

export interface BumpSystem {
  /** Ã's factors and its hub/rack rows as drivers (basis: corner index, then the rack). */
  f: StateFactors;
  drivers: readonly DriverParameters[];
  /** Put the state's own drivers back into the system (Ã's rows are in it until then). */
  restore(): void;
}

/** The bump system at the current solved state; null when Ã is singular there (the sweep's derivatives are null too). */
export function bumpSystem(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[]): BumpSystem | null {
  if (driverRowsOf(model, f, drivers)) return { f, drivers, restore: () => {} };
  const sm = model.sm;
  const sys = sm.model.system;
  const P = model.parameterCount;
  const localDim = (vars: readonly number[]) => vars.reduce((s, v) => s + sys.variables[v].dim, 0);
  const hub: DriverParameters[] = sm.corners.map((c, ci) => {
    const blk = c.wheelCenterZ;
    const twist = new Float64Array(localDim(blk.vars) * P);
    const slot = blk.vars.indexOf(c.upright);
    const rate = model.wheelCenterRatesByCorner[ci];
    for (let i = 0; i < 3; i++) for (let k = 0; k < P; k++) twist[(slot * 6 + 3 + i) * P + k] = rate[i * P + k];
    return { block: blk, params: { twist, constant: null }, basis: ci };
  });
  if (sm.rackHold) hub.push({ block: sm.rackHold, params: { twist: new Float64Array(localDim(sm.rackHold.vars) * P), constant: null }, basis: sm.corners.length });
  const own = drivers.map((d) => d.block);
  sys.removeBlocks(own);
  for (const h of hub) sys.addBlock(h.block);
  const restore = () => {
    sys.removeBlocks(hub.map((h) => h.block));
    for (const b of own) sys.addBlock(b);
  };
  try {
    return { f: model.factorState(hub, true), drivers: hub, restore };
  } catch (e) {
    restore();
    if (e instanceof SensitivityError) return null;
    throw e;
  }
}
