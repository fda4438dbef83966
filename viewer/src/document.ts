/**
 * The viewer's document is the live model's document (`src/live/document.ts`): what the
 * user edits and what undo walks back through. Solved poses, metrics and sweeps are
 * derived from it and never stored in it.
 *
 * A suspension keeps its geometry file (plain JSON as parsed) as the source of truth: a
 * hardpoint edit writes one point into it (`liveEdits.moveHardpoint`) and the assembly is
 * regenerated from it, so every copy of a hardpoint in the assembly is right by
 * construction. Any other mechanism is an assembly document.
 *
 * This module adds what the viewer needs around it: the templates, display names, opening
 * a dropped file of either kind, and the texts to save.
 */
import { stringify as yamlStringify } from 'yaml';
import type { AssemblyDoc } from '../../src/assembly/types';
import { parseAssembly, validateAssembly } from '../../src/assembly/load';
import { serializeAssembly } from '../../src/assembly/save';
import { parseText, sweepValues, validateGeometry, validateSweep, type SweepSpec } from '../../src/suspension/files';
import {
  assemblyDocument, compileDocument, documentProblem as liveDocumentProblem, hardpointPosition as liveHardpointPosition,
  isDocumentError, KinemateError, liveEdits, suspensionDocument, type LiveDocument, type LiveRecipe,
} from '../../src/live';
import { fourBarDoc } from '../../examples/fourbar';
import doubleWishboneYaml from '../../examples/suspension/double_wishbone.yaml?raw';
import pushrodYaml from '../../examples/suspension/double_wishbone_pushrod.yaml?raw';
import macphersonYaml from '../../examples/suspension/macpherson.yaml?raw';
import multiLinkYaml from '../../examples/suspension/multi_link.yaml?raw';
import trailingArmYaml from '../../examples/suspension/trailing_arm.yaml?raw';
import pendulumJson from '../../examples/pendulum.kinemate.json?raw';
import doublePendulumJson from '../../examples/double-pendulum.kinemate.json?raw';
import sliderCrankTorqueJson from '../../examples/slider-crank-torque.kinemate.json?raw';
import quarterCarBumpJson from '../../examples/quarter-car-bump.kinemate.json?raw';
import dwCornerBumpJson from '../../examples/dw-corner-bump.kinemate.json?raw';
import pinewoodJson from '../../examples/pinewood.kinemate.json?raw';
import uBarYaml from '../../examples/suspension/double_wishbone_axle_u_bar_rates.yaml?raw';
import tBarYaml from '../../examples/suspension/double_wishbone_axle_t_bar.yaml?raw';
import heaveLinkYaml from '../../examples/suspension/double_wishbone_axle_heave_link.yaml?raw';
import camberShimYaml from '../../examples/suspension/double_wishbone_camber_shim.yaml?raw';
import torsionBarYaml from '../../examples/suspension/trailing_arm_torsion_bar.yaml?raw';
import type { Vec3Tuple } from '../../src/index';

export type ViewerDocument = LiveDocument;

export interface Template {
  id: string;
  label: string;
  /** The document's display name (a file name). */
  name: string;
  make: () => ViewerDocument;
}

/** A suspension document named after its file (the name is the generated assembly's name too). */
function suspensionFrom(name: string, text: string): ViewerDocument {
  return suspensionDocument(parseText(text, name), { name });
}

/** The template picker's entries; the first is the embedded default. */
export const TEMPLATES: readonly Template[] = [
  { id: 'double_wishbone', label: 'Double wishbone', name: 'double_wishbone.yaml', make: () => suspensionFrom('double_wishbone.yaml', doubleWishboneYaml) },
  { id: 'double_wishbone_pushrod', label: 'Double wishbone, pushrod + rocker', name: 'double_wishbone_pushrod.yaml', make: () => suspensionFrom('double_wishbone_pushrod.yaml', pushrodYaml) },
  { id: 'macpherson', label: 'MacPherson strut', name: 'macpherson.yaml', make: () => suspensionFrom('macpherson.yaml', macphersonYaml) },
  { id: 'multi_link', label: 'Multi-link', name: 'multi_link.yaml', make: () => suspensionFrom('multi_link.yaml', multiLinkYaml) },
  { id: 'trailing_arm', label: 'Trailing arm', name: 'trailing_arm.yaml', make: () => suspensionFrom('trailing_arm.yaml', trailingArmYaml) },
  // the suspension devices (issue 15): anti-roll bars, heave link with a damper, camber shim, torsion bar
  { id: 'axle_u_bar', label: 'Axle, pushrod + U-bar anti-roll bar (sprung)', name: 'double_wishbone_axle_u_bar_rates.yaml', make: () => suspensionFrom('double_wishbone_axle_u_bar_rates.yaml', uBarYaml) },
  { id: 'axle_t_bar', label: 'Axle, pushrod + T-bar, torsion bars, dampers', name: 'double_wishbone_axle_t_bar.yaml', make: () => suspensionFrom('double_wishbone_axle_t_bar.yaml', tBarYaml) },
  { id: 'axle_heave_link', label: 'Axle, pushrod + heave link, dampers', name: 'double_wishbone_axle_heave_link.yaml', make: () => suspensionFrom('double_wishbone_axle_heave_link.yaml', heaveLinkYaml) },
  { id: 'camber_shim', label: 'Double wishbone with a camber shim', name: 'double_wishbone_camber_shim.yaml', make: () => suspensionFrom('double_wishbone_camber_shim.yaml', camberShimYaml) },
  { id: 'trailing_arm_torsion_bar', label: 'Trailing arm, torsion bar', name: 'trailing_arm_torsion_bar.yaml', make: () => suspensionFrom('trailing_arm_torsion_bar.yaml', torsionBarYaml) },
  { id: 'fourbar', label: 'Four-bar (generic assembly)', name: 'four-bar.kinemate.json', make: () => namedAssembly(validateAssembly(fourBarDoc(30)), 'four-bar.kinemate.json') },
  // with masses and forces: the Simulate panel plays them
  dynamicExample('pendulum', 'Pendulum (simulate)', 'pendulum.kinemate.json', pendulumJson),
  dynamicExample('double_pendulum', 'Double pendulum (simulate)', 'double-pendulum.kinemate.json', doublePendulumJson),
  dynamicExample('slider_crank_torque', 'Slider-crank under a crank torque (simulate)', 'slider-crank-torque.kinemate.json', sliderCrankTorqueJson),
  dynamicExample('quarter_car_bump', 'Quarter car over a bump (simulate)', 'quarter-car-bump.kinemate.json', quarterCarBumpJson),
  dynamicExample('dw_corner_bump', 'Double wishbone corner over a bump (simulate)', 'dw-corner-bump.kinemate.json', dwCornerBumpJson),
  dynamicExample('pinewood', 'Pinewood-derby car (simulate)', 'pinewood.kinemate.json', pinewoodJson),
];

function dynamicExample(id: string, label: string, name: string, text: string): Template {
  return { id, label, name, make: () => namedAssembly(parseAssembly(text), name) };
}

export function defaultDocument(): ViewerDocument {
  return TEMPLATES[0].make();
}

/** File names of assembly documents, by their (never edited here) assembly. */
const assemblyNames = new WeakMap<object, string>();

function namedAssembly(doc: AssemblyDoc, fileName: string): ViewerDocument {
  const document = assemblyDocument(doc);
  assemblyNames.set(document.doc, fileName);
  return document;
}

/** The name shown for a document: its file's name. */
export function nameOf(doc: ViewerDocument): string {
  if (doc.kind === 'suspension') return doc.options.name ?? 'geometry.yaml';
  return assemblyNames.get(doc.doc) ?? `${doc.doc.name}.kinemate.json`;
}

/** A hardpoint's design position (mm, chassis axes), or null when there is none. */
export function hardpointPosition(doc: ViewerDocument, name: string): Vec3Tuple | null {
  if (doc.kind !== 'suspension') return null;
  try {
    return liveHardpointPosition(doc.geometry, name);
  } catch (error) {
    if (isDocumentError(error)) return null;
    throw error;
  }
}

/** The edit that moves a hardpoint to a design position. */
export function moveHardpoint(name: string, p: Vec3Tuple): LiveRecipe {
  return liveEdits.moveHardpoint(name, p);
}

/** The full check, model build included (opening a file: not on the drag path). */
export function fullDocumentProblem(doc: ViewerDocument): string | null {
  return liveDocumentProblem(doc);
}

/** The checked assembly of a document (a suspension's generated one, with its roles). */
export function assemblyOf(doc: ViewerDocument): AssemblyDoc {
  return compileDocument(doc).assembly;
}

/** Thrown by {@link readDocument}: `message` names the file and the loader's `path: reason`. */
export class OpenError extends KinemateError {
  override readonly name = 'OpenError';
  constructor(readonly fileName: string, readonly detail: string) {
    super(fileName, detail);
  }
}

/**
 * Reads a dropped or picked file: a `*.kinemate.json` assembly (or any JSON with
 * `"format": "kinemate.assembly/1"`), otherwise a suspension geometry file (YAML or JSON).
 * @throws OpenError with the loader's message (its path first), the model untouched.
 */
export function readDocument(fileName: string, text: string): ViewerDocument {
  const looksLikeAssembly = /\.kinemate\.json$/i.test(fileName) || /"format"\s*:\s*"kinemate\.assembly\//.test(text);
  try {
    const doc = looksLikeAssembly ? namedAssembly(parseAssembly(text), fileName) : suspensionDocument(parseText(text, fileName), { name: fileName });
    const problem = fullDocumentProblem(doc);
    if (problem !== null) throw new OpenError(fileName, problem);
    return doc;
  } catch (e) {
    if (e instanceof OpenError) throw e;
    if (isDocumentError(e)) throw new OpenError(fileName, e.message);
    throw new OpenError(fileName, e instanceof Error ? e.message : String(e));
  }
}

/** A range for the plots' sweep: wheel travel (bump) or rack travel (steer) from `start` to `stop` mm in `steps` states. */
export interface SweepFileRange { kind: 'bump' | 'steer'; start: number; stop: number; steps: number; hold: string }

/**
 * A sweep file opened in the viewer (`targets` and `steps`, no hardpoints): its range
 * when it is a bump sweep (wheel centre z relative on every corner, the rest held) or a
 * steer sweep (the rack relative, the rest held), so the plots follow it; null when the
 * text is not a sweep file at all. Any other sweep (roll, damper, absolute, one side) is
 * an {@link OpenError} that says where it runs.
 */
export function readSweepFile(fileName: string, text: string, doc: ViewerDocument): SweepFileRange | null {
  let value: unknown;
  try { value = parseText(text, fileName); } catch { return null; }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  // a sweep file gives steps, or lists its targets' values (the reference format's other way)
  const listsValues = Array.isArray(v.targets) && v.targets.some((t) => typeof t === 'object' && t !== null && 'values' in t);
  if (!('targets' in v) || !('steps' in v || listsValues) || 'hardpoints' in v || 'format' in v) return null;
  let spec: SweepSpec;
  try {
    spec = validateSweep(value, doc.kind === 'suspension' ? validateGeometry(doc.geometry) : undefined, fileName);
  } catch (e) {
    throw new OpenError(fileName, e instanceof Error ? e.message : String(e));
  }
  const moving = spec.targets.filter((t) => !t.hold);
  const only = moving.length === 1 && moving[0].mode === 'relative' ? moving[0] : null;
  const kind = only?.type === 'point' && only.point === 'wheel_center' && only.direction.axis === 'z' && only.side === undefined ? 'bump' : only?.type === 'actuator_position' ? 'steer' : null;
  if (!only || !kind) {
    const what = moving.map((t) => (t.type === 'point' ? `${t.point} ${t.direction.axis}${t.mode === 'absolute' ? ' (absolute)' : ''}` : t.type === 'actuator_position' ? 'the rack' : t.type === 'element_length' ? 'the damper length' : 'roll')).join(', ') || 'nothing';
    throw new OpenError(fileName, `a sweep file that moves ${what}; the viewer's plots sweep bump (wheel centre z, relative, every corner) or steer (the rack, relative). Run it with \`npx kinemate sweep <geometry file> ${fileName}\`.`);
  }
  // the plots sweep evenly from start to stop: a list that goes there and back (or unevenly) runs in the command only
  const even = sweepValues({ ...only, values: undefined }, spec.steps);
  if (only.values && only.values.some((value, i) => Math.abs(value - even[i]) > 1e-9 * (1 + Math.abs(value)))) {
    throw new OpenError(fileName, `a sweep file whose values are not evenly spaced from ${only.start} to ${only.stop}; the viewer's plots sweep evenly. Run it with \`npx kinemate sweep <geometry file> ${fileName}\`.`);
  }
  return { kind, start: only.start, stop: only.stop, steps: spec.steps, hold: spec.analysis.virtual_steering.suspension_hold };
}

/** The geometry file to save (YAML), or null for an assembly document. */
export function geometryText(doc: ViewerDocument): string | null {
  return doc.kind === 'suspension' ? yamlStringify(doc.geometry) : null;
}

/** The `*.kinemate.json` text of a document (a suspension's generated assembly, with roles). */
export function assemblyText(doc: ViewerDocument): string {
  return serializeAssembly(assemblyOf(doc));
}

export function baseName(name: string): string {
  return name.replace(/\.(kinemate\.json|ya?ml|json)$/i, '');
}
