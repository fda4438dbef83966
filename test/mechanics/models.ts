/** Small dynamic models for the statics, equilibrium and modes tests (documents built in code). */
import { validateAssembly } from '../../src/assembly/load';
import type { AssemblyDoc } from '../../src/assembly/types';

const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
const frame0 = { origin: [0, 0, 0], rotation: [1, 0, 0, 0] };
/** z → x: the rail of the slider-crank. */
const zToX = [0.5, 0.5, 0.5, 0.5];
/** z → y: a hinge axis along y (a pendulum swinging in the x–z plane). */
const zToY = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0];

/** Crank r, rod l, slider on the x axis, crank angle held at `angle` degrees, a force F_x on the slider. */
export function sliderCrank(r: number, l: number, angle: number, Fx: number): AssemblyDoc {
  const th = (angle * Math.PI) / 180;
  const bx = r * Math.cos(th), by = r * Math.sin(th);
  const sx = bx + Math.sqrt(l * l - by * by);
  const phi = Math.atan2(-by, sx - bx);
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { pivot: frame0, rail: { origin: [0, 0, 0], rotation: zToX } } },
      crank: { pose: { position: [0, 0, 0], rotation: [Math.cos(th / 2), 0, 0, Math.sin(th / 2)] },
        frames: { base: frame0, tip: { origin: [r, 0, 0], rotation: [1, 0, 0, 0] } } },
      rod: { pose: { position: [bx, by, 0], rotation: [Math.cos(phi / 2), 0, 0, Math.sin(phi / 2)] },
        frames: { start: frame0, end: { origin: [l, 0, 0], rotation: [1, 0, 0, 0] } } },
      slider: { pose: { position: [sx, 0, 0], rotation: [1, 0, 0, 0] },
        points: { centre: [0, 0, 0] }, frames: { pin: frame0, rail: { origin: [0, 0, 0], rotation: zToX } } },
    },
    mates: {
      jA: { type: 'revolute', a: 'ground.pivot', b: 'crank.base' },
      jB: { type: 'revolute', a: 'crank.tip', b: 'rod.start' },
      jC: { type: 'revolute', a: 'rod.end', b: 'slider.pin' },
      jS: { type: 'slider', a: 'ground.rail', b: 'slider.rail' },
    },
    state: { 'jA.angle': angle }, held: ['jA.angle'],
    gravity: [0, 0, 0],
    forces: { load: { type: 'force', at: 'slider.centre', vector: [Fx, 0, 0] } },
  });
}

/**
 * A compound pendulum: a bar hinged on the y axis at the world origin, its centre of mass
 * `d` below the hinge at angle 0; the part's own origin is placed `offset` along the bar
 * (so the hinge is not at the body origin). Angle in degrees, optionally held.
 */
export function pendulum(options: { mass: number; d: number; inertia: number; angle: number; held: boolean; offset?: number }): AssemblyDoc {
  const { mass, d, inertia, angle, held } = options;
  const o = options.offset ?? 0; // body origin at (0, 0, −o) when hanging
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { hinge: { origin: [0, 0, 0], rotation: zToY } } },
      bar: { pose: { position: [0, 0, -o], rotation: [1, 0, 0, 0] },
        frames: { hinge: { origin: [0, 0, o], rotation: zToY } },
        mass: { mass, centre: [0, 0, o - d], inertia: [[inertia, 0, 0], [0, inertia, 0], [0, 0, 0]] } },
    },
    mates: { jP: { type: 'revolute', a: 'ground.hinge', b: 'bar.hinge' } },
    state: { 'jP.angle': angle }, held: held ? ['jP.angle'] : [],
  });
}

/** A door on two coaxial hinges (vertical, 500 mm apart), its mass 400 mm out. */
export function door(): AssemblyDoc {
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      wall: { fixed: true, pose: I, frames: { low: frame0, high: { origin: [0, 0, 500], rotation: [1, 0, 0, 0] } } },
      door: { pose: I, frames: { low: frame0, high: { origin: [0, 0, 500], rotation: [1, 0, 0, 0] } },
        mass: { mass: 20, centre: [400, 0, 250], inertia: [[1e6, 0, 0], [0, 1e6, 0], [0, 0, 1e6]] } },
    },
    mates: {
      hingeLow: { type: 'revolute', a: 'wall.low', b: 'door.low' },
      hingeHigh: { type: 'revolute', a: 'wall.high', b: 'door.high' },
    },
  });
}

/**
 * A bar (mass m, pitch inertia I about its centre) on two vertical springs at x = −a1 and
 * x = +a2 from its centre, free to bounce and pitch in the x–z plane (a planar joint at its
 * centre, the fore-aft slide held). The springs attach at the centre's height.
 */
export function barOnSprings(p: { m: number; I: number; a1: number; a2: number; k1: number; k2: number }): AssemblyDoc {
  const h = 300;
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { plane: { origin: [0, 0, h], rotation: zToY } }, points: { s1: [-p.a1, 0, 0], s2: [p.a2, 0, 0] } },
      bar: { pose: { position: [0, 0, h], rotation: [1, 0, 0, 0] }, frames: { plane: { origin: [0, 0, 0], rotation: zToY } },
        points: { s1: [-p.a1, 0, 0], s2: [p.a2, 0, 0] },
        mass: { mass: p.m, centre: [0, 0, 0], inertia: [[p.I, 0, 0], [0, p.I, 0], [0, 0, p.I]] } },
    },
    mates: { guide: { type: 'planar', a: 'ground.plane', b: 'bar.plane' } },
    held: ['guide.slideX'],
    forces: {
      front: { type: 'spring', a: 'ground.s1', b: 'bar.s1', stiffness: p.k1, length: h },
      rear: { type: 'spring', a: 'ground.s2', b: 'bar.s2', stiffness: p.k2, length: h },
    },
  });
}

type V = [number, number, number];
export const dwHardpoints: Record<string, V> = {
  lower_front: [250, 400, 200], lower_rear: [-250, 450, 200], lower_outboard: [0, 900, 200],
  upper_front: [225, 350, 500], upper_rear: [-275, 350, 500], upper_outboard: [-25, 750, 500],
  trackrod_inboard: [50, 200, 250], trackrod_outboard: [150, 800, 275],
  spring_top: [0, 600, 600], spring_seat: [0, 700, 200], contact: [-20, 950, 0],
};
const dist = (a: V, b: V) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const axis = (a: V, b: V) => ({ origin: a, direction: [b[0] - a[0], b[1] - a[1], b[2] - a[2]] });

/** A double wishbone corner: lower wishbone a part on a hinge, the upper one two links, a track rod, a spring on the lower wishbone; a vertical load at the contact patch. */
export function dwCorner(load: number | V, name?: string): AssemblyDoc {
  const hp = dwHardpoints;
  const pts = (names: string[]) => Object.fromEntries(names.map((n) => [n, hp[n]]));
  return validateAssembly({
    format: 'kinemate.assembly/1', name, units: { length: 'mm', angle: 'deg' },
    parts: {
      chassis: { fixed: true, pose: I, points: pts(['upper_front', 'upper_rear', 'trackrod_inboard', 'spring_top']), axes: { hinge: axis(hp.lower_front, hp.lower_rear) } },
      lower: { pose: I, points: pts(['lower_outboard', 'spring_seat']), axes: { hinge: axis(hp.lower_front, hp.lower_rear) } },
      upright: { pose: I, points: pts(['lower_outboard', 'upper_outboard', 'trackrod_outboard', 'contact']) },
    },
    mates: {
      hinge: { type: 'revolute', a: 'chassis.hinge', b: 'lower.hinge' },
      ball: { type: 'ball', a: 'lower.lower_outboard', b: 'upright.lower_outboard' },
      upper_front: { type: 'distance', a: 'chassis.upper_front', b: 'upright.upper_outboard', value: dist(hp.upper_front, hp.upper_outboard) },
      upper_rear: { type: 'distance', a: 'chassis.upper_rear', b: 'upright.upper_outboard', value: dist(hp.upper_rear, hp.upper_outboard) },
      trackrod: { type: 'distance', a: 'chassis.trackrod_inboard', b: 'upright.trackrod_outboard', value: dist(hp.trackrod_inboard, hp.trackrod_outboard) },
    },
    gravity: [0, 0, 0],
    forces: {
      spring: { type: 'spring', a: 'chassis.spring_top', b: 'lower.spring_seat', stiffness: 60, length: dist(hp.spring_top, hp.spring_seat) + 40 },
      patch: { type: 'force', at: 'upright.contact', vector: typeof load === 'number' ? [0, 0, load] : load },
    },
  });
}

