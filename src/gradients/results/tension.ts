/**
 * An element's tension as a result of a simulation's gradient (src/gradients/run.ts;
 * docs/sensitivity.md): a spring, damper or spring-damper between two points,
 * T = S(L) + D(L̇), L = |x_b − x_a|, L̇ = u·(ẋ_b − ẋ_a), u = (x_b − x_a)/L (mates/forces.ts
 * PointToPointForce: positive pulls the ends together). Its derivatives by hand, on the state
 * perturbed on the right (q ∘ exp(δ), δ = (δω, δt) in body axes, as the integrator's tangent):
 *   dT = S′ dL + D′ dL̇,  dL = u·dΔx,  dL̇ = ((Δẋ − u L̇)/L)·dΔx + u·dΔẋ,
 * so T's covector is A = S′u + D′(Δẋ − uL̇)/L on Δx and B = D′u on Δẋ; a point x = t + Rp,
 * ẋ = R(ω × p + v) takes a·dx = (Rᵀa)·δt + (p × Rᵀa)·δω, b·dẋ = (w × Rᵀb)·δω + (p × Rᵀb)·dω + (Rᵀb)·dv,
 * w = ω × p + v.
 */
import { rotationMatrix } from '../../../kernel/dual';
import { LinearLaw, PointToPointForce } from '../../../mates/forces';
import { forceEnds } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { GradientRefusal } from '../refusal';
import type { HardpointParameter } from '../parameters/hardpoints';
import { coefficientTension, type CoefficientParameter } from '../parameters/coefficients';

/** Per parameter: what T reads of it directly, with the state held (a geometry file's combined number: several, weighted). */
type Explicit = { kind: 'stiffness' | 'damping'; x0: number } | { kind: 'free_length'; slope: number } | { kind: 'end'; end: 0 | 1; axis: 0 | 1 | 2 } | { kind: 'law'; of: (L: number, Ldot: number) => number };
type Part = { kind: string; element?: string } | HardpointParameter;

const cross = (x: ArrayLike<number>, y: ArrayLike<number>): number[] => [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];

export class TensionResult {
  private readonly blk: PointToPointForce;
  private readonly ends: { c0: number; offset: number; local: readonly number[] }[];
  private readonly explicitOf: { x: Explicit; w: number }[][];
  private readonly law = new Float64Array(2);
  private readonly R = new Float64Array(9);
  // the last evaluation's geometry, for `explicit`
  private A = [0, 0, 0]; private B = [0, 0, 0]; private L = 0; private Ldot = 0;
  private readonly Rs = [new Float64Array(9), new Float64Array(9)];
  private readonly omega = [[0, 0, 0], [0, 0, 0]];

  /** Throws a message (string) when the element has no tension of this kind. */
  constructor(dyn: DynamicsModel, layout: Int32Array, readonly element: string,
    parameters: readonly (Part | { kind: 'combined'; parts: readonly { parameter: Part; weight: number }[]; coefficients?: readonly { element: string; what: string; w: number }[] })[]) {
    const el = dyn.elements.find((e) => e.id === element);
    if (!el) throw new GradientRefusal(`no force element "${element}"`);
    if (!(el.block instanceof PointToPointForce)) throw new GradientRefusal(`element "${element}" is a ${el.type}; a tension is a spring's, damper's or spring-damper's`);
    const blk = el.block;
    this.blk = blk;
    const { system } = dyn;
    this.ends = [0, 1].map((k) => ({ c0: layout[blk.vars[k]], offset: system.variables[blk.vars[k]].offset, local: Array.from(k === 0 ? blk.a : blk.b) }));
    const doc = forceEnds(dyn.model.doc.forces![element])!;
    const one = (p: Part): Explicit | null => {
      if ((p.kind === 'stiffness' || p.kind === 'damping') && (p as { element: string }).element === element) {
        const law = p.kind === 'stiffness' ? blk.spring : blk.damper;
        return law instanceof LinearLaw ? { kind: p.kind, x0: law.x0 } : null;
      }
      if (p.kind === 'coefficient') { const of = coefficientTension(dyn, p as CoefficientParameter, element); return of && { kind: 'law', of }; }
      if (p.kind !== 'hardpoint') return null;
      const h = p as HardpointParameter;
      if ((h.group && h.group !== 'points') || h.still) return null;
      const ref = `${h.part}.${h.entity}`;
      const end = doc.a === ref ? 0 : doc.b === ref ? 1 : -1;
      return end < 0 ? null : { kind: 'end', end: end as 0 | 1, axis: h.axis };
    };
    this.explicitOf = parameters.map((p) => {
      if (p.kind !== 'combined') { const x = one(p as Part); return x ? [{ x, w: 1 }] : []; }
      // a geometry number: the sum over the assembly numbers it moves (rate, ends, a regenerated free length)
      const c = p as { parts: readonly { parameter: Part; weight: number }[]; coefficients?: readonly { element: string; what: string; w: number }[] };
      const out = c.parts.flatMap(({ parameter, weight }) => { const x = one(parameter); return x ? [{ x, w: weight }] : []; });
      for (const f of c.coefficients ?? []) {
        if (f.element !== element || f.what !== 'free_length') continue;
        if (!(blk.spring instanceof LinearLaw)) throw new GradientRefusal(`element "${element}": its free length moves but its spring is not linear`);
        out.push({ x: { kind: 'free_length', slope: blk.spring.slope }, w: f.w });
      }
      return out;
    });
  }

  /** Whether T reads parameter j directly. */
  reads(j: number): boolean { return this.explicitOf[j].length > 0; }

  /**
   * T at the current system state with velocities v; with w ≠ 0 adds w·∂T/∂(q, v) into
   * (cq, cv) (tangent size).
   */
  evaluate(state: Float64Array, v: Float64Array, cq: Float64Array | null, cv: Float64Array | null, w: number, _t = 0): number {
    const x: number[][] = [], xd: number[][] = [], u: number[][] = [];
    this.ends.forEach((e, k) => {
      const R = this.Rs[k];
      rotationMatrix(R, state, e.offset + 3);
      const p = e.local;
      const om = e.c0 >= 0 ? [v[e.c0], v[e.c0 + 1], v[e.c0 + 2]] : [0, 0, 0];
      const vb = e.c0 >= 0 ? [v[e.c0 + 3], v[e.c0 + 4], v[e.c0 + 5]] : [0, 0, 0];
      this.omega[k] = om;
      const wl = cross(om, p).map((c, i) => c + vb[i]);
      u.push(wl);
      x.push([0, 1, 2].map((i) => state[e.offset + i] + R[i * 3] * p[0] + R[i * 3 + 1] * p[1] + R[i * 3 + 2] * p[2]));
      xd.push([0, 1, 2].map((i) => R[i * 3] * wl[0] + R[i * 3 + 1] * wl[1] + R[i * 3 + 2] * wl[2]));
    });
    const dx = [0, 1, 2].map((i) => x[1][i] - x[0][i]), dxd = [0, 1, 2].map((i) => xd[1][i] - xd[0][i]);
    const L = Math.hypot(dx[0], dx[1], dx[2]), un = dx.map((c) => c / L);
    const Ldot = un[0] * dxd[0] + un[1] * dxd[1] + un[2] * dxd[2];
    let T = 0, S1 = 0, D1 = 0;
    if (this.blk.spring) { this.blk.spring.evaluate(L, this.law); T += this.law[0]; S1 = this.law[1]; }
    if (this.blk.damper) { this.blk.damper.evaluate(Ldot, this.law); T += this.law[0]; D1 = this.law[1]; }
    this.A = [0, 1, 2].map((i) => S1 * un[i] + (D1 * (dxd[i] - un[i] * Ldot)) / L);
    this.B = un.map((c) => D1 * c);
    this.L = L; this.Ldot = Ldot;
    if (!cq || !cv || w === 0) return T;
    this.ends.forEach((e, k) => {
      if (e.c0 < 0) return;
      const s = k === 1 ? w : -w, R = this.Rs[k], p = e.local;
      const ra = [0, 1, 2].map((i) => R[i] * this.A[0] + R[3 + i] * this.A[1] + R[6 + i] * this.A[2]);
      const rb = [0, 1, 2].map((i) => R[i] * this.B[0] + R[3 + i] * this.B[1] + R[6 + i] * this.B[2]);
      const pa = cross(p, ra), wb = cross(u[k], rb), pb = cross(p, rb);
      for (let i = 0; i < 3; i++) {
        cq[e.c0 + i] += s * (pa[i] + wb[i]);
        cq[e.c0 + 3 + i] += s * ra[i];
        cv[e.c0 + i] += s * pb[i];
        cv[e.c0 + 3 + i] += s * rb[i];
      }
    });
    return T;
  }

  /** ∂T/∂p_j with the state held, at the last `evaluate`. */
  explicit(j: number): number {
    return this.explicitOf[j].reduce((s, { x, w }) => s + w * this.explicitOne(x), 0);
  }

  private explicitOne(x: Explicit): number {
    // T = k(L − x₀) + y₀: ∂T/∂x₀ = −k
    if (x.kind === 'free_length') return -x.slope;
    if (x.kind === 'law') return x.of(this.L, this.Ldot);
    if (x.kind !== 'end') return (x.kind === 'stiffness' ? this.L : this.Ldot) - x.x0;
    // an end moved by e_k in its part: Δx by ±R e_k, Δẋ by ±R(ω × e_k)
    const R = this.Rs[x.end], e = [0, 0, 0];
    e[x.axis] = 1;
    const oe = cross(this.omega[x.end], e);
    let s = 0;
    for (let i = 0; i < 3; i++) s += this.A[i] * R[i * 3 + x.axis] + this.B[i] * (R[i * 3] * oe[0] + R[i * 3 + 1] * oe[1] + R[i * 3 + 2] * oe[2]);
    return x.end === 1 ? s : -s;
  }
}
