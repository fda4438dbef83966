/** Shared bits of the example-mechanism tests. */
import { validateAssembly, type AssemblyDoc } from '../../src/assembly';
import { buildModel, type Model } from '../../src/model/build';
import * as P from '../../kernel/pose';

export const RAD = Math.PI / 180;

export function load(doc: AssemblyDoc): Model {
  return buildModel(validateAssembly(doc));
}

/** The smallest |a − b| between two angles in degrees (mod 360). */
export function degDiff(a: number, b: number): number {
  return Math.abs(Math.atan2(Math.sin((a - b) * RAD), Math.cos((a - b) * RAD))) / RAD;
}

/** A point of a part, in world coordinates, as the model has it now. */
export function worldPoint(model: Model, part: string, local: readonly number[]): Float64Array {
  return P.applyPoint(new Float64Array(3), model.system.getPose(model.parts.get(part)!), local);
}
/** A direction of a part, in world coordinates. */
export function worldDirection(model: Model, part: string, local: readonly number[]): Float64Array {
  return P.applyDirection(new Float64Array(3), model.system.getPose(model.parts.get(part)!), local);
}
/** The turn (deg) of a part about world z: the angle of its x axis in the xy plane. */
export function planarAngle(model: Model, part: string): number {
  const x = worldDirection(model, part, [1, 0, 0]);
  return Math.atan2(x[1], x[0]) / RAD;
}

/** Wall time of f in ms, with its result. */
export function timed<T>(f: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = f();
  return { ms: performance.now() - t0, value };
}
