/**
 * The point duals of one evaluation (SuspensionModel.evaluate), each point expression
 * seeded once.
 */
import type { DualVec3 } from '../../../kernel/dual';
import type { TangentSpace } from '../../../kernel/analysis';
import type { PointRole } from './roles';
import type { PointExpr } from './targets';

/** What the seeding reads of the model (SuspensionModel has it). */
export interface PointSource {
  pointDual(expr: PointExpr, tangent: TangentSpace, directions: readonly (Float64Array | null)[], n: number): DualVec3;
  resolveRole(role: PointRole): PointExpr;
}

/**
 * One dual per point expression and state: roles name the same points several times
 * (instant axis, damper, rocker, devices); the metrics never write into their inputs. Its
 * lookups are methods, not closures made per evaluation (under tsx's keepNames a named
 * closure costs a defineProperty at every state).
 */
export class SeededPoints {
  private readonly seeded = new Map<PointExpr, DualVec3>();
  constructor(private readonly sm: PointSource, private readonly tangent: TangentSpace, private readonly dirs: readonly (Float64Array | null)[], private readonly n: number) {}
  of(e: PointExpr): DualVec3 {
    let p = this.seeded.get(e);
    if (!p) this.seeded.set(e, (p = this.sm.pointDual(e, this.tangent, this.dirs, this.n)));
    return p;
  }
  role(r: PointRole): DualVec3 { return this.of(this.sm.resolveRole(r)); }
}
