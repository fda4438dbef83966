/**
 * A whole vehicle kept between a drag's frames (docs/vehicle.md, "Viewer"): the model is
 * built once per vehicle and each new version of its document — a pickup moved on one or
 * both sides of an axle — is applied to it in place: the vehicle's assembly made again
 * from the edited axle files and the kept kinematic model renewed to its numbers
 * (src/model/build.ts renewModel: the same numbers as a build, without building), the
 * force layer and the contacts laid on it as a build does. The solve then starts from the
 * last good state at rest on the same model, whose saddle-Newton workspace, multipliers and
 * curvature (src/suspension/vehicle/kkt-newton.ts) carry over, and the live roll gradient
 * refines the last frame's curvature instead of taking it afresh (kept-tangent.ts).
 *
 * A document of another shape (another vehicle, a topology change) is built afresh. A
 * version that cannot be solved leaves the last good state: its frame says why, and the
 * next version starts from that state again.
 */
import type { AssemblyDoc } from '../../assembly/types.ts';
import { renewModel } from '../../model/build.ts';
import { SuspensionFileError } from '../../suspension/files/errors.ts';
import { buildVehicle, solveVehicle, vehicleAssembly, type AxleName, type StateResult, type VehicleModel, type VehicleSpec } from '../../suspension/vehicle/index.ts';
import { vehicleSpecOf, type VehicleDocument } from './document.ts';
import { solvedFrame, type VehicleLiveFrame } from './frame.ts';
import { KeptTangent } from './kept-tangent.ts';

const REST = { ax: 0, ay: 0 };

/** Which vehicle a document is (its file and axle files' references): another one is built afresh. */
function vehicleKey(doc: VehicleDocument): string {
  return JSON.stringify([doc.name, doc.text, doc.axles.front.ref, doc.axles.rear.ref]);
}

export class KeptVehicle {
  private model: VehicleModel | null = null;
  private key = '';
  /** The last state solved at rest, on `model` (null: none yet). */
  private good: Float64Array | null = null;
  private readonly tangent = new KeptTangent();
  /** Each axle's own assembly, by the parsed axle file it was made from (the document's, compared by identity). */
  private axles: Partial<Record<AxleName, { source: unknown; doc: AssemblyDoc }>> = {};
  /** How the last frame got its model: renewed in place or built afresh (the tests and the bench read it). */
  lastRoute: 'renewed' | 'built' | null = null;

  /** Refinement steps of the last frame's roll gradient on the solve's saddle system (0: tangent.ts's route). */
  get refinementSteps(): number { return this.tangent.steps; }

  /** The frame of a document's vehicle (never throws for a bad document: the frame says why). */
  frame(doc: VehicleDocument, docKey: number, options: { quick?: boolean } = {}): VehicleLiveFrame {
    const t0 = performance.now();
    let spec: VehicleSpec;
    try {
      spec = vehicleSpecOf(doc);
    } catch (error) {
      this.lastRoute = null;
      if (error instanceof SuspensionFileError || error instanceof Error) return failed(error.message, [], t0);
      throw error;
    }
    const key = vehicleKey(doc);
    let m = key === this.key && this.good ? this.renewed(spec, doc) : null;
    let s: StateResult | null = null;
    if (m && this.good && this.good.length === m.dyn.system.state.length) {
      m.dyn.system.state.set(this.good);
      s = solveVehicle(m, REST);
      this.lastRoute = 'renewed';
    }
    if (!s || s.status !== 'solved') {
      // from the levelled design of a new model, as a first frame
      m = buildVehicle(spec);
      this.axles = {};
      s = solveVehicle(m, REST);
      this.lastRoute = 'built';
      if (s.status === 'solved' || key !== this.key) { this.model = m; this.key = key; this.good = null; }
    }
    if (s.status !== 'solved') return failed(`${s.status}: ${s.message}`, spec.notes, t0);
    const model = m as VehicleModel; // renewed or built above: the one solved
    this.model = model;
    this.key = key;
    const good = model.dyn.system.state.slice();
    this.good = good;
    const d = this.tangent.lateral(model);
    const frame = solvedFrame(model, s, d, docKey, options.quick === true);
    // the slow figures re-solve under other loads: the next frame starts at rest again
    model.dyn.system.state.set(good);
    return { ...frame, notes: spec.notes, ms: performance.now() - t0, restState: good.slice() };
  }

  /** The kept model renewed in place for `spec` (same object: its solver's workspace stays), or null where it cannot be. */
  private renewed(spec: VehicleSpec, doc: VehicleDocument): VehicleModel | null {
    const m = this.model;
    if (!m) return null;
    // the axle a drag did not edit (the same parsed file as last frame's) keeps its assembly
    const last = this.axles, now: typeof last = {};
    const assembled = vehicleAssembly(spec, (axle, make) => {
      const source = doc.axles[axle].geometry, kept = last[axle];
      const made = kept && kept.source === source ? kept.doc : make();
      now[axle] = { source, doc: made };
      return made;
    });
    this.axles = now;
    const old = m.dyn.model;
    let model = null;
    // the holds are the system's and stay; renewModel compares the rest
    try { model = renewModel({ ...old, doc: { ...old.doc, held: [] } }, { ...assembled.doc, held: [] }); } catch { model = null; }
    if (!model) { this.model = null; this.good = null; return null; } // renewModel leaves a model it refused unusable
    Object.assign(m, buildVehicle(spec, assembled, { ...model, doc: assembled.doc }));
    return m;
  }
}

function failed(error: string, notes: string[], t0: number): VehicleLiveFrame {
  return { pose: null, handles: {}, figures: null, error, notes, ms: performance.now() - t0, restState: null };
}
