/**
 * A wheel's inertia (docs/dynamics.md "Masses"): a 3 × 3 `inertia` in the file's axes, or its
 * moments about its own spin axis (`spin_inertia`) and about a diameter (`transverse_inertia`),
 * kg·mm², each defaulting to the solid cylinder's of the tyre's radius R and section width w
 * (I_a = m R²/2, I_p = m (3R² + w²)/12). The moments give each wheel I = I_p 1 + (I_a − I_p) s sᵀ
 * about its own unit spin axis s, so one pair of numbers holds both sides of an axle exactly
 * (a 3 × 3 holds only one side's axis: the vehicle's fit writes these back, parameters.ts).
 */
import { tireRadius, type Geometry } from '../files';

/** What the file says of the wheel (dynamics.masses.wheel). */
export interface WheelMassSpec { mass: number; inertia?: number[][]; spin_inertia?: number; transverse_inertia?: number }

/** The wheel's moments about its spin axis and a diameter (kg·mm²): the file's, else the cylinder's. */
export function wheelMoments(w: WheelMassSpec, geometry: Geometry): { Ia: number; Ip: number } {
  const R = tireRadius(geometry.wheel.tire), width = geometry.wheel.tire.section_width;
  return { Ia: w.spin_inertia ?? (w.mass * R * R) / 2, Ip: w.transverse_inertia ?? (w.mass * (3 * R * R + width * width)) / 12 };
}

/** The wheel's inertia about its centre (kg·mm², the file's axes) with unit spin axis s: the file's 3 × 3 when given. */
export function wheelInertia(w: WheelMassSpec, geometry: Geometry, s: readonly number[]): number[][] {
  if (w.inertia) return w.inertia;
  const { Ia, Ip } = wheelMoments(w, geometry);
  return [0, 1, 2].map((r) => [0, 1, 2].map((c) => Ip * (r === c ? 1 : 0) + (Ia - Ip) * s[r] * s[c]));
}

/** Why the moments are no body's (a principal moment above the sum of the other two: I_a > 2 I_p), or null. */
export function wheelMomentsProblem(w: WheelMassSpec, geometry: Geometry): string | null {
  if (w.spin_inertia === undefined && w.transverse_inertia === undefined) return null;
  const { Ia, Ip } = wheelMoments(w, geometry);
  return Ia > 2 * Ip ? `no body has a spin moment ${Ia} above twice its transverse moment ${Ip} kg·mm²${w.transverse_inertia === undefined ? ' (the cylinder\'s)' : ''}` : null;
}
