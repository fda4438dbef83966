/**
 * The bushing and link stiffnesses of a compliant suspension as parameters
 * (docs/compliance.md, "Gradients and fit"), each named by its path in the file
 * (`compliance.bushings.<pickup>.radial`, `compliance.links.left.trackrod`), and what a
 * change of one does to the force elements it sets: ∂Q/∂k (the generalized force per unit
 * of the file's number) and ∂K/∂k·x (the elements' tangent stiffness per unit, along x).
 *
 * A bushing's force is linear in its rates (−k d along each axis, −k_r θ about it) and a
 * compliant link's tension is k (l − l₀) (no preload), so each derivative is the element
 * evaluated with the unit rate in place of the file's: exact, by the elements' own AD.
 */
import { BushingForce, PointToPointForce } from '../../../mates/forces';
import type { DynamicsModel } from '../../mechanics/build';
import type { Geometry } from '../files';
import { InternalError } from '../../../kernel/errors';
import { bushingId } from '../build/compliance';

/** The four rates of a bushing entry: which slots of the element's stiffness they set. */
const BUSHING_RATES = {
  axial: { rotational: false, slots: [0] },
  radial: { rotational: false, slots: [1, 2] },
  torsional: { rotational: true, slots: [0] },
  conical: { rotational: true, slots: [1, 2] },
} as const;
export type BushingRate = keyof typeof BUSHING_RATES;

/** One element a parameter sets: its index in the dynamic model's forces and what it sets there. */
interface Target { index: number; block: BushingForce | PointToPointForce; rate: BushingRate | 'link' }

export interface StiffnessParameter {
  /** The path of the number in the file: `compliance.bushings.<key>.<rate>`, `compliance.links.<key>`. */
  name: string;
  /** The file's value (N/mm; N·mm/deg for torsional and conical). */
  value: number;
  targets: Target[];
}

/**
 * Every stiffness of the file as a parameter: each bushing's radial and axial rates and its
 * torsional and conical ones where the file gives them, each link's.
 * An entry without `left.`/`right.` on an axle sets both sides: one parameter, two elements.
 */
export function stiffnessParameters(geometry: Geometry, dyn: DynamicsModel): StiffnessParameter[] {
  const compliance = geometry.compliance;
  if (!compliance) return [];
  const byName = new Map<string, StiffnessParameter>();
  const add = (name: string, value: number, target: Target) => {
    const p = byName.get(name) ?? { name, value, targets: [] };
    p.targets.push(target);
    byName.set(name, p);
  };
  const element = (id: string) => dyn.elements.find((e) => e.id === id);
  const axle = geometry.scope === 'axle';
  compliance.corners.forEach((c, ci) => {
    const px = axle ? `${geometry.corners[ci].side}_` : '';
    for (const [pickup, spec] of Object.entries(c.bushings)) {
      const e = element(bushingId(px, pickup));
      if (!e || !(e.block instanceof BushingForce)) continue;
      // a torsional or conical rate left out (0: the free turn of the ideal pivot) is no number of the file
      for (const rate of Object.keys(BUSHING_RATES) as BushingRate[]) if (spec[rate] > 0 || rate === 'radial' || rate === 'axial') add(`${spec.path}.${rate}`, spec[rate], { index: e.index, block: e.block, rate });
    }
    for (const [link, k] of Object.entries(c.links)) {
      const e = element(`${px}${link}`);
      if (!e || !(e.block instanceof PointToPointForce)) continue;
      add(c.linkPaths?.[link] ?? `compliance.links.${link}`, k, { index: e.index, block: e.block, rate: 'link' });
    }
  });
  for (const [link, k] of Object.entries(compliance.center)) {
    const e = element(link);
    if (e && e.block instanceof PointToPointForce) add(`compliance.links.${link}`, k, { index: e.index, block: e.block, rate: 'link' });
  }
  // bushings in file order, then links: a stable order for the gradient records
  return [...byName.values()];
}

/** The largest generalized force (N, N·mm) any element of the parameters carries at the current state. */
export function largestElementForce(dyn: DynamicsModel, parameters: readonly StiffnessParameter[]): number {
  let most = 0;
  for (const p of parameters) for (const t of p.targets) {
    const m = dyn.forces.slotsOf(t.index).length;
    const q = new Float64Array(m);
    t.block.evaluate(dyn.system.state, dyn.forces.offsetsOf(t.index), new Float64Array(m), 0, q, new Float64Array(m * m), null);
    for (const x of q) most = Math.max(most, Math.abs(x));
  }
  return most;
}

/**
 * Per unit of the parameter: ∂Q/∂k added into `Q` (tangent layout, size n) and, with `x`
 * given, ∂K/∂k·x added into `Kx` — at the dynamic model's current state.
 */
export function stiffnessDerivative(dyn: DynamicsModel, p: StiffnessParameter, Q: Float64Array | null, x: Float64Array | null = null, Kx: Float64Array | null = null): void {
  const angle = dyn.model.angleFactor;
  for (const t of p.targets) {
    const slots = dyn.forces.slotsOf(t.index);
    const m = slots.length;
    const lq = new Float64Array(m), lk = new Float64Array(m * m);
    withUnitRate(t, angle, () => t.block.evaluate(dyn.system.state, dyn.forces.offsetsOf(t.index), new Float64Array(m), 0, lq, lk, null));
    for (let i = 0; i < m; i++) {
      const gi = slots[i];
      if (gi < 0) continue;
      if (Q) Q[gi] += lq[i];
      if (x && Kx) { let s = 0; for (let j = 0; j < m; j++) if (slots[j] >= 0) s += lk[i * m + j] * x[slots[j]]; Kx[gi] += s; }
    }
  }
}

/**
 * Run f with the element set to the unit rate of the parameter (every other rate 0), then
 * restore it. A link's law is k (l − l₀): its unit is the law with slope 1.
 */
function withUnitRate(t: Target, angle: number, f: () => void): void {
  if (t.rate === 'link') {
    const block = t.block as PointToPointForce;
    const law = block.spring as { slope: number; y0?: number } | null;
    if (!law || typeof law.slope !== 'number' || (law.y0 ?? 0) !== 0) throw new InternalError(`${block.owner}: a compliant link's law is linear without preload`);
    const k = law.slope;
    (law as { slope: number }).slope = 1;
    try { f(); } finally { (law as { slope: number }).slope = k; }
    return;
  }
  const block = t.block as BushingForce;
  const stiffness = block.stiffness, rotational = block.rotationalStiffness;
  const saved = [...stiffness, ...rotational];
  const { rotational: turn, slots } = BUSHING_RATES[t.rate];
  try {
    for (let i = 0; i < 3; i++) { stiffness[i] = 0; rotational[i] = 0; }
    // the file's torsional and conical rates are per degree; the element's per radian
    for (const s of slots) (turn ? rotational : stiffness)[s] = turn ? 1 / angle : 1;
    f();
  } finally {
    for (let i = 0; i < 3; i++) { stiffness[i] = saved[i]; rotational[i] = saved[3 + i]; }
  }
}
