/**
 * A tyre that slips: the vertical tyre (mates/forces.ts TyreForce: contact, load k p + c ṗ)
 * plus the lateral and longitudinal force and the aligning moment of a tyre model
 * (Magic Formula or linear) from the contact's slip, all with their exact derivatives by
 * the kernel's duals (K = ∂Q/∂δ, C = ∂Q/∂v: the simulation's and the gradients' tangent).
 *
 * Body 0 is the wheel: the part that spins (on a revolute in its upright), its `axis`
 * pointing to the tyre's left (ISO-W y). At the contact x, with e_z the road's normal:
 *   e_x = unit(a × e_z) (forward), e_y = e_z × e_x, sin γ = a·e_z (camber, top to the right +);
 *   x_r = x + p e_z, the contact on the road above the rim's lowest point x (p the penetration);
 *   V_s = the wheel's material velocity at x_r less the road's (the slip velocity),
 *   V_cx = (V_s + ω × (c − x_r))·e_x, the wheel centre's forward speed over the road (ω the
 *   wheel's turn rate over the road's), so that the wheel rolls on its loaded radius;
 *   κ = −V_s·e_x / √(V_cx² + v_low²),  α = atan(V_s·e_y / √(V_cx² + v_low²)),
 * so that a free-rolling wheel (no slip velocity) has no slip whatever its rolling radius,
 * and the slips stay finite at rest (v_low, default 1000 mm/s, TNO's VXLOW). Force
 * fx e_x + fy e_y + Fz e_z and moment mz e_z act on the wheel at x_r (and the opposite on
 * the road part). Quasi-static use: give the velocities a steady motion has, or set
 * `input.prescribed` to fixed slips (the load and camber still follow the pose); at rest,
 * `input.anchor` holds the contact by the tread's stiffness (statics, modes). docs/tyres.md.
 */
import { Dual, dAddConst, dAsin, dAtan, dConst, dDiv, dMul, dScale, dSqrt, tangentMode, dvAdd, dvAddScaledDual, dvComponent, dvConst, dvCross, dvDot, dvNormalize, dvScale, dvSetComponent, dvSub } from '../../kernel/dual';
import { ArgumentError } from '../../kernel/errors';
import { TyreForce } from '../forces';
import { DualTape } from './dual-tape';
import { NUMBERS } from './arith';
import { Forward4 } from './forward4';
import type { TyreForceDuals, TyreModel } from './model';

export interface SlipTyreOptions {
  /** The speed (mm/s) below which the slips' denominator is held up, smoothly: √(V_cx² + v_low²). Default 1000. */
  readonly lowSpeed?: number;
  /** The road under the wheel, as TyreForce takes it. */
  readonly road?: { body: number; point: ArrayLike<number> } | null;
}

/** What one evaluation found (plain numbers): slips in rad, forces N, moment N·mm, velocities mm/s. */
export interface SlipState {
  slipAngle: number; slipRatio: number; camber: number; load: number;
  fx: number; fy: number; mz: number;
  /** Slip velocity along e_x and e_y, and the wheel's turn rate about e_z over the road's. */
  vsx: number; vsy: number; wz: number;
  /** World e_x and e_y at the contact. */
  forward: Float64Array; lateral: Float64Array;
  /** The anchor springs' energy (N·mm), while an anchor holds the contact. */
  anchorEnergy: number;
}

const ORIGIN = Float64Array.of(0, 0, 0);
const AT_REST = new Float64Array(12);

/** What a caller sets between evaluations (shared with the element's value twin: set the fields, keep the object). */
export interface SlipInput {
  /** Fixed slips for quasi-static use (slipAngle rad, slipRatio), or null: from the velocities. */
  prescribed: { slipAngle: number; slipRatio: number } | null;
  /**
   * At rest (statics, modes): the contact held to a world point `at` [x, y] (mm, flat ground
   * only) by the tread's stiffness along e_x and e_y (N/mm), while the tyre carries load; null: free.
   */
  anchor: { at: readonly [number, number]; stiffness: readonly [number, number] } | null;
}

interface TapeEntry { tape: DualTape; out: TyreForceDuals; result: TyreForceDuals }

export class SlipTyreForce extends TyreForce {
  readonly lowSpeed: number;
  /** Prescribed slips and the anchor at rest (SlipInput); shared with the element's value twin: set its fields. */
  readonly input: SlipInput = { prescribed: null, anchor: null };
  readonly slip: SlipState = {
    slipAngle: 0, slipRatio: 0, camber: 0, load: 0, fx: 0, fy: 0, mz: 0, vsx: 0, vsy: 0, wz: 0,
    forward: new Float64Array(3), lateral: new Float64Array(3), anchorEnergy: 0,
  };
  private readonly ex = this.vec(); private readonly ey = this.vec(); private readonly ez = this.vec();
  private readonly omega = this.vec(); private readonly vc = this.vec(); private readonly lever = this.vec(); private readonly xg = this.vec();
  private readonly M = this.vec();
  private readonly sc = [this.dual(), this.dual(), this.dual(), this.dual(), this.dual(), this.dual(), this.dual()];
  /** A tape and its output per dual width (the element and its width-0 value twin share this map). */
  private readonly tapes = new Map<number, TapeEntry>();

  constructor(owner: string, body: number, centre: ArrayLike<number>, axis: ArrayLike<number>, readonly tyre: TyreModel,
    options: SlipTyreOptions & { radius?: number; stiffness?: number; damping?: number; ground?: number } = {}) {
    super(owner, body, centre, axis, options.radius ?? tyre.unloadedRadius, options.stiffness ?? tyre.verticalStiffness,
      options.damping ?? 0, options.ground ?? 0, options.road ?? null);
    this.lowSpeed = options.lowSpeed ?? 1000;
    if (!(this.lowSpeed > 0)) throw new ArgumentError(`${owner}.lowSpeed`, `must be positive, got ${this.lowSpeed}`, `${owner}: lowSpeed must be positive, got ${this.lowSpeed}`);
  }

  /** The tape of dual width n. */
  private tapeOf(n: number): TapeEntry {
    let entry = this.tapes.get(n);
    if (!entry) {
      const duals = () => ({ fx: new Dual(n), fy: new Dual(n), mz: new Dual(n) });
      entry = { tape: new DualTape(n), out: duals(), result: duals() };
      this.tapes.set(n, entry);
    }
    return entry;
  }

  private readonly plain = { fx: 0, fy: 0, mz: 0 };

  /**
   * The tyre model's forces as duals of this element's width. Values only: in plain numbers.
   * Derivatives: the model on a register file (forward4.ts) seeded with its four inputs,
   * chained into the element's columns by ∂f/∂u_i; in the kernel's tangent mode,
   * the full width, so that second derivatives come out too.
   */
  private modelForces(alpha: Dual, kappa: Dual, load: Dual, gamma: Dual): TyreForceDuals {
    const n = this.n, mine = this.tapeOf(n);
    if (n === 0) {
      const f = this.tyre.forces(NUMBERS, alpha.v, kappa.v, load.v, gamma.v, this.plain);
      dConst(mine.result.fx, f.fx); dConst(mine.result.fy, f.fy); dConst(mine.result.mz, f.mz);
      return mine.result;
    }
    if (tangentMode()) return this.tyre.forces(mine.tape.reset(), alpha, kappa, load, gamma, mine.out);
    const f4 = this.forward.reset(), inputs = this.inputs;
    inputs[0] = alpha; inputs[1] = kappa; inputs[2] = load; inputs[3] = gamma;
    const f = this.tyre.forces(f4, f4.seed(alpha.v, 0), f4.seed(kappa.v, 1), f4.seed(load.v, 2), f4.seed(gamma.v, 3), this.registers);
    chain(mine.result.fx, f4, f.fx, inputs); chain(mine.result.fy, f4, f.fy, inputs); chain(mine.result.mz, f4, f.mz, inputs);
    return mine.result;
  }
  private readonly forward = new Forward4();
  private readonly registers = { fx: 0, fy: 0, mz: 0 };
  private readonly inputs: Dual[] = [];

  protected override compute(): void {
    this.contact();
    const load = this.normalLoad();
    const slip = this.slip;
    slip.fx = slip.fy = slip.mz = slip.load = slip.anchorEnergy = 0;
    if (!load) return;
    const [vsx, vsy, vcx, den, alpha, kappa, gamma] = this.sc;
    // the contact's frame: forward, left, up
    dvConst(this.ez, 0, 0, 1);
    dvCross(this.ex, this.a, this.ez); dvNormalize(this.ex, this.ex);
    dvCross(this.ey, this.ez, this.ex);
    dvComponent(gamma, this.a, 2); dAsin(gamma, gamma);
    // the contact on the road, p above the rim's lowest point x: its slip velocity, and the centre's forward speed
    dvAddScaledDual(this.xg, this.x, this.ez, this.p);
    this.contactVelocity();
    this.velocityOf(this.omega, 0, ORIGIN, true);
    if (this.road) { this.velocityOf(this.vc, 1, ORIGIN, true); dvSub(this.omega, this.omega, this.vc); }
    dvSub(this.lever, this.xg, this.x);
    dvCross(this.vc, this.omega, this.lever); dvAdd(this.v, this.v, this.vc);
    dvDot(vsx, this.v, this.ex); dvDot(vsy, this.v, this.ey);
    dvSub(this.lever, this.c, this.xg);
    dvCross(this.vc, this.omega, this.lever); dvAdd(this.vc, this.vc, this.v);
    dvDot(vcx, this.vc, this.ex);
    const prescribed = this.input.prescribed;
    if (prescribed) { dConst(alpha, prescribed.slipAngle); dConst(kappa, prescribed.slipRatio); } else {
      dMul(den, vcx, vcx); dAddConst(den, den, this.lowSpeed * this.lowSpeed); dSqrt(den, den);
      dDiv(kappa, vsx, den); dScale(kappa, kappa, -1);
      dDiv(alpha, vsy, den); dAtan(alpha, alpha);
    }
    const out = this.modelForces(alpha, kappa, load, gamma);
    dvScale(this.F, this.ex, out.fx);
    dvAddScaledDual(this.F, this.F, this.ey, out.fy);
    dvAddScaledDual(this.F, this.F, this.ez, load);
    dvScale(this.M, this.ez, out.mz);
    const anchor = this.input.anchor;
    if (anchor && !this.road) this.holdAt(anchor);
    this.apply(0, this.xg, this.F, this.M);
    if (this.road) this.apply(1, this.xg, this.F, this.M, -1);
    Object.assign(slip, { slipAngle: alpha.v, slipRatio: kappa.v, camber: gamma.v, load: load.v, fx: out.fx.v, fy: out.fy.v, mz: out.mz.v, vsx: vsx.v, vsy: vsy.v });
    slip.wz = this.omega.v[2];
    slip.forward.set(this.ex.v); slip.lateral.set(this.ey.v);
  }

  /** Adds −k_x (Δ·e_x) e_x − k_y (Δ·e_y) e_y to F, Δ = x_r − anchor (horizontal). */
  private holdAt(anchor: NonNullable<SlipInput['anchor']>): void {
    const [dx, dy] = this.sc;
    dvConst(this.lever, anchor.at[0], anchor.at[1], 0);
    dvSub(this.lever, this.xg, this.lever);
    dvSetComponent(this.lever, 2, dConst(dy, 0));
    dvDot(dx, this.lever, this.ex); dvDot(dy, this.lever, this.ey);
    this.slip.anchorEnergy = 0.5 * (anchor.stiffness[0] * dx.v * dx.v + anchor.stiffness[1] * dy.v * dy.v);
    dvAddScaledDual(this.F, this.F, this.ex, dScale(dx, dx, -anchor.stiffness[0]));
    dvAddScaledDual(this.F, this.F, this.ey, dScale(dy, dy, -anchor.stiffness[1]));
  }

  /** The vertical spring's energy, and the anchor's while one holds the contact. */
  override potential(state: Float64Array, offsets: Int32Array): number {
    if (this.n) return this.values().potential(state, offsets);
    const vertical = super.potential(state, offsets);
    if (!this.input.anchor) return vertical;
    this.begin(state, offsets, AT_REST);
    this.compute();
    return vertical + this.slip.anchorEnergy;
  }

  /**
   * Power taken out by the tyre: the vertical damper's (TyreForce) plus the slip's,
   * −(fx V_sx + fy V_sy + mz ω_z), the work rate of the road's force and moment on the wheel's
   * material at the contact (≥ 0 where the forces oppose the slip; the offsets can feed a little).
   */
  override dissipation(state: Float64Array, offsets: Int32Array, velocity: Float64Array): number {
    if (this.n) return this.values().dissipation(state, offsets, velocity);
    const vertical = super.dissipation(state, offsets, velocity);
    this.begin(state, offsets, velocity);
    this.compute();
    const s = this.slip;
    return vertical - (s.fx * s.vsx + s.fy * s.vsy + s.mz * s.wz);
  }
}

/** out = f ∘ u: value f, derivatives Σ_i ∂f/∂u_i · u_i.d (f a register of the four inputs u). */
function chain(out: Dual, f4: Forward4, f: number, u: readonly Dual[]): void {
  out.v = f4.val(f);
  const od = out.d, g0 = f4.deriv(f, 0), g1 = f4.deriv(f, 1), g2 = f4.deriv(f, 2), g3 = f4.deriv(f, 3);
  const d0 = u[0].d, d1 = u[1].d, d2 = u[2].d, d3 = u[3].d;
  for (let k = 0, len = od.length; k < len; k++) od[k] = g0 * d0[k] + g1 * d1[k] + g2 * d2[k] + g3 * d3[k];
}
