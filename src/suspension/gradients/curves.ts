/**
 * Quantities read off a metric's bump curve — its value at a travel, its change (gain) or
 * mean slope between two travels, its RMS error to a target curve — with their exact
 * gradients over every hardpoint coordinate of the file. The same targets a fit file names
 * (src/suspension/design/fit.ts), taken here as what-if questions rather than goals: each state the
 * targets need is solved once and every gradient comes from the metric gradients there.
 */
import type { Geometry } from '../files';
import { parseText } from '../files';
import { DesignFileError } from '../design/errors';
import { checkTargets, compliantCurves, targetCurves, type FitTarget } from '../design/fit';
import type { MetricGradient } from './types';

export interface CurveQuantity {
  /** `targets[i] <side> <metric> <kind>`, as the fit report labels its residuals. */
  target: string;
  metric: string;
  /** An axle's side (`left`, `right`) or `axle` for its own metrics; absent on a corner. */
  side?: string;
  kind: 'at' | 'gain' | 'slope' | 'rms';
  /** In the metric's unit (a slope: per mm). */
  value: number;
  /** d value / d coordinate per mm, keyed as `kinemate sensitivity` keys them; null where the RMS error is 0 (no derivative there). */
  gradient: Record<string, number | null>;
}

/** Parse a targets file (a fit file; its `move` is not needed here) for {@link curveSensitivity}. */
export function parseCurveTargets(text: string, geometry: Geometry, fileName = 'targets'): FitTarget[] {
  const raw = parseText(text, fileName) as Record<string, unknown>;
  const bad = (path: string, message: string): never => { throw new DesignFileError(fileName, path, message); };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('(top)', 'expected a mapping with targets');
  return checkTargets(raw.targets, geometry, bad, false);
}

/**
 * Each target's quantity and its gradient at the file's design. A curve's RMS error is
 * √(Σ(m_j − v_j)²/n) over its n travels, its gradient Σ(m_j − v_j)∇m_j/(n·rms). A target's
 * weight and wanted value do not enter (they are the fit's).
 *
 * A compliant file's states are settled (no wheel load) as `kinemate fit` settles them, and
 * its gradients are over the stiffnesses, and over the hardpoints at states at rest
 * (docs/compliance.md): an entry that one of the states a quantity combines does not have
 * (a hardpoint away from rest, a coefficient whose element is wound up) is null.
 */
export function curveSensitivity(geometry: Geometry, targets: readonly FitTarget[], mode: 'adjoint' | 'direct' = 'adjoint'): CurveQuantity[] {
  const { at, sides } = geometry.compliance ? compliantCurves(geometry, targets, true, 'sensitivity') : targetCurves(geometry, targets, mode, 'sensitivity');
  const axle = geometry.scope === 'axle';
  /** Σ_j c_j ∇m_j over the metric at the given travels (null where a state has no such entry). */
  const combine = (ms: readonly MetricGradient[], c: readonly number[]): Record<string, number | null> => {
    const out: Record<string, number | null> = {};
    const keys = new Set(ms.flatMap((m) => Object.keys(m.gradient)));
    for (const key of keys) {
      let s: number | null = 0;
      ms.forEach((m, j) => {
        const g = m.gradient[key] as number | null | undefined;
        if (s === null || c[j] === 0) return;
        s = typeof g === 'number' ? s + c[j] * g : null;
      });
      out[key] = s;
    }
    return out;
  };
  const out: CurveQuantity[] = [];
  targets.forEach((t, i) => {
    for (const side of sides(t)) {
      const label = `targets[${i}] ${axle ? `${side} ` : ''}${t.metric}`;
      const push = (kind: CurveQuantity['kind'], what: string, value: number, gradient: Record<string, number | null>) =>
        out.push({ target: `${label} ${what}`, metric: t.metric, ...(axle ? { side } : {}), kind, value, gradient });
      if (t.at !== undefined) { const m = at(t.at, t.metric, side); push('at', `at ${t.at}`, m.value, { ...m.gradient }); }
      const pair = t.gain ?? t.slope;
      if (pair) {
        const [x0, x1] = pair, a = at(x0, t.metric, side), b = at(x1, t.metric, side);
        const s = t.gain ? 1 : 1 / (x1 - x0);
        push(t.gain ? 'gain' : 'slope', `${t.gain ? 'gain' : 'slope'} ${x0}…${x1}`, s * (b.value - a.value), combine([a, b], [-s, s]));
      }
      if (t.curve) {
        const ms = t.curve.at.map((x) => at(x, t.metric, side));
        const errors = ms.map((m, j) => m.value - t.curve!.values[j]);
        const n = errors.length, rms = Math.sqrt(errors.reduce((s, e) => s + e * e, 0) / n);
        const gradient = rms > 0 ? combine(ms, errors.map((e) => e / (n * rms))) : Object.fromEntries(Object.keys(ms[0].gradient).map((k) => [k, null]));
        push('rms', `rms error to ${n} points`, rms, gradient);
      }
    }
  });
  return out;
}
