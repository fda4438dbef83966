/**
 * Sweep files (`suspension.md`, "Sweep file") and the command-line shortcuts
 * `--bump`, `--steer`, `--roll`: validated into a `SweepSpec` whose targets are paired
 * step by step.
 *
 * Every target is normalised to `{ mode, hold, start, stop }`: a hold becomes
 * `relative 0 → 0` with `hold: true`, so a solver reads one value per step for every
 * target and still knows which coordinates are holds.
 */
import { InternalError } from '../../../kernel/errors';
import { ProblemList, SuspensionFileError } from './errors';
import type { Geometry } from './geometry';
import { ALL_HARDPOINT_NAMES, SIDES, suspensionHoldChoices, type Side } from './hardpoints';
import {
  childPath,
  describe,
  fail,
  isRecord,
  listChoices,
  parseText,
  quoted,
  readBoundedNumber,
  readChoice,
  readNumber,
  type PlainRecord,
} from './read';

export type Axis = 'x' | 'y' | 'z';
export type TargetMode = 'relative' | 'absolute';

/**
 * How a target moves: linearly from `start` to `stop` over the sweep's steps, or through
 * the listed `values`, one a step (the reference format's `values: [0, 5, 10, …]`; then
 * `start` and `stop` are its first and last).
 */
export interface TargetMotion {
  /** `relative` to the design value, or `absolute`; a hold is always relative. */
  mode: TargetMode;
  /** Kept at its design value (then start = stop = 0, relative). */
  hold: boolean;
  start: number;
  stop: number;
  /** The value at each step, as listed in the file (as many as the sweep's steps). */
  values?: readonly number[];
}

/** A chassis-frame coordinate of a named point, mm. No `side`: every corner of the geometry. */
export interface PointTarget extends TargetMotion {
  type: 'point';
  point: string;
  side?: Side;
  direction: { axis: Axis };
}

/** The rack, mm along y, positive toward +y (the left). */
export interface RackTarget extends TargetMotion {
  type: 'actuator_position';
  actuator: 'rack';
  direction: { axis: 'y' };
}

/**
 * Damper length `|strut_top − strut_bottom|` (or `damper_chassis → damper_rocker`), mm, no
 * `side`: every corner; or the heave link's length (one element across the axle, no side).
 */
export interface DamperTarget extends TargetMotion {
  type: 'element_length';
  element: 'damper' | 'heave_link';
  side?: Side;
}

/**
 * Axle roll in degrees, left up: the wheel centres move equal and opposite in z so that
 * the right → left wheel-centre line turns by this angle (heave held). Axles only.
 */
export interface RollTarget extends TargetMotion {
  type: 'roll';
}

export type SweepTarget = PointTarget | RackTarget | DamperTarget | RollTarget;

export interface SweepSpec {
  version: 1;
  /** Number of states, ≥ 1; the first is at `start`, the last at `stop`. */
  steps: number;
  targets: SweepTarget[];
  analysis: { virtual_steering: { suspension_hold: string } };
}

/** Derived points a sweep may drive, besides the hardpoints. */
export const DRIVABLE_DERIVED_POINTS: readonly string[] = ['wheel_center'];

/** Derived points that are results only: coupled constructions, rejected as targets. */
export const OUTPUT_ONLY_POINTS: readonly string[] = ['wheel_contact_centre', 'wheel_inboard', 'wheel_outboard', 'axle_midpoint'];

export const DEFAULT_SUSPENSION_HOLD = 'layout_default';

const TARGET_TYPES = ['point', 'actuator_position', 'element_length', 'roll'] as const;
const AXES: readonly Axis[] = ['x', 'y', 'z'];
const MODES: readonly TargetMode[] = ['relative', 'absolute'];

/** Parses a YAML or JSON sweep file and validates it (against `geometry` when given). */
export function parseSweep(text: string, geometry?: Geometry, fileName?: string): SweepSpec {
  return validateSweep(parseText(text, fileName), geometry, fileName);
}

/**
 * Validates parsed sweep data. Without a geometry, point names are checked against every
 * name any topology uses; with one, against its hardpoints plus `wheel_center`, and rack,
 * damper, roll, side and suspension hold are checked against what it has. A rack hold on a
 * geometry without a rack is vacuous and dropped, so one bump file serves steered and
 * unsteered corners. Throws one `SuspensionFileError` listing every problem.
 */
export function validateSweep(value: unknown, geometry?: Geometry, fileName?: string): SweepSpec {
  const problems = new ProblemList();
  const sweep = readSweep(problems, value, geometry);
  problems.throwIfAny(fileName);
  if (sweep === undefined) throw new InternalError('validateSweep: no sweep and no problem reported');
  return sweep;
}

/** The value of `target` at each of `steps` states: its listed values, or linear from start to stop. */
export function sweepValues(target: TargetMotion, steps: number): number[] {
  if (target.values !== undefined) return [...target.values];
  if (steps === 1) return [target.start];
  return Array.from({ length: steps }, (_, index) => target.start + ((target.stop - target.start) * index) / (steps - 1));
}

export type ShortcutKind = 'bump' | 'steer' | 'roll';

/**
 * The sweep behind a command-line shortcut, `spec` = `A:B:N` (N states from A to B, both
 * ends included: -50:50:11 is every 10 mm; N = 1 only when A = B):
 * `bump`: wheel_center z relative, mm, rack held; `steer`: rack, mm, wheel_center z held;
 * `roll`: axle roll, degrees, rack held. Validated like a file (against `geometry` when
 * given); problems are reported at the path `--bump` / `--steer` / `--roll`.
 */
export function sweepFromShortcut(kind: ShortcutKind, spec: string, geometry?: Geometry): SweepSpec {
  const flag = `--${kind}`;
  const [start, stop, steps] = parseRange(flag, spec);
  const rackHold = { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true };
  const wheelCenterZ = { type: 'point', point: 'wheel_center', direction: { axis: 'z' } };
  const targets = {
    bump: [{ ...wheelCenterZ, mode: 'relative', start, stop }, rackHold],
    steer: [{ type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', start, stop }, { ...wheelCenterZ, hold: true }],
    roll: [{ type: 'roll', mode: 'relative', start, stop }, rackHold],
  }[kind];
  try {
    return validateSweep({ version: 1, steps, targets }, geometry);
  } catch (error) {
    // The user typed a flag, not a file: name the flag rather than `targets[0]`.
    if (error instanceof SuspensionFileError) {
      throw new SuspensionFileError(error.problems.map((problem) => ({ path: flag, message: problem.message })));
    }
    throw error;
  }
}

/**
 * Most states of one sweep (`steps` in a sweep file, N in A:B:N): a larger count is
 * refused rather than run for minutes and printed as one enormous document.
 */
export const MAX_SWEEP_STEPS = 10_001;

const ONE_STATE_RANGE = 'one state cannot go from start to stop: the sweep\'s steps count states, both ends included; give at least 2 (or start = stop for one state)';

/** `A:B:N` of a command-line flag: start, stop, number of states (both ends included). */
export function parseRange(flag: string, spec: string): [number, number, number] {
  const usage = `expected A:B:N (N states from A to B, both ends included; N a whole number from 2 to ${MAX_SWEEP_STEPS}, or 1 when A = B), got ${JSON.stringify(spec)}`;
  const parts = spec.split(':').map((part) => part.trim());
  if (parts.length !== 3 || parts.some((part) => part === '')) fail(flag, usage);
  const [start, stop] = parts.slice(0, 2).map(Number);
  const steps = /^\d+$/.test(parts[2]) ? Number(parts[2]) : NaN;
  if (!Number.isFinite(start) || !Number.isFinite(stop) || !(steps >= 1)) fail(flag, usage);
  if (steps > MAX_SWEEP_STEPS) fail(flag, `at most ${MAX_SWEEP_STEPS} states, got ${parts[2]}`);
  if (steps === 1 && start !== stop) fail(flag, `${ONE_STATE_RANGE}, got ${JSON.stringify(spec)}`);
  return [start, stop, steps];
}

function readSweep(problems: ProblemList, value: unknown, geometry: Geometry | undefined): SweepSpec | undefined {
  if (!isRecord(value)) {
    problems.add('', `expected a mapping (a sweep file), got ${describe(value)}`);
    return undefined;
  }
  const version = value.version === 1 ? 1 : undefined;
  if (version === undefined) {
    problems.add('version', value.version === undefined ? 'missing version (expected 1)' : `unsupported version ${quoted(value.version)} (expected 1)`);
  }
  // the targets are read first (a list of values sets the steps) but reported after steps, in the file's order
  const targetProblems = new ProblemList();
  const targets = readTargets(targetProblems, value.targets, geometry);
  const steps = readSteps(problems, value.steps, targets);
  problems.problems.push(...targetProblems.problems);
  const suspensionHold = readAnalysis(problems, value.analysis, geometry);
  if (steps === 1 && targets?.some((target) => target.start !== target.stop)) {
    problems.add('steps', ONE_STATE_RANGE);
    return undefined;
  }
  if (version === undefined || steps === undefined || targets === undefined || suspensionHold === undefined) return undefined;
  return { version, steps, targets, analysis: { virtual_steering: { suspension_hold: suspensionHold } } };
}

/**
 * `steps`, the number of states. Targets that list their values say it themselves: then
 * `steps` may be left out, and when given it must agree (as must the lists with each other).
 */
function readSteps(problems: ProblemList, raw: unknown, targets: SweepTarget[] | undefined): number | undefined {
  const listed = (targets ?? []).filter((t) => t.values !== undefined);
  const counts = [...new Set(listed.map((t) => t.values!.length))];
  if (counts.length > 1) {
    problems.add('targets', `every target's values must have one entry per step: the lists have ${listChoices(counts.map(String))} entries`);
    return undefined;
  }
  // a target with start and stop still needs steps, as in the reference format
  if (raw === undefined && counts.length === 1 && targets!.every((t) => t.hold || t.values !== undefined)) return counts[0];
  const steps = readBoundedNumber(problems, raw, 'steps', (x) => Number.isInteger(x) && x >= 1 && x <= MAX_SWEEP_STEPS,
    `must be a whole number of states from 1 to ${MAX_SWEEP_STEPS} (both ends included)`);
  if (steps !== undefined && counts.length === 1 && counts[0] !== steps) {
    problems.add('steps', `${steps} states, but the targets list ${counts[0]} values each (leave steps out, or make them agree)`);
    return undefined;
  }
  return steps;
}

function readTargets(problems: ProblemList, raw: unknown, geometry: Geometry | undefined): SweepTarget[] | undefined {
  if (!Array.isArray(raw)) {
    problems.add('targets', raw === undefined ? 'missing list of targets' : `expected a list of targets, got ${describe(raw)}`);
    return undefined;
  }
  if (raw.length === 0) {
    problems.add('targets', 'at least one target is needed');
    return undefined;
  }
  const before = problems.count;
  const read = raw.map((target: unknown, index) => ({ path: childPath('targets', index), target: readTarget(problems, target, childPath('targets', index), geometry) }));
  const valid = read.filter((entry): entry is { path: string; target: SweepTarget } => entry.target !== undefined);
  valid.forEach((entry, index) => {
    const earlier = valid.slice(0, index).find((other) => sameCoordinate(other.target, entry.target));
    if (earlier === undefined) return;
    const what = entry.target.type === 'actuator_position' ? 'duplicated rack target' : 'duplicated target';
    problems.add(entry.path, `${what}: ${earlier.path} already drives or holds this coordinate`);
  });
  if (problems.count !== before) return undefined;
  // A rack hold on a rackless geometry constrains nothing; dropping it keeps files portable.
  return valid.map((entry) => entry.target).filter((target) => !(geometry?.steering === 'none' && target.type === 'actuator_position'));
}

/** Two targets fight over one coordinate; a target without a side covers every side. */
function sameCoordinate(a: SweepTarget, b: SweepTarget): boolean {
  const sidesOverlap = (p: Side | undefined, q: Side | undefined): boolean => p === undefined || q === undefined || p === q;
  if (a.type === 'point' && b.type === 'point') {
    return a.point === b.point && a.direction.axis === b.direction.axis && sidesOverlap(a.side, b.side);
  }
  if (a.type === 'element_length' && b.type === 'element_length') return a.element === b.element && sidesOverlap(a.side, b.side);
  return a.type === b.type && (a.type === 'actuator_position' || a.type === 'roll');
}

function readTarget(problems: ProblemList, raw: unknown, path: string, geometry: Geometry | undefined): SweepTarget | undefined {
  if (!isRecord(raw)) {
    problems.add(path, `expected a target mapping, got ${describe(raw)}`);
    return undefined;
  }
  // the reference format's older files leave out `type` on a target that names its point
  const type = readChoice(problems, raw.type ?? (raw.point !== undefined ? 'point' : undefined), childPath(path, 'type'), TARGET_TYPES, 'target type');
  if (type === undefined) return undefined;
  const before = problems.count;
  const motion = readMotion(problems, raw, path);
  const target = (() => {
    switch (type) {
      case 'point':
        return readPointTarget(problems, raw, path, geometry, motion);
      case 'actuator_position':
        return readRackTarget(problems, raw, path, geometry, motion);
      case 'element_length':
        return readDamperTarget(problems, raw, path, geometry, motion);
      case 'roll':
        if (geometry !== undefined && geometry.scope !== 'axle') problems.add(childPath(path, 'type'), 'a roll target needs an axle geometry');
        return motion && { type, ...motion };
    }
  })();
  return problems.count === before ? target : undefined;
}

function readMotion(problems: ProblemList, raw: PlainRecord, path: string): TargetMotion | undefined {
  const before = problems.count;
  if (raw.hold !== undefined && typeof raw.hold !== 'boolean') problems.add(childPath(path, 'hold'), `expected true or false, got ${describe(raw.hold)}`);
  const mode: TargetMode | undefined = raw.mode === undefined ? 'relative' : readChoice(problems, raw.mode, childPath(path, 'mode'), MODES, 'mode');
  const hasRange = raw.start !== undefined || raw.stop !== undefined;
  if (raw.hold === true) {
    if (hasRange || raw.values !== undefined) problems.add(path, `both hold: true and ${hasRange ? 'start/stop' : 'values'}: a target either holds or moves`);
    return problems.count === before ? { mode: 'relative', hold: true, start: 0, stop: 0 } : undefined;
  }
  if (raw.values !== undefined) {
    if (hasRange) problems.add(path, 'both values and start/stop: give the positions as a list or as a range, not both');
    const values = readValues(problems, raw.values, childPath(path, 'values'));
    if (mode === undefined || values === undefined || problems.count !== before) return undefined;
    return { mode, hold: false, start: values[0], stop: values[values.length - 1], values };
  }
  if (!hasRange) {
    problems.add(path, 'needs hold: true or start and stop');
    return undefined;
  }
  const start = readNumber(problems, raw.start, childPath(path, 'start'));
  const stop = readNumber(problems, raw.stop, childPath(path, 'stop'));
  if (mode === undefined || start === undefined || stop === undefined || problems.count !== before) return undefined;
  return { mode, hold: false, start, stop };
}

/** `values: [v0, v1, …]`: a finite number per step, at least one, at most MAX_SWEEP_STEPS. */
function readValues(problems: ProblemList, raw: unknown, path: string): number[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add(path, Array.isArray(raw) ? 'an empty list: give one value per step' : `expected a list of numbers, one per step, got ${describe(raw)}`);
    return undefined;
  }
  if (raw.length > MAX_SWEEP_STEPS) {
    problems.add(path, `at most ${MAX_SWEEP_STEPS} values (states), got ${raw.length}`);
    return undefined;
  }
  const before = problems.count;
  const values = raw.map((v: unknown, i) => readNumber(problems, v, childPath(path, i)));
  return problems.count === before ? (values as number[]) : undefined;
}

function readPointTarget(
  problems: ProblemList,
  raw: PlainRecord,
  path: string,
  geometry: Geometry | undefined,
  motion: TargetMotion | undefined,
): PointTarget | undefined {
  const pointPath = childPath(path, 'point');
  const point = typeof raw.point === 'string' ? raw.point : undefined;
  if (point === undefined) {
    problems.add(pointPath, raw.point === undefined ? 'missing point name' : `expected a point name, got ${describe(raw.point)}`);
  } else if (OUTPUT_ONLY_POINTS.includes(point)) {
    problems.add(pointPath, `${point} is output only and cannot be a sweep target (drive wheel_center instead)`);
  } else if (!drivablePoints(geometry).includes(point)) {
    problems.add(pointPath, geometry ? `unknown point: the geometry has no ${point}` : `unknown point ${point}`);
  }
  const side = readTargetSide(problems, raw.side, childPath(path, 'side'), geometry);
  const axis = readDirection(problems, raw.direction, childPath(path, 'direction'), AXES);
  if (point === undefined || axis === undefined || motion === undefined) return undefined;
  return { type: 'point', point, ...(side ? { side } : {}), direction: { axis }, ...motion };
}

function readRackTarget(
  problems: ProblemList,
  raw: PlainRecord,
  path: string,
  geometry: Geometry | undefined,
  motion: TargetMotion | undefined,
): RackTarget | undefined {
  const actuatorPath = childPath(path, 'actuator');
  const actuator = readChoice(problems, raw.actuator, actuatorPath, ['rack'] as const, 'actuator');
  if (raw.direction !== undefined) readDirection(problems, raw.direction, childPath(path, 'direction'), ['y']);
  if (actuator && motion && !motion.hold && geometry?.steering === 'none') {
    problems.add(actuatorPath, 'the geometry has no rack (steering none)');
  }
  if (actuator === undefined || motion === undefined) return undefined;
  return { type: 'actuator_position', actuator, direction: { axis: 'y' }, ...motion };
}

function readDamperTarget(
  problems: ProblemList,
  raw: PlainRecord,
  path: string,
  geometry: Geometry | undefined,
  motion: TargetMotion | undefined,
): DamperTarget | undefined {
  const elementPath = childPath(path, 'element');
  const element = readChoice(problems, raw.element, elementPath, ['damper', 'heave_link'] as const, 'element');
  if (element === 'damper' && geometry && !geometry.corners.every(hasDamper)) problems.add(elementPath, 'the geometry has no damper (strut_bottom, strut_top)');
  if (element === 'heave_link' && geometry && geometry.devices?.heave_link !== 'rocker_to_rocker') problems.add(elementPath, 'the geometry has no heave link (axle_config.heave_link: { type: rocker_to_rocker })');
  if (element === 'heave_link' && raw.side !== undefined) problems.add(childPath(path, 'side'), 'the heave link spans the axle: it has no side');
  const side = readTargetSide(problems, raw.side, childPath(path, 'side'), geometry);
  if (element === undefined || motion === undefined) return undefined;
  return { type: 'element_length', element, ...(side ? { side } : {}), ...motion };
}

function readTargetSide(problems: ProblemList, raw: unknown, path: string, geometry: Geometry | undefined): Side | undefined {
  if (raw === undefined) return undefined;
  const side = readChoice(problems, raw, path, SIDES, 'side');
  if (side && geometry && !geometry.corners.some((corner) => corner.side === side)) {
    problems.add(path, `the geometry has no ${side} corner`);
    return undefined;
  }
  return side;
}

/** `direction: { axis }` with the axis one of `axes`. */
function readDirection<A extends Axis>(problems: ProblemList, raw: unknown, path: string, axes: readonly A[]): A | undefined {
  if (!isRecord(raw)) {
    problems.add(path, raw === undefined ? `missing direction { axis: ${listChoices(axes)} }` : `expected { axis }, got ${describe(raw)}`);
    return undefined;
  }
  return readChoice(problems, raw.axis, childPath(path, 'axis'), axes, 'axis');
}

function readAnalysis(problems: ProblemList, raw: unknown, geometry: Geometry | undefined): string | undefined {
  if (raw === undefined) return DEFAULT_SUSPENSION_HOLD;
  if (!isRecord(raw)) {
    problems.add('analysis', `expected a mapping, got ${describe(raw)}`);
    return undefined;
  }
  if (raw.virtual_steering === undefined) return DEFAULT_SUSPENSION_HOLD;
  if (!isRecord(raw.virtual_steering)) {
    problems.add('analysis.virtual_steering', `expected a mapping, got ${describe(raw.virtual_steering)}`);
    return undefined;
  }
  const hold = raw.virtual_steering.suspension_hold;
  const path = 'analysis.virtual_steering.suspension_hold';
  if (hold === undefined) return DEFAULT_SUSPENSION_HOLD;
  if (typeof hold !== 'string') {
    problems.add(path, `expected a hold name, got ${describe(hold)}`);
    return undefined;
  }
  if (geometry === undefined || hold === DEFAULT_SUSPENSION_HOLD) return hold;
  const choices = suspensionHoldChoices(geometry.topology, geometry.corners.every(hasDamper));
  if (choices.includes(hold)) return hold;
  problems.add(path, `unknown hold "${hold}" for a ${geometry.topology} (expected ${listChoices([DEFAULT_SUSPENSION_HOLD, ...choices])})`);
  return undefined;
}

function drivablePoints(geometry: Geometry | undefined): readonly string[] {
  if (geometry === undefined) return [...ALL_HARDPOINT_NAMES, ...DRIVABLE_DERIVED_POINTS];
  return [...new Set(geometry.corners.flatMap((corner) => Object.keys(corner.hardpoints))), ...DRIVABLE_DERIVED_POINTS];
}

function hasDamper(corner: Geometry['corners'][number]): boolean {
  const has = (name: string) => Object.hasOwn(corner.hardpoints, name);
  return (has('strut_bottom') && has('strut_top')) || (has('damper_rocker') && has('damper_chassis'));
}
