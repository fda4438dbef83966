/**
 * How a geometry file's number moves the parts' masses the dynamics build gives them
 * (suspension-dynamics.ts; docs/sensitivity.md "Geometry files"), exactly: the build is
 * followed step by step with each quantity's rate alongside —
 *   - a `dynamics.masses` entry on a part: its centre the part's points' centroid unless
 *     given, its inertia the points as equal point masses about that centre unless given,
 *     I = Σ (m/n)(|r|² 1 − r rᵀ), r = p − c, so İ = Σ (ṁ/n)(…) + (m/n)(2 r·ṙ 1 − ṙ rᵀ − r ṙᵀ);
 *   - the sprung mass at the vehicle's cg or the chassis points' centroid (its heave axis there);
 *   - the wheel on each upright: at the wheel centre wc = ao − offset·s, a solid cylinder
 *     I = I_p 1 + (I_a − I_p) s sᵀ unless given, s the spin axis turning with the axle points;
 *   - `dynamics.links`: half a link's mass at each end point on a moving part;
 * and the lumps on one part combined as the build does (masses add, the centre is the
 * mass-weighted mean, inertias move to it by parallel axes), differentiated likewise. A
 * point's rate is read off the build (a copy of the hardpoint moves one for one, others
 * not at all; anything else refuses). The result is each part's (ṁ, ċ, İ), applied by
 * `lumpTerm` as ∂(M v̇ + g(v) − Q_gravity)/∂θ with M the body's spatial mass (kernel/mass.ts).
 */
import type { AssemblyDoc } from '../../../assembly/types';
import type { Geometry } from '../../files';
import { tireRadius } from '../../files';
import { suspensionAssembly } from '../../build/template';
import { normalizeRate } from '../../../../kernel/vec3';
import { gyroscopic } from '../../../../kernel/mass';
import { rotationMatrix } from '../../../../kernel/dual';
import type { DynamicsModel } from '../../../mechanics/build';
import type { ParameterTerm } from '../../../gradients/run';
import type { SuspensionDynamicsSpec } from '../../dynamics/model';
import { wheelMoments } from '../../dynamics/wheel-inertia';

/** A part's mass, centre (mm) and inertia (kg·mm², row-major) with their rates per unit of the parameter. */
export interface LumpRate { part: string; mass: number; centre: number[]; inertia: number[]; dmass: number; dcentre: number[]; dinertia: number[] }

interface Lump { m: number; dm: number; c: number[]; dc: number[]; I: number[]; dI: number[] }

const AXES = 'xyz';
const zeros = (n: number) => new Array<number>(n).fill(0);
/** m(|r|² 1 − r rᵀ) into I and its rate into dI. */
function addPoint(I: number[], dI: number[], m: number, dm: number, r: readonly number[], dr: readonly number[]): void {
  const r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2], rdr = r[0] * dr[0] + r[1] * dr[1] + r[2] * dr[2];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    I[i * 3 + j] += m * ((i === j ? r2 : 0) - r[i] * r[j]);
    dI[i * 3 + j] += dm * ((i === j ? r2 : 0) - r[i] * r[j]) + m * ((i === j ? 2 * rdr : 0) - dr[i] * r[j] - r[i] * dr[j]);
  }
}

/**
 * Each part's mass rates when the file's number `name` moves (doc0, doc1: the built
 * assemblies at θ and θ + delta, only to see which points copy the hardpoint), with the
 * sprung mass' centre rate (`heave`: its axis sits there); a string says why not.
 */
export function lumpRates(geometry: Geometry, spec: SuspensionDynamicsSpec, name: string, doc0: AssemblyDoc, doc1: AssemblyDoc, delta: number):
  { parts: LumpRate[]; heave: number[] } | string {
  const hardpoint = !name.startsWith('spring.') && !name.startsWith('dynamics.');
  const axis = AXES.indexOf(name.slice(-1));
  const hpName = name.slice(0, -2);
  const hpValue = hardpoint ? hardpointValue(geometry, hpName) : undefined;
  const base = suspensionAssembly(geometry).parts;
  let why: string | null = null;
  /** A built point's rate: a copy of the hardpoint e_axis, a point that stays 0. */
  const pointRate = (part: string, point: string): number[] => {
    const x0 = doc0.parts[part].points![point], x1 = doc1.parts[part]?.points?.[point];
    const out = zeros(3);
    if (!x1 || x1.every((v, i) => v === x0[i])) return out;
    const copy = hpValue && x0.every((v, i) => v === hpValue[i]) && x1.every((v, i) => Math.abs(v - x0[i] - (i === axis ? delta : 0)) <= 1e-9 * Math.max(1, Math.abs(v)));
    if (!copy) why ??= `point "${part}.${point}" moves otherwise than with the hardpoint`;
    else out[axis] = 1;
    return out;
  };
  const is = (n: string) => (name === n ? 1 : 0);
  const e = (n: string) => AXES.split('').map((a) => is(`${n}.${a}`));
  const lumps = new Map<string, Lump[]>();
  const add = (part: string, l: Lump) => { if (!lumps.has(part)) lumps.set(part, []); lumps.get(part)!.push(l); };
  const pointsOf = (part: string) => Object.keys(base[part]?.points ?? {}).map((p) => ({ p: [...doc0.parts[part].points![p]], dp: pointRate(part, p) }));
  const centroid = (pts: { p: number[]; dp: number[] }[]) => ({
    c: [0, 1, 2].map((i) => pts.reduce((s, q) => s + q.p[i], 0) / pts.length), dc: [0, 1, 2].map((i) => pts.reduce((s, q) => s + q.dp[i], 0) / pts.length),
  });
  const prefixes = geometry.corners.map((c) => (geometry.scope === 'axle' ? `${c.side}_` : ''));
  const partsFor = (key: string): string[] => (base[key] ? [key] : prefixes.map((px) => `${px}${key}`).filter((p) => base[p]));
  const chassis = 'chassis';
  for (const [key, ms] of Object.entries(spec.masses)) {
    if (key === 'wheel') continue;
    const path = `dynamics.masses.${key}`;
    for (const part of partsFor(key).filter((p) => p !== chassis)) {
      const pts = pointsOf(part), dm = is(`${path}.mass`);
      const { c, dc } = ms.centre ? { c: [...ms.centre], dc: e(`${path}.centre`) } : centroid(pts);
      let I = zeros(9), dI = zeros(9);
      if (ms.inertia) { I = ms.inertia.flat(); e(`${path}.inertia`).forEach((x, k) => { dI[k * 4] = x; }); } else {
        const n = Math.max(1, pts.length);
        for (const q of pts) addPoint(I, dI, ms.mass / n, dm / n, q.p.map((x, i) => x - c[i]), q.dp.map((x, i) => x - dc[i]));
      }
      add(part, { m: ms.mass, dm, c, dc, I, dI });
    }
  }
  let heave = zeros(3);
  if (spec.sprungMass !== null) {
    const cg = geometry.vehicle.cg_position;
    const { c, dc } = cg ? { c: [...cg], dc: zeros(3) } : centroid(pointsOf(chassis));
    heave = dc;
    add(chassis, { m: spec.sprungMass, dm: is('dynamics.sprung_mass'), c, dc, I: zeros(9), dI: zeros(9) });
  }
  const wheel = spec.masses.wheel;
  geometry.corners.forEach((corner, i) => {
    if (!wheel) return;
    const hp = corner.hardpoints, set = geometry.scope === 'axle' ? `${corner.side}.` : '';
    const ai = hp.axle_inboard, ao = hp.axle_outboard, dai = e(`${set}axle_inboard`), dao = e(`${set}axle_outboard`);
    const a = [0, 1, 2].map((k) => ao[k] - ai[k]), l = Math.hypot(a[0], a[1], a[2]), s = a.map((x) => x / l);
    const ds = Array.from(normalizeRate(new Float64Array(3), a, [0, 1, 2].map((k) => dao[k] - dai[k])));
    const off = geometry.wheel.offset, R = tireRadius(geometry.wheel.tire), width = geometry.wheel.tire.section_width;
    const c = [0, 1, 2].map((k) => ao[k] - off * s[k]), dc = [0, 1, 2].map((k) => dao[k] - off * ds[k]);
    const dm = is('dynamics.masses.wheel.mass');
    let I: number[], dI: number[];
    if (wheel.inertia) { I = wheel.inertia.flat(); dI = zeros(9); e('dynamics.masses.wheel.inertia').forEach((x, k) => { dI[k * 4] = x; }); } else {
      // the file's moments stay as the mass moves (each its own number), the cylinder's grow with it
      const { Ia, Ip } = wheelMoments(wheel, geometry);
      const dIa = wheel.spin_inertia !== undefined ? is('dynamics.masses.wheel.spin_inertia') : (dm * R * R) / 2;
      const dIp = wheel.transverse_inertia !== undefined ? is('dynamics.masses.wheel.transverse_inertia') : (dm * (3 * R * R + width * width)) / 12;
      I = zeros(9); dI = zeros(9);
      for (let r = 0; r < 3; r++) for (let q = 0; q < 3; q++) {
        I[r * 3 + q] = Ip * (r === q ? 1 : 0) + (Ia - Ip) * s[r] * s[q];
        dI[r * 3 + q] = dIp * (r === q ? 1 : 0) + (dIa - dIp) * s[r] * s[q] + (Ia - Ip) * (ds[r] * s[q] + s[r] * ds[q]);
      }
    }
    add(`${prefixes[i]}upright`, { m: wheel.mass, dm, c, dc, I, dI });
  });
  for (const [key, m] of Object.entries(spec.links)) {
    const ids = (doc0.mates[key] ? [key] : prefixes.map((px) => `${px}${key}`)).filter((id) => doc0.mates[id]?.type === 'distance');
    for (const id of ids) {
      const mate = doc0.mates[id];
      for (const ref of [mate.a, mate.b]) {
        const [part, point] = ref.split('.');
        if (doc0.parts[part].fixed) continue;
        add(part, { m: m / 2, dm: is(`dynamics.links.${key}`) / 2, c: [...doc0.parts[part].points![point]], dc: pointRate(part, point), I: zeros(9), dI: zeros(9) });
      }
    }
  }
  if (why) return why;
  const parts: LumpRate[] = [];
  for (const [part, ls] of lumps) {
    const mass = ls.reduce((s, l) => s + l.m, 0), dmass = ls.reduce((s, l) => s + l.dm, 0);
    const centre = [0, 1, 2].map((i) => ls.reduce((s, l) => s + l.m * l.c[i], 0) / mass);
    const dcentre = [0, 1, 2].map((i) => (ls.reduce((s, l) => s + l.dm * l.c[i] + l.m * l.dc[i], 0) - dmass * centre[i]) / mass);
    const inertia = zeros(9), dinertia = zeros(9);
    for (const l of ls) {
      for (let k = 0; k < 9; k++) { inertia[k] += l.I[k]; dinertia[k] += l.dI[k]; }
      addPoint(inertia, dinertia, l.m, l.dm, l.c.map((x, i) => x - centre[i]), l.dc.map((x, i) => x - dcentre[i]));
    }
    // the build's own numbers, as a check that this follows it
    const built = doc0.parts[part].mass;
    const near = (a: number, b: number, s: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, s);
    const scaleI = Math.max(...inertia.map(Math.abs));
    if (!built || !near(built.mass, mass, mass) || built.centre.some((x, i) => !near(x, centre[i], Math.abs(x))) || built.inertia.flat().some((x, k) => !near(x, inertia[k], scaleI))) {
      return `the mass of "${part}" is not built as followed here`;
    }
    if (dmass !== 0 || dcentre.some((x) => x !== 0) || dinertia.some((x) => x !== 0)) parts.push({ part, mass, centre, inertia, dmass, dcentre, dinertia });
  }
  return { parts, heave };
}

function hardpointValue(g: Geometry, name: string): readonly number[] | undefined {
  const parts = name.split('.');
  if (parts.length === 1) return g.scope === 'axle' ? undefined : g.corners[0].hardpoints[parts[0]];
  return parts[0] === 'center' ? g.center?.[parts[1]] : g.corners.find((c) => c.side === parts[0])?.hardpoints[parts[1]];
}

/**
 * ∂R/∂θ of the parts' masses moving at the given rates: with M the body's spatial mass
 * [[I + m(|c|² 1 − c cᵀ), m[c]ₓ], [−m[c]ₓ, m 1]] (t, mm: kg/1000), Ṁ v̇ + g_Ṁ(v) − Q̇_gravity,
 * Q_gravity = (m c × Rᵀg, m Rᵀg).
 */
export function lumpTerm(dyn: DynamicsModel, layout: Int32Array, rates: readonly LumpRate[]): ParameterTerm {
  const { system } = dyn;
  const bodies = rates.flatMap((r) => {
    const body = dyn.bodies.find((b) => b.part === r.part);
    if (!body || layout[body.variable] < 0) return [];
    const m = r.mass / 1000, dm = r.dmass / 1000, c = r.centre, dc = r.dcentre;
    const dM = new Float64Array(36);
    const cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2], cdc = c[0] * dc[0] + c[1] * dc[1] + c[2] * dc[2];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      dM[i * 6 + j] = r.dinertia[i * 3 + j] / 1000 + dm * ((i === j ? cc : 0) - c[i] * c[j]) + m * ((i === j ? 2 * cdc : 0) - dc[i] * c[j] - c[i] * dc[j]);
    }
    // d(m[c]ₓ) = ṁ[c]ₓ + m[ċ]ₓ = [ṁc + mċ]ₓ
    const k = [0, 1, 2].map((i) => dm * c[i] + m * dc[i]);
    const X = [0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { dM[i * 6 + 3 + j] = X[i * 3 + j]; dM[(3 + i) * 6 + j] = -X[i * 3 + j]; }
    dM[21] = dM[28] = dM[35] = dm;
    return [{ c0: layout[body.variable], offset: system.variables[body.variable].offset, dM, k, dm }];
  });
  const gb = new Float64Array(6), R = new Float64Array(9), gl = new Float64Array(3), G = dyn.gravity;
  return (out, v, vdot) => {
    for (const b of bodies) {
      const { c0, dM, k, dm } = b;
      for (let i = 0; i < 6; i++) { let s = 0; for (let j = 0; j < 6; j++) s += dM[i * 6 + j] * vdot[c0 + j]; out[c0 + i] += s; }
      gyroscopic(gb, dM, v, c0, null);
      for (let i = 0; i < 6; i++) out[c0 + i] += gb[i];
      rotationMatrix(R, system.state, b.offset + 3);
      for (let i = 0; i < 3; i++) gl[i] = R[i] * G[0] + R[3 + i] * G[1] + R[6 + i] * G[2];
      // d(m c × g) = (ṁ c + m ċ) × g, d(m g) = ṁ g
      out[c0] -= k[1] * gl[2] - k[2] * gl[1]; out[c0 + 1] -= k[2] * gl[0] - k[0] * gl[2]; out[c0 + 2] -= k[0] * gl[1] - k[1] * gl[0];
      for (let i = 0; i < 3; i++) out[c0 + 3 + i] -= dm * gl[i];
    }
  };
}
