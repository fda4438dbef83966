/**
 * d|b − a|/dp_k at the design points: the rate of a two-point element's length, which a free
 * length regenerated from its ends follows, along hardpoint coordinate k (the element's ends
 * are hardpoints ja and jb, coordinates 3j … 3j + 2; −1 for an end that is none). Shared by
 * the load gradients (loads.ts) and the wheel rates' (wheel-rate.ts).
 */
export function freeLengthRate(blk: { readonly a: ArrayLike<number>; readonly b: ArrayLike<number> }, ja: number, jb: number, k: number): number {
  const A = blk.a, B = blk.b, L = Math.hypot(B[0] - A[0], B[1] - A[1], B[2] - A[2]);
  let rate = 0;
  for (let c = 0; c < 3; c++) {
    if (jb >= 0 && k === 3 * jb + c) rate += (B[c] - A[c]) / L;
    if (ja >= 0 && k === 3 * ja + c) rate -= (B[c] - A[c]) / L;
  }
  return rate;
}
