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
  AXLE_POSITIONS, DISTINCT_POINTS, NON_COLLINEAR_POINTS, SIDES, TOPOLOGIES, optionalHardpoints,
  requiredHardpoints, type AxlePosition, type Side, type Topology,
} from './hardpoints';
import {
  childPath, closestName, describe, isRecord, listChoices, parseText, quoted, readBoundedNumber, readChoice,
  readPoint, readSection, type PlainRecord, type Point3,
} from './read';
import {
  NO_DEVICES, SETUP_KEYS, checkDeviceGeometry, deviceHardpoints, mirrorSetup, readBeamAxle, readDevices,
  readSetup, refuseUnknownKeys,
} from './devices';
import { applySetup } from '../build/setup';
import { readCompliance } from './compliance';
import type { CornerGeometry, Geometry, GeometryScope } from './geometry-types';
import { checkGeometryList, type GeometryDoc } from '../../assembly/geometry/doc.ts';
import { GeometryError } from '../../assembly/geometry/errors.ts';
import { readActuation, readSpring, readSteering, readVehicle, readWheel } from './geometry-sections';
export type { Actuation, CornerGeometry, Geometry, GeometryScope, SpringSettings, Tire, VehicleConfig, Wheel } from './geometry-types';
export { tireRadius } from './geometry-sections';

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
