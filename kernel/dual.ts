/**
 * Forward-mode automatic differentiation (dual numbers), the one import for its users:
 * the number types (dual-number.ts), the arithmetic with its tangent mode (exact second
 * derivatives along one direction, dual-arithmetic.ts), and the seeding of posed points
 * (dual-seed.ts, with tangent rules in dual-pose-tangent.ts).
 */
import { InternalError } from './errors';
import type { Dual } from './dual-number';

export { Dual, DualVec3, narrowedScratch, type TangentSeeds } from './dual-number';
export * from './dual-arithmetic';
export * from './dual-seed';

/** The duals of a block's last evaluation (ResidualBlock.duals, ForceBlock.duals), for a caller that knows it has them. */
export function dualsOf(block: { readonly owner: string; duals?(): readonly Dual[] }): readonly Dual[] {
  if (!block.duals) throw new InternalError(`${block.owner}: the block gives no duals`);
  return block.duals();
}
