/**
 * Mass of rigid bodies in the pose variables' own tangent coordinates (body-frame twist
 * ξ = (ω, v), see kernel/forces.ts). In these coordinates a body's mass matrix is constant,
 * and its equations of motion on the Lie group read
 *
 *     M ξ̇ + g(ξ) = Q,   g(ξ) = (ω × h_ω + v × h_v,  ω × h_v),   h = M ξ,
 *
 * the velocity-product (gyroscopic and transport) force g being −ad_ξᵀ h. Euler's equations
 * I ω̇ + ω × I ω = τ are its rotational half for a body whose origin is its centre.
 */
import type { ForceBlock } from './forces';
import { rotationMatrix } from './dual';

export interface RigidMass {
  mass: number;
  /** Centre of mass in the body's own frame. */
  centre: ArrayLike<number>;
  /** Inertia tensor about the centre, in the body's axes, row-major 3×3. */
  inertia: ArrayLike<number>;
}

/**
 * The 6×6 body-frame mass matrix in (ω, v) order, row-major:
 * [[I_c + m [c]ₓᵀ[c]ₓ, m [c]ₓ], [−m [c]ₓ, m·1]], so that the kinetic energy is ½ ξᵀ M ξ
 * (the centre moves at v + ω × c in body axes).
 */
export function spatialMass(out: Float64Array, body: RigidMass): Float64Array {
  const m = body.mass, c = body.centre, I = body.inertia;
  const cx = c[0], cy = c[1], cz = c[2];
  out.fill(0, 0, 36);
  // [c]ₓᵀ[c]ₓ = |c|² 1 − c cᵀ
  const cc = cx * cx + cy * cy + cz * cz;
  const cv = [cx, cy, cz];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    out[i * 6 + j] = I[i * 3 + j] + m * ((i === j ? cc : 0) - cv[i] * cv[j]);
  }
  // [c]ₓ = [[0, −cz, cy], [cz, 0, −cx], [−cy, cx, 0]]
  const C = [0, -cz, cy, cz, 0, -cx, -cy, cx, 0];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    out[i * 6 + 3 + j] = m * C[i * 3 + j];
    out[(3 + i) * 6 + j] = -m * C[i * 3 + j];
  }
  out[21] = m; out[28] = m; out[35] = m;
  return out;
}

/** ½ ξᵀ M ξ. */
export function kineticEnergy(M: Float64Array, xi: ArrayLike<number>, xiOff = 0): number {
  let e = 0;
  for (let i = 0; i < 6; i++) {
    let row = 0;
    for (let j = 0; j < 6; j++) row += M[i * 6 + j] * xi[xiOff + j];
    e += xi[xiOff + i] * row;
  }
  return 0.5 * e;
}

const hBuf = new Float64Array(6);

/**
 * A 6×6 mass block's nonzero entries, row by row: row i's columns are col[start[i] .. start[i + 1]).
 * `dense`: enough of them (a third or more) that the product over all 36 costs less than the lists.
 * `rigid`: a dense block zero wherever a rigid body's is (RIGID_ZEROS), its product written out
 * over the other 24 entries.
 */
export interface MassPattern { start: Int32Array; col: Int32Array; dense: boolean; rigid?: boolean }

/**
 * The entries a rigid body's mass block [I, m [c]ₓᵀ; m [c]ₓ, m 1] has as zeros whatever its
 * centre and inertia: the two skew blocks' diagonals and the translational block's off-diagonals.
 */
const RIGID_ZEROS = [3, 10, 17, 18, 25, 32, 22, 23, 27, 29, 33, 34];

/** The nonzero pattern of M (a point mass's has 3 entries of 36; a car's parts 16–24). */
export function massPattern(M: Float64Array): MassPattern {
  const start = new Int32Array(7), col: number[] = [];
  for (let i = 0; i < 6; i++) {
    for (let j = 0; j < 6; j++) if (M[i * 6 + j] !== 0) col.push(j);
    start[i + 1] = col.length;
  }
  const dense = col.length >= 12;
  return { start, col: Int32Array.from(col), dense, rigid: dense && RIGID_ZEROS.every((e) => M[e] === 0) };
}

/**
 * out = M ξ (6): the dense product's sums, term for term from 0 (a pattern's `dense` block:
 * six terms a row, written out), or over M's nonzeros alone, less the terms that add an exact
 * zero: the same numbers either way for a finite ξ (a zero term ±0 changes no sum, and a sum
 * from +0 is never −0).
 */
export function massTimes(out: Float64Array, M: Float64Array, pattern: MassPattern, xi: ArrayLike<number>, xiOff: number): Float64Array {
  if (pattern.rigid) {
    // the dense sums less the rigid zeros' terms (24 of 36), each row's in column order
    const x0 = xi[xiOff], x1 = xi[xiOff + 1], x2 = xi[xiOff + 2], x3 = xi[xiOff + 3], x4 = xi[xiOff + 4], x5 = xi[xiOff + 5];
    out[0] = 0 + M[0] * x0 + M[1] * x1 + M[2] * x2 + M[4] * x4 + M[5] * x5;
    out[1] = 0 + M[6] * x0 + M[7] * x1 + M[8] * x2 + M[9] * x3 + M[11] * x5;
    out[2] = 0 + M[12] * x0 + M[13] * x1 + M[14] * x2 + M[15] * x3 + M[16] * x4;
    out[3] = 0 + M[19] * x1 + M[20] * x2 + M[21] * x3;
    out[4] = 0 + M[24] * x0 + M[26] * x2 + M[28] * x4;
    out[5] = 0 + M[30] * x0 + M[31] * x1 + M[35] * x5;
    return out;
  }
  if (pattern.dense) {
    const x0 = xi[xiOff], x1 = xi[xiOff + 1], x2 = xi[xiOff + 2], x3 = xi[xiOff + 3], x4 = xi[xiOff + 4], x5 = xi[xiOff + 5];
    for (let i = 0, r = 0; i < 6; i++, r += 6) out[i] = 0 + M[r] * x0 + M[r + 1] * x1 + M[r + 2] * x2 + M[r + 3] * x3 + M[r + 4] * x4 + M[r + 5] * x5;
    return out;
  }
  const start = pattern.start, col = pattern.col;
  for (let i = 0; i < 6; i++) {
    let s = 0;
    for (let e = start[i], end = start[i + 1]; e < end; e++) { const j = col[e]; s += M[i * 6 + j] * xi[xiOff + j]; }
    out[i] = s;
  }
  return out;
}

/**
 * A rigid block's (`pattern` rigid) g(ξ) into g and M ξ̇ into s in one call, h = M ξ in registers
 * (the integrator's dynamic residual, per body and Newton iteration): gyroscopic's and
 * massTimes's operations, the same bits. (massTimes stays hot through it: gyroscopic, now run
 * only at refactors, inlines it.)
 */
export function rigidDynamics(g: Float64Array, s: Float64Array, M: Float64Array, pattern: MassPattern, xi: Float64Array, xiDot: Float64Array, xiOff: number): void {
  const x0 = xi[xiOff], x1 = xi[xiOff + 1], x2 = xi[xiOff + 2], x3 = xi[xiOff + 3], x4 = xi[xiOff + 4], x5 = xi[xiOff + 5];
  const h0 = 0 + M[0] * x0 + M[1] * x1 + M[2] * x2 + M[4] * x4 + M[5] * x5;
  const h1 = 0 + M[6] * x0 + M[7] * x1 + M[8] * x2 + M[9] * x3 + M[11] * x5;
  const h2 = 0 + M[12] * x0 + M[13] * x1 + M[14] * x2 + M[15] * x3 + M[16] * x4;
  const h3 = 0 + M[19] * x1 + M[20] * x2 + M[21] * x3;
  const h4 = 0 + M[24] * x0 + M[26] * x2 + M[28] * x4;
  const h5 = 0 + M[30] * x0 + M[31] * x1 + M[35] * x5;
  g[0] = x1 * h2 - x2 * h1 + x4 * h5 - x5 * h4;
  g[1] = x2 * h0 - x0 * h2 + x5 * h3 - x3 * h5;
  g[2] = x0 * h1 - x1 * h0 + x3 * h4 - x4 * h3;
  g[3] = x1 * h5 - x2 * h4;
  g[4] = x2 * h3 - x0 * h5;
  g[5] = x0 * h4 - x1 * h3;
  massTimes(s, M, pattern, xiDot, xiOff);
}

/**
 * The velocity-product force g(ξ) = (ω × h_ω + v × h_v, ω × h_v), h = M ξ, into out (6);
 * with `jacobian` (36, row-major) also ∂g/∂ξ. With M's `pattern`, h skips its zeros (the
 * same numbers).
 */
export function gyroscopic(out: Float64Array, M: Float64Array, xi: ArrayLike<number>, xiOff: number, jacobian: Float64Array | null, pattern: MassPattern | null = null): Float64Array {
  const h = hBuf;
  if (pattern) massTimes(h, M, pattern, xi, xiOff);
  else {
    for (let i = 0; i < 6; i++) {
      let s = 0;
      for (let j = 0; j < 6; j++) s += M[i * 6 + j] * xi[xiOff + j];
      h[i] = s;
    }
  }
  const wx = xi[xiOff], wy = xi[xiOff + 1], wz = xi[xiOff + 2];
  const vx = xi[xiOff + 3], vy = xi[xiOff + 4], vz = xi[xiOff + 5];
  out[0] = wy * h[2] - wz * h[1] + vy * h[5] - vz * h[4];
  out[1] = wz * h[0] - wx * h[2] + vz * h[3] - vx * h[5];
  out[2] = wx * h[1] - wy * h[0] + vx * h[4] - vy * h[3];
  out[3] = wy * h[5] - wz * h[4];
  out[4] = wz * h[3] - wx * h[5];
  out[5] = wx * h[4] - wy * h[3];
  if (!jacobian) return out;
  // top: [ω]ₓ M_top + [v]ₓ M_bot − [h_ω]ₓ E_ω − [h_v]ₓ E_v;  bottom: [ω]ₓ M_bot − [h_v]ₓ E_ω
  for (let col = 0; col < 6; col++) {
    const tx = M[col], ty = M[6 + col], tz = M[12 + col];
    const bx = M[18 + col], by = M[24 + col], bz = M[30 + col];
    jacobian[col] = wy * tz - wz * ty + vy * bz - vz * by;
    jacobian[6 + col] = wz * tx - wx * tz + vz * bx - vx * bz;
    jacobian[12 + col] = wx * ty - wy * tx + vx * by - vy * bx;
    jacobian[18 + col] = wy * bz - wz * by;
    jacobian[24 + col] = wz * bx - wx * bz;
    jacobian[30 + col] = wx * by - wy * bx;
  }
  subCross(jacobian, 0, 0, h, 0);
  subCross(jacobian, 0, 3, h, 3);
  subCross(jacobian, 3, 0, h, 3);
  return out;
}

/**
 * −[a]ₓ e_k = e_k × a adds the column x: (0, −a_z, a_y), y: (a_z, 0, −a_x), z: (−a_y, a_x, 0) to
 * the 3×3 block at (row0, col0), a = h[k..k+2] (read here: numbers passed to a call V8 does not
 * inline are boxed, nine allocations a body's block).
 */
function subCross(jacobian: Float64Array, row0: number, col0: number, h: Float64Array, k: number): void {
  const ax = h[k], ay = h[k + 1], az = h[k + 2];
  jacobian[(row0 + 1) * 6 + col0] -= az; jacobian[(row0 + 2) * 6 + col0] += ay;
  jacobian[row0 * 6 + col0 + 1] += az; jacobian[(row0 + 2) * 6 + col0 + 1] -= ax;
  jacobian[row0 * 6 + col0 + 2] -= ay; jacobian[(row0 + 1) * 6 + col0 + 2] += ax;
}

/**
 * The whole system's mass matrix (size × size, row-major, dense) from per-pose-variable 6×6
 * blocks; rows of massless variables and of scalars stay zero. `layout` as tangentLayout's.
 */
export function assembleMass(out: Float64Array, layout: Int32Array, size: number, bodies: readonly { variable: number; M: Float64Array }[]): Float64Array {
  out.fill(0, 0, size * size);
  for (const b of bodies) {
    const c0 = layout[b.variable];
    if (c0 < 0) continue;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) out[(c0 + i) * size + c0 + j] += b.M[i * 6 + j];
  }
  return out;
}

/** Gravity on one body: its weight m·g at the centre; potential −m g·x_centre. */
export class GravityBlock implements ForceBlock {
  readonly vars: readonly number[];
  /** The weight does not depend on the velocities: no C (ForceSet skips it). */
  readonly velocityFree = true;
  private readonly R = new Float64Array(9);
  private readonly mass: number;
  private readonly c: Float64Array;
  private readonly g: Float64Array;
  /** Scratch of K: [f]ₓ and [c]ₓ (their diagonals stay 0). */
  private readonly F = new Float64Array(9);
  private readonly Cx = new Float64Array(9);

  constructor(readonly owner: string, variable: number, body: RigidMass, gravity: ArrayLike<number>) {
    this.vars = [variable];
    this.mass = body.mass;
    this.c = Float64Array.from([body.centre[0], body.centre[1], body.centre[2]]);
    this.g = Float64Array.from([gravity[0], gravity[1], gravity[2]]);
  }

  /**
   * ForceBlock.addWeight: `evaluate`'s six values added in place, R the integrator's where given.
   * Its arithmetic is evaluate's written out again on purpose: through a shared helper's scratch
   * the car's 16 gravity blocks took 1.4× as long (scripts/vehicle-sim-elements.mjs);
   * test/kernel/gravity-in-place.test.ts holds the two to the bit.
   */
  addWeight(state: Float64Array, offset: number, turn: Float64Array | null, Q: Float64Array, slot: number): void {
    const R = turn ?? rotationMatrix(this.R, state, offset + 3);
    const m = this.mass, g = this.g, c = this.c;
    const fx = m * (R[0] * g[0] + R[3] * g[1] + R[6] * g[2]);
    const fy = m * (R[1] * g[0] + R[4] * g[1] + R[7] * g[2]);
    const fz = m * (R[2] * g[0] + R[5] * g[1] + R[8] * g[2]);
    Q[slot] += c[1] * fz - c[2] * fy;
    Q[slot + 1] += c[2] * fx - c[0] * fz;
    Q[slot + 2] += c[0] * fy - c[1] * fx;
    Q[slot + 3] += fx; Q[slot + 4] += fy; Q[slot + 5] += fz;
  }

  evaluate(state: Float64Array, offsets: Int32Array, _velocity: Float64Array, _t: number, Q: Float64Array, K: Float64Array | null, C: Float64Array | null): void {
    const R = rotationMatrix(this.R, state, offsets[0] + 3);
    const m = this.mass, g = this.g, c = this.c;
    // f = Rᵀ m g, the weight in body axes
    const fx = m * (R[0] * g[0] + R[3] * g[1] + R[6] * g[2]);
    const fy = m * (R[1] * g[0] + R[4] * g[1] + R[7] * g[2]);
    const fz = m * (R[2] * g[0] + R[5] * g[1] + R[8] * g[2]);
    Q[0] = c[1] * fz - c[2] * fy;
    Q[1] = c[2] * fx - c[0] * fz;
    Q[2] = c[0] * fy - c[1] * fx;
    Q[3] = fx; Q[4] = fy; Q[5] = fz;
    if (C) C.fill(0, 0, 36);
    if (!K) return;
    K.fill(0, 0, 36);
    // Turning the body by ω turns the weight in body axes by −ω: ∂f/∂ω = [f]ₓ, ∂(c × f)/∂ω = [c]ₓ[f]ₓ
    // (written into the block's scratch: no arrays per call).
    const F = this.F, Cx = this.Cx;
    F[1] = -fz; F[2] = fy; F[3] = fz; F[5] = -fx; F[6] = -fy; F[7] = fx;
    Cx[1] = -c[2]; Cx[2] = c[1]; Cx[3] = c[2]; Cx[5] = -c[0]; Cx[6] = -c[1]; Cx[7] = c[0];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      K[(3 + i) * 6 + j] = F[i * 3 + j];
      let s = 0;
      for (let k = 0; k < 3; k++) s += Cx[i * 3 + k] * F[k * 3 + j];
      K[i * 6 + j] = s;
    }
  }

  potential(state: Float64Array, offsets: Int32Array): number {
    const R = rotationMatrix(this.R, state, offsets[0] + 3);
    const o = offsets[0], c = this.c, g = this.g;
    let e = 0;
    for (let i = 0; i < 3; i++) {
      const x = R[i * 3] * c[0] + R[i * 3 + 1] * c[1] + R[i * 3 + 2] * c[2] + state[o + i];
      e -= this.mass * g[i] * x;
    }
    return e;
  }
}
