/**
 * The steady-state Magic Formula of TNO MF-Tyre 6.1 (Pacejka, "Tire and Vehicle Dynamics",
 * 3rd ed., §4.3.2, eqs. 4.E1–4.E78, without turn slip, at the nominal inflation pressure),
 * pure and combined slip, with the 5.2 variants where a 5.2 file is read. As TNO's solver
 * and MFeval do, the slip angle and camber enter as themselves (not tan α, sin γ), the
 * aligning moment's trail and camber terms follow Besselink et al. (2010, eqs. A56–A60):
 * QDZ3·γ and QBZ4·γ signed, s with Fy/FNOMIN.
 *
 * Written once over an Arith (arith.ts), so the same lines give plain numbers and, on a
 * DualTape, the exact derivatives with respect to whatever the caller seeded (slip, load,
 * camber, or the poses and velocities behind them).
 */
import { sgn } from './dual-tape';
import type { Arith } from './arith';
import type { MfTyreData } from './coefficients';
import type { TyreOut, TyreModel } from './model';

/** Guards of the formula's divisions (Cy·Dy, Cx·Dx, Kyα at zero load), as MF-Tyre's ε. */
const EPS = 1e-6;

interface Lateral<T> { fy0: T; kya: T; shy: T; svy: T; by: T; muy: T }

export class MagicFormulaTyre implements TyreModel {
  readonly kind = 'magic-formula' as const;
  readonly nominalLoad: number;
  readonly unloadedRadius: number;
  readonly verticalStiffness: number;
  /** The tread's stiffness along x and y at rest (N/mm), from [STRUCTURAL] where the file has it: an anchor's (SlipTyreForce). */
  readonly treadStiffness: readonly [number, number] | null;
  /** FNOMIN·LFZO, N. */
  private readonly fz0: number;

  constructor(readonly data: MfTyreData) {
    this.nominalLoad = data.nominalLoad;
    this.unloadedRadius = data.unloadedRadius * 1000;
    this.verticalStiffness = data.verticalStiffness / 1000;
    this.fz0 = data.nominalLoad * data.c.LFZO;
    this.treadStiffness = data.treadStiffness ? [data.treadStiffness[0] / 1000, data.treadStiffness[1] / 1000] : null;
  }

  forces<T>(t: Arith<T>, alpha: T, kappa: T, fz: T, gamma: T, out: TyreOut<T>): TyreOut<T> {
    if (!(t.val(fz) > 0)) { out.fx = t.c(0); out.fy = t.c(0); out.mz = t.c(0); return out; }
    const c = this.data.c;
    const dfz = t.lin(-1, 1 / this.fz0, fz);
    const { fx0, kxk } = this.longitudinal(t, kappa, fz, dfz, gamma);
    const lat = this.lateral(t, alpha, fz, dfz, gamma);
    // combined slip: weighting functions (4.E50–4.E67)
    const gxa = this.weight(t, c.RCX1, t.mul(t.plus(t.k(t.sq(gamma), c.RBX3), c.RBX1), t.k(t.cos(t.atan(t.k(kappa, c.RBX2))), c.LXAL)),
      t.plus(alpha, c.RHX1), t.c(c.RHX1), t.atMostOne(t.lin(c.REX1, c.REX2, dfz)));
    const fx = t.mul(gxa, fx0);
    const byk = t.mul(t.plus(t.k(t.sq(gamma), c.RBY4), c.RBY1), t.k(t.cos(t.atan(t.k(t.plus(alpha, -c.RBY3), c.RBY2))), c.LYKA));
    const shyk = t.lin(c.RHY1, c.RHY2, dfz);
    const gyk = this.weight(t, c.RCY1, byk, t.add(kappa, shyk), shyk, t.atMostOne(t.lin(c.REY1, c.REY2, dfz)));
    const dvyk = t.mul(t.mul(lat.muy, fz), t.mul(t.add(t.lin(c.RVY1, c.RVY2, dfz), t.k(gamma, c.RVY3)), t.cos(t.atan(t.k(alpha, c.RVY4)))));
    const svyk = t.mul(dvyk, t.k(t.sin(t.k(t.atan(t.k(kappa, c.RVY6)), c.RVY5)), c.LVYKA));
    const fy = t.add(t.mul(gyk, lat.fy0), svyk);
    // the 6.1 moment takes the trail's force at zero camber (4.E74); 5.2 the combined force less SVyk
    const fyTrail = this.data.version === '5.2' ? t.sub(fy, svyk) : t.mul(gyk, this.lateral(t, alpha, fz, dfz, t.c(0)).fy0);
    out.fx = fx; out.fy = fy;
    out.mz = t.k(this.aligning(t, alpha, kappa, fz, dfz, gamma, lat, kxk, fx, fy, fyTrail), 1000);
    return out;
  }

  /** Pure longitudinal slip (4.E9–4.E18): Fx0 and the slip stiffness Kxκ. */
  private longitudinal<T>(t: Arith<T>, kappa: T, fz: T, dfz: T, gamma: T): { fx0: T; kxk: T } {
    const c = this.data.c;
    const cx = c.PCX1 * c.LCX;
    const mux = t.mul(t.lin(c.PDX1, c.PDX2, dfz), t.k(t.lin(1, -c.PDX3, t.sq(gamma)), c.LMUX));
    const dx = t.mul(mux, fz);
    const kxk = t.mul(t.mul(fz, t.lin(c.PKX1, c.PKX2, dfz)), t.k(t.exp(t.k(dfz, c.PKX3)), c.LKX));
    const bx = t.div(kxk, t.plus(t.k(dx, cx), EPS * sgn(t.val(dx))));
    const shx = t.k(t.lin(c.PHX1, c.PHX2, dfz), c.LHX);
    const svx = t.mul(fz, t.k(t.lin(c.PVX1, c.PVX2, dfz), c.LVX * c.LMUX));
    const kx = t.add(kappa, shx);
    const ex = t.atMostOne(t.k(t.add(t.lin(c.PEX1, c.PEX2, dfz), t.k(t.sq(dfz), c.PEX3)), (1 - c.PEX4 * sgn(t.val(kx))) * c.LEX));
    return { fx0: t.add(t.mul(dx, magic(t, 'sin', cx, bx, kx, ex)), svx), kxk };
  }

  /** Pure side slip (4.E19–4.E30; 5.2: SHy with PHY3, PKY4 = 2). */
  private lateral<T>(t: Arith<T>, alpha: T, fz: T, dfz: T, gamma: T): Lateral<T> {
    const c = this.data.c, fz0 = this.fz0;
    const g2 = t.sq(gamma);
    const kya = t.k(t.mul(t.lin(1, -c.PKY3, t.abs(gamma)),
      t.sin(t.k(t.atan(t.div(t.k(fz, 1 / fz0), t.plus(t.k(g2, c.PKY5), c.PKY2))), c.PKY4))), c.PKY1 * fz0 * c.LKY);
    const svyg = t.mul(t.mul(fz, t.lin(c.PVY3, c.PVY4, dfz)), t.k(gamma, c.LKYC * c.LMUY));
    let shy = t.k(t.lin(c.PHY1, c.PHY2, dfz), c.LHY);
    if (this.data.version === '5.2') shy = t.add(shy, t.k(gamma, c.PHY3 * c.LKYC));
    else {
      const kyg0 = t.mul(fz, t.k(t.lin(c.PKY6, c.PKY7, dfz), c.LKYC));
      shy = t.add(shy, t.div(t.sub(t.mul(kyg0, gamma), svyg), t.plus(kya, EPS * sgn(t.val(kya)))));
    }
    const svy = t.add(t.mul(fz, t.k(t.lin(c.PVY1, c.PVY2, dfz), c.LVY * c.LMUY)), svyg);
    const ay = t.add(alpha, shy);
    const cy = c.PCY1 * c.LCY;
    const muy = t.mul(t.lin(c.PDY1, c.PDY2, dfz), t.k(t.lin(1, -c.PDY3, g2), c.LMUY));
    const dy = t.mul(muy, fz);
    const ey = t.atMostOne(t.mul(t.lin(c.PEY1, c.PEY2, dfz),
      t.k(t.sub(t.lin(1, c.PEY5, g2), t.k(t.lin(c.PEY3, c.PEY4, gamma), sgn(t.val(ay)))), c.LEY)));
    const by = t.div(kya, t.plus(t.k(dy, cy), EPS * sgn(t.val(dy))));
    return { fy0: t.add(t.mul(dy, magic(t, 'sin', cy, by, ay, ey)), svy), kya, shy, svy, by, muy };
  }

  /** A combined-slip weighting function G = cos(C atan(B x …))/cos(C atan(B x0 …)) (4.E51, 4.E59). */
  private weight<T>(t: Arith<T>, cc: number, b: T, x: T, x0: T, e: T): T {
    return t.div(magic(t, 'cos', cc, b, x, e), magic(t, 'cos', cc, b, x0, e));
  }

  /** The aligning moment, combined slip (4.E31–4.E49, 4.E71–4.E78), N·m. */
  private aligning<T>(t: Arith<T>, alpha: T, kappa: T, fz: T, dfz: T, gamma: T, lat: Lateral<T>,
    kxk: T, fx: T, fy: T, fyTrail: T): T {
    const c = this.data.c, r0 = this.data.unloadedRadius;
    const kyaP = t.plus(lat.kya, EPS * sgn(t.val(lat.kya)));
    const ar = t.add(alpha, t.add(lat.shy, t.div(lat.svy, kyaP)));
    const at = t.add(alpha, t.add(t.lin(c.QHZ1, c.QHZ2, dfz), t.mul(t.lin(c.QHZ3, c.QHZ4, dfz), gamma)));
    const bt = t.mul(t.add(t.lin(c.QBZ1, c.QBZ2, dfz), t.k(t.sq(dfz), c.QBZ3)),
      t.k(t.add(t.lin(1, c.QBZ4, gamma), t.k(t.abs(gamma), c.QBZ5)), c.LKY / c.LMUY));
    const ct = c.QCZ1;
    const dt = t.mul(t.mul(t.lin(c.QDZ1, c.QDZ2, dfz), t.add(t.lin(1, c.QDZ3, gamma), t.k(t.sq(gamma), c.QDZ4))), t.k(fz, (r0 / this.fz0) * c.LTR));
    const et = t.atMostOne(t.mul(t.add(t.lin(c.QEZ1, c.QEZ2, dfz), t.k(t.sq(dfz), c.QEZ3)),
      t.plus(t.k(t.mul(t.lin(c.QEZ4, c.QEZ5, gamma), t.atan(t.k(t.mul(bt, at), ct))), 2 / Math.PI), 1)));
    const br = t.add(t.c(c.QBZ9 * c.LKY / c.LMUY), t.k(lat.by, c.QBZ10 * c.PCY1 * c.LCY));
    const cosA = t.cos(alpha);
    const camberR = t.mul(t.add(t.lin(c.QDZ8, c.QDZ9, dfz), t.mul(t.lin(c.QDZ10, c.QDZ11, dfz), t.abs(gamma))), t.k(gamma, c.LKZC));
    const dr = t.mul(t.k(fz, r0 * c.LMUY), t.mul(t.add(t.k(t.lin(c.QDZ6, c.QDZ7, dfz), c.LRES), camberR), cosA));
    // equivalent slip angles of combined slip (A54, A55)
    const kr = t.mul(t.div(kxk, kyaP), kappa);
    const arEq = equivalent(t, ar, kr), atEq = equivalent(t, at, kr);
    const trail = t.mul(t.mul(dt, magic(t, 'cos', ct, bt, atEq, et)), cosA);
    const mzr = t.mul(dr, t.cos(t.atan(t.mul(br, arEq))));
    const s = t.k(t.add(t.lin(c.SSZ1, c.SSZ2 / this.data.nominalLoad, fy), t.mul(t.lin(c.SSZ3, c.SSZ4, dfz), gamma)), r0 * c.LS);
    return t.add(t.sub(mzr, t.mul(trail, fyTrail)), t.mul(s, fx));
  }
}

/** sin or cos of C·atan(B x − E (B x − atan(B x))): the Magic Formula itself. */
function magic<T>(t: Arith<T>, f: 'sin' | 'cos', cc: number, b: T, x: T, e: T): T {
  const bx = t.mul(b, x);
  const arg = t.k(t.atan(t.sub(bx, t.mul(e, t.sub(bx, t.atan(bx))))), cc);
  return f === 'sin' ? t.sin(arg) : t.cos(arg);
}

/** atan(√(tan²a + k²))·sgn(a); a itself where both vanish (where the root has no derivative). */
function equivalent<T>(t: Arith<T>, a: T, k: T): T {
  const ta = t.div(t.sin(a), t.cos(a));
  const r2 = t.add(t.sq(ta), t.sq(k));
  if (t.val(r2) < 1e-24) return a;
  return t.k(t.atan(t.sqrt(r2)), sgn(t.val(a)));
}
