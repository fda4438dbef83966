/**
 * The K&C rig (`kinemate kc`, docs/compliance.md): one load event at a fixed position.
 * The position's drivers are solved once (the rigid pose), then each load value is applied
 * to every wheel and the suspension settles (CompliantState); the step reports the metrics
 * at the deflected pose, the wheel centre's displacement and the wheel's rotation from the
 * rigid pose, the bushings and the link forces. `vertical` moves the wheel pads in bump
 * instead, each step settling under the springs and devices alone. The summary is the
 * coefficients at zero load at the position (coefficients.ts), per corner.
 */
import type { SweepSpec } from '../files';
import { sweepFromShortcut, sweepValues } from '../files';
import type { SuspensionModel, MetricValues } from '../build/model';
import { runSweep, sweepDrivers } from '../sweep/sweep';
import type { StateLoads } from '../loads/loads';
import type { Vec3Tuple } from '../../../kernel/vec3';
import { KinemateError } from '../../../kernel/errors';
import { CompliantState, type AppliedLoad } from './state';
import { kcCoefficients, type KcCoefficients } from './coefficients';
import { compliantWheelRates } from './wheel-rate';

export const KC_EVENTS = ['lateral', 'braking', 'traction', 'aligning', 'vertical'] as const;
export type KcEvent = (typeof KC_EVENTS)[number];

/** Each event's default range: N (Fy, Fx), N·mm (Mz) or mm of bump (vertical). */
export const KC_DEFAULT_RANGE: Readonly<Record<KcEvent, [number, number, number]>> = {
  lateral: [-4000, 4000, 9],
  braking: [-4000, 0, 5],
  traction: [0, 4000, 5],
  aligning: [-200000, 200000, 5],
  vertical: [-50, 50, 11],
};

/** The position the rig holds: bump (mm), steer (rack mm) or roll (deg) from design. */
export interface KcPosition { kind: 'bump' | 'steer' | 'roll'; value: number }

type PerSide<T> = T | Record<string, T>;

export interface KcStep {
  status: 'solved' | 'failed';
  /** The event's value: N, N·mm, or mm of bump. */
  load: number;
  metrics: MetricValues | { axle: MetricValues; left: MetricValues; right: MetricValues } | null;
  /** The wheel centre's move from the rigid pose, mm (vehicle axes). */
  wheel_center_displacement?: PerSide<Vec3Tuple>;
  /** The wheel's turn from the rigid pose, a rotation vector in degrees (vehicle axes). */
  wheel_rotation?: PerSide<Vec3Tuple>;
  bushings?: StateLoads['bushings'];
  /** `vertical` only: the compliant wheel rate at the step, N/mm (wheel-rate.ts); null where the stiffness is singular. */
  wheel_rate?: PerSide<number | null>;
  loads?: Omit<StateLoads, 'bushings'>;
  message?: string;
}

export interface KcRun {
  event: KcEvent;
  at: KcPosition;
  steps: KcStep[];
  /** Coefficients at zero load at the position; per side on an axle; null where K_r is singular or the zero-load state failed. */
  summary: PerSide<KcCoefficients | null>;
}

/** The wheel load of an event's value. */
export function eventLoad(event: Exclude<KcEvent, 'vertical'>, value: number): AppliedLoad {
  switch (event) {
    case 'lateral': return { force: [0, value, 0], moment: [0, 0, 0], at: 'contact_patch' };
    case 'braking': return { force: [value, 0, 0], moment: [0, 0, 0], at: 'contact_patch' };
    case 'traction': return { force: [value, 0, 0], moment: [0, 0, 0], at: 'wheel_center' };
    case 'aligning': return { force: [0, 0, 0], moment: [0, 0, value], at: 'contact_patch' };
  }
}

function values([a, b, n]: [number, number, number]): number[] {
  return Array.from({ length: n }, (_, i) => (n === 1 ? a : a + ((b - a) * i) / (n - 1)));
}

/** Run one rig event. Throws on a position the linkage cannot reach. */
export function runKc(sm: SuspensionModel, event: KcEvent, options: { range?: [number, number, number]; at?: KcPosition; onProgress?: (done: number, total: number) => void } = {}): KcRun {
  const at = options.at ?? { kind: 'bump', value: 0 };
  const range = options.range ?? KC_DEFAULT_RANGE[event];
  const state = new CompliantState(sm);
  const axle = sm.roles.scope === 'axle';
  const sides = sm.corners.map((c) => c.roles.side);
  const perSide = <T>(xs: T[]): PerSide<T> => (axle ? Object.fromEntries(sides.map((s, i) => [s, xs[i]])) : xs[0]);
  const spec: SweepSpec = sweepFromShortcut(at.kind, `${at.value}:${at.value}:1`);
  const system = sm.model.system;
  const total = range[2] + 1;
  // the rigid pose at the position, then the zero-load state and its coefficients
  const drivers = sweepDrivers(sm, spec);
  sm.resetToDesign();
  // each target at its one value (a hold's is its design)
  drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, 1)[0]); });
  const reached = sm.solveWith(drivers.map((d) => d.block));
  if (!reached.converged) throw new KinemateError('--at', `${at.kind}=${at.value}: the linkage cannot reach this position`);
  sm.corners.forEach((_, i) => state.setLoad(i, null));
  const zero = state.settle();
  // the loads' reference: the unloaded equilibrium (with no preload, the rigid kinematics);
  // the kinematic solve alone leaves the bushings anywhere along their free directions
  const rigid = system.snapshot();
  const summary = perSide(zero.status === 'solved' ? kcCoefficients(state) : sm.corners.map(() => null));
  options.onProgress?.(1, total);
  const record = (load: number, reference: Float64Array, status: 'solved' | 'failed', message?: string): KcStep => {
    if (status === 'failed') return { status, load, metrics: null, message };
    const step: KcStep = { status, load, metrics: sm.evaluate({ derivatives: false }).metrics };
    const moved = sm.corners.map((c) => displacement(sm, c.upright, c.wheelCenterLocal, reference));
    step.wheel_center_displacement = perSide(moved.map((m) => m.translation));
    step.wheel_rotation = perSide(moved.map((m) => m.rotation));
    const { bushings, ...loads } = state.loads();
    step.bushings = bushings;
    step.loads = loads;
    return step;
  };
  const steps: KcStep[] = [];
  if (event === 'vertical') {
    sm.resetToDesign();
    const bump = sweepFromShortcut('bump', `${range[0]}:${range[1]}:${range[2]}`);
    const bumpValues = values(range);
    let reference = rigid;
    let rates: (number | null)[] = [];
    runSweep(sm, bump, {
      valuesOnly: true,
      metrics: () => ({}),
      settle: () => {
        reference = system.snapshot();
        const done = state.settle();
        // the sweep's wheel pads are in the system now: the rate each one feels
        if (done.status === 'solved') rates = compliantWheelRates(state, (side) => `target:${side}:wheel_center_z`);
        return done;
      },
      onSolvedState: (s) => { steps.push({ ...record(bumpValues[s.index], reference, 'solved'), wheel_rate: perSide(rates) }); },
      onProgress: (done) => options.onProgress?.(done + 1, total),
    });
    // a failed step is recorded by the sweep only: put it in its place
    if (steps.length !== bumpValues.length) return { event, at, steps: fillFailed(steps, bumpValues), summary };
    return { event, at, steps, summary };
  }
  let placed = false;
  values(range).forEach((value, i) => {
    // each load from the last settled state; the load's point placed once, at the rigid pose
    if (!placed) { system.restore(rigid); state.placeLoads(); placed = true; }
    sm.corners.forEach((_, c) => state.setLoad(c, eventLoad(event, value)));
    const done = state.settle(false);
    if (done.status !== 'solved') system.restore(rigid);
    steps.push(record(value, rigid, done.status, done.message));
    options.onProgress?.(i + 2, total);
  });
  return { event, at, steps, summary };
}

function fillFailed(steps: KcStep[], loads: number[]): KcStep[] {
  const byLoad = new Map(steps.map((s) => [s.load, s]));
  return loads.map((l) => byLoad.get(l) ?? { status: 'failed', load: l, metrics: null, message: 'no equilibrium or the linkage cannot reach this step' });
}

/** Translation of a part point and rotation vector (deg) of the part from its pose in `reference`. */
function displacement(sm: SuspensionModel, variable: number, local: ArrayLike<number>, reference: Float64Array): { translation: Vec3Tuple; rotation: Vec3Tuple } {
  const system = sm.model.system;
  const now = sm.pointValue([{ variable, local: Float64Array.from(local), weight: 1 }]);
  const saved = system.snapshot();
  system.restore(reference);
  const before = sm.pointValue([{ variable, local: Float64Array.from(local), weight: 1 }]);
  const o = system.variables[variable].offset;
  const q0 = Array.from(system.state.subarray(o + 3, o + 7));
  system.restore(saved);
  const q1 = Array.from(system.state.subarray(o + 3, o + 7));
  // q1 · conj(q0): the turn from the reference, world axes
  const [w1, x1, y1, z1] = q1, [w0, x0, y0, z0] = [q0[0], -q0[1], -q0[2], -q0[3]];
  let w = w1 * w0 - x1 * x0 - y1 * y0 - z1 * z0;
  let v = [w1 * x0 + x1 * w0 + y1 * z0 - z1 * y0, w1 * y0 - x1 * z0 + y1 * w0 + z1 * x0, w1 * z0 + x1 * y0 - y1 * x0 + z1 * w0];
  if (w < 0) { w = -w; v = v.map((x) => -x); }
  const s = Math.hypot(v[0], v[1], v[2]);
  const angle = s > 0 ? (2 * Math.atan2(s, w) * 180) / Math.PI / s : 360 / Math.PI;
  return { translation: [now[0] - before[0], now[1] - before[1], now[2] - before[2]], rotation: [v[0] * angle, v[1] * angle, v[2] * angle] };
}
