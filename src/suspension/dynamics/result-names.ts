/**
 * The names of a geometry file's own simulation results, in one place (issue 26): the
 * columns `simulate GEOMETRY.yaml --format csv` appends after the assembly's
 * (src/mechanics/result-names.ts), which a DOE's `simulate.results` and `simulate --result`
 * (src/suspension/gradients/simulation/results.ts) read by the same names. A leaf module:
 * the DOE reads it without loading the dynamics code.
 */

/** Per corner side, in the CSV's order (suspensionFrame writes each corner's fields so). */
export const CORNER_RESULTS = ['wheel_travel', 'suspension_travel', 'camber', 'toe_angle', 'road', 'tyre_force', 'tyre_penetration'] as const;
export type CornerResult = (typeof CORNER_RESULTS)[number];

/** Per spring, damper or spring-damper, in the CSV's order (mm). */
export const ELEMENT_RESULTS = ['length', 'travel'] as const;

/** The sprung mass's heave since design (mm), with a sprung mass. */
export const CHASSIS_HEAVE = 'chassis_heave';

/** A corner's field is named bare on a corner file too (`camber` for `left.camber`). */
export function isCornerResult(name: string): name is CornerResult {
  return (CORNER_RESULTS as readonly string[]).includes(name);
}

/** The column names, as the CSV heads them and as they are read. */
export const suspensionColumn = {
  corner: (side: string, field: CornerResult): string => `${side}.${field}`,
  element: (id: string, field: (typeof ELEMENT_RESULTS)[number]): string => `${id}.${field}`,
  /** A two-force link's axial force (N, tension +). */
  link: (id: string): string => `link.${id}`,
} as const;

/** What a run's suspension columns are made of: its sides, elements and links, in order. */
export interface SuspensionColumnsOf { sides: readonly string[]; elements: readonly string[]; links: readonly string[]; heave: boolean }

/** Every suspension column of a run, in the CSV's order. */
export function suspensionColumnNames({ sides, elements, links, heave }: SuspensionColumnsOf): string[] {
  const out = sides.flatMap((side) => CORNER_RESULTS.map((field) => suspensionColumn.corner(side, field)));
  for (const id of elements) for (const field of ELEMENT_RESULTS) out.push(suspensionColumn.element(id, field));
  for (const id of links) out.push(suspensionColumn.link(id));
  if (heave) out.push(CHASSIS_HEAVE);
  return out;
}
