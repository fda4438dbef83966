/**
 * Gradients of a set-up corner over the file's own points. A camber or length shim is solved
 * once before any sweep (setup.ts): the authored points a become the design state s(a) that
 * the sweep, and SensitivityModel's gradients, work on. A file's reader moves a, so
 * `kinemate sensitivity` gives dm/da = dm/ds · ∂s/∂a. ∂s/∂a comes from the implicit function
 * theorem on the setup's own rows — the upright's shimmed seat on the upper ball joint (3), the
 * track rod's length, the pushrod's length (a rocker) — in its unknowns: the upright's turn ω
 * about the lower ball joint, the upper wishbone's angle θ, the rocker's ψ. Every point is a
 * dual over (ω, θ, ψ, a), so the seat's dependence on the ball joint it is cut from, the
 * hinge's on its pickups and the pivot's on the lower ball joint are all in it.
 */
import { Dual, DualVec3, dConst, dCos, dMul, dSin, dSub, dvAdd, dvCross, dvDot, dvLength, dvNormalize, dvScale, dvSub } from '../../../kernel/dual';
import { LU } from '../../../kernel/linalg';
import { toMatrix } from '../../../kernel/quat';
import { InternalError } from '../../../kernel/errors';
import type { CornerGeometry, Geometry } from '../files/geometry';
import type { Point3 } from '../files/read';
import { setupShims, solveCornerSetup, type SolvedSetup } from '../build/setup';
import { SensitivityError } from './types';

const AXES = ['x', 'y', 'z'] as const;

/** A gradient keyed `<hardpoint>.<x|y|z>` (an axle: `<side>.<hardpoint>.<x|y|z>`). */
export type GradientRecord = Record<string, number | null>;

/** Rows of ∂s/∂a of one corner: per setup-moved design coordinate key, its row over that corner's authored coordinate keys. */
export type SetupRows = Map<string, Map<string, number>>;

/**
 * The map of design-state gradients to the file's coordinates, or null when no corner of
 * the geometry has a setup (the two are then the same).
 */
export function fileCoordinates(geometry: Geometry): ((gradient: GradientRecord) => GradientRecord) | null {
  const rows: SetupRows = new Map();
  for (const corner of geometry.corners) {
    const prefix = geometry.scope === 'axle' ? `${corner.side}.` : '';
    for (const [key, row] of setupRows(geometry, corner)) rows.set(prefix + key, new Map([...row].map(([k, v]) => [prefix + k, v])));
  }
  if (rows.size === 0) return null;
  return (gradient) => {
    if (Object.values(gradient).some((g) => g === null)) return gradient;
    const out: Record<string, number> = { ...(gradient as Record<string, number>) };
    for (const [j, row] of rows) {
      const gj = gradient[j] as number | undefined;
      if (gj === undefined) continue;
      out[j] -= gj;
      for (const [k, v] of row) out[k] += gj * v;
    }
    return out;
  };
}

/** Every `{ value, gradient }` in a result (sweeps, steps, side groups, targets) with its gradient in the file's coordinates. */
export function inFileCoordinates<T>(geometry: Geometry, result: T): T {
  const map = fileCoordinates(geometry);
  if (!map) return result;
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (x === null || typeof x !== 'object') return x;
    const o = x as Record<string, unknown>;
    if ('gradient' in o && 'value' in o && o.gradient && typeof o.gradient === 'object') return { ...o, gradient: map(o.gradient as GradientRecord) };
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v)]));
  };
  return walk(result) as T;
}

/** ∂s/∂a of one corner's setup (empty without one): keys `<hardpoint>.<axis>` of the corner. */
export function setupRows(g: Geometry, corner: CornerGeometry): SetupRows {
  const shims = setupShims(corner);
  const authored = corner.authored_hardpoints;
  if (!shims || !authored) return new Map();
  const solved = solveCornerSetup(g, authored, corner, shims);
  if (typeof solved === 'string') throw new SensitivityError(`setup: the authored points no longer solve: ${solved}`);
  if (!solved.rotation.upright) return new Map();
  return new SetupDuals(authored, solved, shims.shift, corner.setup?.camber_shim?.shim_face_normal ?? [0, 0, 0]).rows();
}

/** The setup's rows and points as duals: columns 0..m the unknowns (ω, θ, ψ), then the authored coordinates. */
class SetupDuals {
  private readonly names: string[];
  private readonly m: number;
  private readonly n: number;
  private readonly omega: DualVec3;
  private readonly theta: Dual;
  private readonly psi: Dual | null;
  private readonly R0 = new Float64Array(9);

  constructor(private readonly hp: Record<string, Point3>, private readonly solved: SolvedSetup, private readonly shift: number, private readonly normal: Point3) {
    this.names = Object.keys(hp);
    this.m = solved.bodies.rocker ? 5 : 4;
    this.n = this.m + 3 * this.names.length;
    this.omega = new DualVec3(this.n);
    for (let i = 0; i < 3; i++) this.omega.d[i * this.n + i] = 1;
    toMatrix(this.R0, solved.rotation.upright!);
    this.theta = this.angle(solved.rotation.upper!, 'upper_wishbone_inboard_front', 'upper_wishbone_inboard_rear', 3);
    this.psi = solved.bodies.rocker ? this.angle(solved.rotation.rocker!, 'rocker_axis_a', 'rocker_axis_b', 4) : null;
  }

  rows(): SetupRows {
    const { m, n } = this;
    const residuals = this.residuals();
    const P = n - m;
    const Jx = new Float64Array(m * m);
    residuals.forEach((r, i) => { for (let u = 0; u < m; u++) Jx[i * m + u] = r.d[u]; });
    const lu = new LU(m);
    if (!lu.factor(Jx, m)) throw new SensitivityError('setup: its rows are singular at the solved state (no unique setup)');
    // X = −Jx⁻¹ Ja: the unknowns' rates per authored coordinate
    const X: Float64Array[] = [];
    for (let k = 0; k < P; k++) {
      const b = Float64Array.from(residuals, (r) => -r.d[m + k]);
      lu.solve(b);
      X.push(b);
    }
    const out: SetupRows = new Map();
    for (const [name, p] of this.outputs()) {
      for (let i = 0; i < 3; i++) {
        const row = new Map<string, number>();
        for (let k = 0; k < P; k++) {
          let s = p.d[i * n + m + k];
          for (let u = 0; u < m; u++) s += p.d[i * n + u] * X[k][u];
          if (s !== 0) row.set(this.key(k), s);
        }
        out.set(`${name}.${AXES[i]}`, row);
      }
    }
    return out;
  }

  /** The seat on the ball joint, the track rod's length, the pushrod's (their shims are constants). */
  private residuals(): Dual[] {
    const b = this.solved.bodies;
    const seat = dvSub(this.vec(), this.upright(this.point('upper_wishbone_outboard', -this.shift)), this.upper(this.point('upper_wishbone_outboard')));
    const out = [0, 1, 2].map((i) => { const d = new Dual(this.n, seat.v[i]); for (let k = 0; k < this.n; k++) d.d[k] = seat.d[i * this.n + k]; return d; });
    // a link's length at setup is its authored length (plus a constant shim): it moves with its ends
    const length = (a: DualVec3, c: DualVec3) => dvLength(new Dual(this.n), dvSub(this.vec(), a, c));
    const link = (a: string, c: string, onA: (p: DualVec3) => DualVec3, onC: (p: DualVec3) => DualVec3) =>
      dSub(new Dual(this.n), length(onA(this.point(a)), onC(this.point(c))), length(this.point(a), this.point(c)));
    out.push(link('trackrod_outboard', 'trackrod_inboard', (p) => this.upright(p), (p) => p));
    if (b.rocker) out.push(link('pushrod_outboard', 'pushrod_inboard', (p) => this.on(b.mount, p), (p) => this.rocker(p)));
    return out;
  }

  /** The points the setup moves, under their names in the setup state. */
  private outputs(): [string, DualVec3][] {
    const b = this.solved.bodies;
    const out: [string, DualVec3][] = [];
    for (const name of Object.keys(b.upright)) if (name !== 'lbj' && name !== 'ubj') out.push([name, this.upright(this.point(name))]);
    for (const name of Object.keys(b.upper)) out.push([name === 'ubj' ? 'upper_wishbone_outboard' : name, this.upper(this.point(name === 'ubj' ? 'upper_wishbone_outboard' : name))]);
    for (const name of Object.keys(b.rocker ?? {})) out.push([name, this.rocker(this.point(name))]);
    return out;
  }

  private on(body: 'upright' | 'upper' | 'chassis', p: DualVec3): DualVec3 {
    return body === 'upright' ? this.upright(p) : body === 'upper' ? this.upper(p) : p;
  }

  /** L + R0(p − L) turned by ω: about the lower ball joint, which stays. */
  private upright(p: DualVec3): DualVec3 {
    const l = this.point('lower_wishbone_outboard');
    const r = this.rotated(dvSub(this.vec(), p, l));
    return dvAdd(this.vec(), dvAdd(this.vec(), l, r), dvCross(this.vec(), this.omega, r));
  }

  /** F + Rot(θ û)(p − F) on the upper wishbone's hinge. */
  private upper(p: DualVec3): DualVec3 {
    return this.hinged(p, 'upper_wishbone_inboard_front', 'upper_wishbone_inboard_rear', this.theta);
  }

  private rocker(p: DualVec3): DualVec3 {
    return this.hinged(p, 'rocker_axis_a', 'rocker_axis_b', this.psi!);
  }

  /** A + Rodrigues(angle about unit(B − A))(p − A). */
  private hinged(p: DualVec3, a: string, b: string, angle: Dual): DualVec3 {
    const n = this.n, A = this.point(a);
    const u = dvNormalize(this.vec(), dvSub(this.vec(), this.point(b), A));
    const v = dvSub(this.vec(), p, A);
    const c = dCos(new Dual(n), angle), s = dSin(new Dual(n), angle);
    const oneMinusC = dSub(new Dual(n), dConst(new Dual(n), 1), c);
    const along = dMul(new Dual(n), dvDot(new Dual(n), u, v), oneMinusC);
    const turned = dvAdd(this.vec(), dvScale(this.vec(), v, c), dvScale(this.vec(), dvCross(this.vec(), u, v), s));
    return dvAdd(this.vec(), A, dvAdd(this.vec(), turned, dvScale(this.vec(), u, along)));
  }

  /** R0 v for the upright's solved rotation (a constant matrix). */
  private rotated(v: DualVec3): DualVec3 {
    const out = this.vec(), n = this.n, R = this.R0;
    for (let i = 0; i < 3; i++) {
      out.v[i] = R[3 * i] * v.v[0] + R[3 * i + 1] * v.v[1] + R[3 * i + 2] * v.v[2];
      for (let k = 0; k < n; k++) out.d[i * n + k] = R[3 * i] * v.d[k] + R[3 * i + 1] * v.d[n + k] + R[3 * i + 2] * v.d[2 * n + k];
    }
    return out;
  }

  /** The solved turn of a hinged body as a dual seeded in column `col`: q = (cos θ/2, sin θ/2 û). */
  private angle(q: Float64Array, a: string, b: string, col: number): Dual {
    const pa = this.hp[a], pb = this.hp[b];
    const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    const l = Math.hypot(u[0], u[1], u[2]);
    const d = new Dual(this.n, 2 * Math.atan2((q[1] * u[0] + q[2] * u[1] + q[3] * u[2]) / l, q[0]));
    d.d[col] = 1;
    return d;
  }

  /** An authored point as a dual seeded in its own columns; `shift`: moved by shift·n (the shimmed seat). */
  private point(name: string, shift = 0): DualVec3 {
    const j = this.names.indexOf(name);
    if (j < 0) throw new InternalError(`setup: no hardpoint ${name}`);
    const out = this.vec(), p = this.hp[name];
    for (let i = 0; i < 3; i++) {
      out.v[i] = p[i] + shift * this.normal[i];
      out.d[i * this.n + this.m + 3 * j + i] = 1;
    }
    return out;
  }

  private key(k: number): string {
    return `${this.names[Math.floor(k / 3)]}.${AXES[k % 3]}`;
  }

  private vec(): DualVec3 {
    return new DualVec3(this.n);
  }
}
