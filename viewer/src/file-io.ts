/**
 * The viewer's files: open (a model, or a sweep file that sets the plots' range), save the
 * geometry or the assembly, and export the sweep as CSV, the plots as SVG and PNG, and the
 * sweep as an animated glTF.
 */
import { assemblyText, baseName, geometryText, nameOf, OpenError, readDocument, readSweepFile, type SweepFileRange } from './document';
import { EditRefused, looksLikeVehicleFile as isVehicleFile } from '../../src/index.ts';
import { liveEdits } from '../../src/index.ts';
import { PLOTTABLE } from '../../src/index.ts';
import { plotsChart, plotsPictures, sweepGlb } from './pictures';
import type { History } from '../../src/index.ts';
import type { PoseResult, SweepRequest, SweepResult } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import type { SweepControls } from './sweep-controls';
import type { PlotPanel } from './plots';

/** What open, save and export use of the viewer. */
export interface FilesHost {
  readonly history: History<ViewerDocument>;
  readonly sweepClient: { sweep(request: SweepRequest): Promise<SweepResult> };
  readonly sweepControls: Pick<SweepControls, 'kind' | 'range' | 'setKind'>;
  readonly plots: Pick<PlotPanel, 'chosen'>;
  readonly lastPose: PoseResult | null;
  readonly lastSweep: SweepResult | null;
  readonly baseline: SweepResult | null;
  docKey(doc: ViewerDocument): number;
  replaceDocument(doc: ViewerDocument, label: string): void;
  showError(text: string): void;
  showNotice(text: string): void;
  /** A whole vehicle (viewer/src/vehicle-mode.ts): a vehicle file opens there, with the files chosen beside it. */
  readonly vehicle?: { open(name: string, text: string, files?: Readonly<Record<string, string>>): boolean };
  /** Geometry files opened beside a document (viewer/src/part-meshes.ts). */
  readonly partMeshes: { addFiles(files: readonly { name: string; bytes: Uint8Array }[]): void };
}

const DOCUMENT_FILE = /\.(ya?ml|json)$/i;
/** Files a vehicle file names beside its axle files (Magic Formula tyres). */
const TYRE_FILE = /\.tir$/i;

/**
 * A vehicle file among the files chosen opens the whole car, its axle and tyre files
 * matched by base name among the others; true when one did.
 */
async function openVehicleFiles(app: FilesHost, files: readonly File[]): Promise<boolean> {
  if (!app.vehicle) return false;
  const texts = await Promise.all(files.filter((f) => DOCUMENT_FILE.test(f.name) || TYRE_FILE.test(f.name)).map(async (f) => ({ name: f.name, text: await f.text() })));
  const vehicle = texts.find((t) => DOCUMENT_FILE.test(t.name) && isVehicleFile(t.name, t.text));
  if (!vehicle) return false;
  app.vehicle.open(vehicle.name, vehicle.text, Object.fromEntries(texts.filter((t) => t !== vehicle).map((t) => [t.name, t.text])));
  return true;
}

/**
 * Opens what the user chose or dropped: the document (YAML/JSON) and, beside it, any
 * geometry files its parts name (STEP, STL, …), matched by file name.
 */
async function openFiles(app: FilesHost, files: readonly File[]): Promise<void> {
  if (await openVehicleFiles(app, files)) return;
  const geometry = files.filter((f) => !DOCUMENT_FILE.test(f.name));
  if (geometry.length) app.partMeshes.addFiles(await Promise.all(geometry.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) }))));
  const doc = files.find((f) => DOCUMENT_FILE.test(f.name));
  if (doc) await openFile(app, doc.name, await doc.text());
  else if (geometry.length) app.showNotice(`Read ${geometry.map((f) => f.name).join(', ')}: drawn on the parts that name them.`);
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The open, save and export buttons, and a file dropped on the page. */
export function wireFiles(app: FilesHost): void {
  $('open').addEventListener('click', () => $<HTMLInputElement>('file').click());
  $<HTMLInputElement>('file').addEventListener('change', async (e) => {
    const input = e.target as HTMLInputElement;
    await openFiles(app, Array.from(input.files ?? []));
    input.value = '';
  });
  const view = $('view');
  window.addEventListener('dragover', (e) => { e.preventDefault(); view.classList.add('dragover'); });
  window.addEventListener('dragleave', () => view.classList.remove('dragover'));
  window.addEventListener('drop', async (e) => {
    e.preventDefault();
    view.classList.remove('dragover');
    await openFiles(app, Array.from(e.dataTransfer?.files ?? []));
  });
  $('save-geometry').addEventListener('click', () => {
    const doc = app.history.current;
    const text = geometryText(doc);
    if (text !== null) { download(`${baseName(nameOf(doc))}.yaml`, text, 'application/yaml'); app.history.markSaved(); }
  });
  $('save-assembly').addEventListener('click', () => {
    const doc = app.history.current;
    download(`${baseName(nameOf(doc))}.kinemate.json`, assemblyText(doc), 'application/json');
  });
  $('export-csv').addEventListener('click', () => void exportCsv(app));
  $('save-plots').addEventListener('click', () => void savePlots(app));
  $('export-gltf').addEventListener('click', () => void exportGltf(app));
}

/** The bump sweep as CSV: the full sweep (steering response at every step) of the design now shown. */
export async function exportCsv(app: FilesHost): Promise<void> {
  const doc = app.history.current;
  try {
    const sweep = await app.sweepClient.sweep({ docKey: app.docKey(doc), doc, kind: app.sweepControls.kind(), range: app.sweepControls.range(), full: true });
    if (sweep.csv) download(`${baseName(nameOf(doc))}-${sweep.kind}.csv`, sweep.csv, 'text/csv');
    else app.showError('Export CSV: this model has no suspension roles, so there is no bump sweep to export.');
  } catch (error) {
    app.showError(`Export CSV failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The plots shown, as SVG and PNG (the charts of `kinemate plot`). */
export async function savePlots(app: FilesHost): Promise<void> {
  const sweep = app.lastSweep;
  if (!sweep || sweep.travel.length === 0) { app.showError('Save plots: this model has no suspension roles, so there are no plots to save.'); return; }
  try {
    const doc = app.history.current;
    const plots = app.plots.chosen.map((metric) => PLOTTABLE.find((p) => p.metric === metric) ?? { metric, label: metric, unit: '' });
    const chart = plotsChart({ source: nameOf(doc), sweep, baseline: app.baseline, plots, design: app.lastPose?.designMetrics ?? null });
    const { svg, png } = await plotsPictures(chart);
    const name = `${baseName(nameOf(doc))}-${sweep.kind}-plots`;
    download(`${name}.svg`, svg, 'image/svg+xml');
    download(`${name}.png`, png, 'image/png');
  } catch (error) {
    app.showError(`Save plots failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The current sweep as an animated glTF (the file of `kinemate export --gltf`). */
export async function exportGltf(app: FilesHost): Promise<void> {
  const doc = app.history.current;
  try {
    const range = app.sweepControls.range();
    const sweep = await app.sweepClient.sweep({ docKey: app.docKey(doc), doc, kind: app.sweepControls.kind(), range, poses: true });
    if (!sweep.states || !sweep.assembly || sweep.states.length === 0) { app.showError('Export glTF: this model has no suspension roles, so there is no sweep to export.'); return; }
    const glb = await sweepGlb(sweep.assembly, sweep.states, { source: nameOf(doc), sweep: sweep.kind, travel: sweep.travel, failedSteps: sweep.failedSteps });
    download(`${baseName(nameOf(doc))}-${sweep.kind}.glb`, new Blob([glb.slice()], { type: 'model/gltf-binary' }), 'model/gltf-binary');
  } catch (error) {
    app.showError(`Export glTF failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Open a file's text; a malformed file shows the loader's message and keeps the model. */
export async function openFile(app: FilesHost, name: string, text: string): Promise<boolean> {
  if (app.vehicle && isVehicleFile(name, text)) return app.vehicle.open(name, text);
  try {
    // a bump sweep file sets the plots' range (and the hold); the model stays
    const range = readSweepFile(name, text, app.history.current);
    if (range) { applySweepRange(app, name, range); return true; }
    const doc = readDocument(name, text);
    app.replaceDocument(doc, `open ${name}`);
    return true;
  } catch (error) {
    if (error instanceof OpenError) { app.showError(`Could not open ${error.fileName} — the model is unchanged.\n${error.detail}`); return false; }
    if (error instanceof EditRefused) { app.showError(`Could not open ${name} — the model is unchanged.\n${error.reason}`); return false; }
    throw error;
  }
}

function applySweepRange(app: FilesHost, name: string, range: SweepFileRange): void {
  let note = `${range.kind === 'steer' ? 'Steer' : 'Bump'} sweep from ${name}: ${range.start} to ${range.stop} mm in ${range.steps} steps.`;
  const doc = app.history.current;
  if (doc.kind === 'suspension' && range.hold !== doc.options.hold) {
    try {
      app.history.apply(liveEdits.setSuspensionHold(range.hold), `hold ${range.hold}`);
      note += ` Steering hold: ${range.hold}.`;
    } catch (error) {
      if (!(error instanceof EditRefused)) throw error;
      note += ` Its steering hold ${range.hold} was refused: ${error.reason}`;
    }
  }
  app.showNotice(note);
  app.sweepControls.setKind(range.kind, range);
}

export function download(name: string, content: string | Blob, type: string): void {
  const url = URL.createObjectURL(content instanceof Blob ? content : new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
