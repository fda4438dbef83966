/**
 * A small suspension analysis for the live model, until the metrics engine
 * (`src/suspension/analysis.ts`) plugs into the same hook: the mechanism's DOF and, per
 * corner, camber, toe and the wheel centre, read from the solved poses through the
 * assembly's `suspension` roles.
 *
 * Conventions of `suspension.md` (σ = +1 left, −1 right; a = unit(axle_outboard −
 * axle_inboard)): camber = atan2(−a_z, σ a_y), toe = atan2(a_x, σ a_y), degrees;
 * wheel_center = axle_outboard − offset · a (mm).
 */
import * as P from '../../kernel/pose';
import { splitReference } from '../assembly/types.ts';
import type { Model } from '../model/build.ts';
import type { SolveResult } from '../model/operations.ts';
import type { PointRole, SuspensionRoles } from '../suspension/build/roles.ts';
import { ArgumentError } from '../../kernel/errors.ts';

export interface CornerReadout {
  readonly side: 'left' | 'right';
  /** Degrees; negative when the wheel top leans inward. */
  readonly camber: number;
  /** Degrees; positive toe-in. */
  readonly toe: number;
  /** mm, world. */
  readonly wheelCenter: [number, number, number];
}

export interface SimpleAnalysis {
  readonly dof: number;
  readonly corners: readonly CornerReadout[];
}

const DEG = 180 / Math.PI;

/** The analysis hook (see the module comment); corners are empty for a model without suspension roles. */
export function simpleSuspensionAnalysis(model: Model, solved: SolveResult): SimpleAnalysis {
  const roles = model.doc.suspension as SuspensionRoles | undefined;
  const corners: CornerReadout[] = [];
  for (const corner of roles?.corners ?? []) {
    const inboard = worldPoint(model, corner.axle[0]);
    const outboard = worldPoint(model, corner.axle[1]);
    const d = [outboard[0] - inboard[0], outboard[1] - inboard[1], outboard[2] - inboard[2]];
    const n = Math.hypot(d[0], d[1], d[2]);
    const a = [d[0] / n, d[1] / n, d[2] / n];
    const sigma = corner.side === 'left' ? 1 : -1;
    const offset = corner.wheel.offset;
    corners.push({
      side: corner.side,
      camber: Math.atan2(-a[2], sigma * a[1]) * DEG,
      toe: Math.atan2(a[0], sigma * a[1]) * DEG,
      wheelCenter: [outboard[0] - offset * a[0], outboard[1] - offset * a[1], outboard[2] - offset * a[2]],
    });
  }
  return { dof: solved.dof, corners };
}

/** A role's point in world coordinates at the model's current state. */
export function worldPoint(model: Model, role: PointRole): [number, number, number] {
  if (typeof role !== 'string') {
    const a = worldPoint(model, role.between[0]);
    const b = worldPoint(model, role.between[1]);
    const f = role.fraction;
    return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
  }
  const ref = splitReference(role);
  const part = ref?.owner ?? role, name = ref?.name ?? '';
  const variable = model.parts.get(part);
  const local = model.doc.parts[part]?.points?.[name];
  if (variable === undefined || local === undefined) throw new ArgumentError('', `no point "${role}" in the model`);
  const w = P.applyPoint(new Float64Array(3), model.system.getPose(variable), local);
  return [w[0], w[1], w[2]];
}
