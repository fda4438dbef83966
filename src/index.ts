/**
 * Kinemate as a library: read and write assembly files, build a model, solve it, count
 * its freedom, drive a coordinate. The `kinemate` command (src/cli/) is a thin client of
 * exactly this API.
 *
 * Units, everywhere in this API: lengths in the file's length unit (`units.length`, only
 * `"mm"` for now); angles in degrees, or radians when the file says `units.angle: "rad"`.
 * Poses are `{ position: [x, y, z], rotation: [w, x, y, z] }` in the file's length unit.
 *
 * Failure: only bad input throws: `AssemblyError` for a malformed document, `ModelError`
 * for a coordinate name the model does not have (and a mate the model cannot build),
 * `ArgumentError` for an argument out of range (a step count, a bound that is not finite),
 * and Node's file errors from the file helpers. A model that cannot be solved is not an
 * error: the result says `status: "failed"` and names the mates in conflict.
 *
 * ```ts
 * const doc = await loadAssemblyFile('four-bar.kinemate.json');
 * const result = solveModel(buildModel(doc), { set: { 'jA.angle': 90 } });
 * if (result.status === 'solved') console.log(result.state['jD.angle']);
 * ```
 */
import { ArgumentError } from '../kernel/errors.ts';
import { validateAssembly as validateDoc } from './assembly/load.ts';
import type { AssemblyDoc, PoseDoc } from './assembly/types.ts';
import { buildModel as build, type Model } from './model/build.ts';
import * as operations from './model/operations.ts';
import type { DofResult, DriveOptions, DriveStep, SolveResult, StateJSON } from './model/operations.ts';

// ---- documents and files ----

export { parseAssembly, validateAssembly } from './assembly/load.ts';
export { serializeAssembly } from './assembly/save.ts';
export { AssemblyError } from './assembly/errors.ts';
/** The base of every bad-input error (AssemblyError, ModelError, SuspensionFileError, …): `path`, `reason`. */
export { KinemateError } from '../kernel/errors.ts';
/** `ArgumentError`: a function's argument outside what it takes (a KinemateError); `InternalError`: a fault of ours, not of the input. */
export { ArgumentError, InternalError } from '../kernel/errors.ts';
export type { Vec3Tuple } from '../kernel/vec3.ts';
export { loadAssemblyFile, saveAssemblyFile } from './cli/files.ts';
export {
  ASSEMBLY_FORMAT,
  coordinatesOfMate,
  entityKind,
  type AssemblyDoc,
  type AxisDoc,
  type CircleDoc,
  type CoordinateName,
  type CouplingMateDoc,
  type CurveDoc,
  type EntityKind,
  type FrameDoc,
  type JointMateDoc,
  type LimitsDoc,
  type MateDoc,
  type MateType,
  type PartDoc,
  type PlaneDoc,
  type PoseDoc,
  type QuatDoc,
  type Vec3Doc,
} from './assembly/types.ts';

// ---- models ----

export { ModelError, type Model, type CoordinateInfo } from './model/build.ts';
export type { DofResult, DriveStep, SolveResult, StateJSON };
export type { SolveOptions } from '../kernel/solver/solve.ts';

/** Options of solveModel. */
export type SolveModelOptions = NonNullable<Parameters<typeof operations.solveModel>[1]>;

/** The result of driveModel: one step per requested value, stopping at the first failure. */
export interface DriveResult {
  steps: DriveStep[];
}

/**
 * Builds a solvable model from a checked document (from `parseAssembly`,
 * `validateAssembly` or `loadAssemblyFile`). Part poses come from `state["<part>.pose"]`
 * where given, else from each part's `pose`; coordinates start at their `state` values;
 * `held` coordinates become drivers. The document is not modified; the model holds the
 * moving state, and solveModel / driveModel change it (each starts where the last ended).
 *
 * Throws `ModelError` (message `<path>: <reason>`, e.g. `mates.jB: …`) for a mate the
 * solver cannot build. An unchecked document is outside the contract: validate it first.
 */
export function buildModel(doc: AssemblyDoc): Model {
  return build(doc);
}

/**
 * Solves the model where it stands and returns the command's `solve` JSON: `status`
 * (`"solved"` or `"failed"`), `converged`, `iterations`, `maxResidual` (a length),
 * `dof`, `redundant`, `conflicting`, `atLimit` and `state` (every moving part's pose and
 * every coordinate, in file units).
 *
 * - `set`: coordinate values in file units (degrees unless the file is in radians). On a
 *   held coordinate (the file's `held`, or `hold` here) the solve drives it there in
 *   steps of at most 10°; on a free one the value is only a starting point.
 * - `hold`: more coordinates to keep at their current value (drivers), as `held` does.
 * - `solver`: kernel options (iterations, tolerance); the defaults suit files in mm.
 *
 * Throws `ModelError` (path `--set <coord>` / `--hold <coord>`) for a coordinate the
 * model does not have, before changing anything. A model that cannot be assembled
 * returns `status: "failed"` with `conflicting` naming a minimal set of mates that
 * cannot hold together, `failed` the mates whose rows do not hold, and `state` where
 * the solver stopped.
 */
export function solveModel(model: Model, options: SolveModelOptions = {}): SolveResult {
  return operations.solveModel(model, options);
}

/**
 * Degrees of freedom at the file's pose after solving it: `dof` (the mechanism's total;
 * held coordinates are drivers and do not reduce it: the four-bar has 1 with its crank
 * held), `parts` (per part; 0 for fixed parts), `redundant` (mates whose rows repeat others) and
 * `conflicting` (empty unless the solve failed; then a minimal set of mates in conflict).
 * Never throws for a valid model.
 */
export function dofModel(model: Model): DofResult {
  return operations.dofModel(model);
}

/**
 * Drives `coordinate` from `from` to `to` (file units) in `steps` equal steps: returns
 * `steps + 1` states, the first at `from`. Each step is warm-started from the last and
 * the coordinate is held for the drive (it stays held afterwards). Angles are reported
 * continuously: a joint angle passing 180° goes on to 190°, never jumps by 360°.
 * `value` is the requested value, `from + (to − from) · i / steps` (exactly `from`
 * and `to` at the ends).
 *
 * A drive that cannot go on (a joint limit, a dead point, a branch change) ends with one
 * step of `status: "failed"` at the last state that solves, found by bisection: where a
 * joint limit stops it, exactly at the limit, with the joint in `atLimit`; its `value` is
 * still the value asked for (the state has where it stopped), `failed` the failing
 * mates and `message` why, naming the limit and the coordinate's value there. Fewer than `steps + 1` steps come back. The work of each step
 * is bounded (kernel/continuation.ts), so every drive ends. `onProgress(done, total)` is
 * called after each solved step.
 *
 * Throws `ModelError` for a coordinate the model does not have; `steps` must be a whole
 * number from 0 to MAX_DRIVE_STEPS and `from`/`to` finite (an ArgumentError otherwise).
 */
export function driveModel(
  model: Model,
  coordinate: string,
  from: number,
  to: number,
  steps: number,
  onProgress?: (done: number, total: number) => void,
): DriveResult {
  if (!Number.isSafeInteger(steps) || steps < 0) throw new ArgumentError('steps', `must be a whole number ≥ 0, got ${steps}`);
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new ArgumentError(Number.isFinite(from) ? 'to' : 'from', `must be finite, got ${from} and ${to}`, `from and to must be finite, got ${from} and ${to}`);
  return { steps: [...driveSteps(model, coordinate, from, to, steps, onProgress ? { onProgress } : {})] };
}

/**
 * The states of driveModel one at a time, as each is solved (for long drives: nothing is
 * kept). At most MAX_DRIVE_STEPS steps (an ArgumentError beyond).
 */
export function* driveSteps(model: Model, coordinate: string, from: number, to: number, steps: number, options: DriveOptions = {}): Generator<DriveStep, void, undefined> {
  if (!Number.isSafeInteger(steps) || steps < 0) throw new ArgumentError('steps', `must be a whole number ≥ 0, got ${steps}`);
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw new ArgumentError(Number.isFinite(from) ? 'to' : 'from', `must be finite, got ${from} and ${to}`, `from and to must be finite, got ${from} and ${to}`);
  yield* operations.driveSteps(model, coordinate, from, to, steps, options);
}
export { MAX_DRIVE_STEPS, type DriveOptions } from './model/operations.ts';

/** The model's current state in file units: every moving part's `<part>.pose`, every coordinate. */
export function modelState(model: Model): StateJSON {
  return operations.modelState(model);
}

/**
 * A copy of `doc` with `state` merged into its `state` (e.g. a solve result's `state`),
 * checked like `validateAssembly`: saving it and building a model from it starts where
 * the solve ended. Throws `AssemblyError` for a key that is neither a coordinate of the
 * document nor a part pose, or a non-finite number.
 */
export function withState(doc: AssemblyDoc, state: Readonly<Record<string, number | PoseDoc>>): AssemblyDoc {
  return validateDoc({ ...doc, state: { ...doc.state, ...state } });
}

// ---- Suspension analysis (suspension.md): geometry and sweep files, templates, sweeps ----

/**
 * Suspension files: `parseGeometry(text)` (YAML or JSON, millimetres, ISO 8855; throws
 * SuspensionFileError listing every problem with its path), `parseSweep(text, geometry?)`,
 * `sweepFromShortcut('bump' | 'steer' | 'roll', 'A:B:N')`.
 */
export { parseGeometry, parseSweep, sweepFromShortcut, SuspensionFileError, type Geometry, type SweepSpec } from './suspension/files/index.ts';
/** `suspensionAssembly(geometry)`: the mated assembly (with a `suspension` roles section) a template generates. */
export { suspensionAssembly } from './suspension/build/template.ts';
/**
 * `new SuspensionModel(doc)` on any assembly with a `suspension` section; `runSweep(sm,
 * spec, { hold?, onProgress? })` solves each step from the last and reports positions,
 * metrics (degrees, mm) with exact derivatives and the steering response; a step the
 * linkage cannot reach comes back `failed`, never as NaN. `evaluateState(sm, hold)`
 * evaluates the current solved state the same way.
 */
export { SuspensionModel, type MetricValues } from './suspension/build/model.ts';
export { runSweep, sweepsToCsv, type StepResult, type SweepRun } from './suspension/sweep/sweep.ts';
export { evaluateState, type FullState } from './suspension/metrics/state.ts';
/** Exact hardpoint gradients of suspension metrics, inverse design, design of experiments (docs/sensitivity.md). */
export { SensitivityModel, SensitivityError, sensitivityAt, sensitivitySweep, sensitivitySweepBySide, sensitivityMetricsOf, bumpStates, SENSITIVITY_METRICS, AXLE_SENSITIVITY_METRICS, CORNER_ROLL_CENTRE_METRICS, type MetricGradient, type SensitivityStep, type SideMetrics } from './suspension/gradients/model.ts';
export { curveSensitivity, parseCurveTargets, type CurveQuantity } from './suspension/gradients/curves.ts';
export { LoadSensitivity, LINK_FORCE } from './suspension/gradients/loads.ts';
export { AxleLoadGradients } from './suspension/gradients/axle-loads.ts';
export { fit, parseFitSpec, fittedGeometryText, type FitSpec, type FitTarget, type FitReport, type FitProgress, type FitOptions } from './suspension/design/fit.ts';
export { parseDoe, doeVariants, doeVariantSource, variantRows, variantGeometry, variantFileText, type DoeSpec } from './suspension/design/batch.ts';
export { runBatch, type BatchOptions } from './suspension/design/batch-pool.ts';
export { steeringResponse, type SteeringResponse, type SteeringAxis } from './suspension/metrics/steering.ts';

// ---- The live model (edits, undo/redo, drags, reactive re-solve) ----

/**
 * `new LiveModel(document, { analyze })`: edits as recipes with undo/redo (one entry per
 * gesture), drags (`beginDrag` / `dragTo` / `endDrag`), solves at most once per frame
 * with the latest value, one in flight; `state$`, `analysis$`, `errors$`; a failed solve
 * never replaces the last good state. `suspensionAnalysis(hold)` is the analysis hook
 * for suspension documents.
 */
export { LiveModel, readSuspensionDocument, suspensionDocument, suspensionAnalysis } from './live/index.ts';

// ---- Pictures ----
// Charts (SVG), the report page (HTML) and animated glTF (.glb) are a separate entry,
// src/pictures/index.ts, so that importing the solver does not load their libraries.
// ---- Mass and forces (docs/dynamics.md): statics, equilibrium, vibration modes ----

/**
 * `buildDynamics(doc | model)`: the model plus masses (t, t·mm²), gravity and the file's
 * force elements as one kernel ForceSet — `{ model, system, forces, bodies: { part,
 * variable, body, M }[], elements: { id, type, block, index }[], gravity }`, the builder
 * statics, equilibrium, modes and the time integrator share.
 */
export { buildDynamics, forceBlockOf, type DynamicsModel, type DynamicBody, type ForceElement } from './mechanics/build.ts';
/** `statics(dyn, { set })`: solve the pose, then every mate's, driver's and element's load (see the `statics` command). */
export { statics, reactionsHere, type StaticsResult, type Wrench } from './mechanics/statics.ts';
/** `equilibrium(dyn, { set })`: the pose where the forces balance, held coordinates kept (see the `equilibrium` command). */
export { equilibrium, type EquilibriumResult, type EquilibriumOptions } from './mechanics/equilibrium.ts';
/** `modes(dyn, { set })`: natural frequencies (Hz), damping ratios and shapes about the equilibrium, lowest first (see the `modes` command). */
export { modes, type ModesResult, type Mode } from './mechanics/modes.ts';
/** `suspensionRates(dyn, wheelPoint, { spring, tyreRate })`: motion ratio (exact, by the tangent), wheel rate and ride rate of a one-DOF mechanism. */
export { suspensionRates, type Rates } from './suspension/loads/rates.ts';
/** `axleRates(dyn, [left, right], { tyreRate })`: an axle's wheel stiffness matrix, heave and roll wheel rates, roll stiffness, motion ratios (docs/dynamics.md). */
export { axleRates, type AxleRates } from './suspension/loads/axle-rates.ts';
/** Loads at every sweep state (`kinemate sweep --loads`): a load case at the contact centres → link forces, joint wrenches, rack force. */
export { SweepLoads, parseLoadCase, contactLoad, type LoadCase, type WheelLoad, type StateLoads } from './suspension/loads/loads.ts';
/**
 * `simulate(doc or dyn, { duration, step, method, rhoInf, every })`: the time response (see the
 * `simulate` command): frames with state, velocities, energy (J), reactions, drivers, forces;
 * `simulateFrames` gives the same frames as an rxjs Observable; `prepareSimulation` a steppable run.
 */
export { simulate, simulateFrames, prepareSimulation, readMotions, type SimulateOptions, type SimulationFrame, type SimulationResult, type SimulationEvent, type Simulation } from './mechanics/simulate.ts';
export { Integrator, IntegratorError, type IntegratorMethod, type IntegratorOptions, type EnergyBudget } from '../kernel/integrator/integrator.ts';
/**
 * `simulationGradient(doc, parameters, result, { duration, step })`: d(result)/d(parameter) of a run, exact for the
 * discrete integrator (forward sensitivity of each step; `simulationGradientAdjoint`, same arguments: one backward
 * sweep, the discrete adjoint; docs/sensitivity.md). Names: `parseParameter('spring.stiffness')`,
 * `parseResult('body.nose.position.x@cross=12800')`; hardpoints `parseParameter('body.frontAxle.x')`. Several results from
 * one run: `simulationGradients(doc, parameters, results, options, method?)`.
 */
export { simulationGradient, simulationGradientAdjoint, simulationGradients, parseParameter, parseResult, DynamicSensitivityError, type DynamicParameter, type DynamicResult, type DynamicGradient, type DynamicGradients, type GradientOptions } from './gradients/run.ts';
/** The same for a suspension geometry file's own numbers (hardpoints, spring, dynamics section): docs/sensitivity.md. */
export { geometrySimulationGradients, geometryParameter, geometryParameterNames, movedGeometrySource, parseGeometryResult, type GeometrySource, type GeometryResult } from './suspension/gradients/simulation/geometry.ts';
/**
 * Suspension dynamics from a geometry file's `dynamics` section (docs/dynamics.md): `readSuspensionDynamics(raw, geometry)`,
 * `prepareSuspensionDynamics(geometry, spec)` (the assembly, settled on the road), `simulateSuspension(model, options)`
 * (simulate's frames, each with a `suspension` view: wheel travel, camber, toe, element travel, link and tyre forces).
 */
export {
  readSuspensionDynamics, suspensionDynamicsAssembly, prepareSuspensionDynamics, simulateSuspension, suspensionFrame,
  type SuspensionDynamicsSpec, type SuspensionDynamicsModel, type SuspensionFrame, type SuspensionSimulationFrame, type SuspensionSimulationResult,
} from './suspension/dynamics/model.ts';
/** An ISO 8608 random road of a class A–H, seed and length as a road table [[x m | t s, mm], …] (docs/dynamics.md). */
export {
  iso8608Road, iso8608Components, iso8608Psd, iso8608Gd0, ISO8608_CLASSES, ISO8608_BAND, ISO8608_N0,
  type Iso8608Class, type Iso8608Options, type Iso8608Components,
} from './suspension/dynamics/iso8608.ts';
// ---- Continuation (kernel/continuation.ts): one way to move a system's driven values ----

/**
 * `new Continuation(system, setValues, values, { correct?, secant?, branchGuard? })`, then
 * `moveTo(targets, { subSteps?, predicted? })` → `{ status: 'reached' | 'limit' | 'failed',
 * report, failure?, values, fraction, solves, iterations, message? }`: sub-steps predicted
 * by the secant and corrected, halved on failure, bisected to a joint limit, with bounded
 * work (MAX_SUBSTEPS + MAX_EXTRA_SOLVES solves per move). drive, solve --set, the sweep
 * and the live engine all move through it.
 */
export {
  Continuation, MAX_EXTRA_SOLVES, MAX_SUBSTEPS, secantRatio, secantStep,
  type ContinuationOptions, type MoveOptions, type MoveResult, type MoveStatus,
} from '../kernel/continuation.ts';

// ---- What the viewer uses (viewer/ imports this file only: test/viewer/imports.test.ts) ----

/** The document's types and edits as recipes (`src/assembly`), the undo history and the solve scheduling (`src/reactive`). */
export { ENTITY_GROUPS, isCoupling, splitReference, mateTypesJoining, type ConstraintType, type EntityGroup, type JointType } from './assembly/index.ts';
export { addMate, addPart, combine, removeMate, removePart, setPartPose, setSuspension, type AssemblyRecipe } from './assembly/edits.ts';
export { History, EditRefused, type SolveOutcome } from './reactive/index.ts';
/** The live model's documents, requests and the view engine a page's pose worker runs (src/live). */
export {
  LiveViewEngine, assemblyDocument, compileDocument, documentProblem, drivenSuspension, flatMetrics, hardpointPosition, holdOf, isDocumentError, liveEdits,
  type CompiledDocument, type LiveDocument, type LiveLane, type LiveRecipe, type LiveRequest, type LiveSuspensionAnalysis, type LiveViewFrame, type LiveViewRequest, type LiveViewSettings,
} from './live/index.ts';
/** Suspension files checked, roles, the steering holds and the points the metrics read. */
export { parseText, sweepValues, validateGeometry, validateSweep } from './suspension/files/index.ts';
export { RolesError, validateRoles, type PointRole, type SuspensionRoles } from './suspension/build/roles.ts';
export { holdCatalogue } from './suspension/metrics/steering.ts';
export type { PointExpr } from './suspension/build/targets.ts';
export type { EnergyJSON } from './mechanics/simulate.ts';
/** What a page draws of the live model, without the DOM (src/live/view: the pose worker's presenter, the plots' sweep, the scene's structure, arrows, playback, assemble mode, fit). */
export * from './live/view/index.ts';
export {
  readVehicleFile, buildVehicle, vehicleAssembly, staticAnalysis, accelerationSweep, solveVehicle, vehicleState, stateDerivative,
  accelerationDirection, vehicleCsv, applyAcceleration, VehicleInputError, CORNERS,
  type VehicleSpec, type VehicleModel, type VehicleState, type StateResult, type SweepStep, type LateralSummary, type LongitudinalSummary, type CornerName,
} from './suspension/vehicle/index.ts';
/** The whole vehicle's modes and runs over a road (docs/vehicle-dynamics.md): a simulation for playback is prepareVehicleSimulation then simulateVehicle. */
export { vehicleModes, type VehicleMode, type VehicleModesResult } from './suspension/vehicle/modes.ts';
export { readVehicleRun, type VehicleRun, type RoadLaw, type SteerStep } from './suspension/vehicle/road.ts';
export {
  prepareVehicleSimulation, simulateVehicle, vehicleFrame,
  type VehicleSimulationModel, type VehicleSimulationFrame, type VehicleSimulationResult, type VehicleFrameView,
} from './suspension/vehicle/simulate.ts';
/** A whole vehicle in a page: its document and frames (src/live/vehicle; docs/vehicle.md, "Viewer"). */
export {
  readVehicleDocument, vehicleSpecOf, moveVehicleHardpoint, vehicleHardpointPosition, axleIsSymmetric, looksLikeVehicleFile, vehicleLiveFrame, UNDERSTEER_RADIUS, KeptVehicle,
  vehiclePickupRates, fitVehicleDocument, vehicleRateNames, vehicleRates, moveVehicleRate, targetOutcome, VEHICLE_DESIGN_METRICS, VEHICLE_DESIGN_GROUPS, vehicleMetricUnit, vehicleMetricGradients, type VehicleMetricGradients, type VehiclePickupRate, type VehiclePickupRates, type VehicleRateGradient, type VehicleRate, type VehicleFitRequest, type VehicleFitTargetRequest, type VehicleTargetOutcome, type VehicleDocumentFit,
  type VehicleDocument, type VehicleAxleSource, type VehicleHardpoint, type VehicleLiveFrame, type VehicleFigures, type VehicleCornerFigures, type VehicleLiveFrameOptions,
} from './live/vehicle/index.ts';
/** A vehicle run played back in a page (docs/vehicle.md, "Viewer"). */
export {
  runVehicleSimulation, vehicleRunOf, VEHICLE_RUN_DEFAULTS, DEFAULT_VEHICLE_ROAD, type VehiclePlaybackFrame, type VehicleRunMessage,
} from './live/vehicle/index.ts';

// ---- part geometry, clearance and envelopes (docs/geometry.md) ----

export {
  GeometryError, GEOMETRY_UNITS, geometryFormat, readMeshBytes, placeMesh, checkMesh, fileSource, loadGeometryEntry, loadPartGeometry,
  loadDocumentGeometry, clearGeometryCache, mergeMeshes, faceOfTriangle, triangleCount, vertexCount, meshToStl, meshToGlb,
  type PartMesh, type MeshFace, type MeshEdge, type GeometryDoc, type GeometryFrameDoc, type GeometryUnit, type GeometryFormat,
  type GeometrySource as GeometryFileSource, type DocumentGeometry,
} from './assembly/geometry/index.ts';
export { ClearanceBody, pairClearance, isInside, TOUCH_TOLERANCE, type PairClearance, type PoseArray } from './assembly/geometry/clearance.ts';
export { ClearanceSet, unjoinedPairs, parsePairs, pairKey, summarize, type Pair, type PairSummary } from './assembly/geometry/clearance-set.ts';
export { isClosedMesh } from './assembly/geometry/closed.ts';
export { sweptEnvelope, type Envelope, type EnvelopeOptions } from './assembly/geometry/envelope.ts';
export { joinedPartPairs, partPoses, driveClearance, type DriveClearanceState } from './mechanics/clearance.ts';
export { suspensionBodies, type SuspensionBodies } from './suspension/clearance/bodies.ts';
export { gridSweep, parseGrid, type GridSweep, type GridState } from './suspension/clearance/grid.ts';
export { sweepClearance, type SweepClearanceState } from './suspension/clearance/sweep.ts';
export { suspensionEnvelope, type SuspensionEnvelope } from './suspension/clearance/envelope.ts';

// ---- picking on part geometry (docs/picking.md) ----

/** What a click on a part's mesh picks, and the edit that adds it to the document. */
export {
  entityFromPick, PickIndex, pickIndexOf, addPickedEntity, pickedEntityName, pickedNames, canonicalDirection,
  DEFAULT_SMOOTH_ANGLE_DEG, type PickMesh, type PickOptions, type PickResult, type PickedEntity, type PickedFeature,
} from './assembly/geometry/pick/index.ts';
/** The viewer reads geometry files by their extension and tells the STEP reader where its WebAssembly is served. */
export { formatOf } from './assembly/geometry/index.ts';
export { setOcctWasmUrl } from './assembly/geometry/occt.ts';

