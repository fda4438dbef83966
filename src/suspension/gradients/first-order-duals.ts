/**
 * The first-order metrics of a dual evaluation, keyed `<group>:<name>` (group: a side, or
 * `axle`): the corners' and axle's own, with what the evaluation cannot know added (the
 * rocker angle's moving reference, a corner's mirrored roll centre, the rack's own rate, a
 * steered axle's steering geometry, the devices').
 */
import type { TangentSpace } from '../../../kernel/analysis';
import { Dual, dDiv, dMul, dSub } from '../../../kernel/dual';
import type { CornerMetrics } from '../metrics';
import type { StateEvaluation } from '../build/model';
import { steeringGeometryDuals } from './devices';
import { AXLE_SENSITIVITY_METRICS, KINEMATIC_ROLL_CENTRE, SENSITIVITY_METRICS } from './metric-names';
import type { DualEvaluation } from './evaluate-along';
import type { AxleDesignGradients } from './design-rates';
import type { SensitivityContext } from './types';

/** The first-order metrics of a state evaluation as duals, `<group>:<name>` (group: a side, or `axle`). */
export function firstOrderDuals(ctx: SensitivityContext, design: AxleDesignGradients | null, ev: DualEvaluation, rates: TangentSpace): Map<string, Dual> {
  const out = new Map<string, Dual>();
  ev.corners.forEach((cm, ci) => {
    const side = ctx.sides[ci];
    const keys = sideKeys(side);
    const metrics = cm.metrics as Record<string, Dual | null>;
    for (let i = 0; i < SENSITIVITY_METRICS.length; i++) { const m = metrics[SENSITIVITY_METRICS[i]]; if (m) out.set(keys[i], m); }
    // the evaluation's rocker angle takes its design reference as a constant: this one moves it
    const rockerKey = keys[SENSITIVITY_METRICS.indexOf('rocker_angle')];
    out.delete(rockerKey);
    const rocker = ev.rockerAngles[ci];
    if (rocker) out.set(rockerKey, rocker);
  });
  if (ctx.sides.length === 1) {
    const rc = mirroredRollCentre(ev.corners[0]);
    if (rc) out.set(`${ctx.sides[0]}:roll_center_z`, rc);
  }
  if (ev.axle) {
    for (const name of AXLE_SENSITIVITY_METRICS) {
      if (KINEMATIC_ROLL_CENTRE.has(name)) continue;
      const m = ev.axle[name];
      if (m) out.set(`axle:${name}`, m);
    }
    const steer = ctx.sm.steering;
    if (steer >= 0 && ev.axle.rack_displacement) {
      // the rack coordinate's own rate (the evaluation's dual is for the hub/rack tangent)
      const rack = new Dual(rates.rates.length, ev.axle.rack_displacement.v);
      const col = rates.layout[steer];
      if (col >= 0) rates.rates.forEach((r, k) => { rack.d[k] = r ? r[col] : 0; });
      out.set('axle:rack_displacement', rack);
    }
    const steering = steeringGeometry(ctx, design, ev, rates, out.get('axle:rack_displacement') ?? null);
    for (const [name, m] of Object.entries(steering)) if (m) out.set(`axle:${name}`, m);
  }
  for (const [key, m] of ev.devices) out.set(key, m);
  return out;
}

/** `<side>:<name>` per SENSITIVITY_METRICS entry, made once per side (a fresh concatenation is hashed at every lookup). */
function sideKeys(side: string): readonly string[] {
  let keys = keysBySide.get(side);
  if (!keys) keysBySide.set(side, (keys = SENSITIVITY_METRICS.map((name) => `${side}:${name}`)));
  return keys;
}
const keysBySide = new Map<string, readonly string[]>();

/** A steered front axle's steering geometry as duals; the design track's own move at the explicit columns. */
function steeringGeometry(ctx: SensitivityContext, design: AxleDesignGradients | null, ev: StateEvaluation, rates: TangentSpace, rack: Dual | null): Record<string, Dual | null> {
  const roles = ctx.sm.roles;
  const [l, r] = ev.corners.map((c) => c.metrics.steer_angle);
  if (ctx.sm.steering < 0 || roles.axle_position !== 'front' || !ev.axle?.track || !l || !r || !design) return {};
  const track = new Dual(ev.axle.track.n, ev.axle.track.v);
  track.d.set(ev.axle.track.d);
  const base = rates.rates.length - ctx.parameterCount;
  design.track.forEach((g, k) => { track.d[base + k] += g; });
  return steeringGeometryDuals(l, r, rack, track, roles.vehicle.wheelbase, roles.rack_travel_per_revolution);
}

/**
 * The roll centre of a corner's mirrored axle by the FVIC construction: the contact centre →
 * FVIC line met with y = 0. Null when the FVIC is at infinity or level with the contact in y.
 */
export function mirroredRollCentre(cm: CornerMetrics): Dual | null {
  const fy = cm.metrics.fvic_y, fz = cm.metrics.fvic_z;
  if (!fy || !fz) return null;
  const c = cm.points.wheel_contact_centre;
  const n = c.n;
  const cy = new Dual(n, c.v[1]), cz = new Dual(n, c.v[2]);
  for (let k = 0; k < n; k++) { cy.d[k] = c.d[n + k]; cz.d[k] = c.d[2 * n + k]; }
  const run = fy.v - cy.v;
  if (run === 0) return null;
  // z = C_z − C_y (F_z − C_z)/(F_y − C_y)
  const slope = divD(subD(fz, cz), subD(fy, cy));
  return subD(cz, mulD(cy, slope));
}

const subD = (a: Dual, b: Dual): Dual => dSub(new Dual(a.n), a, b);
const mulD = (a: Dual, b: Dual): Dual => dMul(new Dual(a.n), a, b);
const divD = (a: Dual, b: Dual): Dual => dDiv(new Dual(a.n), a, b);
