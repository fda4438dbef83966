/**
 * Each block's parameter map (types.ts BlockParameters): how a mate's local entities, and a
 * sweep driver's target, move with every hardpoint coordinate, as twists of the parts they
 * sit on plus explicit row terms.
 */
import type { ResidualBlock } from '../../../kernel/system';
import { splitReference } from '../../assembly/types';
import type { SweepTarget } from '../files';
import type { PointExpr } from '../build/targets';
import { lengthDriverParameters } from './length-driver';
import type { HardpointIndex } from './hardpoint-index';
import { SensitivityError, type BlockParameters, type SensitivityContext } from './types';

/** A two-entity mate's parameter map: its entities' twists, and a distance mate's regenerated length. */
export function mateParameters(ctx: SensitivityContext, index: HardpointIndex, blk: ResidualBlock): BlockParameters {
  const P = ctx.parameterCount;
  const sys = ctx.sm.model.system;
  const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
  const twist = new Float64Array(localDim * P);
  const mate = ctx.doc.mates[blk.owner] as { type: string; a?: string; b?: string; value?: number } | undefined;
  if (!mate || typeof mate.a !== 'string' || typeof mate.b !== 'string') throw new SensitivityError(`sensitivity: block ${blk.owner} is not a two-entity mate (not supported yet)`);
  if (sys.variables[blk.vars[0]].dim !== 6 || sys.variables[blk.vars[1]].dim !== 6) throw new SensitivityError(`sensitivity: mate ${blk.owner}: unexpected block layout`);
  entityTwist(ctx, index, twist, 0, mate.a, blk.owner);
  entityTwist(ctx, index, twist, 6, mate.b, blk.owner);
  let constant: Float64Array | null = null;
  if (mate.type === 'distance') {
    // the length is regenerated from the ends: row = |b − a| − value(p)
    const pa = entityPoint(ctx, mate.a), pb = entityPoint(ctx, mate.b);
    if (pa && pb) {
      const d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
      const l = Math.hypot(d[0], d[1], d[2]);
      const ja = index.at(pa), jb = index.at(pb);
      constant = new Float64Array(blk.rows * P);
      for (let c = 0; c < 3; c++) {
        if (ja >= 0) constant[3 * ja + c] += d[c] / l;
        if (jb >= 0) constant[3 * jb + c] -= d[c] / l;
      }
    }
  }
  return { twist, constant };
}

/** Twist columns (ω, v) of an entity of a part for every parameter, added into `twist` at column offset `col0`. */
function entityTwist(ctx: SensitivityContext, index: HardpointIndex, twist: Float64Array, col0: number, ref: string, owner: string): void {
  const P = ctx.parameterCount;
  const r = splitReference(ref);
  const part = r && ctx.doc.parts[r.owner], name = r?.name ?? '';
  const point = part?.points?.[name];
  // a plane is an origin and a normal: it moves as an axis would (a fixed one, the centre plane, not at all)
  const plane = part?.planes?.[name];
  const axis = part?.axes?.[name] ?? (plane ? { origin: plane.origin, direction: plane.normal } : undefined);
  if (point) {
    const j = index.at(point);
    if (j >= 0) for (let c = 0; c < 3; c++) twist[(col0 + 3 + c) * P + 3 * j + c] += 1;
    else for (const [jd, w] of index.derivedShares(point)) for (let c = 0; c < 3; c++) twist[(col0 + 3 + c) * P + 3 * jd + c] += w;
    return;
  }
  if (axis) {
    const O = axis.origin, D = axis.direction;
    const f = index.at(O);
    const tip = [O[0] + D[0], O[1] + D[1], O[2] + D[2]];
    // coincident hardpoints at the tip: the one the template took the direction to
    const t = index.tipAt(D, tip);
    const dd = D[0] * D[0] + D[1] * D[1] + D[2] * D[2];
    // origin moves with f; direction = t − f moves with t (and against f) when it is a hardpoint pair
    const add = (j: number, c: number, dO: number[], dD: number[]) => {
      const w = [(D[1] * dD[2] - D[2] * dD[1]) / dd, (D[2] * dD[0] - D[0] * dD[2]) / dd, (D[0] * dD[1] - D[1] * dD[0]) / dd];
      const v = [dO[0] - (w[1] * O[2] - w[2] * O[1]), dO[1] - (w[2] * O[0] - w[0] * O[2]), dO[2] - (w[0] * O[1] - w[1] * O[0])];
      const k = 3 * j + c;
      for (let i = 0; i < 3; i++) { twist[(col0 + i) * P + k] += w[i]; twist[(col0 + 3 + i) * P + k] += v[i]; }
    };
    const pair = f >= 0 && t >= 0;
    for (let c = 0; c < 3; c++) {
      const e = [0, 0, 0]; e[c] = 1;
      if (f >= 0) add(f, c, e, pair ? [-e[0], -e[1], -e[2]] : [0, 0, 0]);
      if (pair) add(t, c, [0, 0, 0], e);
    }
    return;
  }
  throw new SensitivityError(`sensitivity: mate ${owner}: entity "${ref}" is not a point, an axis or a plane (not supported yet)`);
}

function entityPoint(ctx: SensitivityContext, ref: string): readonly number[] | null {
  const r = splitReference(ref);
  return (r && ctx.doc.parts[r.owner]?.points?.[r.name]) ?? null;
}

/** Parameters of a sweep driver's block: the wheel centre (or a hardpoint) pulled along an axis. */
export function driverParameters(ctx: SensitivityContext, blk: ResidualBlock, source: SweepTarget): BlockParameters {
  const P = ctx.parameterCount;
  const sys = ctx.sm.model.system;
  const localDim = blk.vars.reduce((s, v) => s + sys.variables[v].dim, 0);
  const twist = new Float64Array(localDim * P);
  const constant = new Float64Array(P);
  if (source.type === 'actuator_position') return { twist, constant: null }; // the slide is 0 at design whatever the points
  if (source.type === 'roll') return rollParameters(ctx, blk, twist);
  if (source.type === 'element_length') return lengthDriverParameters(ctx, blk, !(source.mode === 'absolute' && !source.hold));
  if (source.type !== 'point') throw new SensitivityError(`sensitivity: a ${(source as SweepTarget).type} target is not supported yet (use a point, rack, roll or element_length target)`);
  const axis = { x: 0, y: 1, z: 2 }[source.direction.axis];
  const relative = !(source.mode === 'absolute' && !source.hold);
  // the driver's corner: its block is named `target:<side>:…` (sweepDrivers)
  const ci = Math.max(0, ctx.sides.indexOf(blk.owner.split(':')[1] ?? ''));
  const c = ctx.sm.corners[ci];
  const rate = new Float64Array(3 * P);
  if (source.point === 'wheel_center') rate.set(ctx.wheelCenterRatesByCorner[ci]);
  else {
    const expr = c.points.get(source.point) as PointExpr;
    if (expr.length !== 1) throw new SensitivityError(`sensitivity: target point ${source.point} is not a part point`);
    const j = ctx.hardpointAt(expr[0].local);
    if (j >= 0) for (let i = 0; i < 3; i++) rate[i * P + 3 * j + i] = 1;
  }
  const slot = blk.vars.indexOf(c.upright) >= 0 ? blk.vars.indexOf(c.upright) : 0;
  for (let i = 0; i < 3; i++) for (let k = 0; k < P; k++) twist[(slot * 6 + 3 + i) * P + k] = rate[i * P + k];
  // relative: the target is the design coordinate (+ travel), which moves with the point
  if (relative) for (let k = 0; k < P; k++) constant[k] = -rate[axis * P + k];
  return { twist, constant };
}

/**
 * A roll driver's parameters at its current target: the wheel centre's z held at
 * design z ± h·tanθ (left +, right −; sweep.ts), h half the design wheel centres' span in
 * plan. The point moves with the axle points, and so do the design z and h: the row's
 * explicit term is −(d design z/dp ± tanθ dh/dp), so it changes with the step (sweepStates
 * asks again each step).
 */
function rollParameters(ctx: SensitivityContext, blk: ResidualBlock & { target?: number }, twist: Float64Array): BlockParameters {
  const P = ctx.parameterCount;
  const ci = Math.max(0, ctx.sides.indexOf(blk.owner.split(':')[1] ?? ''));
  const c = ctx.sm.corners[ci];
  const slot = Math.max(0, blk.vars.indexOf(c.upright));
  const rate = ctx.wheelCenterRatesByCorner[ci];
  for (let i = 0; i < 3; i++) for (let k = 0; k < P; k++) twist[(slot * 6 + 3 + i) * P + k] = rate[i * P + k];
  const [wl, wr] = ctx.sm.corners.map((x) => x.design.wheelCenter);
  const dx = wl[0] - wr[0], dy = wl[1] - wr[1];
  const span = Math.hypot(dx, dy), half = span / 2;
  const sign = ci === 0 ? 1 : -1;
  const tan = ((blk.target ?? c.design.wheelCenterZ) - c.design.wheelCenterZ) / (sign * half);
  const [rl, rr] = ctx.wheelCenterRatesByCorner;
  const constant = new Float64Array(P);
  for (let k = 0; k < P; k++) {
    const dHalf = (dx * (rl[k] - rr[k]) + dy * (rl[P + k] - rr[P + k])) / (2 * span);
    constant[k] = -(rate[2 * P + k] + sign * tan * dHalf);
  }
  return { twist, constant };
}
