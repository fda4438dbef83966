/**
 * The axle files' `compliance:` rates as numbers of the vehicle (docs/vehicle.md "Gradients"):
 * each stiffness a file gives, under its path in the file with the axle's name before it —
 * `front.compliance.bushings.lower_wishbone_inboard_front.radial` (N/mm; `torsional` and
 * `conical` N·mm/deg), `rear.compliance.links.trackrod` (N/mm, a link's axial rate),
 * `front.compliance.links.left.trackrod` where the file sets one side. A key without a side
 * sets both sides' elements, so its number moves both.
 *
 * What a rate moves in the vehicle's assembly is found by building the axle's dynamics
 * assembly with the rate one unit higher and reading which force elements' fields changed
 * (a bushing's `stiffness`/`rotational_stiffness` components, a link spring's `stiffness`):
 * each is linear in the rate, so those changes are the exact weights.
 */
import type { Geometry } from '../files';
import { splitReference, type AssemblyDoc } from '../../assembly/types';
import type { ForceBlock } from '../../../kernel/forces';
import { BushingForce, LinearLaw, PointToPointForce } from '../../../mates/forces';
import type { DynamicsModel } from '../../mechanics/build';
import type { CombinedParameter, DynamicParameter } from '../../gradients/run';
import { setStiffness, stiffnessValues } from '../compliance/fit-rates';
import { suspensionDynamicsAssembly } from '../dynamics/model';
import type { GeometrySource } from '../gradients/simulation/source';

type Plain = Exclude<DynamicParameter, CombinedParameter>;

/** The stiffness paths an axle file gives (`compliance.bushings.P.radial`, `compliance.links.L`), in file order. */
export function complianceParameterNames(geometry: Geometry): string[] {
  return [...stiffnessValues(geometry).keys()];
}

/** A copy of the geometry with the rate at `path` moved by d; null where the file gives no such rate. */
export function movedComplianceGeometry(geometry: Geometry, path: string, d: number): Geometry | null {
  const value = stiffnessValues(geometry).get(path);
  if (value === undefined) return null;
  const g = structuredClone({ ...geometry, raw: null }) as Geometry;
  setStiffness(g, path, value + d);
  return { ...g, raw: geometry.raw };
}

/** Each number a force element holds, by `FIELD` or `FIELD.x|y|z` (the gradients' coefficient names). */
function elementNumbers(doc: AssemblyDoc): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, f] of Object.entries(doc.forces ?? {})) {
    for (const [field, v] of Object.entries(f) as [string, unknown][]) {
      if (typeof v === 'number') out.set(`${id}\u0000${field}`, v);
      else if (Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number')) v.forEach((x: number, k) => out.set(`${id}\u0000${field}.${'xyz'[k]}`, x));
    }
  }
  return out;
}

/**
 * The coefficients a compliance rate sets in the axle's dynamics assembly (ids as the axle
 * names them) and their weights (element units per file unit); null where the file has no such rate.
 */
export function complianceCoefficients(src: GeometrySource, path: string): { element: string; field: string; weight: number }[] | null {
  const moved = movedComplianceGeometry(src.geometry, path, 1);
  if (!moved) return null;
  const before = elementNumbers(suspensionDynamicsAssembly(src.geometry, src.spec).doc);
  const after = elementNumbers(suspensionDynamicsAssembly(moved, src.spec).doc);
  const out: { element: string; field: string; weight: number }[] = [];
  for (const [key, v] of after) {
    const w = v - (before.get(key) ?? 0);
    if (w === 0) continue;
    const [element, field] = key.split('\u0000');
    out.push({ element, field, weight: w });
  }
  return out;
}

/** The vehicle's coefficient parameters of an axle's compliance rate (elements prefixed with the axle, as the vehicle renames them). */
export function complianceParameterParts(src: GeometrySource, axle: string, path: string): { parameter: Plain; weight: number }[] | null {
  const c = complianceCoefficients(src, path);
  return c && c.map(({ element, field, weight }) => ({ parameter: { kind: 'coefficient', element: `${axle}_${element}`, field }, weight }));
}

/**
 * The force block of one unit of an element's number, where the element is linear in it and
 * the number is a bushing's stiffness component or a linear spring's stiffness (the compliance
 * rates): K(θ) = θ K_unit, so ∂K/∂θ is the unit block's stiffness at the same state; null for
 * any other. A rotational component is per the file's angle unit, as coefficientTerm
 * (src/gradients/parameters/coefficients.ts) reads it.
 */
export function linearUnitBlock(dyn: DynamicsModel, element: string, field: string): ForceBlock | null {
  const el = dyn.elements.find((e) => e.id === element), doc = dyn.model.doc.forces?.[element];
  if (!el || !doc) return null;
  const blk = el.block;
  if (blk instanceof BushingForce && /^(rotational_)?stiffness\.[xyz]$/.test(field)) {
    const e = doc as { a: string; b: string };
    const frame = (ref: string) => { const r = splitReference(ref)!; return dyn.model.doc.parts[r.owner].frames![r.name]; };
    const fa = frame(e.a), fb = frame(e.b), k = 'xyz'.indexOf(field.slice(-1));
    const vec = (rotational: boolean) => { const x = [0, 0, 0]; if (field.startsWith('rotational_') === rotational) x[k] = rotational ? 1 / dyn.model.angleFactor : 1; return x; };
    return new BushingForce(`${blk.owner}'`, blk.vars[0], fa.origin, fa.rotation, blk.vars[1], fb.origin, fb.rotation, vec(false), vec(true), [0, 0, 0], [0, 0, 0]);
  }
  if (blk instanceof PointToPointForce && field === 'stiffness' && blk.spring instanceof LinearLaw) {
    return new PointToPointForce(`${blk.owner}'`, blk.vars[0], blk.a, blk.vars[1], blk.b, new LinearLaw(1, blk.spring.x0, 0), null);
  }
  return null;
}
