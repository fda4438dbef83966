/**
 * A compliant suspension in the live model (docs/compliance.md, "Live and viewer"): at the
 * view's pose (the wheel pads and the rack held where the view puts them) every other
 * coordinate settles in the equilibrium of the bushings, compliant links, springs and the
 * wheel loads, by the library's CompliantState (the one `equilibrium`).
 *
 * Each frame is two states at the same view: the unloaded one (the suspension under its
 * own elements: the K&C coefficients at zero load are taken there, exact by the implicit
 * function theorem) and the loaded one (the pose shown). The unloaded state and its
 * coefficients are kept per view, so dragging a load arrow settles once per move; the
 * loaded state's loads are placed at the unloaded pose as `kinemate kc` places them, and
 * its Newton starts from the last loaded state at the same view, so the same document,
 * view and loads give the same pose (to the balance tolerance) whatever came before. The deflection the viewer exaggerates is the loaded pose's from the unloaded
 * one (see {@link LiveCompliance.exaggerated}).
 */
import * as Q from '../../kernel/quat';
import type { Vec3Tuple } from '../../kernel/vec3';
import { contactLoad, type LoadCase, type StateLoads } from '../suspension/loads/loads.ts';
import { CompliantState } from '../suspension/compliance/state.ts';
import { kcCoefficients, type KcCoefficients } from '../suspension/compliance/coefficients.ts';
import { compliantWheelRates } from '../suspension/compliance/wheel-rate.ts';
import * as P from '../../kernel/pose';
import type { SolveReport, SuspensionLiveEngine, SuspensionPull, SuspensionPullOutcome, SuspensionView } from './suspension-engine.ts';

/** A load the rig applies at one wheel's contact patch (the viewer's load arrows): N and N·mm, ISO 8855 vehicle axes. */
export interface RigLoad {
  readonly force: Vec3Tuple;
  readonly moment?: Vec3Tuple;
}

/** Per side (`left`, `right`; a corner's own side), the rig's load at its contact patch. */
export type RigLoads = Readonly<Record<string, RigLoad>>;

/** What a live frame of a compliant suspension carries beside the pose. */
export interface LiveComplianceFrame {
  /** `failed`: no equilibrium under the loads; the pose shown is the unloaded one and `message` says why. */
  readonly status: 'solved' | 'failed';
  readonly message: string | null;
  /** The corners' sides, in corner order. */
  readonly sides: string[];
  /** The wheel loads applied (the loads panel's case plus the rig's), per side: N, N·mm. */
  readonly applied: Record<string, { force: Vec3Tuple; moment: Vec3Tuple }>;
  /** The K&C coefficients at zero load at this view, per side (null where the reduced stiffness is singular). */
  readonly coefficients: Record<string, KcCoefficients | null>;
  /** The compliant wheel rate at this view, unloaded, per side (N/mm; `kc --event vertical`'s; null where singular). */
  readonly wheelRates: Record<string, number | null>;
  /** Each part's pose in the unloaded state at the same view: position, then rotation (w, x, y, z). */
  readonly unloaded: Record<string, number[]>;
  /** Wall times, ms: the unloaded state with its coefficients (0 when kept from the last frame), the loaded one. */
  readonly ms: { readonly unloaded: number; readonly loaded: number };
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
const ZERO: Vec3Tuple = [0, 0, 0];

/** The live settle of one document version's compliant suspension (see the module comment). */
export class LiveCompliance {
  private readonly state: CompliantState;
  private kept: { key: string; unloaded: Float64Array; poses: Record<string, number[]>; coefficients: Record<string, KcCoefficients | null>; wheelRates: Record<string, number | null>; failure: string | null } | null = null;
  /** The last frame and its pose: asked again (an exaggeration changed, nothing else), it is the answer. */
  private last: { key: string; view: string; shown: Float64Array; frame: LiveComplianceFrame } | null = null;
  /** The unloaded state of the last frame (what {@link exaggerated} scales the deflection from). */
  private reference: Float64Array | null = null;

  constructor(readonly engine: SuspensionLiveEngine) {
    this.state = new CompliantState(engine.sm);
  }

  /** Settles at the engine's current view under the load case and the rig's loads (either may be null). */
  settle(loadCase: LoadCase | null, rig: RigLoads | null): LiveComplianceFrame {
    const { engine } = this;
    const sm = engine.sm;
    const system = sm.model.system;
    const sides = sm.corners.map((c) => c.roles.side);
    const applied = appliedLoads(sides, loadCase, rig);
    const lastKey = JSON.stringify([engine.view, applied]);
    if (this.last && this.last.key === lastKey) {
      system.restore(this.last.shown);
      return { ...this.last.frame, ms: { unloaded: 0, loaded: 0 } };
    }
    const frame = engine.holdingDrivers(() => {
      const t0 = now();
      const key = JSON.stringify(engine.view);
      const fresh = !this.kept || this.kept.key !== key;
      if (!this.kept || this.kept.key !== key) {
        sm.corners.forEach((_, i) => this.state.setLoad(i, null));
        const done = this.state.settle();
        // a failure to settle unloaded (a free mode under a preload): the kinematic pose stays, said as such
        const solved = done.status === 'solved';
        const coefficients = solved ? kcCoefficients(this.state) : sm.corners.map(() => null);
        // the view's wheel drivers are the pads (SuspensionLiveEngine names them by side)
        const rates = solved ? compliantWheelRates(this.state, (side) => `wheel travel (${side})`) : sm.corners.map(() => null);
        this.kept = { key, unloaded: system.snapshot(), poses: engine.poses(), coefficients: Object.fromEntries(sides.map((s, i) => [s, coefficients[i]])), wheelRates: Object.fromEntries(sides.map((s, i) => [s, rates[i]])), failure: solved ? null : done.message ?? 'no equilibrium' };
      } else system.restore(this.kept.unloaded);
      const kept = this.kept;
      this.reference = kept.unloaded;
      const t1 = now();
      let message = kept.failure ? `unloaded: ${kept.failure}` : null;
      const loaded = sides.some((s) => !isZero(applied[s].force) || !isZero(applied[s].moment));
      if (loaded && !kept.failure) {
        sides.forEach((s, i) => this.state.setLoad(i, { ...applied[s], at: 'contact_patch' }));
        // the loads' points placed at the unloaded pose; Newton starts from the last loaded
        // state at this view where there is one (a drag's next move: a few iterations, the
        // same equilibrium to the balance tolerance)
        this.state.placeLoads();
        const warm = this.last && this.last.view === key && this.last.frame.status === 'solved' ? this.last.shown : null;
        if (warm) system.restore(warm);
        let done = this.state.settle(false);
        if (done.status !== 'solved' && warm) { system.restore(kept.unloaded); done = this.state.settle(false); }
        if (done.status !== 'solved') {
          system.restore(kept.unloaded);
          message = `under the loads: ${done.message ?? 'no equilibrium'}; the unloaded pose is shown`;
        }
      }
      const frame: LiveComplianceFrame = { status: message ? 'failed' : 'solved', message, sides, applied, coefficients: kept.coefficients, wheelRates: kept.wheelRates, unloaded: kept.poses, ms: { unloaded: fresh ? t1 - t0 : 0, loaded: now() - t1 } };
      return frame;
    });
    this.last = { key: lastKey, view: JSON.stringify(engine.view), shown: system.snapshot(), frame };
    return frame;
  }

  /** The loads at the pose shown (link forces, joints, bushings, the contact loads as applied): the library's StateLoads. */
  loads(): StateLoads {
    return this.engine.holdingDrivers(() => this.state.loads());
  }

  /**
   * Runs `read` at the pose shown with its deflection from the unloaded state scaled by
   * `factor` (each part's translation and turn, a scalar's change), then puts the pose
   * back. To first order the joints still close (a displacement that satisfies the
   * linearised constraints does so scaled), so the picture is the deflection drawn large,
   * as a K&C tool draws it; the metrics stay those of the true pose.
   */
  exaggerated<T>(factor: number, read: () => T): T {
    const system = this.engine.sm.model.system;
    const ref = this.reference;
    if (!ref || factor === 1) return read();
    const shown = system.snapshot();
    const x = system.state;
    const dq = new Float64Array(4), q = new Float64Array(4), r = new Float64Array(4), qs = new Float64Array(4);
    for (const v of system.variables) {
      const o = v.offset;
      if (v.dim === 1) { x[o] = ref[o] + factor * (shown[o] - ref[o]); continue; }
      for (let a = 0; a < 3; a++) x[o + a] = ref[o + a] + factor * (shown[o + a] - ref[o + a]);
      // the turn from the reference, q_shown · q_ref⁻¹, raised to the factor
      r.set(ref.subarray(o + 3, o + 7)); qs.set(shown.subarray(o + 3, o + 7));
      Q.multiply(dq, qs, Q.conjugate(q, r));
      quatPower(dq, factor);
      Q.multiply(q, dq, r);
      x.set(q, o + 3);
    }
    try {
      return read();
    } finally {
      system.restore(shown);
    }
  }
}

/** The wheel loads per side: the load case's contact load (resolved as `sweep --loads` resolves it) plus the rig's. */
export function appliedLoads(sides: readonly string[], loadCase: LoadCase | null, rig: RigLoads | null): Record<string, { force: Vec3Tuple; moment: Vec3Tuple }> {
  const out: Record<string, { force: Vec3Tuple; moment: Vec3Tuple }> = {};
  for (const side of sides) {
    const wheel = loadCase ? loadCase[side] ?? loadCase.each : undefined;
    const base = wheel ? contactLoad(wheel) : { force: ZERO, moment: ZERO };
    const r = rig?.[side];
    const rf = r?.force ?? ZERO, rm = r?.moment ?? ZERO;
    out[side] = { force: [base.force[0] + rf[0], base.force[1] + rf[1], base.force[2] + rf[2]], moment: [base.moment[0] + rm[0], base.moment[1] + rm[1], base.moment[2] + rm[2]] };
  }
  return out;
}

function isZero(v: Vec3Tuple): boolean {
  return v[0] === 0 && v[1] === 0 && v[2] === 0;
}

/** q ← q^t for a unit quaternion (the shorter turn, its angle times t). */
function quatPower(q: Float64Array, t: number): void {
  if (q[0] < 0) for (let i = 0; i < 4; i++) q[i] = -q[i];
  const s = Math.hypot(q[1], q[2], q[3]);
  if (s < 1e-15) { q[0] = 1; q[1] = q[2] = q[3] = 0; return; }
  const half = Math.atan2(s, q[0]) * t;
  const k = Math.sin(half) / s;
  q[0] = Math.cos(half); q[1] *= k; q[2] *= k; q[3] *= k;
}

/**
 * A pull on a compliant suspension: the bushings' free directions leave the kinematic
 * tangent undetermined (the rigid pull's rates do not exist), so the one driver that
 * follows the pointer — each pulled corner's wheel travel (bump), or the rack (steer) — is
 * moved by a secant iteration on the grabbed point's distance along the pull's axis (z
 * for the wheel, y for the rack, unless the pull names one): at most four steps, each
 * driven to by the engine (its continuation), each at most a tenth of the model. The
 * equilibrium is settled afterwards, at the view reached.
 */
export function secantPull(engine: SuspensionLiveEngine, pull: SuspensionPull, from: SuspensionView): SuspensionPullOutcome {
  const sm = engine.sm;
  const system = sm.model.system;
  const L = system.lengthScale;
  let report: SolveReport | null = null;
  if (JSON.stringify(engine.view) !== JSON.stringify(from)) {
    report = engine.driveTo(from);
    if (!report.converged) return { report, remaining: 0 };
  }
  const variable = sm.model.parts.get(pull.part);
  if (variable === undefined) return { report, remaining: 0 };
  const axis = pull.axis ?? (pull.mode === 'steer' ? [0, 1, 0] : [0, 0, 1]);
  const offset = system.variables[variable].offset;
  const point = new Float64Array(3);
  const along = (): number => {
    P.applyPoint(point, system.state, pull.local, offset);
    return (pull.target[0] - point[0]) * axis[0] + (pull.target[1] - point[1]) * axis[1] + (pull.target[2] - point[2]) * axis[2];
  };
  const steer = pull.mode === 'steer' && engine.steered;
  const corners = pull.corner !== undefined ? [pull.corner] : sm.corners.map((_, i) => i);
  let rate = 1;
  for (let iter = 0; iter < 4; iter++) {
    const e = along();
    if (Math.abs(e) < 1e-6 * L) break;
    const step = Math.max(-0.1 * L, Math.min(0.1 * L, e / rate));
    const view = engine.view;
    const next: SuspensionView = steer ? { travel: view.travel, rack: view.rack + step } : { travel: view.travel.map((t, i) => (corners.includes(i) ? t + step : t)), rack: view.rack };
    const moved = engine.driveTo(next);
    if (!moved.converged) return { report: report ?? moved, remaining: Math.abs(along()), limitedBy: moved };
    report = moved;
    const done = e - along();
    if (Math.abs(done) > 1e-9 * L) rate = done / step;
  }
  return { report, remaining: Math.abs(along()) };
}
