/**
 * The sections of a geometry file that set up a corner beside its hardpoints (geometry.ts
 * reads the file): the actuation, the spring, the steering, the wheel and tyre, and an axle's
 * vehicle block, each read into its normalised form with every problem reported.
 */
import { ProblemList } from './errors';
import {
  ACTUATION_TYPES, AXLE_POSITIONS, SPRING_TYPES, STEERING_TYPES, actuationMounts, usesRocker,
  type ActuationType, type AxlePosition, type SteeringType, type Topology,
} from './hardpoints';
import {
  childPath, describe, isRecord, listChoices, quoted, readBoundedNumber, readChoice, readNumber, readPoint,
  type PlainRecord,
} from './read';
import type { Actuation, SpringSettings, Tire, VehicleConfig, Wheel } from './geometry-types';

/** Tyre radius in mm: rim_diameter × 25.4 / 2 + aspect_ratio × section_width. */
export function tireRadius(tire: Tire): number {
  return (tire.rim_diameter * 25.4) / 2 + tire.aspect_ratio * tire.section_width;
}

export function readActuation(
  problems: ProblemList,
  raw: unknown,
  path: string,
  topology: Topology | undefined,
): Actuation | undefined {
  const source = raw === undefined ? {} : raw;
  if (!isRecord(source)) {
    problems.add(path, `expected a mapping { type, mount }, got ${describe(source)}`);
    return undefined;
  }
  const typePath = childPath(path, 'type');
  const type: ActuationType | undefined =
    source.type === undefined ? 'direct' : readChoice(problems, source.type, typePath, ACTUATION_TYPES, 'actuation type');
  if (type === undefined || topology === undefined) return undefined;
  const mounts = actuationMounts(topology, type);
  if (mounts.length === 0) {
    problems.add(typePath, `unsupported combination: ${type} is supported on a double_wishbone only, not a ${topology}`);
    return undefined;
  }
  if (source.mount === undefined) return { type, mount: mounts[0] }; // the topology's usual mount
  if (typeof source.mount === 'string' && mounts.includes(source.mount)) return { type, mount: source.mount };
  problems.add(
    childPath(path, 'mount'),
    `unsupported mount ${quoted(source.mount)} for ${type} actuation on a ${topology} (expected ${listChoices(mounts)})`,
  );
  return undefined;
}

/** A spring's numbers (the fields a spring of some type takes besides `type`). */
type SpringNumber = Exclude<keyof SpringSettings, 'type'>;

export function readSpring(
  problems: ProblemList,
  raw: unknown,
  path: string,
  actuation: Actuation | undefined,
  topology?: Topology,
): SpringSettings | undefined {
  if (raw === undefined) return { type: 'none' };
  if (!isRecord(raw)) {
    problems.add(path, `expected a mapping { type }, got ${describe(raw)}`);
    return undefined;
  }
  const typePath = childPath(path, 'type');
  const type = readChoice(problems, raw.type, typePath, SPRING_TYPES, 'spring type');
  if (type === undefined) return undefined;
  // a trailing arm's torsion bar is wound by the arm itself, about a transverse axis
  if (type === 'torsion_bar' && actuation !== undefined && !usesRocker(actuation.type) && topology !== 'trailing_arm') {
    // The bar is wound by the rocker shaft: without a rocker there is nothing to twist it.
    problems.add(typePath, `unsupported combination: torsion_bar needs pushrod_rocker or pullrod_rocker actuation, not ${actuation.type}`);
    return undefined;
  }
  const settings: SpringSettings = { type };
  const fields: readonly SpringNumber[] = type === 'coilover' ? ['rate', 'free_length', 'preload', 'damping'] : type === 'torsion_bar' ? ['rate', 'preload'] : [];
  const isField = (key: string): key is SpringNumber => (fields as readonly string[]).includes(key);
  for (const key of Object.keys(raw)) {
    if (key === 'type') continue;
    if (!isField(key)) { problems.add(childPath(path, key), fields.length ? `unknown field for a ${type} spring (expected ${fields.join(', ')})` : `a spring of type ${type} takes no ${key}`); continue; }
    const value = key === 'preload'
      ? readNumber(problems, raw[key], childPath(path, key))
      : readBoundedNumber(problems, raw[key], childPath(path, key), (x) => key === 'free_length' ? x > 0 : x >= 0, key === 'free_length' ? 'must be > 0' : 'must be ≥ 0');
    if (value !== undefined) settings[key] = value;
  }
  if (settings.rate === undefined) for (const key of ['free_length', 'preload', 'damping'] as const) {
    if (settings[key] !== undefined) problems.add(childPath(path, key), `${key} needs a rate`);
  }
  return settings;
}

export function readSteering(
  problems: ProblemList,
  raw: unknown,
  path: string,
  topology: Topology | undefined,
  axlePosition: AxlePosition | undefined,
): SteeringType | undefined {
  if (raw === undefined) return topology === 'trailing_arm' || topology === 'solid_axle' || axlePosition === 'rear' ? 'none' : 'rack';
  // `steering: rack` is accepted as shorthand for `steering: { type: rack }`.
  const typePath = isRecord(raw) ? childPath(path, 'type') : path;
  const type = readChoice(problems, isRecord(raw) ? raw.type : raw, typePath, STEERING_TYPES, 'steering type');
  if (type === 'rack' && (topology === 'trailing_arm' || topology === 'solid_axle')) {
    problems.add(typePath, `unsupported combination: a ${topology} is unsteered (use none)`);
    return undefined;
  }
  return type;
}

export function readWheel(problems: ProblemList, raw: unknown, path: string): Wheel | undefined {
  if (!isRecord(raw)) {
    problems.add(
      path,
      raw === undefined
        ? 'missing wheel { offset, tire: { aspect_ratio, section_width, rim_diameter } }'
        : `expected a mapping, got ${describe(raw)}`,
    );
    return undefined;
  }
  const offset = raw.offset === undefined ? 0 : readNumber(problems, raw.offset, childPath(path, 'offset'));
  const tirePath = childPath(path, 'tire');
  if (!isRecord(raw.tire)) {
    problems.add(
      tirePath,
      raw.tire === undefined ? 'missing tire { aspect_ratio, section_width, rim_diameter }' : `expected a mapping, got ${describe(raw.tire)}`,
    );
    return undefined;
  }
  const positive = (x: number): boolean => x > 0;
  // A plausible-range check, because 55 for 0.55 is the usual slip and gives a 15 m tyre.
  const aspectRatio = readBoundedNumber(
    problems,
    raw.tire.aspect_ratio,
    childPath(tirePath, 'aspect_ratio'),
    (x) => x > 0 && x <= 1.5,
    'must be a fraction in (0, 1.5], e.g. 0.55 for a 55-series tyre',
  );
  const sectionWidth = readBoundedNumber(problems, raw.tire.section_width, childPath(tirePath, 'section_width'), positive, 'must be positive (mm)');
  const rimDiameter = readBoundedNumber(problems, raw.tire.rim_diameter, childPath(tirePath, 'rim_diameter'), positive, 'must be positive (inches)');
  if (offset === undefined || aspectRatio === undefined || sectionWidth === undefined || rimDiameter === undefined) return undefined;
  const tire: Tire = { aspect_ratio: aspectRatio, section_width: sectionWidth, rim_diameter: rimDiameter };
  return { offset, tire, tire_radius: tireRadius(tire) };
}

export function readVehicle(problems: ProblemList, source: PlainRecord, path: string): VehicleConfig | undefined {
  const before = problems.count;
  const vehicle: VehicleConfig = {};
  if (source.cg_position !== undefined) vehicle.cg_position = readPoint(problems, source.cg_position, childPath(path, 'cg_position'));
  if (source.wheelbase !== undefined) {
    vehicle.wheelbase = readBoundedNumber(problems, source.wheelbase, childPath(path, 'wheelbase'), (x) => x > 0, 'must be positive (mm)');
  }
  if (source.front_brake_bias !== undefined) {
    vehicle.front_brake_bias = readBoundedNumber(
      problems,
      source.front_brake_bias,
      childPath(path, 'front_brake_bias'),
      (x) => x >= 0 && x <= 1,
      'must be a fraction in [0, 1]',
    );
  }
  if (source.driven_axle !== undefined) {
    vehicle.driven_axle = readChoice(problems, source.driven_axle, childPath(path, 'driven_axle'), AXLE_POSITIONS, 'axle');
  }
  return problems.count === before ? vehicle : undefined;
}
