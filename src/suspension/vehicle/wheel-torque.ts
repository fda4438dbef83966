/**
 * A brake or drive torque at a wheel in a vehicle run (docs/vehicle-dynamics.md, `brake:` and
 * `drive:`): a torque T(t) about the wheel's spin axis on the wheel, and −T(t) about the same
 * axis on what reacts it — the upright (an outboard brake, as `vehicle --ax` takes braking),
 * or the body (an inboard drive; a beam axle's drive on the beam). One element per wheel:
 * equal and opposite, so it moves no momentum, and the energy budget lists its work (the
 * torque times the wheel's spin against the reacting part, trapezoid in time) as one line.
 */
import { BodyForceBlock } from '../../../mates/forces';
import { dvConst, dvScaleConst } from '../../../kernel/dual';
import { TableLaw } from '../../../mates/law';
import type { DynamicsModel, ForceElement } from '../../mechanics/build';
import type { VehicleModel } from './assembly';
import type { WheelTorqueRun } from './road';
import { VehicleInputError } from './errors';

export class WheelTorqueForce extends BodyForceBlock {
  private readonly a = this.vec(); private readonly x = this.vec(); private readonly F = this.vec();
  private readonly s = new Float64Array(2);
  /** After an evaluation: the torque on the wheel (N·mm, + about the axis). */
  readonly last = { torque: 0 };

  /** `axis` in the wheel's frame (unit, toward the car's left); `law` the torque (N·mm) over time. */
  constructor(owner: string, wheel: number, reactor: number, readonly axis: ArrayLike<number>, readonly law: TableLaw) {
    super(owner, [wheel, reactor]);
  }

  protected compute(t: number): void {
    const T = this.law.evaluate(t, this.s)[0];
    this.last.torque = T;
    this.direction(this.a, 0, this.axis);
    dvScaleConst(this.a, this.a, T);
    dvConst(this.F, 0, 0, 0);
    dvConst(this.x, 0, 0, 0);
    this.apply(0, this.x, this.F, this.a, 1);
    this.apply(1, this.x, this.F, this.a, -1);
  }
}

/** The torque's law: 0 until `start`, up to the wheel's share over `ramp`, then held (N·mm). */
function lawOf(run: WheelTorqueRun, share: number): TableLaw {
  const T = run.torque_nm * 1000 * share * (run.kind === 'brake' ? -1 : 1);
  const rows: [number, number][] = run.start > 0 ? [[0, 0], [run.start, 0]] : [[0, 0]];
  rows.push([run.start + run.ramp, T], [run.start + run.ramp + 1000, T]);
  return new TableLaw(rows, false);
}

/** Each wheel's share of a run's torque: a brake's by front_brake_bias, a drive's on the driven axle; left and right alike. */
export function torqueShares(m: VehicleModel, run: WheelTorqueRun): number[] {
  if (run.kind === 'brake') {
    const bias = m.spec.front_brake_bias;
    if (bias === undefined) throw new VehicleInputError('vehicle_config.front_brake_bias', 'a brake torque is split by it: give it');
    return m.wheels.map((w) => (w.axle === 'front' ? bias : 1 - bias) / 2);
  }
  const driven = m.spec.driven_axle;
  if (driven === undefined) throw new VehicleInputError('vehicle_config.driven_axle', 'a drive torque acts on it: give it');
  return m.wheels.map((w) => (w.axle === driven ? 0.5 : 0));
}

/** The run's wheel torques on the built run: one element per wheel and torque, listed as elements (reports, energy). */
export function addWheelTorques(m: VehicleModel, dyn: DynamicsModel, runs: readonly WheelTorqueRun[]): { dyn: DynamicsModel; torques: WheelTorqueForce[] } {
  const elements: ForceElement[] = [...dyn.elements], torques: WheelTorqueForce[] = [];
  for (const run of runs) {
    const shares = torqueShares(m, run);
    m.wheels.forEach((w, i) => {
      if (shares[i] === 0) return;
      const len = Math.hypot(w.axis[0], w.axis[1], w.axis[2]), sg = w.axis[1] >= 0 ? 1 / len : -1 / len;
      const axis = [w.axis[0] * sg, w.axis[1] * sg, w.axis[2] * sg];
      // the brake outboard (on the upright); the drive inboard (on the body), a beam axle's on its beam
      const reactor = run.kind === 'brake' || w.beam ? w.upright : 'body';
      const id = `${w.corner}_${run.kind}`;
      const f = new WheelTorqueForce(id, dyn.model.parts.get(w.wheel)!, dyn.model.parts.get(reactor)!, axis, lawOf(run, shares[i]));
      dyn.forces.add(f);
      elements.push({ id, type: 'torque', block: f, index: dyn.forces.blocks.length - 1 });
      torques.push(f);
    });
  }
  return { dyn: { ...dyn, elements }, torques };
}
