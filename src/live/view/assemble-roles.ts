/**
 * Assemble mode's suspension roles (assemble.ts builds the mechanism): the form the viewer
 * fills in (which parts are the chassis, the upright, the wheel; which points the metrics
 * read), a first guess from the assembly's names, and the edit that writes the roles into
 * the document once the suspension they make solves and measures.
 */
import { vec3 } from 'gl-matrix';
import { type AssemblyDoc, coordinatesOfMate, entityKind, splitReference } from '../../assembly/types.ts';
import { validateAssembly } from '../../assembly/load.ts';
import { combine, setPartPose, setSuspension, type AssemblyRecipe } from '../../assembly/edits.ts';
import { isDocumentError, liveEdits, type LiveRecipe } from '../document.ts';
import { RolesError, validateRoles, type SuspensionRoles } from '../../suspension/build/roles.ts';
import { SuspensionModel } from '../../suspension/build/model.ts';
import { evaluateState } from '../../suspension/metrics/state.ts';
import type { LiveDocument } from '../document.ts';
import { assemblyOf, type PartPoses } from './assemble.ts';

/** What the roles panel asks for; refs are `part.point`. */
export interface RolesForm {
  chassis: string;
  upright: string;
  side: 'left' | 'right';
  axleInboard: string;
  axleOutboard: string;
  /** The physical steering axis, lower → upper, or null (the screw axis of the bump response stands in). */
  steeringAxis: [string, string] | null;
  /** The steering coordinate (a slider's `mate.slide`), or null when unsteered. */
  steering: string | null;
  /** mm along the axle from axle_outboard to the wheel centre. */
  wheelOffset: number;
  /** aspect ratio (0.55), section width (mm), rim diameter (inches). */
  tire: { aspect_ratio: number; section_width: number; rim_diameter: number };
}

/** The defaults of the roles panel: the embedded double wishbone's tyre, no offset. */
export const ROLE_DEFAULTS = { wheelOffset: 0, tire: { aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 } } as const;

/** Every point of the assembly as `part.point`. */
export function pointRefs(doc: AssemblyDoc): string[] {
  return Object.entries(doc.parts).flatMap(([name, p]) => Object.keys(p.points ?? {}).map((n) => `${name}.${n}`));
}

/** Every coordinate a mate frees (`mate.slide`), slides first: the candidates for the steering coordinate. */
export function coordinateNames(doc: AssemblyDoc): string[] {
  const all = Object.entries(doc.mates).flatMap(([id, m]) => coordinatesOfMate(m).map((c) => `${id}.${c}`));
  return [...all.filter((c) => c.endsWith('.slide')), ...all.filter((c) => !c.endsWith('.slide'))];
}

/** A first guess at the roles from names: the fixed part, a part called upright…, its axle points and ball points. */
export function guessRoles(doc: AssemblyDoc): Partial<RolesForm> {
  const roles = doc.suspension as SuspensionRoles | undefined;
  const c = roles?.corners?.[0];
  if (roles && c && typeof c.axle?.[0] === 'string' && typeof c.axle?.[1] === 'string') {
    const sa = c.steering_axis;
    return {
      chassis: roles.chassis, upright: c.upright, side: c.side, axleInboard: c.axle[0], axleOutboard: c.axle[1],
      steeringAxis: sa && typeof sa[0] === 'string' && typeof sa[1] === 'string' ? [sa[0], sa[1]] : null,
      steering: roles.steering, wheelOffset: c.wheel.offset, tire: { ...c.wheel.tire },
    };
  }
  const parts = Object.keys(doc.parts);
  const chassis = parts.find((p) => doc.parts[p].fixed);
  const upright = parts.find((p) => /upright|knuckle|hub/i.test(p) && !doc.parts[p].fixed);
  const out: Partial<RolesForm> = {};
  if (chassis) out.chassis = chassis;
  if (upright) {
    out.upright = upright;
    const pts = doc.parts[upright].points ?? {};
    if ('axle_inboard' in pts) out.axleInboard = `${upright}.axle_inboard`;
    if ('axle_outboard' in pts) out.axleOutboard = `${upright}.axle_outboard`;
    if ('lower' in pts && 'upper' in pts) out.steeringAxis = [`${upright}.lower`, `${upright}.upper`];
  }
  out.steering = coordinateNames(doc).find((c) => c.endsWith('.slide')) ?? null;
  return out;
}

/**
 * The `suspension` section for a hand-made corner: every point of the assembly is a named
 * point (`part.point`, reported with every state and a handle in the view), the instant
 * axis is the screw axis of the upright's bump response (no construction is assumed),
 * and no steering holds are named (the steering response uses the layout's default).
 * @throws RolesError naming the field (`suspension.corners[0].axle[1]`) for what the form lacks.
 */
export function rolesFromForm(doc: AssemblyDoc, form: RolesForm): SuspensionRoles {
  const c = 'suspension.corners[0]';
  const part = (name: string, path: string, what: string) => {
    if (!name) throw new RolesError(path, `pick the ${what} part`);
    if (!Object.hasOwn(doc.parts, name)) throw new RolesError(path, `no part "${name}"`);
  };
  const point = (ref: string, path: string, what: string) => {
    if (!ref) throw new RolesError(path, `pick the ${what} point`);
    if (entityKind(doc, ref) !== 'point') throw new RolesError(path, `no point "${ref}"`);
  };
  part(form.chassis, 'suspension.chassis', 'chassis');
  if (!doc.parts[form.chassis].fixed) throw new RolesError('suspension.chassis', `part "${form.chassis}" is not fixed; the chassis is the ground the corner hangs from`);
  part(form.upright, `${c}.upright`, 'upright');
  if (form.upright === form.chassis) throw new RolesError(`${c}.upright`, `the upright cannot be the chassis ("${form.chassis}")`);
  point(form.axleInboard, `${c}.axle[0]`, 'axle inboard');
  point(form.axleOutboard, `${c}.axle[1]`, 'axle outboard');
  if (form.axleInboard === form.axleOutboard) throw new RolesError(`${c}.axle[1]`, 'the axle inboard and outboard points must differ');
  for (const [ref, i] of [[form.axleInboard, 0], [form.axleOutboard, 1]] as const) {
    if (splitReference(ref)!.owner !== form.upright) throw new RolesError(`${c}.axle[${i}]`, `"${ref}" is not a point of the upright "${form.upright}"; the axle points must be points of the upright`);
  }
  if (form.steeringAxis) {
    point(form.steeringAxis[0], `${c}.steering_axis[0]`, 'steering axis lower');
    point(form.steeringAxis[1], `${c}.steering_axis[1]`, 'steering axis upper');
    if (form.steeringAxis[0] === form.steeringAxis[1]) throw new RolesError(`${c}.steering_axis[1]`, 'the steering axis needs two different points');
  }
  if (form.steering !== null && !coordinateNames(doc).includes(form.steering)) throw new RolesError('suspension.steering', `no coordinate "${form.steering}"`);
  if (!Number.isFinite(form.wheelOffset)) throw new RolesError(`${c}.wheel.offset`, 'expected a number (mm)');
  for (const k of ['aspect_ratio', 'section_width', 'rim_diameter'] as const) {
    if (!(Number.isFinite(form.tire[k]) && form.tire[k] > 0)) throw new RolesError(`${c}.wheel.tire.${k}`, 'expected a positive number');
  }
  const points: Record<string, string> = {};
  for (const ref of pointRefs(doc)) points[ref] = ref;
  const roles: SuspensionRoles = {
    scope: 'corner',
    topology: 'assembled',
    chassis: form.chassis,
    steering: form.steering,
    axle_position: 'front',
    vehicle: {},
    corners: [{
      side: form.side,
      upright: form.upright,
      points,
      axle: [form.axleInboard, form.axleOutboard],
      steering_axis: form.steeringAxis,
      instant_axis: { type: 'screw' },
      wheel: { offset: form.wheelOffset, tire: { ...form.tire } },
      holds: { default: null },
    }],
  };
  return validateRoles(structuredClone(roles));
}

/**
 * The edit giving the assembly suspension roles (one undo entry): the parts' poses are
 * set to the solved ones (`poses`, when given) first, because a suspension's design is
 * the pose its file gives, and the roles section is written. Checked before: the roles'
 * shape (`validateRoles`), a SuspensionModel built on the result (references, the
 * steering coordinate) and one evaluation of its metrics, so the engine will not refuse
 * it later.
 * @throws RolesError (path-named) or ModelError; nothing is changed then.
 */
export function applyRolesRecipe(doc: LiveDocument, form: RolesForm, poses?: PartPoses): { recipe: LiveRecipe; roles: SuspensionRoles; camber: number | null } {
  const assembly = assemblyOf(doc);
  const roles = rolesFromForm(assembly, form);
  const recipes: AssemblyRecipe[] = [];
  for (const [name, p] of Object.entries(assembly.parts)) {
    const solved = poses?.[name];
    if (p.fixed || !solved || solved.length !== 7 || !solved.every(Number.isFinite)) continue;
    recipes.push(setPartPose(name, { position: [solved[0], solved[1], solved[2]], rotation: [solved[3], solved[4], solved[5], solved[6]] }));
  }
  recipes.push(setSuspension(roles));
  const recipe = combine(...recipes);
  // the document it would make, checked as the engine will use it
  const draft = structuredClone(assembly) as AssemblyDoc;
  recipe(draft as Parameters<AssemblyRecipe>[0]);
  let camber: number | null = null;
  try {
    const sm = new SuspensionModel(validateAssembly(draft));
    const metrics = evaluateState(sm).metrics as Record<string, number | null>;
    camber = typeof metrics.camber === 'number' ? metrics.camber : null;
  } catch (error) {
    if (isDocumentError(error)) throw error;
    throw new RolesError('suspension', error instanceof Error ? error.message : String(error));
  }
  return { recipe: liveEdits.assembly(recipe), roles, camber };
}

/** The edit removing the roles (the assembly is a plain mechanism again). */
export function removeRolesRecipe(): LiveRecipe {
  return liveEdits.assembly(setSuspension(undefined));
}
