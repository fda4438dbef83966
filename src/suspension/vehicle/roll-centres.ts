/**
 * The kinematic roll centre of each axle at the solved (rolled) pose (vehicle.md `--ay`):
 * as the axle metric `roll_center_kinematic` defines it (docs/metrics.md), in the body's
 * front view — through each contact point the line perpendicular to the velocity of the
 * upright's material point there as that corner moves against the body — the two lines
 * intersected, here at the vehicle's pose rather than the axle file's level chassis. With
 * the body held, an independent corner has one motion against it, so any admissible motion
 * of the vehicle that keeps the body still and moves the upright gives that velocity's
 * direction. Reported in world axes: `y` (mm) and `height` above the road (mm); null on a
 * beam axle (its roll centre is the linkage's) or where the lines are parallel.
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
