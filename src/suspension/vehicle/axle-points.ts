/**
 * What an axle point (`front.left.axle_outboard.z`, docs/vehicle.md "Gradients") moves beyond
 * the axle's own assembly, exactly: the contact patch reads the wheel centre c and unit spin axis
 * d in the upright's frame (their rates ċ = ȧo − offset·ḋ, ḋ = (I − d dᵀ)(ȧo − ȧi)/l: the
 * corner dynamics' axle-points.ts), and the start is levelled on the four design contacts
 * (assembly.ts levelOnRoad: the rigid turn R = Rx(ψ) Ry(θ) of the least-squares plane
 * z = a + b x + c y through them, θ = atan b, ψ = atan(−c)), so the road's height (the mean
 * of (R c_w)_z), the datum's anchor (R cg) and its heading move with a design contact too.
 * The contact's force and stiffness are affine in the road's height and the datum's in its
 * anchor and heading, so those terms are differences of two evaluations of the same element
 * (no step involved); the contact's own points are local seeds of its duals, as a
 * hardpoint's are.
 */
import { dualsOf, withTangents, type TangentSeeds } from '../../../kernel/dual';
import type { ForceBlock } from '../../../kernel/forces';
import type { Geometry } from '../files';
import { wheelMoments, type WheelMassSpec } from '../dynamics/wheel-inertia';
import { axlePointRates } from '../gradients/simulation/axle-points';
import { cgWorld, datumYawStiffness, type CornerName, type VehicleModel } from './assembly';
import { ContactPatchForce } from './contact';
import { BodyDatum } from './datum';
import type { LumpRate } from '../gradients/simulation/lumps';
import { cross, type PoseRate } from './tangent';

/** Per unit of a number: a wheel's centre (its upright's frame, mm), unit spin axis' rate, the twist ω = d × ḋ, and its design contact (world, mm). */
export interface WheelMove { corner: CornerName; centre: number[]; axis: number[]; twist: number[]; contact: number[] }

/** An axle point's move of one wheel (weight w), the spin axis' unit turn, and the wheel's mass rates (its moments' inertia turning with the axis; a file's 3 × 3 stays). */
export function wheelMove(geometry: Geometry, hardpoints: Geometry['corners'][number]['hardpoints'], corner: CornerName, outboard: boolean, axis: 0 | 1 | 2, w: number,
  mass: WheelMassSpec | null): { wheel: WheelMove; turn: number[]; lump: Pick<LumpRate, 'dmass' | 'dcentre' | 'dinertia'> } {
  const { s, sd, wcd, cd } = axlePointRates(geometry, hardpoints, outboard, axis);
  const twist = cross(s, sd).map((x) => w * x);
  const wheel = { corner, centre: wcd.map((x) => w * x), axis: sd.map((x) => w * x), twist, contact: cd.map((x) => w * x) };
  const dinertia = new Array<number>(9).fill(0);
  if (mass && !mass.inertia) {
    // I = I_p 1 + (I_a − I_p) s sᵀ about the wheel's own axis (wheel-inertia.ts): İ = (I_a − I_p)(ṡ sᵀ + s ṡᵀ)
    const { Ia, Ip } = wheelMoments(mass, geometry);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) dinertia[i * 3 + j] = w * (Ia - Ip) * (sd[i] * s[j] + s[i] * sd[j]);
  }
  return { wheel, turn: sd, lump: { dmass: 0, dcentre: wheel.centre, dinertia } };
}

/** The level's rates along the design contacts' moves: the road's height (mm), the datum's anchor (mm, world), heading (rad) and yaw stiffness (N·mm/rad). */
export interface LevelRates { road: number; anchor: number[]; yaw: number; yawStiffness: number }

const rx = (a: number) => [[1, 0, 0], [0, Math.cos(a), -Math.sin(a)], [0, Math.sin(a), Math.cos(a)]];
const ry = (a: number) => [[Math.cos(a), 0, Math.sin(a)], [0, 1, 0], [-Math.sin(a), 0, Math.cos(a)]];
const drx = (a: number) => [[0, 0, 0], [0, -Math.sin(a), -Math.cos(a)], [0, Math.cos(a), -Math.sin(a)]];
const dry = (a: number) => [[-Math.sin(a), 0, Math.cos(a)], [0, 0, 0], [-Math.cos(a), 0, -Math.sin(a)]];
const mm = (A: number[][], B: number[][]) => A.map((r) => [0, 1, 2].map((j) => r[0] * B[0][j] + r[1] * B[1][j] + r[2] * B[2][j]));
const mv = (A: number[][], x: readonly number[]) => A.map((r) => r[0] * x[0] + r[1] * x[1] + r[2] * x[2]);

/** d(level)/dθ from the design contacts' rates (levelRotation's plane and turn, differentiated). */
export function levelRates(m: VehicleModel, wheels: readonly WheelMove[]): LevelRates {
  const c = m.wheels.map((w) => w.designContact), dc = m.wheels.map((w) => wheels.filter((x) => x.corner === w.corner).reduce((t, x) => t.map((v, i) => v + x.contact[i]), [0, 0, 0]));
  // A s = r, A = Σ ρ ρᵀ, r = Σ ρ z, ρ = (1, x, y): Ȧ s + A ṡ = ṙ
  const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], dA = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], r = [0, 0, 0], dr = [0, 0, 0];
  c.forEach((p, w) => {
    const row = [1, p[0], p[1]], drow = [0, dc[w][0], dc[w][1]];
    for (let i = 0; i < 3; i++) {
      r[i] += row[i] * p[2]; dr[i] += drow[i] * p[2] + row[i] * dc[w][2];
      for (let j = 0; j < 3; j++) { A[i][j] += row[i] * row[j]; dA[i][j] += drow[i] * row[j] + row[i] * drow[j]; }
    }
  });
  const sol = solve3(A, r), ds = solve3(A, dr.map((v, i) => v - (dA[i][0] * sol[0] + dA[i][1] * sol[1] + dA[i][2] * sol[2])));
  const th = Math.atan(sol[1]), ps = Math.atan(-sol[2]);
  const dth = ds[1] / (1 + sol[1] * sol[1]), dps = -ds[2] / (1 + sol[2] * sol[2]);
  const R = mm(rx(ps), ry(th));
  const dR = mm(drx(ps), ry(th)).map((row, i) => row.map((v, j) => v * dps + mm(rx(ps), dry(th))[i][j] * dth));
  let road = 0;
  c.forEach((p, w) => { road += (mv(dR, p)[2] + mv(R, dc[w])[2]) / c.length; });
  const anchor = mv(dR, cgWorld(m.spec));
  const e = mv(R, [1, 0, 0]), de = mv(dR, [1, 0, 0]);
  // the datum's yaw stiffness follows the contacts' spread about the centre of mass (assembly.ts)
  return { road, anchor, yaw: (e[0] * de[1] - e[1] * de[0]) / (e[0] * e[0] + e[1] * e[1]), yawStiffness: datumYawStiffness(m.wheels, m.cgDesign, dc) };
}

function solve3(A: number[][], r: number[]): number[] {
  const det = (M: number[][]) => M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) + M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  const d = det(A);
  return [0, 1, 2].map((k) => det(A.map((row, i) => row.map((x, j) => (j === k ? r[i] : x)))) / d);
}

/** A force block's copy with a number's unit move, in place of the model's own at `index`; `sync` copies the loads set on the model's. */
export type ShiftedBlock = { index: number; block: ForceBlock; sync: () => void };

/**
 * The contacts and the datum with the level moved by its rates (one unit of the number): their
 * force blocks' indices and copies. The datum's moment is bilinear in its stiffness and heading,
 * so the stiffness' rate is a copy of its own (each copy less the model's is one exact partial).
 */
export function levelShifted(m: VehicleModel, rates: LevelRates): ShiftedBlock[] {
  const blocks = m.dyn.forces.blocks, out: ShiftedBlock[] = [];
  for (const c of m.contacts) {
    if (rates.road === 0) break;
    const copy = new ContactPatchForce(c.owner, c.vars[0], c.centre, c.axis, c.radius, c.stiffness, c.horizontalStiffness, c.anchor, c.ground + rates.road, c.driveReaction, c.vars[1]);
    out.push({ index: blocks.indexOf(c), block: copy, sync: () => copy.loads.set(c.loads) });
  }
  out.push(...datumShifted(m, rates.anchor, rates.yaw, rates.yawStiffness));
  return out;
}

/**
 * The datum moved by rates of its anchor (mm, world) and heading (rad), and, in a copy of its
 * own, of its yaw stiffness (N·mm/rad), as levelShifted's entries (none for a rate of 0).
 */
export function datumShifted(m: VehicleModel, anchor: readonly number[], yaw: number, yawStiffness: number): ShiftedBlock[] {
  const d = m.datum, index = m.dyn.forces.blocks.indexOf(d), out: ShiftedBlock[] = [];
  if (anchor[0] !== 0 || anchor[1] !== 0 || yaw !== 0) {
    const copy = new BodyDatum(d.vars[0], d.centre, [d.anchor[0] + anchor[0], d.anchor[1] + anchor[1], d.anchor[2]], d.yaw0 + yaw, d.stiffness, d.yawStiffness, d.preload);
    out.push({ index, block: copy, sync: () => undefined });
  }
  if (yawStiffness !== 0) out.push({ index, block: new BodyDatum(d.vars[0], d.centre, d.anchor, d.yaw0, d.stiffness, d.yawStiffness + yawStiffness, d.preload), sync: () => undefined });
  return out;
}

/** Q and K of a block at the element's slots (the state's), added with weight w into q (tangent layout) and, given, kd += w K δ. */
export function addBlock(m: VehicleModel, index: number, block: ForceBlock, w: number, q: Float64Array | null, delta: Float64Array | null, kd: Float64Array | null): void {
  const { forces, system } = m.dyn, slots = forces.slotsOf(index), d = slots.length;
  const lq = new Float64Array(d), lk = kd ? new Float64Array(d * d) : null;
  block.evaluate(system.state, forces.offsetsOf(index), new Float64Array(d), 0, lq, lk, null);
  for (let i = 0; i < d; i++) {
    if (slots[i] < 0) continue;
    if (q) q[slots[i]] += w * lq[i];
    if (kd && lk && delta) { let s = 0; for (let c = 0; c < d; c++) if (slots[c] >= 0) s += lk[i * d + c] * delta[slots[c]]; kd[slots[i]] += w * s; }
  }
}

/** ∂(Q, K)/∂θ of the level's move: each shifted block less the model's own, at the state (the loads as they are set). */
export function levelTerm(m: VehicleModel, shifted: ReturnType<typeof levelShifted>, q: Float64Array | null, delta: Float64Array | null, kd: Float64Array | null): void {
  for (const s of shifted) {
    s.sync();
    addBlock(m, s.index, s.block, 1, q, delta, kd);
    addBlock(m, s.index, m.dyn.forces.blocks[s.index], -1, q, delta, kd);
  }
}

/** The contacts' local seeds of a number's wheel moves, by force block (`force:<index>`, figure-rates.ts Movers). */
export function contactSeeds(m: VehicleModel, wheels: readonly WheelMove[]): Map<string, TangentSeeds['local']> {
  const out = new Map<string, TangentSeeds['local']>();
  for (const [i, w] of m.wheels.entries()) {
    const moves = wheels.filter((x) => x.corner === w.corner);
    if (!moves.length) continue;
    const c = m.contacts[i], point = new Float64Array(6), turn = new Float64Array(6);
    for (const x of moves) for (let k = 0; k < 3; k++) { point[3 + k] += x.centre[k]; turn[k] += x.twist[k]; }
    out.set(`force:${m.dyn.forces.blocks.indexOf(c)}`, (col, p, isPoint) => (col !== 0 ? null : isPoint ? (p === c.centre ? point : null) : p === c.axis ? turn : null));
  }
  return out;
}

/** q += ∂Q/∂θ of the contacts' own points (their duals' tangents at the state held). */
export function contactTerm(m: VehicleModel, seeds: Map<string, TangentSeeds['local']>, q: Float64Array): void {
  const { forces, system } = m.dyn;
  for (const [key, local] of seeds) {
    const index = Number(key.slice('force:'.length)), blk = forces.blocks[index], slots = forces.slotsOf(index), d = slots.length;
    const duals = withTangents({ pose: () => null, local, scalar: () => 0 }, () => { blk.evaluate(system.state, forces.offsetsOf(index), new Float64Array(d), 0, new Float64Array(d), new Float64Array(d * d), null); return dualsOf(blk); });
    for (let k = 0; k < d; k++) if (slots[k] >= 0 && duals[k].t) q[slots[k]] += duals[k].t!.v;
  }
}

const DEG = 180 / Math.PI;
const rot = (R: ArrayLike<number>, x: readonly number[]) => [0, 1, 2].map((i) => R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2]);
const rotT = (R: ArrayLike<number>, x: readonly number[]) => [0, 1, 2].map((i) => R[i] * x[0] + R[3 + i] * x[1] + R[6 + i] * x[2]);
const dAtan2 = (y: number, x: number, dy: number, dx: number) => ((x * dy - y * dx) / (x * x + y * y)) * DEG;

/**
 * The static metrics' own rates along a number's wheel moves at the state held (metric-rates.ts's
 * definitions): a tyre's load through its centre, axis and the road; the ride height through the
 * design wheel centre and the road; the travel through the centre and its design; camber and toe
 * through the axis.
 */
export function explicitMetricRates(m: VehicleModel, pose: (part: string) => PoseRate, wheels: readonly WheelMove[], level: LevelRates): Record<string, number> {
  const out: Record<string, number> = {};
  const b = pose('body');
  for (const w of m.wheels) {
    const c = w.corner, u = pose(w.upright), sigma = w.side === 'left' ? 1 : -1;
    const dc = [0, 0, 0], dd = [0, 0, 0];
    for (const x of wheels) if (x.corner === c) for (let k = 0; k < 3; k++) { dc[k] += x.centre[k]; dd[k] += x.axis[k]; }
    const l = Math.hypot(w.axis[0], w.axis[1], w.axis[2]), a = rot(u.R, w.axis.map((x) => x / l));
    const dcw = rot(u.R, dc), da = rot(u.R, dd);
    let load = w.tyre.stiffness * level.road, ride = -level.road;
    load -= w.tyre.stiffness * (dcw[2] + (w.radius * a[2] * da[2]) / Math.sqrt(1 - a[2] * a[2]));
    ride += rot(b.R, dc)[2]; // the design wheel centre moves as the upright's (world = the file's axes, shifted)
    const travel = rotT(b.R, dcw)[2] - dc[2];
    const ab = rotT(b.R, a), dab = rotT(b.R, da);
    out[`vehicle.${c}.contact_load`] = load;
    out[`vehicle.${c}.ride_height`] = ride;
    out[`vehicle.${c}.wheel_travel`] = travel;
    out[`vehicle.${c}.camber`] = dAtan2(-a[2], sigma * a[1], -da[2], sigma * da[1]);
    out[`vehicle.${c}.toe`] = dAtan2(ab[0], sigma * ab[1], dab[0], sigma * dab[1]);
  }
  out['vehicle.heave'] = 0; out['vehicle.pitch'] = 0; out['vehicle.roll'] = 0;
  out['vehicle.front_axle_load'] = out['vehicle.front_left.contact_load'] + out['vehicle.front_right.contact_load'];
  out['vehicle.rear_axle_load'] = out['vehicle.rear_left.contact_load'] + out['vehicle.rear_right.contact_load'];
  return out;
}

/**
 * A number's wheel moves for steady-state.ts wheelGeometry along the register `eps` (its ε₁):
 * each wheel's centre and unit axis rates in its upright, and the road's height rate.
 */
export function geometryMoves(m: VehicleModel, wheels: readonly WheelMove[] | undefined, eps: number): (corner: CornerName) => { eps: number; centre: number[]; axis: number[]; road: number } | undefined {
  if (!wheels?.length) return () => undefined;
  const level = levelRates(m, wheels);
  return (corner) => {
    const centre = [0, 0, 0], axis = [0, 0, 0];
    for (const x of wheels) if (x.corner === corner) for (let k = 0; k < 3; k++) { centre[k] += x.centre[k]; axis[k] += x.axis[k]; }
    return { eps, centre, axis, road: level.road };
  };
}
