/**
 * The pinewood-derby car of seed 002 (pwdsim) as a mated assembly: a planar two-wheel
 * model — the body on a planar joint to the track, a rear and a front axle (each a
 * concentric mate and the wheels' centre on the body's middle plane: a revolute without an
 * angle coordinate, which would grow to hundreds of radians down 42 ft), each axle's pair
 * of wheels one part rolling (the `rolling` mate) on a smooth track curve
 * with a ramp, a C²-smooth easement and a flat. One degree of freedom: how far the car has
 * rolled. pwdsim's physics terms: gravity, the body's translation and pitch and the wheels'
 * spin (masses and inertias), the axles' bearing friction (`coordinate_friction` on each
 * contact's travel: the bearing torque referred to the rim, exact where the body does not
 * pitch) and air drag at the centre of gravity (`drag`); its rolling friction is
 * left out. File units: mm, degrees, kg; the world's z is up and the car runs toward +x in
 * the xz plane.
 *
 * The seed names a 42 ft BestTrack but publishes no profile, so the track here is ours: a
 * 42 ft (12 802 mm) run starting 4 ft (1 219 mm) up, a straight 25° ramp, an easement whose
 * slope eases to level with a quintic (curvature continuous, as pwdsim's SplineTrack keeps
 * it), then a flat. The car is a regulation 5 oz (141.7 g), 7 in long, 4⅜ in wheelbase,
 * 30 mm wheels, its centre of gravity an inch ahead of the rear axle.
 */
import type { AssemblyDoc } from '../../src/assembly/types';

/** Turns a frame's z onto −y (x stays x, y goes to z): joints whose axis is across the track. */
const ACROSS = [Math.SQRT1_2, Math.SQRT1_2, 0, 0];

export const PINEWOOD_TRACK = {
  /** Height of the track's top above the flat (mm). */
  height: 1219.2,
  /** Slope of the straight ramp (degrees). */
  rampDegrees: 25,
  /** Horizontal length of the easement from the ramp's slope to level (mm). */
  easement: 1500,
  /** Arc length of the whole track (mm): 42 ft. */
  length: 12801.6,
  /** Spacing of the curve's points along x (mm). */
  spacing: 25,
  /** The finish line: a vertical line this far (mm, along x) before the track's end. */
  finishBeforeEnd: 120,
} as const;

export interface PinewoodCar {
  bodyMass: number; bodyInertia: number; axleMass: number; axleInertia: number;
  wheelRadius: number; wheelbase: number;
  cg: readonly [number, number, number]; nose: readonly [number, number, number];
  rearStart: number;
  axleFriction: number; axleRadius: number; cd: number; frontalArea: number;
}

export const PINEWOOD_CAR: Readonly<PinewoodCar> = {
  /** kg and kg·mm². */
  bodyMass: 0.1313,
  bodyInertia: 360,
  /** One axle part = two wheels. */
  axleMass: 0.0052,
  axleInertia: 0.6,
  wheelRadius: 15,
  wheelbase: 111.1,
  /** From the rear axle, along and square to the axle line (mm). */
  cg: [25.4, 0, 22],
  nose: [146, 0, 10],
  /** Arc length of the rear contact at the start (mm): the nose then rests on the start pin. */
  rearStart: 30,
  /** Axle bearings: friction coefficient and the axle's radius (mm), pwdsim's μ and a. */
  axleFriction: 0.1,
  axleRadius: 1.1,
  /** Air drag at the centre of gravity: C_d and frontal area (mm²). */
  cd: 0.5,
  frontalArea: 1500,
};

/** Height of the track profile z(x) and its slope, from the ramp's top at x = 0. */
function profile(x: number): { z: number; slope: number } {
  const { height, rampDegrees, easement } = PINEWOOD_TRACK;
  const k = Math.tan((rampDegrees * Math.PI) / 180);
  // the easement loses k·easement/2 of height (the quintic's mean is ½)
  const rampRun = (height - (k * easement) / 2) / k;
  if (x <= rampRun) return { z: height - k * x, slope: -k };
  const t = Math.min(1, (x - rampRun) / easement);
  // slope −k·(1 − S(t)), S the quintic smoothstep; its integral gives the height lost
  const S = t * t * t * (10 - 15 * t + 6 * t * t);
  const intS = t * t * t * t * (2.5 - 3 * t + t * t); // ∫₀ᵗ S
  const z = height - k * rampRun - k * easement * (t - intS);
  if (x - rampRun <= easement) return { z, slope: -k * (1 - S) };
  return { z: 0, slope: 0 };
}

/** The track's points (x, z), evenly spaced in x, long enough for the whole 42 ft of arc length. */
export function pinewoodTrackPoints(): [number, number][] {
  const { spacing, length } = PINEWOOD_TRACK;
  const points: [number, number][] = [];
  let arc = 0, x = 0;
  let last = profile(0);
  points.push([0, last.z]);
  while (arc < length) {
    x += spacing;
    const p = profile(x);
    arc += Math.hypot(spacing, p.z - last.z);
    last = p;
    points.push([round(x), round(p.z)]);
  }
  return points;
}

// kept at full precision: the tests compare the ramp against closed forms to 1e-9
const round = (v: number) => v;

/** The car's place at the start: rear contact `rearStart` down the straight ramp. */
function startPose(car: PinewoodCar) {
  const { wheelRadius: r, wheelbase, rearStart } = car;
  const a = (PINEWOOD_TRACK.rampDegrees * Math.PI) / 180;
  const down = [Math.cos(a), -Math.sin(a)], normal = [Math.sin(a), Math.cos(a)];
  const top = profile(0).z;
  const rear = [rearStart * down[0] + r * normal[0], top + rearStart * down[1] + r * normal[1]];
  const front = [rear[0] + wheelbase * down[0], rear[1] + wheelbase * down[1]];
  // the body pitched nose-down by the ramp's angle: a turn by +a about y
  const rotation = [Math.cos(a / 2), 0, Math.sin(a / 2), 0];
  return { rear, front, rotation };
}

/**
 * The axles' loads on the level (N): the body's weight split by its centre's place between
 * them, each axle's own weight on itself. The bearings' friction takes these as their load
 * (pwdsim's axle friction follows the normal force as it changes; a force element here
 * cannot read a multiplier, so it holds the level-track value).
 */
export function levelAxleLoads(car: PinewoodCar, g = 9.80665): { rear: number; front: number } {
  const front = car.bodyMass * g * (car.cg[0] / car.wheelbase) + car.axleMass * g;
  const rear = (car.bodyMass + 2 * car.axleMass) * g - front;
  return { rear, front };
}

/**
 * The assembly. `overrides` change some of PINEWOOD_CAR; `resistances: false` leaves out
 * the bearings' friction and the drag (gravity and inertia only; with axleInertia 0 as
 * well, pwdsim's simple physics).
 */
export function pinewoodDoc(overrides: Partial<PinewoodCar> = {}, options: { resistances?: boolean } = {}): AssemblyDoc {
  const car = { ...PINEWOOD_CAR, ...overrides }, track = PINEWOOD_TRACK;
  const loads = levelAxleLoads(car);
  const resistances = options.resistances ?? true;
  const points = pinewoodTrackPoints();
  const end = points[points.length - 1][0];
  const { rear, front, rotation } = startPose(car);
  const diag = (m: number, across: number, axial: number) => ({ mass: m, centre: [0, 0, 0], inertia: [[across, 0, 0], [0, axial, 0], [0, 0, across]] });
  const axle = (position: number[]) => ({
    pose: { position: [round(position[0]), 0, round(position[1])], rotation: [...rotation].map(round) },
    points: { centre: [0, 0, 0] },
    circles: { rim: { center: [0, 0, 0], normal: [0, 1, 0], radius: car.wheelRadius } },
    mass: diag(car.axleMass, car.axleInertia > 0 ? car.axleInertia / 2 + 0.05 : 0, car.axleInertia),
  });
  const doc = {
    format: 'kinemate.assembly/1',
    name: 'pinewood derby car on a 42 ft track (seed 002)',
    units: { length: 'mm', angle: 'deg', mass: 'kg', time: 's', force: 'N' },
    parts: {
      track: {
        fixed: true,
        pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
        frames: { plane: { origin: [0, 0, 0], rotation: ACROSS } },
        points: { finish: [round(end - track.finishBeforeEnd), 0, 0] },
        curves: { profile: { polyline: points.map(([x, z]) => [x, 0, z]), smooth: true } },
      },
      body: {
        pose: { position: [round(rear[0]), 0, round(rear[1])], rotation: [...rotation].map(round) },
        frames: {
          plane: { origin: [0, 0, 0], rotation: ACROSS },
        },
        axes: { rearAxle: { origin: [0, 0, 0], direction: [0, 1, 0] }, frontAxle: { origin: [car.wheelbase, 0, 0], direction: [0, 1, 0] } },
        planes: { middle: { origin: [0, 0, 0], normal: [0, 1, 0] } },
        points: { cg: [...car.cg], nose: [...car.nose] },
        mass: { mass: car.bodyMass, centre: [...car.cg], inertia: [[car.bodyInertia / 4, 0, 0], [0, car.bodyInertia, 0], [0, 0, car.bodyInertia]] },
      },
      rear: axle(rear),
      front: axle(front),
    },
    mates: {
      slide: { type: 'planar', a: 'track.plane', b: 'body.plane' },
      // each axle: the wheels turn on it (concentric) and stay on the body's middle plane
      rearAxle: { type: 'concentric', a: 'body.rearAxle', b: 'rear.rim' },
      rearInPlane: { type: 'coincident', a: 'body.middle', b: 'rear.centre' },
      frontAxle: { type: 'concentric', a: 'body.frontAxle', b: 'front.rim' },
      frontInPlane: { type: 'coincident', a: 'body.middle', b: 'front.centre' },
      rearRoll: { type: 'rolling', a: 'rear.rim', b: 'track.profile' },
      frontRoll: { type: 'rolling', a: 'front.rim', b: 'track.profile' },
    },
    state: { 'rearRoll.u': car.rearStart },
    held: [],
    ...(resistances ? {
      forces: {
        // bearing torque μ·N·a, referred to the rim (÷ r: pwdsim's "a force of about μNa/r"),
        // against the contact's travel; the sign regularised at 1 mm/s as pwdsim does
        rearBearing: { type: 'coordinate_friction', coordinate: 'rearRoll.u', force: (car.axleFriction * loads.rear * car.axleRadius) / car.wheelRadius, regularization: 1 },
        frontBearing: { type: 'coordinate_friction', coordinate: 'frontRoll.u', force: (car.axleFriction * loads.front * car.axleRadius) / car.wheelRadius, regularization: 1 },
        air: { type: 'drag', at: 'body.cg', cd: car.cd, area: car.frontalArea },
      },
    } : {}),
  };
  return doc as unknown as AssemblyDoc;
}
