/**
 * The understeer gradient's gradient (docs/vehicle.md "Gradients"): K = dδ/d(ay) at 0 g on
 * the radius is the δ part of u_a, A u_a = b_a, the implicit function theorem over the
 * coupled state x = (pose q, multipliers λ, the tyres' world forces f, steer δ, sideslip β)
 * of steady-state.ts. Along a number θ the whole system F(x, a, θ) = 0 is differentiated
 * twice:
 *
 *   F_x x_aθ = −(F_xx[x_a, x_θ] + F_xa x_θ + F_xθ x_a + F_aθ),
 *
 * x_θ the rest state's own rate on the radius (static-gradients.ts stateRates with the tyres'
 * loads held, then the same 10 × 10 A for f′, δ′, β′), x_a the figure's tangent. The
 * right-hand side in two parts: the equilibrium rows' — the force elements', the rows' and
 * the number's own second derivatives (figure-rates.ts, with the loads' two rates: the tyres'
 * forces along θ (f′) and along a (f_a), and the d'Alembert direction turning with β′) — whose
 * pose response p comes from one reduced-stiffness solve; and the tyres' and balances' rows',
 * by hyper-dual numbers (mates/tyres/hyper2.ts) through the contact geometry, the tyre model
 * and the balances, the poses at T (I + ε₁ξ_θ)(I + ε₂ξ_a)(I + ε₁ε₂ p) (the duals' order). The
 * tyres' forces' part of x_aθ is eliminated through the same A: one more 10 × 10 solve.
 * No differences anywhere.
 */
import { Hyper2 } from '../../../mates/tyres/hyper2';
import { rotationMatrix, withTangents, type TangentSeeds } from '../../../kernel/dual';
import { constraintMultipliers } from '../../../kernel/multipliers';
import { denseTimes as times, addInto as plus } from '../../../kernel/linalg';
import type { TyreModel } from '../../../mates/tyres';
import { datumYawStiffness, levelRotation, type VehicleModel } from './assembly';
import type { SolvedState } from './analysis';
import { vehicleParameter, type VehicleParameter } from './parameters';
import { rowSolver, stateRates, type VehicleMetricGradient } from './static-gradients';
import { elementRates, hardpointMovers, parameterRates, rowRates, unfollowed } from './figure-rates';
import { balances, datumRegs, DATUM_LOADS, M_S2_PER_G, steadyLinearisation, steadyTyres, tyreLoads, wheelGeometry, type WheelIn } from './steady-state';
import { exactReduced, gaussSolve, reducedResponse } from './tangent';
import { VehicleInputError } from './errors';
import { contactSeeds, contactTerm, datumShifted, geometryMoves, levelRates, levelShifted, levelTerm, type ShiftedBlock } from './axle-points';

const DEG = 180 / Math.PI;

/** The metric's name; the radius (m) it is taken on unless given (a skid pad's, as the viewer's). */
export const UNDERSTEER_METRIC = 'vehicle.understeer_gradient';
/** The steady-state summary's figures as metrics: dδ/d(ay) and dβ/d(ay) (deg/g) and the steer at 0 g on the radius (deg). */
export const STEADY_METRICS: readonly string[] = [UNDERSTEER_METRIC, 'vehicle.sideslip_gradient', 'vehicle.kinematic_steer'];
export const UNDERSTEER_RADIUS = 40;

type Lin = Extract<ReturnType<typeof steadyLinearisation>, { status: 'solved' }>;

/**
 * Through the rack (rack-rates.ts): the rack's travel (mm) is the state's steer unknown, its
 * pose rate `qr` (rack.ts rackTangent) moving the pose instead of an angle at the wheels, and
 * with a drive κ (`driven`: which wheels take it) a third unknown with the x balance.
 */
export interface RackLin {
  qr: Float64Array;
  driven: readonly boolean[] | null;
  base: (m: VehicleModel) => void;
  kappa: number;
  /** An open differential (steady-rack.ts RackSetup.open): the pair's own κ (κ the left's, kappaR the right's) and the torque row. */
  open?: OpenPair;
  kappaR?: number;
  /** The tyres' aligning moments on the uprights: the four moments among the tyres' unknowns after the forces. */
  aligning?: boolean;
  /** With a steering spring the held travel is a load: `mm` more of it on the model (base takes it off). */
  hold?: (m: VehicleModel, mm: number) => void;
  /** r += that load's rate along a number (`mm` of held travel): the spring's own stiffness moves it. */
  holdRate?: (p: VehicleParameter, r: Float64Array, mm: number) => void;
}

/** An open differential's driven pair: wheel indices [left, right] and radii (mm). */
export interface OpenPair { pair: [number, number]; radius: [number, number] }

/** The balances' count: the lateral and yaw ones, the x balance with a drive, the torque row with an open differential. */
export const balanceCount = (c: { driven?: readonly boolean[] | null; open?: OpenPair }): number => (c.open ? 4 : c.driven ? 3 : 2);

/** The understeer gradient (deg/g) on the radius (m) and its gradient along the named numbers. */
export function understeerSensitivity(m: VehicleModel, names: readonly string[], radius = UNDERSTEER_RADIUS, metrics: readonly string[] = [UNDERSTEER_METRIC]): { status: 'solved'; metrics: Record<string, VehicleMetricGradient> } | { status: 'failed'; message: string } {
  for (const name of metrics) if (!STEADY_METRICS.includes(name)) throw new VehicleInputError('--metric', `no steady-state metric "${name}" (${STEADY_METRICS.join(', ')})`);
  const params = names.map((n) => vehicleParameter(m.spec, m.doc, n));
  for (const p of params) {
    const why = unfollowed(m, p);
    if (why) throw new VehicleInputError(`parameter "${p.name}"`, `${why}: the understeer gradient's gradient is exact here for hardpoints, spring rates and free lengths, the bars' rates, the parts' masses, the body's mass and cg_position`);
  }
  const models = steadyTyres(m), Rmm = radius * 1000;
  const lin = steadyLinearisation(m, models, Rmm);
  if (lin.status === 'failed') return { status: 'failed', message: lin.message };
  const rates = understeerRates(m, models, Rmm, lin, params);
  const values = [lin.u[lin.nf] * DEG, lin.u[lin.nf + 1] * DEG, lin.x0.delta * DEG];
  const out: Record<string, VehicleMetricGradient> = {};
  for (const name of metrics) {
    const i = STEADY_METRICS.indexOf(name);
    out[name] = { value: values[i], gradient: Object.fromEntries(params.map((p, j) => [p.name, rates[j][i]])) };
  }
  return { status: 'solved', metrics: out };
}

/**
 * Per number, the rates of STEADY_METRICS' figures (dK/dθ, d(dβ/d(ay))/dθ in deg/g and dδ0/dθ
 * in deg, per the number's unit), the model at the linearisation's rest state.
 */
export function understeerRates(m: VehicleModel, models: readonly TyreModel[], Rmm: number, lin: Pick<Lin, 'state' | 'f0' | 'nf' | 'deltas' | 'A' | 'u'> & { x0: { delta: number; beta: number } }, params: readonly VehicleParameter[], rack?: RackLin): number[][] {
  const { dyn } = m, sys = dyn.system, n = dyn.forces.size;
  const { x0, f0, nf, deltas, A, u } = lin, nb = balanceCount(rack ?? {}), n10 = nf + nb;
  const base = rack ? rack.base : tyreLoads(f0, 0, x0.beta);
  // the rack's share of a pose rate: its travel's rate (mm) times the rack's pose rate
  const addRack = (q: Float64Array, s: number) => { if (rack) for (let i = 0; i < n; i++) q[i] += rack.qr[i] * s; return q; };
  const dirOf = (q: Float64Array, x: ArrayLike<number>): Direction => ({ q, delta: rack ? 0 : x[nf], beta: x[nf + 1], kappa: nb >= 3 ? x[nf + 2] : 0, kappaR: nb === 4 ? x[nf + 3] : 0 });
  base(m);
  const tangents: { qd: Float64Array; rp: Float64Array }[] = [];
  stateRates(m, params, undefined, (j, qd, rp) => { tangents[j] = { qd, rp }; });
  base(m);
  const red = exactReduced(m), { N, k, layout, Kr, KH } = red;
  const zero = new Float64Array(n);
  // Q and K under the base loads plus `extra` (the loads are affine: a difference is a load's own)
  const loaded = (extra: (mm: VehicleModel) => void) => {
    base(m); extra(m);
    const Q = new Float64Array(n), K = new Float64Array(n * n);
    dyn.forces.assemble(zero, 0, Q, K, null);
    base(m);
    return { Q, K };
  };
  const rest = loaded(() => {});
  const diff = (x: { Q: Float64Array; K: Float64Array }) => { for (let i = 0; i < n; i++) x.Q[i] -= rest.Q[i]; for (let i = 0; i < n * n; i++) x.K[i] -= rest.K[i]; return x; };
  const sb = Math.sin(x0.beta), cb = Math.cos(x0.beta);
  const contacts = tyreLoadsOf(m, nf);
  // along a: the d'Alembert unit at β0 and the tyres' forces' rates f_a
  const fa = u.subarray(0, nf);
  const aLoads = (mm: VehicleModel) => { mm.inertia.accel[0] -= sb; mm.inertia.accel[1] += cb; contacts(fa)(mm); rack?.hold?.(mm, u[nf]); };
  const La = diff(loaded(aLoads));
  // the d'Alembert unit's rate along β: a (−cos β, −sin β)
  const Qbeta = diff(loaded((mm) => { mm.inertia.accel[0] -= cb; mm.inertia.accel[1] -= sb; })).Q;
  const qa = deltas[0].slice();
  for (let j = 0; j < nf; j++) for (let i = 0; i < n; i++) qa[i] += deltas[1 + j][i] * fa[j];
  addRack(qa, u[nf]);
  const mult = constraintMultipliers(sys, rest.Q);
  const lambda = Float64Array.from(mult.lambda), rowBlock = Int32Array.from(mult.rowBlock);
  const mu = Float64Array.from(constraintMultipliers(sys, plus(times(KH, qa, n), La.Q)).lambda);
  const { minimum } = rowSolver(m, layout, mult);
  const moversOf = hardpointMovers(m, layout, rowBlock, params);
  const lift = reducedResponse(N, Kr, k, n);
  const aDir = { ax: -sb, ay: cb };
  const ctx: Ctx = { ...rackCtx(rack, x0), h: new Hyper2(), m, models, layout, Rmm, st: lin.state, a0: 0 };
  return params.map((p, j) => {
    const { qd: qt0, rp: rp0 } = tangents[j];
    // the body's datum sits at cg_position: its move's load (stateRates leaves it out, the figures at rest being blind to it)
    const datum = datumTerms(m, p);
    const qt = datum ? plus(lift(datum.dQ), qt0) : qt0, rp = datum ? minus(rp0.slice(), datum.dQ) : rp0;
    // x_θ: the tyres' rows and balances along the pose's rate with the loads held, then f′, δ′, β′ by A
    // (the balances' point o moves with cg_position too)
    const still: Direction = { q: zero, delta: 0, beta: 0 };
    const d = tyreRows(ctx, { q: qt, delta: 0, beta: 0 }, still, zero, p, 0).rows, b = new Float64Array(n10);
    for (let r = 0; r < n10; r++) b[r] = r < nf ? d[r] : -d[r];
    const ut = gaussSolve(A, b, n10), ft = ut.subarray(0, nf);
    const qp = qt.slice();
    for (let c = 0; c < nf; c++) for (let i = 0; i < n; i++) qp[i] += deltas[1 + c][i] * ft[c];
    addRack(qp, ut[nf]);
    const Lt = diff(loaded((mm) => { contacts(ft)(mm); rack?.hold?.(mm, ut[nf]); }));
    // λ′: Φ_qᵀλ′ = (K − H) q′ − R_θ + Q_L′
    const lamDot = Float64Array.from(constraintMultipliers(sys, plus(times(KH, qp, n), minus(Lt.Q.slice(), rp))).lambda);
    // the equilibrium rows' second derivatives along (x_θ, θ) and (x_a, a)
    const r = times(La.K, qp, n);
    plus(r, times(Lt.K, qa, n));
    for (let i = 0; i < n; i++) r[i] += ut[nf + 1] * Qbeta[i];
    const movers = moversOf(p);
    if (datum) {
      movers.set(`force:${datum.index}`, [{ local: datum.local, w: 1 }]);
      levelTerm(m, datum.shifted, null, qa, r);
      // its preload's rate along a (the datum's two unknowns in f_a) at its point moving with cg_position
      const at = new Float64Array(n), still0 = new Float64Array(n);
      base(m); aLoads(m); datum.point(at); base(m); datum.point(still0);
      for (let i = 0; i < n; i++) r[i] += at[i] - still0[i];
    }
    elementRates(m, qp, qa, r, movers);
    parameterRates(m, layout, p, qa, aDir, r);
    rack?.holdRate?.(p, r, u[nf]);
    if (p.wheels?.length) wheelRates(m, p, base, aLoads, qa, r);
    const phiDot = new Float64Array(n);
    rowRates(m, layout, rowBlock, qp, qa, lambda, lamDot, mu, r, phiDot, movers);
    const xp = phiDot;
    minimum.solve(xp);
    const corr = lift(plus(times(KH, xp, n), r));
    const pose2 = new Float64Array(n);
    for (let i = 0; i < n; i++) pose2[i] = xp[i] + corr[i];
    // the tyres' rows and balances to second order, the pose's mixed part p included
    const mixed = dAlembertRates(ctx, qp, p, tyreRows(ctx, dirOf(qp, ut), dirOf(qa, u), pose2, p, 2), M_S2_PER_G);
    const b2 = new Float64Array(n10);
    for (let c = 0; c < n10; c++) b2[c] = c < nf ? mixed[c] : -mixed[c];
    const z = gaussSolve(A, b2, n10);
    // through the rack: the rack's mm (per g, and at 0 g) rather than the steer's deg
    return rack ? [z[nf], z[nf + 1] * DEG, ut[nf]] : [z[nf] * DEG, z[nf + 1] * DEG, ut[nf] * DEG];
  });
}

export type Direction = { q: Float64Array; delta: number; beta: number; kappa?: number; kappaR?: number };

/** The tyres' unknowns as loads: world fx, fy per contact, then (with the aligning moments) mz per contact, then the datum's two (steady-state.ts unitLoad). */
export function tyreLoadsOf(m: VehicleModel, nf: number): (f: ArrayLike<number>) => (mm: VehicleModel) => void {
  const two = 2 * m.contacts.length;
  return (f) => (mm) => {
    for (let j = 0; j < nf; j++) {
      if (j < two) mm.contacts[j >> 1].loads[j & 1] += f[j];
      else if (j < nf - DATUM_LOADS) mm.contacts[j - two].loads[6] += f[j];
      else mm.datum.preload[j === nf - DATUM_LOADS ? 0 : 2] += f[j];
    }
  };
}

/** The registers' context's rack part: the state's unknowns at x0 (through the rack: the rack's own as δ = 0), κ's, the drive, the open pair, the moments. */
export function rackCtx(rack: RackLin | undefined, x0: { delta: number; beta: number }): Pick<Ctx, 'x0' | 'driven' | 'open' | 'aligning'> {
  if (!rack) return { x0 };
  return { x0: { delta: 0, beta: x0.beta, kappa: rack.kappa, kappaR: rack.kappaR ?? rack.kappa }, driven: rack.driven ?? undefined, open: rack.open, aligning: rack.aligning };
}
/** What the tyres' rows are evaluated with: the registers, the model at its rest state on the radius. */
export interface Ctx {
  h: Hyper2; m: VehicleModel; models: readonly TyreModel[]; layout: Int32Array; Rmm: number; st: SolvedState; x0: { delta: number; beta: number; kappa?: number; kappaR?: number };
  /** m/s²: the state's acceleration. */
  a0: number;
  /** Through the rack with a drive: the wheels that take κ (the balances then add the x balance). */
  driven?: readonly boolean[];
  /** An open differential: the pair's own κ, the torque row after the balances. */
  open?: OpenPair;
  /** The aligning moments among the tyres' rows, after the forces. */
  aligning?: boolean;
}

/**
 * One part (`part`: 0 along θ, 2 the mixed ε₁ε₂) of the tyres' world forces and the two
 * balances, ε₁ along θ, ε₂ along a, the poses' mixed part `p12`; the balances' point o
 * moving with cg_position; with o's rate along θ and the plain cgOff, for dAlembertRates.
 */
export function tyreRows(c: Ctx, t1: Direction, t2: Direction, p12: Float64Array, param: VehicleParameter, part: 0 | 2): { rows: Float64Array; o: number[]; cgOff: number[] } {
  const { h, m, models, layout, Rmm, st, x0 } = c;
  h.reset();
  const pose = (name: string) => posePoly(h, m, layout, name, t1.q, t2.q, p12);
  // an axle point: each wheel's centre and axis in its upright and the road's height move along θ (ε₁)
  const move = geometryMoves(m, param.wheels, h.make(0, 1, 0, 0));
  const wheels: WheelIn[] = m.wheels.map((w, i) => ({ ...wheelGeometry(h, w, pose(w.upright), m.road, move(w.corner)), model: models[i], front: w.axle === 'front', driven: c.driven?.[i] }));
  if (c.open) {
    const [l, r] = c.open.pair;
    wheels[l].kappa = h.make(x0.kappa ?? 0, t1.kappa ?? 0, t2.kappa ?? 0, 0);
    wheels[r].kappa = h.make(x0.kappaR ?? 0, t1.kappaR ?? 0, t2.kappaR ?? 0, 0);
  }
  const b = pose('body');
  const cg = m.cgDesign.map((x, i) => h.make(x, param.cg[i], 0, 0));
  const o = [0, 1, 2].map((r) => h.add(h.add(h.add(h.mul(b.R[3 * r], cg[0]), h.mul(b.R[3 * r + 1], cg[1])), h.mul(b.R[3 * r + 2], cg[2])), b.p[r]));
  const cgOff = [st.vehicle.cg[0] - h.val(o[0]), st.vehicle.cg[1] - h.val(o[1])];
  const out = { alpha: [] as number[], fy: [] as number[], fx: [] as number[], regs: [] as number[], longRegs: [] as number[], mzRegs: [] as number[] };
  const delta = h.make(x0.delta, t1.delta, t2.delta, 0), beta = h.make(x0.beta, t1.beta, t2.beta, 0), a = h.make(c.a0, 0, M_S2_PER_G, 0);
  // an open pair's κ on its wheels; the balances' κ then only asks for the x balance
  const kappa = c.driven ? (c.open ? h.c(0) : h.make(x0.kappa ?? 0, t1.kappa ?? 0, t2.kappa ?? 0, 0)) : undefined;
  const g = balances(h, wheels, delta, beta, a, m.totalMass, Rmm, o, cgOff, out, kappa);
  // the open pair's torques equal: r_l Fx_l − r_r Fx_r over r_l (steady-rack.ts torqueRow)
  if (c.open) g.push(h.sub(out.longRegs[c.open.pair[0]], h.k(out.longRegs[c.open.pair[1]], c.open.radius[1] / c.open.radius[0])));
  // the datum's preload: the x force where no drive at the tyres takes it, the moments' yaw where not on the uprights
  const datum = datumRegs(h, out.regs.filter((_, i) => i % 2 === 0), out.mzRegs, a, beta, m.totalMass, { x: !c.driven, mz: !c.aligning });
  const regs = [...out.regs, ...(c.aligning ? out.mzRegs : []), ...datum, ...g];
  return { rows: Float64Array.from(regs.map((x) => h.part(x, part))), o: o.map((x) => h.part(x, 0)), cgOff };
}

/**
 * The balances' d'Alembert terms −M a (cos β, cos β·cgOff_x + sin β·cgOff_y) that the registers
 * hold as plain numbers: their parts from the mass's and the whole car's centre of mass'
 * rates along θ (cgOff = cg − o, o's rate `at.o`), times `a` (a's ε₂ part for the mixed
 * part, its value for the rate along θ alone).
 */
export function dAlembertRates(c: Ctx, qd: Float64Array, param: VehicleParameter, at: { rows: Float64Array; o: number[]; cgOff: number[] }, a: number): Float64Array {
  const { m, layout, x0 } = c, res = at.rows;
  const { dM, dcg } = massRates(m, layout, qd, param);
  const cb = Math.cos(x0.beta), sb = Math.sin(x0.beta), M = m.totalMass, nb = balanceCount(c), nf = res.length - nb;
  const off = at.cgOff, dc = [dcg[0] - at.o[0], dcg[1] - at.o[1]];
  if (!c.driven) res[nf - DATUM_LOADS] -= a * dM * sb; // the datum's x force −(Σ Fx + M a sin β)
  res[nf] -= a * dM * cb;
  res[nf + 1] -= a * (dM * (cb * off[0] + sb * off[1]) + M * (cb * dc[0] + sb * dc[1]));
  if (nb >= 3) res[nf + 2] += a * dM * sb; // the x balance's M a sin β (the torque row has no d'Alembert term)
  return res;
}

/** A part's rotation and position as hyper-duals: R (I + ε₁W₁)(I + ε₂W₂)(I + ε₁ε₂W₁₂), p + R(ε₁v₁ + ε₂v₂ + ε₁ε₂(W₁v₂ + v₁₂)). */
export function posePoly(h: Hyper2, m: VehicleModel, layout: Int32Array, part: string, q1: Float64Array, q2: Float64Array, q12: Float64Array): { R: number[]; p: number[] } {
  const sys = m.dyn.system, id = m.dyn.model.parts.get(part)!, v = sys.variables[id], c0 = layout[id];
  const R = rotationMatrix(new Float64Array(9), sys.state, v.offset + 3);
  const at = (q: Float64Array, o: number) => (c0 < 0 ? [0, 0, 0] : [q[c0 + o], q[c0 + o + 1], q[c0 + o + 2]]);
  const w1 = at(q1, 0), w2 = at(q2, 0), w12 = at(q12, 0), v1 = at(q1, 3), v2 = at(q2, 3), v12 = at(q12, 3);
  const W = (w: number[]) => [0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0];
  const mm = (X: ArrayLike<number>, Y: ArrayLike<number>) => Array.from({ length: 9 }, (_, i) => { const r = Math.floor(i / 3), c = i % 3; return X[3 * r] * Y[c] + X[3 * r + 1] * Y[3 + c] + X[3 * r + 2] * Y[6 + c]; });
  const RW1 = mm(R, W(w1)), RW2 = mm(R, W(w2)), RW12 = mm(R, W(w12)), RW1W2 = mm(RW1, W(w2));
  const Rr = Array.from({ length: 9 }, (_, i) => h.make(R[i], RW1[i], RW2[i], RW1W2[i] + RW12[i]));
  const rv = (x: number[]) => [0, 1, 2].map((r) => R[3 * r] * x[0] + R[3 * r + 1] * x[1] + R[3 * r + 2] * x[2]);
  const w1v2 = [w1[1] * v2[2] - w1[2] * v2[1], w1[2] * v2[0] - w1[0] * v2[2], w1[0] * v2[1] - w1[1] * v2[0]];
  const a = rv(v1), b = rv(v2), ab = rv(w1v2.map((x, i) => x + v12[i]));
  const p = [0, 1, 2].map((r) => h.make(sys.state[v.offset + r], a[r], b[r], ab[r]));
  return { R: Rr, p };
}

/**
 * The whole car's mass (kg) and centre of mass (mm, world x, y) rates along θ: every part's
 * centre moving with the pose's rate q′, and the number's own mass and centre pieces.
 */
function massRates(m: VehicleModel, layout: Int32Array, qd: Float64Array, param: VehicleParameter): { dM: number; dcg: number[] } {
  const { dyn } = m, sys = dyn.system, R = new Float64Array(9);
  const dm = new Map<string, number>(), dc = new Map<string, number[]>();
  const add = (part: string, mass: number, c: readonly number[]) => {
    dm.set(part, (dm.get(part) ?? 0) + mass);
    const x = dc.get(part) ?? [0, 0, 0];
    dc.set(part, x.map((y, i) => y + c[i]));
  };
  for (const { parameter: q, weight } of param.parts) {
    if (q.kind === 'mass') add(q.part, weight, [0, 0, 0]);
    else if (q.kind === 'centre') add(q.part, 0, [0, 1, 2].map((i) => (i === q.axis ? weight : 0)));
  }
  for (const l of param.lumps) add(l.part, l.dmass, l.dcentre);
  let mass = 0, dMass = 0;
  const cg = [0, 0, 0], dcg = [0, 0, 0];
  for (const body of dyn.bodies) {
    const v = sys.variables[body.variable], c0 = layout[body.variable];
    rotationMatrix(R, sys.state, v.offset + 3);
    const part = [...dyn.model.parts].find(([, id]) => id === body.variable)?.[0] ?? '';
    const c = body.body.centre, mt = body.body.mass, dmt = (dm.get(part) ?? 0) / 1000, dcl = dc.get(part) ?? [0, 0, 0];
    const w = c0 < 0 ? [0, 0, 0] : [qd[c0], qd[c0 + 1], qd[c0 + 2]], vv = c0 < 0 ? [0, 0, 0] : [qd[c0 + 3], qd[c0 + 4], qd[c0 + 5]];
    const loc = [w[1] * c[2] - w[2] * c[1] + vv[0] + dcl[0], w[2] * c[0] - w[0] * c[2] + vv[1] + dcl[1], w[0] * c[1] - w[1] * c[0] + vv[2] + dcl[2]];
    for (let r = 0; r < 3; r++) {
      const x = R[3 * r] * c[0] + R[3 * r + 1] * c[1] + R[3 * r + 2] * c[2] + sys.state[v.offset + r];
      const dx = R[3 * r] * loc[0] + R[3 * r + 1] * loc[1] + R[3 * r + 2] * loc[2];
      cg[r] += mt * x; dcg[r] += dmt * x + mt * dx;
    }
    mass += mt; dMass += dmt;
  }
  return { dM: dMass * 1000, dcg: [0, 1].map((r) => dcg[r] / mass - (cg[r] / mass) * (dMass / mass)) };
}

/**
 * The body datum's share of a number that moves cg_position (datum.ts: its springs hold the
 * body's point at cg_position to the anchor, cg_position turned level, its yaw stiffness from
 * the contacts' spread about cg_position, assembly.ts datumYawStiffness): the point's local
 * seed (its stiffness' rate, by the datum's duals), the anchor's and the yaw stiffness' copies
 * (`shifted`: the load is affine in each) and ∂Q/∂θ at the state from both; `point` adds the
 * point's share at the loads as set (its preload moving with it).
 */
export function datumTerms(m: VehicleModel, p: VehicleParameter): { index: number; local: TangentSeeds['local']; dQ: Float64Array; shifted: ShiftedBlock[]; point: (q: Float64Array) => Float64Array } | null {
  if (p.cg.every((x) => x === 0)) return null;
  const { dyn } = m, forces = dyn.forces, index = forces.blocks.indexOf(m.datum), slots = forces.slotsOf(index), d = slots.length;
  const move = Float64Array.of(0, 0, 0, p.cg[0], p.cg[1], p.cg[2]);
  const local: TangentSeeds['local'] = (_col, x, isPoint) => (isPoint && x === m.datum.centre ? move : null);
  const point = (dQ: Float64Array) => {
    const duals = withTangents({ pose: () => null, local, scalar: () => 0 }, () => { m.datum.evaluate(dyn.system.state, forces.offsetsOf(index), new Float64Array(d), 0, new Float64Array(d), new Float64Array(d * d), null); return m.datum.duals!(); });
    for (let i = 0; i < d; i++) if (slots[i] >= 0) dQ[slots[i]] += duals[i].t?.v ?? 0;
    return dQ;
  };
  const dQ = point(new Float64Array(forces.size));
  const shifted = datumShifted(m, levelRotation(m.wheels)(p.cg), 0, datumYawStiffness(m.wheels, m.cgDesign, m.wheels.map(() => [0, 0, 0]), p.cg));
  levelTerm(m, shifted, dQ, null, null);
  return { index, local, dQ, shifted, point };
}

function minus(a: Float64Array, b: Float64Array): Float64Array {
  for (let i = 0; i < a.length; i++) a[i] -= b[i];
  return a;
}

/**
 * r += an axle point's own terms on the radius (figure-rates.ts wheelRates, with the turn's
 * loads): the level's stiffness rate under the base loads, and the contacts' unit loads along a
 * (`extra`: the d'Alembert unit and the tyres' force rates) moving with their points and the road.
 */
function wheelRates(m: VehicleModel, p: VehicleParameter, base: (m: VehicleModel) => void, extra: (m: VehicleModel) => void, qa: Float64Array, r: Float64Array): void {
  const n = m.dyn.forces.size, shifted = levelShifted(m, levelRates(m, p.wheels!)), seeds = contactSeeds(m, p.wheels!);
  base(m);
  levelTerm(m, shifted, null, qa, r);
  const at = new Float64Array(n), rest = new Float64Array(n);
  extra(m);
  contactTerm(m, seeds, at);
  levelTerm(m, shifted, at, null, null);
  base(m);
  contactTerm(m, seeds, rest);
  levelTerm(m, shifted, rest, null, null);
  for (let i = 0; i < n; i++) r[i] += at[i] - rest[i];
}
