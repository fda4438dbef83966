/**
 * The sensitivity arrows' presenter: for a document, the state the view shows (wheel
 * travel, rack) and a metric, the library's exact gradient of that metric with respect to
 * every hardpoint coordinate (src/suspension/sensitivity.ts: one adjoint solve), per
 * pickup. No DOM: it runs in its own worker (`sensitivity.worker.ts`), so a drag's pose is
 * never held up by it, and in Node for the tests.
 */
import { SensitivityModel, sensitivitySweep, SENSITIVITY_METRICS } from '../../src/suspension/sensitivity';
import { validateGeometry, validateSweep, type SweepSpec } from '../../src/suspension/files';
import type { ViewerDocument, Vec3 } from './document';
import type { ViewState } from './engine';

/** The metrics offered, with the unit of the metric (a gradient is that unit per mm). */
export const SENSITIVITY_UNITS: Readonly<Record<string, string>> = {
  camber: '°', toe_angle: '°', steer_angle: '°', caster: '°', kpi: '°', steering_axis_offset_ground: 'mm', scrub_radius: 'mm', mechanical_trail: 'mm',
  svic_x: 'mm', svic_z: 'mm', fvic_y: 'mm', fvic_z: 'mm', svsa_length: 'mm', fvsa_length: 'mm', svsa_angle: '°',
  anti_dive: '%', anti_lift: '%', anti_squat: '%', wheel_travel: 'mm', half_track: 'mm', damper_length: 'mm',
};
export const ARROW_METRICS: readonly string[] = SENSITIVITY_METRICS;

export interface ArrowRequest {
  docKey: number;
  doc: ViewerDocument;
  view: ViewState;
  metric: string;
}

/** One hardpoint's gradient: d(metric)/d(x, y, z), the metric's unit per mm. */
export interface PickupArrow {
  hardpoint: string;
  gradient: Vec3;
  /** A point of the chassis (a pickup: the arrows are drawn there). */
  chassis: boolean;
}

export interface ArrowResult {
  docKey: number;
  metric: string;
  unit: string;
  view: ViewState;
  /** ok: gradients; unavailable: this document has none (an axle, an assembly); failed: the state cannot be solved or the metric is undefined here. */
  status: 'ok' | 'unavailable' | 'failed';
  message: string | null;
  /** The metric's value at the state. */
  value: number | null;
  arrows: PickupArrow[];
  ms: number;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** The view's state as a one-step sweep: wheel-centre z relative to design, and the rack (where there is one), as the pose worker drives them. */
function stateSpec(model: SensitivityModel, view: ViewState): SweepSpec {
  const travel = view.travel[0] ?? 0;
  const targets: unknown[] = [{ type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', start: travel, stop: travel }];
  if (model.sm.rackHold) targets.push({ type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', start: view.rack, stop: view.rack });
  return validateSweep({ version: 1, steps: 1, targets }, model.geometry);
}

export class SensitivityPresenter {
  /** The last document's model (a drag makes a new document per move: one is enough). */
  private cached: { key: number; model: SensitivityModel | null; problem: string | null } | null = null;

  private modelFor(docKey: number, doc: ViewerDocument): { model: SensitivityModel | null; problem: string | null } {
    if (this.cached?.key === docKey) return this.cached;
    let model: SensitivityModel | null = null;
    let problem: string | null = null;
    if (doc.kind !== 'suspension') problem = 'sensitivities need a suspension geometry file (this is an assembly)';
    else {
      try {
        model = new SensitivityModel(validateGeometry(doc.geometry));
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
    }
    this.cached = { key: docKey, model, problem };
    return this.cached;
  }

  arrows(req: ArrowRequest): ArrowResult {
    const t0 = now();
    const unit = SENSITIVITY_UNITS[req.metric] ?? '';
    const base = { docKey: req.docKey, metric: req.metric, unit, view: req.view };
    const out = (status: ArrowResult['status'], message: string | null, value: number | null = null, arrows: PickupArrow[] = []): ArrowResult => ({ ...base, status, message, value, arrows, ms: now() - t0 });
    if (!(ARROW_METRICS as readonly string[]).includes(req.metric)) return out('unavailable', `no gradient for "${req.metric}"`);
    const { model, problem } = this.modelFor(req.docKey, req.doc);
    if (!model) return out('unavailable', problem);
    let step;
    try {
      step = sensitivitySweep(model, stateSpec(model, req.view), [req.metric]).steps[0];
    } catch (error) {
      return out('failed', error instanceof Error ? error.message : String(error));
    }
    if (step.status !== 'solved' || !step.metrics) return out('failed', `the state cannot be solved: ${step.message ?? ''}`);
    const m = step.metrics[req.metric];
    if (!m) return out('failed', `${req.metric} is not defined for this linkage here`);
    const chassis = model.sm.roles.chassis;
    const roles = model.sm.corners[0].roles.points as Record<string, unknown>;
    const arrows = model.hardpointNames.map((name) => ({
      hardpoint: name,
      gradient: [m.gradient[`${name}.x`], m.gradient[`${name}.y`], m.gradient[`${name}.z`]] as Vec3,
      chassis: typeof roles[name] === 'string' && (roles[name] as string).startsWith(`${chassis}.`),
    }));
    return out('ok', null, m.value, arrows);
  }
}

/** "+0.013" with the sign always written and two significant digits (or 0). */
export function signedFigure(x: number): string {
  if (x === 0 || Math.abs(x) < 1e-12) return '0';
  const s = Math.abs(x) >= 100 ? Math.abs(x).toFixed(0) : Math.abs(x).toPrecision(2);
  return `${x > 0 ? '+' : '−'}${s}`;
}

/** Where the gradient is taken, in words: "at +30 mm", "at +30 mm, rack −4 mm". */
export function stateWords(view: ViewState): string {
  const t = view.travel[0] ?? 0;
  const mm = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(Number(x.toFixed(1)))} mm`;
  return `at ${mm(t)}${view.rack !== 0 ? `, rack ${mm(view.rack)}` : ''}`;
}

/** The hover's lines: "+1 mm in y → +0.013° camber at +30 mm", one per axis. */
export function hoverLines(result: ArrowResult, arrow: PickupArrow): string[] {
  const unit = result.unit === '°' ? '°' : ` ${result.unit}`;
  return (['x', 'y', 'z'] as const).map((axis, i) => `+1 mm in ${axis} → ${signedFigure(arrow.gradient[i])}${unit} ${result.metric} ${stateWords(result.view)}`);
}
