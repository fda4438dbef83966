/**
 * How the design state itself moves with the hardpoints: each corner's wheel centre (offset
 * along the axle from its outer point) and an axle's design track and ride height.
 */
import type { SuspensionModel } from '../build/model';
import { evaluateAlong } from './evaluate-along';
import type { SensitivityContext } from './types';

/** d(design track)/dp and d(design ride height)/dp of an axle. */
export interface AxleDesignGradients { track: Float64Array; rideHeight: Float64Array }

/** d(wheel-centre local point)/dp, 3 × P, of a corner (wheel offset along the axle). */
export function wheelCenterRates(sm: SuspensionModel, hardpointAt: (p: ArrayLike<number>) => number, corner: number, P: number): Float64Array {
  const out = new Float64Array(3 * P);
  const c = sm.corners[corner];
  const ai = c.axle[0][0].local, ao = c.axle[1][0].local;
  const ji = hardpointAt(ai), jo = hardpointAt(ao);
  const off = c.roles.wheel.offset;
  const d = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]];
  const l = Math.hypot(d[0], d[1], d[2]);
  const u = d.map((x) => x / l);
  // wc = ao − off·u, du/d(ao) = (I − u uᵀ)/l = −du/d(ai)
  for (let c2 = 0; c2 < 3; c2++) {
    for (let i = 0; i < 3; i++) {
      const proj = ((i === c2 ? 1 : 0) - u[i] * u[c2]) / l;
      if (jo >= 0) out[i * P + 3 * jo + c2] += (i === c2 ? 1 : 0) - off * proj;
      if (ji >= 0) out[i * P + 3 * ji + c2] += off * proj;
    }
  }
  return out;
}

/** An axle's design track and ride height rates: the design state moves only by its points' own moves. */
export function axleDesignGradients(ctx: SensitivityContext, lookup: WeakMap<ArrayLike<number>, number>): AxleDesignGradients {
  const P = ctx.parameterCount;
  const saved = ctx.sm.model.system.snapshot();
  ctx.sm.resetToDesign();
  const { layout, n } = ctx.stateLayout();
  const zero: Float64Array[] = Array.from({ length: P }, () => new Float64Array(n));
  const ev = evaluateAlong(ctx, lookup, { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: zero, layout, size: n }, 0);
  ctx.sm.model.system.restore(saved);
  const cl = ev.corners[0].points.wheel_contact_centre, cr = ev.corners[1].points.wheel_contact_centre;
  const sign = Math.sign(cl.v[1] - cr.v[1]) || 1;
  const track = new Float64Array(P);
  for (let k = 0; k < P; k++) track[k] = sign * (cl.d[P + k] - cr.d[P + k]);
  const rh = ev.axle?.ride_height_change;
  return { track, rideHeight: rh ? Float64Array.from(rh.d) : new Float64Array(P) };
}
