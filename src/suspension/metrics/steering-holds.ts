/**
 * The holds of the steering response (steering.ts: what a hold id means, design/suspension.md
 * "Steering response and holds"): a corner's catalogue of holds, a hold id resolved to the
 * one-row blocks kept at zero rate, the contact-patch hold's block, and the wheel frames at
 * the current state it is built from.
 */
import { Dual, DualVec3, dvDotConst, dvPosePoint } from '../../../kernel/dual';
import * as P from '../../../kernel/pose';
import { packedMap } from '../../../kernel/packed-map';
import type { BlockKind, ResidualBlock } from '../../../kernel/system';
import { axleRoadPlane, wheelFrame, type RoadInput, type WheelFrame } from '.';
import type { CornerRuntime, SuspensionModel } from '../build/model';

export const BUILT_IN_HOLDS = ['contact_patch', 'wheel_center_height', 'none'] as const;

/** A dual 3-vector of width n holding a's value (no derivatives). */
export function vc(n: number, a: ArrayLike<number>): DualVec3 {
  const out = new DualVec3(n);
  out.v[0] = a[0]; out.v[1] = a[1]; out.v[2] = a[2];
  return out;
}

/**
 * One row: the coordinate along a fixed world direction `normal` (unit) of a material
 * point of one body, minus `target`. The contact-patch hold.
 */
export class PointAlongBlock implements ResidualBlock {
  readonly rows = 1;
  readonly vars: number[];
  private p = new DualVec3(6);
  private s = new Dual(6);
  constructor(readonly owner: string, variable: number, private local: Float64Array, private normal: ArrayLike<number>, public target = 0, readonly kind: BlockKind = 'driver') {
    this.vars = [variable];
  }
  evaluate(state: Float64Array, offsets: Int32Array, residual: Float64Array, jacobian: Float64Array | null): void {
    dvPosePoint(this.p, state, offsets[0], this.local, 0);
    dvDotConst(this.s, this.p, this.normal);
    residual[0] = this.s.v - this.target;
    if (jacobian) jacobian.set(this.s.d);
  }
  /** The row of the last evaluation as a dual. */
  duals(): readonly Dual[] { return [this.s]; }
}

/**
 * The wheel frames of every corner at the current state, without derivatives (n = 0):
 * spin axis, wheel centre, contact centre, road normal, tyre axes. A corner's road is the
 * horizontal plane through its contact centre; an axle's is the plane tangent to both
 * wheels (as in `evaluate()`).
 */
export function currentWheelFrames(sm: SuspensionModel): WheelFrame[] {
  const base = packedMap(sm.corners, (c) => {
    const ai = vc(0, sm.pointValue(c.axle[0])), ao = vc(0, sm.pointValue(c.axle[1]));
    return { c, ai, ao };
  });
  let road: RoadInput | null = null;
  if (sm.roles.scope === 'axle' && base.length === 2) {
    const wheel = (b: (typeof base)[number]) => {
      const f = wheelFrame(b.c.roles.side, b.ai, b.ao, wheelInput(b.c), null, 0);
      return { wheelCenter: f.wheelCenter, spin: f.spin, tireRadius: b.c.tireRadius };
    };
    road = axleRoadPlane(wheel(base[0]), wheel(base[1]));
  }
  return packedMap(base, (b) => wheelFrame(b.c.roles.side, b.ai, b.ao, wheelInput(b.c), road, 0));
}

function wheelInput(c: CornerRuntime) {
  return { offset: c.roles.wheel.offset, tireRadius: c.tireRadius, sectionWidth: c.roles.wheel.tire.section_width };
}

/** The upright's material point now at world position `world`, in the upright's frame. */
export function localOnUpright(sm: SuspensionModel, c: CornerRuntime, world: ArrayLike<number>): Float64Array {
  const sys = sm.model.system;
  return P.applyInversePoint(new Float64Array(3), sys.state, world, sys.variables[c.upright].offset);
}

/** The contact-patch hold of a corner: n·(material point at the contact centre). */
export function contactPatchBlock(sm: SuspensionModel, cornerIndex: number, frame: WheelFrame = currentWheelFrames(sm)[cornerIndex]): PointAlongBlock {
  const c = sm.corners[cornerIndex];
  const local = localOnUpright(sm, c, frame.contact.v);
  const n = Float64Array.from(frame.normal.v);
  const block = new PointAlongBlock(`${c.roles.side}:contact_patch`, c.upright, local, n, 0);
  // target = its current value (only the gradient matters for a tangent)
  const r = new Float64Array(1);
  block.evaluate(sm.model.system.state, Int32Array.of(sm.model.system.variables[c.upright].offset), r, null);
  block.target = r[0];
  return block;
}

/** The hold ids a corner offers: its catalogue, then the built-in ones (contact_patch when steered). */
export function holdCatalogue(sm: SuspensionModel, cornerIndex: number): { default: string | null; ids: string[]; warnings: Record<string, string> } {
  const r = sm.corners[cornerIndex].roles;
  const ids = Object.keys(r.holds).filter((k) => k !== 'default' && Array.isArray(r.holds[k]));
  if (sm.rackHold) ids.push('contact_patch');
  ids.push('wheel_center_height');
  const d = r.holds.default;
  return { default: typeof d === 'string' ? d : null, ids, warnings: { ...(r.hold_warnings ?? {}) } };
}

/**
 * A corner's hold id resolved (`layout_default`: the corner's `holds.default`) and split at
 * `+`, `none` left out; null when the layout has no default (nothing held).
 */
export function holdParts(sm: SuspensionModel, cornerIndex: number, holdId: string): { id: string; parts: readonly string[] } | null {
  let id = holdId;
  if (id === 'layout_default') {
    const d = sm.corners[cornerIndex].roles.holds.default;
    if (typeof d !== 'string') return null;
    id = d;
  }
  let parts = splitHolds.get(id);
  if (!parts) {
    parts = Object.freeze(id.split('+').map((s) => s.trim()).filter((s) => s && s !== 'none'));
    if (splitHolds.size < 256) splitHolds.set(id, parts);
  }
  return { id, parts };
}
/** Hold ids split once (asked at every state of a sweep); bounded, ids are few. */
const splitHolds = new Map<string, readonly string[]>();

/** Blocks of one corner for a (possibly `+`-joined) hold id, or a reason it has none. */
export function cornerHoldBlocks(sm: SuspensionModel, i: number, holdId: string, frames: () => WheelFrame[]):
  { id: string; blocks: ResidualBlock[]; warning?: string } | { id: string; error: string } {
  const c = sm.corners[i];
  const hold = holdParts(sm, i, holdId);
  if (!hold) return { id: 'none', blocks: [] };
  const { id, parts } = hold;
  const blocks: ResidualBlock[] = [];
  const warnings: string[] = [];
  for (const part of parts) {
    if (part === 'contact_patch') { blocks.push(contactPatchBlock(sm, i, frames()[i])); continue; }
    if (part === 'wheel_center_height') { blocks.push(c.wheelCenterZ); continue; }
    let b: ResidualBlock[] | null;
    try {
      b = sm.holdBlocks(i, part);
    } catch (e) {
      return { id, error: `the ${c.roles.side} corner's hold "${part}" cannot be built: ${(e as Error).message}` };
    }
    if (!b) return { id, error: `the ${c.roles.side} corner has no hold "${part}" (it offers ${holdCatalogue(sm, i).ids.join(', ')})` };
    blocks.push(...b);
    const w = c.roles.hold_warnings?.[part];
    if (w) warnings.push(w);
  }
  return warnings.length ? { id, blocks, warning: warnings.join('; ') } : { id, blocks };
}
