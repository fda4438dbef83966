/**
 * Tangent mode's rules for duals seeded from a posed body (kernel/dual.ts dvRigidPoint,
 * dvRigidDirection, tvRigidVelocity): plain 3-vector algebra of the rotation, the point and
 * the outer direction's seeds, which dual.ts passes in while tangent mode is on.
 */
import { DualVec3, type TangentSeeds } from './dual-number';

/**
 * Tangent of a seeded world point R p + o (or direction R p) when the pose moves along the
 * body twist w = (ω_w, v_w) and the local geometry along ξ = (ω_ξ, v_ξ): value
 * R(ω_w×p + v_w + ω_ξ×p + v_ξ) (directions: R((ω_w + ω_ξ)×p)); the ω_j seed R(e_j×p)
 * becomes R(ω_w×(e_j×p) + e_j×ṗ) with ṗ the local move, the v_j seed R e_j becomes R(ω_w×e_j).
 */
export function rigidTangent(o: DualVec3, R: Float64Array, p: ArrayLike<number>, col: number, isPoint: boolean, seeds: TangentSeeds): void {
  o.v.fill(0); o.d.fill(0);
  if (col < 0) return;
  const w = seeds.pose(col), x = seeds.local(col, p, isPoint);
  const ww = [w ? w[0] : 0, w ? w[1] : 0, w ? w[2] : 0], wv = [w ? w[3] : 0, w ? w[4] : 0, w ? w[5] : 0];
  const xw = [x ? x[0] : 0, x ? x[1] : 0, x ? x[2] : 0], xv = [x ? x[3] : 0, x ? x[4] : 0, x ? x[5] : 0];
  const pd = cross(xw, p);
  if (isPoint) for (let i = 0; i < 3; i++) pd[i] += xv[i];
  const wp = cross(ww, p);
  const val = rot(R, [wp[0] + pd[0] + (isPoint ? wv[0] : 0), wp[1] + pd[1] + (isPoint ? wv[1] : 0), wp[2] + pd[2] + (isPoint ? wv[2] : 0)]);
  o.v[0] = val[0]; o.v[1] = val[1]; o.v[2] = val[2];
  const n = o.n;
  for (let j = 0; j < 3; j++) {
    const e = [0, 0, 0]; e[j] = 1;
    const a = cross(ww, cross(e, p)), b = cross(e, pd);
    const sw = rot(R, [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    for (let i = 0; i < 3; i++) o.d[i * n + col + j] = sw[i];
    if (isPoint) {
      const sv = rot(R, cross(ww, e));
      for (let i = 0; i < 3; i++) o.d[i * n + col + 3 + j] = sv[i];
    }
  }
}

/**
 * The second level's mixed tangent of a seeded world point R p + o (or direction R p): the
 * rate along r (body twist w_r = (ω_r, v_r), local move ṗ_r = ω_ξ×p + v_ξ) of its tangent
 * along s (body twist w_s = (ω_s, v_s), no local move: NaN where s moves the geometry), the
 * pose at q∘exp(r w_r)∘exp(s w_s): value R(ω_r×(ω_s×p + v_s) + ω_s×ṗ_r) (directions without
 * v_s); the ω_j seed's R(ω_r×(ω_s×(e_j×p)) + ω_s×(e_j×ṗ_r)), the v_j seed's R(ω_r×(ω_s×e_j)).
 */
export function rigidMixedTangent(o: DualVec3, R: Float64Array, p: ArrayLike<number>, col: number, isPoint: boolean, s: TangentSeeds, r: TangentSeeds): void {
  o.v.fill(0); o.d.fill(0);
  if (col < 0) return;
  if (s.local(col, p, isPoint)) { o.v.fill(NaN); o.d.fill(NaN); return; }
  const w = s.pose(col), u = r.pose(col), x = r.local(col, p, isPoint);
  const ws = [w ? w[0] : 0, w ? w[1] : 0, w ? w[2] : 0], vs = [w && isPoint ? w[3] : 0, w && isPoint ? w[4] : 0, w && isPoint ? w[5] : 0];
  const wr = [u ? u[0] : 0, u ? u[1] : 0, u ? u[2] : 0];
  const pr = x ? cross([x[0], x[1], x[2]], p) : [0, 0, 0];
  if (x && isPoint) for (let i = 0; i < 3; i++) pr[i] += x[3 + i];
  const val = rot(R, add(cross(wr, add(cross(ws, p), vs)), cross(ws, pr)));
  o.v[0] = val[0]; o.v[1] = val[1]; o.v[2] = val[2];
  const n = o.n;
  for (let j = 0; j < 3; j++) {
    const e = [0, 0, 0]; e[j] = 1;
    const sw = rot(R, add(cross(wr, cross(ws, cross(e, p))), cross(ws, cross(e, pr))));
    for (let i = 0; i < 3; i++) o.d[i * n + col + j] = sw[i];
    if (isPoint) {
      const sv = rot(R, cross(wr, cross(ws, e)));
      for (let i = 0; i < 3; i++) o.d[i * n + col + 3 + j] = sv[i];
    }
  }
}

/**
 * Tangent mode of a material point's world velocity R a, a = ω × p + v (or, `angular`, the
 * world turn rate R ω; ξ = (ω, v) the body's velocity at ξ[b..b+5], held along s): with the

 * the step columns R(e_j × a) and velocity columns R(e_j × p), R e_j turn and move alike.
 * Called in tangent mode by dual.ts tvRigidVelocity.
 */
export function rigidVelocityTangent(o: DualVec3, R: Float64Array, xi: ArrayLike<number>, b: number, vcol: number, p: ArrayLike<number>, angular: boolean, seeds: TangentSeeds): void {
  o.v.fill(0); o.d.fill(0);
  const n = o.n;
  if (n === 0) return;
  const w = seeds.pose(b), x = angular ? null : seeds.local(b, p, true);
  const ww = [w ? w[0] : 0, w ? w[1] : 0, w ? w[2] : 0];
  const om = [xi[b], xi[b + 1], xi[b + 2]], pp = [p[0], p[1], p[2]];
  const pd = x ? add(cross([x[0], x[1], x[2]], pp), [x[3], x[4], x[5]]) : [0, 0, 0];
  const a = angular ? om : add(cross(om, pp), [xi[b + 3], xi[b + 4], xi[b + 5]]);
  const ad = angular ? [0, 0, 0] : cross(om, pd);
  const val = rot(R, add(cross(ww, a), ad));
  o.v[0] = val[0]; o.v[1] = val[1]; o.v[2] = val[2];
  for (let j = 0; j < 3; j++) {
    const e = [0, 0, 0]; e[j] = 1;
    const step = rot(R, add(cross(ww, cross(e, a)), cross(e, ad)));
    const lin = rot(R, cross(ww, e));
    for (let i = 0; i < 3; i++) {
      o.d[i * n + b + j] = step[i];
      if (angular) o.d[i * n + vcol + j] = lin[i];
      else {
        const turn = rot(R, add(cross(ww, cross(e, pp)), cross(e, pd)));
        o.d[i * n + vcol + j] = turn[i];
        o.d[i * n + vcol + 3 + j] = lin[i];
      }
    }
  }
}

/** a × b (the rules' plain 3-vector algebra, module-level: no closure per call). */
function cross(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
/** R y, R row-major 3 × 3. */
function rot(R: Float64Array, y: readonly number[]): number[] {
  return [R[0] * y[0] + R[1] * y[1] + R[2] * y[2], R[3] * y[0] + R[4] * y[1] + R[5] * y[2], R[6] * y[0] + R[7] * y[1] + R[8] * y[2]];
}
function add(a: readonly number[], b: readonly number[]): number[] {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}
