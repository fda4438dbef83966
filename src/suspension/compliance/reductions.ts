/**
 * The compliant tangent's reductions (tangent.ts) whose costly parts are formed when first
 * read: a force-only reduction's K_r and multipliers (a Newton state that converges never
 * reads them), an exact reduction's K − H (the gradients read it; no Newton or polishing
 * step does).
 */
import { constraintMultipliers, type admissibleMotions, type Multipliers } from '../../../kernel/multipliers';
import type { HeldMultipliers } from '../../../kernel/held-motions';
import type { System } from '../../../kernel/system';
import type { Reduced } from '../../mechanics/reduced';
import { InternalError } from '../../../kernel/errors';

/** Admissible motions: `count` columns of `size` tangent entries (kernel/multipliers.ts). */
type Motions = ReturnType<typeof admissibleMotions>;

/** The exact reduction at a state: K_r (k × k, row-major), the basis N and the reduced force. */
export interface ExactReduced {
  Kr: Float64Array;
  N: Float64Array;
  k: number;
  n: number;
  layout: Int32Array;
  Q: Float64Array;
  f: Float64Array;
  mult: HeldMultipliers;
  /** K − H (n × n, row-major): the full tangent stiffness the reduction projects. */
  KH: Float64Array;
}

/**
 * A force-only reduction (CompliantTangent.reduce): K_r and the multipliers are formed when
 * first read, which `equilibrium` does only at a state it steps from, before it moves.
 */
export class LazyReduced implements Reduced {
  readonly Cr = null;
  readonly Mr = null;
  private kr: Float64Array | null = null;
  private lambda: Multipliers | null = null;
  constructor(
    readonly N: Float64Array, readonly k: number, readonly size: number, readonly layout: Int32Array, readonly Q: Float64Array, readonly f: Float64Array,
    private readonly motions: Motions, private readonly tangent: { reducedStiffness(motions: Motions): Float64Array }, private readonly system: System,
  ) {}
  get Kr(): Float64Array {
    return (this.kr ??= this.tangent.reducedStiffness(this.motions));
  }
  get mult(): Multipliers {
    return (this.lambda ??= constraintMultipliers(this.system, this.Q));
  }
}

/** An exact reduction whose K − H (n × n) is formed from the tangent's buffers when first read (CompliantTangent.exact). */
export class LazyKH implements ExactReduced {
  readonly Kr: Float64Array;
  readonly N: Float64Array;
  readonly k: number;
  readonly n: number;
  readonly layout: Int32Array;
  readonly Q: Float64Array;
  readonly f: Float64Array;
  readonly mult: HeldMultipliers;
  private kh: Float64Array | null = null;
  /** The tangent's buffers moved on before K − H was read (and the reduction was not the settled state's). */
  private stale = false;
  constructor(ex: Omit<ExactReduced, 'KH'>, private readonly tangent: { formKH(): Float64Array }) {
    this.Kr = ex.Kr; this.N = ex.N; this.k = ex.k; this.n = ex.n; this.layout = ex.layout; this.Q = ex.Q; this.f = ex.f; this.mult = ex.mult;
  }
  /** K − H, read before the tangent's next reduction (every caller reads it at once), or of the settled state's reduction. */
  get KH(): Float64Array {
    if (this.stale && !this.kh) throw new InternalError("K − H of a compliant tangent's reduction read after the tangent reduced another state");
    return this.form();
  }
  /** Formed now (the tangent calls it before its buffers change). */
  form(): Float64Array {
    return (this.kh ??= this.tangent.formKH());
  }
  /** The tangent's buffers are about to change and nothing will ask for K − H again (no reduction is read after the next). */
  drop(): void {
    this.stale = true;
  }
}
