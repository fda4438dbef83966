/**
 * What the scene draws of a solved linkage, in the viewer's presenter (no DOM: it runs in
 * the solver workers and, for tests, in Node): the structure of the scene (parts drawn
 * through their points, rods, joints, handles), every part point in world coordinates
 * from the poses of a frame, and a suspension's corners (wheel, steering axes, damper,
 * instant centres) from the library's analysis at the pose shown.
 */
import { quat, vec3 } from 'gl-matrix';
import { splitReference, type AssemblyDoc, type PoseDoc } from '../../assembly/types.ts';
import type { SuspensionModel, MetricValues } from '../../suspension/build/model.ts';
import type { SteeringAxis } from '../../suspension/metrics/steering.ts';
import type { PointExpr } from '../../suspension/build/targets.ts';
import type { PointRole } from '../../suspension/build/roles.ts';
import type { LiveSuspensionAnalysis } from '../suspension-analysis.ts';
import type { Vec3Tuple } from '../../../kernel/vec3.ts';
import type { CornerGeometry, HandleInfo, HandleKind, SceneStructure } from './frame-types.ts';

export const v3 = (a: ArrayLike<number>): Vec3Tuple => [a[0], a[1], a[2]];

/** The entities each mate names (`part.entity`), per assembly: a mated axis or circle is part of its part's drawing. */
const matedCache = new WeakMap<AssemblyDoc, Set<string>>();
function matedRefs(doc: AssemblyDoc): Set<string> {
  let out = matedCache.get(doc);
  if (!out) {
    out = new Set<string>();
    for (const m of Object.values(doc.mates)) {
      const mm = m as { a?: unknown; b?: unknown };
      if (typeof mm.a === 'string') out.add(mm.a);
      if (typeof mm.b === 'string') out.add(mm.b);
    }
    matedCache.set(doc, out);
  }
  return out;
}

type Origin = { readonly name: string; readonly local: Vec3Tuple; readonly skeleton: boolean; readonly handle: boolean };

/**
 * entityOrigins per assembly and part, worked out once: every pose drawn reads them
 * (pointsFromPoses), and the structure once per role. An assembly is a checked, frozen
 * document, so its identity says it has not changed (as matedRefs takes it).
 */
const originsCache = new WeakMap<AssemblyDoc, Map<string, readonly Origin[]>>();
function entityOrigins(doc: AssemblyDoc, part: string): readonly Origin[] {
  let byPart = originsCache.get(doc);
  if (!byPart) originsCache.set(doc, (byPart = new Map()));
  let out = byPart.get(part);
  if (!out) byPart.set(part, (out = originsOf(doc, part)));
  return out;
}

/**
 * The points a part is drawn through (`skeleton`) and grabbed by (`handle`). Points and
 * frames always; axes, planes and circles only when the part has nothing else, except that
 * a mated axis or circle is drawn through too (a trailing arm reaches its hinge: without it
 * the arm's pivots float). An axis authored as a segment (a direction that is not a unit
 * vector: from one pivot to the other) is drawn to its far end as well (`name#end`, no handle).
 */
function originsOf(doc: AssemblyDoc, part: string): Origin[] {
  const p = doc.parts[part];
  const mated = matedRefs(doc);
  const out: { name: string; local: Vec3Tuple; skeleton: boolean; handle: boolean }[] = [];
  for (const [n, q] of Object.entries(p.points ?? {})) out.push({ name: n, local: v3(q), skeleton: true, handle: true });
  for (const [n, f] of Object.entries(p.frames ?? {})) out.push({ name: n, local: v3(f.origin), skeleton: true, handle: true });
  const bare = out.length === 0;
  // a mated entity whose origin is already drawn (a hinge through a point) adds nothing
  const drawnAt = (q: Vec3Tuple) => out.some((e) => e.skeleton && Math.hypot(e.local[0] - q[0], e.local[1] - q[1], e.local[2] - q[2]) <= 1e-9 * (1 + Math.hypot(q[0], q[1], q[2])));
  const joinedAt = (n: string, q: Vec3Tuple) => bare || (mated.has(`${part}.${n}`) && !drawnAt(q));
  for (const [n, a] of Object.entries(p.axes ?? {})) {
    const origin = v3(a.origin);
    const matedAxis = mated.has(`${part}.${n}`);
    out.push({ name: n, local: origin, skeleton: joinedAt(n, origin), handle: true });
    const d = a.direction, len = Math.hypot(d[0], d[1], d[2]);
    if (matedAxis && len > 0 && Math.abs(len - 1) > 1e-6) {
      const end: Vec3Tuple = [origin[0] + d[0], origin[1] + d[1], origin[2] + d[2]];
      if (!drawnAt(end)) out.push({ name: `${n}#end`, local: end, skeleton: true, handle: false });
    }
  }
  for (const [n, a] of Object.entries(p.planes ?? {})) out.push({ name: n, local: v3(a.origin), skeleton: bare, handle: true });
  for (const [n, c] of Object.entries(p.circles ?? {})) { const centre = v3(c.center); out.push({ name: n, local: centre, skeleton: joinedAt(n, centre), handle: true }); }
  // a part with mass is drawn to its mass centre too (a pendulum's bob is its mass, not a named point)
  if (p.mass && !drawnAt(v3(p.mass.centre))) out.push({ name: '#mass', local: v3(p.mass.centre), skeleton: true, handle: false });
  // a part drawn through a circle's centre alone (a wheel): spokes to its rim, so that it is seen, and seen turning
  if (out.filter((e) => e.skeleton).length === 1) {
    for (const [n, c] of Object.entries(p.circles ?? {})) {
      const [u, w] = perpendiculars(c.normal);
      for (const [k, [cu, cw]] of [[1, 0], [0, 1], [-1, 0], [0, -1]].entries()) {
        out.push({ name: `${n}#rim${k}`, local: [0, 1, 2].map((i) => c.center[i] + c.radius * (cu * u[i] + cw * w[i])) as Vec3Tuple, skeleton: true, handle: false });
      }
    }
  }
  return out;
}

/** Two unit vectors perpendicular to `n` and to each other. */
function perpendiculars(n: readonly number[]): [Vec3Tuple, Vec3Tuple] {
  const l = Math.hypot(n[0], n[1], n[2]) || 1;
  const z: Vec3Tuple = [n[0] / l, n[1] / l, n[2] / l];
  const seed: Vec3Tuple = Math.abs(z[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = seed[0] * z[0] + seed[1] * z[1] + seed[2] * z[2];
  const u0: Vec3Tuple = [seed[0] - d * z[0], seed[1] - d * z[1], seed[2] - d * z[2]];
  const lu = Math.hypot(u0[0], u0[1], u0[2]);
  const u: Vec3Tuple = [u0[0] / lu, u0[1] / lu, u0[2] / lu];
  return [u, [z[1] * u[2] - z[2] * u[1], z[2] * u[0] - z[0] * u[2], z[0] * u[1] - z[1] * u[0]]];
}

/** Poses as the library gives them (position, then rotation w, x, y, z) in the document's form. */
export function posesOf(poses: Readonly<Record<string, readonly number[]>>): Record<string, PoseDoc> {
  const out: Record<string, PoseDoc> = {};
  for (const [name, p] of Object.entries(poses)) out[name] = { position: [p[0], p[1], p[2]], rotation: [p[3], p[4], p[5], p[6]] };
  return out;
}

export function pointsFromPoses(doc: AssemblyDoc, poses: Readonly<Record<string, PoseDoc>>): Record<string, Vec3Tuple> {
  const out: Record<string, Vec3Tuple> = {};
  // plain arrays: gl-matrix computes in doubles there (its create() gives Float32Array)
  const q: quat = [0, 0, 0, 1], w: vec3 = [0, 0, 0];
  for (const part of Object.keys(doc.parts)) {
    const pj = poses[part] ?? doc.parts[part].pose;
    // the file's rotation is (w, x, y, z); gl-matrix's quaternion is (x, y, z, w)
    const r = pj.rotation;
    quat.set(q, r[1], r[2], r[3], r[0]);
    quat.normalize(q, q);
    for (const e of entityOrigins(doc, part)) {
      vec3.transformQuat(w, e.local, q);
      out[`${part}.${e.name}`] = [w[0] + pj.position[0], w[1] + pj.position[1], w[2] + pj.position[2]];
    }
  }
  return out;
}

export function structureOf(doc: AssemblyDoc, sm: SuspensionModel | null, geometryEditable: boolean): SceneStructure {
  const parts: SceneStructure['parts'] = [];
  for (const [name, p] of Object.entries(doc.parts)) {
    parts.push({ name, fixed: p.fixed ?? false, refs: entityOrigins(doc, name).filter((e) => e.skeleton).map((e) => `${name}.${e.name}`) });
  }
  const rods: SceneStructure['rods'] = [];
  const joints: SceneStructure['joints'] = [];
  for (const [id, m] of Object.entries(doc.mates)) {
    const mm = m as { type: string; a?: unknown; b?: unknown };
    if (typeof mm.a !== 'string' || typeof mm.b !== 'string') continue; // couplings name coordinates
    if (mm.type === 'distance') rods.push({ id, a: mm.a, b: mm.b });
    else joints.push({ id, type: mm.type, at: mm.a, to: mm.b });
  }
  // a compliant link (docs/compliance.md) is a spring instead of a distance mate, but still a rod to see
  const compliantLinks = (doc.suspension as { compliance?: { links?: Record<string, string> } } | undefined)?.compliance?.links ?? {};
  for (const id of Object.keys(compliantLinks)) {
    const f = doc.forces?.[id] as { a?: unknown; b?: unknown } | undefined;
    if (f && typeof f.a === 'string' && typeof f.b === 'string') rods.push({ id, a: f.a, b: f.b });
  }
  const handles: HandleInfo[] = [];
  const hardpoints: string[] = [];
  const localOf = (ref: string): Vec3Tuple | null => {
    const r = splitReference(ref);
    const e = r && doc.parts[r.owner] ? entityOrigins(doc, r.owner).find((x) => x.name === r.name) : undefined;
    return e ? e.local : null;
  };
  if (sm) {
    const axle = sm.roles.scope === 'axle';
    sm.corners.forEach((c, ci) => {
      const seen = new Set<string>();
      for (const [name, role] of Object.entries(c.roles.points)) {
        if (typeof role !== 'string' || seen.has(role)) continue;
        seen.add(role);
        const local = localOf(role);
        if (!local) continue;
        const part = splitReference(role)!.owner; // localOf found it
        const hp = axle ? `${c.roles.side}_${name}` : name;
        hardpoints.push(hp);
        const kind: HandleKind = part === sm.roles.chassis ? 'hardpoint' : part === 'rack' ? 'rack' : 'pull';
        handles.push({ ref: role, part, local, kind, label: hp, corner: ci, ...(geometryEditable ? { hardpoint: hp } : {}) });
      }
      handles.push({ ref: `${c.roles.upright}#wheel`, part: c.roles.upright, local: v3(c.wheelCenterLocal), kind: 'wheel', label: `${axle ? `${c.roles.side} ` : ''}wheel`, corner: ci });
    });
    // axle-level points (`hardpoints.center`: an anti-roll bar's axis or pivot), authored once
    for (const [name, role] of Object.entries(sm.roles.devices?.points ?? {})) {
      if (typeof role !== 'string') continue;
      const local = localOf(role);
      if (!local || splitReference(role)!.owner !== sm.roles.chassis) continue;
      hardpoints.push(name);
      handles.push({ ref: role, part: sm.roles.chassis, local, kind: 'hardpoint', label: name, ...(geometryEditable ? { hardpoint: name } : {}) });
    }
  } else {
    for (const [name, p] of Object.entries(doc.parts)) {
      for (const e of entityOrigins(doc, name)) if (e.handle) handles.push({ ref: `${name}.${e.name}`, part: name, local: e.local, kind: p.fixed ? 'anchor' : 'pull', label: `${name}.${e.name}` });
    }
  }
  return { parts, rods, joints, handles, hardpoints };
}

export function roleName(sm: SuspensionModel, ci: number, role: PointRole): string | null {
  if (typeof role !== 'string') return null;
  for (const [name, r] of Object.entries(sm.corners[ci].roles.points)) if (r === role) return name;
  return null;
}

export function cornerGeometry(sm: SuspensionModel, ev: Pick<LiveSuspensionAnalysis, 'positions' | 'metrics'>, steering: readonly SteeringAxis[] = []): CornerGeometry[] {
  const axle = sm.roles.scope === 'axle';
  return sm.corners.map((c, i) => {
    const pre = axle ? `${c.roles.side}_` : '';
    const pos = ev.positions;
    const at = (expr: PointExpr) => v3(sm.pointValue(expr));
    const ai = at(c.axle[0]), ao = at(c.axle[1]);
    const d = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]];
    const l = Math.hypot(d[0], d[1], d[2]) || 1;
    const wc = pos[`${pre}wheel_center`] ?? v3(sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }]));
    const metrics = (axle ? (ev.metrics as Record<string, MetricValues>)[c.roles.side] : ev.metrics) as MetricValues;
    const sa = c.roles.steering_axis;
    const num = (k: string) => (typeof metrics[k] === 'number' ? (metrics[k] as number) : null);
    const svx = num('svic_x'), svz = num('svic_z'), fvy = num('fvic_y'), fvz = num('fvic_z');
    return {
      side: c.roles.side,
      wheelCenter: v3(wc),
      spin: [d[0] / l, d[1] / l, d[2] / l],
      tireRadius: c.tireRadius,
      sectionWidth: c.roles.wheel.tire.section_width,
      contact: pos[`${pre}wheel_contact_centre`] ? v3(pos[`${pre}wheel_contact_centre`]) : null,
      steeringAxis: sa ? [at(sm.resolveRole(sa[0])), at(sm.resolveRole(sa[1]))] : null,
      damper: c.roles.damper ? [at(sm.resolveRole(c.roles.damper[0])), at(sm.resolveRole(c.roles.damper[1]))] : null,
      svic: svx !== null && svz !== null ? [svx, wc[1], svz] : null,
      fvic: fvy !== null && fvz !== null ? [wc[0], fvy, fvz] : null,
      screwAxis: screwOf(steering.find((a) => a.side === c.roles.side)),
    };
  });
}

export function screwOf(axis: SteeringAxis | undefined): CornerGeometry['screwAxis'] {
  if (!axis || axis.status !== 'valid' || !axis.point || !axis.direction) return null;
  return { point: v3(axis.point), direction: v3(axis.direction), pitch: axis.pitch };
}
