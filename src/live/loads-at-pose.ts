/**
 * Loads at the pose shown: the library's per-state loads (src/suspension/loads/loads.ts, what
 * `kinemate sweep --loads` writes) under a load case: link forces, joint reactions, spring
 * forces, the rack force, what the wheel pads carry, and the rates (wheel rate, motion
 * ratios, heave/roll rates and roll stiffness of an axle).
 *
 * The pose is held where it is, as a sweep state is: each wheel centre's z and the rack
 * are the holds (their rows are added for the multiplier solve and taken out again), so
 * the numbers equal the sweep's at the same state.
 */
import { SweepLoads, type LoadCase, type StateLoads } from '../suspension/loads/loads.ts';
import type { SuspensionModel } from '../suspension/build/model.ts';

type Hold = SuspensionModel['corners'][number]['wheelCenterZ'] | NonNullable<SuspensionModel['rackHold']>;

/** A suspension model's loads at its current state under a load case (one SweepLoads per case). */
export class LoadsAtPose {
  private cached: { key: string; loads: SweepLoads } | null = null;

  constructor(private readonly sm: SuspensionModel) {}

  evaluate(loadCase: LoadCase): StateLoads {
    const key = JSON.stringify(loadCase);
    if (!this.cached || this.cached.key !== key) this.cached = { key, loads: new SweepLoads(this.sm, loadCase) };
    const { sm } = this;
    const sys = sm.model.system;
    // the holds of a sweep state, at the values they have now
    const holds: Hold[] = sm.corners.map((c) => c.wheelCenterZ);
    const targets = holds.map((b) => b.target);
    sm.corners.forEach((c) => { c.wheelCenterZ.target = sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }])[2]; });
    if (sm.rackHold) {
      holds.push(sm.rackHold);
      targets.push(sm.rackHold.target);
      sm.rackHold.target = sys.getScalar(sm.steering);
    }
    for (const b of holds) sys.addBlock(b);
    try {
      return this.cached.loads.evaluate();
    } finally {
      sys.removeBlocks(holds);
      holds.forEach((b, i) => { b.target = targets[i]; });
    }
  }
}
