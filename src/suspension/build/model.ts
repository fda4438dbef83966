/**
 * A suspension on a solvable model: the assembly's `suspension` roles resolved to
 * variables and part-local points, drivers for sweeps, and the evaluation of a solved
 * state — positions, metrics with exact derivatives along the sweep's targets (tangent of
 * the constraint null space + forward-mode AD through the metric formulas).
 */
import { Dual, DualVec3, tangentMode } from '../../../kernel/dual';
import { unit, vsub } from '../metrics/dualops';
import * as P from '../../../kernel/pose';
import { solve, type SolveReport } from '../../../kernel/solver/solve';
import { tangentSpace, pointRate, rotatedPointRate, type TangentSpace } from '../../../kernel/analysis';
import { toMatrix } from '../../../kernel/quat';
import { packedMap } from '../../../kernel/packed-map';
import { ScalarTargetBlock, type ResidualBlock } from '../../../kernel/system';
import { splitReference, type AssemblyDoc } from '../../assembly/types';
import { buildModel, type Model, ModelError } from '../../model/build';
import { validateRoles, RolesError, type CornerRoles, type PointRole, type SuspensionRoles } from './roles';
import { LengthBlock, PointCoordinateBlock, type PointExpr } from './targets';
import { betweenExpr, localOf } from './point-terms';
import { SeededPoints } from './seeded-points';
export { localSource, rodShare } from './point-terms';
import {
  cornerMetrics, CORNER_INPUT_POINTS, wishbonePlanesAxis, macphersonAxis, trailingArmAxis, axleRoadPlane, axleMetrics, axleDesignReference,
  type AxleMetrics, type CornerInput, type CornerMetrics, type Line3, type RoadInput,
} from '../metrics';
import { tireRadius } from '../files';
import { DeviceRuntime } from './devices';
import type { CornerRuntime, MetricValues, ModelPoints } from './runtime';
export type { CornerRuntime, MetricValues } from './runtime';
import { steeringGeometry } from '../metrics/steering-geometry';


/** Per-corner metrics whose derivatives are reported, with respect to hub z and rack. */
export const DERIVATIVES_WRT_HUB_Z = ['camber', 'toe_angle', 'steer_angle', 'caster', 'kpi', 'half_track', 'wheel_center_x', 'damper_length', 'rocker_angle'] as const;
export const DERIVATIVES_WRT_RACK = ['toe_angle', 'steer_angle', 'camber'] as const;
const HUB_Z_KEYS = Object.fromEntries(DERIVATIVES_WRT_HUB_Z.map((n) => [n, `deriv_${n}_wrt_hub_z`])) as Record<string, string>;
const RACK_KEYS = Object.fromEntries(DERIVATIVES_WRT_RACK.map((n) => [n, `deriv_${n}_wrt_rack_displacement`])) as Record<string, string>;


export interface StateEvaluation {
  positions: Record<string, [number, number, number]>;
  /** corner: flat; axle: { axle, left, right } */
  metrics: MetricValues | { axle: MetricValues; left: MetricValues; right: MetricValues };
  /** Raw corner metric objects (duals), for the steering response and tests. */
  corners: CornerMetrics[];
  /** An axle's metrics as duals (the kinematic roll centre's carry no derivatives), for the sensitivities. */
  axle?: AxleMetrics;
  tangent: TangentSpace;
}

export interface EvaluateExtras {
  /** Per corner: the steering-response axis (width-n duals), or null. */
  virtualAxes?: (Line3 | null)[];
  /** Instant axis for corners whose roles say `instant_axis: { type: 'screw' }`. */
  instantAxis?: (cornerIndex: number, n: number, tangent: TangentSpace) => Line3 | null;
  /**
   * false: values only — no derivative tangent (the `deriv_*` metrics, the kinematic roll
   * centre and screw instant axes are then null). For curves that plot values only.
   */
  derivatives?: boolean;
  /**
   * Evaluate along these rates instead of the hub-z/rack tangent (src/suspension/gradients/model.ts:
   * one rate per hardpoint coordinate, so every metric's dual carries its gradient).
   */
  rates?: TangentSpace;
  /**
   * The duals only (the adjoint's evaluation, src/suspension/gradients/adjoint.ts: it reads
   * `corners` and `axle`): no positions and no metric values, which it would throw away.
   */
  dualsOnly?: boolean;
}

/** The tangent of an evaluation asked for values only: no rates (see `derivatives: false`). */
const NO_TANGENT: TangentSpace = { mobility: 0, targetRank: 0, status: 'not_unique', projectionRatios: [], rates: [], layout: new Int32Array(0), size: 0 };

export class SuspensionModel implements ModelPoints {
  readonly model: Model;
  readonly roles: SuspensionRoles;
  readonly corners: CornerRuntime[];
  /** The steering coordinate's variable, or −1 when unsteered. */
  readonly steering: number;
  readonly rackHold: ScalarTargetBlock | null;
  private readonly rackDesign: number;
  readonly design: Float64Array;
  /** Anti-roll bars, heave link, torsion bars, link/lever pairs; null when none. */
  readonly devices: DeviceRuntime | null;

  /**
   * @param doc an assembly with a `suspension` section; its part poses are the design.
   * @param model optionally, a model of this document already built and perhaps solved
   *   elsewhere (the live model's): it is used as is, and the design is taken from the
   *   document's own poses (a fresh build of the same structure), not from its state.
   * @param atDesign the model given stands at the document's design (renewModel's, just
   *   renewed): taken as the design as it is.
   */
  constructor(doc: AssemblyDoc, model?: Model, atDesign = false) {
    if (doc.suspension === undefined) throw new RolesError('suspension', 'this assembly has no suspension section');
    this.roles = validateRoles(doc.suspension);
    this.model = model ?? buildModel(doc);
    const sys = this.model.system;
    const current = model && !atDesign ? sys.snapshot() : null;
    if (model && !atDesign) {
      const designDoc = { ...doc, state: Object.fromEntries(Object.entries(doc.state).filter(([k]) => !k.endsWith('.pose'))) } as AssemblyDoc;
      const design = buildModel(designDoc).system;
      if (design.snapshotLength !== sys.snapshotLength) throw new RolesError('suspension', 'the model given is not a build of this document');
      sys.restore(design.snapshot());
    }
    const partVar = (name: string, path: string) => {
      const v = this.model.parts.get(name);
      if (v === undefined) throw new RolesError(path, `no part "${name}"`);
      return v;
    };
    partVar(this.roles.chassis, 'suspension.chassis');
    const resolve = (role: PointRole, path: string): PointExpr => {
      if (typeof role === 'string') {
        const split = splitReference(role);
        if (split === undefined) throw new RolesError(path, `no point "${role}"`);
        const v = partVar(split.owner, path);
        const p = doc.parts[split.owner]?.points?.[split.name];
        if (!p) throw new RolesError(path, `no point "${role}"`);
        return [{ variable: v, local: localOf(p), weight: 1 }];
      }
      const [a, b] = role.between;
      return betweenExpr(role, resolve(a, `${path}.between[0]`), resolve(b, `${path}.between[1]`));
    };
    this.corners = this.roles.corners.map((c, i) => {
      const path = `suspension.corners[${i}]`;
      const upright = partVar(c.upright, `${path}.upright`);
      const points = new Map<string, PointExpr>();
      for (const [name, role] of Object.entries(c.points)) points.set(name, resolve(role, `${path}.points.${name}`));
      const axle: [PointExpr, PointExpr] = [resolve(c.axle[0], `${path}.axle[0]`), resolve(c.axle[1], `${path}.axle[1]`)];
      if (!axle.every((e) => e.length === 1 && e[0].variable === upright)) throw new RolesError(`${path}.axle`, 'the axle points must be points of the upright');
      // wheel centre in the upright's frame: axle_outboard − offset·unit(axle_outboard − axle_inboard)
      const ai = axle[0][0].local, ao = axle[1][0].local;
      const d = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]];
      const l = Math.hypot(d[0], d[1], d[2]);
      const off = c.wheel.offset;
      const wcLocal = Float64Array.from([ao[0] - (off * d[0]) / l, ao[1] - (off * d[1]) / l, ao[2] - (off * d[2]) / l]);
      const pose = sys.getPose(upright);
      const wcWorld = P.applyPoint(new Float64Array(3), pose, wcLocal);
      const wheelCenterZ = new PointCoordinateBlock(`${c.side}:wheel_center_z`, [{ variable: upright, local: wcLocal, weight: 1 }], 2, wcWorld[2]);
      const design: CornerRuntime['design'] = { wheelCenterZ: wcWorld[2], wheelCenter: wcWorld };
      if (c.rocker) {
        const e = resolve(c.rocker.point, `${path}.rocker.point`);
        design.rockerReference = this.pointValue(e);
      }
      return { roles: c, sigma: c.side === 'left' ? 1 : -1, upright, points, axle, wheelCenterLocal: wcLocal, wheelCenterZ, design, tireRadius: tireRadius(c.wheel.tire) } satisfies CornerRuntime;
    });
    if (this.roles.steering) {
      const info = this.model.coordinates.get(this.roles.steering);
      if (!info) throw new RolesError('suspension.steering', `no coordinate "${this.roles.steering}"`);
      this.steering = info.variable;
      this.rackDesign = sys.getScalar(info.variable);
      this.rackHold = new ScalarTargetBlock('driver:rack', info.variable, this.rackDesign, sys.variables[info.variable].scale, 'driver');
    } else {
      this.steering = -1;
      this.rackDesign = 0;
      this.rackHold = null;
    }
    this.devices = DeviceRuntime.of(this);
    this.design = sys.snapshot();
    // Axle references (design track, ride height) come from the design state itself.
    if (this.roles.scope === 'axle') this.evaluate();
    if (current) sys.restore(current);
  }

  /**
   * Set only while src/suspension/gradients/model.ts evaluates: adds a point term's rate that
   * comes from its local point moving (a hardpoint moved), not from the state.
   */
  explicitPointRate: ((out: DualVec3, term: PointExpr[number], n: number) => void) | null = null;

  /** World position of a point expression now. */
  pointValue(expr: PointExpr, out: Float64Array = new Float64Array(3)): Float64Array {
    out.fill(0);
    const tmp = scratchPoint;
    for (const t of expr) {
      P.applyPoint(tmp, this.model.system.state, t.local, this.model.system.variables[t.variable].offset);
      for (let i = 0; i < 3; i++) out[i] += t.weight * tmp[i];
    }
    return out;
  }

  /** A point expression as a dual seeded with its rates along the given tangent directions. */
  pointDual(expr: PointExpr, tangent: TangentSpace, directions: readonly (Float64Array | null)[], n: number): DualVec3 {
    const out = new DualVec3(n);
    this.pointValue(expr, scratchValue);
    out.v.set(scratchValue);
    const rate = scratchRate, system = this.model.system;
    // each term's rotation once for every direction (a fixed body moves with none)
    for (const t of expr) {
      const c0 = tangent.layout[t.variable];
      if (!(c0 >= 0)) continue;
      let R: Float64Array | null = null;
      for (let k = 0; k < directions.length; k++) {
        const dir = directions[k];
        if (!dir) continue;
        R ??= toMatrix(scratchMatrix, system.state, system.variables[t.variable].offset + 3);
        rotatedPointRate(rate, R, dir, c0, t.local);
        for (let i = 0; i < 3; i++) out.d[i * n + k] += t.weight * rate[i];
      }
    }
    if (this.explicitPointRate) for (const t of expr) this.explicitPointRate(out, t, n);
    return out;
  }

  /** Rack displacement now (mm, + toward +y). */
  rackDisplacement(): number {
    return this.steering >= 0 ? this.model.system.getScalar(this.steering) - this.rackDesign : 0;
  }

  /** Block for a hold or target by role id of a corner (damper length, a coordinate). */
  holdBlocks(cornerIndex: number, holdId: string): ResidualBlock[] | null {
    const c = this.corners[cornerIndex];
    const spec = c.roles.holds[holdId];
    if (!Array.isArray(spec)) return null;
    const sys = this.model.system;
    return spec.map((h, j) => {
      if (typeof h === 'string') {
        const info = this.model.coordinates.get(h);
        if (!info) throw new RolesError(`suspension.corners[${cornerIndex}].holds.${holdId}[${j}]`, `no coordinate "${h}"`);
        return new ScalarTargetBlock(`${c.roles.side}:${holdId}`, info.variable, sys.getScalar(info.variable), sys.variables[info.variable].scale, 'driver');
      }
      const pts = h.length.map((r) => this.resolveRole(r));
      return new LengthBlock(`${c.roles.side}:${holdId}`, pts[0], pts[1], 0, 'driver');
    });
  }

  /** Roles never change after construction: each string role is resolved once. */
  private readonly resolved = new Map<string, PointExpr>();

  resolveRole(role: PointRole): PointExpr {
    if (typeof role === 'string') {
      const known = this.resolved.get(role);
      if (known) return known;
      const expr = this.resolveName(role);
      this.resolved.set(role, expr);
      return expr;
    }
    return betweenExpr(role, this.resolveRole(role.between[0]), this.resolveRole(role.between[1]));
  }

  private resolveName(role: string): PointExpr {
    {
      for (const c of this.corners) for (const [name, e] of c.points) if (c.roles.points[name] === role) return e;
      const split = splitReference(role);
      const v = split && this.model.parts.get(split.owner);
      const p = split && this.model.doc.parts[split.owner]?.points?.[split.name];
      if (v === undefined || !p) throw new RolesError('suspension', `no point "${role}"`);
      return [{ variable: v, local: localOf(p), weight: 1 }];
    }
  }

  /**
   * The tangent basis of derivatives: one target per corner (its wheel-centre z) and the
   * rack, so d/d hub_z of a corner has its own hub at unit rate, every other hub and the
   * rack still; d/d rack has the rack at unit rate and every hub still.
   */
  derivativeTangent(): TangentSpace {
    const targets: ResidualBlock[] = packedMap(this.corners, (c) => c.wheelCenterZ);
    if (this.rackHold) targets.push(this.rackHold);
    return tangentSpace(this.model.system, targets);
  }

  /**
   * Evaluate the current (solved) state: positions, metrics, derivatives. `extras` plugs in
   * what the steering module knows: the steering-response axis per corner (the `*_virtual`
   * metrics) and the instant axis of linkages without a classic construction.
   */
  evaluate(extras: EvaluateExtras = {}): StateEvaluation {
    const tangent = extras.rates ?? (extras.derivatives === false ? NO_TANGENT : this.derivativeTangent());
    const nc = this.corners.length;
    const steered = this.rackHold !== null;
    const n = extras.rates ? extras.rates.rates.length : nc + (steered ? 1 : 0);
    const dirs = tangent.status === 'unique' ? tangent.rates : new Array(n).fill(null);
    const positions: Record<string, [number, number, number]> = {};
    const dualsOnly = extras.dualsOnly === true;
    const seeded = new SeededPoints(this, tangent, dirs, n);
    const inputs = packedMap(this.corners, (c) => {
      const pts: Record<string, DualVec3> = {};
      // every named point's position; a dual only for those the metrics read (seeding the
      // others cost a dual each, and made the gradients think the metrics read their parts).
      // A name listed twice (the axle points) keeps its first place and takes the later point.
      for (const [name, e, k] of this.cornerPointList(c)) {
        if (!dualsOnly) { const p = this.pointValue(e, scratchValue); positions[k] = [p[0], p[1], p[2]]; }
        if (CORNER_INPUT_POINTS.has(name)) pts[name] = seeded.of(e);
      }
      return pts;
    });
    let road: RoadInput | null = null;
    if (this.roles.scope === 'axle') {
      const wheel = (c: CornerRuntime, pts: Record<string, DualVec3>) => {
        const wc = this.pointDual(this.wheelCenterExpr(c), tangent, dirs, n);
        const ai = pts.axle_inboard, ao = pts.axle_outboard;
        const spin = new DualVec3(n);
        const l = Math.hypot(ao.v[0] - ai.v[0], ao.v[1] - ai.v[1], ao.v[2] - ai.v[2]);
        // unit(ao − ai) as a dual
        for (let i = 0; i < 3; i++) spin.v[i] = (ao.v[i] - ai.v[i]) / l;
        for (let k = 0; k < n; k++) {
          let along = 0;
          for (let i = 0; i < 3; i++) along += spin.v[i] * (ao.d[i * n + k] - ai.d[i * n + k]);
          for (let i = 0; i < 3; i++) spin.d[i * n + k] = (ao.d[i * n + k] - ai.d[i * n + k] - spin.v[i] * along) / l;
        }
        // tangent mode (half track's hardpoint gradient): the same unit vector by the ops that carry tangents
        if (tangentMode()) spin.t = unit(vsub(ao, ai)).t;
        return { wheelCenter: wc, spin, tireRadius: c.tireRadius };
      };
      road = axleRoadPlane(wheel(this.corners[0], inputs[0]), wheel(this.corners[1], inputs[1]));
    }
    const cornersOut = packedMap(this.corners, (c, i) => {
      const pts = inputs[i];
      const roles = c.roles;
      let instantAxis: Line3 | null = null;
      const ia = roles.instant_axis;
      if (ia.type === 'planes') instantAxis = wishbonePlanesAxis(seeded.role(ia.lower[0]), seeded.role(ia.lower[1]), seeded.role(ia.lower[2]), seeded.role(ia.upper[0]), seeded.role(ia.upper[1]), seeded.role(ia.upper[2]));
      else if (ia.type === 'plane_and_strut') instantAxis = macphersonAxis(seeded.role(ia.plane[0]), seeded.role(ia.plane[1]), seeded.role(ia.plane[2]), seeded.role(ia.strut[1]), seeded.role(ia.strut[0]));
      else if (ia.type === 'line') instantAxis = trailingArmAxis(seeded.role(ia.line[0]), seeded.role(ia.line[1]));
      else if (ia.type === 'screw' && extras.instantAxis) instantAxis = extras.instantAxis(i, n, tangent);
      const damperPts = roles.damper ? [seeded.role(roles.damper[0]), seeded.role(roles.damper[1])] : null;
      if (damperPts) { pts.strut_bottom = damperPts[0]; pts.strut_top = damperPts[1]; }
      if (roles.rocker) { pts.rocker_axis_a = seeded.role(roles.rocker.axis[0]); pts.rocker_axis_b = seeded.role(roles.rocker.axis[1]); pts.pushrod_inboard = seeded.role(roles.rocker.point); }
      return cornerMetrics({
        side: roles.side,
        points: pts,
        steeringAxis: roles.steering_axis ? [seeded.role(roles.steering_axis[0]), seeded.role(roles.steering_axis[1])] : null,
        ...this.cornerConstants(c),
        road,
        axlePosition: this.roles.axle_position,
        instantAxis,
        virtualAxis: extras.virtualAxes?.[i] ?? null,
      }, n);
    });
    let metrics: StateEvaluation['metrics'];
    let axleDuals: AxleMetrics | undefined;
    if (this.roles.scope === 'axle') {
      const left = dualsOnly ? {} : this.flatMetrics(cornersOut[0], 0, positions, tangent, n), right = dualsOnly ? {} : this.flatMetrics(cornersOut[1], 1, positions, tangent, n);
      const axle: MetricValues = {};
      if (road) {
        const design = this.axleDesign ?? (this.axleDesign = axleDesignReference(cornersOut[0], cornersOut[1], road));
        // kinematic roll centre: velocity of the upright's material point at each contact centre under heave
        const heave = tangent.status === 'unique' ? sumRates(tangent.rates[0]!, tangent.rates[1]!) : null;
        const kin = heave ? ([0, 1] as const).map((i) => {
          const c = this.corners[i];
          const cw = cornersOut[i].points.wheel_contact_centre.v;
          const local = P.applyInversePoint(new Float64Array(3), this.model.system.state, cw, this.model.system.variables[c.upright].offset);
          const v = pointRate(new Float64Array(3), this.model.system, tangent, heave, c.upright, local);
          const k = new DualVec3(n);
          return { velocity: { y: constDual(n, v[1]), z: constDual(n, v[2]) }, k };
        }) : null;
        const am = axleMetrics(cornersOut[0], cornersOut[1], design, n, {
          road,
          rackDisplacement: steered ? constDualWith(n, this.rackDisplacement(), nc) : null,
          kinematic: kin ? { left: { velocity: kin[0].velocity }, right: { velocity: kin[1].velocity } } : null,
        });
        axleDuals = am;
        if (!dualsOnly) for (const [k, v] of Object.entries(am)) axle[k] = v ? v.v : null;
        if (!dualsOnly && steered && this.roles.axle_position === 'front') {
          Object.assign(axle, steeringGeometry({
            steerLeft: left.steer_angle as number, steerRight: right.steer_angle as number,
            rateLeft: left.deriv_steer_angle_wrt_rack_displacement ?? null, rateRight: right.deriv_steer_angle_wrt_rack_displacement ?? null,
            rackDisplacement: this.rackDisplacement(), track: design.track,
            ...(this.roles.vehicle.wheelbase !== undefined ? { wheelbase: this.roles.vehicle.wheelbase } : {}),
            ...(this.roles.rack_travel_per_revolution !== undefined ? { rackTravelPerRevolution: this.roles.rack_travel_per_revolution } : {}),
          }));
        }
      }
      metrics = { axle, left, right };
    } else {
      metrics = dualsOnly ? {} : this.flatMetrics(cornersOut[0], 0, positions, tangent, n);
    }
    if (!dualsOnly) this.devices?.addMetrics(this, (e) => seeded.of(e), n, tangent.status === 'unique', metrics, positions);
    return { positions, metrics, corners: cornersOut, tangent, ...(axleDuals ? { axle: axleDuals } : {}) };
  }
  private axleDesign: ReturnType<typeof axleDesignReference> | undefined;

  /** A corner's metrics as values, with its derivatives along the hub-z and rack rates; its points into `positions`. */
  private flatMetrics(cm: CornerMetrics, i: number, positions: Record<string, [number, number, number]>, tangent: TangentSpace, n: number): MetricValues {
    const nc = this.corners.length, steered = this.rackHold !== null;
    const out: MetricValues = {};
    const ms = cm.metrics as Record<string, Dual | null | undefined>, ps = cm.points as Record<string, DualVec3>;
    for (const k in ms) { const v = ms[k]; out[k] = v ? v.v : null; }
    for (const k in ps) { const p = ps[k]; positions[this.positionKey(this.corners[i], k)] = [p.v[0], p.v[1], p.v[2]]; }
    const wcx = cm.points.wheel_center;
    const haveDerivs = tangent.status === 'unique';
    for (const name of DERIVATIVES_WRT_HUB_Z) {
      const d = name === 'wheel_center_x' ? wcx.d[0 * n + i] : cm.metrics[name as keyof typeof cm.metrics]?.d[i];
      if (name === 'wheel_center_x' || cm.metrics[name as keyof typeof cm.metrics]) out[HUB_Z_KEYS[name]] = haveDerivs && d !== undefined ? d : null;
    }
    if (steered) for (const name of DERIVATIVES_WRT_RACK) {
      const m = cm.metrics[name as keyof typeof cm.metrics];
      if (m) out[RACK_KEYS[name]] = haveDerivs ? m.d[nc] : null;
    }
    return out;
  }

  /** A corner's named points, then its axle points, each with its key in the positions: listed once. */
  private cornerPointList(c: CornerRuntime): readonly [string, PointExpr, string][] {
    let list = this.cornerPointLists.get(c);
    if (list) return list;
    list = [...c.points, ['axle_inboard', c.axle[0]] as const, ['axle_outboard', c.axle[1]] as const].map(([name, e]) => [name, e, this.positionKey(c, name)] as [string, PointExpr, string]);
    this.cornerPointLists.set(c, list);
    return list;
  }
  private readonly cornerPointLists = new Map<CornerRuntime, [string, PointExpr, string][]>();

  /** A corner's wheel centre as a point expression, made once. */
  private wheelCenterExpr(c: CornerRuntime): PointExpr {
    let e = this.wheelCenterExprs.get(c);
    if (!e) this.wheelCenterExprs.set(c, (e = [{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }]));
    return e;
  }
  private readonly wheelCenterExprs = new Map<CornerRuntime, PointExpr>();

  /** The metric inputs of a corner that never change after construction (wheel, design, vehicle), made once. */
  private cornerConstants(c: CornerRuntime): Pick<CornerInput, 'wheel' | 'design' | 'vehicle'> {
    let k = this.constantInputs.get(c);
    if (k) return k;
    const roles = c.roles, vehicle = this.roles.vehicle;
    k = {
      wheel: { offset: roles.wheel.offset, tireRadius: c.tireRadius, sectionWidth: roles.wheel.tire.section_width },
      design: { wheelCenterZ: c.design.wheelCenterZ, ...(c.design.rockerReference ? { rockerReference: c.design.rockerReference } : {}) },
      vehicle: {
        ...(vehicle.cg_position ? { cgPosition: vehicle.cg_position } : {}),
        ...(vehicle.wheelbase !== undefined ? { wheelbase: vehicle.wheelbase } : {}),
        ...(vehicle.front_brake_bias !== undefined ? { frontBrakeBias: vehicle.front_brake_bias } : {}),
        ...(vehicle.driven_axle !== undefined ? { drivenAxle: vehicle.driven_axle } : {}),
      },
    };
    this.constantInputs.set(c, k);
    return k;
  }
  private readonly constantInputs = new Map<CornerRuntime, Pick<CornerInput, 'wheel' | 'design' | 'vehicle'>>();

  /** A corner point's key in the positions (side-prefixed on an axle), made once per name: a state repeats them all. */
  private positionKey(c: CornerRuntime, name: string): string {
    if (this.roles.scope !== 'axle') return name;
    let keys = this.positionKeys.get(c);
    if (!keys) this.positionKeys.set(c, (keys = new Map()));
    let k = keys.get(name);
    if (k === undefined) keys.set(name, (k = `${c.roles.side}_${name}`));
    return k;
  }
  private readonly positionKeys = new Map<CornerRuntime, Map<string, string>>();

  /** Reset every variable to the design state. */
  resetToDesign(): void {
    this.model.system.restore(this.design);
  }

  /**
   * Solve with the given driver blocks active. The drivers stay in the system until a
   * different set is asked for (so a sweep does not rebuild the solver's structure each
   * step); `clearDrivers` takes them out.
   */
  solveWith(drivers: readonly ResidualBlock[]): SolveReport {
    const sys = this.model.system;
    const same = drivers.length === this.activeDrivers.length && drivers.every((d, i) => d === this.activeDrivers[i]);
    if (!same) {
      if (this.activeDrivers.length) sys.removeBlocks(this.activeDrivers);
      for (const d of drivers) sys.addBlock(d);
      this.activeDrivers = [...drivers];
    }
    return solve(sys);
  }
  clearDrivers(): void {
    if (this.activeDrivers.length) this.model.system.removeBlocks(this.activeDrivers);
    this.activeDrivers = [];
  }
  private activeDrivers: ResidualBlock[] = [];
}

// Scratch for the evaluation's hot path (single-threaded; never held across calls).
const scratchPoint = new Float64Array(3), scratchValue = new Float64Array(3), scratchRate = new Float64Array(3), scratchMatrix = new Float64Array(9);

function sumRates(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] + b[i];
  return out;
}
function constDual(n: number, v: number): Dual {
  return new Dual(n, v);
}
function constDualWith(n: number, v: number, k: number): Dual {
  const d = new Dual(n, v);
  d.d[k] = 1;
  return d;
}

export { ModelError };
