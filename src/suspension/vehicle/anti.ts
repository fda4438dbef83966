/**
 * The anti-dive, anti-lift and anti-squat as realised (vehicle.md, `--ax`): the share of an
 * axle's longitudinal load transfer that does not pass through its springs, at 0 g, exact:
 *
 *   anti = 100 (1 − travel′ / (ΔFz′ · c))
 *
 * travel′ and ΔFz′ the axle's wheel travel and tyre load per g (tangent.ts), c its wheel
 * compliance under a vertical pair at both contacts (mm/N: the travel the load change would
 * give if it all went through the springs). The axle file's geometric figures (corner
 * metrics) take the design attitude, the design cg height and massless wheels; the realised
 * ones take the car's attitude at rest, the load transfer it really has (the cg at rest, the
 * unsprung masses' share) and the d'Alembert forces on the wheels' masses along their paths.
 */
import type { CornerName } from './assembly';
import type { StateDerivative } from './tangent';

type Axle = 'front' | 'rear';
const sum = (d: Record<CornerName, number>, axle: Axle) => d[`${axle}_left`] + d[`${axle}_right`];

/** %: the realised anti share of one axle along one acceleration direction, given the axle's pair response. */
export function realisedAnti(along: StateDerivative, pair: StateDerivative, axle: Axle): number {
  const compliance = sum(pair.travel, axle) / 2;
  return 100 * (1 - sum(along.travel, axle) / (sum(along.load, axle) * compliance));
}
