/**
 * The toolbar and the keys: templates, undo and redo (buttons, Ctrl+Z, Ctrl+Shift+Z,
 * Ctrl+Y), reset pose, pin baseline, the sweep's kind and range, the steering hold, and
 * the error banner's close button.
 */
import { TEMPLATES, nameOf } from './document';
import { EditRefused } from '../../src/index.ts';
import { liveEdits } from '../../src/index.ts';
import { renderHolds } from './frame-presenter';
import type { History } from '../../src/index.ts';
import type { PoseResult, SweepResult, ViewState, ViewerLiveModel } from '../../src/index.ts';
import type { ViewerDocument } from './document';
import type { SweepControls } from './sweep-controls';
import type { PlotPanel } from './plots';
import type { SceneView } from './scene';

/** What the toolbar and the keys use of the viewer. */
export interface ToolbarHost {
  readonly history: History<ViewerDocument>;
  readonly live: Pick<ViewerLiveModel, 'resolve'>;
  readonly view: ViewState;
  readonly lastPose: PoseResult | null;
  readonly lastSweep: SweepResult | null;
  baseline: SweepResult | null;
  baselineDesign: Record<string, number | null> | null;
  readonly sweepControls: Pick<SweepControls, 'onInput' | 'setKind' | 'kind'>;
  readonly plots: Pick<PlotPanel, 'setBaseline'>;
  readonly scene: Pick<SceneView, 'setBaseline'>;
  replaceDocument(doc: ViewerDocument, label: string): void;
  setView(view: ViewState): void;
  noteInput(): void;
  undo(): void;
  redo(): void;
  updateToolbar(): void;
  renderReadouts(): void;
  showError(text: string): void;
  hideError(): void;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export function wireToolbar(app: ToolbarHost): void {
  const select = $<HTMLSelectElement>('template');
  for (const t of TEMPLATES) { const o = document.createElement('option'); o.value = t.id; o.textContent = t.label; select.appendChild(o); }
  const custom = document.createElement('option');
  // shown (and pickable) only while an opened file is the model: before that it would do nothing
  custom.value = ''; custom.textContent = '(opened file)'; custom.hidden = true; custom.disabled = true;
  custom.id = 'template-opened';
  select.appendChild(custom);
  select.addEventListener('change', () => {
    const t = TEMPLATES.find((x) => x.id === select.value);
    if (t) app.replaceDocument(t.make(), `template ${t.label}`);
    select.blur();
  });
  $('undo').addEventListener('click', () => app.undo());
  $('redo').addEventListener('click', () => app.redo());
  $('reset-pose').addEventListener('click', () => {
    if (app.lastPose?.suspension) app.setView({ travel: app.view.travel.map(() => 0), rack: 0 });
    else { app.live.resolve({ fresh: true }); app.noteInput(); }
  });
  $('pin-baseline').addEventListener('click', () => toggleBaseline(app));
  for (const id of ['sweep-from', 'sweep-to', 'sweep-steps']) $(id).addEventListener('change', () => app.sweepControls.onInput());
  $('sweep-kind').addEventListener('change', (e) => { app.sweepControls.setKind(app.sweepControls.kind()); (e.target as HTMLSelectElement).blur(); });
  $<HTMLSelectElement>('hold').addEventListener('change', (e) => {
    const hold = (e.target as HTMLSelectElement).value;
    try {
      app.history.apply(liveEdits.setSuspensionHold(hold), `hold ${hold}`);
      app.hideError();
    } catch (error) {
      if (error instanceof EditRefused) app.showError(`Hold refused — ${error.reason}`);
      else throw error;
      if (app.lastPose) renderHolds(app.history.current, app.lastPose);
    }
    (e.target as HTMLSelectElement).blur();
  });
  $('error-close').addEventListener('click', () => app.hideError());
  window.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement | null;
    // text fields keep their own undo; everywhere else the document's
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) return;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && (e.key === 'z' || e.key === 'Z')) { e.preventDefault(); if (e.shiftKey) app.redo(); else app.undo(); }
    else if (mod && (e.key === 'y' || e.key === 'Y')) { e.preventDefault(); app.redo(); }
  });
  app.updateToolbar();
}

export function updateToolbar(app: Pick<ToolbarHost, 'history'>): void {
  $<HTMLButtonElement>('undo').disabled = !app.history.canUndo;
  $<HTMLButtonElement>('redo').disabled = !app.history.canRedo;
  const doc = app.history.current;
  $<HTMLButtonElement>('save-geometry').disabled = doc.kind !== 'suspension';
  const select = $<HTMLSelectElement>('template');
  const match = TEMPLATES.find((t) => t.name === nameOf(doc));
  const opened = $<HTMLOptionElement>('template-opened');
  opened.hidden = opened.disabled = match !== undefined;
  select.value = match ? match.id : '';
}

function toggleBaseline(app: ToolbarHost): void {
  const button = $('pin-baseline');
  if (app.baseline) {
    app.baseline = null;
    app.baselineDesign = null;
    button.classList.remove('active');
    button.textContent = 'Pin baseline';
  } else if (app.lastSweep && app.lastPose) {
    app.baseline = app.lastSweep;
    app.baselineDesign = app.lastPose.designMetrics;
    button.classList.add('active');
    button.textContent = 'Unpin baseline';
  }
  app.plots.setBaseline(app.baseline);
  app.scene.setBaseline(app.baseline ? app.lastPose : null);
  if (app.lastPose) app.renderReadouts();
}
