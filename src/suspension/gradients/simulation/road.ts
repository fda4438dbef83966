/**
 * The road's numbers as parameters of a geometry file's run (docs/sensitivity.md, "Geometry
 * files"): `dynamics.road.bump.height|duration|start`, `dynamics.road.sine.amplitude|
 * frequency|phase|offset` (on an axle with a road per side, `dynamics.road.left.bump.height`
 * …). The build drives each road part by a motion whose row is Φ = (x − f(t))·scale
 * (kernel/motion.ts), so a road number θ enters the run only there: Φ_θ = −scale·∂f/∂θ(t),
 * exact for the law the build writes — a sine as it stands, a bump as the (1 − cos) table of
 * suspension-dynamics.ts, piecewise linear between its rows, differentiated with its rows'
 * times and heights (on a row the left segment's, as the table reads it).
 */
import { InternalError } from '../../../../kernel/errors';
import type { Geometry } from '../../files';
import type { RoadSpec, SuspensionDynamicsSpec } from '../../dynamics/model';

const FIELDS: Record<string, readonly string[]> = { bump: ['height', 'duration', 'start'], sine: ['amplitude', 'frequency', 'phase', 'offset'] };
/** Rows of the bump's table (suspension-dynamics.ts BUMP_SEGMENTS). */
const SEGMENTS = 64;

/** Per side, the name prefix of its road's numbers (`dynamics.road.` when one road serves every side). */
function prefixes(g: Geometry, spec: SuspensionDynamicsSpec): [side: string, prefix: string][] {
  const sides = g.corners.map((c) => c.side).filter((s) => spec.road[s]);
  const shared = sides.length === g.corners.length && sides.every((s) => spec.road[s] === spec.road[sides[0]]);
  return sides.map((s) => [s, shared ? 'dynamics.road.' : `dynamics.road.${s}.`]);
}

/** The road numbers of the file, in file order. */
export function roadParameterNames(g: Geometry, spec: SuspensionDynamicsSpec): string[] {
  const out: string[] = [];
  for (const [side, px] of prefixes(g, spec)) {
    const r = spec.road[side], kind = Object.keys(r)[0];
    for (const f of FIELDS[kind] ?? []) if (!out.includes(`${px}${kind}.${f}`)) out.push(`${px}${kind}.${f}`);
  }
  return out;
}

/** The sides whose road the name moves, with its kind and field; null when it is no road number of the file. */
export function roadParameter(g: Geometry, spec: SuspensionDynamicsSpec, name: string): { sides: string[]; kind: 'bump' | 'sine'; field: string } | null {
  const hit = prefixes(g, spec).filter(([side, px]) => {
    if (!name.startsWith(px)) return false;
    const [kind, field, ...rest] = name.slice(px.length).split('.');
    return !rest.length && kind in spec.road[side] && (FIELDS[kind] ?? []).includes(field);
  });
  if (!hit.length) return null;
  const [kind, field] = name.slice(hit[0][1].length).split('.');
  return { sides: hit.map(([s]) => s), kind: kind as 'bump' | 'sine', field };
}

/** The road number's value (sine defaults written), or undefined. */
export function roadValue(g: Geometry, spec: SuspensionDynamicsSpec, name: string): number | undefined {
  const p = roadParameter(g, spec, name);
  if (!p) return undefined;
  return ((spec.road[p.sides[0]] as Record<string, Record<string, number | undefined>>)[p.kind][p.field]) ?? 0;
}

/** Move the road number by d in the spec (in place; every side it serves). */
export function moveRoad(g: Geometry, spec: SuspensionDynamicsSpec, name: string, d: number): boolean {
  const p = roadParameter(g, spec, name);
  if (!p) return false;
  const seen = new Set<object>();
  for (const side of p.sides) {
    const body = (spec.road[side] as Record<string, Record<string, number>>)[p.kind];
    if (seen.has(body)) continue;
    seen.add(body);
    body[p.field] = (body[p.field] ?? 0) + d;
  }
  return true;
}

/**
 * Why the number cannot be followed, or null: the run's start reads the law's rate and
 * acceleration at t = 0 (its velocities and accelerations), whose moves the gradient does not
 * carry (a sine's amplitude, frequency and phase move them unless cos φ and sin φ both vanish
 * where they enter; a bump's table is flat at t = 0 when it starts later, and every table's
 * acceleration is zero).
 */
export function roadStartMoves(road: RoadSpec, field: string): string | null {
  if (!('sine' in road) || field === 'offset') return null;
  const { amplitude: A, frequency: f, phase = 0 } = road.sine, w = 2 * Math.PI * f, ph = (phase * Math.PI) / 180, rad = Math.PI / 180;
  const c = Math.cos(ph), s = Math.sin(ph);
  // f'(0) = A w cos φ, f''(0) = −A w² sin φ, by the number
  const [rate, acc] = field === 'amplitude' ? [w * c, -w * w * s] : field === 'frequency' ? [A * 2 * Math.PI * c, -A * 2 * w * 2 * Math.PI * s] : [-A * w * s * rad, -A * w * w * c * rad];
  const big = (x: number) => Math.abs(x) > 1e-12 * Math.max(1, Math.abs(A) * w * w);
  return big(rate) || big(acc) ? `it moves the road's ${big(rate) ? 'rate' : 'acceleration'} at t = 0 (the start's motion), not differentiated yet` : null;
}

/**
 * ∂f/∂θ(t) of a road's height law (the build's, `shift` mm added: a drop) by its number
 * `field`.
 */
export function roadRate(road: RoadSpec, field: string, shift: number): (t: number) => number {
  if ('sine' in road) {
    const { amplitude: A, frequency: f, phase = 0 } = road.sine, rad = Math.PI / 180;
    const arg = (t: number) => 2 * Math.PI * f * t + phase * rad;
    if (field === 'amplitude') return (t) => Math.sin(arg(t));
    if (field === 'frequency') return (t) => A * Math.cos(arg(t)) * 2 * Math.PI * t;
    if (field === 'phase') return (t) => A * Math.cos(arg(t)) * rad;
    return () => 1;
  }
  if (!('bump' in road)) throw new InternalError('roadRate: a table road has no named numbers');
  // the build's table rows (t_k, y_k) and their rates (ṫ_k, ẏ_k)
  const { height, duration, start } = road.bump;
  const ts: number[] = [], ys: number[] = [], dts: number[] = [], dys: number[] = [];
  if (start > 0) { ts.push(0); ys.push(shift); dts.push(0); dys.push(0); }
  for (let k = 0; k <= SEGMENTS; k++) {
    const s = k / SEGMENTS, bell = 0.5 * (1 - Math.cos(2 * Math.PI * s));
    ts.push(start + s * duration); ys.push(shift + height * bell);
    dts.push(field === 'start' ? 1 : field === 'duration' ? s : 0);
    dys.push(field === 'height' ? bell : 0);
  }
  const n = ts.length;
  return (t) => {
    // as kernel/motion.ts TableFunction reads it: held at the ends, else the segment with t in (t_i, t_i+1]
    if (t <= ts[0]) return dys[0];
    if (t >= ts[n - 1]) return dys[n - 1];
    let i = 0;
    while (i < n - 2 && t > ts[i + 1]) i++;
    const span = ts[i + 1] - ts[i], lam = (t - ts[i]) / span, slope = (ys[i + 1] - ys[i]) / span;
    // f = y_i + (y_i+1 − y_i) λ, λ = (t − t_i)/(t_i+1 − t_i)
    return dys[i] * (1 - lam) + dys[i + 1] * lam - slope * (dts[i] * (1 - lam) + dts[i + 1] * lam);
  };
}
