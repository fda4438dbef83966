/**
 * A frame that turns with a hardpoint (docs/sensitivity.md, "Geometry files"): the
 * anti-roll bars' bushing frames (src/suspension/build/device-forces.ts) and a compliance
 * bushing's two frames (src/suspension/build/compliance.ts) are built by the template's
 * Builder.frame(part, name, origin, x): the shortest turn from the part's x axis
 * to u = x/|x|, q = (1 + u₀, 0, −u₂, u₁)/|…|. Their x is a weighted sum of hardpoints — a
 * U-bar's axis_b − axis_a, a T-bar's stem ½(left + right droplink end) − pivot, a bushing's
 * other pivot (or `axis.toward` point) − its pickup, or strut_top − strut_bottom — so moving
 * one along e_k moves x at ẋ = w e_k, turns u at u̇ = (ẋ − u(u·ẋ))/|x|, and the quaternion at
 * q̇ = (I − q qᵀ) q̃̇/|q̃|; the frame's axes (columns of R(q)) then turn at ω × a with the
 * twist ω = 2 vec(q̇ q*), seeded in the bushing that reads the frame
 * (sensitivity-hardpoints.ts). The whole turn, spin about x included: the bushing reads all
 * three axes.
 */
import type { AssemblyDoc } from '../../../assembly/types';
import type { Geometry } from '../../files';
import { normalizeRate } from '../../../../kernel/vec3';
import { bushingAxisEnds, bushingId } from '../../build/compliance';

import type { FrameTurn } from '../../../gradients/parameters/hardpoints';
export type { FrameTurn } from '../../../gradients/parameters/hardpoints';

/**
 * How a device frame's x is built: [hardpoint name (as a gradient names it, no axis), weight];
 * `axisymmetric`: the element that reads it has equal rates about x (a compliance bushing).
 */
interface FrameSource { x: [string, number][]; axisymmetric: boolean }

/** Each device frame's source, by `part.frame`. */
function frameSources(g: Geometry, doc: AssemblyDoc): Map<string, FrameSource> {
  const out = new Map<string, FrameSource>();
  bushingSources(g, doc, out);
  const d = g.devices, chassis = (doc.suspension as { chassis?: string } | undefined)?.chassis ?? 'chassis';
  if (g.scope !== 'axle' || d?.anti_roll_rate === undefined) return out;
  if (d.anti_roll === 'u_bar') {
    const x: FrameSource = { x: [['center.arb_u_bar_axis_b', 1], ['center.arb_u_bar_axis_a', -1]], axisymmetric: false };
    out.set('left_arb_arm.arb_torsion', x).set('right_arb_arm.arb_torsion', x);
  }
  if (d.anti_roll === 't_bar') {
    const x: FrameSource = { x: [['left.droplink_t_bar', 0.5], ['right.droplink_t_bar', 0.5], ['center.arb_t_bar_pivot', -1]], axisymmetric: false };
    out.set(`${chassis}.arb_t_bar_stem`, x).set('t_bar.stem', x);
  }
  return out;
}

/**
 * A compliance bushing's two frames, the chassis's and the arm's (or strut's), both at its
 * pickup with x = to − from (build/compliance.ts bushingAxisEnds); none for a fixed vector axis.
 * Its rates are [axial, radial, radial] and [torsional, conical, conical]: the same about x.
 */
function bushingSources(g: Geometry, doc: AssemblyDoc, out: Map<string, FrameSource>): void {
  g.compliance?.corners.forEach((c, i) => {
    const side = g.corners[i].side, set = g.scope === 'axle' ? `${side}.` : '', px = g.scope === 'axle' ? `${side}_` : '';
    for (const [pickup, spec] of Object.entries(c.bushings)) {
      const ends = bushingAxisEnds(spec, pickup), f = doc.forces?.[bushingId(px, pickup)];
      if (!ends || f?.type !== 'bushing') continue;
      const x: FrameSource = { x: [[`${set}${ends[1]}`, 1], [`${set}${ends[0]}`, -1]], axisymmetric: true };
      out.set(f.a, x).set(f.b, x);
    }
  });
}

/** A hardpoint by the name a gradient gives it (`center.…`, `left.…` on an axle; bare on a corner). */
const pointOf = (g: Geometry, name: string): readonly number[] | undefined => {
  if (g.scope !== 'axle') return g.corners[0].hardpoints[name];
  const [set, point] = name.split('.');
  return set === 'center' ? g.center?.[point] : g.corners.find((c) => c.side === set)?.hardpoints[point];
};

/** Whether the x axis of the frame turned by q = (w, v) (R(q)'s first column) is u. */
function xAxisIs(q: readonly number[], u: readonly number[]): boolean {
  const [w, a, b, c] = q, e = [1 - 2 * (b * b + c * c), 2 * (a * b + w * c), 2 * (a * c - w * b)];
  return e.every((v, i) => Math.abs(v - u[i]) <= 1e-9);
}

/** The shortest-turn quaternion to u (Builder.frame's formula) and its un-normalised form. */
function shortestTurn(u: readonly number[]): { q: number[]; raw: number[]; n: number } {
  const raw = [1 + u[0], 0, -u[2], u[1]], n = Math.hypot(...raw);
  return { q: raw.map((x) => x / n), raw, n };
}

/**
 * The turn of frame `entity` of `part` when the hardpoint coordinate `name` (`center.…`,
 * `left.…`, with its axis) moves; null when the frame is not built from that hardpoint as
 * above, or the built frame is not this construction's (then the caller refuses).
 */
export function frameTurn(g: Geometry, doc: AssemblyDoc, part: string, entity: string, name: string): FrameTurn | null {
  const source = frameSources(g, doc).get(`${part}.${entity}`), sources = source?.x;
  const frame = doc.parts[part]?.frames?.[entity] as { rotation: readonly number[] } | undefined;
  if (!sources || !frame) return null;
  const axis = 'xyz'.indexOf(name.slice(-1)), hp = name.slice(0, -2);
  const w = sources.reduce((s, [n, k]) => s + (n === hp ? k : 0), 0);
  if (axis < 0 || w === 0) return null;
  const x = [0, 0, 0];
  for (const [n, k] of sources) {
    const p = pointOf(g, n);
    if (!p) return null;
    for (let i = 0; i < 3; i++) x[i] += k * p[i];
  }
  const l = Math.hypot(x[0], x[1], x[2]);
  if (!(l > 0)) return null;
  const u = x.map((c) => c / l), { q, raw, n } = shortestTurn(u);
  const xd = [0, 0, 0];
  xd[axis] = w;
  const ud = normalizeRate(new Float64Array(3), x, xd);
  // x along −x (or nearly): the builder's half turn, whose spin about x jumps with the way x
  // leaves, so the frame has no rate of its own; a bushing whose rates are the same about x
  // reads both frames' common spin about it not at all: the least turn u × u̇ is exact for it
  if (n < 1e-6) return source!.axisymmetric && xAxisIs(frame.rotation, u) ? { omega: [u[1] * ud[2] - u[2] * ud[1], u[2] * ud[0] - u[0] * ud[2], u[0] * ud[1] - u[1] * ud[0]] } : null;
  // the built frame must be this construction
  if (q.some((c, i) => Math.abs(c - frame.rotation[i]) > 1e-9)) return null;
  const rawd = [ud[0], 0, -ud[2], ud[1]];
  const qr = raw.reduce((s, c, i) => s + c * rawd[i], 0) / (n * n);
  const qd = rawd.map((c, i) => (c - raw[i] * qr) / n);
  // ω = 2 vec(q̇ q*) = 2 (w v̇ − ẇ v + v × v̇), q = (w, v)
  const [w0, v0, v1, v2] = q, [wd, vd0, vd1, vd2] = qd;
  return {
    omega: [
      2 * (w0 * vd0 - wd * v0 + (v1 * vd2 - v2 * vd1)),
      2 * (w0 * vd1 - wd * v1 + (v2 * vd0 - v0 * vd2)),
      2 * (w0 * vd2 - wd * v2 + (v0 * vd1 - v1 * vd0)),
    ],
  };
}

/**
 * A point the devices build as a mean of hardpoints — the T-bar's crossbar midpoint,
 * ½(left + right droplink end), on the centre plane — moves by that weight with either end:
 * the weight for the hardpoint coordinate `name`, or 0.
 */
export function derivedPointWeight(g: Geometry, doc: AssemblyDoc, part: string, entity: string, name: string): number {
  if (part !== 't_bar' || entity !== 'crossbar_midpoint' || g.scope !== 'axle') return 0;
  const ends = ['left.droplink_t_bar', 'right.droplink_t_bar'], hp = name.slice(0, -2);
  const l = pointOf(g, ends[0]), r = pointOf(g, ends[1]), mid = doc.parts.t_bar?.points?.crossbar_midpoint;
  if (!ends.includes(hp) || !l || !r || !mid || mid.some((x, i) => x !== (l[i] + r[i]) / 2)) return 0;
  return 0.5;
}
