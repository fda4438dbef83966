/**
 * Ride modes of the whole vehicle (docs/vehicle-dynamics.md): the vehicle at rest
 * (solveVehicle at 0 g, its exact Newton), then the generalized eigenproblem of
 * src/mechanics/modes.ts (modesOf) on its constraint manifold with the exact reduced
 * stiffness (tangent.ts exactReduced: the constraints' full curvature, which reduce()
 * only approximates once the body itself turns) and reduce()'s mass and damping. The
 * body's datum (datum.ts, what holds x, y and yaw in the quasi-static analyses) is taken
 * out of the stiffness: a rolling car has none there, so those three are rigid motions
 * (0 Hz, named `rigid`). Each mode is named by where its kinetic energy is: the body's heave, pitch,
 * roll (or x, y, yaw) or one corner's unsprung parts (a wheel hop; a beam axle's hop and
 * tramp are its axle's).
 */
import { modeVectors, type Mode } from '../../mechanics/modes';
import { reduce } from '../../mechanics/reduced';
import { rotationMatrix } from '../../../kernel/dual';
import type { VehicleModel } from './assembly';
import { CORNERS } from './assembly';
import { solveVehicle } from './analysis';
import { exactReduced } from './tangent';

export type BodyMotion = 'heave' | 'pitch' | 'roll' | 'longitudinal' | 'lateral' | 'yaw';

export interface VehicleMode {
  /** heave, pitch, roll, longitudinal, lateral, yaw (the body's); rigid (0 Hz: x, y and yaw, which nothing holds); wheel_hop_<axle>, wheel_tramp_<axle> or wheel_hop_<corner> (the unsprung parts'); steer (the front wheels turning on the steering's spring: `steering.rack_stiffness`). */
  name: string;
  /** Hz, undamped; 0 for a rigid motion. */
  frequency: number;
  damping_ratio: number;
  /** Shares of the mode's kinetic energy (sum 1): the body's six motions, each corner's unsprung parts, axle_<axle> for parts shared by an axle's two sides (a beam, a bar). */
  energy: Record<string, number>;
  /** The body's motion in the shape (largest component of the whole shape 1): heave mm, pitch and roll deg (nose down +, right side down +). */
  body: { heave: number; pitch: number; roll: number };
  /** Set when the rest state is unstable along this mode: its e-folding rate, 1/s. */
  unstable?: number;
}

export interface VehicleModesResult {
  status: 'solved' | 'failed';
  modes: VehicleMode[];
  /** Hz: the lowest mode of each name (absent when no mode has it). */
  summary: {
    heave_frequency?: number; pitch_frequency?: number; roll_frequency?: number;
    /** With a steering stiffness: the front wheels steering on it. */
    steer_frequency?: number;
    /** Per axle: its wheels rising together (hop) and against each other (tramp). */
    wheel_hop_frequency: Partial<Record<'front' | 'rear', number>>; wheel_tramp_frequency: Partial<Record<'front' | 'rear', number>>;
  };
  message?: string;
}

/** Which corner (or axle) an unsprung part belongs to, by its name's prefix. */
function ownerOf(part: string): string {
  for (const c of CORNERS) if (part.startsWith(`${c}_`)) return c;
  return part.startsWith('front_') ? 'axle_front' : 'axle_rear';
}

/** The reduced stiffness without the datum's springs: −Nᵀ K_datum N subtracted. */
function withoutDatum(m: VehicleModel, ex: ReturnType<typeof exactReduced>): Float64Array {
  const { N, k, size: n, layout } = ex;
  const sys = m.dyn.system;
  const body = m.dyn.model.parts.get('body')!;
  const c0 = layout[body];
  const Kr = ex.Kr.slice();
  if (c0 < 0) return Kr;
  const Q = new Float64Array(6), K = new Float64Array(36);
  m.datum.evaluate(sys.state, Int32Array.of(sys.variables[body].offset), new Float64Array(12), 0, Q, K, null);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) {
    let s = 0;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) s += N[a * n + c0 + i] * K[i * 6 + j] * N[b * n + c0 + j];
    Kr[a * k + b] += s; // Kr = −Nᵀ K N: taking K_datum out adds it back
  }
  return Kr;
}

/** Kinetic-energy shares of one mode from its shape (world translation of each part's origin, rotation in the file's angle unit). */
function energyShares(m: VehicleModel, mode: Mode): { energy: Record<string, number>; rise: Record<string, number>; sway: Record<string, number> } {
  const { dyn } = m, sys = dyn.system, af = dyn.model.angleFactor;
  const out: Record<string, number> = {}, rise: Record<string, number> = {}, sway: Record<string, number> = {};
  const R = new Float64Array(9);
  for (const b of dyn.bodies) {
    const s = mode.shape[b.part];
    if (!s || typeof s === 'number') continue;
    rotationMatrix(R, sys.state, sys.variables[b.variable].offset + 3);
    const w = s.rotation.map((x) => x * af);
    const c = [0, 1, 2].map((i) => R[3 * i] * b.body.centre[0] + R[3 * i + 1] * b.body.centre[1] + R[3 * i + 2] * b.body.centre[2]);
    // the centre's displacement t + w × (R c), and the rotation's energy wᵀ (R I Rᵀ) w
    const v = [s.translation[0] + w[1] * c[2] - w[2] * c[1], s.translation[1] + w[2] * c[0] - w[0] * c[2], s.translation[2] + w[0] * c[1] - w[1] * c[0]];
    const wb = [0, 1, 2].map((i) => R[i] * w[0] + R[3 + i] * w[1] + R[6 + i] * w[2]);
    const I = b.body.inertia, mass = b.body.mass;
    if (b.part === 'body') {
      const add = (k: BodyMotion, e: number) => { out[k] = (out[k] ?? 0) + e; };
      add('longitudinal', mass * v[0] ** 2); add('lateral', mass * v[1] ** 2); add('heave', mass * v[2] ** 2);
      add('roll', I[0] * wb[0] ** 2); add('pitch', I[4] * wb[1] ** 2); add('yaw', I[8] * wb[2] ** 2);
      continue;
    }
    if (b.part.endsWith('_wheel')) { rise[b.part.slice(0, -6)] = v[2]; sway[b.part.slice(0, -6)] = Math.hypot(v[0], v[1]); }
    let rot = 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) rot += wb[i] * I[3 * i + j] * wb[j];
    const key = ownerOf(b.part);
    out[key] = (out[key] ?? 0) + mass * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2) + rot;
  }
  const total = Object.values(out).reduce((t, e) => t + e, 0);
  for (const k of Object.keys(out)) out[k] = total > 0 ? out[k] / total : 0;
  return { energy: out, rise, sway };
}

/**
 * A mode's name: the body motion with the most energy, unless the unsprung parts together
 * have more. Then the axle with the most: `wheel_hop_<axle>` with its wheels rising together,
 * `wheel_tramp_<axle>` against each other, `wheel_hop_<corner>` when one wheel has 80 % of it.
 */
function nameOf(energy: Record<string, number>, rise: Record<string, number>, steer: Record<string, number> | null): string {
  let best = '', e = -1;
  for (const k of BODY) if ((energy[k] ?? 0) > e) { best = k; e = energy[k] ?? 0; }
  const axleEnergy = (a: 'front' | 'rear') => (energy[`${a}_left`] ?? 0) + (energy[`${a}_right`] ?? 0) + (energy[`axle_${a}`] ?? 0);
  const unsprung = axleEnergy('front') + axleEnergy('rear');
  if (unsprung <= e) return best;
  const axle = axleEnergy('front') >= axleEnergy('rear') ? 'front' : 'rear';
  // on a steering spring the front wheels also turn: `steer` when their centres move more across the road than up
  const across = (rs: Record<string, number>) => (rs.front_left ?? 0) ** 2 + (rs.front_right ?? 0) ** 2;
  if (steer && axle === 'front' && across(steer) > across(rise)) return 'steer';
  for (const side of ['left', 'right']) if ((energy[`${axle}_${side}`] ?? 0) > 0.8 * axleEnergy(axle)) return `wheel_hop_${axle}_${side}`;
  return (rise[`${axle}_left`] ?? 0) * (rise[`${axle}_right`] ?? 0) >= 0 ? `wheel_hop_${axle}` : `wheel_tramp_${axle}`;
}
const BODY: readonly BodyMotion[] = ['heave', 'pitch', 'roll', 'longitudinal', 'lateral', 'yaw'];

/** The vehicle's modes at rest, lowest first, each named; the three rigid motions (x, y, yaw) at 0 Hz. */
export function vehicleModes(m: VehicleModel): VehicleModesResult {
  const summary: VehicleModesResult['summary'] = { wheel_hop_frequency: {}, wheel_tramp_frequency: {} };
  const rest = solveVehicle(m, { ax: 0, ay: 0 });
  if (rest.status !== 'solved') return { status: 'failed', modes: [], summary, message: `no state at rest to linearise about: ${rest.message}` };
  const at = modesAtRest(m);
  if (typeof at === 'string') return { status: 'failed', modes: [], summary, message: at };
  const { modes } = at;
  for (const md of modes) {
    if (md.name === 'heave' || md.name === 'pitch' || md.name === 'roll' || md.name === 'steer') summary[`${md.name}_frequency`] ??= md.frequency;
    const hop = /^wheel_(hop|tramp)_(front|rear)$/.exec(md.name);
    if (hop) summary[hop[1] === 'hop' ? 'wheel_hop_frequency' : 'wheel_tramp_frequency'][hop[2] as 'front' | 'rear'] ??= md.frequency;
  }
  return { status: 'solved', modes, summary };
}

/**
 * The named modes of the model at its solved rest state, each with its eigenpair (ω², the
 * M_r-normalised φ over ex.N) and the reduced system they solve (frequency-rates.ts reads them),
 * or why there are none.
 */
export function modesAtRest(m: VehicleModel): { modes: VehicleMode[]; pairs: { w2: number; phi: number[] }[]; rises: Record<string, number>[]; ex: ReturnType<typeof exactReduced> } | string {
  const ex = exactReduced(m);
  const red = reduce(m.dyn, { mass: true, damping: true });
  if (red.k !== ex.k) return 'the admissible motions differ between the stiffness and the mass (internal)';
  const Kr = withoutDatum(m, ex);
  const found = modeVectors(m.dyn, { ...red, N: ex.N, Kr });
  if (typeof found === 'string') return found;
  const top = found.reduce((t, md) => Math.max(t, md.mode.frequency), 0);
  const rises: Record<string, number>[] = [];
  const modes = found.map(({ mode: md }): VehicleMode => {
    const { energy, rise, sway } = energyShares(m, md);
    rises.push(rise);
    const b = md.shape.body as { translation: number[]; rotation: number[] };
    // a rigid motion's eigenvalue is round-off (|ω| below 1e-3 of the top one's): 0 Hz, never "unstable";
    // the three share one eigenvalue, so each is some mix of x, y and yaw: named `rigid`
    const rigid = Math.max(md.frequency * 2 * Math.PI, md.unstable ?? 0) < 1e-3 * top * 2 * Math.PI;
    if (rigid) return { name: 'rigid', frequency: 0, damping_ratio: 0, energy, body: bodyMotion(b) };
    const out: VehicleMode = { name: nameOf(energy, rise, m.spec.steering ? sway : null), frequency: md.frequency, damping_ratio: md.damping_ratio, energy, body: bodyMotion(b) };
    if (md.unstable !== undefined) out.unstable = md.unstable;
    return out;
  });
  return { modes, pairs: found.map(({ w2, phi }) => ({ w2, phi })), rises, ex };
}

function bodyMotion(b: { translation: number[]; rotation: number[] }): VehicleMode['body'] {
  // world rotation about −y is nose down (ISO y left), about x right side down
  return { heave: b.translation[2], pitch: b.rotation[1], roll: b.rotation[0] };
}
