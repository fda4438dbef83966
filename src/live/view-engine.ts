/**
 * The live engine a view hosts (the viewer's pose worker, or a script): one versioned
 * request in, one plain-data frame out, for any live document.
 *
 * - A suspension (a geometry file, or an assembly with a `suspension` section) is solved
 *   by {@link SuspensionLiveEngine} at the request's view (wheel travel per corner, rack
 *   travel): driven there from the last view, or from design for a new version or a
 *   `fresh` request, so the same document and view always give the same numbers. A pull
 *   uses the suspension's pull strategies (`mode`, `axis`, `corner`). The frame carries
 *   the library's suspension analysis (every metric with its derivatives, the steering
 *   response under the document's hold) at the pose shown and at design.
 * - Any other assembly is solved by {@link LiveEngine} (warm state, ranked pull, reach),
 *   which knows the document by its version, with the document's held coordinates freed
 *   (a held crank angle would lock a four-bar against the pointer). One engine across
 *   versions (it carries the solved state by name); a `fresh` request starts a new one.
 * - Last good state: a solve that fails shows the last good pose (for an assembly, by
 *   part name across versions: an edit that cannot be solved shows the linkage where it
 *   last was) and says what failed, in words.
 *
 * The document is known by its version (a number that changes whenever the document
 * does), never by object identity: across a worker every request's document is a new
 * object. The model of the current version stays for a presenter that draws more of it
 * ({@link LiveViewEngine.suspension}, {@link LiveViewEngine.atDesign}).
 */
import type { AssemblyDoc } from '../assembly/types.ts';
import type { SuspensionModel } from '../suspension/build/model.ts';
import type { LoadCase, StateLoads } from '../suspension/loads/loads.ts';
import { LoadsAtPose } from './loads-at-pose.ts';
import { LiveCompliance, secantPull, type LiveComplianceFrame, type RigLoads } from './compliant-pose.ts';
import { compileDocument, type CompiledDocument, type LiveDocument } from './document.ts';
import { LiveEngine, type LiveFrame } from './engine.ts';
import type { LiveRequest } from './live-model.ts';
import { analyseSuspension, type LiveSuspensionAnalysis } from './suspension-analysis.ts';
import { SuspensionLiveEngine, type SolveReport, type SuspensionView } from './suspension-engine.ts';
import { InternalError } from '../../kernel/errors.ts';

/** What a view's requests carry beside the document: where a suspension sits, and a load case. */
export interface LiveViewSettings {
  /** Where a suspension sits (ignored for an assembly without suspension roles). */
  readonly view: SuspensionView;
  /** A suspension: a load case; the frame then carries the loads at the pose shown. */
  readonly loads?: LoadCase | null;
  /** A compliant suspension: the rig's loads at the contact patches (the viewer's load arrows), added to `loads`. */
  readonly rig?: RigLoads | null;
}

/**
 * One request: the live model's own ({@link LiveRequest} with the view's settings), read
 * as it is made, across a worker or not: the document with its version (and, from a remote
 * model, compiled), the view settings, maybe a pull (a suspension moves it by the
 * strategy, default mode free). `fresh` starts again from the document: a suspension is
 * solved at the view from design (so that the pose is a function of the document and the
 * view alone), an assembly goes back to the document's own pose. `cancelledDrag` (an
 * assembly): back to the state at that drag's start.
 */
export interface LiveViewRequest extends Pick<LiveRequest<LiveViewSettings>, 'version' | 'document' | 'settings' | 'pull' | 'fresh' | 'cancelledDrag' | 'compiled'> {
  readonly seq?: number;
}

/** The answer: plain data (no document, no model), what a page draws beside its own structure. */
export interface LiveViewFrame {
  readonly seq: number;
  readonly version: number;
  /** Solved as a suspension (at a view), or as a plain assembly. */
  readonly suspension: boolean;
  /** True when the asked pose was reached; false: the pose shown is the last good one, or a pull stopped short. */
  readonly ok: boolean;
  /** True when the constraints hold at the pose shown from this solve (solved, or limited). */
  readonly good: boolean;
  /** limited: the pose is good but stopped short of a pull (beyond reach). */
  readonly status: 'solved' | 'failed' | 'limited';
  readonly message: string | null;
  /** Mates whose rows did not hold (failure), the view's drivers and the pull left out. */
  readonly failed: string[];
  /** What was asked and could not be reached, in words. */
  readonly asked: string | null;
  readonly iterations: number;
  readonly maxResidual: number;
  /** The linkage's own freedoms at the pose shown (a suspension's view drivers not counted). */
  readonly dof: number;
  readonly redundant: string[];
  /** Where a suspension sits now (a pull moves it); empty travel for an assembly. */
  readonly view: SuspensionView;
  readonly lengthScale: number;
  /** Every part's pose shown (the last good one after a failure): position, then rotation (w, x, y, z). */
  readonly poses: Record<string, number[]>;
  /** The pose shown is the design state (solved, not limited, every travel zero). */
  readonly atDesign: boolean;
  /** The library's suspension analysis at the pose shown (null for a plain assembly). */
  readonly analysis: LiveSuspensionAnalysis | null;
  /** The same at design (wheel travel 0, rack centred): what what-if deltas compare. */
  readonly design: LiveSuspensionAnalysis | null;
  /** With the request's load case: the library's loads at the pose shown. */
  readonly loads: StateLoads | null;
  /** A compliant suspension (a `compliance:` section): the settle under the loads, the K&C coefficients and the unloaded pose (null otherwise). */
  readonly compliance: LiveComplianceFrame | null;
  /** The model was built for this request (a new version, or fresh). */
  readonly rebuilt: boolean;
  /** Wall times, ms: the build (when rebuilt), the solve, the analysis. */
  readonly ms: { readonly build: number; readonly solve: number; readonly analysis: number };
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** A suspension version: the library's suspension solve, and its analysis at design once asked. */
interface SuspensionEntry {
  readonly version: number;
  readonly document: LiveDocument;
  readonly assembly: AssemblyDoc;
  readonly engine: SuspensionLiveEngine;
  readonly buildMs: number;
  design: LiveSuspensionAnalysis | null;
  /** Loads at the pose (one SweepLoads per load case). */
  readonly loads: LoadsAtPose;
  /** A compliant suspension's settle (null for a rigid one). */
  readonly compliance: LiveCompliance | null;
}

interface AssemblyEntry {
  version: number;
  assembly: AssemblyDoc | null;
  readonly engine: LiveEngine;
  seq: number;
  lastGood: LiveFrame | null;
  lastGoodVersion?: number;
}

/** The live engine behind a view (see the module comment). */
export class LiveViewEngine {
  private loaded: SuspensionEntry | null = null;
  private generic: AssemblyEntry | null = null;
  private kind: 'suspension' | 'assembly' | null = null;

  /** The request's own compile (from the thread that validated it), for the document as dragged (see {@link freed}). */
  private compiledNow: { readonly document: LiveDocument; readonly compiled: CompiledDocument } | null = null;

  /** The assembly engine's compile: the request's compile with the held coordinates freed, or a compile here. */
  private compileFreed(document: LiveDocument): CompiledDocument {
    const given = this.compiledNow;
    if (given === null || given.document !== document) return compileDocument(document);
    const { assembly } = given.compiled;
    return { ...given.compiled, assembly: assembly.held.length ? { ...assembly, held: [] } : assembly };
  }

  /** The suspension of the current version (null when the last request was a plain assembly). */
  get suspension(): { readonly sm: SuspensionModel; readonly engine: SuspensionLiveEngine; readonly assembly: AssemblyDoc; readonly version: number; readonly compliance: LiveCompliance | null } | null {
    const l = this.kind === 'suspension' ? this.loaded : null;
    return l ? { sm: l.engine.sm, engine: l.engine, assembly: l.assembly, version: l.version, compliance: l.compliance } : null;
  }

  /** The checked assembly of the last request. */
  get assembly(): AssemblyDoc | null {
    return this.kind === 'suspension' ? this.loaded?.assembly ?? null : this.generic?.assembly ?? null;
  }

  /** Runs `read` on a suspension at its design state, then puts the pose shown back. */
  atDesign<T>(read: () => T): T {
    const s = this.suspension;
    if (s === null) throw new InternalError('LiveViewEngine.atDesign: the current document is not a suspension');
    return s.engine.atDesign(read);
  }

  /**
   * Solves one request. Never throws for a numerical failure (a frame with `good: false`,
   * the last good pose shown); throws for a document that does not compile or build.
   */
  solve(request: LiveViewRequest): LiveViewFrame {
    const doc = request.document;
    if (doc.kind === 'assembly' && doc.doc.suspension === undefined) return this.solveAssembly(request);
    return this.solveSuspension(request);
  }

  // ---------------------------------------------------------------- suspensions

  private solveSuspension(request: LiveViewRequest): LiveViewFrame {
    const t0 = now();
    const rebuilt = !this.loaded || this.loaded.version !== request.version;
    if (rebuilt) {
      const assembly = (request.compiled ?? compileDocument(request.document)).assembly;
      // the view's drivers (wheel travel, rack) take over from the document's holds; the
      // last version's model is renewed in place where the topology is the same (a drag)
      const previous = this.loaded;
      this.loaded = null;
      const engine = new SuspensionLiveEngine(assembly, previous?.engine);
      this.loaded = { version: request.version, document: request.document, assembly, engine, buildMs: now() - t0, design: null, loads: new LoadsAtPose(engine.sm), compliance: engine.sm.roles.compliance ? new LiveCompliance(engine) : null };
    }
    this.kind = 'suspension';
    const entry = this.loaded!;
    const live = entry.engine;
    const t1 = now();
    let report: SolveReport | null = null;
    let asked: string | null = null;
    let note: string | null = null;
    let limitedBy: SolveReport | null = null;
    if (request.pull) {
      // the pull starts from the view the request carries (the last good pose)
      const pull = request.pull;
      const wanted = { part: pull.part, local: pull.point, target: pull.target, mode: pull.mode ?? 'free', ...(pull.corner !== undefined ? { corner: pull.corner } : {}), ...(pull.axis ? { axis: pull.axis } : {}) } as const;
      // a compliant suspension has no kinematic tangent to pull along: its driver follows by secant steps
      const r = entry.compliance ? secantPull(live, wanted, request.settings.view) : live.pull(wanted, request.settings.view);
      report = r.report;
      if (r.note) note = r.note;
      if (r.limitedBy) {
        limitedBy = r.limitedBy;
        const view = live.view;
        const what = pull.mode === 'steer' ? `the rack stops at ${signed(view.rack)} mm` : `the wheel stops at ${view.travel.map((t) => `${signed(t)} mm`).join(' / ')} of travel`;
        asked = `beyond reach: ${what}, ${r.remaining.toFixed(0)} mm short of the pointer; ${r.note ? r.note : 'a step further does not close'}`;
      }
    } else if (rebuilt || request.fresh || !sameView(live.view, request.settings.view)) {
      report = live.driveTo(request.settings.view, rebuilt || request.fresh === true);
      if (!report.converged) asked = describeView(live, request.settings.view);
    }
    const solveMs = now() - t1;
    if (report && !report.converged) live.restoreLastGood();
    // a compliant suspension settles at the view under the loads (the pose shown is the settled one)
    const settings = request.settings;
    const compliance = entry.compliance ? entry.compliance.settle(settings.loads ?? null, settings.rig ?? null) : null;
    const t2 = now();
    const f = live.freedom();
    const hold = holdOf(entry.document);
    // the library's analysis at the pose shown (the last good one after a failure)
    const analysis = analyseSuspension(live.sm, hold, f.dof);
    const loads = compliance ? (settings.loads || settings.rig ? entry.compliance!.loads() : null) : settings.loads ? entry.loads.evaluate(settings.loads) : null;
    const failedOwners = report && !report.converged ? report.failed : limitedBy ? limitedBy.failed : [];
    const failed = failedOwners.filter((o) => !o.startsWith('drag:') && !live.isDriverRow(o)).map(userOwner);
    const solved = !report || report.converged;
    const view = live.view;
    // a compliant pose is the design's only where nothing deflects it: its design is analysed at the design state
    const atDesign = solved && !limitedBy && !compliance && view.rack === 0 && view.travel.every((t) => t === 0);
    // at design, the frame's own analysis is the design's: evaluated once, not twice
    entry.design ??= atDesign ? analysis : live.atDesign(() => analyseSuspension(live.sm, hold, f.dof));
    let message: string | null = null;
    if (!solved) message = [asked, report?.message ? `solver: ${report.message}` : null].filter(Boolean).join(' — ');
    else if (limitedBy) message = asked;
    else if (note) message = note;
    if (compliance?.message) message = message ? `${message} — ${compliance.message}` : compliance.message;
    return {
      seq: request.seq ?? 0,
      version: entry.version,
      suspension: true,
      ok: solved && !limitedBy && compliance?.status !== 'failed',
      good: solved,
      status: !solved ? 'failed' : limitedBy ? 'limited' : 'solved',
      message,
      failed,
      asked,
      iterations: report?.iterations ?? 0,
      maxResidual: report?.maxResidual ?? 0,
      dof: f.dof,
      redundant: f.redundant.map(userOwner),
      view: { travel: [...view.travel], rack: view.rack },
      lengthScale: live.model.system.lengthScale,
      poses: live.poses(),
      atDesign,
      analysis,
      design: entry.design,
      loads,
      compliance,
      rebuilt,
      ms: { build: rebuilt ? entry.buildMs : 0, solve: solveMs, analysis: now() - t2 },
    };
  }

  // ---------------------------------------------------------------- plain assemblies

  private solveAssembly(request: LiveViewRequest): LiveViewFrame {
    // one live engine across edits (it carries the solved state from one document to the
    // next by part name); a new one only to go back to the document's own pose
    if (!this.generic || request.fresh) this.generic = { version: request.version, assembly: null, engine: new LiveEngine({ compile: (doc) => this.compileFreed(doc) }), seq: 0, lastGood: null };
    this.kind = 'assembly';
    this.compiledNow = request.compiled ? { document: freed(request.document), compiled: request.compiled } : null;
    const g = this.generic;
    g.version = request.version;
    const pull = request.pull ? { dragId: request.pull.dragId, part: request.pull.part, point: request.pull.point, target: request.pull.target } : null;
    // a cancelled drag is named by its id (the engine kept its start)
    const frame = g.engine.solve({ seq: ++g.seq, document: freed(request.document), version: request.version, pull, diagnose: pull === null, ...(request.cancelledDrag !== undefined ? { cancelledDrag: request.cancelledDrag } : {}) });
    const assembly = frame.assembly;
    g.assembly = assembly;
    // the last good poses stay across documents: an edit that cannot be solved shows the
    // linkage where it last was, not the solver's failed attempt
    const lastGood = g.lastGood;
    const shown = frame.good ? frame : lastGood ?? frame;
    if (frame.good) { g.lastGood = frame; g.lastGoodVersion = request.version; }
    // the DOF and redundancy of this document's last good state (or of the attempt)
    const result = (frame.good ? frame : lastGood && g.lastGoodVersion === request.version ? lastGood : frame).result;
    const L = g.engine.model?.system.lengthScale ?? 1;
    let message: string | null = null;
    if (!frame.good) message = `the mechanism cannot follow — solver: ${frame.result.message ?? 'constraints do not hold'}`;
    else if (frame.reach && frame.reach.status === 'limited' && frame.reach.remaining > 1e-3 * L) message = `the point follows its path: ${frame.reach.remaining.toPrecision(3)} from the pointer`;
    return {
      seq: request.seq ?? 0,
      version: request.version,
      suspension: false,
      ok: frame.good,
      good: frame.good,
      status: frame.good ? 'solved' : 'failed',
      message,
      failed: frame.good ? [] : [...new Set([...(frame.result.failed ?? []), ...frame.result.conflicting])],
      asked: null,
      iterations: frame.result.iterations,
      maxResidual: frame.result.maxResidual,
      dof: result.dof,
      redundant: result.redundant,
      view: { travel: [], rack: 0 },
      lengthScale: L,
      poses: Object.fromEntries(Object.keys(assembly.parts).map((k) => { const p = shown.poses[k] ?? assembly.parts[k].pose; return [k, [...p.position, ...p.rotation]]; })),
      atDesign: false,
      analysis: null,
      design: null,
      loads: null,
      compliance: null,
      rebuilt: frame.rebuilt,
      ms: { build: frame.rebuilt ? frame.solveMs : 0, solve: frame.solveMs, analysis: 0 },
    };
  }
}

/** The steering hold of a document (a suspension's option; the layout's default otherwise). */
export function holdOf(doc: LiveDocument): string {
  return doc.kind === 'suspension' ? doc.options.hold : 'layout_default';
}

const freedDocs = new WeakMap<object, LiveDocument>();

/**
 * The document as a view drags it: its held coordinates (drivers) free, so that a pull
 * moves the mechanism. Kept per document object (the live engine knows the document by
 * its version).
 */
function freed(doc: LiveDocument): LiveDocument {
  if (doc.kind !== 'assembly' || doc.doc.held.length === 0) return doc;
  let out = freedDocs.get(doc);
  if (!out) {
    out = { kind: 'assembly', doc: { ...doc.doc, held: [] } };
    freedDocs.set(doc, out);
  }
  return out;
}

/** Owner names as a user reads them. */
function userOwner(owner: string): string {
  return owner.replace(/^(hold:|limit:|target:|driver:)/, '');
}

function signed(x: number): string {
  return `${x > 0 ? '+' : ''}${x.toFixed(1)}`;
}

function sameView(a: SuspensionView, b: SuspensionView): boolean {
  return a.rack === b.rack && a.travel.length === b.travel.length && a.travel.every((t, i) => t === b.travel[i]);
}

function describeView(live: SuspensionLiveEngine, view: SuspensionView): string {
  const parts: string[] = [];
  const axle = live.sm.roles.scope === 'axle';
  view.travel.forEach((t, i) => { if (t !== 0) parts.push(`wheel travel ${t > 0 ? '+' : ''}${t.toFixed(1)} mm${axle ? ` (${live.sm.corners[i].roles.side})` : ''}`); });
  if (view.rack !== 0) parts.push(`rack ${view.rack > 0 ? '+' : ''}${view.rack.toFixed(1)} mm`);
  return `the linkage cannot reach ${parts.join(', ') || 'this pose'}`;
}
