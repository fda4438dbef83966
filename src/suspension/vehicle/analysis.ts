/**
 * The vehicle's quasi-static analyses (vehicle.md "Analyses"): the state at rest, and
 * sweeps of lateral (`ay`) or longitudinal (`ax`) acceleration, each state the equilibrium
 * of the whole vehicle under its d'Alembert loads (loads.ts), solved from the last. The
 * summaries' gradients are exact derivatives at 0 g (tangent.ts), never differences. A
 * state that does not converge, or where a wheel lifts, is reported by its status and
 * what failed, never as numbers.
 */
import { equilibrium } from '../../mechanics/equilibrium';
import { newtonEquilibrium } from './newton';
import type { CornerName, VehicleModel } from './assembly';
import { applyAcceleration, type Acceleration } from './loads';
import { vehicleState, type VehicleState } from './state';
import { accelerationDirection, derivativeReport, poseTangents, stateDerivative, tangentPoses, wheelPairDirection, type LoadDirection } from './tangent';
import { realisedAnti } from './anti';
import { rollCentres, type RollCentre } from './roll-centres';

export type SolvedState = VehicleState & { status: 'solved' };
export interface FailedState { status: 'failed' | 'wheel_lift'; message: string }
export type StateResult = SolvedState | FailedState;

/** Solve the equilibrium under an acceleration, from the current pose; `loads` may then replace the contacts' and inertia's loads. */
export function solveVehicle(m: VehicleModel, a: Acceleration, loads?: (m: VehicleModel) => void): StateResult {
  applyAcceleration(m, a);
  loads?.(m);
  const e = newtonEquilibrium(m);
  if (!e.converged) return { status: 'failed', message: e.message ?? 'no equilibrium found' };
  m.dyn.forces.assemble(new Float64Array(m.dyn.forces.size), 0, new Float64Array(m.dyn.forces.size), null, null); // the contacts' reports at the state
  const lifted = m.wheels.filter((_, i) => !(m.contacts[i].last.force > 0)).map((w) => w.corner);
  if (lifted.length) return { status: 'wheel_lift', message: `${lifted.join(' and ')} lifted off the road (a quasi-static state needs four wheels on it)` };
  return { status: 'solved', ...vehicleState(m) };
}

/** The state at rest with every spring, bar, bushing and link force (N; a bar's or torsion spring's N·mm). */
export function staticAnalysis(m: VehicleModel): StateResult & { elements?: Record<string, number>; links?: Record<string, number> } {
  const s = solveVehicle(m, { ax: 0, ay: 0 });
  if (s.status !== 'solved') return s;
  const e = equilibrium(m.dyn); // at the solution already: its reports
  const elements: Record<string, number> = {}, links: Record<string, number> = {};
  for (const [id, r] of Object.entries(e.forces)) {
    const x = r as { tension?: number; force?: number; torque?: number };
    const v = x.tension ?? x.torque ?? x.force;
    if (typeof v === 'number') elements[id] = v;
  }
  for (const [id, r] of Object.entries(e.reactions)) if ('tension' in r && typeof r.tension === 'number') links[id] = r.tension;
  return { ...s, elements, links };
}

export type SweepStep = StateResult & { ay?: number; ax?: number; load_transfer?: Record<'front' | 'rear', number>; roll_centres?: Record<'front' | 'rear', RollCentre | null> };

export interface LateralSummary {
  /** deg/g. */
  roll_gradient: number;
  /** N/g: per axle, (right − left)/2 of the vertical loads (to the right in a left turn). */
  lateral_load_transfer: Record<'front' | 'rear', number>;
  front_load_transfer_share: number;
}

export interface LongitudinalSummary {
  /** deg/g, nose down +: braking's when the brake bias is given, else traction's. */
  pitch_gradient: number;
  pitch_gradient_braking?: number;
  pitch_gradient_traction?: number;
  /** N/g: each axle's vertical load per g of acceleration, braking and traction. */
  longitudinal_load_transfer: { braking?: Record<'front' | 'rear', number>; traction?: Record<'front' | 'rear', number> };
  /**
   * %: as realised (anti.ts) — the front's anti-dive and the rear's anti-lift under braking,
   * the driven axle's anti-squat under traction.
   */
  anti_dive?: number;
  anti_lift?: number;
  anti_squat?: number;
}

const axleOf = (d: Record<CornerName, number>, axle: 'front' | 'rear') => d[`${axle}_left`] + d[`${axle}_right`];
const transfer = (d: Record<CornerName, number>, axle: 'front' | 'rear') => (d[`${axle}_right`] - d[`${axle}_left`]) / 2;

/** Sweep an acceleration: the state at 0 g, its exact derivative, then each value from the last solved state. */
export function accelerationSweep(m: VehicleModel, kind: 'ay' | 'ax', values: readonly number[], progress?: (done: number, total: number) => void):
  { status: 'solved' | 'failed'; message?: string; steps: SweepStep[]; summary?: LateralSummary | LongitudinalSummary } {
  const sys = m.dyn.system;
  const rest = solveVehicle(m, { ax: 0, ay: 0 });
  if (rest.status !== 'solved') return { status: 'failed', message: `at rest: ${rest.message}`, steps: [] };
  const atRest = sys.snapshot();
  const summary = kind === 'ay' ? lateralSummary(m) : longitudinalSummary(m);
  sys.restore(atRest);
  const steps: SweepStep[] = [];
  values.forEach((x, i) => {
    const a = kind === 'ay' ? { ax: 0, ay: x } : { ax: x, ay: 0 };
    const s = solveVehicle(m, a);
    const step: SweepStep = { [kind]: x, ...s };
    if (s.status === 'solved') {
      const fz = Object.fromEntries(Object.entries(s.corners).map(([c, v]) => [c, v.contact_load[2]])) as Record<CornerName, number>;
      step.load_transfer = kind === 'ay' ? { front: transfer(fz, 'front'), rear: transfer(fz, 'rear') } : { front: axleOf(fz, 'front') - axleOf(restLoads(rest), 'front'), rear: axleOf(fz, 'rear') - axleOf(restLoads(rest), 'rear') };
      if (kind === 'ay') step.roll_centres = rollCentres(m);
    } else sys.restore(atRest);
    steps.push(step);
    progress?.(i + 1, values.length);
  });
  return { status: steps.every((s) => s.status === 'solved') ? 'solved' : 'failed', steps, summary };
}

function restLoads(s: SolvedState): Record<CornerName, number> {
  return Object.fromEntries(Object.entries(s.corners).map(([c, v]) => [c, v.contact_load[2]])) as Record<CornerName, number>;
}

/** Roll gradient and lateral load transfer at 0 g (the state solved at rest). */
export function lateralSummary(m: VehicleModel): LateralSummary {
  const d = stateDerivative(m, { ax: 0, ay: 0 }, accelerationDirection('ay', { ax: 0, ay: 0 }));
  const front = transfer(d.load, 'front'), rear = transfer(d.load, 'rear');
  return { roll_gradient: d.roll, lateral_load_transfer: { front, rear }, front_load_transfer_share: front / (front + rear) };
}

/** Pitch gradients, load transfer and the realised anti-features at 0 g (the state solved at rest), from one reduced stiffness. */
export function longitudinalSummary(m: VehicleModel): LongitudinalSummary {
  const rest = { ax: 0, ay: 0 };
  const out: LongitudinalSummary = { pitch_gradient: 0, longitudinal_load_transfer: {} };
  const braking = m.spec.front_brake_bias !== undefined, driven = m.spec.driven_axle;
  const directions: LoadDirection[] = [wheelPairDirection('front'), wheelPairDirection('rear')];
  if (braking) directions.push(accelerationDirection('braking', rest));
  if (driven !== undefined) directions.push(accelerationDirection('traction', rest));
  const { deltas, layout } = poseTangents(m, (x) => applyAcceleration(x, rest), directions);
  const [pairFront, pairRear, ...along] = deltas.map((delta) => derivativeReport(m, tangentPoses(m, delta, layout)));
  if (braking) {
    const d = along.shift()!;
    // derivatives along −ax: per g of deceleration read as d/dax
    out.pitch_gradient_braking = -d.pitch;
    out.longitudinal_load_transfer.braking = { front: -axleOf(d.load, 'front'), rear: -axleOf(d.load, 'rear') };
    out.anti_dive = realisedAnti(d, pairFront, 'front');
    out.anti_lift = realisedAnti(d, pairRear, 'rear');
  }
  if (driven !== undefined) {
    const d = along.shift()!;
    out.pitch_gradient_traction = d.pitch;
    out.longitudinal_load_transfer.traction = { front: axleOf(d.load, 'front'), rear: axleOf(d.load, 'rear') };
    out.anti_squat = realisedAnti(d, driven === 'front' ? pairFront : pairRear, driven);
  }
  out.pitch_gradient = out.pitch_gradient_braking ?? out.pitch_gradient_traction ?? 0;
  return out;
}
