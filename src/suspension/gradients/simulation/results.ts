/**
 * A geometry file's suspension results by the names `kinemate simulate GEOMETRY.yaml --format csv`
 * prints as columns (src/cli/suspension-simulate.ts; docs/sensitivity.md): per side `camber`,
 * `toe_angle`, `suspension_travel`, `road`, `tyre_force`, `tyre_penetration` (`left.camber` on an
 * axle; a corner takes the bare name too), per spring, damper or springdamper `ID.length` and
 * `ID.travel`, per two-force link `link.ID` (its distance row's multiplier: sensitivity.ts), and
 * `chassis_heave`, each with @max, @min (default: the final value).
 *
 * Each is a function of the state written with the kernel's dual numbers on the parts it reads
 * (a probe: a force block that applies nothing, mates/forces.ts BodyForceBlock), so its
 * derivatives along the parts' steps and velocities are exact, and its explicit dependence on a
 * hardpoint is the same code in tangent mode with the hardpoint's local seed (the arrays the
 * file's entities hold, as the force elements read them). What is measured from design takes
 * its design reference's own move: an element's travel its design length |b − a|, the
 * suspension travel the design wheel-centre height.
 */
import {
  dAddConst, dAtan2, dConst, dCopy, dScale, dvComponent, dvLength, dvNormalize, dvSub, rotationMatrix, withTangents,
  type Dual, type TangentSeeds,
} from '../../../../kernel/dual';
import { BodyForceBlock, PointToPointForce, TyreForce } from '../../../../mates/forces';
import { forceEnds, type AssemblyDoc } from '../../../assembly/types';
import type { DynamicsModel } from '../../../mechanics/build';
import { GradientRefusal } from '../../../gradients/refusal';
import { DynamicSensitivityError, type DynamicParameter, type DynamicResult } from '../../../gradients/run';
import { hardpointSeeds, partsOf, ForceResult } from '../../../gradients/results/forces';
import type { HardpointParameter } from '../../../gradients/parameters/hardpoints';
import type { OwnResult } from '../../../gradients/results/own';
import { resultName } from '../../../mechanics/result-names';
import { CHASSIS_HEAVE, ELEMENT_RESULTS, suspensionColumn, type CornerResult } from '../../dynamics/result-names';
import type { GeometrySource } from './source';

/** A scalar of a few parts' poses and velocities, as a dual (columns: each part's step, then its velocity). */
abstract class Probe extends BodyForceBlock {
  readonly out: Dual = this.dual();
  /** The probe's value into `out` (this.state etc. set by begin). */
  protected abstract probe(): void;
  protected compute(): void { this.probe(); }
}

/** The unit spin axis' camber or toe (degrees): camber = atan2(−a_z, σ a_y), toe = atan2(a_x, σ a_y) (src/suspension/metrics/corner.ts). */
class WheelAngle extends Probe {
  private readonly ai = this.vec(); private readonly ao = this.vec(); private readonly a = this.vec();
  private readonly x = this.dual(); private readonly y = this.dual();
  constructor(upright: number, private readonly inboard: readonly number[], private readonly outboard: readonly number[], private readonly sigma: 1 | -1, private readonly toe: boolean) {
    super('probe', [upright]);
  }
  protected probe(): void {
    this.point(this.ai, 0, this.inboard); this.point(this.ao, 0, this.outboard);
    dvNormalize(this.a, dvSub(this.a, this.ao, this.ai));
    dScale(this.x, dvComponent(this.x, this.a, 1), this.sigma);
    if (this.toe) dvComponent(this.y, this.a, 0); else dScale(this.y, dvComponent(this.y, this.a, 2), -1);
    dScale(this.out, dAtan2(this.out, this.y, this.x), 180 / Math.PI);
  }
}

/** A two-point element's length |x_b − x_a| less `from`. */
class ElementLength extends Probe {
  private readonly pa = this.vec(); private readonly pb = this.vec();
  constructor(blk: PointToPointForce, private readonly from: number) { super('probe', blk.vars); this.a = blk.a; this.b = blk.b; }
  private readonly a: ArrayLike<number>; private readonly b: ArrayLike<number>;
  protected probe(): void {
    this.point(this.pa, 0, this.a); this.point(this.pb, 1, this.b);
    dAddConst(this.out, dvLength(this.out, dvSub(this.pa, this.pb, this.pa)), -this.from);
  }
}

/** A tyre's penetration max(0, p): the tyre's own contact (mates/forces.ts TyreForce.contact), read as a probe. */
class TyrePenetration extends TyreForce {
  readonly out: Dual = this.dual();
  constructor(tyre: TyreForce) { super('probe', tyre.vars[0], tyre.centre, tyre.axis, tyre.radius, tyre.stiffness, tyre.damping, tyre.ground, tyre.road); }
  protected override compute(): void {
    this.contact();
    if (this.p.v > 0) dCopy(this.out, this.p); else dConst(this.out, 0);
  }
}

/** A point's world height less `from`. */
class PointHeight extends Probe {
  private readonly x = this.vec();
  constructor(part: number, private readonly p: readonly number[], private readonly from: number) { super('probe', [part]); }
  protected probe(): void { this.point(this.x, 0, this.p); dAddConst(this.out, dvComponent(this.out, this.x, 2), -this.from); }
}

/** A probe as a result; `design(h)`: the rate of its design reference along a hardpoint part (subtracted). */
class ProbeResult implements OwnResult {
  private readonly slots: Int32Array; private readonly offsets: Int32Array; private readonly d: number;
  private readonly lv: Float64Array; private readonly lq: Float64Array; private readonly lk: Float64Array;
  private readonly seedsOf: { seeds: TangentSeeds; w: number }[][];
  private readonly designOf: number[];
  private state: Float64Array = new Float64Array(0); private t = 0;

  constructor(dyn: DynamicsModel, layout: Int32Array, private readonly p: Probe | TyrePenetration, parameters: readonly DynamicParameter[], design?: (h: HardpointParameter) => number) {
    const slots: number[] = [], offsets: number[] = [];
    for (const v of p.vars) {
      offsets.push(dyn.system.variables[v].offset);
      for (let i = 0; i < 6; i++) slots.push(layout[v] < 0 ? -1 : layout[v] + i);
    }
    this.slots = Int32Array.from(slots); this.offsets = Int32Array.from(offsets);
    const d = (this.d = slots.length);
    this.lv = new Float64Array(d); this.lq = new Float64Array(d); this.lk = new Float64Array(d * d);
    const hardpoints = parameters.map((q) => partsOf(q).parts.filter((x): x is { parameter: HardpointParameter; weight: number } => x.parameter.kind === 'hardpoint'));
    this.seedsOf = hardpoints.map((hs) => hs.flatMap(({ parameter: h, weight }) => { const s = hardpointSeeds(dyn, p.vars, h, true); return s ? [{ seeds: s, w: weight }] : []; }));
    this.designOf = hardpoints.map((hs) => (design ? hs.reduce((s, { parameter: h, weight }) => s + weight * design(h), 0) : 0));
  }

  reads(j: number): boolean { return this.seedsOf[j].length > 0 || this.designOf[j] !== 0; }

  evaluate(state: Float64Array, v: Float64Array, cq: Float64Array | null, cv: Float64Array | null, w: number, t: number): number {
    const { slots, d, lv } = this;
    for (let k = 0; k < d; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]];
    this.p.evaluate(state, this.offsets, lv, t, this.lq, this.lk, null);
    this.state = state; this.t = t;
    const out = this.p.out;
    if (cq && cv && w !== 0) for (let k = 0; k < d; k++) if (slots[k] >= 0) { cq[slots[k]] += w * out.d[k]; cv[slots[k]] += w * out.d[d + k]; }
    return out.v;
  }

  explicit(j: number): number {
    let s = -this.designOf[j];
    for (const { seeds, w } of this.seedsOf[j]) {
      withTangents(seeds, () => this.p.evaluate(this.state, this.offsets, this.lv, this.t, this.lq, this.lk, null));
      s += w * (this.p.out.t?.v ?? 0);
    }
    return s;
  }
}

/** A scalar coordinate's value (mm, or the coordinate's internal unit). */
class CoordinateValue implements OwnResult {
  constructor(private readonly offset: number, private readonly slot: number, private readonly scale: number) {}
  reads(): boolean { return false; }
  evaluate(state: Float64Array, _v: Float64Array, cq: Float64Array | null, _cv: Float64Array | null, w: number): number {
    if (cq && this.slot >= 0) cq[this.slot] += w * this.scale;
    return this.scale * state[this.offset];
  }
  explicit(): number { return 0; }
}

/** Σ c_i r_i. */
class Sum implements OwnResult {
  constructor(private readonly terms: readonly { r: OwnResult; c: number }[]) {}
  reads(j: number): boolean { return this.terms.some(({ r }) => r.reads(j)); }
  evaluate(state: Float64Array, v: Float64Array, cq: Float64Array | null, cv: Float64Array | null, w: number, t: number): number {
    return this.terms.reduce((s, { r, c }) => s + c * r.evaluate(state, v, cq, cv, w * c, t), 0);
  }
  explicit(j: number): number { return this.terms.reduce((s, { r, c }) => s + c * r.explicit(j), 0); }
}

/** A point of a part at design (the file's pose): x = t + R p. */
function designPoint(doc: AssemblyDoc, part: string, p: readonly number[]): { x: number[]; R: Float64Array } {
  const pose = doc.parts[part].pose;
  const R = rotationMatrix(new Float64Array(9), [0, 0, 0, ...pose.rotation], 3);
  return { x: [0, 1, 2].map((i) => pose.position[i] + R[i * 3] * p[0] + R[i * 3 + 1] * p[1] + R[i * 3 + 2] * p[2]), R };
}
/** The rate of a design point (part.point) along a hardpoint part: R e_k where it moves that point. */
function designRate(doc: AssemblyDoc, part: string, point: string, h: HardpointParameter): number[] {
  if (h.part !== part || h.entity !== point || (h.group ?? 'points') !== 'points' || h.still) return [0, 0, 0];
  const { R } = designPoint(doc, part, [0, 0, 0]);
  return [R[h.axis], R[3 + h.axis], R[6 + h.axis]];
}

/** A side's results read here (wheel_travel is read in geometry.ts), in the order the messages list them. */
const SIDE_NAMES = ['camber', 'toe_angle', 'suspension_travel', 'road', 'tyre_force', 'tyre_penetration'] as const satisfies readonly Exclude<CornerResult, 'wheel_travel'>[];
/** Every side result (the registry's CORNER_RESULTS), in the order the messages list them. */
export const LISTED_SIDE_NAMES: readonly CornerResult[] = ['wheel_travel', ...SIDE_NAMES];

/**
 * The suspension result `name` of a geometry file (see the file's head), or null when the name
 * is none of these (wheel_travel and assembly names are read elsewhere). Throws
 * DynamicSensitivityError on a name of this kind the file lacks (with what it has).
 */
export function parseSuspensionResult(source: GeometrySource, name: string, doc: AssemblyDoc): DynamicResult | null {
  const at = (s: string | undefined) => (s ?? 'final') as DynamicResult['at'];
  const g = source.geometry, sides = g.corners.map((c) => c.side), axle = g.scope === 'axle';
  const make = (own: DynamicResult['own'], when: string | undefined): DynamicResult => ({ part: name, quantity: 'own', axis: 0, at: at(when), own });
  const fail = (why: string) => { throw new DynamicSensitivityError(`result "${name}": ${why}`); };
  let m = new RegExp(`^(?:([^.@]+)\\.)?(${SIDE_NAMES.join('|')})(?:@(max|min|final))?$`).exec(name);
  if (m) {
    const side = m[1] ?? (axle ? undefined : sides[0]);
    if (!side || !sides.includes(side as never)) fail(`expected ${axle ? sides.map((s) => `${s}.${m![2]}`).join(' or ') : m[2]}`);
    const px = axle ? `${side}_` : '', what = m[2] as (typeof SIDE_NAMES)[number], upright = `${px}upright`;
    return make((dyn, layout, parameters) => {
      const partVar = (part: string) => dyn.model.parts.get(part)!;
      const tyreEl = dyn.elements.find((e) => e.id === `${px}tyre`)!;
      switch (what) {
        case 'camber': case 'toe_angle': {
          const pts = dyn.model.doc.parts[upright].points!;
          if (!pts.axle_inboard || !pts.axle_outboard) throw new GradientRefusal(`part "${upright}" has no axle points`);
          return new ProbeResult(dyn, layout, new WheelAngle(partVar(upright), pts.axle_inboard, pts.axle_outboard, side === 'left' ? 1 : -1, what === 'toe_angle'), parameters);
        }
        case 'tyre_force': return new ForceResult(dyn, `${px}tyre`, undefined, parameters);
        case 'tyre_penetration': return new ProbeResult(dyn, layout, new TyrePenetration(tyreEl.block as TyreForce), parameters);
        case 'road': return coordinate(dyn, layout, `${px}road_slide.slide`);
        default: {
          // the wheel centre's height less its design height, less the chassis' heave
          const wc = dyn.model.doc.parts[upright].points!.wheel_centre, z0 = designPoint(doc, upright, wc).x[2];
          const travel = new ProbeResult(dyn, layout, new PointHeight(partVar(upright), wc, z0), parameters, (h) => designRate(doc, upright, 'wheel_centre', h)[2]);
          if (source.spec.sprungMass === null) return travel;
          return new Sum([{ r: travel, c: 1 }, { r: coordinate(dyn, layout, 'heave.slide'), c: -1 }]);
        }
      }
    }, m[3]);
  }
  if ((m = /^chassis_heave(?:@(max|min|final))?$/.exec(name))) {
    if (source.spec.sprungMass === null) fail('the chassis is fixed (no dynamics.sprung_mass)');
    return make((dyn, layout) => coordinate(dyn, layout, 'heave.slide'), m[1]);
  }
  if ((m = /^link\.([^.@]+)(?:@(max|min|final))?$/.exec(name))) {
    // a two-force link's axial force (tension +) is its distance row's multiplier λ (Φ = |b − a| − L: the force on b is −λ u)
    const mate = doc.mates[m[1]] as { type: string } | undefined;
    if (mate?.type !== 'distance') fail(`no two-force link "${m[1]}" (results: ${suspensionResultNames(source, doc).join(', ')})`);
    return { part: m[1], quantity: 'multiplier', axis: 0, at: at(m[2]) };
  }
  if ((m = /^([^.@]+)\.(length|travel)(?:@(max|min|final))?$/.exec(name))) {
    const id = m[1], travel = m[2] === 'travel', force = doc.forces?.[id], f = force && forceEnds(force);
    if (!force || !f || !['spring', 'damper', 'springdamper'].includes(force.type)) fail(`no spring, damper or springdamper "${id}" (results: ${suspensionResultNames(source, doc).join(', ')})`);
    return make((dyn, layout, parameters) => {
      const blk = dyn.elements.find((e) => e.id === id)!.block as PointToPointForce;
      if (!travel) return new ProbeResult(dyn, layout, new ElementLength(blk, 0), parameters);
      // less its design length |b − a|, which moves with the ends' hardpoints
      const [pa, ea] = f!.a.split('.'), [pb, eb] = f!.b.split('.');
      const xa = designPoint(doc, pa, blk.a as number[]).x, xb = designPoint(doc, pb, blk.b as number[]).x;
      const dx = [0, 1, 2].map((i) => xb[i] - xa[i]), L0 = Math.hypot(dx[0], dx[1], dx[2]);
      const design = (h: HardpointParameter) => {
        const ra = designRate(doc, pa, ea, h), rb = designRate(doc, pb, eb, h);
        return [0, 1, 2].reduce((s, i) => s + (dx[i] * (rb[i] - ra[i])) / L0, 0);
      };
      return new ProbeResult(dyn, layout, new ElementLength(blk, L0), parameters, design);
    }, m[3]);
  }
  return null;
}

function coordinate(dyn: DynamicsModel, layout: Int32Array, name: string): CoordinateValue {
  const info = dyn.model.coordinates.get(name);
  if (!info) throw new GradientRefusal(`no coordinate "${name}"`);
  const v = info.variable;
  return new CoordinateValue(dyn.system.variables[v].offset, layout[v], info.kind === 'angle' ? 1 / dyn.model.angleFactor : 1);
}

/** The suspension result names a geometry file offers (its printed columns, and the elements' tensions). */
export function suspensionResultNames(source: GeometrySource, doc: AssemblyDoc): string[] {
  const g = source.geometry, out: string[] = [];
  for (const c of g.corners) for (const n of LISTED_SIDE_NAMES) out.push(suspensionColumn.corner(c.side, n));
  for (const [id, f] of Object.entries(doc.forces ?? {})) if (['spring', 'damper', 'springdamper'].includes((f as { type: string }).type)) out.push(...ELEMENT_RESULTS.map((field) => suspensionColumn.element(id, field)), resultName.tension(id));
  for (const [id, mt] of Object.entries(doc.mates)) if ((mt as { type: string }).type === 'distance') out.push(suspensionColumn.link(id));
  if (source.spec.sprungMass !== null) out.push(CHASSIS_HEAVE);
  return out;
}
