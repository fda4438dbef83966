/**
 * What a geometry file's axle point (`axle_inboard`, `axle_outboard`) moves in the dynamics
 * assembly (suspension-dynamics.ts builds it): the spin axis s = (ao − ai)/|ao − ai| turns
 * at ṡ = (I − s sᵀ)(ȧo − ȧi)/l; the wheel centre wc = ao − offset·s moves at ȧo − offset·ṡ;
 * the contact point c = wc + R n, n = (s_z s − e_z)/|s_z s − e_z| (the wheel's lowest point),
 * at ẇc + R (I − n nᵀ)(ṡ_z s + s_z ṡ)/|s_z s − e_z| — the road's surface point and both halves
 * of its guide sit there. Each move is a weighted sum of hardpoint parameters (one per
 * coordinate), the turn the spin axis' (read by the tyre).
 */
import type { AssemblyDoc } from '../../../assembly/types';
import type { Geometry } from '../../files';
import { tireRadius } from '../../files';
import type { CombinedParameter } from '../../../gradients/run';
import { normalizeRate } from '../../../../kernel/vec3';

type Part = CombinedParameter['parts'][number];

/**
 * An axle point's rates on its corner (`outboard`, or the inboard point) along coordinate `axis`:
 * the unit spin axis s and its rate ṡ, the wheel centre's rate and the design contact's (the
 * wheel's lowest point at the tyre's radius), all in the file's axes.
 */
export function axlePointRates(geometry: Geometry, hardpoints: Geometry['corners'][number]['hardpoints'], outboard: boolean, axis: 0 | 1 | 2):
  { s: number[]; sd: number[]; wcd: number[]; cd: number[] } {
  const ai = hardpoints.axle_inboard, ao = hardpoints.axle_outboard;
  const a = [ao[0] - ai[0], ao[1] - ai[1], ao[2] - ai[2]], l = Math.hypot(a[0], a[1], a[2]), s = a.map((x) => x / l);
  const e = [0, 0, 0]; e[axis] = 1;
  const sign = outboard ? 1 : -1;
  const sd = Array.from(normalizeRate(new Float64Array(3), a, e.map((x) => sign * x)));
  const off = geometry.wheel.offset, R = tireRadius(geometry.wheel.tire);
  const wcd = [0, 1, 2].map((i) => (outboard ? e[i] : 0) - off * sd[i]);
  const down = [s[2] * s[0], s[2] * s[1], s[2] * s[2] - 1];
  const downd = [0, 1, 2].map((i) => sd[2] * s[i] + s[2] * sd[i]);
  const nd = Array.from(normalizeRate(new Float64Array(3), down, downd));
  const cd = [0, 1, 2].map((i) => wcd[i] + R * nd[i]);
  return { s, sd, wcd, cd };
}

/**
 * The axle point's moves as parameter parts and the built paths they cover; null when `name` is no axle point.
 * With `beams` (the vehicle's axles, src/suspension/vehicle/parameters.ts) a beam axle's wheel
 * centre and spin axis move on the beam (its `<side>_wheel_centre`, `<side>_spin`); the corner
 * dynamics leave a beam's axle points refused, as before.
 */
export function axlePointMoves(geometry: Geometry, doc: AssemblyDoc, name: string, beams = false): { parts: Part[]; paths: Set<string> } | null {
  const m = /^(?:(left|right)\.)?axle_(inboard|outboard)\.([xyz])$/.exec(name);
  if (!m) return null;
  const corner = geometry.scope === 'axle' ? geometry.corners.find((c) => c.side === m[1]) : m[1] ? undefined : geometry.corners[0];
  if (!corner) return null;
  const px = geometry.scope === 'axle' ? `${corner.side}_` : '', axis = 'xyz'.indexOf(m[3]) as 0 | 1 | 2;
  const { sd, wcd, cd } = axlePointRates(geometry, corner.hardpoints, m[2] === 'outboard', axis);
  const road = `${px}road`;
  const support = doc.parts[road] && Object.entries(doc.parts).find(([, p]) => p.axes?.[`${px}road_guide`])?.[0];
  const beam = beams && !doc.parts[`${px}upright`] ? Object.entries(doc.parts).find(([, p]) => p.axes?.[`${px}spin`] && p.points?.[`${px}wheel_centre`])?.[0] : undefined;
  const upright = beam ?? `${px}upright`, spin = beam ? `${px}spin` : 'spin', centre = beam ? `${px}wheel_centre` : 'wheel_centre';
  if (!doc.parts[upright]?.axes?.[spin] || !support) return null;
  const parts: Part[] = [], paths = new Set<string>();
  const moved = (part: string, group: 'points' | 'axes', entity: string, v: readonly number[]) => {
    for (let k = 0; k < 3; k++) if (v[k] !== 0) parts.push({ parameter: { kind: 'hardpoint', part, entity, axis: k as 0 | 1 | 2, group }, weight: v[k] });
    for (let k = 0; k < 3; k++) paths.add(`parts.${part}.${group}.${entity}${group === 'points' ? '' : '.origin'}[${k}]`);
  };
  moved(upright, 'points', centre, wcd);
  moved(upright, 'axes', spin, wcd);
  parts.push({ parameter: { kind: 'hardpoint', part: upright, entity: spin, axis, group: 'axes', turn: { rate: sd }, still: true }, weight: 1 });
  for (let k = 0; k < 3; k++) paths.add(`parts.${upright}.axes.${spin}.direction[${k}]`);
  moved(road, 'points', 'surface', cd);
  moved(road, 'axes', 'guide', cd);
  moved(support, 'axes', `${px}road_guide`, cd);
  return { parts, paths };
}
