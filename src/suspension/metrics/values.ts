/**
 * Chosen metrics' values at a solved state, without the full evaluation: for a batch that
 * asks for a few angles per step (a DOE), the spin axis and the steering axis are all it
 * needs. The formulas are the full evaluation's own (wheelAxis, wheelAngles, axisAngles of
 * metrics/corner.ts) on width-0 duals, so the values are the same numbers.
 */
import { DualVec3 } from '../../../kernel/dual';
import { axisAngles, wheelAngles, wheelAxis } from './corner';
import { comp, konst, sub, vscaleK, vsub } from './dualops';
import type { MetricValues, SuspensionModel } from '../build/model';
import type { PointExpr } from '../build/targets';

const SPIN_METRICS = new Set(['camber', 'toe_angle', 'steer_angle', 'wheel_travel']);
const AXIS_METRICS = new Set(['caster', 'kpi']);

/**
 * A function giving the named metrics at the model's current state, or null when a name
 * needs the full evaluation (then use `sm.evaluate`): a single corner without devices,
 * asking only for camber, toe_angle, steer_angle, wheel_travel, caster and kpi.
 */
export function metricValues(sm: SuspensionModel, names: readonly string[]): (() => MetricValues) | null {
  if (sm.roles.scope !== 'corner' || sm.corners.length !== 1 || sm.devices !== null) return null;
  if (!names.every((n) => SPIN_METRICS.has(n) || AXIS_METRICS.has(n))) return null;
  const c = sm.corners[0];
  const axis = c.roles.steering_axis ? c.roles.steering_axis.map((r) => sm.resolveRole(r)) as [PointExpr, PointExpr] : null;
  const wantAxis = names.some((n) => AXIS_METRICS.has(n));
  const at = (expr: PointExpr) => {
    const p = new DualVec3(0);
    sm.pointValue(expr, p.v);
    return p;
  };
  return () => {
    const out: MetricValues = {};
    const { spin, wheelCenter } = wheelAxis(at(c.axle[0]), at(c.axle[1]), c.roles.wheel.offset);
    const w = wheelAngles(spin, c.sigma);
    out.camber = w.camber.v;
    out.toe_angle = w.toe.v;
    out.steer_angle = w.steer.v;
    out.wheel_travel = sub(comp(wheelCenter, 2), konst(0, c.design.wheelCenterZ)).v;
    if (wantAxis) {
      out.caster = out.kpi = null;
      if (axis) {
        // steeringAxisMetrics: the axis lower → upper, turned to point up; none when of zero length
        const lower = at(axis[0]);
        const d = vsub(at(axis[1]), lower);
        const sv = d.v;
        if (Math.hypot(sv[0], sv[1], sv[2]) > 0) {
          const a = axisAngles(sv[2] < 0 ? vscaleK(d, -1) : d, c.sigma);
          out.caster = a.caster.v;
          out.kpi = a.kpi.v;
        }
      }
    }
    return out;
  };
}
