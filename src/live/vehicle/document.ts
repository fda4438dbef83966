/**
 * A whole vehicle as the viewer edits it (docs/vehicle.md, "Viewer"): the vehicle file's
 * text, the files it names (axle files, `.tir` files) by their base name — a page has no
 * file system, so they come embedded or chosen together with the vehicle file — and the
 * two axle files as parsed, the source of truth a hardpoint drag writes into. The vehicle
 * (src/suspension/vehicle) is read again from them after every edit.
 *
 * A drag on one corner's pickup edits both sides of its axle while the axle is locked: the
 * mirror (y → −y) moves with it. Unlocked, a symmetric axle file (no `hardpoints.right`)
 * first gets its right side written out as the left's mirror, so only the dragged side moves.
 */
import { parseText } from '../../suspension/files/index.ts';
import { SuspensionFileError } from '../../suspension/files/errors.ts';
import { readVehicleFile, type AxleName, type VehicleSpec } from '../../suspension/vehicle/index.ts';
import { hardpointPosition, liveEdits, LiveEditError, type GeometryJson, type LiveRecipe } from '../document.ts';

export interface VehicleAxleSource {
  /** The axle file as the vehicle file names it (relative to it). */
  readonly ref: string;
  /** The axle file as parsed (plain JSON), edited in place of its text. */
  readonly geometry: GeometryJson;
}

export interface VehicleDocument {
  readonly kind: 'vehicle';
  /** The vehicle file's name. */
  readonly name: string;
  /** The vehicle file's text (never edited here). */
  readonly text: string;
  /** Every other file at hand (`.tir` files, the axle files as opened), by base name. */
  readonly files: Readonly<Record<string, string>>;
  readonly axles: Readonly<Record<AxleName, VehicleAxleSource>>;
}

/** A file's name without its folders (`../suspension/a.yaml` → `a.yaml`). */
export function baseNameOf(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** True when a file's text is a vehicle file (`vehicle: 1` at its top, or a `*.vehicle.yaml` name). */
export function looksLikeVehicleFile(name: string, text: string): boolean {
  return /\.vehicle\.(ya?ml|json)$/i.test(name) || /^\s*"?vehicle"?\s*:\s*1\b/m.test(text);
}

/**
 * Reads a vehicle file with the files chosen beside it (by base name); the axle files it
 * names must be among them.
 * @throws SuspensionFileError (the vehicle reader's: one `path: reason` line per problem, a
 *   missing axle file named with its reference and the files that were at hand).
 */
export function readVehicleDocument(name: string, text: string, files: Readonly<Record<string, string>>): VehicleDocument {
  const raw = parseText(text, name) as Record<string, unknown> | null;
  const axles = {} as Record<AxleName, VehicleAxleSource>;
  for (const axle of ['front', 'rear'] as const) {
    const ref = raw && typeof raw === 'object' ? raw[axle] : undefined;
    const own = typeof ref === 'string' ? files[baseNameOf(ref)] : undefined;
    // a missing one is left to the reader below, which names it
    axles[axle] = { ref: typeof ref === 'string' ? ref : '', geometry: own === undefined ? {} : (parseText(own, baseNameOf(ref as string)) as GeometryJson) };
  }
  const doc: VehicleDocument = { kind: 'vehicle', name, text, files: { ...files }, axles };
  vehicleSpecOf(doc);
  return doc;
}

/** The last vehicle file text parsed, and its parse (a drag reads the same vehicle file every frame). */
let lastParse: { text: string; name: string; parsed: unknown } | null = null;

/** The vehicle a document stands for (its axle files as edited). @throws SuspensionFileError */
export function vehicleSpecOf(doc: VehicleDocument): VehicleSpec {
  if (lastParse?.text !== doc.text || lastParse.name !== doc.name) lastParse = { text: doc.text, name: doc.name, parsed: parseText(doc.text, doc.name) };
  return readVehicleFile(doc.text, doc.name, (ref) => {
    const base = baseNameOf(ref);
    for (const axle of ['front', 'rear'] as const) {
      const a = doc.axles[axle];
      // as data: parsing its text again would be most of the read (a drag reads it every frame)
      if (a.ref === ref && Object.keys(a.geometry).length > 0) return { path: ref, text: '', parsed: structuredClone(a.geometry) };
    }
    const text = doc.files[base];
    if (text === undefined) {
      const have = Object.keys(doc.files);
      const reason = `not among the files opened (choose it together with the vehicle file${have.length ? `; opened: ${have.join(', ')}` : ''})`;
      throw new LiveEditError(ref, reason, reason);
    }
    return { path: ref, text };
  }, structuredClone(lastParse.parsed));
}

/** A vehicle hardpoint: an axle and the hardpoint as the axle's roles name it (`left_lower_wishbone_inboard_front`, `center_arb_u_bar_axis_a`). */
export interface VehicleHardpoint { axle: AxleName; name: string }

/** The geometry file's own name of an axle hardpoint: a corner file (mirrored by the vehicle) names its points without a side. */
function fileName(geometry: GeometryJson, name: string): { name: string; mirrored: boolean } {
  if (geometry.scope === 'axle') return { name, mirrored: false };
  if (name.startsWith('right_')) return { name: name.slice(6), mirrored: true };
  return { name: name.startsWith('left_') ? name.slice(5) : name, mirrored: false };
}

const mirror = (p: readonly number[]): [number, number, number] => [p[0], 0 - p[1], p[2]];

/** The opposite side's name of a side hardpoint, or null (an axle-level point). */
export function mirrorName(name: string): string | null {
  if (name.startsWith('left_')) return `right_${name.slice(5)}`;
  if (name.startsWith('right_')) return `left_${name.slice(6)}`;
  return null;
}

/** True when an axle's right side is the left's mirror by construction (no `hardpoints.right`, or a corner file). */
export function axleIsSymmetric(doc: VehicleDocument, axle: AxleName): boolean {
  const g = doc.axles[axle].geometry;
  const hp = g.hardpoints as Record<string, unknown> | undefined;
  return g.scope !== 'axle' || hp?.right === undefined;
}

/** Runs a live-document edit on a copy of an axle's geometry file. */
function editAxle(geometry: GeometryJson, edit: LiveRecipe): GeometryJson {
  // a plain copy stands for immer's draft: the recipe only writes into it
  const draft = { kind: 'suspension', geometry: structuredClone(geometry) as GeometryJson, options: { hold: 'layout_default', state: {}, held: [] } };
  edit(draft as Parameters<LiveRecipe>[0]);
  return (draft as { geometry: GeometryJson }).geometry;
}

/** A hardpoint's design position (mm, the axle file's axes) in a vehicle document. @throws SuspensionFileError */
export function vehicleHardpointPosition(doc: VehicleDocument, hp: VehicleHardpoint): [number, number, number] {
  const g = doc.axles[hp.axle].geometry;
  const own = fileName(g, hp.name);
  const p = hardpointPosition(g, own.name);
  return own.mirrored ? mirror(p) : p;
}

/**
 * Moves a hardpoint to a design position (mm, the axle file's axes). Locked: its mirror
 * moves too (by construction on a symmetric axle, written on one with both sides).
 * Unlocked: only this side; a symmetric axle file gets its right side written out first.
 * @throws SuspensionFileError for an unknown hardpoint; a corner file cannot be unlocked.
 */
export function moveVehicleHardpoint(doc: VehicleDocument, hp: VehicleHardpoint, xyz: readonly [number, number, number], locked: boolean): VehicleDocument {
  const source = doc.axles[hp.axle];
  let g = source.geometry;
  const other = mirrorName(hp.name);
  if (g.scope !== 'axle') {
    if (!locked) throw new SuspensionFileError([{ path: hp.axle, message: `"${source.ref}" is a corner file: the vehicle mirrors it, so its two sides move together` }]);
    const own = fileName(g, hp.name);
    g = editAxle(g, liveEdits.moveHardpoint(own.name, own.mirrored ? mirror(xyz) : [xyz[0], xyz[1], xyz[2]]));
  } else {
    if (!locked && other !== null && axleIsSymmetric(doc, hp.axle)) g = writeRightSide(g);
    g = editAxle(g, liveEdits.moveHardpoint(hp.name, [xyz[0], xyz[1], xyz[2]]));
    const explicitRight = (g.hardpoints as Record<string, unknown>).right !== undefined;
    if (locked && other !== null && explicitRight) g = editAxle(g, liveEdits.moveHardpoint(other, mirror(xyz)));
  }
  return { ...doc, axles: { ...doc.axles, [hp.axle]: { ...source, geometry: g } } };
}

/** The right side written out as the left's mirror (each point in the file's own layout). */
function writeRightSide(geometry: GeometryJson): GeometryJson {
  const g = structuredClone(geometry) as Record<string, unknown>;
  const hp = g.hardpoints as Record<string, unknown>;
  const left = hp.left as Record<string, unknown>;
  const right: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(left)) {
    if (Array.isArray(p)) right[name] = mirror(p as number[]);
    else if (p && typeof p === 'object') { const q = p as Record<string, number>; right[name] = { ...q, y: 0 - q.y }; }
    else right[name] = p;
  }
  hp.right = right;
  return g as GeometryJson;
}

/** The edited axle files' texts (JSON; YAML reads it) by their reference, for saving beside the vehicle file. */
export function vehicleAxleTexts(doc: VehicleDocument): Record<AxleName, { ref: string; text: string }> {
  return {
    front: { ref: doc.axles.front.ref, text: `${JSON.stringify(doc.axles.front.geometry, null, 2)}\n` },
    rear: { ref: doc.axles.rear.ref, text: `${JSON.stringify(doc.axles.rear.geometry, null, 2)}\n` },
  };
}
