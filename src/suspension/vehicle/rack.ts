/**
 * The front axle's steering rack in the quasi-static analyses (docs/vehicle.md, `--steady-state
 * --steer rack`): held at a travel (a driver row, kernel/system.ts `hold`), and the solved
 * state's exact rate along that travel. Moving the hold's target moves no force and no hard
 * row, only the hold's own row, so with q_s the least move that keeps the hard rows and moves
 * the rack by one unit, the state moves by q' = q_s + N α, K_r α = Nᵀ (K − H) q_s (the
 * implicit function theorem on the balance, as static-gradients.ts does for a number, here
 * with no force term). The steering linkage (its Ackermann) and every compliance the axle's
 * files give the linkage are in q'; no differences.
 * With the vehicle file's `steering.rack_stiffness` the rack is not held but sprung about the
 * held travel (assembly.ts steeringSpring): moving the travel moves the spring's free travel,
 * a force affine in it, so q' = N α with K_r α = Nᵀ ∂Q/∂travel (a load's tangent, poseTangents).
 */
import { constraintMultipliers } from '../../../kernel/multipliers';
import { ScalarTargetBlock } from '../../../kernel/system';
import { CoordinateSpringForce } from '../../../mates/forces';
import { STEERING_SPRING, rackCoordinate, type VehicleModel } from './assembly';
import { rowSolver } from './static-gradients';
import { addAdmissibleMove, exactReduced, poseTangents } from './tangent';
import { VehicleInputError } from './errors';

export interface Rack {
  /** The held coordinate's name (`front_rack.slide`, …) and variable. */
  name: string;
  variable: number;
  /** State units per mm (a rack is a length: 1). */
  unit: number;
  /** Its travel at rest (state units): the held travel (the spring's free travel with a steering stiffness). */
  rest: number;
  /** The steering's spring between the held travel and the rack (`steering.rack_stiffness`), or null: held rigidly. */
  spring: CoordinateSpringForce | null;
}

/** The front axle's held rack; refused when the front axle has none. */
export function frontRack(m: VehicleModel, field: string): Rack {
  const name = rackCoordinate(m.doc);
  if (!name) throw new VehicleInputError(field, 'the front axle has no steering rack to steer through');
  const info = m.dyn.model.coordinates.get(name)!;
  const unit = info.kind === 'angle' ? m.dyn.model.angleFactor : 1;
  const spring = steeringSpring(m);
  return { name, variable: info.variable, unit, rest: spring ? spring.free : m.dyn.system.getScalar(info.variable), spring };
}

/** The steering's spring at the rack (`steering.rack_stiffness`), or null when the rack is held rigidly. */
export function steeringSpring(m: VehicleModel): CoordinateSpringForce | null {
  const block = m.dyn.elements.find((e) => e.id === STEERING_SPRING)?.block;
  return block instanceof CoordinateSpringForce ? block : null;
}

/** Hold the rack at `travel` mm from its travel at rest (with a steering stiffness: the spring's free travel there). */
export function setRack(m: VehicleModel, rack: Rack, travel: number): void {
  if (rack.spring) rack.spring.free = rack.rest + travel * rack.unit;
  else m.dyn.system.hold(rack.variable, rack.rest + travel * rack.unit);
}

/**
 * The solved state's rate per mm of rack (the solver's tangent layout, as poseTangents gives
 * a load's), at the current state under the loads now set.
 */
export function rackTangent(m: VehicleModel, rack: Rack): { delta: Float64Array; layout: Int32Array } {
  const { spring } = rack;
  if (spring) {
    // the spring's force −k (x − free) is affine in its free travel: one unit of it is a load's unit
    const free = spring.free;
    const r = poseTangents(m, () => { spring.free = free; }, [() => { spring.free = free + rack.unit; }]);
    spring.free = free;
    return { delta: r.deltas[0], layout: r.layout };
  }
  const { dyn } = m, sys = dyn.system, n = dyn.forces.size;
  const Q = new Float64Array(n);
  dyn.forces.assemble(new Float64Array(n), 0, Q, null, null);
  const mult = constraintMultipliers(sys, Q);
  const red = exactReduced(m);
  const { layout } = red;
  const { minimum } = rowSolver(m, layout, mult);
  const at = mult.driverBlocks.findIndex((b) => { const blk = sys.block(b); return blk instanceof ScalarTargetBlock && blk.vars[0] === rack.variable; });
  const hold = at < 0 ? null : sys.block(mult.driverBlocks[at]);
  if (!(hold instanceof ScalarTargetBlock)) throw new VehicleInputError('--steer rack', `the rack ${rack.name} is not held`);
  // q_s: the hard rows kept, the hold's row (x − target)·scale moved by its target's unit
  const qs = new Float64Array(n);
  qs[mult.rowBlock.length + at] = hold.scale * rack.unit;
  minimum.solve(qs);
  return { delta: addAdmissibleMove(red, qs), layout };
}
