/**
 * pwdsim's results (seed 002) from a `simulate` run of the pinewood car: the finish time
 * (the nose crossing the finish line, a vertical line through the track, interpolated within
 * the step), the speed of the centre of gravity at the finish and its maximum before, the
 * normal force of each axle over time and their minimum before the finish (a negative one:
 * that axle would lift off, warned), and the energy by term.
 *
 * Reads the run's frames as `simulate` prints them (dynamics.md): `state["body.pose"]`,
 * `velocities["body.pose"]` (linear mm/s of the body's origin, angular in the angle unit per
 * second, world axes), `reactions.<rolling mate>.normal` (N), `energy` (J).
 */

export interface PoseJSONLike { position: readonly number[]; rotation: readonly number[] }
export interface FrameLike {
  t: number;
  state: Readonly<Record<string, unknown>>;
  velocities: Readonly<Record<string, unknown>>;
  energy: { kinetic: number; potential: number; elastic: number; dissipated: number; external: number; total: number };
  reactions: Readonly<Record<string, unknown>>;
}

export interface PinewoodGeometry {
  /** The finish line's x (mm). */
  finishX: number;
  /** Points of the body (its frame, mm). */
  nose: readonly number[];
  cg: readonly number[];
  /** Rolling mates of the rear and front axles. */
  rearMate: string;
  frontMate: string;
  /** Radians per file angle unit (π/180 for degrees). */
  angleFactor: number;
}

export interface PinewoodResults {
  /** s; null when the car does not reach the finish line within the run. */
  finishTime: number | null;
  /** m/s, of the centre of gravity. */
  finishSpeed: number | null;
  maxSpeed: number;
  /** N, before the finish (over the whole run when it does not finish). */
  minNormalForce: { rear: number; front: number };
  /** One warning per axle whose normal force goes negative before the finish. */
  warnings: string[];
  /** Per frame: t (s), the centre of gravity's speed (m/s), the axles' normal forces (N), the nose's x (mm). */
  series: { t: number; speed: number; rear: number; front: number; noseX: number }[];
}

function rotate(q: readonly number[], p: readonly number[]): number[] {
  const [w, x, y, z] = q;
  const s = 1 / (w * w + x * x + y * y + z * z);
  // R(q) p for a not necessarily unit quaternion
  const r00 = 1 - 2 * s * (y * y + z * z), r01 = 2 * s * (x * y - w * z), r02 = 2 * s * (x * z + w * y);
  const r10 = 2 * s * (x * y + w * z), r11 = 1 - 2 * s * (x * x + z * z), r12 = 2 * s * (y * z - w * x);
  const r20 = 2 * s * (x * z - w * y), r21 = 2 * s * (y * z + w * x), r22 = 1 - 2 * s * (x * x + y * y);
  return [r00 * p[0] + r01 * p[1] + r02 * p[2], r10 * p[0] + r11 * p[1] + r12 * p[2], r20 * p[0] + r21 * p[1] + r22 * p[2]];
}

function normalOf(frame: FrameLike, mate: string): number {
  const r = frame.reactions[mate] as { normal?: number } | undefined;
  return r?.normal ?? NaN;
}

export function pinewoodResults(frames: readonly FrameLike[], geometry: PinewoodGeometry): PinewoodResults {
  const series = frames.map((f) => {
    const pose = f.state['body.pose'] as PoseJSONLike;
    const vel = f.velocities['body.pose'] as { linear: readonly number[]; angular: readonly number[] };
    const nose = rotate(pose.rotation, geometry.nose);
    const arm = rotate(pose.rotation, geometry.cg);
    const w = vel.angular.map((x) => x * geometry.angleFactor);
    // the centre of gravity's velocity: the origin's plus ω × (its offset)
    const v = [
      vel.linear[0] + w[1] * arm[2] - w[2] * arm[1],
      vel.linear[1] + w[2] * arm[0] - w[0] * arm[2],
      vel.linear[2] + w[0] * arm[1] - w[1] * arm[0],
    ];
    return { t: f.t, speed: Math.hypot(v[0], v[1], v[2]) / 1000, rear: normalOf(f, geometry.rearMate), front: normalOf(f, geometry.frontMate), noseX: pose.position[0] + nose[0] };
  });
  let finish = series.length;
  let finishTime: number | null = null, finishSpeed: number | null = null;
  for (let i = 1; i < series.length; i++) {
    const a = series[i - 1], b = series[i];
    if (a.noseX < geometry.finishX && b.noseX >= geometry.finishX) {
      const s = (geometry.finishX - a.noseX) / (b.noseX - a.noseX);
      finishTime = a.t + s * (b.t - a.t);
      finishSpeed = a.speed + s * (b.speed - a.speed);
      finish = i;
      break;
    }
  }
  const before = series.slice(0, finish);
  const minNormalForce = { rear: Math.min(...before.map((s) => s.rear)), front: Math.min(...before.map((s) => s.front)) };
  const warnings: string[] = [];
  for (const axle of ['rear', 'front'] as const) {
    const lift = before.find((s) => s[axle] < 0);
    if (lift) warnings.push(`the ${axle} axle's normal force goes negative at t = ${lift.t.toFixed(4)} s (${lift[axle].toFixed(4)} N): its wheels would lift off`);
  }
  return { finishTime, finishSpeed, maxSpeed: Math.max(...before.map((s) => s.speed)), minNormalForce, warnings, series };
}
