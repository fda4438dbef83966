/** Small models for the simulation tests (documents built in code). */
import { validateAssembly } from '../../src/assembly/load';
import type { AssemblyDoc } from '../../src/assembly/types';

const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
/** z → y: a hinge axis along +y (a bar hanging along −z swings toward −x for a positive angle). */
const zToY = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0];
/** z → x: a slide along +x. */
const zToX = [0.5, 0.5, 0.5, 0.5];

/** Two point masses m (kg) on massless rods L (mm), hinged in the x–z plane; angles θ1 (absolute) and θ2 − θ1 (relative), degrees. */
export function doublePendulum(m: number, L: number, theta1: number, relative: number): AssemblyDoc {
  const hinge = { origin: [0, 0, 0], rotation: zToY };
  const point = { mass: m, centre: [0, 0, -L], inertia: [[0, 0, 0], [0, 0, 0], [0, 0, 0]] };
  return validateAssembly({
    format: 'kinemate.assembly/1', name: 'double pendulum', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { hinge } },
      upper: { pose: I, frames: { hinge, tip: { origin: [0, 0, -L], rotation: zToY } }, mass: point },
      lower: { pose: { position: [0, 0, -L], rotation: [1, 0, 0, 0] }, frames: { hinge }, mass: point },
    },
    mates: {
      shoulder: { type: 'revolute', a: 'ground.hinge', b: 'upper.hinge' },
      elbow: { type: 'revolute', a: 'upper.tip', b: 'lower.hinge' },
    },
    state: { 'shoulder.angle': theta1, 'elbow.angle': relative },
  });
}

/**
 * A block (m kg) on a horizontal slide along x, a coordinate spring k (N/mm) with damping c
 * (N·s/mm) to x = 0, started at x0 (mm) with velocity v0 (mm/s); no gravity along the slide.
 */
export function oscillator(p: { m: number; k: number; c?: number; x0: number; v0?: number; motion?: unknown; force?: number }): AssemblyDoc {
  const frame = { origin: [0, 0, 0], rotation: zToX };
  return validateAssembly({
    format: 'kinemate.assembly/1', name: 'oscillator', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { rail: frame } },
      block: { pose: { position: [p.x0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { rail: frame }, points: { centre: [0, 0, 0] },
        mass: { mass: p.m, centre: [0, 0, 0], inertia: [[1000, 0, 0], [0, 1000, 0], [0, 0, 1000]] } },
    },
    mates: { rail: { type: 'slider', a: 'ground.rail', b: 'block.rail' } },
    state: { 'rail.slide': p.x0 },
    forces: {
      spring: { type: 'coordinate_spring', coordinate: 'rail.slide', stiffness: p.k, free: 0, ...(p.c ? { damping: p.c } : {}) },
      ...(p.force ? { push: { type: 'force', at: 'block.centre', vector: [p.force, 0, 0] } } : {}),
    },
    ...(p.v0 ? { velocities: { 'rail.slide': p.v0 } } : {}),
    ...(p.motion ? { motions: { drive: p.motion } } : {}),
  });
}

/** A free body (no mates), no gravity, inertia diag(A, B, C) kg·mm², a constant torque (N·mm) in its own axes. */
export function spinningBody(inertia: [number, number, number], torque: [number, number, number], spin?: [number, number, number]): AssemblyDoc {
  return validateAssembly({
    format: 'kinemate.assembly/1', name: 'free body', units: { length: 'mm', angle: 'rad' },
    parts: {
      body: { pose: I, mass: { mass: 2, centre: [0, 0, 0], inertia: [[inertia[0], 0, 0], [0, inertia[1], 0], [0, 0, inertia[2]]] } },
    },
    mates: {},
    gravity: [0, 0, 0],
    forces: { twist: { type: 'torque', part: 'body', vector: torque, frame: 'part' } },
    ...(spin ? { velocities: { 'body.pose': { linear: [0, 0, 0], angular: spin } } } : {}),
  });
}
