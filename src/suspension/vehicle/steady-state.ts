/**
 * Steady-state cornering on a radius with tyres (vehicle.md "Analyses": `--steady-state`).
 * At speed V on radius R the acceleration is ay = V²/R toward the centre. Each tyre's slip
 * angle follows from the steady motion — its contact's velocity V (cos β, sin β) + r × ρ,
 * r = V/R, against the wheel's heading (its toe and roll steer at the pose, + the steer δ
 * at the front wheels) — and its force from the tyre model at its load and camber (fy, mz;
 * free rolling, κ = 0). The state is found in turns: the pose under the `--ay` loads; δ and
 * β by Newton on the lateral and yaw balances; the pose again under the tyres' own forces;
 * until δ settles (docs/vehicle.md).
 *
 * The understeer gradient dδ/d(ay) at 0 g is exact, by the implicit function theorem over
 * the coupled state (the tyres' forces, δ, β; the pose's rate from poseTangents), every
 * partial by forward-mode AD (mates/tyres Forward4), never differences.
 * Angles out in degrees; ISO 8855: a left turn is positive steer, ay and yaw rate.
 */
import { Forward4, MirroredTyre, linearTyre, type Arith, type TyreModel } from '../../../mates/tyres';
import { rotationMatrix } from '../../../kernel/dual';
import type { VehicleModel, VehicleWheel } from './assembly';
import { solveVehicle, type SolvedState, type StateResult } from './analysis';
import { G } from './inertia-load';
import { gaussSolve, poseTangents } from './tangent';
import { VehicleInputError } from './errors';

const DEG = 180 / Math.PI;

export interface SteadyStep {
  /** km/h and g. */
  speed: number;
  ay: number;
  /** deg at the wheels (left turn +), deg (nose inward of the path +, ISO). */
  steer?: number;
  sideslip?: number;
  /** 1/s: yaw rate over the steer at the wheels. */
  yaw_rate_gain?: number;
  /** N: the forward force the drive must give at the steady speed (the tyres' drag in the turn; not applied at the tyres). */
  drive_force?: number;
  /** Per corner: slip angle (deg, ISO-W: + gives a force to the right) and vertical load (N). */
  tyres?: Record<string, { slip_angle: number; load: number; lateral_force: number; longitudinal_force?: number; aligning_moment?: number }>;
}
export type SteadyStateStep = SteadyStep & (StateResult | { status: 'failed'; message: string });

export interface SteadySummary {
  /** deg/g: dδ/d(ay) at 0 g on the radius. */
  understeer_gradient: number;
  /** deg: the steer at the wheels as the speed goes to zero (the kinematic steer, ≈ L/R). */
  kinematic_steer: number;
  /** deg/g: dβ/d(ay) at 0 g. */
  sideslip_gradient: number;
}

/** One wheel's inputs to the balances, as Forward4 registers (direction 2: d/d(ay) along the solved path). */
export interface WheelIn {
  x: number; y: number; psi: number; gamma: number; fz: number; model: TyreModel; front: boolean;
  /** Through the rack (steady-rack.ts): the front wheel's heading per unit of δ (then δ is rack travel), and whether the wheel is driven (takes κ). */
  gain?: number; driven?: boolean;
  /** An open differential (steady-rack.ts): this driven wheel's own slip ratio register, in place of the shared κ. */
  kappa?: number;
}

/** The tyre model of each wheel: the `.tir` file's (mirrored where the file's side differs) or the linear one. */
export function steadyTyres(m: VehicleModel): TyreModel[] {
  return m.wheels.map((w) => {
    const t = w.tyre;
    if (t.tir) {
      const side = t.tir.model.data.side;
      return side !== 'symmetric' && side !== w.side ? new MirroredTyre(t.tir.model) : t.tir.model;
    }
    if (t.cornering_stiffness === undefined) throw new VehicleInputError(`tyres.${w.axle}.cornering_stiffness`, 'steady-state cornering needs the tyre\'s cornering stiffness (N/deg) or a .tir file');
    return linearTyre({ stiffness: t.stiffness, cornering_stiffness: t.cornering_stiffness, longitudinal_stiffness: t.longitudinal_stiffness ?? 0, radius: w.radius });
  });
}

export type Rate = { R: ArrayLike<number>; p: ArrayLike<number>; w: ArrayLike<number>; v: ArrayLike<number> };

/** A rotation matrix entry and position as registers: R + ε R[ω]ₓ, p + ε R v (ε along direction 2). */
function poseRegisters(t: Forward4, q: Rate, eps: number): { R: number[]; p: number[] } {
  const { R, w, v } = q;
  const W = [0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0];
  const Rr: number[] = [];
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) {
    let d = 0;
    for (let k = 0; k < 3; k++) d += R[3 * r + k] * W[3 * k + c];
    Rr.push(t.lin(R[3 * r + c], d, eps));
  }
  const p = [0, 1, 2].map((r) => t.lin(q.p[r], R[3 * r] * v[0] + R[3 * r + 1] * v[1] + R[3 * r + 2] * v[2], eps));
  return { R: Rr, p };
}

export const mulRv = (t: Arith<number>, R: number[], x: ArrayLike<number>) => [0, 1, 2].map((r) => t.add(t.add(t.k(R[3 * r], x[0]), t.k(R[3 * r + 1], x[1])), t.k(R[3 * r + 2], x[2])));

/**
 * A wheel's contact point (x, y), heading, ISO-W camber (rad) from its upright's pose registers;
 * `move`: an axle point's rates of its centre and unit axis (the upright's frame) and of the road's
 * height, along the register `eps` (understeer-rates.ts).
 */
export function wheelGeometry(t: Arith<number>, w: VehicleWheel, pose: { R: number[]; p: number[] }, road: number,
  move?: { eps: number; centre: readonly number[]; axis: readonly number[]; road: number }): { x: number; y: number; psi: number; gamma: number; fz: number } {
  let c = mulRv(t, pose.R, w.centre).map((x, i) => t.add(x, pose.p[i]));
  let a0 = mulRv(t, pose.R, w.axis);
  if (move) {
    const dc = mulRv(t, pose.R, move.centre), da = mulRv(t, pose.R, move.axis);
    c = c.map((x, i) => t.add(x, t.mul(move.eps, dc[i])));
    a0 = a0.map((x, i) => t.add(x, t.mul(move.eps, da[i])));
  }
  const len = t.sqrt(t.add(t.add(t.sq(a0[0]), t.sq(a0[1])), t.sq(a0[2])));
  const sigma = w.side === 'left' ? 1 : -1;
  const a = a0.map((x) => t.div(t.k(x, sigma), len)); // to the left, unit
  // toward the ground in the wheel plane: a a_z − e_z, normalised, times the radius
  const s = [t.mul(a[0], a[2]), t.mul(a[1], a[2]), t.plus(t.mul(a[2], a[2]), -1)];
  const sl = t.sqrt(t.add(t.add(t.sq(s[0]), t.sq(s[1])), t.sq(s[2])));
  const x = t.add(c[0], t.k(t.div(s[0], sl), w.radius)), y = t.add(c[1], t.k(t.div(s[1], sl), w.radius));
  // the vertical load as the contact patch gives it: stiffness × the contact's depth below the road
  let fz = t.lin(w.tyre.stiffness * road, -w.tyre.stiffness, t.add(c[2], t.k(t.div(s[2], sl), w.radius)));
  if (move) fz = t.add(fz, t.k(move.eps, w.tyre.stiffness * move.road));
  // forward = a × e_z = (a_y, −a_x): heading atan(−a_x / a_y); camber about x (ISO-W +: top toward −y) atan(a_z / a_y)
  return { x, y, fz, psi: t.atan(t.div(t.k(a[0], -1), a[1])), gamma: t.atan(t.div(a[2], a[1])) };
}

/**
 * The two balances [lateral force N, yaw moment N·mm about the body's centre of mass] as
 * registers; δ, β, a (m/s²) registers; M kg; Rmm the radius; o the body's centre of mass (x, y
 * registers); cgOff the whole vehicle's centre of mass from o (mm, plain).
 */
export function balances(t: Arith<number>, wheels: readonly WheelIn[], delta: number, beta: number, a: number, M: number, Rmm: number, o: number[], cgOff: readonly number[], out?: { alpha: number[]; fy: number[]; fx: number[]; regs?: number[]; long?: number[]; longRegs?: number[]; mz?: number[]; mzRegs?: number[] }, kappa?: number): number[] {
  const cb = t.cos(beta), sb = t.sin(beta);
  let Fy = t.c(0), Mz = t.c(0), Fx = t.c(0);
  const zero = t.c(0);
  wheels.forEach((w, i) => {
    const rx = t.sub(w.x, o[0]), ry = t.sub(w.y, o[1]);
    // velocity over V: (cos β − ρy/R, sin β + ρx/R)
    const vx = t.sub(cb, t.k(ry, 1 / Rmm)), vy = t.add(sb, t.k(rx, 1 / Rmm));
    const psi = !w.front ? w.psi : w.gain === undefined ? t.add(w.psi, delta) : t.add(w.psi, t.k(delta, w.gain));
    const alpha = t.sub(t.atan(t.div(vy, vx)), psi);
    const f = w.model.forces(t, alpha, w.kappa ?? (w.driven && kappa !== undefined ? kappa : zero), w.fz, w.gamma, { fx: 0, fy: 0, mz: 0 });
    const cp = t.cos(psi), sp = t.sin(psi);
    const fxw = t.sub(t.mul(f.fx, cp), t.mul(f.fy, sp)), fyw = t.add(t.mul(f.fx, sp), t.mul(f.fy, cp));
    Fy = t.add(Fy, fyw);
    if (kappa !== undefined) Fx = t.add(Fx, fxw);
    Mz = t.add(Mz, t.add(t.sub(t.mul(rx, fyw), t.mul(ry, fxw)), f.mz));
    if (out) { out.alpha[i] = t.val(alpha); out.fy[i] = t.val(fyw); out.fx[i] = t.val(fxw); if (out.regs) { out.regs[2 * i] = fxw; out.regs[2 * i + 1] = fyw; } if (out.long) out.long[i] = t.val(f.fx); if (out.longRegs) out.longRegs[i] = f.fx; if (out.mz) out.mz[i] = t.val(f.mz); if (out.mzRegs) out.mzRegs[i] = f.mz; }
  });
  // the d'Alembert force −M a (−sin β, cos β) at the centre of mass: its y part and its moment about o
  const Ma = t.k(a, M);
  const g1 = t.sub(Fy, t.mul(Ma, cb));
  const g2 = t.sub(Mz, t.add(t.k(t.mul(Ma, cb), cgOff[0]), t.k(t.mul(Ma, sb), cgOff[1])));
  // with the drive (κ at the driven tyres): the x balance, Σ Fx + M a sin β = 0
  return kappa === undefined ? [g1, g2] : [g1, g2, t.add(Fx, t.mul(Ma, sb))];
}

/** The wheels' registers at the current solved pose; with `pose`, their derivatives along the pose's rates (direction 2). */
export function wheelInputs(t: Forward4, m: VehicleModel, models: readonly TyreModel[], state: SolvedState, rate: ((part: string) => Rate) | null) {
  const eps = t.seed(0, 2);
  const pose = rate ?? ((part: string) => plainPose(m, part));
  const wheels: WheelIn[] = m.wheels.map((w, i) => ({ ...wheelGeometry(t, w, poseRegisters(t, pose(w.upright), eps), m.road), model: models[i], front: w.axle === 'front' }));
  const b = poseRegisters(t, pose('body'), eps);
  const o = mulRv(t, b.R, m.cgDesign).map((x, i) => t.add(x, b.p[i]));
  const cgOff = [state.vehicle.cg[0] - t.val(o[0]), state.vehicle.cg[1] - t.val(o[1])];
  return { wheels, o, cgOff };
}

export function plainPose(m: VehicleModel, part: string): Rate {
  const v = m.dyn.system.variables[m.dyn.model.parts.get(part)!];
  const R = new Float64Array(9);
  rotationMatrix(R, m.dyn.system.state, v.offset + 3);
  return { R, p: m.dyn.system.state.subarray(v.offset, v.offset + 3), w: [0, 0, 0], v: [0, 0, 0] };
}

export type Inputs = ReturnType<typeof wheelInputs>;

/** Newton on (δ, β) at a solved pose; a in m/s². δ, β in rad and each tyre's slip angle (rad) and world lateral force (N). */
function solveSteer(t: Forward4, inputs: () => Inputs, aMs2: number, M: number, Rmm: number, start: readonly [number, number]) {
  let [d, b] = start;
  const out = { alpha: [] as number[], fy: [] as number[], fx: [] as number[], mz: [] as number[] };
  const tol = 1e-9 * M * 9.81;
  for (let it = 0; it < 30; it++) {
    t.reset();
    const inp = inputs();
    const [g1, g2] = balances(t, inp.wheels, t.seed(d, 0), t.seed(b, 1), t.c(aMs2), M, Rmm, inp.o, inp.cgOff, out);
    const r = [t.val(g1), t.val(g2)];
    if (Math.abs(r[0]) < tol && Math.abs(r[1]) < tol * 1000) return { delta: d, beta: b, converged: true, ...out };
    const s = gaussSolve(Float64Array.of(t.deriv(g1, 0), t.deriv(g1, 1), t.deriv(g2, 0), t.deriv(g2, 1)), Float64Array.of(-r[0], -r[1]), 2);
    d += s[0]; b += s[1];
    if (!Number.isFinite(d) || !Number.isFinite(b)) break;
  }
  return { delta: d, beta: b, converged: false, ...out };
}

export const M_S2_PER_G = G / 1000;

/**
 * The loads' unknowns end with two on the body's datum (datum.ts preload, at its point o): the
 * x force the tyres leave, −(Σ Fx + M a sin β) (the drive the speed needs, where no drive at the
 * tyres takes it), and the aligning moments' yaw Σ mz (where they are not on the uprights). The
 * balances hold both; on the pose they leave the datum's springs nothing, so the body keeps its
 * heading and no figure depends on the springs' artificial stiffness (the sideslip β is then the
 * body's, and its rate too).
 */
export const DATUM_LOADS = 2;

/** The datum's two unknowns as registers (DATUM_LOADS): `fx` the tyres' world x forces, `mz` their aligning moments; a in m/s². */
export function datumRegs(t: Arith<number>, fx: readonly number[], mz: readonly number[], a: number, beta: number, M: number, carry: { x: boolean; mz: boolean }): number[] {
  let x = t.c(0), z = t.c(0);
  if (carry.x) {
    for (const f of fx) x = t.add(x, f);
    x = t.k(t.add(x, t.mul(t.k(a, M), t.sin(beta))), -1);
  }
  if (carry.mz) for (const f of mz) z = t.add(z, f);
  return [x, z];
}

/** The datum's unknowns as plain numbers from a solution's world fx and mz (N, N·mm); a in m/s². */
export function datumLoads(x: { fx: number[]; mz: number[] }, a: number, beta: number, M: number, carry: { x: boolean; mz: boolean }): number[] {
  const fx = x.fx.reduce((s, f) => s + f, 0), mz = x.mz.reduce((s, f) => s + f, 0);
  return [carry.x ? -(fx + M * a * Math.sin(beta)) : 0, carry.mz ? mz : 0];
}

/** The loads' unknown j as a unit load direction: a contact's world fx or fy, then (nf − 2 − 2·contacts of them) the contacts' mz, then the datum's two. */
export function unitLoad(m: VehicleModel, nf: number, j: number): (mm: VehicleModel) => void {
  const two = 2 * m.contacts.length;
  if (j >= nf - DATUM_LOADS) { const k = j === nf - DATUM_LOADS ? 0 : 2; return (mm) => { mm.datum.preload[k] += 1; }; }
  return j < two ? (mm) => { mm.contacts[j >> 1].loads[j & 1] += 1; } : (mm) => { mm.contacts[j - two].loads[6] += 1; };
}
/**
 * Passes of pose and steer; rad: the steer's change that ends them. The passes contract
 * linearly, slower near the tyres' peak: the sedan on its Magic Formula tyres at 0.96 g
 * (70 km/h on 40 m) shrinks the change about 5.6× a pass, from 0.04 rad, and needs 14;
 * with 12 it was reported "beyond their grip" at 1e-9 rad from its answer.
 */
const PASSES = 30, SETTLED = 1e-10;
/** With the steer at the wheels nothing at the tyres drives, and the aligning moments are on no upright: the datum's preload takes both. */
const WHEELS_CARRY = { x: true, mz: true };

/**
 * The contacts' loads set to the tyres' world forces f (N, [fx, fy] per wheel; its last two: the
 * datum's preload, DATUM_LOADS), the d'Alembert acceleration a (g) toward the centre: a (−sin β, cos β).
 */
export function tyreLoads(f: ArrayLike<number>, ay: number, beta: number) {
  return (m: VehicleModel) => {
    m.contacts.forEach((c, i) => { c.loads.fill(0); c.loads[0] = f[2 * i]; c.loads[1] = f[2 * i + 1]; });
    m.datum.preload.fill(0);
    m.datum.preload[0] = f[f.length - 2];
    m.datum.preload[2] = f[f.length - 1];
    m.inertia.accel[0] = -ay * Math.sin(beta);
    m.inertia.accel[1] = ay * Math.cos(beta);
  };
}

/**
 * The steady state at ay (g) on the radius: the pose under the proportional reaction first,
 * then, in turn, the steer and sideslip that balance the tyres at the pose and the pose under
 * those tyres' forces, until the steer settles.
 */
export function steadyState(m: VehicleModel, models: readonly TyreModel[], t: Forward4, ay: number, Rmm: number, start: readonly [number, number]) {
  const aMs2 = ay * M_S2_PER_G;
  let s = solveVehicle(m, { ax: 0, ay });
  let guess = start;
  for (let pass = 0; pass < PASSES; pass++) {
    if (s.status !== 'solved') return { state: s, steer: null };
    const state = s;
    const x = solveSteer(t, () => wheelInputs(t, m, models, state, null), aMs2, m.totalMass, Rmm, guess);
    if (!x.converged) return { state: s, steer: null };
    const f = [...x.fx.flatMap((fx, i) => [fx, x.fy[i]]), ...datumLoads(x, aMs2, x.beta, m.totalMass, WHEELS_CARRY)];
    if (pass > 0 && Math.abs(x.delta - guess[0]) < SETTLED) return { state: s, steer: x, forces: f };
    guess = [x.delta, x.beta];
    s = solveVehicle(m, { ax: 0, ay }, tyreLoads(f, ay, x.beta));
  }
  return { state: s, steer: null };
}

/**
 * The understeer gradient at 0 g on the radius, by the implicit function theorem over the
 * coupled state: unknowns the tyres' world forces f (8), δ and β; the pose's rate is
 * Q_ay + Σ Q_j df_j (poseTangents: the inertia's unit and each force's unit on one reduced
 * stiffness), the tyres' forces and the balances' rates along each by forward AD.
 */
export function steadySummary(m: VehicleModel, models: readonly TyreModel[], Rmm: number): SteadySummary | { status: 'failed'; message: string } {
  const lin = steadyLinearisation(m, models, Rmm);
  if (lin.status === 'failed') return { status: 'failed', message: lin.message };
  const { u, nf, x0 } = lin;
  return { understeer_gradient: u[nf] * DEG, kinematic_steer: x0.delta * DEG, sideslip_gradient: u[nf + 1] * DEG };
}

/**
 * The coupled state's linearisation at ay (g; steadySummary's at 0 g) on the radius: the
 * state there (its pose, the tyres' forces f0, δ0 and β0; Newton from `guess`), the pose's rates along the
 * inertia's unit and each force's unit (`deltas`), the 10 × 10 matrix A of the implicit
 * function theorem and its solution u along ay (f′ per g, then δ′ and β′ in rad per g).
 * The model is left at that state under its tyres' loads.
 */
export function steadyLinearisation(m: VehicleModel, models: readonly TyreModel[], Rmm: number, ay = 0, guess?: readonly [number, number]) {
  const t = new Forward4(), M = m.totalMass;
  const rest = steadyState(m, models, t, ay, Rmm, guess ?? [kinematicGuess(m, Rmm), 0]);
  if (rest.state.status !== 'solved' || !rest.steer) return { status: 'failed' as const, message: rest.state.status !== 'solved' ? `at rest: ${rest.state.message}` : 'no steer balances the tyres at rest on the radius' };
  const state = rest.state, x0 = rest.steer, f0 = rest.forces!, nf = f0.length;
  const base = tyreLoads(f0, ay, x0.beta);
  const directions = [(mm: VehicleModel) => { mm.inertia.accel[0] -= Math.sin(x0.beta); mm.inertia.accel[1] += Math.cos(x0.beta); },
    ...f0.map((_, j) => unitLoad(m, nf, j))];
  const { deltas, layout } = poseTangents(m, base, directions);
  base(m);
  // per direction: the tyres' forces' and the balances' rates along the pose's
  const along = (delta: Float64Array | null, aSeed: boolean) => {
    t.reset();
    const pose = delta ? (part: string): Rate => {
      const q = plainPose(m, part), c0 = layout[m.dyn.model.parts.get(part)!];
      return c0 < 0 ? q : { ...q, w: delta.subarray(c0, c0 + 3), v: delta.subarray(c0 + 3, c0 + 6) };
    } : null;
    const inp = wheelInputs(t, m, models, state, pose);
    const out = { alpha: [] as number[], fy: [] as number[], fx: [] as number[], regs: [] as number[], mzRegs: [] as number[] };
    const a0 = ay * M_S2_PER_G;
    const a = ay === 0 ? (aSeed ? t.k(t.seed(0, 2), M_S2_PER_G) : t.c(0)) : aSeed ? t.lin(a0, M_S2_PER_G, t.seed(0, 2)) : t.c(a0);
    const beta = t.seed(x0.beta, 1);
    const g = balances(t, inp.wheels, t.seed(x0.delta, 0), beta, a, M, Rmm, inp.o, inp.cgOff, out);
    const regs = [...out.regs, ...datumRegs(t, out.regs.filter((_, i) => i % 2 === 0), out.mzRegs, a, beta, M, WHEELS_CARRY), ...g];
    return [0, 1, 2].map((k) => regs.map((r) => t.deriv(r, k)));
  };
  const n = nf + 2, A = new Float64Array(n * n), rhs = new Float64Array(n);
  const direct = along(null, true); // ∂/∂δ, ∂/∂β, and the balances' own ∂/∂ay
  const ayPose = along(deltas[0], false)[2];
  for (let r = 0; r < n; r++) {
    A[r * n + nf] = -(r < nf ? 1 : -1) * direct[0][r];
    A[r * n + nf + 1] = -(r < nf ? 1 : -1) * direct[1][r];
    rhs[r] = r < nf ? ayPose[r] : -(ayPose[r] + direct[2][r]);
    if (r < nf) A[r * n + r] += 1;
  }
  for (let j = 0; j < nf; j++) {
    const d = along(deltas[1 + j], false)[2];
    for (let r = 0; r < n; r++) A[r * n + j] += r < nf ? -d[r] : d[r];
  }
  const u = gaussSolve(A, rhs, n);
  return { status: 'solved' as const, state, x0, f0, nf, deltas, layout, A, u, along };
}

/** L/R: the start of the steer's Newton. */
export function kinematicGuess(m: VehicleModel, Rmm: number): number {
  return m.spec.wheelbase / Rmm;
}

/** Sweep the speed on a radius (m; speeds km/h): each step's pose, steer, sideslip and tyres. */
export function steadyStateSweep(m: VehicleModel, radius: number, speeds: readonly number[], progress?: (done: number, total: number) => void):
  { status: 'solved' | 'failed'; message?: string; radius: number; steps: SteadyStateStep[]; summary?: SteadySummary } {
  const models = steadyTyres(m);
  const Rmm = radius * 1000, t = new Forward4();
  const sys = m.dyn.system;
  const summary = steadySummary(m, models, Rmm);
  if ('status' in summary) return { status: 'failed', message: summary.message, radius, steps: [] };
  const atRest = sys.snapshot();
  let guess: [number, number] = [summary.kinematic_steer / DEG, 0];
  const steps: SteadyStateStep[] = [];
  speeds.forEach((kmh, i) => {
    const V = kmh / 3.6, ay = (V * V) / radius / M_S2_PER_G;
    const r = steadyState(m, models, t, ay, Rmm, guess);
    const s = r.state, x = r.steer;
    if (s.status !== 'solved') { sys.restore(atRest); steps.push({ speed: kmh, ay, ...s }); }
    else if (!x) { sys.restore(atRest); steps.push({ speed: kmh, ay, status: 'failed', message: `no steady state with the tyres at ${kmh} km/h (beyond their grip?)` }); }
    else {
      guess = [x.delta, x.beta];
      const body = plainPose(m, 'body').R;
      const tyres = Object.fromEntries(m.wheels.map((w, k) => [w.corner, { slip_angle: x.alpha[k] * DEG, load: s.corners[w.corner].contact_load[2], lateral_force: x.fy[k] }]));
      steps.push({
        speed: kmh, ay, steer: x.delta * DEG, sideslip: (x.beta - Math.atan2(body[3], body[0])) * DEG,
        yaw_rate_gain: V / radius / x.delta, drive_force: m.datum.last.force[0], tyres, ...s,
      });
    }
    progress?.(i + 1, speeds.length);
  });
  return { status: steps.every((s) => s.status === 'solved') ? 'solved' : 'failed', radius, steps, summary };
}
