/**
 * The loads of a quasi-static acceleration on the vehicle (vehicle.md "Analyses"):
 * d'Alembert forces −m a on every mass (inertia-load.ts), reacted at the contact patches —
 * a lateral acceleration by side forces in proportion to each tyre's vertical load, braking
 * by brake forces split by `front_brake_bias` (equal left and right, the brakes reacting
 * into the uprights), traction by drive forces on the `driven_axle` (equal left and right,
 * the drive torque reacted by the body, or by a beam axle's beam).
 */
import type { VehicleModel } from './assembly';
import { G } from './inertia-load';
import { VehicleInputError } from './errors';

export interface Acceleration {
  /** g: + forward (traction), − braking. */
  ax: number;
  /** g: + to the left (a left turn). */
  ay: number;
}

/** Set the loads of an acceleration on the model (the next solve balances them). */
export function applyAcceleration(m: VehicleModel, a: Acceleration): void {
  m.inertia.accel[0] = a.ax;
  m.inertia.accel[1] = a.ay;
  m.datum.preload.fill(0); // the steady state's (steady-state.ts tyreLoads)
  // N: the whole vehicle's inertial force along x
  const total = (m.totalMass * G * a.ax) / 1000;
  for (let i = 0; i < m.wheels.length; i++) {
    const w = m.wheels[i], L = m.contacts[i].loads;
    L.fill(0);
    L[3] = a.ay;
    if (a.ax < 0) {
      const bias = m.spec.front_brake_bias;
      if (bias === undefined) throw new VehicleInputError('vehicle_config.front_brake_bias', 'braking (--ax below 0) is split by the front brake bias: give it');
      L[0] = (total * (w.axle === 'front' ? bias : 1 - bias)) / 2;
    } else if (a.ax > 0) {
      const driven = m.spec.driven_axle;
      if (driven === undefined) throw new VehicleInputError('vehicle_config.driven_axle', 'traction (--ax above 0) acts on the driven axle: give it');
      if (w.axle === driven) { L[0] = total / 2; L[4] = 1; }
    }
  }
}

/** The loads' partial derivative direction: d(loads)/d(ax) on the braking (sign −1) or traction (+1) side, or d/d(ay). */
export function unitAcceleration(which: 'ay' | 'braking' | 'traction'): Acceleration {
  return which === 'ay' ? { ax: 0, ay: 1 } : { ax: which === 'braking' ? -1 : 1, ay: 0 };
}
