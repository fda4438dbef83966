/**
 * Vibration modes about the equilibrium: M_r ẍ + C_r ẋ + K_r x = 0 on the constraint
 * manifold (src/mechanics/reduced.ts: x the coordinates of the admissible-motion basis N,
 * held coordinates kept, the reactions' geometric stiffness included), undamped
 * frequencies from the symmetric generalized eigenproblem K_r φ = ω² M_r φ (ml-matrix:
 * Cholesky of M_r, then the symmetric eigen-decomposition of L⁻¹ K_r L⁻ᵀ), lowest first.
 * Damping ratios are modal: ζ = φᵀ C_r φ / (2 ω φᵀ M_r φ) (exact for proportional damping).
 */
import { CholeskyDecomposition, EigenvalueDecomposition, Matrix, inverse } from 'ml-matrix';
import { rotationMatrix } from '../../kernel/dual';
import type { DynamicsModel } from './build';
import { equilibrium, type EquilibriumOptions, type EquilibriumResult } from './equilibrium';
import { reduce, type Reduced } from './reduced';
import { solveModel } from '../model/operations';
import type { Vec3Tuple } from '../../kernel/vec3';

export interface Mode {
  /** Undamped natural frequency, Hz (0 for a neutral motion; see `unstable`). */
  frequency: number;
  damping_ratio: number;
  /** Set when the motion has negative stiffness (the equilibrium is unstable along it): e-folding rate 1/s. */
  unstable?: number;
  /** Largest component 1: coordinates in file units, parts as { translation (mm), rotation (angle unit) } of their origin, world axes. */
  shape: Record<string, number | { translation: Vec3Tuple; rotation: Vec3Tuple }>;
}

export interface ModesResult {
  status: 'solved' | 'failed';
  modes: Mode[];
  /** The equilibrium the modes are about. */
  equilibrium: EquilibriumResult;
  message?: string;
}

/** Find the equilibrium, then the modes about it. */
export function modes(dyn: DynamicsModel, options: EquilibriumOptions = {}): ModesResult {
  // a mass matrix that cannot be inverted is said first, whatever the equilibrium does
  solveModel(dyn.model, { set: options.set, solver: options.solver });
  const start = reduce(dyn, { mass: true });
  const problem = massProblem(dyn, start);
  if (problem) return { status: 'failed', modes: [], equilibrium: equilibrium(dyn, options), message: problem };
  const eq = equilibrium(dyn, options);
  if (eq.status !== 'solved') return { status: 'failed', modes: [], equilibrium: eq, message: `no equilibrium to linearise about: ${eq.message ?? ''}`.trim() };
  const red = reduce(dyn, { mass: true, damping: true });
  const found = modesOf(dyn, red);
  if (typeof found === 'string') return { status: 'failed', modes: [], equilibrium: eq, message: found };
  return { status: 'solved', modes: found, equilibrium: eq };
}

/** The modes of a reduced system (or why there are none: a mass matrix that is not positive definite). */
export function modesOf(dyn: DynamicsModel, red: Reduced): Mode[] | string {
  const found = modeVectors(dyn, red);
  return typeof found === 'string' ? found : found.map((v) => v.mode);
}

/**
 * The modes with their eigenpairs: ω² (w2) and the M_r-normalised reduced shape φ (phi, over the
 * basis N), lowest first — what a frequency's exact rate needs (dω² = φᵀ(K̇_r − ω² Ṁ_r)φ).
 */
export function modeVectors(dyn: DynamicsModel, red: Reduced): { mode: Mode; w2: number; phi: number[] }[] | string {
  const { k } = red;
  if (k === 0) return [];
  const Kr = red.Kr, Cr = red.Cr;
  const problem = massProblem(dyn, red);
  if (problem) return problem;
  const Lm = new CholeskyDecomposition(sym(red.Mr!, k)).lowerTriangularMatrix;
  // A = L⁻¹ K L⁻ᵀ
  const Linv = inverse(Lm);
  const A = Linv.mmul(sym(Kr, k)).mmul(Linv.transpose());
  const As = A.add(A.transpose()).mul(0.5);
  const evd = new EigenvalueDecomposition(As, { assumeSymmetric: true });
  const values = evd.realEigenvalues, vectors = evd.eigenvectorMatrix;
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const LinvT = Linv.transpose();
  const out: { mode: Mode; w2: number; phi: number[] }[] = [];
  for (const i of order) {
    const w2 = values[i];
    const phi = LinvT.mmul(vectors.getColumnVector(i)).to1DArray(); // M-normalised
    const omega = Math.sqrt(Math.abs(w2));
    let c = 0;
    if (Cr) for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) c += phi[a] * Cr[a * k + b] * phi[b];
    const mode: Mode = {
      frequency: w2 > 0 ? omega / (2 * Math.PI) : 0,
      damping_ratio: w2 > 0 ? c / (2 * omega) : 0,
      shape: shapeOf(dyn, red, phi),
    };
    if (w2 < -1e-9 * Math.max(1, Math.abs(values[order[order.length - 1]]))) mode.unstable = omega;
    out.push({ mode, w2, phi });
  }
  return out;
}

function sym(A: Float64Array, k: number): Matrix {
  return Matrix.from1DArray(k, k, Array.from({ length: k * k }, (_, i) => 0.5 * (A[i] + A[(i % k) * k + Math.floor(i / k)])));
}

/** Why the reduced mass matrix is not positive definite (naming the parts), or null when it is. */
function massProblem(dyn: DynamicsModel, red: Reduced): string | null {
  const k = red.k, Mr = red.Mr!;
  if (k === 0) return null;
  const chol = new CholeskyDecomposition(sym(Mr, k));
  let scale = 0;
  for (let i = 0; i < k; i++) scale = Math.max(scale, Mr[i * k + i]);
  const Lm = chol.lowerTriangularMatrix;
  let definite = chol.isPositiveDefinite() && scale > 0;
  for (let i = 0; definite && i < k; i++) if (!(Lm.get(i, i) ** 2 > 1e-12 * scale)) definite = false;
  return definite ? null : `the mass matrix is not positive definite on the motion the mates allow: ${massless(dyn, red)} move without mass or inertia`;
}

/** Parts that move along the admissible motions but have no mass (or no inertia for a turn). */
function massless(dyn: DynamicsModel, red: Reduced): string {
  const names: string[] = [];
  const massive = new Map(dyn.bodies.map((b) => [b.variable, b]));
  for (const v of dyn.system.variables) {
    const c0 = red.layout[v.id];
    if (c0 < 0) continue;
    let moves = 0, turns = 0;
    for (let a = 0; a < red.k; a++) for (let i = 0; i < v.dim; i++) {
      const x = Math.abs(red.N[a * red.size + c0 + i]);
      if (v.kind === 'pose' && i < 3) turns = Math.max(turns, x); else moves = Math.max(moves, x);
    }
    if (v.kind !== 'pose') continue;
    const body = massive.get(v.id);
    if (!body && (moves > 1e-9 || turns > 1e-12)) names.push(`part "${v.name}" (no mass)`);
    else if (body && turns > 1e-12) {
      const I = body.body.inertia;
      if (I[0] + I[4] + I[8] === 0) names.push(`part "${v.name}" (no inertia, and it turns)`);
    }
  }
  return names.length ? names.join(', ') : 'some parts';
}

function shapeOf(dyn: DynamicsModel, red: Reduced, phi: number[]): Mode['shape'] {
  const { system, model } = dyn;
  const n = red.size;
  const d = new Float64Array(n);
  for (let a = 0; a < red.k; a++) for (let j = 0; j < n; j++) d[j] += red.N[a * n + j] * phi[a];
  const L = system.lengthScale, af = model.angleFactor;
  const coordinateName = new Map<number, { name: string; angle: boolean }>();
  for (const [name, info] of model.coordinates) coordinateName.set(info.variable, { name, angle: info.kind === 'angle' });
  const R = new Float64Array(9);
  const raw: Mode['shape'] = {};
  let biggest = 0, sign = 1;
  const consider = (x: number) => { if (Math.abs(x) > biggest * (1 + 1e-12)) { biggest = Math.abs(x); sign = x < 0 ? -1 : 1; } };
  for (const v of system.variables) {
    const c0 = red.layout[v.id];
    if (c0 < 0) continue;
    if (v.kind === 'pose') {
      rotationMatrix(R, system.state, v.offset + 3);
      const world = (o: number): Vec3Tuple => [0, 1, 2].map((i) => R[3 * i] * d[c0 + o] + R[3 * i + 1] * d[c0 + o + 1] + R[3 * i + 2] * d[c0 + o + 2]) as Vec3Tuple;
      const rotation = world(0), translation = world(3);
      for (const x of translation) consider(x);
      for (const x of rotation) consider(x * L);
      raw[`${v.name}`] = { translation, rotation: rotation.map((x) => x / af) as Vec3Tuple };
    } else {
      const c = coordinateName.get(v.id);
      if (!c) continue;
      consider(d[c0] * v.scale);
      raw[c.name] = c.angle ? d[c0] / af : d[c0];
    }
  }
  // largest component 1 (a turn counted as the length scale times it), sign: largest positive
  const k = biggest > 0 ? sign / biggest : 1;
  const out: Mode['shape'] = {};
  for (const [name, value] of Object.entries(raw)) {
    out[name] = typeof value === 'number' ? value * k : {
      translation: value.translation.map((x) => x * k) as Vec3Tuple,
      rotation: value.rotation.map((x) => x * k) as Vec3Tuple,
    };
  }
  return out;
}
