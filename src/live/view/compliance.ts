/**
 * A compliant suspension in the viewer's presenter (no DOM; docs/compliance.md, "Viewer"):
 * what a pose result carries of the settle (status, the wheel loads applied, the K&C
 * coefficients at zero load, each bushing's deflection) and the pose drawn with its
 * deflection from the unloaded state exaggerated by the view's factor. The metrics and
 * loads stay those of the true pose: only what is drawn is scaled.
 */
import type { SuspensionModel } from '../../suspension/build/model.ts';
import type { KcCoefficients } from '../../suspension/compliance/coefficients.ts';
import type { StateLoads } from '../../suspension/loads/loads.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import type { LiveCompliance, LiveComplianceFrame } from '../compliant-pose.ts';
import type { LiveSuspensionAnalysis } from '../suspension-analysis.ts';
import type { CornerGeometry, ReadoutSpec } from './frame-types.ts';
import { cornerGeometry } from './scene-structure.ts';
import { SuspensionModel as Suspension } from '../../suspension/build/model.ts';
import { runKc, KC_DEFAULT_RANGE, type KcEvent } from '../../suspension/compliance/kc.ts';
import { flattenMetrics } from '../../suspension/sweep/sweep.ts';
import { compileDocument, type CompiledDocument, type LiveDocument } from '../document.ts';
import type { KcSeries } from '../../pictures/kc-chart.ts';

export type { RigLoad, RigLoads } from '../compliant-pose.ts';
export type { KcCoefficients } from '../../suspension/compliance/coefficients.ts';

/** The coefficients as the side panel lists them (the names `kinemate kc` prints in its summary). */
export const KC_COEFFICIENTS: readonly (ReadoutSpec & { metric: keyof KcCoefficients })[] = [
  { metric: 'toe_per_fy', label: 'Toe / Fy', unit: '°/kN', digits: 4 },
  { metric: 'camber_per_fy', label: 'Camber / Fy', unit: '°/kN', digits: 4 },
  { metric: 'lateral_stiffness', label: 'Lateral stiffness', unit: 'N/mm', digits: 0 },
  { metric: 'toe_per_fx', label: 'Toe / Fx', unit: '°/kN', digits: 4 },
  { metric: 'camber_per_fx', label: 'Camber / Fx', unit: '°/kN', digits: 4 },
  { metric: 'recession_per_fx', label: 'Recession / Fx', unit: 'mm/kN', digits: 3 },
  { metric: 'longitudinal_stiffness', label: 'Longitudinal stiffness', unit: 'N/mm', digits: 0 },
  { metric: 'toe_per_mz', label: 'Toe / Mz', unit: '°/kN·m', digits: 4 },
  { metric: 'camber_per_mz', label: 'Camber / Mz', unit: '°/kN·m', digits: 4 },
];

/** What a pose result carries of a compliant suspension's settle. */
export interface PoseCompliance {
  status: 'solved' | 'failed';
  message: string | null;
  sides: string[];
  /** The wheel loads applied at the contact patches (the loads panel's case plus the arrows'), per side: N, N·mm. */
  applied: Record<string, { force: Vec3Tuple; moment: Vec3Tuple }>;
  /** K&C coefficients at zero load at this view, per side. */
  coefficients: Record<string, KcCoefficients | null>;
  /** The compliant wheel rate at this view, unloaded, per side (N/mm). */
  wheelRates: Record<string, number | null>;
  /** Each bushing's deflection at the pose (keyed as `loads.bushings`: by pickup, by side then pickup on an axle): mm and deg in its chassis frame. */
  bushings: Record<string, { translation: Vec3Tuple; rotation: Vec3Tuple }>;
  /** The factor the drawn deflection is scaled by (1: the true pose). */
  exaggeration: number;
}

/** The drawn pose of a compliant frame, exaggerated, and its summary. */
export interface CompliantDrawing {
  poses: Record<string, number[]>;
  corners: CornerGeometry[];
  compliance: PoseCompliance;
}

/**
 * The frame's compliance summary and, with a factor other than 1, the poses and corners at
 * the exaggerated pose (the library's state scaled from the unloaded one and put back).
 */
export function compliantDrawing(sm: SuspensionModel, live: LiveCompliance, frame: LiveComplianceFrame, analysis: LiveSuspensionAnalysis, loads: StateLoads | null, exaggeration: number, poses: () => Record<string, number[]>): CompliantDrawing {
  const factor = Number.isFinite(exaggeration) && exaggeration > 0 ? exaggeration : 1;
  const drawn = live.exaggerated(factor, () => {
    // the wheel and contact centres where the drawn upright puts them; the metrics are the true pose's
    const positions = factor === 1 ? analysis.positions : sm.evaluate({ derivatives: false }).positions;
    return { poses: poses(), corners: cornerGeometry(sm, { positions, metrics: analysis.metrics }, analysis.steering.axes) };
  });
  return {
    ...drawn,
    compliance: {
      status: frame.status,
      message: frame.message,
      sides: frame.sides,
      applied: frame.applied,
      coefficients: frame.coefficients,
      wheelRates: frame.wheelRates,
      bushings: bushingDeflections(loads),
      exaggeration: factor,
    },
  };
}

/** The bushings' deflections of a loads report, flat: `pickup` (a corner), `side.pickup` (an axle). */
function bushingDeflections(loads: StateLoads | null): PoseCompliance['bushings'] {
  const out: PoseCompliance['bushings'] = {};
  const walk = (node: unknown, prefix: string): void => {
    if (!node || typeof node !== 'object') return;
    const b = node as { translation?: Vec3Tuple; rotation?: Vec3Tuple };
    if (Array.isArray(b.translation) && Array.isArray(b.rotation)) { out[prefix] = { translation: b.translation, rotation: b.rotation }; return; }
    for (const [k, v] of Object.entries(node)) walk(v, prefix ? `${prefix}.${k}` : k);
  };
  walk((loads as { bushings?: unknown } | null)?.bushings, '');
  return out;
}

/** The K&C curves' request (the viewer's compliance panel, in a worker of its own): one rig event at a bump travel. */
export interface KcCurvesRequest {
  docKey: number;
  doc: LiveDocument;
  compiled?: CompiledDocument;
  event: Exclude<KcEvent, 'vertical'>;
  /** Wheel travel (mm from design) the rig holds. */
  bump: number;
  /** The event's load range (N or N·mm) and steps; default `kinemate kc`'s. */
  range?: [number, number, number];
}

export interface KcCurvesResult {
  docKey: number;
  /** The run as the chart reads it (src/pictures/kc-chart.ts): every step's flat metrics at the deflected pose. */
  series: KcSeries;
  failedSteps: number;
  ms: number;
}

/** The rig event of `kinemate kc` on the request's document (a model of its own), as chart series. */
export function kcCurves(req: KcCurvesRequest): KcCurvesResult {
  const t0 = typeof performance !== 'undefined' ? performance.now() : Date.now();
  const assembly = (req.compiled ?? compileDocument(req.doc)).assembly;
  const run = runKc(new Suspension(assembly), req.event, { at: { kind: 'bump', value: req.bump }, range: req.range ?? KC_DEFAULT_RANGE[req.event] });
  const series: KcSeries = { event: req.event, at: run.at, load: run.steps.map((s) => s.load), solved: run.steps.map((s) => s.status === 'solved'), rows: run.steps.map((s) => flattenMetrics(s.metrics)) };
  return { docKey: req.docKey, series, failedSteps: run.steps.filter((s) => s.status === 'failed').length, ms: (typeof performance !== 'undefined' ? performance.now() : Date.now()) - t0 };
}
