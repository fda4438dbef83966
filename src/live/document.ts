/**
 * The live document: what the user edits, as immutable data, and its edits as immer
 * recipes.
 *
 * ```ts
 * type LiveDocument =
 *   | { kind: 'assembly';   doc: AssemblyDoc }                       // any mated assembly
 *   | { kind: 'suspension'; geometry: <the geometry file as parsed>, options }
 * ```
 *
 * Why a suspension keeps its geometry, not its assembly: the template writes each
 * hardpoint more than once (on the chassis and on the part that joins there:
 * `chassis.lower_wishbone_inboard_front` and `lower_wishbone.lower_wishbone_inboard_front`),
 * derives hinge axes from pairs of points and link lengths (distance mate values) from
 * point pairs. Editing the assembly would mean keeping every copy and every derived value
 * in step by hand, and one forgotten copy is a silently wrong linkage. Keeping the
 * geometry file (plain JSON, as parsed, before validation) as the source of truth and
 * regenerating the assembly with `suspensionAssembly` on every edit makes every copy
 * right by construction, keeps the file the user saves in the layout they wrote (points
 * as `{ x, y, z }` or `[x, y, z]`, as they were), and costs a fraction of a millisecond.
 *
 * `options` holds what is not in the geometry file: coordinate values and holds layered
 * over the generated assembly (by default the rack is held, as in a bump sweep), the
 * suspension hold the analyses use for the steering response, and a name.
 *
 * Validation ({@link compileDocument}, {@link documentProblem}) turns a document into its
 * checked assembly or says, in one message, why it cannot: an AssemblyError (`path:
 * reason`), a SuspensionFileError (one `path: reason` line per problem), or a
 * {@link LiveEditError} for the options.
 */
import type { Draft } from 'immer';
import { KinemateError } from '../../kernel/errors.ts';
import { AssemblyError } from '../assembly/errors.ts';
import { validateAssembly } from '../assembly/load.ts';
import { splitReference, type AssemblyDoc, type Vec3Doc } from '../assembly/types.ts';
import {
  holdCoordinate,
  movePoint,
  releaseCoordinate,
  setCoordinate,
  type AssemblyRecipe,
} from '../assembly/edits.ts';
import { buildModel, ModelError, type Model } from '../model/build.ts';
import {
  DEFAULT_SUSPENSION_HOLD,
  SuspensionFileError,
  parseText,
  suspensionHoldChoices,
  validateGeometry,
  type Geometry,
  type SteeringType,
  type ActuationType,
} from '../suspension/files/index.ts';
import { suspensionAssembly } from '../suspension/build/template.ts';
import { RolesError, type SuspensionRoles } from '../suspension/build/roles.ts';

/** A geometry file as parsed (YAML or JSON), before validation. */
export type GeometryJson = { readonly [key: string]: unknown };

/** What a suspension document holds besides its geometry. */
export interface SuspensionOptions {
  /** The assembly's name; default `<topology> <scope>`. */
  readonly name?: string;
  /**
   * The suspension hold the analyses use for the steering response (`layout_default`,
   * or one of the layout's holds: `lower_wishbone_angle`, `damper_length`, …).
   */
  readonly hold: string;
  /** Coordinate values (`rack_slide.slide`, `lower_hinge.angle`; mm and degrees) over the generated assembly. */
  readonly state: Readonly<Record<string, number>>;
  /** Held coordinates (drivers) over the generated assembly. */
  readonly held: readonly string[];
}

export interface AssemblyLiveDocument {
  readonly kind: 'assembly';
  readonly doc: AssemblyDoc;
}

export interface SuspensionLiveDocument {
  readonly kind: 'suspension';
  readonly geometry: GeometryJson;
  readonly options: SuspensionOptions;
}

/** The document of a live model (see the module comment). */
export type LiveDocument = AssemblyLiveDocument | SuspensionLiveDocument;

/** An edit of a live document: mutate the draft in place. */
export type LiveRecipe = (draft: Draft<LiveDocument>) => void;

/**
 * The template's steering coordinate: the rack's slide (mm, + toward +y). Written by
 * `suspensionAssembly` for every steered geometry.
 */
export const STEERING_COORDINATE = 'rack_slide.slide';

/**
 * A live document, or an edit of one, that cannot be: a wrong kind of edit, an unknown
 * suspension hold. `message` is `<path>: <reason>` like the other document errors.
 */
export class LiveEditError extends KinemateError {
  override readonly name = 'LiveEditError';
}

/** A document checked and turned into the assembly the solver builds. */
export interface CompiledDocument {
  readonly assembly: AssemblyDoc;
  /** The validated geometry of a suspension document; null for an assembly. */
  readonly geometry: Geometry | null;
}

/** Wraps an assembly as a live document (a checked, frozen copy). @throws AssemblyError */
export function assemblyDocument(doc: AssemblyDoc): AssemblyLiveDocument {
  return { kind: 'assembly', doc: validateAssembly(doc) };
}

/**
 * A suspension document from a geometry file as parsed (a deep copy is kept). Default
 * options: no name, hold `layout_default`, no coordinate values, and the rack held where
 * the geometry is steered (a wheel pulled up is then pure bump, as in `--bump`).
 * @throws SuspensionFileError for a geometry that does not validate; LiveEditError or
 *   AssemblyError for options that do not fit it.
 */
export function suspensionDocument(geometry: unknown, options: Partial<SuspensionOptions> = {}): SuspensionLiveDocument {
  if (typeof geometry !== 'object' || geometry === null || Array.isArray(geometry)) {
    throw new SuspensionFileError([{ path: '(root)', message: 'expected a mapping (a geometry file)' }]);
  }
  const copy = structuredClone(geometry) as GeometryJson;
  const validated = validateGeometry(copy);
  const steered = (suspensionAssembly(validated).suspension as SuspensionRoles).steering !== null;
  const document: SuspensionLiveDocument = {
    kind: 'suspension',
    geometry: copy,
    options: {
      ...(options.name !== undefined ? { name: options.name } : {}),
      hold: options.hold ?? DEFAULT_SUSPENSION_HOLD,
      state: { ...(options.state ?? {}) },
      held: [...(options.held ?? (steered ? [STEERING_COORDINATE] : []))],
    },
  };
  compileDocument(document);
  return document;
}

/** Reads a geometry file's text (YAML or JSON) into a suspension document. @throws SuspensionFileError */
export function readSuspensionDocument(text: string, fileName?: string, options: Partial<SuspensionOptions> = {}): SuspensionLiveDocument {
  return suspensionDocument(parseText(text, fileName), options);
}

/**
 * Checks a live document and returns the assembly to solve. For a suspension: validates
 * the geometry, generates the assembly, lays `options.state` and `options.held` over it
 * and checks the result.
 * @throws AssemblyError, SuspensionFileError or LiveEditError, naming the path.
 */
export function compileDocument(document: LiveDocument): CompiledDocument {
  if (document.kind === 'assembly') return { assembly: validateAssembly(document.doc), geometry: null };
  if (document.kind !== 'suspension') throw new LiveEditError('kind', `expected "assembly" or "suspension", got ${JSON.stringify((document as { kind: unknown }).kind)}`);
  const geometry = validateGeometry(document.geometry);
  const { options } = document;
  if (options.hold !== DEFAULT_SUSPENSION_HOLD) {
    const hasDamper = geometry.corners.every((c) => Object.hasOwn(c.hardpoints, 'strut_bottom') && Object.hasOwn(c.hardpoints, 'strut_top'));
    const choices = suspensionHoldChoices(geometry.topology, hasDamper);
    if (!choices.includes(options.hold)) {
      throw new LiveEditError('options.hold', `unknown hold "${options.hold}" for a ${geometry.topology} (expected ${[DEFAULT_SUSPENSION_HOLD, ...choices].join(', ')})`);
    }
  }
  const generated = suspensionAssembly(geometry, options.name);
  try {
    return { assembly: validateAssembly({ ...generated, state: { ...options.state }, held: [...options.held] }), geometry };
  } catch (error) {
    // The options are what lies over the generated assembly: name them as options.
    if (error instanceof AssemblyError && (error.path.startsWith('state') || error.path.startsWith('held'))) {
      throw new LiveEditError(`options.${error.path}`, error.reason);
    }
    throw error;
  }
}

/** Compiles a document and builds its model. @throws like {@link compileDocument}, and ModelError. */
export function buildDocument(document: LiveDocument): CompiledDocument & { readonly model: Model } {
  const compiled = compileDocument(document);
  return { ...compiled, model: buildModel(compiled.assembly) };
}

/** True for the errors a document or an edit can fail with (as opposed to bugs). */
export function isDocumentError(error: unknown): error is KinemateError {
  // every loader's and builder's error (AssemblyError, SuspensionFileError, ModelError, RolesError, LiveEditError, …) is one
  return error instanceof KinemateError;
}

/**
 * The validation hook for a `History<LiveDocument>`: null when the document compiles
 * and its model builds, otherwise the message saying why not. `build: false` stops at
 * the compiled assembly (cheap enough for every pointer move on a page's main thread,
 * where a worker builds the model).
 */
export function documentProblem(document: LiveDocument, options: { build?: boolean } = {}): string | null {
  try {
    if (options.build === false) compileDocument(document);
    else buildDocument(document);
    return null;
  } catch (error) {
    if (isDocumentError(error)) return error.message;
    throw error;
  }
}

// ---- hardpoints of a suspension geometry ----

/** Where a hardpoint lives in a geometry file. */
export interface HardpointLocation {
  /** The corner's hardpoints mapping: `['hardpoints']` or `['hardpoints', 'left']`. */
  readonly section: readonly string[];
  /** The hardpoint's own name (no side prefix). */
  readonly point: string;
  /**
   * True for `right_…` of a symmetric axle (no `right` section): the file gives only the
   * left corner, so the right point is the left one mirrored (y → −y), and moving it
   * moves the left one mirrored. The axle stays symmetric.
   */
  readonly mirrored: boolean;
}

/**
 * Finds a hardpoint by the name the assembly uses: the bare name for a corner
 * (`upper_wishbone_inboard_front`); for an axle `left_…` / `right_…`, or a bare name for
 * the left side.
 * @throws SuspensionFileError if there is no such hardpoint.
 */
export function findHardpoint(geometry: GeometryJson, name: string): HardpointLocation {
  const hardpoints = geometry.hardpoints;
  const missing = (path: string): never => {
    throw new SuspensionFileError([{ path, message: `no hardpoint "${name}" in this geometry` }]);
  };
  if (!isObject(hardpoints)) return missing('hardpoints');
  if (geometry.scope !== 'axle') {
    if (!Object.hasOwn(hardpoints, name)) return missing(`hardpoints.${name}`);
    return { section: ['hardpoints'], point: name, mirrored: false };
  }
  // an axle-level point (`hardpoints.center`, never mirrored): `center_<point>`, as the roles name it
  if (name.startsWith('center_') && isObject(hardpoints.center) && Object.hasOwn(hardpoints.center, name.slice(7))) return { section: ['hardpoints', 'center'], point: name.slice(7), mirrored: false };
  let side: 'left' | 'right' = 'left';
  let point = name;
  if (name.startsWith('left_')) point = name.slice(5);
  else if (name.startsWith('right_')) {
    side = 'right';
    point = name.slice(6);
  }
  const mirrored = side === 'right' && hardpoints.right === undefined;
  const sectionName = mirrored ? 'left' : side;
  const section = hardpoints[sectionName];
  if (!isObject(section) || !Object.hasOwn(section, point)) return missing(`hardpoints.${sectionName}.${point}`);
  return { section: ['hardpoints', sectionName], point, mirrored };
}

/**
 * A hardpoint's position (mm, chassis axes) as the file gives it; for a mirrored right
 * point, the mirror of the left one.
 * @throws SuspensionFileError if there is no such hardpoint or it is not a point.
 */
export function hardpointPosition(geometry: GeometryJson, name: string): [number, number, number] {
  const location = findHardpoint(geometry, name);
  const raw = (sectionOf(geometry, location.section) as Record<string, unknown>)[location.point];
  const xyz = readXyz(raw);
  if (xyz === undefined) {
    throw new SuspensionFileError([{ path: [...location.section, location.point].join('.'), message: 'not a point { x, y, z }' }]);
  }
  return location.mirrored ? [xyz[0], 0 - xyz[1], xyz[2]] : xyz;
}

// ---- edits ----

/**
 * Recipes for live documents. Each throws (and so changes nothing) when it does not fit
 * the document: an assembly edit on a suspension, an unknown hardpoint.
 */
export const liveEdits = {
  /** Applies an assembly recipe (`src/assembly/edits.ts`) to an assembly document. */
  assembly(recipe: AssemblyRecipe): LiveRecipe {
    return (draft) => {
      if (draft.kind !== 'assembly') throw new LiveEditError('kind', 'an assembly edit needs an assembly document, this is a suspension (edit its geometry)');
      recipe(draft.doc);
    };
  },

  /** Sets a coordinate's value (document units): in the assembly's `state`, or a suspension's `options.state`. */
  setCoordinate(name: string, value: number): LiveRecipe {
    const recipe = setCoordinate(name, value);
    return (draft) => {
      if (draft.kind === 'assembly') recipe(draft.doc);
      else if (draft.options.state[name] !== value) draft.options.state[name] = value;
    };
  },

  /** Holds a coordinate, at `value` when given. */
  holdCoordinate(name: string, value?: number): LiveRecipe {
    const recipe = holdCoordinate(name, value);
    return (draft) => {
      if (draft.kind === 'assembly') return recipe(draft.doc);
      if (value !== undefined && draft.options.state[name] !== value) draft.options.state[name] = value;
      if (!draft.options.held.includes(name)) draft.options.held.push(name);
    };
  },

  /** Releases a held coordinate. */
  releaseCoordinate(name: string): LiveRecipe {
    const recipe = releaseCoordinate(name);
    return (draft) => {
      if (draft.kind === 'assembly') return recipe(draft.doc);
      const index = draft.options.held.indexOf(name);
      if (index >= 0) draft.options.held.splice(index, 1);
    };
  },

  /**
   * Moves a hardpoint. Suspension: `name` as in {@link findHardpoint}, `xyz` its design
   * position (mm, chassis axes: for a chassis point, the world); every copy of it in the
   * assembly follows. Assembly: `name` is `part.point`, `xyz` in the part's own frame.
   * Writes `[x, y, z]` or `{ x, y, z }` as the file had it.
   */
  moveHardpoint(name: string, xyz: Vec3Doc): LiveRecipe {
    const target: [number, number, number] = [xyz[0], xyz[1], xyz[2]];
    if (!target.every(Number.isFinite)) throw new LiveEditError(name, `expected finite coordinates, got [${target.join(', ')}]`);
    return (draft) => {
      if (draft.kind === 'assembly') {
        const ref = splitReference(name);
        if (ref === undefined) throw new LiveEditError('hardpoint', `expected "part.point", got "${name}"`);
        movePoint(ref.owner, ref.name, target)(draft.doc);
        return;
      }
      const geometry = draft.geometry as Record<string, unknown>;
      const location = findHardpoint(geometry, name);
      const section = sectionOf(geometry, location.section) as Record<string, unknown>;
      const written: [number, number, number] = location.mirrored ? [target[0], 0 - target[1], target[2]] : target;
      const old = section[location.point];
      const before = readXyz(old);
      if (before !== undefined && before.every((v, i) => Object.is(v, written[i]))) return;
      section[location.point] = Array.isArray(old) ? written : { x: written[0], y: written[1], z: written[2] };
    };
  },

  /** Sets any field of a suspension's geometry file (a deep copy of `value`; `undefined` deletes it). */
  setGeometryValue(path: readonly (string | number)[], value: unknown): LiveRecipe {
    if (path.length === 0) throw new LiveEditError('path', 'empty', 'setGeometryValue: empty path');
    const copy = value === undefined ? undefined : structuredClone(value);
    return (draft) => {
      const geometry = requireSuspension(draft).geometry as Record<string | number, unknown>;
      let container: Record<string | number, unknown> = geometry;
      for (let i = 0; i < path.length - 1; i++) {
        const next = container[path[i]];
        if (typeof next !== 'object' || next === null) {
          if (copy === undefined) return;
          container[path[i]] = typeof path[i + 1] === 'number' ? [] : {};
        }
        container = container[path[i]] as Record<string | number, unknown>;
      }
      const last = path[path.length - 1];
      if (copy === undefined) {
        if (Object.hasOwn(container, last)) delete container[last];
      } else if (!sameJson(container[last], copy)) container[last] = copy;
    };
  },

  /**
   * Steering type of a suspension (`rack` or `none`). Switching to `none` drops the
   * rack's coordinate from `options`; switching to `rack` holds it (the default).
   */
  setSteering(type: SteeringType): LiveRecipe {
    return (draft) => {
      const document = requireSuspension(draft);
      const geometry = document.geometry as Record<string, unknown>;
      const config = settingsSection(geometry, 'config');
      const current = config.steering;
      if (typeof current === 'string' || current === undefined) config.steering = current === undefined ? { type } : type;
      else if (isObject(current)) (current as Record<string, unknown>).type = type;
      else config.steering = { type };
      const { options } = document;
      if (type === 'none') {
        const index = options.held.indexOf(STEERING_COORDINATE);
        if (index >= 0) options.held.splice(index, 1);
        if (Object.hasOwn(options.state, STEERING_COORDINATE)) delete options.state[STEERING_COORDINATE];
      } else if (!options.held.includes(STEERING_COORDINATE)) options.held.push(STEERING_COORDINATE);
    };
  },

  /**
   * Actuation of a suspension (`direct`, `pushrod_rocker`, `pullrod_rocker`, and the
   * mount). A layout that needs more hardpoints is refused unless they come in
   * `hardpoints` (the left corner's, or the corner's), added in the same edit.
   */
  setActuation(type: ActuationType, mount?: string, hardpoints: Readonly<Record<string, Vec3Doc>> = {}): LiveRecipe {
    return (draft) => {
      const geometry = requireSuspension(draft).geometry as Record<string, unknown>;
      const settings = geometry.scope === 'axle' ? settingsSection(geometry, 'axle_config') : geometry;
      settings.actuation = mount === undefined ? { type } : { type, mount };
      if (Object.keys(hardpoints).length === 0) return;
      const section = geometry.scope === 'axle' ? sectionOf(geometry, ['hardpoints', 'left']) : sectionOf(geometry, ['hardpoints']);
      if (!isObject(section)) throw new SuspensionFileError([{ path: 'hardpoints', message: 'missing hardpoints' }]);
      for (const [name, p] of Object.entries(hardpoints)) (section as Record<string, unknown>)[name] = { x: p[0], y: p[1], z: p[2] };
    };
  },

  /** The suspension hold the analyses use (`layout_default` or a hold of the layout). */
  setSuspensionHold(hold: string): LiveRecipe {
    return (draft) => {
      const options = requireSuspension(draft).options;
      if (options.hold !== hold) options.hold = hold;
    };
  },

  /** Several recipes in order, as one edit. */
  combine(...recipes: readonly LiveRecipe[]): LiveRecipe {
    return (draft) => {
      for (const recipe of recipes) recipe(draft);
    };
  },
} as const;

// ---- helpers ----

function requireSuspension(draft: Draft<LiveDocument>): Draft<SuspensionLiveDocument> {
  if (draft.kind !== 'suspension') throw new LiveEditError('kind', 'a suspension edit needs a suspension document, this is an assembly');
  return draft;
}

/** The mapping holding a setting: a corner's `config` (or the file itself), an axle's `axle_config`. Created when absent. */
function settingsSection(geometry: Record<string, unknown>, cornerSection: 'config' | 'axle_config'): Record<string, unknown> {
  const key = geometry.scope === 'axle' ? 'axle_config' : cornerSection;
  if (!isObject(geometry[key])) geometry[key] = {};
  return geometry[key] as Record<string, unknown>;
}

function sectionOf(geometry: GeometryJson | Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = geometry;
  for (const key of path) value = isObject(value) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readXyz(value: unknown): [number, number, number] | undefined {
  if (Array.isArray(value)) {
    return value.length === 3 && value.every((v) => typeof v === 'number') ? [value[0], value[1], value[2]] : undefined;
  }
  if (isObject(value) && typeof value.x === 'number' && typeof value.y === 'number' && typeof value.z === 'number') {
    return [value.x, value.y, value.z];
  }
  return undefined;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
