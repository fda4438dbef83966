/**
 * Every sensitivity metric's value and gradient at the current solved state, by side
 * (SensitivityModel.metricsBySide): the first-order metrics by the adjoint or the direct
 * route, the second-order ones on the bump system when asked for, then grouped by side with
 * the design state's own moves taken out of the metrics measured from it.
 */
import type { TangentSpace } from '../../../kernel/analysis';
import { reusingFloats, zeroedFloats } from '../../../kernel/float-slab';
import { beamRollCentreGradients } from './beam-roll-centre';
import { kinematicRollCentres } from './roll-centre';
import { bumpSystem } from './bump-system';
import { DERIVATIVE_METRICS, derivativeGradients } from './derivatives';
import { VIRTUAL_METRICS, virtualGradients } from './virtual';
import { SCREW_AXIS_METRICS, hasScrewInstantAxis, screwAxisGradients } from './instant-axis';
import { DEVICE_RATE_METRICS, deviceRateGradients, steeringRatioGradient } from './devices';
import { KINEMATIC_ROLL_CENTRE, sensitivityMetricsOf } from './metric-names';
import { firstOrderDuals } from './first-order-duals';
import type { AdjointSolver } from './adjoint';
import type { AxleDesignGradients } from './design-rates';
import type { DualEvaluation } from './evaluate-along';
import type { HardpointIndex } from './hardpoint-index';
import type { DriverParameters, MetricGradient, SensitivityContext, StateFactors } from './types';

/** What the model keeps for its gradients besides its SensitivityContext. */
export interface GradientParts { index: HardpointIndex; design: AxleDesignGradients | null; adjoint: AdjointSolver }

type Gradients = Map<string, { value: number; g: Float64Array }>;
type Wants = ReturnType<typeof wanted>;
type Direct = { rates: TangentSpace; ev: DualEvaluation } | null;

/** Which groups of metrics `names` asks for (none: all but the *_virtual). */
function wanted(ctx: SensitivityContext, names?: readonly string[]) {
  const all = !names || names.length === 0;
  const kinematic = all || names.some((m) => KINEMATIC_ROLL_CENTRE.has(m) || m.startsWith('roll_center_linkage_'));
  // steering_ratio is the sides' rack rates of steer angle, composed
  const ratio = ctx.sides.length === 2 && ctx.sm.roles.rack_travel_per_revolution !== undefined && (all || names.includes('steering_ratio'));
  const derivatives = ratio || all || names.some((m) => DERIVATIVE_SET.has(m));
  const deviceRates = all || names.some((m) => DEVICE_RATE_SET.has(m));
  const virtual = !!names?.some((m) => VIRTUAL_SET.has(m));
  // a screw instant axis (multi-link, beam axle) is a velocity quantity: second derivatives
  const screw = hasScrewInstantAxis(ctx) && (all || names.some((m) => SCREW_SET.has(m)));
  return { kinematic, ratio, derivatives, deviceRates, virtual, screw, secondOrder: kinematic || derivatives || deviceRates || virtual || screw };
}
/** wanted, kept per model for the last list of names (a sweep asks with the same list at every state). */
function wantedOnce(ctx: SensitivityContext, names?: readonly string[]): Wants {
  const last = lastWants.get(ctx);
  if (last && sameNames(last.names, names)) return last.wants;
  const wants = wanted(ctx, names);
  lastWants.set(ctx, { names: names ? [...names] : undefined, wants });
  return wants;
}
const lastWants = new WeakMap<SensitivityContext, { names: readonly string[] | undefined; wants: Wants }>();
function sameNames(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
// asked once per state with every metric's name: set lookups, not list scans
const DERIVATIVE_SET = new Set<string>(DERIVATIVE_METRICS);
const DEVICE_RATE_SET = new Set<string>(DEVICE_RATE_METRICS);
const VIRTUAL_SET = new Set<string>(VIRTUAL_METRICS);
const SCREW_SET = new Set<string>([...SCREW_AXIS_METRICS, 'roll_center_z', 'roll_center_y']);

/** metricsBySide (SensitivityModel's doc says what it returns). */
export function metricsBySide(ctx: SensitivityContext, parts: GradientParts, drivers: readonly DriverParameters[], mode: 'adjoint' | 'direct', names?: readonly string[]): Record<string, Record<string, MetricGradient | null>> {
  const P = ctx.parameterCount;
  const f = ctx.factorState(drivers);
  const gradients: Gradients = new Map();
  const want = wantedOnce(ctx, names);
  const leading = leadingCopies(ctx);
  let direct: Direct = null;
  if (mode === 'direct' || want.secondOrder) {
    const rates = ctx.stateRates(f);
    direct = { rates, ev: ctx.evaluateAlong(rates, 0) };
  }
  if (mode === 'direct') {
    for (const [key, m] of firstOrderDuals(ctx, parts.design, direct!.ev, direct!.rates)) if (Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: leading(m.d, P) });
  } else {
    // every dual of this evaluation is dead once the gradients are copied out: their storage is reused state to state
    reusingFloats(() => {
      const { space, ev } = parts.adjoint.evaluate(ctx, f, P);
      for (const [key, m] of firstOrderDuals(ctx, parts.design, ev, space)) if (Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: leading(m.d, P) });
    });
  }
  if (direct) addSecondOrder(ctx, f, drivers, direct, want, names, gradients, leading);
  const travel = ctx.sm.roles.rack_travel_per_revolution;
  if (want.ratio && travel !== undefined) {
    const [l, r] = ctx.sides.map((side) => gradients.get(`${side}:deriv_steer_angle_wrt_rack_displacement`));
    const ratio = l && r ? steeringRatioGradient(l, r, travel) : null;
    if (ratio) gradients.set('axle:steering_ratio', ratio);
  }
  return groupBySide(ctx, parts, gradients, want.virtual ? names! : []);
}

/**
 * The second-order metrics, whose hub/rack motions are those of the bump system whatever
 * drives the state (bump-system.ts: its rows stay in the system until restore()).
 */
function addSecondOrder(ctx: SensitivityContext, f: StateFactors, drivers: readonly DriverParameters[], direct: NonNullable<Direct>, want: Wants, names: readonly string[] | undefined, gradients: Gradients, leading: Leading): void {
  const P = ctx.parameterCount;
  const bump = want.secondOrder ? bumpSystem(ctx, f, drivers) : null;
  if (!bump) return;
  if (want.kinematic) {
    // a beam axle's (both wheels on one body) is null in kinemate sweep: so is its gradient
    const beam = ctx.sm.corners.length === 2 && ctx.sm.corners[0].upright === ctx.sm.corners[1].upright;
    const kin = beam ? beamRollCentreGradients(ctx, bump.f, bump.drivers, direct.rates) : kinematicRollCentres(ctx, bump.f, bump.drivers, direct.rates, direct.ev);
    for (const [key, m] of Object.entries(kin)) if (m && Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: leading(m.d, P) });
  }
  if (want.derivatives) {
    const asked = names?.length && want.ratio ? [...names, 'deriv_steer_angle_wrt_rack_displacement'] : (names ?? []);
    for (const [key, m] of Object.entries(derivativeGradients(ctx, bump.f, bump.drivers, direct.rates, asked))) {
      const base = key.slice(key.indexOf(':') + 'deriv_'.length + 1).replace(/_wrt_(hub_z|rack_displacement)$/, '');
      if (!ctx.unsupported.has(base) && Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: m.d });
    }
  }
  if (want.virtual) {
    for (const [key, m] of Object.entries(virtualGradients(ctx, bump.f, bump.drivers, direct.rates, ctx.virtualHold, names ?? []))) gradients.set(key, { value: m.v, g: m.d });
  }
  if (want.screw) {
    for (const [key, m] of Object.entries(screwAxisGradients(ctx, bump.f, bump.drivers, direct.rates, names ?? []))) gradients.set(key, { value: m.v, g: m.d });
  }
  if (want.deviceRates) {
    for (const [key, m] of Object.entries(deviceRateGradients(ctx, bump.f, bump.drivers, direct.rates, names ?? []))) if (Number.isFinite(m.v)) gradients.set(key, { value: m.v, g: m.d });
  }
  bump.restore();
}

/**
 * The gradients as `{ <side>: { <metric>: … }, axle: { … } }` in the offered order (null where
 * not computed or not supported); `virtualAsked`: the request, whose *_virtual are added.
 */
function groupBySide(ctx: SensitivityContext, parts: GradientParts, gradients: Gradients, virtualAsked: readonly string[]): Record<string, Record<string, MetricGradient | null>> {
  const P = ctx.parameterCount;
  const rates = ctx.wheelCenterRatesByCorner;
  const bySide: Record<string, Record<string, MetricGradient | null>> = {};
  const offered = offeredMetrics(ctx.geometry);
  // the *_virtual only when asked for (the default output stays as it was)
  const asked = virtualAsked.length ? VIRTUAL_METRICS.filter((m) => virtualAsked.includes(m)) : [];
  const sideNames = asked.length ? [...offered.side, ...asked] : offered.side;
  ctx.sides.forEach((side, ci) => {
    const out: Record<string, MetricGradient | null> = (bySide[side] = {});
    for (const name of sideNames) {
      const m = gradients.get(groupKey(side, name));
      if (!m || ctx.unsupported.has(name)) { out[name] = null; continue; }
      // wheel travel is measured from the design wheel centre, which moves with the points
      if (name === 'wheel_travel') for (let k = 0; k < P; k++) m.g[k] -= rates[ci][2 * P + k];
      out[name] = { value: m.value, gradient: parts.index.record(m.g) };
    }
  });
  if (ctx.sides.length === 2) {
    const out: Record<string, MetricGradient | null> = (bySide.axle = {});
    const d = parts.design!;
    for (const name of offered.axle) {
      const m = gradients.get(groupKey('axle', name));
      if (!m) { out[name] = null; continue; }
      // measured from the design state, which moves with the points: heave (mean wheel travel), track, ride height
      for (let k = 0; k < P; k++) {
        if (name === 'heave') m.g[k] -= (rates[0][2 * P + k] + rates[1][2 * P + k]) / 2;
        else if (name === 'track') m.g[k] += d.track[k];
        else if (name === 'track_change') m.g[k] -= d.track[k];
        else if (name === 'ride_height_change') m.g[k] -= d.rideHeight[k];
      }
      out[name] = { value: m.value, gradient: parts.index.record(m.g) };
    }
  }
  return bySide;
}

/** sensitivityMetricsOf, once per geometry (it is asked at every state). */
function offeredMetrics(geometry: SensitivityContext['geometry']): ReturnType<typeof sensitivityMetricsOf> {
  let o = offeredByGeometry.get(geometry);
  if (!o) offeredByGeometry.set(geometry, (o = sensitivityMetricsOf(geometry)));
  return o;
}
const offeredByGeometry = new WeakMap<object, ReturnType<typeof sensitivityMetricsOf>>();

type Leading = (d: Float64Array, P: number) => Float64Array;
/**
 * Copies of d[0..P) (a metric's gradient, changed in place by groupBySide) for one call of
 * metricsBySide: each is read only within that call (the records copy it), so the arrays are
 * kept per model and handed out again at the next call (a fresh array per metric was a slab
 * view's making, ~20 per state).
 */
function leadingCopies(ctx: SensitivityContext): Leading {
  let pool = leadingPools.get(ctx);
  if (!pool) leadingPools.set(ctx, (pool = []));
  const list = pool;
  let next = 0;
  return (d, P) => {
    let g = list[next];
    if (!g || g.length !== P) list[next] = g = zeroedFloats(P);
    next++;
    for (let k = 0; k < P; k++) g[k] = d[k];
    return g;
  };
}
const leadingPools = new WeakMap<SensitivityContext, Float64Array[]>();

/** `<group>:<name>`, made once per pair: a fresh concatenation is flattened and hashed at every lookup. */
function groupKey(group: string, name: string): string {
  let byName = groupKeys.get(group);
  if (!byName) groupKeys.set(group, (byName = new Map()));
  let key = byName.get(name);
  if (key === undefined) byName.set(name, (key = `${group}:${name}`));
  return key;
}
const groupKeys = new Map<string, Map<string, string>>();
