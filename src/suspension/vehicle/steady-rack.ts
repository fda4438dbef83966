/**
 * Steady-state cornering steered through the rack (docs/vehicle.md, `--steady-state --steer
 * rack`): the rack's travel is the unknown the turn is solved for, so each front wheel's
 * heading comes from the solved pose — the steering linkage (its Ackermann), roll and bump
 * steer, and the compliance the axle files give — never from an angle imposed at the wheels.
 * With a `driven_axle`, the driven tyres' slip ratio κ (one for both: a locked differential)
 * is a third unknown: their longitudinal force holds the speed against the tyres' drag in the
 * turn (the x balance Σ Fx + M a sin β = 0), its torque reacted by the body (an inboard
 * drive; a beam axle's by the beam).
 *
 * Found in passes as the wheel-steer analysis is (steady-state.ts): at a solved pose, Newton
 * on the balances in (rack, β, κ), the front wheels' headings moved by the rack through their
 * rates at rest (the linkage's ratio: only the passes' speed depends on it, not the answer);
 * then the pose again at that rack under the tyres' forces; until the rack settles.
 *
 * `steer` is the rack travel times the linkage's mean ratio at rest (deg of steer at the
 * wheels per mm: SAE J266's steering-wheel angle over the overall ratio), so the understeer
 * gradient dsteer/d(ay) at 0 g keeps the bicycle model's meaning; it is exact, by the implicit
 * function theorem over the coupled state as steadyLinearisation does, with the rack's own
 * pose rate (rack.ts) in place of a steer at the wheels.
 */
import { Forward4, type TyreModel } from '../../../mates/tyres';
import type { VehicleModel, VehicleWheel } from './assembly';
import { solveVehicle } from './analysis';
import {
  M_S2_PER_G, balances, datumLoads, datumRegs, kinematicGuess, plainPose, steadyTyres, tyreLoads, unitLoad, wheelInputs,
  type Rate, type SteadyStep, type SteadySummary, type WheelIn,
} from './steady-state';
import type { StateResult } from './analysis';
import { gaussSolve, poseTangents } from './tangent';
import { frontRack, rackTangent, setRack, type Rack } from './rack';
import { VehicleInputError, VehicleSingularError } from './errors';

const DEG = 180 / Math.PI;
/** Passes; rad of steer at the wheels (the rack's change times the ratio) that ends them. */
const PASSES = 40, SETTLED = 1e-10;

export interface RackSetup {
  rack: Rack;
  /** rad of each wheel's heading per mm of rack at rest (0 on the rear). */
  gains: number[];
  /** rad/mm: the front wheels' mean. */
  ratio: number;
  /** Which wheels take the drive's κ (none without a driven_axle). */
  driven: boolean[];
  drive: boolean;
  /** rad: each wheel's heading in the body's axes at rest. */
  restHeading: number[];
  /**
   * An open differential: the driven pair's wheel indices [left, right] and their radii (mm);
   * each takes its own κ (κ is then the left's), the drive's torque split equally (r_l Fx_l = r_r Fx_r).
   */
  open?: { pair: [number, number]; radius: [number, number] };
  /** The tyres' aligning moments on the uprights too (the contacts' mz): the steering's compliance takes them. */
  aligning?: boolean;
}

export type RackStep = SteadyStep & {
  /** mm from the rack's travel at rest (+ as the rack coordinate). */
  rack?: number;
  /** deg: each front wheel's heading against the body's, from its heading at rest (left +). */
  wheel_steer?: { front_left: number; front_right: number };
  /** With a steering stiffness: mm of the rack from the held travel (+ as the rack), and the steering's force on it (N). */
  rack_deflection?: number;
  rack_force?: number;
  /** The driven tyres' slip ratio (one for both), with a driven_axle. */
  slip_ratio?: number;
  /** With an open differential: each driven tyre's slip ratio (in place of slip_ratio). */
  slip_ratios?: Record<string, number>;
};
export type RackStateStep = RackStep & (StateResult | { status: 'failed'; message: string });
export interface RackSummary extends SteadySummary {
  /** deg/mm: the front wheels' mean steer per mm of rack at rest (what `steer` is the rack times). */
  rack_steer_gain: number;
  /** mm: the rack as the speed goes to zero. */
  kinematic_rack: number;
}

/** A wheel's heading (rad, left +) in the body's axes at the current pose. */
function bodyHeading(m: VehicleModel, w: VehicleWheel): number {
  const b = plainPose(m, 'body').R, u = plainPose(m, w.upright).R;
  const aw = [0, 1, 2].map((r) => u[3 * r] * w.axis[0] + u[3 * r + 1] * w.axis[1] + u[3 * r + 2] * w.axis[2]);
  const ab = [0, 1, 2].map((c) => b[c] * aw[0] + b[3 + c] * aw[1] + b[6 + c] * aw[2]);
  const sigma = w.side === 'left' ? 1 : -1;
  return Math.atan2(-sigma * ab[0], sigma * ab[1]);
}

/** A pose rate from a tangent in the solver's layout (the parts the layout leaves out stand still). */
function ratesOf(m: VehicleModel, delta: Float64Array, layout: Int32Array): (part: string) => Rate {
  return (part) => {
    const q = plainPose(m, part), c0 = layout[m.dyn.model.parts.get(part)!];
    return c0 < 0 ? q : { ...q, w: delta.subarray(c0, c0 + 3), v: delta.subarray(c0 + 3, c0 + 6) };
  };
}

/** The rack, its ratio at rest and the drive's wheels; the model is left at rest with the rack at its travel at rest. */
export function rackSetup(m: VehicleModel, models: readonly TyreModel[], differential: 'locked' | 'open' = 'locked', aligning = false): RackSetup | { status: 'failed'; message: string } {
  const rack = frontRack(m, '--steer rack');
  setRack(m, rack, 0);
  const axle = m.spec.driven_axle;
  const driven = m.wheels.map((w) => w.axle === axle);
  for (const w of m.wheels) {
    if (w.axle === axle && !w.tyre.tir && !(w.tyre.longitudinal_stiffness! > 0)) throw new VehicleInputError(`tyres.${w.axle}.longitudinal_stiffness`, 'the drive at the driven tyres (--steer rack) needs the tyre\'s longitudinal stiffness (N per % of slip) or a .tir file');
  }
  const rest = solveVehicle(m, { ax: 0, ay: 0 });
  if (rest.status !== 'solved') return { status: 'failed', message: `at rest: ${rest.message}` };
  const { delta, layout } = rigidRackTangent(m, rack);
  const t = new Forward4();
  const inp = wheelInputs(t, m, models, rest, ratesOf(m, delta, layout));
  const gains = m.wheels.map((w, i) => (w.axle === 'front' ? t.deriv(inp.wheels[i].psi, 2) : 0));
  const ratio = m.wheels.reduce((s, w, i) => s + (w.axle === 'front' ? gains[i] / 2 : 0), 0);
  if (!(Math.abs(ratio) > 0)) throw new VehicleInputError('--steer rack', 'the rack does not steer the front wheels');
  const setup: RackSetup = { rack, gains, ratio, driven, drive: axle !== undefined, restHeading: m.wheels.map((w) => bodyHeading(m, w)), ...(aligning ? { aligning } : {}) };
  if (differential === 'open') {
    if (axle === undefined) throw new VehicleInputError('vehicle_config.driven_axle', 'an open differential (--differential open) sits on the driven axle: give it');
    const side = (s: string) => m.wheels.findIndex((w) => w.axle === axle && w.side === s);
    const pair: [number, number] = [side('left'), side('right')];
    setup.open = { pair, radius: [m.wheels[pair[0]].radius, m.wheels[pair[1]].radius] };
  }
  return setup;
}

/**
 * The state's rate per mm of the rack itself at rest, as if held rigidly: with a steering
 * stiffness the held travel's tangent moves the rack by s mm per mm (the spring in series with
 * what else resists the rack), along the curve of states balanced but for the rack's own
 * coordinate, which the rigid rack's tangent follows at one mm per mm: that tangent over s.
 * So the ratio (and `steer`) stays the linkage's, and the spring's give is compliance steer.
 */
function rigidRackTangent(m: VehicleModel, rack: Rack): { delta: Float64Array; layout: Int32Array } {
  const r = rackTangent(m, rack);
  if (!rack.spring) return r;
  const s = r.delta[r.layout[rack.variable]] / rack.unit;
  if (!(Math.abs(s) > 1e-9)) throw new VehicleInputError('steering.rack_stiffness', 'the rack does not move with the held travel');
  return { delta: r.delta.map((x) => x / s), layout: r.layout };
}

/** With a steering stiffness: the rack's give at the state (mm, + as the rack) and the spring's force on it (N). */
function springOf(m: VehicleModel, rack: Rack): { rack_deflection: number; rack_force: number } | Record<string, never> {
  if (!rack.spring) return {};
  const d = m.dyn.system.getScalar(rack.variable) - rack.spring.free;
  return { rack_deflection: d / rack.unit, rack_force: -rack.spring.stiffness * d };
}

/** The contacts' loads of the tyres' forces, their drive's torque on the body at the driven wheels. */
export function rackLoads(f: ArrayLike<number>, ay: number, beta: number, setup: RackSetup) {
  const base = tyreLoads(f, ay, beta);
  return (m: VehicleModel) => {
    base(m);
    if (setup.drive) m.contacts.forEach((c, i) => { if (setup.driven[i]) c.loads[4] = 1; });
    // with the aligning moments: f is [fx, fy per wheel…, mz per wheel…]
    if (setup.aligning) m.contacts.forEach((c, i) => { c.loads[6] = f[2 * m.contacts.length + i]; });
  };
}

/**
 * The tyres' loads as the state's unknowns: world fx, fy per wheel, then (with the aligning moments)
 * mz per wheel, then the datum's two (steady-state.ts DATUM_LOADS); a in m/s².
 */
function tyreForces(setup: RackSetup, x: { fx: number[]; fy: number[]; mz: number[]; beta: number }, a: number, M: number): number[] {
  const f = x.fx.flatMap((fx, i) => [fx, x.fy[i]]);
  return [...f, ...(setup.aligning ? x.mz : []), ...datumLoads(x, a, x.beta, M, carried(setup))];
}

/** What the datum's preload takes: the x force where no drive at the tyres does, the aligning moments' yaw where they are not on the uprights. */
const carried = (setup: RackSetup) => ({ x: !setup.drive, mz: !setup.aligning });

interface RackSolution { ds: number; beta: number; kappa: number; kappaR: number; converged: boolean; alpha: number[]; fy: number[]; fx: number[]; long: number[]; mz: number[] }

/**
 * The wheels' registers with the drive's slip: an open differential's driven pair each its own
 * κ (directions dl and dr), the torque row r_l Fx_l − r_r Fx_r over r_l (N) after the balances.
 */
function openWheels(setup: RackSetup, wheels: WheelIn[], kl: number, kr: number): WheelIn[] {
  const { pair } = setup.open!;
  return wheels.map((w, i) => (i === pair[0] ? { ...w, kappa: kl } : i === pair[1] ? { ...w, kappa: kr } : w));
}
function torqueRow(t: Forward4, setup: RackSetup, longRegs: number[]): number {
  const { pair, radius } = setup.open!;
  return t.sub(longRegs[pair[0]], t.k(longRegs[pair[1]], radius[1] / radius[0]));
}

/** Newton at a solved pose on (rack change ds mm, β rad, κ): the front wheels' headings move by their gains. */
function solveRack(t: Forward4, m: VehicleModel, models: readonly TyreModel[], setup: RackSetup, state: Parameters<typeof wheelInputs>[3], aMs2: number, Rmm: number, beta0: number, kappa0: number, kappaR0 = kappa0): RackSolution {
  let ds = 0, b = beta0, k = kappa0, kr = kappaR0;
  const out = { alpha: [] as number[], fy: [] as number[], fx: [] as number[], long: [] as number[], longRegs: [] as number[], mz: [] as number[] };
  const M = m.totalMass, tol = 1e-9 * M * 9.81, open = setup.open !== undefined, n = open ? 4 : setup.drive ? 3 : 2;
  const done = (converged: boolean) => ({ ds, beta: b, kappa: k, kappaR: open ? kr : k, converged, alpha: out.alpha, fy: out.fy, fx: out.fx, long: out.long, mz: out.mz });
  for (let it = 0; it < 30; it++) {
    t.reset();
    const inp = wheelInputs(t, m, models, state, null);
    const plain = inp.wheels.map((w, i) => ({ ...w, gain: setup.gains[i], driven: setup.driven[i] }));
    // locked: κ along direction 3; open: the pair's own κ along 2 and 3 (the shared one unused)
    const wheels = open ? openWheels(setup, plain, t.seed(k, 2), t.seed(kr, 3)) : plain;
    const g = balances(t, wheels, t.seed(ds, 0), t.seed(b, 1), t.c(aMs2), M, Rmm, inp.o, inp.cgOff, out, setup.drive ? (open ? t.c(0) : t.seed(k, 3)) : undefined);
    if (open) g.push(torqueRow(t, setup, out.longRegs));
    const r = g.map((x) => t.val(x));
    if (Math.abs(r[0]) < tol && Math.abs(r[1]) < tol * 1000 && (n < 3 || Math.abs(r[2]) < tol) && (n < 4 || Math.abs(r[3]) < tol)) return done(true);
    const dirs = [0, 1, ...(open ? [2, 3] : [3])].slice(0, n), J = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) J[i * n + j] = t.deriv(g[i], dirs[j]);
    const s = gaussSolve(J, Float64Array.from(r.map((x) => -x)), n);
    ds += s[0]; b += s[1]; if (n >= 3) k += s[2]; if (n === 4) kr += s[3];
    if (![ds, b, k, kr].every(Number.isFinite)) break;
  }
  return done(false);
}

/** The rack (mm), β (rad), κ (the left driven tyre's with an open differential) and the right's κ there. */
export interface RackGuess { rack: number; beta: number; kappa: number; kappaR?: number }

/** The steady state at ay (g) on the radius through the rack, from `start`; the model is left at it. */
export function rackSteadyState(m: VehicleModel, models: readonly TyreModel[], setup: RackSetup, t: Forward4, ay: number, Rmm: number, start: RackGuess) {
  const aMs2 = ay * M_S2_PER_G;
  let cur = start.rack, guess = start;
  setRack(m, setup.rack, cur);
  let s = solveVehicle(m, { ax: 0, ay });
  for (let pass = 0; pass < PASSES; pass++) {
    if (s.status !== 'solved') return { state: s, steer: null };
    const x = solveRack(t, m, models, setup, s, aMs2, Rmm, guess.beta, guess.kappa, guess.kappaR);
    if (!x.converged) return { state: s, steer: null };
    const f = tyreForces(setup, x, aMs2, m.totalMass);
    if (pass > 0 && Math.abs(x.ds * setup.ratio) < SETTLED) return { state: s, steer: { ...x, rack: cur }, forces: f };
    cur += x.ds;
    guess = { rack: cur, beta: x.beta, kappa: x.kappa, ...(setup.open ? { kappaR: x.kappaR } : {}) };
    setRack(m, setup.rack, cur);
    s = solveVehicle(m, { ax: 0, ay }, rackLoads(f, ay, x.beta, setup));
  }
  return { state: s, steer: null };
}

/**
 * The coupled state's linearisation through the rack at ay (g; the summary's at 0 g) on the
 * radius: unknowns the tyres' world forces f (8), the rack, β and (with a drive) κ; the
 * pose's rate is Q_ay + Σ Q_j df_j + q_rack drack (poseTangents and rackTangent on one
 * state). The state (Newton from `guess`), the pose's rates (`deltas`, the rack's `qr`), the
 * matrix A of the implicit function theorem and its solution u along ay (f′ per g, then the
 * rack's mm, β′ rad and κ′ per g); the model is left at that state under its loads.
 */
export function rackLinearisation(m: VehicleModel, models: readonly TyreModel[], setup: RackSetup, Rmm: number, ay = 0, guess?: RackGuess) {
  const t = new Forward4(), M = m.totalMass;
  const rest = rackSteadyState(m, models, setup, t, ay, Rmm, guess ?? { rack: kinematicGuess(m, Rmm) / setup.ratio, beta: 0, kappa: 0 });
  if (rest.state.status !== 'solved' || !rest.steer) return { status: 'failed' as const, message: rest.state.status !== 'solved' ? `at rest: ${rest.state.message}` : 'no rack travel balances the tyres at rest on the radius' };
  const state = rest.state, x0 = rest.steer, f0 = rest.forces!, nf = f0.length;
  const base = rackLoads(f0, ay, x0.beta, setup);
  const directions = [(mm: VehicleModel) => { mm.inertia.accel[0] -= Math.sin(x0.beta); mm.inertia.accel[1] += Math.cos(x0.beta); },
    ...f0.map((_, j) => unitLoad(m, nf, j))];
  const { deltas, layout } = poseTangents(m, base, directions);
  base(m);
  const qr = rackTangent(m, setup.rack);
  const a0 = ay * M_S2_PER_G;
  // per direction: the tyres' forces' and the balances' rates (direction 0: κ, 1: β, 2: the pose's and ay's;
  // 3: an open differential's right κ, its torque row after the balances)
  const open = setup.open !== undefined;
  const along = (delta: Float64Array | null, lay: Int32Array, aSeed: boolean) => {
    t.reset();
    const inp = wheelInputs(t, m, models, state, delta ? ratesOf(m, delta, lay) : null);
    const plain = inp.wheels.map((w, i) => ({ ...w, gain: 0, driven: setup.driven[i] }));
    const wheels = open ? openWheels(setup, plain, t.seed(x0.kappa, 0), t.seed(x0.kappaR, 3)) : plain;
    const out = { alpha: [] as number[], fy: [] as number[], fx: [] as number[], regs: [] as number[], longRegs: [] as number[], mzRegs: [] as number[] };
    const a = aSeed ? (ay === 0 ? t.k(t.seed(0, 2), M_S2_PER_G) : t.lin(a0, M_S2_PER_G, t.seed(0, 2))) : t.c(a0);
    const beta = t.seed(x0.beta, 1);
    const g = balances(t, wheels, t.c(0), beta, a, M, Rmm, inp.o, inp.cgOff, out, setup.drive ? (open ? t.c(0) : t.seed(x0.kappa, 0)) : undefined);
    const datum = datumRegs(t, out.regs.filter((_, i) => i % 2 === 0), out.mzRegs, a, beta, M, carried(setup));
    const regs = [...out.regs, ...(setup.aligning ? out.mzRegs : []), ...datum, ...g, ...(open ? [torqueRow(t, setup, out.longRegs)] : [])];
    return [0, 1, 2, 3].map((k) => regs.map((r) => t.deriv(r, k)));
  };
  const nb = open ? 4 : setup.drive ? 3 : 2, n = nf + nb, A = new Float64Array(n * n), rhs = new Float64Array(n);
  const direct = along(null, layout, true);
  const ayPose = along(deltas[0], layout, false)[2], rackPose = along(qr.delta, qr.layout, false)[2];
  for (let r = 0; r < n; r++) {
    const sg = r < nf ? -1 : 1;
    A[r * n + nf] = sg * rackPose[r];
    A[r * n + nf + 1] = sg * direct[1][r];
    if (setup.drive) A[r * n + nf + 2] = sg * direct[0][r];
    if (open) A[r * n + nf + 3] = sg * direct[3][r];
    rhs[r] = r < nf ? ayPose[r] : -(ayPose[r] + direct[2][r]);
    if (r < nf) A[r * n + r] += 1;
  }
  for (let j = 0; j < nf; j++) {
    const d = along(deltas[1 + j], layout, false)[2];
    for (let r = 0; r < n; r++) A[r * n + j] += r < nf ? -d[r] : d[r];
  }
  const u = gaussSolve(A, rhs, n);
  return { status: 'solved' as const, state, x0, f0, nf, nb, deltas, layout, qr, A, u, base, along: (delta: Float64Array | null, aSeed: boolean) => along(delta, layout, aSeed) };
}

/** The understeer and sideslip gradients at 0 g on the radius through the rack (rackLinearisation's u). */
export function rackSummary(m: VehicleModel, models: readonly TyreModel[], setup: RackSetup, Rmm: number): RackSummary | { status: 'failed'; message: string } {
  const lin = rackLinearisation(m, models, setup, Rmm);
  if (lin.status === 'failed') return lin;
  const { u, nf, x0 } = lin;
  return {
    understeer_gradient: u[nf] * setup.ratio * DEG, kinematic_steer: x0.rack * setup.ratio * DEG, sideslip_gradient: u[nf + 1] * DEG,
    rack_steer_gain: setup.ratio * DEG, kinematic_rack: x0.rack,
  };
}

/**
 * A step's solve, a pose the reduced stiffness cannot hold (a driven wheel spun up by a κ far
 * beyond its grip: an open differential's inner wheel) taken as no steady state.
 */
function steadyStep(solve: () => ReturnType<typeof rackSteadyState>): ReturnType<typeof rackSteadyState> | { state: { status: 'failed'; message: string }; steer: null } {
  try {
    return solve();
  } catch (e) {
    if (e instanceof VehicleSingularError) return { state: { status: 'failed', message: `no steady state with the tyres (beyond their grip? a driven wheel spun up: ${e.message})` }, steer: null };
    throw e;
  }
}

/** Sweep the speed on a radius (m; speeds km/h) through the rack: each step's rack, steer, wheels' steer, sideslip, drive and tyres. */
export function rackSteadySweep(m: VehicleModel, radius: number, speeds: readonly number[], progress?: (done: number, total: number) => void, differential: 'locked' | 'open' = 'locked', aligning = false):
  { status: 'solved' | 'failed'; message?: string; radius: number; steer_input: 'rack'; differential?: 'open'; aligning_moments?: true; steps: RackStateStep[]; summary?: RackSummary } {
  const models = steadyTyres(m);
  const setup = rackSetup(m, models, differential, aligning);
  if ('status' in setup) return { status: 'failed', message: setup.message, radius, steer_input: 'rack', steps: [] };
  const Rmm = radius * 1000, t = new Forward4(), sys = m.dyn.system;
  const atRest = sys.snapshot();
  const summary = rackSummary(m, models, setup, Rmm);
  if ('status' in summary) return { status: 'failed', message: summary.message, radius, steer_input: 'rack', steps: [] };
  let guess: RackGuess = { rack: summary.kinematic_rack, beta: 0, kappa: 0 };
  const open = { ...(setup.open ? { differential: 'open' as const } : {}), ...(setup.aligning ? { aligning_moments: true as const } : {}) };
  const steps: RackStateStep[] = [];
  speeds.forEach((kmh, i) => {
    const V = kmh / 3.6, ay = (V * V) / radius / M_S2_PER_G;
    const r = steadyStep(() => rackSteadyState(m, models, setup, t, ay, Rmm, guess));
    const s = r.state, x = r.steer;
    if (s.status !== 'solved' || !x) {
      sys.restore(atRest); setRack(m, setup.rack, 0);
      steps.push(s.status !== 'solved' ? { speed: kmh, ay, ...s } : { speed: kmh, ay, status: 'failed', message: `no steady state with the tyres at ${kmh} km/h (beyond their grip?)` });
    } else {
      guess = { rack: x.rack, beta: x.beta, kappa: x.kappa, ...(setup.open ? { kappaR: x.kappaR } : {}) };
      const body = plainPose(m, 'body').R;
      const steer = x.rack * setup.ratio;
      const heading = (k: number) => (bodyHeading(m, m.wheels[k]) - setup.restHeading[k]) * DEG;
      const front = m.wheels.map((w, k) => [w.corner, k] as const).filter(([c]) => c.startsWith('front'));
      const tyres = Object.fromEntries(m.wheels.map((w, k) => [w.corner, { slip_angle: x.alpha[k] * DEG, load: s.corners[w.corner].contact_load[2], lateral_force: x.fy[k], longitudinal_force: x.long[k], ...(setup.aligning ? { aligning_moment: x.mz[k] } : {}) }]));
      steps.push({
        speed: kmh, ay, steer: steer * DEG, sideslip: (x.beta - Math.atan2(body[3], body[0])) * DEG, yaw_rate_gain: V / radius / steer,
        drive_force: setup.drive ? m.wheels.reduce((sum, _w, k) => sum + (setup.driven[k] ? x.long[k] : 0), 0) : m.datum.last.force[0],
        rack: x.rack, ...springOf(m, setup.rack), wheel_steer: Object.fromEntries(front.map(([c, k]) => [c, heading(k)])) as RackStep['wheel_steer'],
        ...(setup.open ? { slip_ratios: { [m.wheels[setup.open.pair[0]].corner]: x.kappa, [m.wheels[setup.open.pair[1]].corner]: x.kappaR } } : setup.drive ? { slip_ratio: x.kappa } : {}), tyres, ...s,
      });
    }
    progress?.(i + 1, speeds.length);
  });
  sys.restore(atRest); setRack(m, setup.rack, 0);
  return { status: steps.every((s) => s.status === 'solved') ? 'solved' : 'failed', radius, steer_input: 'rack', ...open, steps, summary };
}
