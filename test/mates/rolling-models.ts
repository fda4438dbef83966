/**
 * Assemblies for the rolling mate's tests: one wheel kept in the world's xz plane by a
 * planar joint to the ground, rolling on the ground's floor plane or on a curve of it.
 * Gravity is −z. File units: mm, degrees, kg.
 */
import type { AssemblyDoc } from '../../src/assembly/types';

/** Turns a frame's z onto −y (x stays x, y goes to z): the planar joint's plane is xz. */
export const XZ_PLANE = [Math.SQRT1_2, Math.SQRT1_2, 0, 0] as const;

export interface WheelOptions {
  radius: number;
  /** Where the wheel's centre starts (the solve puts it on the track). */
  centre: [number, number];
  /** The track: the floor z = 0, or a curve through these (x, z) points. */
  track: 'plane' | { points: readonly (readonly [number, number])[]; closed?: boolean; smooth?: boolean };
  /** kg; the wheel is a uniform disc unless `inertia` (kg·mm² about its axis) is given. */
  mass?: number;
  inertia?: number;
  /** Hold the wheel's turn (the planar joint's angle, degrees) there. */
  heldAngle?: number;
  /** Extra top-level fields (forces, gravity…). */
  extra?: Record<string, unknown>;
}

export function wheelOnTrack(o: WheelOptions): AssemblyDoc {
  const mass = o.mass ?? 0.05;
  const axial = o.inertia ?? 0.5 * mass * o.radius * o.radius;
  const across = 0.5 * axial + 1e-3;
  const ground: Record<string, unknown> = {
    fixed: true,
    pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
    frames: { plane: { origin: [0, 0, 0], rotation: [...XZ_PLANE] } },
  };
  if (o.track === 'plane') ground.planes = { floor: { origin: [0, 0, 0], normal: [0, 0, 1] } };
  else ground.curves = { profile: { polyline: o.track.points.map(([x, z]) => [x, 0, z]), closed: o.track.closed ?? false, smooth: o.track.smooth ?? true } };
  const doc: Record<string, unknown> = {
    format: 'kinemate.assembly/1',
    name: 'wheel',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground,
      wheel: {
        pose: { position: [o.centre[0], 0, o.centre[1]], rotation: [1, 0, 0, 0] },
        frames: { hub: { origin: [0, 0, 0], rotation: [...XZ_PLANE] } },
        circles: { rim: { center: [0, 0, 0], normal: [0, 1, 0], radius: o.radius } },
        mass: { mass, centre: [0, 0, 0], inertia: [[across, 0, 0], [0, axial, 0], [0, 0, across]] },
      },
    },
    mates: {
      jP: { type: 'planar', a: 'ground.plane', b: 'wheel.hub' },
      roll: { type: 'rolling', a: 'wheel.rim', b: o.track === 'plane' ? 'ground.floor' : 'ground.profile' },
    },
    state: o.heldAngle === undefined ? {} : { 'jP.angle': o.heldAngle },
    held: o.heldAngle === undefined ? [] : ['jP.angle'],
    ...o.extra,
  };
  return doc as unknown as AssemblyDoc;
}

/** A circle of radius R about (cx, cz) as n points, counter-clockwise seen from −y (x → z). */
export function circlePoints(R: number, n: number, cx = 0, cz = 0): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    return [cx + R * Math.cos(a), cz + R * Math.sin(a)] as [number, number];
  });
}
