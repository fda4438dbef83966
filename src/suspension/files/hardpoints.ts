/**
 * The vocabulary of geometry files: topologies, actuation, springs, steering, and the
 * hardpoint names each combination needs (`suspension.md`, "Topologies as mated parts").
 * Names are part of the contract: results and other tools use them verbatim.
 */

// solid_axle: a beam (live or De Dion) carrying both wheels; an axle file only (see docs/suspension-devices.md)
export const TOPOLOGIES = ['double_wishbone', 'macpherson', 'multi_link', 'trailing_arm', 'solid_axle'] as const;
export type Topology = (typeof TOPOLOGIES)[number];

export const ACTUATION_TYPES = ['direct', 'pushrod_rocker', 'pullrod_rocker'] as const;
export type ActuationType = (typeof ACTUATION_TYPES)[number];

export const SPRING_TYPES = ['none', 'coilover', 'torsion_bar'] as const;
export type SpringType = (typeof SPRING_TYPES)[number];

export const STEERING_TYPES = ['rack', 'none'] as const;
export type SteeringType = (typeof STEERING_TYPES)[number];

export const SIDES = ['left', 'right'] as const;
export type Side = (typeof SIDES)[number];

export const AXLE_POSITIONS = ['front', 'rear'] as const;
export type AxlePosition = (typeof AXLE_POSITIONS)[number];

const MULTI_LINK_RODS = ['upper_front_link', 'upper_rear_link', 'lower_front_link', 'lower_rear_link'] as const;

const wishbone = (prefix: 'lower' | 'upper'): string[] => [
  `${prefix}_wishbone_inboard_front`,
  `${prefix}_wishbone_inboard_rear`,
  `${prefix}_wishbone_outboard`,
];
const TRACKROD = ['trackrod_inboard', 'trackrod_outboard'];
const AXLE = ['axle_inboard', 'axle_outboard'];
const STRUT = ['strut_bottom', 'strut_top'];
// A pull rod is the same two-ball link as a push rod, loaded in tension: it keeps the
// pushrod_* names so the solver and results have one vocabulary for both.
const ROCKER = ['pushrod_outboard', 'pushrod_inboard', 'rocker_axis_a', 'rocker_axis_b'];

export function usesRocker(actuation: ActuationType): boolean {
  return actuation === 'pushrod_rocker' || actuation === 'pullrod_rocker';
}

/**
 * Hardpoints a geometry file must give for this combination, in a stable order.
 * Does not judge whether the combination is supported (see `unsupportedCombination`);
 * `steering` does not change the set: an unsteered corner still has a track rod (a fixed
 * toe link), and the trailing arm has none either way.
 */
export function requiredHardpoints(
  topology: Topology,
  actuation: ActuationType,
  spring: SpringType,
  steering: SteeringType,
): string[] {
  void steering;
  const sprung = spring !== 'none';
  switch (topology) {
    case 'double_wishbone':
      // A torsion bar on the rocker shaft is the spring: no coilover points are needed then.
      if (usesRocker(actuation)) return [...wishbone('lower'), ...wishbone('upper'), ...TRACKROD, ...AXLE, ...ROCKER, ...(spring === 'torsion_bar' ? [] : STRUT)];
      return [...wishbone('lower'), ...wishbone('upper'), ...TRACKROD, ...AXLE, ...(sprung ? STRUT : [])];
    case 'macpherson':
      // The strut is the locating member, so its two points are needed with or without a spring.
      return [...wishbone('lower'), 'strut_top', 'strut_bottom', ...TRACKROD, ...AXLE];
    case 'multi_link':
      return [
        ...MULTI_LINK_RODS.flatMap((rod) => [`${rod}_inboard`, `${rod}_outboard`]),
        ...TRACKROD,
        ...AXLE,
        ...(sprung ? STRUT : []),
      ];
    case 'trailing_arm':
      return ['trailing_arm_pivot_a', 'trailing_arm_pivot_b', 'trailing_arm_outboard', ...AXLE, ...(sprung ? STRUT : [])];
    case 'solid_axle':
      // the locating linkage's own points are added by its type (files/devices.ts)
      return [...AXLE, 'lower_link_chassis', 'lower_link_axle', ...(sprung ? STRUT : [])];
  }
}

/**
 * Hardpoints a file may give without needing them: the damper points of a layout with
 * direct actuation and no spring (a damper alone still reports `damper_length`).
 */
export function optionalHardpoints(
  topology: Topology,
  actuation: ActuationType,
  spring: SpringType,
  steering: SteeringType,
): string[] {
  const required = requiredHardpoints(topology, actuation, spring, steering);
  return STRUT.filter((name) => !required.includes(name));
}

/** Every hardpoint name any combination uses: for checks made without a geometry. */
export const ALL_HARDPOINT_NAMES: readonly string[] = [
  ...new Set(
    TOPOLOGIES.flatMap((topology) =>
      ACTUATION_TYPES.flatMap((actuation) => requiredHardpoints(topology, actuation, 'coilover', 'rack')),
    ),
  ),
];

/** Bodies an actuation may be mounted on, usual one first; empty = unsupported combination. */
export function actuationMounts(topology: Topology, actuation: ActuationType): string[] {
  if (usesRocker(actuation)) {
    if (topology !== 'double_wishbone') return [];
    return actuation === 'pushrod_rocker' ? ['lower_wishbone', 'upright'] : ['upper_wishbone', 'upright'];
  }
  switch (topology) {
    case 'double_wishbone':
      return ['lower_wishbone', 'upper_wishbone', 'upright'];
    case 'macpherson':
      return ['upright'];
    case 'multi_link':
      return [...MULTI_LINK_RODS, 'upright'];
    case 'trailing_arm':
      return ['trailing_arm'];
    case 'solid_axle':
      return ['axle'];
  }
}

/**
 * Point pairs that must not coincide, with the reason; the problem is reported at the
 * second point.
 */
export const DISTINCT_POINTS: readonly { a: string; b: string; why: string }[] = [
  { a: 'lower_wishbone_inboard_front', b: 'lower_wishbone_inboard_rear', why: 'the lower wishbone pivot axis is undefined' },
  { a: 'upper_wishbone_inboard_front', b: 'upper_wishbone_inboard_rear', why: 'the upper wishbone pivot axis is undefined' },
  { a: 'rocker_axis_a', b: 'rocker_axis_b', why: 'the rocker axis is undefined' },
  { a: 'trailing_arm_pivot_a', b: 'trailing_arm_pivot_b', why: 'the trailing arm pivot axis is undefined' },
  { a: 'axle_inboard', b: 'axle_outboard', why: 'the wheel spin axis is undefined' },
  { a: 'strut_bottom', b: 'strut_top', why: 'the strut line is undefined' },
  { a: 'trackrod_inboard', b: 'trackrod_outboard', why: 'the track rod has no length' },
  { a: 'pushrod_inboard', b: 'pushrod_outboard', why: 'the pushrod has no length' },
  ...MULTI_LINK_RODS.map((rod) => ({ a: `${rod}_inboard`, b: `${rod}_outboard`, why: `the ${rod} has no length` })),
  // The upright: its two ball joints (or ball joint and strut top) make the kingpin axis.
  { a: 'lower_wishbone_outboard', b: 'upper_wishbone_outboard', why: 'the upright hangs on one ball joint and the kingpin axis is undefined' },
  { a: 'lower_wishbone_outboard', b: 'strut_top', why: 'the kingpin axis is undefined' },
];

/**
 * Points `c` that must not lie on the line `a`–`b`, with the reason; the problem is
 * reported at `c`.
 */
export const NON_COLLINEAR_POINTS: readonly { a: string; b: string; c: string; why: string }[] = [
  {
    a: 'lower_wishbone_inboard_front',
    b: 'lower_wishbone_inboard_rear',
    c: 'lower_wishbone_outboard',
    why: 'the lower wishbone has no plane',
  },
  {
    a: 'upper_wishbone_inboard_front',
    b: 'upper_wishbone_inboard_rear',
    c: 'upper_wishbone_outboard',
    why: 'the upper wishbone has no plane',
  },
  { a: 'rocker_axis_a', b: 'rocker_axis_b', c: 'pushrod_inboard', why: 'the pushrod cannot turn the rocker' },
  {
    a: 'lower_wishbone_outboard',
    b: 'upper_wishbone_outboard',
    c: 'trackrod_outboard',
    why: 'the track rod cannot stop the upright turning about its kingpin axis',
  },
  { a: 'lower_wishbone_outboard', b: 'strut_top', c: 'trackrod_outboard', why: 'the track rod cannot stop the upright turning about its kingpin axis' },
];

/** Chassis-level holds for the steering response, default first (`suspension.md`, "holds"). */
export function suspensionHoldChoices(topology: Topology, hasDamper: boolean): string[] {
  // Every steered layout also takes `contact_patch` (the tyre's contact point stays on the
  // road while the rack moves) and `wheel_center_height` (what a steer sweep holds).
  const general = ['contact_patch', 'wheel_center_height'];
  switch (topology) {
    case 'double_wishbone':
      return ['lower_wishbone_angle', 'upper_wishbone_angle', ...(hasDamper ? ['damper_length'] : []), ...general];
    case 'macpherson':
      return ['strut_length', 'lower_arm_angle', ...general];
    case 'multi_link':
      return [...(hasDamper ? ['damper_length'] : []), ...general];
    case 'trailing_arm':
    case 'solid_axle':
      return []; // unsteered: no steering response to hold anything for
  }
}
