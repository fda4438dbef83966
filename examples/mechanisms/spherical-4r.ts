/**
 * A spherical four-bar (4R): four revolute axes through one point O (the origin), the
 * links being arcs of a great circle between consecutive axes. Arcs (angles between
 * consecutive axes): ground 70°, input (crank) 20°, coupler 60°, output (rocker) 50°.
 *
 * Spherical Grashof: shortest + longest = 20° + 70° = 90° ≤ 60° + 50° = 110°, with the
 * shortest arc the input next to the ground: a crank-rocker, the input turns fully. (The
 * arc from the crank axis B to the output's ground axis D runs over [70° − 20°, 70° + 20°]
 * = [50°, 90°], inside [|60° − 50°|, 60° + 50°] = [10°, 110°], so the coupler triangle
 * B–C–D closes for every crank angle.)
 *
 * Axes (unit vectors from O): ground input axis a = z, ground output axis
 * d = (sin 70°, 0, cos 70°). The crank axis b(θ) = cos 20° a + sin 20° (cos θ x + sin θ y),
 * θ = `jA.angle` measured about a from world x. The output axis
 * c(ψ) = cos 50° d + sin 50° (cos ψ e₁ + sin ψ e₂) with e₁ = (cos 70°, 0, −sin 70°),
 * e₂ = y (so (e₁, e₂, d) is right-handed), ψ = `jD.angle` measured about d from e₁.
 * Closure is b·c = cos 60°: a cone of half-angle 60° about b meets the cone of half-angle
 * 50° about d — the closed form `outputAngle` below.
 *
 * Every joint frame sits on its axis at unit distance from O (so the part has a size).
 * Parts are drawn with identity poses: entity coordinates are world coordinates at the
 * crank angle the file is written for.
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { DEG, IDENTITY, add, axesFromZX, cross, dot, quatFromAxes, scale, unit, type V3 } from './geometry';

export const SPHERICAL_4R = { ground: 70, input: 20, coupler: 60, output: 50 } as const;

const A: V3 = [0, 0, 1];
const D: V3 = [Math.sin(SPHERICAL_4R.ground * DEG), 0, Math.cos(SPHERICAL_4R.ground * DEG)];
const E1: V3 = [Math.cos(SPHERICAL_4R.ground * DEG), 0, -Math.sin(SPHERICAL_4R.ground * DEG)];
const E2: V3 = cross(D, E1);

/** Crank axis b for crank angle θ (rad). */
export function crankAxis(theta: number): V3 {
  const s = Math.sin(SPHERICAL_4R.input * DEG), c = Math.cos(SPHERICAL_4R.input * DEG);
  return [s * Math.cos(theta), s * Math.sin(theta), c];
}
/** Output axis c for output angle ψ (rad). */
export function outputAxis(psi: number): V3 {
  const s = Math.sin(SPHERICAL_4R.output * DEG), c = Math.cos(SPHERICAL_4R.output * DEG);
  return add(scale(D, c), add(scale(E1, s * Math.cos(psi)), scale(E2, s * Math.sin(psi))));
}

/**
 * Output angle ψ (rad) for crank angle θ (rad): A cos ψ + B sin ψ = C with
 * A = sin 50° e₁·b, B = sin 50° e₂·b, C = cos 60° − cos 50° d·b, so
 * ψ = atan2(B, A) + branch·acos(C / √(A² + B²)). Branch +1 is the one the file is drawn on.
 */
export function outputAngle(theta: number, branch: 1 | -1 = 1): number {
  const b = crankAxis(theta);
  const so = Math.sin(SPHERICAL_4R.output * DEG), co = Math.cos(SPHERICAL_4R.output * DEG);
  const Ac = so * dot(E1, b), Bc = so * dot(E2, b), C = Math.cos(SPHERICAL_4R.coupler * DEG) - co * dot(D, b);
  const k = C / Math.hypot(Ac, Bc);
  if (Math.abs(k) > 1) return NaN; // the coupler cannot close
  return Math.atan2(Bc, Ac) + branch * Math.acos(k);
}

export function spherical4RDoc(crankDeg = 0): AssemblyDoc {
  const theta = crankDeg * DEG;
  const psi = outputAngle(theta);
  const b = crankAxis(theta), c = outputAxis(psi);
  const frame = (axis: V3, xHint: V3) => ({ origin: unit(axis), rotation: quatFromAxes(axesFromZX(axis, xHint)) });
  // Reference x axes: ground's at A is world x, at D is e₁; a moving part's frame on a ground
  // axis points at the part's other axis (so the joint angle is θ or ψ itself).
  const cA = { origin: unit(A), rotation: quatFromAxes({ x: [1, 0, 0], y: [0, 1, 0], z: A }) };
  const cD = { origin: unit(D), rotation: quatFromAxes({ x: E1, y: E2, z: D }) };
  return {
    format: 'kinemate.assembly/1',
    name: 'spherical-4r',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: IDENTITY }, frames: { A: cA, D: cD } },
      crank: { pose: { position: [0, 0, 0], rotation: IDENTITY }, frames: { A: frame(A, b), B: frame(b, A) } },
      coupler: { pose: { position: [0, 0, 0], rotation: IDENTITY }, frames: { B: frame(b, A), C: frame(c, b) } },
      rocker: { pose: { position: [0, 0, 0], rotation: IDENTITY }, frames: { C: frame(c, b), D: frame(D, c) } },
    },
    mates: {
      jA: { type: 'revolute', a: 'ground.A', b: 'crank.A' },
      jB: { type: 'revolute', a: 'crank.B', b: 'coupler.B' },
      jC: { type: 'revolute', a: 'coupler.C', b: 'rocker.C' },
      jD: { type: 'revolute', a: 'ground.D', b: 'rocker.D' },
    },
    state: { 'jA.angle': crankDeg },
    held: ['jA.angle'],
  };
}
