/**
 * The sensitivity arrows' presenter: for a document, the state the view shows (wheel
 * travel, rack) and a metric, the library's exact gradient of that metric with respect to
 * every hardpoint coordinate (src/suspension/gradients/model.ts: one adjoint solve), per
 * pickup. No DOM: it runs in its own worker (`sensitivity.worker.ts`), so a drag's pose is
 * never held up by it, and in Node for the tests.
 *
 * An axle: the metric of one chosen side, arrows on both sides' and the centre's chassis
 * pickups. Each arrow is the gradient of what dragging that pickup does: on a mirrored
 * axle (no `hardpoints.right`) a drag moves the pickup and its mirror (the left and the
 * right point, y opposite), so its gradient is the pickup's own plus the mirror's, mirrored.
 */
import { SensitivityModel, sensitivitySweepBySide, SENSITIVITY_METRICS, type MetricGradient } from '../../suspension/gradients/model.ts';
import { validateGeometry, validateSweep, type Geometry, type SweepSpec } from '../../suspension/files/index.ts';
import { suspensionAssembly } from '../../suspension/build/template.ts';
import { renewedSuspension } from '../suspension-engine.ts';
import type { CompiledDocument } from '../document.ts';
import type { LiveDocument } from '../document.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import type { ViewState } from './presenter.ts';

/** The metrics offered, with the unit of the metric (a gradient is that unit per mm). */
export const SENSITIVITY_UNITS: Readonly<Record<string, string>> = {
  camber: '°', toe_angle: '°', steer_angle: '°', caster: '°', kpi: '°', steering_axis_offset_ground: 'mm', scrub_radius: 'mm', mechanical_trail: 'mm',
  svic_x: 'mm', svic_z: 'mm', fvic_y: 'mm', fvic_z: 'mm', svsa_length: 'mm', fvsa_length: 'mm', svsa_angle: '°',
  anti_dive: '%', anti_lift: '%', anti_squat: '%', wheel_travel: 'mm', half_track: 'mm', damper_length: 'mm',
};
export const ARROW_METRICS: readonly string[] = SENSITIVITY_METRICS;

export interface ArrowRequest {
  docKey: number;
  doc: LiveDocument;
  view: ViewState;
  metric: string;
  /** The document as the page's live model compiled it: its checked geometry is used, not checked again here. */
  compiled?: CompiledDocument;
  /** An axle: whose metric (default left); a corner has one side. */
  side?: string;
}

/** One hardpoint's gradient: d(metric)/d(x, y, z), the metric's unit per mm. */
export interface PickupArrow {
  hardpoint: string;
  gradient: Vec3Tuple;
  /** A point of the chassis (a pickup: the arrows are drawn there). */
  chassis: boolean;
  /** The assembly's point (`chassis.center_…`), for a pickup with no handle (an axle's centre points). */
  ref?: string;
  /** A mirrored axle: the pickup a drag moves with this one (its mirror), whose effect is in the gradient. */
  with?: string;
}

export interface ArrowResult {
  docKey: number;
  metric: string;
  unit: string;
  view: ViewState;
  /** An axle: the side whose metric it is (a corner: absent). */
  side?: string;
  /** ok: gradients; unavailable: this document has none (an assembly); failed: the state cannot be solved or the metric is undefined here. */
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
  const wheel = (travel: number, side?: string) => ({ type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', start: travel, stop: travel, ...(side ? { side } : {}) });
  // an axle: each wheel at its own travel (a roll pose has them differ)
  const targets: unknown[] = model.sides.length > 1 ? model.sides.map((side, i) => wheel(view.travel[i] ?? view.travel[0] ?? 0, side)) : [wheel(view.travel[0] ?? 0)];
  if (model.sm.rackHold) targets.push({ type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', start: view.rack, stop: view.rack });
  return validateSweep({ version: 1, steps: 1, targets }, model.geometry);
}

/**
 * The gradient model of a geometry: the compile's checked geometry (no second check here);
 * its assembly generated again from it, since the hardpoint index tells coincident pickups
 * apart by the identity of the generated points, which no compile carried across a worker
 * keeps; and the previous version's suspension model renewed in place for it where the
 * topology is the same (renewModel: the numbers of a fresh build), built afresh otherwise.
 */
function gradientModel(geometry: Geometry, previous: SensitivityModel | null): SensitivityModel {
  const assembly = suspensionAssembly(geometry);
  const renewed = previous ? renewedSuspension(previous.sm, assembly) : null;
  return new SensitivityModel(geometry, { assembly, model: renewed });
}

export class SensitivityPresenter {
  /** The last document's model (a drag makes a new document per move: one is enough). */
  private cached: { key: number; model: SensitivityModel | null; problem: string | null } | null = null;

  private modelFor(docKey: number, doc: LiveDocument, compiled?: CompiledDocument): { model: SensitivityModel | null; problem: string | null } {
    if (this.cached?.key === docKey) return this.cached;
    // the last version's model, renewed in place below where the topology is the same (a drag's next move)
    const previous = this.cached?.model ?? null;
    this.cached = null;
    let model: SensitivityModel | null = null;
    let problem: string | null = null;
    if (doc.kind !== 'suspension') problem = 'sensitivities need a suspension geometry file (this is an assembly)';
    else {
      try {
        model = gradientModel(compiled?.geometry ?? validateGeometry(doc.geometry), previous);
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
    const base: Pick<ArrowResult, 'docKey' | 'metric' | 'unit' | 'view' | 'side'> = { docKey: req.docKey, metric: req.metric, unit, view: req.view };
    const out = (status: ArrowResult['status'], message: string | null, value: number | null = null, arrows: PickupArrow[] = []): ArrowResult => ({ ...base, status, message, value, arrows, ms: now() - t0 });
    if (!(ARROW_METRICS as readonly string[]).includes(req.metric)) return out('unavailable', `no gradient for "${req.metric}"`);
    const { model, problem } = this.modelFor(req.docKey, req.doc, req.compiled);
    if (!model) return out('unavailable', problem);
    const axle = model.sides.length > 1;
    const side = axle ? (req.side ?? model.sides[0]) : model.sides[0];
    if (!model.sides.includes(side)) return out('unavailable', `no ${side} side here (sides: ${model.sides.join(', ')})`);
    if (axle) base.side = side;
    let step;
    try {
      step = sensitivitySweepBySide(model, stateSpec(model, req.view), [req.metric]).steps[0];
    } catch (error) {
      return out('failed', error instanceof Error ? error.message : String(error));
    }
    if (step.status !== 'solved' || !step.metrics) return out('failed', `the state cannot be solved: ${step.message ?? ''}`);
    const m = step.metrics[side]?.[req.metric];
    if (!m) return out('failed', `${req.metric} is not defined for this linkage here`);
    return out('ok', null, m.value, axle ? axleArrows(model, m) : cornerArrows(model, m));
  }
}

const gradientOf = (m: MetricGradient, key: string): Vec3Tuple => [m.gradient[`${key}.x`], m.gradient[`${key}.y`], m.gradient[`${key}.z`]];

function cornerArrows(model: SensitivityModel, m: MetricGradient): PickupArrow[] {
  const chassis = model.sm.roles.chassis;
  const roles = model.sm.corners[0].roles.points as Record<string, unknown>;
  return model.hardpointNames.map((name) => ({
    hardpoint: name,
    gradient: gradientOf(m, name),
    chassis: typeof roles[name] === 'string' && (roles[name] as string).startsWith(`${chassis}.`),
  }));
}

/**
 * An axle's pickups, named as the view's handles name them (`left_<name>`, `right_<name>`;
 * centre points `center_<name>`). A mirrored axle's side pickup: its own gradient plus its
 * mirror's with y negated (a drag moves both, the mirror's y the opposite way).
 */
function axleArrows(model: SensitivityModel, m: MetricGradient): PickupArrow[] {
  const chassis = model.sm.roles.chassis;
  const mirrored = !(model.geometry.raw as { hardpoints?: { right?: unknown } } | undefined)?.hardpoints?.right;
  const out: PickupArrow[] = [];
  const other = (side: string) => model.sides.find((s) => s !== side)!;
  model.sm.corners.forEach((corner) => {
    const side = corner.roles.side;
    const roles = corner.roles.points as Record<string, unknown>;
    for (const name of Object.keys(model.geometry.corners.find((c) => c.side === side)!.hardpoints)) {
      const own = gradientOf(m, `${side}.${name}`);
      const mirror = gradientOf(m, `${other(side)}.${name}`);
      const gradient: Vec3Tuple = mirrored ? [own[0] + mirror[0], own[1] - mirror[1], own[2] + mirror[2]] : own;
      out.push({
        hardpoint: `${side}_${name}`,
        gradient,
        chassis: typeof roles[name] === 'string' && (roles[name] as string).startsWith(`${chassis}.`),
        ...(mirrored ? { with: `${other(side)}_${name}` } : {}),
      });
    }
  });
  // centre points: on the chassis under `center_<name>` or their own name (a beam axle's links)
  const chassisPoints = model.doc.parts[chassis]?.points ?? {};
  for (const name of Object.keys(model.geometry.center ?? {})) {
    const local = chassisPoints[`center_${name}`] ? `center_${name}` : chassisPoints[name] ? name : null;
    out.push({ hardpoint: `center_${name}`, gradient: gradientOf(m, `center.${name}`), chassis: local !== null, ...(local ? { ref: `${chassis}.${local}` } : {}) });
  }
  return out;
}

/** "+0.013" with the sign always written and two significant digits (or 0). */
export function signedFigure(x: number): string {
  if (x === 0 || Math.abs(x) < 1e-12) return '0';
  const s = Math.abs(x) >= 100 ? Math.abs(x).toFixed(0) : Math.abs(x).toPrecision(2);
  return `${x > 0 ? '+' : '−'}${s}`;
}

/** Where the gradient is taken, in words: "at +30 mm", "at +30 mm, rack −4 mm"; an axle rolled: "at +30 / −10 mm". */
export function stateWords(view: ViewState): string {
  const t = view.travel[0] ?? 0;
  const mm = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(Number(x.toFixed(1)))} mm`;
  const travel = view.travel.length > 1 && view.travel.some((x) => x !== t) ? `${view.travel.map((x) => mm(x).slice(0, -3)).join(' / ')} mm` : mm(t);
  return `at ${travel}${view.rack !== 0 ? `, rack ${mm(view.rack)}` : ''}`;
}

/**
 * The hover's lines: "+1 mm in y → +0.013° camber at +30 mm", one per axis; an axle names
 * the metric's side ("left camber") and, when the mirror moves too, says so in a last line.
 */
export function hoverLines(result: ArrowResult, arrow: PickupArrow): string[] {
  const unit = result.unit === '°' ? '°' : ` ${result.unit}`;
  const metric = result.side ? `${result.side} ${result.metric}` : result.metric;
  const lines = (['x', 'y', 'z'] as const).map((axis, i) => `+1 mm in ${axis} → ${signedFigure(arrow.gradient[i])}${unit} ${metric} ${stateWords(result.view)}`);
  if (arrow.with) lines.push(`${arrow.with} moves with it, mirrored (the axle stays symmetric)`);
  return lines;
}
