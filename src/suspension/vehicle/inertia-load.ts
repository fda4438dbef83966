/**
 * The d'Alembert loads of a quasi-static acceleration: −m a on every massive moving part at
 * its centre of mass, a in the road plane (ax forward, ay left, in g). One block over all
 * those parts; the force is fixed in the world, so its tangent is the turning of its body
 * components: ∂(Rᵀ F)/∂ω = [Rᵀ F]ₓ and ∂(c × Rᵀ F)/∂ω = [c]ₓ[Rᵀ F]ₓ.
 */
import type { ForceBlock } from '../../../kernel/forces';
import { rotationMatrix } from '../../../kernel/dual';
import type { DynamicsModel } from '../../mechanics/build';

/** mm/s² per g. */
export const G = 9806.65;

export class InertiaLoad implements ForceBlock {
  readonly owner = 'inertia';
  readonly vars: readonly number[];
  /** [ax, ay] in g: set by the analysis. */
  readonly accel = new Float64Array(2);
  private readonly masses: Float64Array;
  private readonly centres: Float64Array;
  private readonly R = new Float64Array(9);

  constructor(dyn: DynamicsModel) {
    const moving = dyn.bodies.filter((b) => !dyn.system.variables[b.variable].fixed);
    this.vars = moving.map((b) => b.variable);
    this.masses = Float64Array.from(moving.map((b) => b.body.mass));
    this.centres = Float64Array.from(moving.flatMap((b) => Array.from(b.body.centre)));
  }

  evaluate(state: Float64Array, offsets: Int32Array, _velocity: Float64Array, _t: number, Q: Float64Array, K: Float64Array | null): void {
    const d = 6 * this.vars.length, R = this.R;
    if (K) K.fill(0);
    for (let k = 0; k < this.vars.length; k++) {
      rotationMatrix(R, state, offsets[k] + 3);
      const Fx = -this.masses[k] * this.accel[0] * G, Fy = -this.masses[k] * this.accel[1] * G;
      // f = Rᵀ F (F has no z)
      const f0 = R[0] * Fx + R[3] * Fy, f1 = R[1] * Fx + R[4] * Fy, f2 = R[2] * Fx + R[5] * Fy;
      const c0 = this.centres[3 * k], c1 = this.centres[3 * k + 1], c2 = this.centres[3 * k + 2];
      const b = 6 * k;
      Q[b] = c1 * f2 - c2 * f1; Q[b + 1] = c2 * f0 - c0 * f2; Q[b + 2] = c0 * f1 - c1 * f0;
      Q[b + 3] = f0; Q[b + 4] = f1; Q[b + 5] = f2;
      if (!K) continue;
      const fx = [0, -f2, f1, f2, 0, -f0, -f1, f0, 0];
      const cx = [0, -c2, c1, c2, 0, -c0, -c1, c0, 0];
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let m = 0; m < 3; m++) s += cx[i * 3 + m] * fx[m * 3 + j];
        K[(b + i) * d + b + j] = s;
        K[(b + 3 + i) * d + b + j] = fx[i * 3 + j];
      }
    }
  }
}
