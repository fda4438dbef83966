/**
 * The devices of the reference format (`suspension-devices.md`): a separate linear damper
 * on the rocker, anti-roll bars (U-bar, T-bar), a rocker-to-rocker heave link, and the
 * per-corner setup (camber shim, and our length shims). Read and checked here; the
 * geometry reader calls these so that every field the format accepts is either modelled
 * or refused with its path, never ignored.
 */
import type { ProblemList } from './errors';
import type { ActuationType, SpringType, Topology } from './hardpoints';
import { usesRocker } from './hardpoints';
import { childPath, describe, isRecord, listChoices, readBoundedNumber, readChoice, readNumber, readPoint, type PlainRecord, type Point3 } from './read';

export const DAMPER_TYPES = ['none', 'linear'] as const;
export const ANTI_ROLL_TYPES = ['none', 'u_bar', 't_bar'] as const;
export const HEAVE_LINK_TYPES = ['none', 'rocker_to_rocker'] as const;

export const LOCATING_TYPES = ['four_link', 'panhard', 'watts'] as const;
export const BEAM_TYPES = ['live', 'de_dion'] as const;

/** A beam axle (`type: solid_axle`): how it is located, and whether the final drive rides on it. */
export interface BeamAxle {
  /** four_link: a lower and an angled upper link per side; panhard / watts: a lower link per side, one central upper link and a Panhard rod or a Watt's linkage. */
  locating: (typeof LOCATING_TYPES)[number];
  /** live: the final drive is on the beam (pinion_angle_change is reported); de_dion: on the chassis. */
  type: (typeof BEAM_TYPES)[number];
}

export interface Devices {
  /** A beam axle's location (solid_axle only). */
  beam?: BeamAxle;
  /** `linear`: a damper `damper_chassis` → `damper_rocker` beside the spring. */
  damper: (typeof DAMPER_TYPES)[number];
  anti_roll: (typeof ANTI_ROLL_TYPES)[number];
  heave_link: (typeof HEAVE_LINK_TYPES)[number];
  /** `damper.damping`: the linear damper's rate, N·s/mm (it becomes a damper force element). */
  damper_rate?: number;
  /** `anti_roll.rate`: the bar's torsional rate, N·mm per degree of twist (arb_twist). */
  anti_roll_rate?: number;
  /** `heave_link.rate` and friends: a heave spring between the two rocker pickups (N/mm, mm, N, N·s/mm). */
  heave_spring?: { rate: number; free_length?: number; preload?: number; damping?: number };
}

export const NO_DEVICES: Devices = { damper: 'none', anti_roll: 'none', heave_link: 'none' };

/** The reference's camber shim: a spacer between the upright and the upper ball joint's camber block. */
export interface CamberShim {
  /** Two points on the shim's design mid-plane, mm. */
  shim_face_point_a: Point3;
  shim_face_point_b: Point3;
  /** Unit normal of the shim faces, pointing from the camber block to the upright. */
  shim_face_normal: Point3;
  design_thickness: number;
  setup_thickness: number;
}

/** Length shims (our extension): mm added to a link's design length at setup. */
export interface LengthShims {
  trackrod?: number;
  pushrod?: number;
}

export interface CornerSetup {
  camber_shim?: CamberShim;
  length_shims?: LengthShims;
}

/** Reads `damper`, `anti_roll`, `heave_link` from the settings block (top level of a corner, `axle_config` of an axle). */
export function readDevices(
  problems: ProblemList,
  settings: PlainRecord,
  settingsPath: string,
  isAxle: boolean,
  topology: Topology | undefined,
  actuation: ActuationType | undefined,
  spring: SpringType | undefined,
): Devices | undefined {
  const before = problems.count;
  const rocker = actuation !== undefined && usesRocker(actuation);
  // A refused combination is reported once; its hardpoints are then not asked for as well.
  const needsRocker = (path: string, what: string): boolean => {
    if (actuation !== undefined && !rocker) problems.add(path, `unsupported combination: ${what} needs pushrod_rocker or pullrod_rocker actuation, not ${actuation}`);
    else if (topology !== undefined && topology !== 'double_wishbone') problems.add(path, `unsupported combination: ${what} needs a double_wishbone with a rocker, not a ${topology}`);
    else return true;
    return false;
  };
  const fields: Record<string, number> = {};
  let damper = readTypeBlock(problems, settings.damper, childPath(settingsPath, 'damper'), DAMPER_TYPES, 'damper type', (t) => (t === 'linear' ? ['damping'] : []), fields, 'damper_');
  if (damper === 'linear') {
    const path = childPath(childPath(settingsPath, 'damper'), 'type');
    if (!needsRocker(path, 'a linear damper')) damper = 'none';
    else if (spring === 'coilover') {
      problems.add(path, 'unsupported combination: a linear damper beside a coilover (the coilover is the damper); use spring torsion_bar or none');
      damper = 'none';
    }
  }
  let antiRoll: Devices['anti_roll'] | undefined = 'none';
  let heaveLink: Devices['heave_link'] | undefined = 'none';
  if (isAxle) {
    antiRoll = readTypeBlock(problems, settings.anti_roll, childPath(settingsPath, 'anti_roll'), ANTI_ROLL_TYPES, 'anti-roll bar type', (t) => (t === 'none' ? [] : ['rate']), fields, 'anti_roll_');
    if (antiRoll !== undefined && antiRoll !== 'none' && !needsRocker(childPath(settingsPath, 'anti_roll.type'), `an anti-roll bar ${antiRoll}`)) antiRoll = 'none';
    heaveLink = readTypeBlock(problems, settings.heave_link, childPath(settingsPath, 'heave_link'), HEAVE_LINK_TYPES, 'heave link type', (t) => (t === 'none' ? [] : ['rate', 'free_length', 'preload', 'damping']), fields, 'heave_');
    if (heaveLink === 'rocker_to_rocker' && !needsRocker(childPath(settingsPath, 'heave_link.type'), 'a rocker_to_rocker heave link')) heaveLink = 'none';
    if (fields.heave_rate === undefined) for (const key of ['free_length', 'preload', 'damping']) {
      if (fields[`heave_${key}`] !== undefined) problems.add(childPath(childPath(settingsPath, 'heave_link'), key), `${key} needs a rate`);
    }
  } else {
    for (const key of ['anti_roll', 'heave_link']) {
      if (settings[key] !== undefined) problems.add(key, `${key.replace('_', ' ')} belongs to an axle file (scope: axle, under axle_config), not a corner`);
    }
  }
  // a combination problem is reported, but the types still say which hardpoints to expect
  void before;
  if (damper === undefined || antiRoll === undefined || heaveLink === undefined) return undefined;
  const out: Devices = { damper, anti_roll: antiRoll, heave_link: heaveLink };
  if (damper === 'linear' && fields.damper_damping !== undefined) out.damper_rate = fields.damper_damping;
  if (antiRoll !== 'none' && fields.anti_roll_rate !== undefined) out.anti_roll_rate = fields.anti_roll_rate;
  if (heaveLink !== 'none' && fields.heave_rate !== undefined) {
    out.heave_spring = { rate: fields.heave_rate };
    for (const key of ['free_length', 'preload', 'damping'] as const) if (fields[`heave_${key}`] !== undefined) out.heave_spring[key] = fields[`heave_${key}`];
  }
  return out;
}

/**
 * `{ type: X }` plus the numeric fields `fieldsOf(X)` allows (a key we do not read would be
 * ignored: refuse it). The numbers land in `out` as `<prefix><key>`; `free_length` must be
 * > 0, `preload` any number, every other field ≥ 0.
 */
function readTypeBlock<T extends string>(
  problems: ProblemList, raw: unknown, path: string, choices: readonly T[], what: string,
  fieldsOf: (type: T) => readonly string[] = () => [], out: Record<string, number> = {}, prefix = '',
): T | undefined {
  if (raw === undefined) return 'none' as T;
  if (!isRecord(raw)) {
    problems.add(path, `expected a mapping { type }, got ${describe(raw)}`);
    return undefined;
  }
  const named = (choices as readonly unknown[]).includes(raw.type) ? (raw.type as T) : undefined;
  const fields = named === undefined ? [] : fieldsOf(named);
  refuseUnknownKeys(problems, raw, path, ['type', ...fields]);
  const type = readChoice(problems, raw.type, childPath(path, 'type'), choices, what);
  for (const key of fields) {
    if (raw[key] === undefined) continue;
    const value = key === 'preload'
      ? readNumber(problems, raw[key], childPath(path, key))
      : readBoundedNumber(problems, raw[key], childPath(path, key), (x) => (key === 'free_length' ? x > 0 : x >= 0), key === 'free_length' ? 'must be > 0' : 'must be ≥ 0');
    if (value !== undefined) out[`${prefix}${key}`] = value;
  }
  return type;
}

export function refuseUnknownKeys(problems: ProblemList, raw: PlainRecord, path: string, known: readonly string[]): void {
  for (const key of Object.keys(raw)) {
    if (!known.includes(key)) problems.add(childPath(path, key), `unknown field (expected ${listChoices(known)}): it is not modelled, so it is refused rather than ignored`);
  }
}

/** `axle_config.locating` and `axle_config.beam` of a solid axle (an axle file only). */
export function readBeamAxle(problems: ProblemList, settings: PlainRecord, settingsPath: string, isAxle: boolean): BeamAxle | undefined {
  if (!isAxle) {
    problems.add('scope', 'a solid_axle carries both wheels: it is an axle file (scope: axle)');
    return undefined;
  }
  const locatingPath = childPath(settingsPath, 'locating');
  if (settings.locating === undefined) {
    problems.add(locatingPath, `missing locating { type } (expected ${listChoices(LOCATING_TYPES)})`);
    return undefined;
  }
  const locating = readTypeBlock(problems, settings.locating, locatingPath, LOCATING_TYPES, 'locating linkage');
  const beam = settings.beam === undefined ? 'live' : readTypeBlock(problems, settings.beam, childPath(settingsPath, 'beam'), BEAM_TYPES, 'beam type');
  if (locating === undefined || beam === undefined) return undefined;
  return { locating, type: beam };
}

/** Corner hardpoints the devices add (required), and axle-level `hardpoints.center` names. */
export function deviceHardpoints(devices: Devices, topology: Topology | undefined, spring: SpringType | undefined): { corner: string[]; center: string[] } {
  const corner: string[] = [];
  const center: string[] = [];
  if (topology === 'solid_axle' && devices.beam) {
    if (devices.beam.locating === 'four_link') corner.push('upper_link_chassis', 'upper_link_axle');
    else center.push('upper_link_chassis', 'upper_link_axle');
    if (devices.beam.locating === 'panhard') center.push('panhard_chassis', 'panhard_axle');
    if (devices.beam.locating === 'watts') center.push('watts_pivot', 'watts_top', 'watts_bottom', 'watts_top_chassis', 'watts_bottom_chassis');
  }
  if (devices.damper === 'linear') corner.push('damper_chassis', 'damper_rocker');
  if (devices.anti_roll === 'u_bar') { corner.push('droplink_rocker', 'droplink_u_bar'); center.push('arb_u_bar_axis_a', 'arb_u_bar_axis_b'); }
  if (devices.anti_roll === 't_bar') { corner.push('droplink_rocker', 'droplink_t_bar'); center.push('arb_t_bar_pivot'); }
  if (devices.heave_link === 'rocker_to_rocker') corner.push('heave_link_rocker');
  if (topology === 'trailing_arm' && spring === 'torsion_bar') corner.push('torsion_bar_axis_a', 'torsion_bar_axis_b');
  return { corner, center };
}

/**
 * Geometry checks of the devices that need the points: the trailing-arm torsion bar axis
 * (parallel to Y, through `trailing_arm_pivot_a`, as the reference requires), the T-bar
 * pivot and crossbar midpoint on Y = 0, and the heave link's two ends apart.
 */
export function checkDeviceGeometry(
  problems: ProblemList,
  devices: Devices,
  topology: Topology | undefined,
  spring: SpringType | undefined,
  corners: { side: string; path: string; hardpoints: Record<string, Point3> }[],
  center: { path: string; hardpoints: Record<string, Point3> } | undefined,
): void {
  const tol = 1e-6;
  if (topology === 'trailing_arm' && spring === 'torsion_bar') {
    for (const c of corners) {
      const a = c.hardpoints.torsion_bar_axis_a, b = c.hardpoints.torsion_bar_axis_b, p = c.hardpoints.trailing_arm_pivot_a;
      if (!a || !b || !p) continue;
      if (Math.abs(a[0] - b[0]) > tol || Math.abs(a[2] - b[2]) > tol || Math.abs(a[1] - b[1]) < tol) {
        problems.add(childPath(c.path, 'torsion_bar_axis_b'), 'the torsion bar axis must be parallel to Y (equal x and z at a and b, distinct y)');
      } else if (Math.abs(a[0] - p[0]) > tol || Math.abs(a[2] - p[2]) > tol) {
        problems.add(childPath(c.path, 'torsion_bar_axis_a'), 'the torsion bar axis must pass through trailing_arm_pivot_a (equal x and z)');
      }
    }
  }
  if (devices.anti_roll === 't_bar' && center?.hardpoints.arb_t_bar_pivot) {
    const p = center.hardpoints.arb_t_bar_pivot;
    if (Math.abs(p[1]) > tol) problems.add(childPath(center.path, 'arb_t_bar_pivot.y'), `the T-bar pivot must lie on Y = 0 (got ${p[1]})`);
    const [l, r] = corners.map((c) => c.hardpoints.droplink_t_bar);
    if (l && r && Math.abs(l[1] + r[1]) > tol) problems.add(childPath(corners[1].path, 'droplink_t_bar.y'), 'the crossbar ends must have their midpoint on Y = 0 (left y + right y = 0)');
  }
  if (devices.anti_roll === 'u_bar' && center) {
    const a = center.hardpoints.arb_u_bar_axis_a, b = center.hardpoints.arb_u_bar_axis_b;
    if (a && b && Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) < tol) problems.add(childPath(center.path, 'arb_u_bar_axis_b'), 'coincident pivots: same point as arb_u_bar_axis_a, so the bar axis is undefined');
  }
  if (devices.heave_link === 'rocker_to_rocker' && corners.length === 2) {
    const [l, r] = corners.map((c) => c.hardpoints.heave_link_rocker);
    if (l && r && Math.hypot(l[0] - r[0], l[1] - r[1], l[2] - r[2]) <= tol) problems.add(childPath(corners[1].path, 'heave_link_rocker'), 'the heave link has no length: both ends at the same point');
  }
}

const SHIM_KEYS = ['shim_face_point_a', 'shim_face_point_b', 'shim_face_normal', 'design_thickness', 'setup_thickness'] as const;

/**
 * A corner's setup: `camber_shim` and `length_shims` of `config` (a corner) or of
 * `axle_config.left_setup` / `right_setup` (an axle). `known` lists the other keys the
 * section may hold (a corner's `config` holds the wheel, steering and vehicle too).
 */
export function readSetup(
  problems: ProblemList,
  section: PlainRecord,
  path: string,
  topology: Topology | undefined,
  actuation: ActuationType | undefined,
): CornerSetup | undefined {
  const before = problems.count;
  const setup: CornerSetup = {};
  if (section.camber_shim !== undefined) {
    const shimPath = childPath(path, 'camber_shim');
    if (topology !== undefined && topology !== 'double_wishbone') problems.add(shimPath, `unsupported combination: a camber shim sits at the upper ball joint of a double_wishbone, not a ${topology}`);
    const raw = section.camber_shim;
    if (!isRecord(raw)) problems.add(shimPath, `expected a mapping { ${SHIM_KEYS.join(', ')} }, got ${describe(raw)}`);
    else {
      refuseUnknownKeys(problems, raw, shimPath, SHIM_KEYS);
      const a = readPoint(problems, raw.shim_face_point_a, childPath(shimPath, 'shim_face_point_a'));
      const b = readPoint(problems, raw.shim_face_point_b, childPath(shimPath, 'shim_face_point_b'));
      const normal = readPoint(problems, raw.shim_face_normal, childPath(shimPath, 'shim_face_normal'));
      const thickness = (key: string) => readBoundedNumber(problems, raw[key], childPath(shimPath, key), (x) => x >= 0, 'must be zero or positive (mm)');
      const design = thickness('design_thickness'), setupThickness = thickness('setup_thickness');
      if (normal) {
        const l = Math.hypot(...normal);
        if (Math.abs(l - 1) > 1e-6) problems.add(childPath(shimPath, 'shim_face_normal'), `must be a unit direction (length ${l})`);
      }
      if (a && b && Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]) < 1e-6) problems.add(childPath(shimPath, 'shim_face_point_b'), 'coincident with shim_face_point_a: the shim face is undefined');
      if (a && b && normal && design !== undefined && setupThickness !== undefined) {
        setup.camber_shim = { shim_face_point_a: a, shim_face_point_b: b, shim_face_normal: normal, design_thickness: design, setup_thickness: setupThickness };
      }
    }
  }
  if (section.length_shims !== undefined) {
    const shimPath = childPath(path, 'length_shims');
    const raw = section.length_shims;
    if (!isRecord(raw)) problems.add(shimPath, `expected a mapping { trackrod, pushrod }, got ${describe(raw)}`);
    else {
      refuseUnknownKeys(problems, raw, shimPath, ['trackrod', 'pushrod']);
      const shims: LengthShims = {};
      if (raw.trackrod !== undefined) shims.trackrod = readNumber(problems, raw.trackrod, childPath(shimPath, 'trackrod'));
      if (raw.pushrod !== undefined) {
        shims.pushrod = readNumber(problems, raw.pushrod, childPath(shimPath, 'pushrod'));
        if (actuation !== undefined && !usesRocker(actuation)) problems.add(childPath(shimPath, 'pushrod'), `this layout has no pushrod (actuation ${actuation})`);
      }
      if (topology === 'trailing_arm' && raw.trackrod !== undefined) problems.add(childPath(shimPath, 'trackrod'), 'a trailing_arm has no track rod');
      setup.length_shims = shims;
    }
  }
  return problems.count === before ? setup : undefined;
}

/** The right side's copy of a left setup: points and normal mirrored y → −y. */
export function mirrorSetup(setup: CornerSetup): CornerSetup {
  const m = (p: Point3): Point3 => [p[0], 0 - p[1], p[2]];
  const out: CornerSetup = {};
  if (setup.camber_shim) {
    const s = setup.camber_shim;
    out.camber_shim = { ...s, shim_face_point_a: m(s.shim_face_point_a), shim_face_point_b: m(s.shim_face_point_b), shim_face_normal: m(s.shim_face_normal) };
  }
  if (setup.length_shims) out.length_shims = { ...setup.length_shims };
  return out;
}

/** Keys of a setup section (`left_setup`, `right_setup`). */
export const SETUP_KEYS = ['camber_shim', 'length_shims'] as const;

