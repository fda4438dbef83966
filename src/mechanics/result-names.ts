/**
 * The names of a simulation's results, in one place (issue 26): what `simulate --format csv`
 * heads its columns with and what `simulate --gradient … --result NAME` (parseResult) reads.
 * Each result has one canonical name, the long one (`body.position.x`, `drivers.crank`); the
 * CSV keeps the short spelling it has always printed (`body.x`, `driver.crank`: users'
 * scripts read those headers), and a name that is read accepts either (canonicalResultName).
 * docs/simulation-results.md lists them.
 */

/** The axis letters of a component, in order. */
export const AXES = ['x', 'y', 'z'] as const;
export type Axis = 0 | 1 | 2;

/** The CSV's first and last columns: the time (s) and the largest |Φ| (mm). */
export const TIME_COLUMN = 't';
export const RESIDUAL_COLUMN = 'residual';

/** The canonical names: what a result is read as and what the docs say. */
export const resultName = {
  /** A part's origin, or its point's, in world axes (mm). */
  position: (part: string, axis: Axis, point?: string): string => `${part}${point ? `.${point}` : ''}.position.${AXES[axis]}`,
  /** Its velocity (mm/s). */
  velocity: (part: string, axis: Axis, point?: string): string => `${part}${point ? `.${point}` : ''}.velocity.${AXES[axis]}`,
  /** The force (N) or torque (N·mm) a held coordinate's or a motion's driver applies. */
  driver: (name: string): string => `drivers.${name}`,
  /** A spring's, damper's or spring-damper's tension (N). */
  tension: (element: string): string => `${element}.tension`,
  /** A tyre's normal load, a bushing's or drag's force, a coordinate spring's or friction's (N). */
  force: (element: string, component?: Axis): string => `${element}.force${component === undefined ? '' : `.${AXES[component]}`}`,
  /** A mate's reaction force (N) or moment (N·mm) on its second part, world axes. */
  reaction: (mate: string, kind: 'force' | 'moment', axis: Axis): string => `reactions.${mate}.${kind}.${AXES[axis]}`,
  /** A term of the energy budget (J). */
  energy: (term: string): string => `energy.${term}`,
  /** A rolling mate's contact normal force (N; negative: the wheel would lift off). */
  normal: (mate: string): string => `${mate}.normal`,
} as const;

/** The CSV header's spelling, where it is shorter than the canonical name (the rest print as canonical). */
export const csvColumn = {
  /** `body.x`: a part origin's coordinate (alias of `body.position.x`). */
  position: (part: string, axis: Axis): string => `${part}.${AXES[axis]}`,
  /** `driver.crank` (alias of `drivers.crank`). */
  driver: (name: string): string => `driver.${name}`,
} as const;

/** `NAME@…` split into the name and its `@…` suffix ('' without one). */
function splitSuffix(name: string): [string, string] {
  const at = name.indexOf('@');
  return at < 0 ? [name, ''] : [name.slice(0, at), name.slice(at)];
}

/**
 * What follows `driver.` when the name is not a driver's: a part's coordinate (`driver.x`),
 * a part's or point's position or velocity, an element's tension or force, a rolling mate's
 * normal: the results of a part, element or mate named `driver` (parseResult's own rule for
 * `drivers.`).
 */
const NOT_A_DRIVER = /^(?:[xyz]|tension|normal|force(?:\.[xyz])?|(?:[^.]+\.)?(?:position|velocity)\.[xyz])$/;

/**
 * A result name in its canonical spelling: the CSV's `PART.x|y|z` becomes
 * `PART.position.x|y|z` and `driver.NAME` becomes `drivers.NAME` (a `@max`, `@min`,
 * `@cross=LEVEL` suffix kept); any other name is returned as it is. `driver.x` is the
 * coordinate of a part named `driver` (the CSV's spelling of it); `drivers.x` is a driver `x`
 * (a part named `drivers` has the canonical `drivers.position.x`).
 */
export function canonicalResultName(name: string): string {
  const [base, suffix] = splitSuffix(name);
  const coordinate = /^([^.]+)\.([xyz])$/.exec(base);
  if (coordinate && coordinate[1] !== 'drivers') return `${resultName.position(coordinate[1], AXES.indexOf(coordinate[2] as (typeof AXES)[number]) as Axis)}${suffix}`;
  const driver = /^driver\.(.+)$/.exec(base);
  if (driver && !NOT_A_DRIVER.test(driver[1])) return `${resultName.driver(driver[1])}${suffix}`;
  return name;
}
