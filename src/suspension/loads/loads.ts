/**
 * Loads at every sweep state (`kinemate sweep … --loads FILE`, docs/dynamics.md "Loads in
 * sweeps"): a load case at each wheel's contact centre — forces and moments in ISO 8855
 * vehicle axes (x forward, y left, z up), given directly or as g-levels of a corner mass —
 * plus the geometry's force elements (springs, dampers at rest, torsion and anti-roll bars,
 * heave spring). The pose is the sweep's; what the loads leave unbalanced is carried by the
 * sweep's holds (the wheel-travel targets and the rack), as a K&C rig's wheel pads and
 * steering would. Per state: the axial force of every two-force link (tension +), the
 * wrench of every other mate on its b part, each force element's report, the rack force
 * and every hold's force. One multiplier solve on the factorisation the state's evaluation
 * already has (kernel/analysis.ts constraintMultipliers); no second factorisation.
 */
import { pointRate } from '../../../kernel/analysis';
import { constraintMultipliers } from '../../../kernel/multipliers';
import { PointToPointForce } from '../../../mates/forces';
import { addConstraintCurvature } from '../../mechanics/curvature';
import { rotationMatrix } from '../../../kernel/dual';
import { tangentLayout } from '../../../kernel/forces';
import * as P from '../../../kernel/pose';
import { buildDynamics, type DynamicsModel } from '../../mechanics/build';
import { elementReports, loadsHere, mateReactions, type ElementReport, type Wrench } from '../../mechanics/statics';
import type { Vec3Tuple } from '../../../kernel/vec3';
import type { SuspensionModel } from '../build/model';
import { parseDocument } from 'yaml';
import { KinemateError } from '../../../kernel/errors';

export const STANDARD_GRAVITY = 9.80665; // m/s², so N per kg

/** One wheel's load: explicit, or g-levels of `corner_mass` (kg). */
export interface WheelLoad {
  force?: Vec3Tuple;
  moment?: Vec3Tuple;
  corner_mass?: number;
  braking_g?: number;
  traction_g?: number;
  cornering_g?: number;
  bump_g?: number;
  /** Where force and moment act: the contact patch (default) or the wheel centre (a drive force reacted by the driveshaft). */
  at?: LoadPoint;
}
export const LOAD_POINTS = ['contact_patch', 'wheel_center'] as const;
export type LoadPoint = (typeof LOAD_POINTS)[number];
/** Per corner side (`left`, `right`), or `each` for every corner. */
export type LoadCase = Record<string, WheelLoad>;

export interface StateLoads {
  /** Contact centre (mm), force (N) and moment (N·mm) applied at each wheel, world = ISO vehicle axes. */
  contact: Record<string, { at: Vec3Tuple; force: Vec3Tuple; moment: Vec3Tuple }>;
  /** Axial force of every two-force link (distance mate), N, tension positive. */
  links: Record<string, number>;
  /** Every other mate's reaction: the force and moment it exerts on its b part. */
  joints: Record<string, Wrench>;
  /** Each force element of the geometry (spring, damper, bars): as `statics` reports it. */
  elements: Record<string, ElementReport>;
  /** Force the steering applies to the rack along +y (N); null without a rack. */
  rack_force: number | null;
  /** Every hold's force along its target (N at a wheel point, N·mm for an angle): what the rig adds to balance the loads. */
  holds: Record<string, number>;
  /** Rates at the state (null when the hub tangent is not unique): see `StateRates`. */
  rates: StateRates | null;
  /**
   * With `compliance:`: each bushing's report as `statics` gives it (force and moment on
   * the part, translation mm and rotation deg in its chassis frame), keyed by pickup
   * (nested by side on an axle). Its element is then not repeated under `elements`.
   */
  bushings?: BushingReports;
}

export type BushingReport = Extract<ElementReport, { translation: Vec3Tuple }>;
export type BushingReports = Record<string, BushingReport> | Record<string, Record<string, BushingReport>>;

/**
 * Rates at a sweep state, by the tangent (docs/dynamics.md "Axle rates"): K_z[i][j] =
 * v_iᵀ K v_j with v_i the motion raising hub i by 1 mm with the other hubs and the rack
 * held, K the tangent stiffness of the force elements and the reactions under the
 * elements' own forces (the contact loads' geometric stiffness is not included).
 */
export interface StateRates {
  /** N/mm, [corner][corner] in corner order. */
  wheel_stiffness: number[][];
  /** K_z[i][i] per side: the wheel rate with the other wheel held, N/mm. */
  wheel_rate: Record<string, number>;
  /** Axles: per-wheel heave and roll wheel rates (N/mm) and the roll stiffness (N·mm per degree). */
  heave_wheel_rate?: number;
  roll_wheel_rate?: number;
  roll_stiffness?: number;
  /** Every spring, damper and springdamper: dl/dz per side. */
  motion_ratios: Record<string, Record<string, number>>;
}

/** A load case file that cannot be read; `path` is the file (or `loads`), `reason` one problem a line. */
export class LoadCaseError extends KinemateError {
  override readonly name = 'LoadCaseError';
}

const FIELDS = ['force', 'moment', 'corner_mass', 'braking_g', 'traction_g', 'cornering_g', 'bump_g', 'at'] as const;

/** Read a load case (JSON or YAML) strictly: every bad field is named by its path, one a line. */
export function parseLoadCase(text: string, sides: readonly string[], source = 'loads'): LoadCase {
  const problems: string[] = [];
  let raw: unknown;
  let syntax: string | undefined;
  try {
    const doc = parseDocument(text);
    if (doc.errors.length) syntax = doc.errors[0].message;
    else raw = doc.toJS();
  } catch (e) {
    syntax = (e as Error).message;
  }
  if (syntax !== undefined) throw new LoadCaseError(source, `not YAML or JSON (${syntax.split('\n')[0]})`);
  const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isRecord(raw)) throw new LoadCaseError(source, `expected a mapping of corner side (${[...sides, 'each'].join(', ')}) to its load`);
  const out: LoadCase = {};
  for (const [side, value] of Object.entries(raw)) {
    if (side !== 'each' && !sides.includes(side)) { problems.push(`${side}: no such corner (expected ${[...sides, 'each'].join(', ')})`); continue; }
    if (!isRecord(value)) { problems.push(`${side}: expected a mapping`); continue; }
    const load: WheelLoad = {};
    for (const [key, v] of Object.entries(value)) {
      const path = `${side}.${key}`;
      if (!(FIELDS as readonly string[]).includes(key)) { problems.push(`${path}: unknown field (expected ${FIELDS.join(', ')})`); continue; }
      if (key === 'at') {
        if (!(LOAD_POINTS as readonly unknown[]).includes(v)) { problems.push(`${path}: expected ${LOAD_POINTS.join(' or ')}, got ${JSON.stringify(v)}`); continue; }
        load.at = v as LoadPoint;
      } else if (key === 'force' || key === 'moment') {
        if (!Array.isArray(v) || v.length !== 3 || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) { problems.push(`${path}: expected [x, y, z], three finite numbers`); continue; }
        load[key] = [v[0], v[1], v[2]];
      } else {
        if (typeof v !== 'number' || !Number.isFinite(v)) { problems.push(`${path}: expected a finite number`); continue; }
        if (key === 'corner_mass' && !(v > 0)) { problems.push(`${path}: must be > 0 kg (got ${v})`); continue; }
        (load as Record<string, number>)[key] = v;
      }
    }
    const g = ['braking_g', 'traction_g', 'cornering_g', 'bump_g'].filter((k) => k in load);
    if (g.length && load.corner_mass === undefined) problems.push(`${side}.${g[0]}: a g-level needs corner_mass`);
    if ((load.force || load.moment) && (g.length || load.corner_mass !== undefined)) problems.push(`${side}: give force/moment or g-levels with corner_mass, not both`);
    out[side] = load;
  }
  if (problems.length) throw new LoadCaseError(source, problems.join('\n'), problems.map((p) => `${source}: ${p}`).join('\n'));
  return out;
}

/**
 * The contact force and moment of a wheel's load (ISO 8855 vehicle axes): explicit, or from
 * g-levels with m = corner_mass and W = m·g: Fz = W(1 + bump_g), Fx = W(traction_g −
 * braking_g), Fy = W·cornering_g (a left turn is positive: the tyre pushes the car left).
 */
export function contactLoad(load: WheelLoad): { force: Vec3Tuple; moment: Vec3Tuple } {
  if (load.corner_mass === undefined) return { force: load.force ?? [0, 0, 0], moment: load.moment ?? [0, 0, 0] };
  const w = load.corner_mass * STANDARD_GRAVITY;
  return {
    force: [w * ((load.traction_g ?? 0) - (load.braking_g ?? 0)), w * (load.cornering_g ?? 0), w * (1 + (load.bump_g ?? 0))],
    moment: [0, 0, 0],
  };
}

/** Evaluates a load case at the suspension model's current (solved) state. */
export class SweepLoads {
  readonly dyn: DynamicsModel;
  /** The load case's contact loads, per loaded corner. */
  readonly loads: { corner: number; side: string; force: Vec3Tuple; moment: Vec3Tuple; at: LoadPoint }[];

  constructor(protected readonly sm: SuspensionModel, loadCase: LoadCase) {
    this.dyn = buildDynamics(sm.model);
    this.loads = [];
    sm.corners.forEach((c, i) => {
      const load = loadCase[c.roles.side] ?? loadCase.each;
      if (load) this.loads.push({ corner: i, side: c.roles.side, ...contactLoad(load), at: load.at ?? 'contact_patch' });
    });
  }

  /** `dyn.forces.evaluations` right after generalizedLoads assembled every element (elementReports' `evaluated`). */
  private evaluatedAt = -1;

  /** Contact centre of corner i now: the lowest point of the tyre's circle (radius R about the spin axis through the wheel centre). */
  contactCentre(i: number): Vec3Tuple {
    const { sm } = this;
    const c = sm.corners[i];
    const wc = P.applyPoint(new Float64Array(3), sm.model.system.getPose(c.upright), c.wheelCenterLocal);
    const a = sm.pointValue(c.axle[0], new Float64Array(3)), b = sm.pointValue(c.axle[1], new Float64Array(3));
    const s = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], l = Math.hypot(s[0], s[1], s[2]);
    for (let k = 0; k < 3; k++) s[k] /= l;
    // down in the wheel plane: −(ẑ − (ẑ·s) s), normalised
    const d = [s[2] * s[0], s[2] * s[1], s[2] * s[2] - 1], dl = Math.hypot(d[0], d[1], d[2]);
    return [wc[0] + (c.tireRadius * d[0]) / dl, wc[1] + (c.tireRadius * d[1]) / dl, wc[2] + (c.tireRadius * d[2]) / dl];
  }

  /** The loads applied now (the load case's; a compliant state's as it sets them). */
  get activeLoads(): SweepLoads['loads'] {
    return this.loads;
  }

  /** Where corner i's load acts now: its contact centre, or its wheel centre. */
  loadPoint(i: number, at: LoadPoint): Vec3Tuple {
    if (at === 'contact_patch') return this.contactCentre(i);
    const c = this.sm.corners[i];
    const wc = P.applyPoint(new Float64Array(3), this.sm.model.system.getPose(c.upright), c.wheelCenterLocal);
    return [wc[0], wc[1], wc[2]];
  }

  /**
   * The generalized applied force now (tangent layout of the system, body components):
   * the force elements' and each contact load's; `contact` receives the contact centres.
   */
  generalizedLoads(contact: StateLoads['contact'] = {}): Float64Array {
    const { dyn, sm } = this;
    const system = dyn.system;
    const Q = loadsHere(dyn);
    this.evaluatedAt = dyn.forces.evaluations;
    const { layout } = tangentLayout(system);
    const R = new Float64Array(9);
    for (const load of this.activeLoads) {
      const at = this.loadPoint(load.corner, load.at);
      contact[load.side] = { at, force: load.force, moment: load.moment };
      const variable = sm.corners[load.corner].upright;
      const c0 = layout[variable];
      if (c0 < 0) continue;
      const v = system.variables[variable];
      // body components (ω, v): Rᵀ(M + (x − o) × F), Rᵀ F
      rotationMatrix(R, system.state, v.offset + 3);
      const o = [system.state[v.offset], system.state[v.offset + 1], system.state[v.offset + 2]];
      const r = [at[0] - o[0], at[1] - o[1], at[2] - o[2]], F = load.force;
      const m = [load.moment[0] + r[1] * F[2] - r[2] * F[1], load.moment[1] + r[2] * F[0] - r[0] * F[2], load.moment[2] + r[0] * F[1] - r[1] * F[0]];
      for (let k = 0; k < 3; k++) {
        Q[c0 + k] += R[k] * m[0] + R[3 + k] * m[1] + R[6 + k] * m[2];
        Q[c0 + 3 + k] += R[k] * F[0] + R[3 + k] * F[1] + R[6 + k] * F[2];
      }
    }
    return Q;
  }

  evaluate(): StateLoads {
    const { dyn, sm } = this;
    const system = dyn.system;
    const contact: StateLoads['contact'] = {};
    const Q = this.generalizedLoads(contact);
    const mult = constraintMultipliers(system, Q);
    const reactions = mateReactions(dyn, mult);
    const links: StateLoads['links'] = {}, joints: StateLoads['joints'] = {};
    for (const [id, w] of Object.entries(reactions)) {
      if (!('force' in w)) continue;
      if (w.tension !== undefined) links[id] = w.tension;
      else joints[id] = w;
    }
    const holds: StateLoads['holds'] = {};
    let rack: number | null = null;
    mult.driverBlocks.forEach((b, d) => {
      const blk = system.block(b);
      const v = system.variables[blk.vars[0]];
      // a coordinate hold's row is (x − target)·scale; a point target's is in mm
      const value = -(blk.vars.length === 1 && v.kind !== 'pose' ? v.scale : 1) * mult.driverLambda[d];
      holds[blk.owner.replace(/^(driver|target|hold):/, '')] = value;
      if (sm.steering >= 0 && blk.vars.length === 1 && blk.vars[0] === sm.steering) rack = value;
    });
    // every element was evaluated here by generalizedLoads: its reports read those values
    const elements = elementReports(dyn, 0, undefined, this.evaluatedAt);
    const compliance = sm.roles.compliance;
    // a compliant suspension's hub tangent is not unique (its bushings move freely of the pads): no kinematic rates
    const out: StateLoads = { contact, links, joints, elements, rack_force: rack, holds, rates: compliance ? null : this.rates() };
    if (compliance) {
      // a compliant link's spring force keeps its link name; a bushing is reported once, by pickup
      for (const id of Object.keys(compliance.links)) { links[id] = (elements[id] as { tension: number }).tension; delete elements[id]; }
      const axle = sm.roles.scope === 'axle';
      const bushings: Record<string, Record<string, BushingReport>> = {};
      for (const [id, { side, pickup }] of Object.entries(compliance.bushings)) {
        (bushings[axle ? side : ''] ??= {})[pickup] = elements[id] as BushingReport;
        delete elements[id];
      }
      out.bushings = axle ? bushings : bushings[''] ?? {};
    }
    return out;
  }

  /** See `StateRates`. */
  rates(): StateRates | null {
    const { dyn, sm } = this;
    const system = dyn.system;
    const tangent = sm.derivativeTangent();
    if (tangent.status !== 'unique') return null;
    const nc = sm.corners.length;
    const v = tangent.rates.slice(0, nc) as Float64Array[];
    // K v_j = −K_el v_j + (λ·Φ_qq) v_j: the elements' stiffness and the constraint forces' curvature, exact
    // (mechanics/curvature.ts; the reactions taken as dead wrenches were 2.6e-4 off a moment row's share)
    const n = dyn.forces.size;
    const Q = new Float64Array(n), K = new Float64Array(n * n);
    dyn.forces.assemble(new Float64Array(n), 0, Q, K, null);
    const D = new Float64Array(n * nc);
    v.forEach((vj, j) => D.set(vj.subarray(0, n), j * n));
    const curvature = addConstraintCurvature(system, constraintMultipliers(system, Q), D, nc, n, tangent.layout, new Float64Array(n * nc));
    const Kv = v.map((vj, j) => {
      const out = new Float64Array(n);
      for (let r = 0; r < n; r++) { let acc = 0; for (let c = 0; c < n; c++) acc -= K[r * n + c] * vj[c]; out[r] = acc + curvature[r * nc + j]; }
      return out;
    });
    const Kz = v.map((vi) => Kv.map((kvj) => { let acc = 0; for (let r = 0; r < n; r++) acc += vi[r] * kvj[r]; return acc; }));
    const sides = sm.corners.map((c) => c.roles.side);
    const out: StateRates = { wheel_stiffness: Kz, wheel_rate: Object.fromEntries(sides.map((s, i) => [s, Kz[i][i]])), motion_ratios: {} };
    if (nc === 2) {
      const wc = sm.corners.map((c) => P.applyPoint(new Float64Array(3), system.getPose(c.upright), c.wheelCenterLocal));
      const track = Math.abs(wc[0][1] - wc[1][1]);
      out.heave_wheel_rate = (Kz[0][0] + Kz[0][1] + Kz[1][0] + Kz[1][1]) / 2;
      out.roll_wheel_rate = (Kz[0][0] - Kz[0][1] - Kz[1][0] + Kz[1][1]) / 2;
      out.roll_stiffness = ((out.roll_wheel_rate * track * track) / 2) * (Math.PI / 180);
    }
    const ra = new Float64Array(3), rb = new Float64Array(3), xa = new Float64Array(3), xb = new Float64Array(3);
    for (const e of dyn.elements) {
      if (!(e.block instanceof PointToPointForce)) continue;
      const b = e.block;
      P.applyPoint(xa, system.getPose(b.vars[0]), b.a); P.applyPoint(xb, system.getPose(b.vars[1]), b.b);
      const d = [xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2]], l = Math.hypot(d[0], d[1], d[2]);
      out.motion_ratios[e.id] = Object.fromEntries(sides.map((s, i) => {
        pointRate(ra, system, tangent, v[i], b.vars[0], b.a);
        pointRate(rb, system, tangent, v[i], b.vars[1], b.b);
        return [s, (d[0] * (rb[0] - ra[0]) + d[1] * (rb[1] - ra[1]) + d[2] * (rb[2] - ra[2])) / l];
      }));
    }
    return out;
  }
}
