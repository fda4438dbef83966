/**
 * `kinemate sensitivity` on a compliant file (docs/compliance.md, "Gradients and fit"):
 * each step of the sweep settled (under the load case, if any) and its metrics' and the
 * `kc.*` coefficients' gradients over the stiffnesses (sensitivity.ts). Where the settled
 * state is at rest — no wheel load, no compliant element carrying force — it is the rigid
 * kinematics for every hardpoint nearby, so the state metrics' gradients over the hardpoints
 * are those of the rigid file (the same geometry without `compliance:`, gradients/model.ts),
 * checked to be the same state by the values. Elsewhere (a preload through the rubber, wheel
 * loads) by the implicit function theorem on the whole equilibrium (hardpoint-rates.ts), each
 * contact-patch load's point moving as the step's unloaded equilibrium, where it is placed,
 * moves with the points and the rates (load-placement.ts).
 */
import type { Geometry, SweepSpec } from '../files';
import { sweepDrivers } from '../sweep/sweep';
import { sweepValues } from '../files';
import { contactLoad, type LoadCase } from '../loads/loads';
import { SensitivityModel, sensitivitySweepBySide } from '../gradients/model';
import { SensitivityError, type DriverParameters, type MetricGradient, type SensitivityStep, type SideMetrics } from '../gradients/types';
import { COMPLIANT_STATE_METRICS, CompliantSensitivity, KC_METRICS, KC_WHEEL_RATE } from './sensitivity';
import { reducedSolver } from './coefficients';
import { bushingAxes, hardpointStateRates } from './hardpoint-rates';
import { contactPointRates, contactStiffnessRates } from './load-placement';
import { stiffnessDerivative } from './stiffness';
import type { PlacedLoadRates } from './sensitivity';

/** Every metric a compliant file offers gradients of: the state metrics and the K&C coefficients, per side. */
export const COMPLIANT_SENSITIVITY_METRICS: readonly string[] = [...COMPLIANT_STATE_METRICS, ...KC_METRICS];

/** A settled state and a rigid one are the same where their values agree to this (the solvers' tolerance). */
const SAME_STATE = 1e-6;

/**
 * The gradients along a sweep of a compliant geometry: a corner's metrics flat
 * (`metrics.camber`), an axle's by side (`metrics.left.camber`), as kinemate sensitivity prints.
 */
/**
 * Each step of the spec: solved from the last good state (the first from design), settled,
 * and `at` evaluated there with the drivers' parameter maps; `place` runs before settling.
 */
function settledSteps<T>(cs: CompliantSensitivity, spec: SweepSpec, at: (drivers: DriverParameters[]) => T, place: (drivers: DriverParameters[]) => void, found: Map<number, T>):
{ index: number; status: 'solved' | 'failed'; drivers: Record<string, number>; message?: string }[] {
  const sm = cs.sm, sys = sm.model.system;
  const drivers = sweepDrivers(sm, spec);
  const params: DriverParameters[] = drivers.map((d) => ({ block: d.block, params: cs.hardpoints.driverParameters(d.block, d.source) }));
  const values = new Map(spec.targets.map((t) => [t, sweepValues(t, spec.steps)]));
  sm.resetToDesign();
  let lastGood = sys.snapshot();
  const out: { index: number; status: 'solved' | 'failed'; drivers: Record<string, number>; message?: string }[] = [];
  for (let i = 0; i < spec.steps; i++) {
    const report: Record<string, number> = {};
    drivers.forEach((d) => { const v = values.get(d.source)![i]; d.block.target = d.targetOf(v); report[d.name] = d.reportOf(v); });
    drivers.forEach((d, j) => { if (d.source.type === 'roll') params[j].params = cs.hardpoints.driverParameters(d.block, d.source); });
    const solved = sm.solveWith(drivers.map((d) => d.block));
    if (!solved.converged) { sys.restore(lastGood); out.push({ index: i, status: 'failed', drivers: report, message: solved.message ?? 'the linkage cannot reach this step' }); continue; }
    // the loads placed at the step's unloaded equilibrium, as sweep --loads places them (state.ts settlePlaced)
    let placed = false;
    const settled = cs.state.settlePlaced(() => { placed = true; place(params); });
    // no contact-patch load to place (none, or at the wheel centre: no pose needed)
    if (!placed && settled.status === 'solved') place(params);
    if (settled.status !== 'solved') { sys.restore(lastGood); out.push({ index: i, status: 'failed', drivers: report, message: settled.message ?? 'no equilibrium' }); continue; }
    lastGood = sys.snapshot();
    found.set(i, at(params));
    out.push({ index: i, status: 'solved', drivers: report });
  }
  sm.clearDrivers();
  sm.resetToDesign();
  return out;
}

/**
 * The design state and its contact centres' moves with the hardpoints (3 × P each): where a
 * contact-patch load placed at design moves. The contact centre is the loads' own
 * (SweepLoads.contactCentre): c = w + r·d/|d|, d = (s_z s_x, s_z s_y, s_z² − 1) down the wheel
 * plane, s the unit axle, w the wheel centre; at design every part is at the identity.
 */
function designState(cs: CompliantSensitivity): { state: Float64Array; contact: Float64Array[] } {
  const sys = cs.sm.model.system;
  const saved = sys.snapshot();
  cs.sm.resetToDesign();
  const state = sys.state.slice();
  sys.restore(saved);
  const hm = cs.hardpoints, P = hm.parameterCount;
  const contact = cs.sm.corners.map((c, ci) => {
    const a = c.axle[0][0].local, b = c.axle[1][0].local;
    const ja = hm.hardpointAt(a), jb = hm.hardpointAt(b);
    const e = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], l = Math.hypot(e[0], e[1], e[2]);
    const u = e.map((x) => x / l);
    const d = [u[2] * u[0], u[2] * u[1], u[2] * u[2] - 1], dl = Math.hypot(d[0], d[1], d[2]);
    const n = d.map((x) => x / dl);
    const wr = hm.wheelCenterRatesByCorner[ci];
    const out = new Float64Array(3 * P);
    for (let k = 0; k < P; k++) {
      const de = [0, 0, 0];
      if (jb === Math.floor(k / 3)) de[k % 3] += 1;
      if (ja === Math.floor(k / 3)) de[k % 3] -= 1;
      const along = u[0] * de[0] + u[1] * de[1] + u[2] * de[2];
      const du = de.map((x, i) => (x - u[i] * along) / l);
      const dd = [du[2] * u[0] + u[2] * du[0], du[2] * u[1] + u[2] * du[1], 2 * u[2] * du[2]];
      const dn = n[0] * dd[0] + n[1] * dd[1] + n[2] * dd[2];
      for (let i = 0; i < 3; i++) out[i * P + k] = wr[i * P + k] + (c.tireRadius * (dd[i] - n[i] * dn)) / dl;
    }
    return out;
  });
  return { state, contact };
}

/**
 * d(local load point)/dp of each corner, 3 × P, for the loads placed now at the step's unloaded
 * equilibrium (called there, loads not yet applied): at the wheel centre, its own move; at the
 * contact patch, the design contact centre's at the design pose, else the contact centre's
 * as the unloaded equilibrium moves with the points (load-placement.ts); null where that
 * state has no rates (a singular stiffness, a block with no parameter map).
 */
function loadPointRates(cs: CompliantSensitivity, drivers: readonly DriverParameters[], design: { state: Float64Array; contact: Float64Array[] }): PlacedLoadRates {
  const now = cs.sm.model.system.state;
  const atDesign = now.every((x, j) => x === design.state[j]);
  const S = cs.parameters.length;
  let qk: { rates: Float64Array[] | null; dk: Float64Array[] | null; layout: Int32Array } | undefined;
  // the unloaded state's motions: per hardpoint coordinate, and per stiffness (dq = N K_r⁻¹ Nᵀ ∂Q/∂k: zero at rest)
  const unloadedRates = () => {
    if (qk) return qk;
    const solver = reducedSolver(cs.state);
    const hm = cs.hardpoints;
    if (!solver) return (qk = { rates: null, dk: null, layout: new Int32Array(0) });
    const rates = hardpointStateRates(hm, cs.state, solver, drivers, bushingAxes(cs.geometry, hm, cs.state), cs.sides.map(() => null));
    const dk = cs.parameters.map((p) => {
      const Q = new Float64Array(solver.n);
      stiffnessDerivative(cs.state.dyn, p, Q);
      return Q.some((x) => x !== 0) ? Float64Array.from(solver.solve(Q)) : Q;
    });
    return (qk = { rates, dk, layout: solver.layout });
  };
  const points: (Float64Array | null)[] = [], stiffness: (Float64Array | null)[] = [];
  cs.state.slots.forEach((slot, i) => {
    if (slot.at === 'wheel_center' || atDesign) {
      points.push(slot.at === 'wheel_center' ? cs.hardpoints.wheelCenterRatesByCorner[i] : design.contact[i]);
      stiffness.push(new Float64Array(3 * S));
      return;
    }
    const { rates, dk, layout } = unloadedRates();
    points.push(rates ? contactPointRates(cs.hardpoints, cs.state, i, rates, layout) : null);
    stiffness.push(dk ? contactStiffnessRates(cs.hardpoints, cs.state, i, dk, layout) : null);
  });
  return { points, stiffness };
}

export function compliantSensitivitySweep(geometry: Geometry, spec: SweepSpec, metrics: readonly string[] = [], loads: LoadCase | null = null, options: { points?: boolean } = {}):
{ steps: SensitivityStep<Record<string, MetricGradient | null> | SideMetrics>[] } {
  for (const m of metrics) {
    if (!COMPLIANT_SENSITIVITY_METRICS.includes(m) && m !== KC_WHEEL_RATE) throw new SensitivityError(`sensitivity: --metric: no gradient for "${m}" on a compliant file (metrics: ${COMPLIANT_SENSITIVITY_METRICS.join(', ')})`);
  }
  const chosen = metrics.length ? metrics : COMPLIANT_SENSITIVITY_METRICS;
  const cs = new CompliantSensitivity(geometry);
  if (loads) cs.state.setLoadCase(loads, contactLoad);
  // the rigid file's hardpoint gradients, for the states at rest
  const kinematic = chosen.filter((m) => (COMPLIANT_STATE_METRICS as readonly string[]).includes(m));
  let loadRates: PlacedLoadRates | null = null;
  const rigid = !loads && kinematic.length ? sensitivitySweepBySide(new SensitivityModel({ ...geometry, compliance: undefined }), spec, kinematic).steps : [];
  const found = new Map<number, { metrics: SideMetrics; atRest: boolean }>();
  const design = loads ? designState(cs) : null;
  const run = settledSteps(cs, spec, (drivers) => {
    const atRest = cs.atRest();
    // away from rest with no wheel load (a spring's preload through the rubber), the state's own rates as under a load
    const unloaded = !loads && !atRest && options.points !== false ? { drivers, loadRates: cs.sides.map(() => null) } : undefined;
    const loaded = loads && loadRates ? { drivers, loadRates: loadRates.points, stiffnessLoadRates: loadRates.stiffness } : unloaded;
    return { metrics: cs.metricsBySide(chosen, loaded, loads || options.points === false ? undefined : { drivers }), atRest };
  }, (drivers) => { if (design) loadRates = loadPointRates(cs, drivers, design); }, found);
  const axle = cs.sides.length > 1;
  const steps = run.map((step) => {
    const got = found.get(step.index);
    const out: SensitivityStep<Record<string, MetricGradient | null> | SideMetrics> = { index: step.index, status: step.status, drivers: step.drivers, metrics: null };
    if (step.message) out.message = step.message;
    if (!got) return out;
    const bySide = got.metrics;
    const kin = got.atRest ? rigid[step.index] : undefined;
    if (kin?.status === 'solved' && kin.metrics) {
      for (const side of cs.sides) {
        for (const m of kinematic) {
          const c = bySide[side][m], r = kin.metrics[side]?.[m];
          if (c && r && Math.abs(c.value - r.value) <= SAME_STATE * Math.max(1, Math.abs(r.value))) c.gradient = { ...r.gradient, ...c.gradient };
        }
      }
    }
    out.metrics = axle ? bySide : bySide[cs.sides[0]];
    return out;
  });
  return { steps };
}
