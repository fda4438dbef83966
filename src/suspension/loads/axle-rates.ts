/**
 * Rates of an axle (two wheels, two free motions once the steering is held), exact by the
 * tangent of the constraint manifold: the reduced stiffness K_r (src/mechanics/reduced.ts:
 * springs, the anti-roll bar, the heave spring, the geometry's and the reactions' terms)
 * turned into wheel coordinates, K_z = T⁻ᵀ K_r T⁻¹ with T = ∂(z_left, z_right)/∂α, so
 * K_z[i][j] is the change of the vertical force at wheel i per mm of travel of wheel j.
 * From it, with t the track between the two wheel points:
 * - heave wheel rate (per wheel, both wheels moving together): (ΣK_z)/2;
 * - roll wheel rate (per wheel, opposite travel): (K11 − K12 − K21 + K22)/2;
 * - roll stiffness: K_φ = (t²/4)(K11 − K12 − K21 + K22) = roll wheel rate · t²/2;
 * and, with a tyre rate, each in series with the tyres. Motion ratios of every spring and
 * damper element per wheel: dl/dz_i with the other wheel held.
 */
import { pointRate, tangentSpace } from '../../../kernel/analysis';
import type { ResidualBlock } from '../../../kernel/system';
import * as P from '../../../kernel/pose';
import { PointToPointForce } from '../../../mates/forces';
import { splitReference } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { reduce } from '../../mechanics/reduced';
import { ArgumentError } from '../../../kernel/errors';

export interface AxleRates {
  /** K_z, N/mm, row-major [left, right] × [left, right]. */
  wheelStiffness: [[number, number], [number, number]];
  /** N/mm per wheel. */
  heaveWheelRate: number;
  rollWheelRate: number;
  /** N·mm per degree of body roll (wheels moving ±t/2·φ). */
  rollStiffness: number;
  /** Track between the two wheel points, mm (the lateral distance, world y). */
  track: number;
  /** With a tyre rate (N/mm): the heave and roll wheel rates each in series with it, and the roll stiffness that gives. */
  heaveRideRate: number | null;
  rollRideRate: number | null;
  rollRideStiffness: number | null;
  /** Every spring, damper and springdamper: [dl/dz_left, dl/dz_right] (the other wheel held). */
  motionRatios: Record<string, [number, number]>;
}

type WheelPoint = string | { part: string; local: ArrayLike<number> };

/**
 * Rates at the current (solved) state. `wheels` are the left and right wheel points
 * (`part.point`, or a part and a point in its frame: the contact centre or the wheel
 * centre). Throws an ArgumentError unless the mechanism has exactly two free motions (hold the
 * steering) and the two wheels' vertical travels are independent.
 */
export function axleRates(dyn: DynamicsModel, wheels: [WheelPoint, WheelPoint], options: { tyreRate?: number } = {}): AxleRates {
  const red = reduce(dyn);
  if (red.k !== 2) throw new ArgumentError('', `axle rates need exactly two free motions (hold the steering), found ${red.k}`);
  const { system, model } = dyn;
  const resolve = (w: WheelPoint) => {
    if (typeof w !== 'string') {
      const variable = model.parts.get(w.part);
      if (variable === undefined) throw new ArgumentError('wheels', `no part "${w.part}"`, `no part "${w.part}"`);
      return { variable, local: w.local };
    }
    const ref = splitReference(w)!;
    const variable = model.parts.get(ref.owner);
    const local = model.doc.parts[ref.owner]?.points?.[ref.name];
    if (variable === undefined || !local) throw new ArgumentError('wheels', `no point "${w}"`, `no point "${w}"`);
    return { variable, local };
  };
  const pts = wheels.map(resolve);
  const tangent = tangentSpace(system, [] as ResidualBlock[]);
  const n = red.size;
  const column = (a: number) => red.N.subarray(a * n, (a + 1) * n);
  const rate = new Float64Array(3);
  // T[i][a] = dz_i/dα_a
  const T = [0, 1].map((i) => [0, 1].map((a) => pointRate(rate, system, tangent, column(a), pts[i].variable, pts[i].local)[2]));
  const det = T[0][0] * T[1][1] - T[0][1] * T[1][0];
  const size = Math.max(...T.flat().map(Math.abs));
  if (!(Math.abs(det) > 1e-9 * size * size)) throw new ArgumentError('', 'the two wheels do not move independently (their vertical travels are tied)');
  // Ti = T⁻¹: column j is the motion α that raises wheel j by 1 mm and holds the other
  const Ti = [[T[1][1] / det, -T[0][1] / det], [-T[1][0] / det, T[0][0] / det]];
  const Kr = red.Kr;
  const Kz: [[number, number], [number, number]] = [[0, 0], [0, 0]];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) {
    let s = 0;
    for (let a = 0; a < 2; a++) for (let b = 0; b < 2; b++) s += Ti[a][i] * Kr[a * 2 + b] * Ti[b][j];
    Kz[i][j] = s;
  }
  const world = (i: number) => P.applyPoint(new Float64Array(3), system.getPose(pts[i].variable), pts[i].local);
  const track = Math.abs(world(0)[1] - world(1)[1]);
  const heaveWheelRate = (Kz[0][0] + Kz[0][1] + Kz[1][0] + Kz[1][1]) / 2;
  const rollWheelRate = (Kz[0][0] - Kz[0][1] - Kz[1][0] + Kz[1][1]) / 2;
  const perDegree = Math.PI / 180;
  const rollStiffness = ((rollWheelRate * track * track) / 2) * perDegree;
  const series = (k: number, t: number) => (k * t) / (k + t);
  const tyre = options.tyreRate;
  const rollRideRate = tyre !== undefined ? series(rollWheelRate, tyre) : null;
  // motion ratios: the element's length rate along the unit travel of each wheel
  const motionRatios: Record<string, [number, number]> = {};
  const motion = new Float64Array(n), ra = new Float64Array(3), rb = new Float64Array(3);
  for (const e of dyn.elements) {
    if (!(e.block instanceof PointToPointForce)) continue;
    const b = e.block;
    const xa = P.applyPoint(new Float64Array(3), system.getPose(b.vars[0]), b.a), xb = P.applyPoint(new Float64Array(3), system.getPose(b.vars[1]), b.b);
    const d = [xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]], l = Math.hypot(d[0], d[1], d[2]);
    const ratios: [number, number] = [0, 0];
    for (let j = 0; j < 2; j++) {
      for (let r = 0; r < n; r++) motion[r] = column(0)[r] * Ti[0][j] + column(1)[r] * Ti[1][j];
      pointRate(ra, system, tangent, motion, b.vars[0], b.a);
      pointRate(rb, system, tangent, motion, b.vars[1], b.b);
      ratios[j] = (d[0] * (rb[0] - ra[0]) + d[1] * (rb[1] - ra[1]) + d[2] * (rb[2] - ra[2])) / l;
    }
    motionRatios[e.id] = ratios;
  }
  return {
    wheelStiffness: Kz,
    heaveWheelRate,
    rollWheelRate,
    rollStiffness,
    track,
    heaveRideRate: tyre !== undefined ? series(heaveWheelRate, tyre) : null,
    rollRideRate,
    rollRideStiffness: rollRideRate !== null ? ((rollRideRate * track * track) / 2) * perDegree : null,
    motionRatios,
  };
}
