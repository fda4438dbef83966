/**
 * The suspension devices as the viewer draws them (issue 15 item 6), computed by the
 * presenter (no DOM, no three.js): anti-roll bars (a U-bar's torsion bar on its chassis
 * axis and an arm from the axis to each drop link; a T-bar's crossbar and stem), a
 * rocker-to-rocker heave link (a variable-length element: no mate draws it), torsion bars
 * (on the rocker axis of a double wishbone, on the bar axis of a trailing arm) and the
 * camber shim block between the upright and the upper ball joint's camber block. Drop
 * links and dampers are already drawn (distance mates, the corner's damper).
 *
 * Also the shim thickness edit (one undo entry) and the device metrics the panels show.
 */
import { quat, vec3 } from 'gl-matrix';
import type { SuspensionModel } from '../../suspension/build/model.ts';
import type { PointExpr } from '../../suspension/build/targets.ts';
import type { PointRole } from '../../suspension/build/roles.ts';
import type { Geometry } from '../../suspension/files/index.ts';
import { LiveEditError, type LiveRecipe } from '../document.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import type { ReadoutSpec } from './frame-types.ts';

export type DeviceShape =
  | { kind: 'bar' | 'arm' | 'link'; id: string; a: Vec3Tuple; b: Vec3Tuple }
  /** A box: centre, unit axes (e1 along the shim face, e3 its normal) and full sizes along them. */
  | { kind: 'block'; id: string; center: Vec3Tuple; axes: [Vec3Tuple, Vec3Tuple, Vec3Tuple]; size: Vec3Tuple };

/** How each device is found at any state: point expressions of the model. */
interface Plan {
  segments: { kind: 'bar' | 'arm' | 'link'; id: string; a: PointExpr; b: PointExpr; foot?: [PointExpr, PointExpr] }[];
  tBar: { id: string; pivot: PointExpr; left: PointExpr; right: PointExpr } | null;
  /** A shim block: its centre and the tips of its three half-axes, points of the upright. */
  shims: { id: string; center: PointExpr; tips: [PointExpr, PointExpr, PointExpr] }[];
}

const sub = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3Tuple => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3Tuple => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a: ArrayLike<number>, s: number): Vec3Tuple => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3Tuple => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: ArrayLike<number>) => Math.hypot(a[0], a[1], a[2]);
const unit = (a: ArrayLike<number>): Vec3Tuple => scale(a, 1 / (norm(a) || 1));

/** An orthonormal frame (columns) from two directions: u, then v made normal to it. */
function triad(u: Vec3Tuple, v: Vec3Tuple): [Vec3Tuple, Vec3Tuple, Vec3Tuple] {
  const e1 = unit(u), e3 = unit(cross(u, v)), e2 = cross(e3, e1);
  return [e1, e2, e3];
}

/** R x with R the rotation taking frame `from` onto frame `to` (both as columns). */
function rotateBy(from: [Vec3Tuple, Vec3Tuple, Vec3Tuple], to: [Vec3Tuple, Vec3Tuple, Vec3Tuple], x: Vec3Tuple): Vec3Tuple {
  const c = [dot(from[0], x), dot(from[1], x), dot(from[2], x)];
  return add(add(scale(to[0], c[0]), scale(to[1], c[1])), scale(to[2], c[2]));
}

/**
 * The devices of a suspension model (`geometry`: its validated file, when it has one; a
 * hand-made assembly has roles only), with the upright poses at design (`poses`: position,
 * then w, x, y, z) to fix each shim block to its upright.
 */
export function devicePlan(sm: SuspensionModel, geometry: Geometry | null, poses: Record<string, readonly number[]>): Plan {
  const role = (r: PointRole): PointExpr => sm.resolveRole(r);
  const plan: Plan = { segments: [], tBar: null, shims: [] };
  const d = sm.roles.devices;
  if (d?.u_bar) {
    const axis: [PointExpr, PointExpr] = [role(d.u_bar.axis[0]), role(d.u_bar.axis[1])];
    plan.segments.push({ kind: 'bar', id: 'u_bar', a: axis[0], b: axis[1] });
    for (const side of ['left', 'right'] as const) plan.segments.push({ kind: 'arm', id: `${side}_u_bar_arm`, a: role(d.u_bar.arms[side]), b: role(d.u_bar.arms[side]), foot: axis });
  }
  if (d?.t_bar) plan.tBar = { id: 't_bar', pivot: role(d.t_bar.pivot), left: role(d.t_bar.ends.left), right: role(d.t_bar.ends.right) };
  if (d?.heave_link) plan.segments.push({ kind: 'link', id: 'heave_link', a: role(d.heave_link.left), b: role(d.heave_link.right) });
  if (geometry?.spring.type === 'torsion_bar') {
    sm.corners.forEach((c) => {
      const pts = c.roles.points as Record<string, PointRole | undefined>;
      const [a, b] = geometry.topology === 'trailing_arm' ? [pts.torsion_bar_axis_a, pts.torsion_bar_axis_b] : [pts.rocker_axis_a, pts.rocker_axis_b];
      if (a && b) plan.segments.push({ kind: 'bar', id: `${sm.roles.scope === 'axle' ? `${c.roles.side}_` : ''}torsion_bar`, a: role(a), b: role(b) });
    });
  }
  geometry?.corners.forEach((corner, i) => {
    const shim = corner.setup?.camber_shim;
    const c = sm.corners[i];
    const pose = c ? poses[c.roles.upright] : undefined;
    if (!shim || !c || !pose) return;
    const hp = corner.hardpoints, authored = corner.authored_hardpoints ?? hp;
    // the upright's setup turn about the lower ball joint (none when the shim is of design thickness)
    const frame = (p: Record<string, readonly number[]>) => triad(sub(p.axle_outboard, p.axle_inboard), sub(p.trackrod_outboard, p.lower_wishbone_outboard));
    const from = frame(authored), to = frame(hp);
    const lbj = hp.lower_wishbone_outboard;
    const turn = (x: Vec3Tuple) => add(lbj, rotateBy(from, to, sub(x, authored.lower_wishbone_outboard)));
    const a = shim.shim_face_point_a, b = shim.shim_face_point_b, n0 = shim.shim_face_normal;
    const n = rotateBy(from, to, n0);
    // the upright's face (shim side), then back toward the camber block by the setup thickness
    const face = turn(add(scale(add(a, b), 0.5), scale(n0, shim.design_thickness / 2)));
    const center = sub(face, scale(n, shim.setup_thickness / 2));
    const [e1, e2, e3] = triad(rotateBy(from, to, sub(b, a)), cross(n, rotateBy(from, to, sub(b, a))));
    void e3;
    const width = norm(sub(b, a));
    const half: [Vec3Tuple, Vec3Tuple, Vec3Tuple] = [scale(e1, width / 2), scale(e2, width * 0.35), scale(n, shim.setup_thickness / 2)];
    // as points of the upright: its design pose inverted
    const q = quat.fromValues(pose[4], pose[5], pose[6], pose[3]);
    const qi = quat.invert(quat.create(), q);
    const local = (w: Vec3Tuple): PointExpr => {
      const out = vec3.transformQuat([0, 0, 0], [w[0] - pose[0], w[1] - pose[1], w[2] - pose[2]], qi);
      return [{ variable: c.upright, local: Float64Array.of(out[0], out[1], out[2]), weight: 1 }];
    };
    plan.shims.push({ id: `${sm.roles.scope === 'axle' ? `${c.roles.side}_` : ''}camber_shim`, center: local(center), tips: [local(add(center, half[0])), local(add(center, half[1])), local(add(center, half[2]))] });
  });
  return plan;
}

/** The devices' shapes at the model's current state (world, mm). */
export function deviceShapes(sm: SuspensionModel, plan: Plan): DeviceShape[] {
  const at = (e: PointExpr): Vec3Tuple => { const p = sm.pointValue(e); return [p[0], p[1], p[2]]; };
  const out: DeviceShape[] = [];
  for (const s of plan.segments) {
    let a = at(s.a);
    const b = at(s.b);
    if (s.foot) {
      // an arm: from its end to the foot of the perpendicular on the bar's axis
      const o = at(s.foot[0]), u = unit(sub(at(s.foot[1]), o));
      a = add(o, scale(u, dot(sub(b, o), u)));
    }
    out.push({ kind: s.kind, id: s.id, a, b });
  }
  if (plan.tBar) {
    const p = at(plan.tBar.pivot), l = at(plan.tBar.left), r = at(plan.tBar.right);
    out.push({ kind: 'bar', id: 't_bar_crossbar', a: l, b: r });
    out.push({ kind: 'arm', id: 't_bar_stem', a: p, b: scale(add(l, r), 0.5) });
  }
  for (const s of plan.shims) {
    const c = at(s.center);
    const h = s.tips.map((t) => sub(at(t), c)) as [Vec3Tuple, Vec3Tuple, Vec3Tuple];
    out.push({ kind: 'block', id: s.id, center: c, axes: [unit(h[0]), unit(h[1]), unit(h[2])], size: [2 * norm(h[0]), 2 * norm(h[1]), 2 * norm(h[2])] });
  }
  return out;
}

/** Device metrics (read-outs and plot menus): corner metrics of the first corner, axle ones as `axle.*`. */
export const DEVICE_METRICS: readonly ReadoutSpec[] = [
  { metric: 'rocker_angle', label: 'Rocker angle', unit: '°', digits: 3 },
  { metric: 'torsion_bar_twist', label: 'Torsion bar twist', unit: '°', digits: 3 },
  { metric: 'deriv_torsion_bar_twist_wrt_hub_z', label: 'Torsion bar twist rate', unit: '°/mm', digits: 5 },
  { metric: 'arb_arm_angle', label: 'ARB arm angle', unit: '°', digits: 3 },
  { metric: 'axle.arb_twist', label: 'ARB twist', unit: '°', digits: 3 },
  { metric: 'axle.deriv_arb_twist_wrt_hub_z_left', label: 'ARB twist per left travel', unit: '°/mm', digits: 5 },
  { metric: 'axle.t_bar_heave_angle', label: 'T-bar heave angle', unit: '°', digits: 3 },
  { metric: 'axle.deriv_t_bar_center_x_wrt_hub_z_left', label: 'T-bar centre x per left travel', unit: 'mm/mm', digits: 5 },
  { metric: 'axle.heave_link_length', label: 'Heave link length', unit: 'mm', digits: 3 },
  { metric: 'axle.deriv_heave_link_length_wrt_hub_z_left', label: 'Heave link per left travel', unit: 'mm/mm', digits: 5 },
];

// ---------------------------------------------------------------- the camber shim in the file

/** Where a geometry file (as parsed) keeps its camber shims: `config` (a corner), `axle_config.left_setup` / `right_setup` (an axle). */
export function shimSections(geometry: unknown): { path: string[]; label: string; design: number; setup: number }[] {
  const g = geometry as Record<string, Record<string, Record<string, unknown>> | undefined>;
  const out: { path: string[]; label: string; design: number; setup: number }[] = [];
  const found = (path: string[], label: string, section: Record<string, unknown> | undefined) => {
    const shim = section?.camber_shim as { design_thickness?: unknown; setup_thickness?: unknown } | undefined;
    if (shim && typeof shim.setup_thickness === 'number' && typeof shim.design_thickness === 'number') out.push({ path, label, design: shim.design_thickness, setup: shim.setup_thickness });
  };
  found(['config'], 'camber shim', g.config as Record<string, unknown> | undefined);
  const axle = g.axle_config as Record<string, Record<string, unknown> | undefined> | undefined;
  found(['axle_config', 'left_setup'], axle?.right_setup ? 'left camber shim' : 'camber shim (both sides)', axle?.left_setup);
  found(['axle_config', 'right_setup'], 'right camber shim', axle?.right_setup);
  return out;
}

/** The edit that sets a camber shim's setup thickness (mm): one undo entry; the setup is solved again with the document. */
export function setShimThickness(path: readonly string[], thickness: number): LiveRecipe {
  if (!Number.isFinite(thickness)) throw new LiveEditError('camber shim', `expected a finite thickness, got ${thickness}`);
  return (draft) => {
    if (draft.kind !== 'suspension') throw new LiveEditError('', 'a camber shim belongs to a suspension geometry');
    let section = draft.geometry as Record<string, unknown>;
    for (const key of path) section = section[key] as Record<string, unknown>;
    const shim = section.camber_shim as Record<string, unknown>;
    if (shim.setup_thickness !== thickness) shim.setup_thickness = thickness;
  };
}
