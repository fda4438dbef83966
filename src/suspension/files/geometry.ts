/**
 * Geometry files (`suspension.md`, "Geometry file"): a corner or an axle, YAML or JSON,
 * in the suspension-explorer-core layout, validated and normalised into one `Geometry`.
 *
 * Validation reports every problem at once (see `SuspensionFileError`). It checks names,
 * numbers, units, supported combinations and degenerate pivots; it does not solve the
 * linkage, so consistency that needs the solver (a MacPherson clamp off its strut line, a
 * multi-link damper off its rod) is left to the solver's diagnostics.
 */
import { InternalError } from '../../../kernel/errors';
import { ProblemList } from './errors';
import {
  ACTUATION_TYPES,
  AXLE_POSITIONS,
  DISTINCT_POINTS,
  NON_COLLINEAR_POINTS,
  SIDES,
  SPRING_TYPES,
  STEERING_TYPES,
  TOPOLOGIES,
  actuationMounts,
  optionalHardpoints,
  requiredHardpoints,
  usesRocker,
  type ActuationType,
  type AxlePosition,
  type Side,
  type SpringType,
  type SteeringType,
  type Topology,
} from './hardpoints';
import {
  childPath,
  closestName,
  describe,
  isRecord,
  listChoices,
  parseText,
  quoted,
  readBoundedNumber,
  readChoice,
  readNumber,
  readPoint,
  readSection,
  type PlainRecord,
  type Point3,
} from './read';
import {
  NO_DEVICES, SETUP_KEYS, checkDeviceGeometry, deviceHardpoints, mirrorSetup, readBeamAxle, readDevices, readSetup, refuseUnknownKeys,
  type CornerSetup, type Devices,
} from './devices';
import { applySetup } from '../build/setup';
import { readCompliance } from './compliance';
import type { Actuation, CornerGeometry, Geometry, GeometryScope, SpringSettings, Tire, VehicleConfig, Wheel } from './geometry-types';
import { checkGeometryList, type GeometryDoc } from '../../assembly/geometry/doc.ts';
import { GeometryError } from '../../assembly/geometry/errors.ts';
export type { Actuation, CornerGeometry, Geometry, GeometryScope, SpringSettings, Tire, VehicleConfig, Wheel } from './geometry-types';


/** Tyre radius in mm: rim_diameter × 25.4 / 2 + aspect_ratio × section_width. */
export function tireRadius(tire: Tire): number {
  return (tire.rim_diameter * 25.4) / 2 + tire.aspect_ratio * tire.section_width;
}

/** Parses a YAML or JSON geometry file and validates it; throws `SuspensionFileError`. */
export function parseGeometry(text: string, fileName?: string): Geometry {
  return validateGeometry(parseText(text, fileName), fileName);
}

/**
 * Validates parsed geometry data (any plain object, e.g. from `JSON.parse`) and normalises
 * it. Defaults: scope corner, side left, units mm, actuation direct on the topology's
 * first mount, spring none, wheel offset 0, axle_position front (rear for a trailing arm),
 * steering rack on a front axle and none on a rear one or a trailing arm.
 * Throws one `SuspensionFileError` listing every problem.
 */
export function validateGeometry(value: unknown, fileName?: string): Geometry {
  const problems = new ProblemList();
  const geometry = readGeometry(problems, value);
  problems.throwIfAny(fileName);
  if (geometry === undefined) throw new InternalError('validateGeometry: no geometry and no problem reported');
  return geometry;
}

const SCOPES: readonly GeometryScope[] = ['corner', 'axle'];
const MILLIMETRES = ['millimeters', 'millimetres', 'mm'];

/** Distances below this are treated as zero: far below authored precision, far above round-off. */
const COINCIDENCE_TOLERANCE_MM = 1e-6;

function readGeometry(problems: ProblemList, value: unknown): Geometry | undefined {
  if (!isRecord(value)) {
    problems.add('', `expected a mapping (a geometry file), got ${describe(value)}`);
    return undefined;
  }
  const scope: GeometryScope | undefined =
    value.scope === undefined ? 'corner' : readChoice(problems, value.scope, 'scope', SCOPES, 'scope');
  if (scope !== undefined) refuseUnknownSections(problems, value, scope);
  readUnits(problems, value.units);
  const topology = readChoice(problems, value.type, 'type', TOPOLOGIES, 'topology');
  if (scope === undefined) return undefined;

  // Where each setting lives: a corner keeps actuation and spring at the top and the rest
  // under `config`; an axle keeps them under `axle_config` and `vehicle_config`.
  const isAxle = scope === 'axle';
  const settingsPath = isAxle ? 'axle_config' : '';
  const settings = isAxle ? readSection(problems, value, 'axle_config', '') : value;
  const configPath = isAxle ? 'axle_config' : 'config';
  const config = isAxle ? settings : readSection(problems, value, 'config', '');
  const vehiclePath = isAxle ? 'vehicle_config' : 'config';
  const vehicleSource = isAxle ? readSection(problems, value, 'vehicle_config', '') : config;

  const axlePosition = readAxlePosition(problems, config, configPath, topology);
  const actuation = readActuation(problems, settings.actuation, childPath(settingsPath, 'actuation'), topology);
  const spring = readSpring(problems, settings.spring, childPath(settingsPath, 'spring'), actuation, topology);
  const steering = readSteering(problems, config.steering, childPath(configPath, 'steering'), topology, axlePosition);
  const wheel = readWheel(problems, config.wheel, childPath(configPath, 'wheel'));
  const vehicle = readVehicle(problems, vehicleSource, vehiclePath);
  const devices = readDevices(problems, settings, settingsPath, isAxle, topology, actuation?.type, spring?.type);
  const beamAxle = topology === 'solid_axle' ? readBeamAxle(problems, settings, settingsPath, isAxle) : undefined;
  if (devices && beamAxle) devices.beam = beamAxle;
  const rackTravel = readRackTravel(problems, config.steering, childPath(configPath, 'steering'));
  const partGeometry = readPartGeometry(problems, value.geometry);
  // Every field the format accepts is read or refused here: an ignored one gives wrong numbers without a word.
  const configKeys = ['steering', 'wheel', 'axle_position', ...(isAxle ? ['actuation', 'spring', 'damper', 'anti_roll', 'heave_link', 'left_setup', 'right_setup', ...(topology === 'solid_axle' ? ['locating', 'beam'] : [])] : ['cg_position', 'wheelbase', 'front_brake_bias', 'driven_axle', ...SETUP_KEYS])];
  if (isRecord(isAxle ? value.axle_config : value.config)) refuseUnknownKeys(problems, config, configPath, configKeys);
  if (isAxle && isRecord(value.vehicle_config)) refuseUnknownKeys(problems, vehicleSource, vehiclePath, ['cg_position', 'wheelbase', 'front_brake_bias', 'driven_axle']);
  const setupOf = (section: PlainRecord, path: string) => readSetup(problems, section, path, topology, actuation?.type);
  const leftSetup = isAxle ? setupOf(readSetupSection(problems, config, 'left_setup'), 'axle_config.left_setup') : setupOf(config, 'config');
  const rightSetupRaw = isAxle && config.right_setup !== undefined ? readSetupSection(problems, config, 'right_setup') : undefined;
  const rightSetup = rightSetupRaw ? setupOf(rightSetupRaw, 'axle_config.right_setup') : undefined;
  if (rightSetupRaw && isRecord(value.hardpoints) && value.hardpoints.right === undefined) {
    problems.add('axle_config.right_setup', 'a right setup needs explicit hardpoints.right (without them the right corner is the mirror of the left, setup included)');
  }
  const extra = devices ? deviceHardpoints(devices, topology, spring?.type) : { corner: [], center: [] };

  // Hardpoint names are only judged when the layout they depend on is itself valid.
  const names =
    topology && actuation && spring && steering
      ? {
          required: [...requiredHardpoints(topology, actuation.type, spring.type, steering), ...extra.corner],
          allowed: new Set([
            ...requiredHardpoints(topology, actuation.type, spring.type, steering),
            // a separate damper replaces the strut points' damper
            ...optionalHardpoints(topology, actuation.type, spring.type, steering).filter((n) => devices?.damper !== 'linear' || !n.startsWith('strut_')),
            ...extra.corner,
          ]),
          layout: `a ${topology} with ${actuation.type} actuation and spring ${spring.type}`,
        }
      : undefined;

  const read = isAxle ? readAxleCorners(problems, value.hardpoints, names, extra.center) : { corners: readCornerFile(problems, value, names), center: undefined };
  const corners = read.corners;
  if (corners && devices) {
    checkDeviceGeometry(problems, devices, topology, spring?.type, corners.map((c) => ({ side: c.side, path: isAxle ? `hardpoints.${c.side}` : 'hardpoints', hardpoints: c.hardpoints })), read.center ? { path: 'hardpoints.center', hardpoints: read.center } : undefined);
  }

  const compliance = topology && actuation && spring && corners && devices
    ? readCompliance(problems, value.compliance, { topology, actuation, spring: spring.type, devices, corners, isAxle })
    : undefined;
  if (!topology || !actuation || !spring || !steering || !wheel || !corners || !vehicle || !axlePosition || !devices || !leftSetup || problems.count > 0) return undefined;
  const setups = [leftSetup, rightSetup ?? (isAxle && !rightSetupRaw ? mirrorSetup(leftSetup) : undefined)];
  corners.forEach((c, i) => { if (setups[i] && (setups[i]!.camber_shim || setups[i]!.length_shims)) c.setup = setups[i]; });
  const geometry: Geometry = { scope, topology, corners, vehicle, axle_position: axlePosition, steering, actuation, spring, wheel, raw: value };
  if (devices !== NO_DEVICES && (devices.damper !== 'none' || devices.anti_roll !== 'none' || devices.heave_link !== 'none' || devices.beam)) geometry.devices = devices;
  if (read.center) geometry.center = read.center;
  if (rackTravel !== undefined) geometry.rack_travel_per_revolution = rackTravel;
  if (compliance) geometry.compliance = compliance;
  if (partGeometry !== undefined) geometry.part_geometry = partGeometry;
  applySetup(problems, geometry, isAxle ? 'axle_config' : 'config');
  return geometry;
}

/** The top-level keys of a file of each scope; `name` and `version` (the reference format's labels) are kept as they are. */
const TOP_LEVEL_KEYS: Readonly<Record<GeometryScope, readonly string[]>> = {
  // a corner's anti_roll and heave_link are read to be refused with their own message (devices.ts)
  corner: ['scope', 'type', 'name', 'version', 'units', 'side', 'actuation', 'spring', 'damper', 'anti_roll', 'heave_link', 'config', 'geometry', 'hardpoints', 'dynamics', 'compliance'],
  axle: ['scope', 'type', 'name', 'version', 'units', 'vehicle_config', 'axle_config', 'geometry', 'hardpoints', 'dynamics', 'compliance'],
};

/**
 * Every top-level key is read or refused: a misspelt section (`axel_config`, `complaince`) or one not
 * modelled would otherwise change nothing without a word. A key of the
 * other scope's layout says where it goes; a near miss names the nearest known key.
 */
function refuseUnknownSections(problems: ProblemList, file: PlainRecord, scope: GeometryScope): void {
  const known = TOP_LEVEL_KEYS[scope];
  for (const key of Object.keys(file)) {
    if (known.includes(key)) continue;
    if (scope === 'axle' && TOP_LEVEL_KEYS.corner.includes(key)) {
      problems.add(key, key === 'side' ? 'an axle file has both sides: hardpoints.left (and right)' : `an axle file gives ${key} under axle_config${key === 'config' ? ' and vehicle_config' : ''}`);
      continue;
    }
    if (scope === 'corner' && TOP_LEVEL_KEYS.axle.includes(key)) {
      problems.add(key, `a corner file gives ${key === 'axle_config' ? 'actuation and spring at the top and the rest under config' : 'the vehicle\'s settings under config'} (${key} is an axle file's, scope: axle)`);
      continue;
    }
    const suggestion = closestName(key, known);
    problems.add(key, suggestion
      ? `unknown section (did you mean ${suggestion}?): refused rather than ignored`
      : `unknown section of ${scope === 'axle' ? 'an axle' : 'a corner'} file: not modelled, so refused rather than ignored (the sections: ${listChoices(known)})`);
  }
  if (file.name !== undefined && typeof file.name !== 'string') problems.add('name', `expected a name (text), got ${describe(file.name)}`);
  if (file.version !== undefined && typeof file.version !== 'string' && typeof file.version !== 'number') problems.add('version', `expected a version label, got ${describe(file.version)}`);
}

/**
 * `geometry: { upright: [ { file, frame?, units? } ], chassis: [...], tyre: [...] }`: the
 * shape only (src/assembly/geometry/doc.ts); the names are checked against the built
 * model's parts when the geometry is used, the files read then.
 */
function readPartGeometry(problems: ProblemList, raw: unknown): Record<string, GeometryDoc[]> | undefined {
  if (raw === undefined) return undefined;
  if (!isRecord(raw)) {
    problems.add('geometry', `expected a mapping of part names to lists of geometry files, got ${describe(raw)}`);
    return undefined;
  }
  const out: Record<string, GeometryDoc[]> = {};
  for (const [name, list] of Object.entries(raw)) {
    try {
      out[name] = checkGeometryList(list, `geometry.${name}`, (path, reason) => { throw new GeometryError(path, reason); });
    } catch (error) {
      if (!(error instanceof GeometryError)) throw error;
      problems.add(error.path, error.reason);
    }
  }
  return out;
}

function readSetupSection(problems: ProblemList, config: PlainRecord, key: string): PlainRecord {
  const section = readSection(problems, config, key, 'axle_config');
  refuseUnknownKeys(problems, section, `axle_config.${key}`, SETUP_KEYS);
  return section;
}

/** `steering.rack_travel_per_revolution` (our extension): mm of rack per steering-wheel turn. */
function readRackTravel(problems: ProblemList, raw: unknown, path: string): number | undefined {
  if (!isRecord(raw)) return undefined;
  refuseUnknownKeys(problems, raw, path, ['type', 'rack_travel_per_revolution']);
  if (raw.rack_travel_per_revolution === undefined) return undefined;
  return readBoundedNumber(problems, raw.rack_travel_per_revolution, childPath(path, 'rack_travel_per_revolution'), (x) => x > 0, 'must be positive (mm of rack per steering-wheel turn)');
}

function readUnits(problems: ProblemList, units: unknown): void {
  if (units === undefined) return; // the format is millimetres throughout
  if (typeof units === 'string' && MILLIMETRES.includes(units)) return;
  problems.add('units', `unsupported units ${quoted(units)}: geometry files are in millimetres (millimeters or mm)`);
}

function readAxlePosition(
  problems: ProblemList,
  config: PlainRecord,
  configPath: string,
  topology: Topology | undefined,
): AxlePosition | undefined {
  if (config.axle_position === undefined) return topology === 'trailing_arm' || topology === 'solid_axle' ? 'rear' : 'front';
  return readChoice(problems, config.axle_position, childPath(configPath, 'axle_position'), AXLE_POSITIONS, 'axle position');
}

function readActuation(
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

function readSpring(
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

function readSteering(
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

function readWheel(problems: ProblemList, raw: unknown, path: string): Wheel | undefined {
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

function readVehicle(problems: ProblemList, source: PlainRecord, path: string): VehicleConfig | undefined {
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

interface HardpointNames {
  required: string[];
  allowed: Set<string>;
  layout: string;
}

function readCornerFile(problems: ProblemList, file: PlainRecord, names: HardpointNames | undefined): CornerGeometry[] | undefined {
  const side: Side | undefined = file.side === undefined ? 'left' : readChoice(problems, file.side, 'side', SIDES, 'side');
  const hardpoints = readHardpoints(problems, file.hardpoints, 'hardpoints', names);
  return side && hardpoints ? [{ side, hardpoints }] : undefined;
}

function readAxleCorners(
  problems: ProblemList,
  raw: unknown,
  names: HardpointNames | undefined,
  centerNames: string[],
): { corners: CornerGeometry[] | undefined; center: Record<string, Point3> | undefined } {
  if (!isRecord(raw)) {
    problems.add('hardpoints', raw === undefined ? 'missing hardpoints { left, right?, center? }' : `expected a mapping { left, right?, center? }, got ${describe(raw)}`);
    return { corners: undefined, center: undefined };
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'left' && key !== 'right' && key !== 'center') {
      problems.add(childPath('hardpoints', key), 'unexpected key: an axle file gives hardpoints under left (and optionally right), axle-level points under center');
    }
  }
  // Axle-level points (anti-roll bar axis, T-bar pivot): authored once, never mirrored.
  let center: Record<string, Point3> | undefined;
  if (raw.center !== undefined || centerNames.length > 0) {
    const centerSpec = names && { required: centerNames, allowed: new Set(centerNames), layout: `the axle-level points of ${names.layout}` };
    center = readHardpoints(problems, raw.center ?? {}, 'hardpoints.center', centerSpec);
  }
  if (raw.left === undefined) {
    problems.add('hardpoints.left', 'missing hardpoints for the left corner');
    return { corners: undefined, center };
  }
  const left = readHardpoints(problems, raw.left, 'hardpoints.left', names);
  // Without an explicit right side the axle is symmetric: mirror the left corner in y.
  const right = raw.right === undefined ? (left && mirrorHardpoints(left)) : readHardpoints(problems, raw.right, 'hardpoints.right', names);
  return { corners: left && right ? [{ side: 'left', hardpoints: left }, { side: 'right', hardpoints: right }] : undefined, center };
}

/** The right corner of a symmetric axle: y → −y (written 0 − y so that y = 0 stays +0). */
export function mirrorHardpoints(hardpoints: Readonly<Record<string, Point3>>): Record<string, Point3> {
  // fromEntries defines own properties, so even a point named __proto__ stays a point.
  return Object.fromEntries(Object.entries(hardpoints).map(([name, [x, y, z]]) => [name, [x, 0 - y, z]]));
}

function readHardpoints(
  problems: ProblemList,
  raw: unknown,
  path: string,
  names: HardpointNames | undefined,
): Record<string, Point3> | undefined {
  if (!isRecord(raw)) {
    problems.add(path, raw === undefined ? 'missing hardpoints' : `expected a mapping of named points, got ${describe(raw)}`);
    return undefined;
  }
  const before = problems.count;
  const hardpoints: [string, Point3][] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (names !== undefined && !names.allowed.has(name)) {
      const suggestion = closestName(name, names.allowed);
      problems.add(childPath(path, name), `unknown hardpoint for ${names.layout}${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
      continue;
    }
    const point = readPoint(problems, value, childPath(path, name));
    if (point !== undefined) hardpoints.push([name, point]);
  }
  for (const name of names?.required ?? []) {
    if (!Object.hasOwn(raw, name)) problems.add(childPath(path, name), 'missing hardpoint');
  }
  const points: Record<string, Point3> = Object.fromEntries(hardpoints);
  checkDegenerate(problems, path, points);
  return problems.count === before ? points : undefined;
}

/** Coincident pivots and collinear wishbones: each leaves an axis or plane undefined. */
function checkDegenerate(problems: ProblemList, path: string, points: Record<string, Point3>): void {
  const has = (name: string): boolean => Object.hasOwn(points, name);
  const coincident = (a: string, b: string): boolean => distance(points[a], points[b]) < COINCIDENCE_TOLERANCE_MM;
  for (const { a, b, why } of DISTINCT_POINTS) {
    if (has(a) && has(b) && coincident(a, b)) problems.add(childPath(path, b), `coincident pivots: same point as ${a}, so ${why}`);
  }
  for (const { a, b, c, why } of NON_COLLINEAR_POINTS) {
    if (!has(a) || !has(b) || !has(c) || coincident(a, b)) continue;
    if (distanceToLine(points[c], points[a], points[b]) < COINCIDENCE_TOLERANCE_MM) {
      problems.add(childPath(path, c), `collinear points: on the line through ${a} and ${b}, so ${why}`);
    }
  }
}

function distance(p: Point3, q: Point3): number {
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

function distanceToLine(point: Point3, a: Point3, b: Point3): number {
  const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const w = [point[0] - a[0], point[1] - a[1], point[2] - a[2]];
  const cross = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
  return Math.hypot(cross[0], cross[1], cross[2]) / Math.hypot(u[0], u[1], u[2]);
}
