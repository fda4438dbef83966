/**
 * Assemble mode's panel: parts from the library or imported, mates made by picking two
 * entities in the view (the menu offers exactly the types that join them; another choice
 * re-makes the last mate), deletions, and the suspension roles form. Every change is one
 * undo entry on the app's history; what it solves to comes back through the app.
 */
import { EditRefused, type History } from '../../src/index.ts';
import { AssemblyError, entityKind, parseAssembly, type AssemblyDoc, type EntityKind } from '../../src/index.ts';
import { isDocumentError } from '../../src/index.ts';
import {
  MATE_LABELS, PART_LIBRARY, addLibraryPart, applyRolesRecipe, coordinateNames, directedEntities, guessRoles, importParts, mateRecipe, mateTypesFor, newAssembly,
  pointRefs, removeMateRecipe, removePartRecipe, removeRolesRecipe, retypeMateRecipe, type EntityMateType, type PartPoses, type RolesForm,
} from '../../src/index.ts';
import type { ViewerDocument } from './document';
import type { PoseResult } from '../../src/index.ts';
import type { SceneView } from './scene';
import type { SurfaceHit } from './part-meshes';
import type { Draft } from 'immer';
import { addPickedEntity, pickedEntityName } from '../../src/index.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** What the panel needs of the app. */
export interface AssembleHost {
  readonly history: History<ViewerDocument>;
  readonly scene: SceneView;
  readonly lastPose: PoseResult | null;
  docKey(doc: ViewerDocument): number;
  replaceDocument(doc: ViewerDocument, label: string): void;
  showError(text: string): void;
  hideError(): void;
}

export class AssemblePanel {
  /** Assemble mode is on: clicks on handles pick entities. */
  assembling = false;
  /** The entities picked so far (two make a mate). */
  private picks: string[] = [];

  constructor(private readonly host: AssembleHost) {
    this.wire();
  }

  private wire(): void {
    $('assemble').addEventListener('click', () => this.setAssembling(!this.assembling));
    const partSelect = $<HTMLSelectElement>('asm-part');
    for (const p of PART_LIBRARY) { const o = document.createElement('option'); o.value = p.id; o.textContent = p.label; partSelect.appendChild(o); }
    $('asm-new').addEventListener('click', () => { this.host.replaceDocument(newAssembly(), 'new assembly'); this.clearPicks(); });
    $('asm-add').addEventListener('click', () => this.addPart(partSelect.value));
    $<HTMLSelectElement>('asm-mate').addEventListener('change', (e) => { const t = (e.target as HTMLSelectElement).value; if (t) this.retypeLastMate(t as EntityMateType); });
    $('asm-delete-mate').addEventListener('click', () => this.deleteMate());
    $('asm-delete-part').addEventListener('click', () => this.deletePart($<HTMLSelectElement>('asm-parts').value));
    $('asm-import').addEventListener('click', () => $<HTMLInputElement>('asm-import-file').click());
    $<HTMLInputElement>('asm-import-file').addEventListener('change', async (e) => {
      const input = e.target as HTMLInputElement;
      const file = input.files?.[0];
      if (file) await this.importPartFile(file.name, await file.text());
      input.value = '';
    });
    $('role-apply').addEventListener('click', () => this.applyRoles());
    document.querySelectorAll<HTMLSelectElement>('#asm-roles select').forEach((select) => select.addEventListener('change', () => { select.dataset.touched = 'true'; }));
    $('role-remove').addEventListener('click', () => this.removeRoles());
  }

  /** The mate the last two picks made (a change of the mate menu re-makes it with the new type). */
  private lastMate: string | null = null;
  /** The mate selected in the list (Delete mate deletes it; else the last one). */
  private selectedMate: string | null = null;
  /** The type the user last chose in the menu, per pair of entity kinds (`axis|point`). */
  private readonly matePreference = new Map<string, EntityMateType>();
  /** The part poses of the last good solve: where picked distances and angles are measured, and the design written with roles. */
  private goodPoses: PartPoses | undefined;

  setAssembling(on: boolean): void {
    this.assembling = on;
    $('assemble').classList.toggle('active', on);
    $('assemble-panel').hidden = !on;
    this.clearPicks();
    if (on && this.host.history.current.kind !== 'assembly') this.host.replaceDocument(newAssembly(), 'new assembly');
    this.render();
  }

  /** The solved poses to measure at: the current ones when good (and of this document), else the last good ones. */
  private measuredPoses(): PartPoses | undefined {
    const r = this.host.lastPose;
    if (r && r.ok && r.docKey === this.host.docKey(this.host.history.current)) return r.poses;
    return this.goodPoses;
  }

  private asmError(error: unknown): string {
    return error instanceof EditRefused ? `Refused: ${error.reason}` : String(error instanceof Error ? error.message : error);
  }

  private addPart(id: string): void {
    try {
      const { recipe, name } = addLibraryPart(this.host.history.current, id);
      this.host.history.apply(recipe, `add ${name}`);
      this.setAssembleStatus(`Added ${name}. Click two entities to mate them.`);
    } catch (error) {
      this.setAssembleStatus(this.asmError(error));
    }
    this.render();
  }

  /** When a handle was last picked (a click that picked a handle picks no surface behind it). */
  lastHandlePick = -Infinity;

  /**
   * A click on a part's CAD surface: the entity it picks (a face's plane or axis, an edge's
   * circle or line, a vertex) is added to the part under a generated name — one undo
   * entry — and taken as a pick, as a click on a handle would be.
   */
  pickSurface(hit: SurfaceHit): void {
    const doc = this.host.history.current;
    if (doc.kind !== 'assembly' || !Object.hasOwn(doc.doc.parts, hit.part)) return;
    const r = hit.result;
    const name = pickedEntityName(doc.doc.parts[hit.part], r.entity);
    try {
      this.host.history.apply((draft) => { addPickedEntity(hit.part, name, r.entity)((draft as { doc: Draft<AssemblyDoc> }).doc); }, `pick ${hit.part}.${name}`);
    } catch (error) {
      this.setAssembleStatus(this.asmError(error));
      return;
    }
    this.pickNote = `${r.feature}${r.radius !== undefined ? `, radius ${r.radius.toFixed(2)} mm` : ''}, fit residual ${r.residual.toPrecision(2)} mm`;
    this.pick(`${hit.part}.${name}`, false);
  }

  /** What the last surface pick was (shown with the status). */
  private pickNote = '';

  pick(ref: string, handle = true): void {
    if (handle) { this.lastHandlePick = performance.now(); this.pickNote = ''; }
    const doc = this.host.history.current;
    if (doc.kind !== 'assembly') return;
    const kind = entityKind(doc.doc, ref);
    if (kind === undefined) { this.setAssembleStatus(`${ref.replace('#', ' ')} is not an entity to mate: pick a point, an axis, a frame or a plane.`); return; }
    if (this.picks.includes(ref)) return;
    this.picks.push(ref);
    this.host.scene.selected.add(ref);
    if (this.host.lastPose) this.host.scene.update(this.host.lastPose);
    const part = ref.split('.')[0];
    $<HTMLSelectElement>('asm-parts').value = part;
    if (this.picks.length < 2) { this.setAssembleStatus(`Picked ${ref} (${kind}${this.pickNote ? `: ${this.pickNote}` : ''}); now an entity of another part.`); return; }
    const [a, b] = this.picks;
    this.clearPicks();
    if (a.split('.')[0] === b.split('.')[0]) { this.setAssembleStatus('Pick entities of two different parts.'); return; }
    const ka = entityKind(doc.doc, a)!, kb = kind;
    const types = mateTypesFor(ka, kb);
    this.fillMateMenu(types, null);
    if (types.length === 0) { this.setAssembleStatus(`No mate joins ${article(ka)} ${ka} and ${article(kb)} ${kb}.`); return; }
    const preferred = this.matePreference.get(pairKey(ka, kb));
    const type = preferred !== undefined && types.includes(preferred) ? preferred : types[0];
    this.fillMateMenu(types, type);
    try {
      const { recipe, id } = mateRecipe(doc, type, a, b, this.measuredPoses());
      this.host.history.apply(recipe, `mate ${id}`);
      this.lastMate = id;
      this.selectedMate = null;
      this.setAssembleStatus(`Mated ${a} (${ka}) and ${b} (${kb}): ${type} "${id}". Another type in the menu re-makes it.`);
    } catch (error) {
      this.setAssembleStatus(this.asmError(error));
    }
    this.render();
  }

  /** The mate menu: exactly the types that join the picked kinds, `selected` chosen. */
  private fillMateMenu(types: readonly EntityMateType[], selected: EntityMateType | null): void {
    const menu = $<HTMLSelectElement>('asm-mate');
    menu.innerHTML = '';
    for (const t of types) { const o = document.createElement('option'); o.value = t; o.textContent = MATE_LABELS[t]; menu.appendChild(o); }
    if (types.length === 0) { const o = document.createElement('option'); o.value = ''; o.textContent = '(nothing joins these)'; menu.appendChild(o); }
    menu.disabled = types.length === 0;
    if (selected) menu.value = selected;
  }

  /** The mate menu changed: remember the choice for this pair of kinds and re-make the last picked mate with it (one undo entry). */
  private retypeLastMate(type: EntityMateType): void {
    const doc = this.host.history.current;
    const id = this.lastMate;
    if (doc.kind !== 'assembly' || id === null || !Object.hasOwn(doc.doc.mates, id)) return;
    const old = doc.doc.mates[id] as { type: string; a: string; b: string };
    const ka = entityKind(doc.doc, old.a), kb = entityKind(doc.doc, old.b);
    if (!ka || !kb) return;
    this.matePreference.set(pairKey(ka, kb), type);
    if (old.type === type) return;
    try {
      const made = retypeMateRecipe(doc, id, type, this.measuredPoses());
      this.host.history.apply(made.recipe, `mate ${made.id}`);
      this.lastMate = made.id;
      this.setAssembleStatus(`Re-made ${old.a} – ${old.b} as ${type} "${made.id}".`);
    } catch (error) {
      this.setAssembleStatus(this.asmError(error));
    }
    this.render();
  }

  private deleteMate(): void {
    const doc = this.host.history.current;
    if (doc.kind !== 'assembly') return;
    const ids = Object.keys(doc.doc.mates);
    const id = this.selectedMate !== null && ids.includes(this.selectedMate) ? this.selectedMate : ids[ids.length - 1];
    if (id === undefined) { this.setAssembleStatus('No mate to delete.'); return; }
    try {
      this.host.history.apply(removeMateRecipe(id), `delete mate ${id}`);
      this.setAssembleStatus(`Deleted mate "${id}".`);
    } catch (error) {
      this.setAssembleStatus(this.asmError(error));
    }
    this.selectedMate = null;
    this.render();
  }

  private deletePart(name: string): void {
    if (!name) { this.setAssembleStatus('No part to delete.'); return; }
    try {
      this.host.history.apply(removePartRecipe(name), `delete part ${name}`);
      this.setAssembleStatus(`Deleted part "${name}" and the mates that joined it.`);
    } catch (error) {
      this.setAssembleStatus(this.asmError(error));
    }
    this.clearPicks();
    this.render();
  }

  /** Import part…: the moving parts of a `*.kinemate.json`; a malformed file names the loader's path and changes nothing. */
  async importPartFile(name: string, text: string): Promise<boolean> {
    let source: AssemblyDoc;
    try {
      source = parseAssembly(text);
    } catch (error) {
      if (error instanceof AssemblyError) { this.host.showError(`Could not import ${name} — nothing changed.\n${error.message}`); return false; }
      throw error;
    }
    try {
      if (this.host.history.current.kind !== 'assembly') this.host.replaceDocument(newAssembly(), 'new assembly');
      const { recipe, names } = importParts(this.host.history.current, source, name);
      this.host.history.apply(recipe, `import ${name}`);
      this.host.hideError();
      this.setAssembleStatus(`Imported ${names.map(([from, to]) => (from === to ? to : `${from} as ${to}`)).join(', ')} from ${name}.`);
      this.render();
      return true;
    } catch (error) {
      const detail = error instanceof AssemblyError ? error.message : this.asmError(error);
      this.host.showError(`Could not import ${name} — nothing changed.\n${detail}`);
      return false;
    }
  }

  /** The roles panel's form (numbers as typed; the checks say what is wrong). */
  private rolesForm(): RolesForm {
    const v = (id: string) => $<HTMLSelectElement | HTMLInputElement>(id).value;
    const num = (id: string) => (v(id).trim() === '' ? NaN : Number(v(id)));
    const lower = v('role-sa-lower'), upper = v('role-sa-upper');
    return {
      chassis: v('role-chassis'),
      upright: v('role-upright'),
      side: v('role-side') === 'right' ? 'right' : 'left',
      axleInboard: v('role-axle-inboard'),
      axleOutboard: v('role-axle-outboard'),
      // one end alone is not an axis: the check names the missing one
      steeringAxis: lower || upper ? [lower, upper] : null,
      steering: v('role-steering') || null,
      wheelOffset: num('role-offset'),
      tire: { aspect_ratio: num('role-aspect'), section_width: num('role-width'), rim_diameter: num('role-rim') },
    };
  }

  /** Apply roles: the assembly's `suspension` section as one undo entry, checked first; refused roles change nothing and say which field. */
  private applyRoles(): void {
    try {
      const { recipe } = applyRolesRecipe(this.host.history.current, this.rolesForm(), this.measuredPoses());
      this.host.history.apply(recipe, 'suspension roles');
      this.host.hideError();
      this.setAssembleStatus('Suspension roles applied: the metrics and the bump plots run on this assembly.');
    } catch (error) {
      const message = isDocumentError(error) ? error.message : this.asmError(error);
      this.host.showError(`Roles not applied — nothing changed.\n${message}`);
      this.setAssembleStatus(`Roles not applied: ${message}`);
    }
    this.render();
  }

  private removeRoles(): void {
    const doc = this.host.history.current;
    if (doc.kind !== 'assembly' || doc.doc.suspension === undefined) { this.setAssembleStatus('This assembly has no suspension roles.'); return; }
    this.host.history.apply(removeRolesRecipe(), 'remove suspension roles');
    this.setAssembleStatus('Suspension roles removed.');
    this.render();
  }

  private clearPicks(): void {
    this.picks = [];
    this.host.scene.selected.clear();
    if (this.host.lastPose) this.host.scene.update(this.host.lastPose);
  }

  private setAssembleStatus(text: string): void {
    $('asm-status').textContent = text;
  }

  render(): void {
    // the poses shown before this document: the last good ones to measure at
    const r = this.host.lastPose;
    if (r && r.ok) this.goodPoses = r.poses;
    const doc = this.host.history.current;
    const list = $('asm-mates');
    list.innerHTML = '';
    this.host.scene.setEntityLines(this.assembling && doc.kind === 'assembly' ? directedEntities(doc.doc) : []);
    if (doc.kind !== 'assembly') return;
    for (const [id, m] of Object.entries(doc.doc.mates)) {
      const li = document.createElement('li');
      const mm = m as { type: string; a: string; b: string };
      li.textContent = `${id}: ${mm.type} ${mm.a} – ${mm.b}`;
      li.dataset.mate = id;
      li.classList.toggle('selected', id === this.selectedMate);
      li.addEventListener('click', () => { this.selectedMate = this.selectedMate === id ? null : id; this.render(); });
      list.appendChild(li);
    }
    const parts = Object.keys(doc.doc.parts);
    fillSelect($<HTMLSelectElement>('asm-parts'), parts.map((p) => [p, p]));
    this.renderRolesForm(doc.doc);
  }

  /** The roles panel's choices for this assembly, keeping what is chosen where it still exists, else a guess from names. */
  private renderRolesForm(doc: AssemblyDoc): void {
    const guess = guessRoles(doc);
    const parts = Object.keys(doc.parts).map((p): [string, string] => [p, p]);
    const points = pointRefs(doc).map((p): [string, string] => [p, p]);
    const none: [string, string] = ['', '(none)'];
    const pick: [string, string] = ['', '(pick)'];
    fillSelect($<HTMLSelectElement>('role-chassis'), [pick, ...parts], guess.chassis);
    fillSelect($<HTMLSelectElement>('role-upright'), [pick, ...parts], guess.upright);
    fillSelect($<HTMLSelectElement>('role-axle-inboard'), [pick, ...points], guess.axleInboard);
    fillSelect($<HTMLSelectElement>('role-axle-outboard'), [pick, ...points], guess.axleOutboard);
    fillSelect($<HTMLSelectElement>('role-sa-lower'), [none, ...points], guess.steeringAxis?.[0]);
    fillSelect($<HTMLSelectElement>('role-sa-upper'), [none, ...points], guess.steeringAxis?.[1]);
    fillSelect($<HTMLSelectElement>('role-steering'), [none, ...coordinateNames(doc).map((c): [string, string] => [c, c])], guess.steering ?? '');
    $('role-remove').toggleAttribute('disabled', doc.suspension === undefined);
  }

}

/**
 * Fill a select with [value, label] options. Its value: the user's choice (a select they
 * changed: `data-touched`) while it is still offered, else `fallback` (a guess), else
 * what it held, else the first option.
 */
function fillSelect(select: HTMLSelectElement, options: readonly [string, string][], fallback?: string): void {
  const held = select.value;
  const keep = select.dataset.touched === 'true' || fallback === undefined ? held : '';
  const key = options.map((o) => o[0]).join('\n');
  if (select.dataset.key !== key) {
    select.dataset.key = key;
    select.innerHTML = '';
    for (const [value, label] of options) { const o = document.createElement('option'); o.value = value; o.textContent = label; select.appendChild(o); }
  }
  const values = options.map((o) => o[0]);
  select.value = keep && values.includes(keep) ? keep : fallback !== undefined && values.includes(fallback) ? fallback : values.includes(held) ? held : values[0] ?? '';
}

/** The key of a pair of entity kinds, either order. */
function pairKey(a: EntityKind, b: EntityKind): string {
  return [a, b].sort().join('|');
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
