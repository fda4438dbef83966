/**
 * Exact hardpoint gradients of the instant-centre metrics (svic, fvic, swing arms, anti_*)
 * of a corner whose instant axis comes from the screw of its upright's bump motion (roles
 * `instant_axis: { type: 'screw' }`: a multi-link, a beam axle; src/suspension/metrics/steering.ts
 * `instantAxisFromScrew`). That axis is built from velocities, so its gradient is a second
 * derivative: by the tangent pass of the `deriv_*` (derivative-sensitivity.ts
 * `coordinateTangents`), never by differences.
 *
 * In the pass every upright point carries its position and its rate along the hub motion
 * q̇_h = A⁻¹e_h, each with its derivative along the hardpoint coordinate. The hub twist
 * (ω, v₀) follows from three upright points (virtual-sensitivity.ts `twistOf`), and the
 * instant axis as `kinemate sweep` builds it: the line conjugate to the steering axis ℓ in
 * the twist's null system — the meet of the planes through two points a, b of ℓ normal to
 * their velocities v₀ + ω × a, v₀ + ω × b — with ℓ the steering response's screw axis under the
 * sweep's hold when there is a rack (virtual-sensitivity.ts `steeringResponseAxes`, the
 * `*_virtual` metrics' own), else the physical steering axis, else the
 * hub screw's own axis ω × v₀/|ω|² + t ω. The line is handed
 * to the metrics as duals whose tangents carry its derivative, so each metric's tangent is
 * its gradient entry (the road plane, the contact centre and the wheel centre carry theirs).
 */
import { Dual, type DualVec3 } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import { planesIntersection, type Line3 } from '../metrics/lines';
import * as D from '../metrics/dualops';
import type { CornerMetrics } from '../metrics';
import { coordinateTangents } from './derivatives';
import { driverRowsOf, solve } from './roll-centre';
import { uprightPoints } from '../metrics/steering';
import { holdRows, steeringResponseAxes, twistOf, wheelFrames } from './virtual';
import { cross, dot, position, rateOf, tangentVec, vadd, vdiv, type V } from './tangent-ops';
import { type DriverParameters, type SensitivityContext, type StateFactors } from './types';

/** The corner metrics read from the instant axis. */
export const SCREW_AXIS_METRICS = [
  'svic_x', 'svic_z', 'fvic_y', 'fvic_z', 'svsa_length', 'fvsa_length', 'svsa_angle', 'anti_dive', 'anti_lift', 'anti_squat',
] as const;
/** A corner file's mirrored roll centre and an axle's FVIC roll centre read the FVIC too. */
const ROLL_CENTRES = ['roll_center_z', 'roll_center_y'] as const;

/** Whether a model has a corner with a screw instant axis. */
export function hasScrewInstantAxis(model: SensitivityContext): boolean {
  return model.sm.corners.some((c) => c.roles.instant_axis.type === 'screw');
}


/**
 * `<group>:<name>` → value and gradient (a dual over the hardpoint coordinates) of the
 * instant-centre metrics of every screw-axis corner, at a state driven by the hubs (and the
 * rack); empty where not available (another sweep's drivers, a steered axle without a
 * physical steering axis, a block without second derivatives).
 */
export function screwAxisGradients(model: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], rates: TangentSpace, names: readonly string[]): Record<string, Dual> {
  const sm = model.sm;
  const nc = sm.corners.length;
  const screw = sm.corners.map((c) => c.roles.instant_axis.type === 'screw');
  if (!screw.some(Boolean)) return {};
  const rows = driverRowsOf(model, f, drivers);
  if (!rows) return {};
  const steered = rows.rack >= 0;
  // the steering line as the sweep takes it (state.ts): with a rack the steering response's
  // under the sweep's hold (one row per corner), else the physical axis, else none
  // (any hold the *_virtual metrics take: rows that disagree, or too few, give null there)
  const holds = steered ? holdRows(model, model.virtualHold) : [];
  if (steered && !holds) return {};
  const dirs = [...rows.hub, rows.rack].filter((r) => r >= 0).map((r) => { const e = new Float64Array(f.M); e[r] = 1; return solve(f, e); });
  const nd = dirs.length;
  const space: TangentSpace = { mobility: 0, targetRank: 0, status: 'unique', projectionRatios: [], rates: dirs, layout: f.layout, size: f.n };
  const P = model.parameterCount;
  const wanted = (names.length ? names : [...SCREW_AXIS_METRICS, ...ROLL_CENTRES]).filter((m) => (SCREW_AXIS_METRICS as readonly string[]).includes(m) || (ROLL_CENTRES as readonly string[]).includes(m));
  const out: Record<string, Dual> = {};
  const missing = new Set<string>();
  const set = (key: string, d: Dual | null | undefined, k: number) => {
    if (!d || !Number.isFinite(d.v)) { missing.add(key); return; }
    const o = (out[key] ??= new Dual(P, d.v));
    o.d[k] = d.t ? d.t.v : 0;
  };
  const done = coordinateTangents(model, f, dirs, rates, (k, run, dirDots) => {
    // the steering response's axes (virtual-sensitivity.ts), once per coordinate, inside the pass
    let axes: ({ point: V; direction: V } | null)[] | null | undefined;
    const responseAxes = () => {
      if (axes === undefined) {
        const frames = wheelFrames(model, (e) => sm.pointDual(e, space, dirs, nd), nd);
        axes = frames && holds ? steeringResponseAxes(model, f, holds, dirs, dirDots, space, frames) : null;
      }
      return axes;
    };
    const axisOf = (i: number): Line3 | null => {
      const pts = uprightPoints(sm.corners[i]).exprs.map((e) => sm.pointDual(e, space, dirs, nd));
      const twist = twistOf(pts.map(position), pts.map((q) => rateOf(q, i)));
      if (!twist) return null;
      const { w, v0 } = twist;
      let ends: [V, V] | null = null;
      const sa = sm.corners[i].roles.steering_axis;
      if (steered) {
        const line = responseAxes()?.[i];
        if (!line) return null;
        ends = [line.point, vadd(line.point, line.direction)];
      } else if (sa) ends = [position(sm.pointDual(sm.resolveRole(sa[0]), space, dirs, nd)), position(sm.pointDual(sm.resolveRole(sa[1]), space, dirs, nd))];
      if (!ends) {
        // no steering: the hub screw's own axis
        const ww = dot(w, w);
        const point = vdiv(cross(w, v0), ww);
        return { point: tangentVec(nd, point), direction: tangentVec(nd, w) };
      }
      const [a, b] = ends;
      const va = vadd(v0, cross(w, a)), vb = vadd(v0, cross(w, b));
      return planesIntersection({ point: tangentVec(nd, a), normal: tangentVec(nd, va) }, { point: tangentVec(nd, b), normal: tangentVec(nd, vb) });
    };
    const ev = run(() => {
      const e = sm.evaluate({ rates: space, instantAxis: (i) => axisOf(i) });
      // read the roll centres inside the pass: their ops carry the tangents
      return { e, rc: nc === 1 ? mirroredRollCentreT(e.corners[0]) : null };
    });
    ev.e.corners.forEach((cm, ci) => {
      if (!screw[ci]) return;
      const metrics = cm.metrics as Record<string, Dual | null>;
      for (const m of wanted) if ((SCREW_AXIS_METRICS as readonly string[]).includes(m)) set(`${model.sides[ci]}:${m}`, metrics[m], k);
    });
    if (nc === 1 && wanted.includes('roll_center_z')) set(`${model.sides[0]}:roll_center_z`, ev.rc, k);
    if (nc === 2 && ev.e.axle) for (const m of ['roll_center_y', 'roll_center_z'] as const) if (wanted.includes(m)) set(`axle:${m}`, ev.e.axle[m], k);
  });
  for (const key of missing) delete out[key];
  return done ? out : {};
}

/**
 * sensitivity.ts `mirroredRollCentre` with the contact centre's components taken by the ops
 * that carry tangents (that one copies its first derivatives by hand): z = C_z − C_y (F_z − C_z)/(F_y − C_y).
 */
function mirroredRollCentreT(cm: CornerMetrics): Dual | null {
  const fy = cm.metrics.fvic_y, fz = cm.metrics.fvic_z;
  if (!fy || !fz) return null;
  const c = cm.points.wheel_contact_centre;
  const cy = D.comp(c, 1), cz = D.comp(c, 2);
  if (fy.v - cy.v === 0) return null;
  return D.sub(cz, D.mul(cy, D.div(D.sub(fz, cz), D.sub(fy, cy))));
}
