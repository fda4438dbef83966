/**
 * Hardpoints (entity positions of an assembly file, in the part's own frame) as parameters of
 * a simulation's gradient (src/gradients/run.ts; docs/sensitivity.md). A hardpoint
 * enters the step's residual three ways, each from the residual code in tangent mode
 * (kernel/dual.ts withTangents) with a `local` seed — the entity's unit move — and the state
 * held, never by differences:
 *   - the constraint rows of the mates (and point motions) that read it: Φ_p (the rows'
 *     tangent values) and ∂Φ_q/∂p (their Jacobians' tangents), which gives the dynamic rows'
 *     (∂Φ_qᵀ/∂p)λ and, at the start, the acceleration rows' (∂Φ_q/∂p)v̇;
 *   - the force elements with an end there: ∂Q/∂p.
 * An axis whose direction turns with the hardpoint (`turn`) also seeds its directions in the
 * mate's rows with the turn's twist (sensitivity-directions.ts).
 * An entity is found in a block by the block's owner (the mate, motion or element naming it),
 * the part its seed column belongs to and its value (a frame's origin is a copy).
 */
import { dualsOf, withTangents, type TangentSeeds, type Dual } from '../../../kernel/dual';
import { entityNames, entityPosition, forceActsAt, hasEntity, type AssemblyDoc, type PositionedGroup } from '../../assembly/types';
import type { DynamicsModel } from '../../mechanics/build';
import { BushingForce } from '../../../mates/forces';
import { GradientRefusal } from '../refusal';
import { turnSeed, type AxisTurn } from './directions';

/** A frame's turn per unit of the parameter: its twist ω (part axes), ȧ = ω × a for each axis a. */
export interface FrameTurn { omega: readonly number[] }

/** An entity coordinate: `PART.ENTITY.x|y|z` (or `PART.points|frames|axes|planes|circles.ENTITY.x|y|z`). */
export interface HardpointParameter {
  kind: 'hardpoint'; part: string; entity: string; axis: 0 | 1 | 2; group?: EntityGroupName;
  /** An axis whose direction turns too (sensitivity-directions.ts); `still`: its origin stays. */
  turn?: AxisTurn; still?: boolean;
  /** A frame that turns (sensitivity-frames.ts): its axes, as a bushing reads them, turn by the twist. */
  frameTurn?: FrameTurn;
}

type EntityGroupName = PositionedGroup;
const GROUPS: readonly EntityGroupName[] = ['points', 'frames', 'axes', 'planes', 'circles'];

/** The local position of an entity (a point, or a frame's, axis', plane's origin, a circle's centre). */
function positionOf(doc: AssemblyDoc, part: string, group: EntityGroupName, name: string): readonly number[] {
  return entityPosition(doc.parts[part], group, name)!;
}

/** Every hardpoint of the file as a parameter name (short form; the long form where a name is also a mass parameter's). */
export function hardpointNames(doc: AssemblyDoc): string[] {
  const out: string[] = [];
  for (const [part, p] of Object.entries(doc.parts)) {
    for (const group of GROUPS) {
      for (const name of entityNames(p, group)) {
        const stem = name === 'centre' || name === 'inertia' ? `${part}.${group}.${name}` : `${part}.${name}`;
        for (const a of 'xyz') out.push(`${stem}.${a}`);
      }
    }
  }
  return out;
}

/** The entity a hardpoint parameter names, or a message saying why not. */
export function resolveHardpoint(doc: AssemblyDoc, p: HardpointParameter): { group: EntityGroupName; origin: readonly number[] } | string {
  const part = doc.parts[p.part];
  if (!part) return `no part "${p.part}"`;
  const has = (g: EntityGroupName) => hasEntity(part, g, p.entity);
  if ((part.curves && Object.hasOwn(part.curves, p.entity)) && !p.group) return `"${p.part}.${p.entity}" is a curve (its points are not parameters)`;
  const group = p.group ?? GROUPS.find(has);
  if (!group || !has(group)) return `part "${p.part}" has no ${p.group ? p.group.replace(/e?s$/, '') : 'point, frame, axis, plane or circle'} "${p.entity}"`;
  return { group, origin: positionOf(doc, p.part, group, p.entity) };
}

/** A block that reads the entity, with its seed columns' variables. */
interface Reader { kind: 'row' | 'force'; index: number; colVar: Map<number, number>; frameAxes?: readonly ArrayLike<number>[] }

/**
 * The hardpoint parameters' terms in the step's residual at the current system state. `rows`
 * are the integrator's constraint and driver blocks (as sensitivity.ts orders them).
 */
export class HardpointTerms {
  private readonly readers: Reader[][];
  private readonly origins: (readonly number[])[];
  private readonly turns: (((p: ArrayLike<number>, across: boolean) => Float64Array | null) | null)[];
  private readonly frameTwists: (Float64Array | null)[];
  private readonly variables: number[];
  private readonly res = new Float64Array(64);
  private readonly jac = new Float64Array(4096);

  constructor(
    private readonly dyn: DynamicsModel,
    readonly params: readonly HardpointParameter[],
    private readonly rows: readonly { index: number; row0: number; rows: number; cols: Int32Array; duals: (() => readonly Dual[]) | null }[],
  ) {
    const { model, system } = dyn;
    const doc = model.doc;
    this.origins = [];
    this.variables = [];
    this.turns = params.map((p) => (p.turn && p.group === 'axes' ? turnSeed(doc, p.part, p.entity, p.turn) : null));
    this.frameTwists = params.map((p) => (p.frameTurn ? Float64Array.of(...p.frameTurn.omega, 0, 0, 0) : null));
    this.readers = params.map((p) => {
      const r = resolveHardpoint(doc, p);
      if (typeof r === 'string') throw new GradientRefusal(r);
      if (p.turn && p.group !== 'axes') throw new GradientRefusal(`"${p.part}.${p.entity}": only an axis turns`);
      if (p.frameTurn && p.group !== 'frames') throw new GradientRefusal(`"${p.part}.${p.entity}": only a frame takes a frame's turn`);
      this.origins.push(r.origin);
      this.variables.push(model.parts.get(p.part)!);
      const ref = `${p.part}.${p.entity}`;
      const owners = new Set<string>();
      for (const [id, mate] of Object.entries(doc.mates)) if ((mate as { a?: unknown }).a === ref || (mate as { b?: unknown }).b === ref) owners.add(id);
      const motions = (doc as AssemblyDoc & { motions?: Record<string, { point?: string }> }).motions ?? {};
      for (const [id, m] of Object.entries(motions)) if (m && m.point === ref) owners.add(id);
      const out: Reader[] = [];
      const colVars = (vars: readonly number[]) => {
        const map = new Map<number, number>();
        let c = 0;
        for (const v of vars) { map.set(c, v); c += system.variables[v].dim; }
        return map;
      };
      for (const rb of rows) {
        const blk = system.block(rb.index);
        if (owners.has(blk.owner) && rb.duals) out.push({ kind: 'row', index: rows.indexOf(rb), colVar: colVars(blk.vars) });
      }
      // a turning frame is seeded in the bushings that read it, not in a mate's rows (refused, not dropped)
      if (p.frameTurn && owners.size) throw new GradientRefusal(`mate "${[...owners][0]}" reads the turning frame "${ref}"`);
      for (const e of dyn.elements) {
        const f = doc.forces![e.id];
        // a tyre reads its spin axis' direction: seeded when that axis turns
        if (!forceActsAt(f, ref) && !(p.turn && f.type === 'tyre' && f.axis === ref)) {
          // any other force element reading a turning direction: its turn is not seeded (refused, not dropped)
          if (p.turn && Object.values(f).includes(ref)) throw new GradientRefusal(`force element "${e.id}" reads the turning axis "${ref}"`);
          continue;
        }
        if (!('duals' in e.block)) continue;
        let frameAxes: readonly ArrayLike<number>[] | undefined;
        if (p.frameTurn) {
          // the bushing's own axis arrays of this frame (found by identity: a body's unit axes may equal them)
          if (!(e.block instanceof BushingForce) || f.type !== 'bushing' || (f.a === ref) === (f.b === ref)) throw new GradientRefusal(`force element "${e.id}" reads the turning frame "${ref}"`);
          frameAxes = f.a === ref ? e.block.axesA : e.block.axesB;
        }
        out.push({ kind: 'force', index: e.index, colVar: colVars(e.block.vars), ...(frameAxes ? { frameAxes } : {}) });
      }
      return out;
    });
  }

  /**
   * The local seed of parameter j in a block: the entity's unit move at its part's seed column.
   * A force element holds the file's own array (found by identity: its part's origin, which it
   * also reads, may have the same value); a mate's frame holds a copy (found by value).
   */
  private seeds(j: number, r: Reader): TangentSeeds {
    const o = this.origins[j], variable = this.variables[j], move = new Float64Array(6), colVar = r.colVar, turn = this.turns[j], still = this.params[j].still === true;
    const twist = this.frameTwists[j], axes = r.frameAxes;
    move[3 + this.params[j].axis] = 1;
    const same = r.kind === 'force' ? (p: ArrayLike<number>) => p === o : (p: ArrayLike<number>) => p[0] === o[0] && p[1] === o[1] && p[2] === o[2];
    return {
      pose: () => null,
      local: (col, p, isPoint) => (colVar.get(col) !== variable ? null : isPoint ? (!still && same(p) ? move : null) : turn ? turn(p, r.kind === 'row')
        : twist && axes?.includes(p) ? twist : null),
      scalar: () => 0,
    };
  }

  /**
   * The blocks that read parameter j's entity, each with its local seed (the entity's unit
   * move): a row block by its system index, a force element by its force index.
   */
  movers(j: number): { kind: 'row' | 'force'; block: number; local: TangentSeeds['local'] }[] {
    return this.readers[j].map((r) => ({ kind: r.kind, block: r.kind === 'row' ? this.rows[r.index].index : r.index, local: this.seeds(j, r).local }));
  }

  /** Whether parameter j moves any constraint row (so the start pose moves with it). */
  movesRows(j: number): boolean {
    return this.readers[j].some((r) => r.kind === 'row');
  }

  /**
   * For parameter j at the current state (velocities v, time t): adds (∂Φ_qᵀ/∂p)λ − ∂Q/∂p into
   * `dyn` (tangent size), Φ_p into `con` and (∂Φ_q/∂p)w into `conW` (rows), each when given.
   */
  evaluate(j: number, lambda: Float64Array | null, v: Float64Array, t: number, dyn: Float64Array | null, con: Float64Array | null, w: Float64Array | null, conW: Float64Array | null): void {
    const { system, forces } = this.dyn;
    for (const r of this.readers[j]) {
      const seeds = this.seeds(j, r);
      if (r.kind === 'row') {
        const rb = this.rows[r.index];
        const duals = withTangents(seeds, () => { system.evaluateBlock(rb.index, this.res, this.jac); return rb.duals!(); });
        const ld = rb.cols.length;
        for (let k = 0; k < rb.rows; k++) {
          const tt = duals[k].t;
          if (!tt) continue;
          if (con) con[rb.row0 + k] += tt.v;
          if (conW && w) { let s = 0; for (let c = 0; c < ld; c++) if (rb.cols[c] >= 0) s += tt.d[c] * w[rb.cols[c]]; conW[rb.row0 + k] += s; }
          const lam = lambda ? lambda[rb.row0 + k] : 0;
          if (dyn && lam !== 0) for (let c = 0; c < ld; c++) if (rb.cols[c] >= 0) dyn[rb.cols[c]] += lam * tt.d[c];
        }
        continue;
      }
      if (!dyn) continue;
      const blk = forces.blocks[r.index];
      const slots = forces.slotsOf(r.index), offsets = forces.offsetsOf(r.index), d = slots.length;
      const lv = new Float64Array(2 * d), lq = new Float64Array(d), lk = new Float64Array(d * d);
      for (let k = 0; k < d; k++) lv[k] = slots[k] < 0 ? 0 : v[slots[k]];
      // the full pass (K asked for): only it seeds the columns the tangents ride on
      const duals = withTangents(seeds, () => { blk.evaluate(system.state, offsets, lv, t, lq, lk, null); return dualsOf(blk); });
      for (let k = 0; k < d; k++) if (slots[k] >= 0 && duals[k].t) dyn[slots[k]] -= duals[k].t!.v;
    }
  }
}

/** Parse `PART.ENTITY.x|y|z` or `PART.GROUP.ENTITY.x|y|z`; null when the name has neither form. */
export function parseHardpoint(name: string): HardpointParameter | null {
  const long = /^([^.]+)\.(points|frames|axes|planes|circles)\.([^.]+)\.([xyz])$/.exec(name);
  if (long) return { kind: 'hardpoint', part: long[1], group: long[2] as EntityGroupName, entity: long[3], axis: 'xyz'.indexOf(long[4]) as 0 | 1 | 2 };
  const short = /^([^.]+)\.([^.]+)\.([xyz])$/.exec(name);
  if (short) return { kind: 'hardpoint', part: short[1], entity: short[2], axis: 'xyz'.indexOf(short[3]) as 0 | 1 | 2 };
  return null;
}
