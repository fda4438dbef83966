/**
 * The kinematic roll centre of each axle at the solved (rolled) pose (vehicle.md `--ay`):
 * as the axle metric `roll_center_kinematic` defines it (docs/metrics.md), in the body's
 * front view — through each contact point the line perpendicular to the velocity of the
 * upright's material point there as that corner moves against the body — the two lines
 * intersected, here at the vehicle's pose rather than the axle file's level chassis. With
 * the body held, an independent corner has one motion against it, so any admissible motion
 * of the vehicle that keeps the body still and moves the upright gives that velocity's
 * direction. A beam axle's is its linkage's (beamRollCentre): where the axle's roll axis
 * against the body meets its vertical plane through the wheel centres. Reported in world
 * axes: `y` (mm) and `height` above the road (mm); null where the lines are parallel (or a
 * beam cannot roll against the body).
 */
import { admissibleMotions } from '../../../kernel/multipliers';
import { rotationMatrix } from '../../../kernel/dual';
import type { AxleName } from './file';
import type { VehicleModel } from './assembly';
import { cross } from './tangent';

export interface RollCentre {
  /** mm, world. */
  y: number;
  /** mm above the road. */
  height: number;
}

const rot = (R: ArrayLike<number>, x: readonly number[]) => [0, 1, 2].map((i) => R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2]);
const rotT = (R: ArrayLike<number>, x: readonly number[]) => [0, 1, 2].map((i) => R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2]);

/** The roll centres of both axles at the current (solved) state; the contacts' reports must be the state's. */
export function rollCentres(m: VehicleModel): Record<AxleName, RollCentre | null> {
  const { dyn } = m, sys = dyn.system;
  const { basis: N, count: k, size: n, layout } = admissibleMotions(sys);
  const pose = (part: string) => {
    const id = dyn.model.parts.get(part)!, v = sys.variables[id];
    return { R: rotationMatrix(new Float64Array(9), sys.state, v.offset + 3), p: Array.from(sys.state.subarray(v.offset, v.offset + 3)), c0: layout[id] };
  };
  const body = pose('body');
  const motions = bodyStillMotions(N, k, n, body.c0);
  const beams = new Map<string, RollCentre | null>();
  for (const w of m.wheels) if (w.beam && !beams.has(w.axle)) beams.set(w.axle, beamRollCentre(m, w.axle, motions, pose));
  const lines = m.wheels.map((w, i) => {
    if (w.beam) return null;
    const u = pose(w.upright), P = Array.from(m.contacts[i].last.contact);
    const local = rotT(u.R, P.map((x, j) => x - u.p[j]));
    // the motion that moves this upright most: its one direction against the body
    let best: number[] | null = null, size = 0;
    for (const z of motions) {
      if (u.c0 < 0) break;
      const w6 = Array.from(z.subarray(u.c0, u.c0 + 6));
      const vel = rot(u.R, cross(w6.slice(0, 3), local).map((x, j) => x + w6[3 + j]));
      const s = Math.hypot(...vel);
      if (s > size) { size = s; best = vel; }
    }
    if (!best || size === 0) return null;
    // in the body's front view: the point and the velocity's (y, z)
    const pb = rotT(body.R, P.map((x, j) => x - body.p[j])), vb = rotT(body.R, best);
    return { x: pb[0], y: pb[1], z: pb[2], vy: vb[1], vz: vb[2] };
  });
  const out = {} as Record<AxleName, RollCentre | null>;
  for (const axle of ['front', 'rear'] as const) {
    if (beams.has(axle)) { out[axle] = beams.get(axle)!; continue; }
    const [l, r] = ['left', 'right'].map((side) => lines[m.wheels.findIndex((w) => w.axle === axle && w.side === side)]);
    if (!l || !r) { out[axle] = null; continue; }
    // (p − P)·v = 0 on each line: vy·y + vz·z = vy·Py + vz·Pz
    const det = l.vy * r.vz - l.vz * r.vy;
    if (Math.abs(det) < 1e-12 * Math.hypot(l.vy, l.vz) * Math.hypot(r.vy, r.vz)) { out[axle] = null; continue; }
    const bl = l.vy * l.y + l.vz * l.z, br = r.vy * r.y + r.vz * r.z;
    const y = (bl * r.vz - l.vz * br) / det, z = (l.vy * br - bl * r.vy) / det;
    const X = rot(body.R, [(l.x + r.x) / 2, y, z]).map((v, j) => v + body.p[j]);
    out[axle] = { y: X[1], height: X[2] - m.road };
  }
  return out;
}

type Pose = { R: Float64Array; p: number[]; c0: number };

/**
 * A beam axle's roll centre, as the literature defines it for a beam (Milliken & Milliken, RCVD
 * ch. 17; Dixon, "Suspension Geometry and Computation" ch. 7): the point where the axle's roll
 * axis meets its vertical plane through the wheel centres. Kinematically, with the body held
 * the beam has two motions against it (bounce and roll, for a Panhard, a Watt's or a four-link
 * location); the roll is their combination that raises one wheel centre as much as it lowers
 * the other (against the body: no bounce), and its axis is that twist's instantaneous screw
 * axis, the points whose velocity is along the rotation. So a Panhard rod's centre is on the
 * rod's line above the wheels' midpoint and a Watt's linkage's at its pivot (both moving
 * across the beam with no speed of their own along the rod or sideways). Null when the beam
 * cannot roll against the body, or rolls about an axis in that plane.
 */
function beamRollCentre(m: VehicleModel, axle: AxleName, motions: Float64Array[], pose: (part: string) => Pose): RollCentre | null {
  const [wl, wr] = ['left', 'right'].map((side) => m.wheels.find((w) => w.axle === axle && w.side === side)!);
  const beam = pose(wl.upright), body = pose('body');
  if (beam.c0 < 0 || !wl.beam || wl.upright !== wr.upright) return null;
  // the beam's twists over the motions, reduced to a basis (ω scaled by a metre against v in mm)
  const basis: number[][] = [];
  const twists = motions.map((z) => Array.from(z.subarray(beam.c0, beam.c0 + 6)));
  const norm = (t: number[]) => Math.hypot(...t.slice(0, 3).map((x) => 1000 * x), ...t.slice(3));
  // a corner's motion leaves the beam still but for round-off: measured against the largest
  const size = Math.max(0, ...twists.map(norm));
  for (const t of twists) {
    for (const b of basis) {
      const d = t.reduce((acc, x, i) => acc + x * b[i] * (i < 3 ? 1e6 : 1), 0);
      for (let i = 0; i < 6; i++) t[i] -= d * b[i];
    }
    const left = norm(t);
    if (left > 1e-8 * size) basis.push(t.map((x) => x / left));
  }
  if (basis.length !== 2) return null;
  const centres = [wl, wr].map((w) => rot(beam.R, w.centre).map((x, j) => x + beam.p[j]));
  const zb = [body.R[2], body.R[5], body.R[8]];
  // world velocity of a world point P under a twist (ω, v) of the beam's body frame
  const velocity = (t: number[], P: number[]) => rot(beam.R, cross(t.slice(0, 3), rotT(beam.R, P.map((x, j) => x - beam.p[j]))).map((x, j) => x + t[3 + j]));
  const rise = (t: number[]) => centres.reduce((acc, P) => { const v = velocity(t, P); return acc + v[0] * zb[0] + v[1] * zb[1] + v[2] * zb[2]; }, 0);
  const [r1, r2] = basis.map(rise);
  const roll = basis[0].map((x, i) => r2 * x - r1 * basis[1][i]);
  const W = rot(beam.R, roll.slice(0, 3)), w2 = W[0] * W[0] + W[1] * W[1] + W[2] * W[2];
  if (!(w2 > 0)) return null;
  // the axis: through O + (Ω × V_O)/|Ω|², along Ω; met with the plane through O, normal (C_r − C_l) × z_body
  const O = centres[0].map((x, j) => (x + centres[1][j]) / 2), VO = velocity(roll, O);
  const A = cross(W, VO).map((x, j) => O[j] + x / w2);
  const n = cross(centres[1].map((x, j) => x - centres[0][j]), zb);
  const nW = n[0] * W[0] + n[1] * W[1] + n[2] * W[2];
  if (Math.abs(nW) < 1e-9 * Math.hypot(...n) * Math.sqrt(w2)) return null;
  const t = (n[0] * (O[0] - A[0]) + n[1] * (O[1] - A[1]) + n[2] * (O[2] - A[2])) / nW;
  return { y: A[1] + t * W[1], height: A[2] + t * W[2] - m.road };
}

/** The admissible motions with the body still: N's combinations whose body twist vanishes (elimination on its six rows). */
function bodyStillMotions(N: Float64Array, k: number, n: number, b0: number): Float64Array[] {
  // columns as vectors; eliminate the body's six entries one by one
  let cols = Array.from({ length: k }, (_, a) => Float64Array.from(N.subarray(a * n, (a + 1) * n)));
  for (let r = 0; r < 6; r++) {
    const slot = b0 + r;
    let piv = -1, big = 0;
    cols.forEach((c, i) => { if (Math.abs(c[slot]) > big) { big = Math.abs(c[slot]); piv = i; } });
    if (piv < 0 || big < 1e-14) continue;
    const p = cols[piv];
    cols = cols.filter((_, i) => i !== piv).map((c) => { const f = c[slot] / p[slot]; return f === 0 ? c : c.map((x, j) => x - f * p[j]); });
  }
  return cols;
}
