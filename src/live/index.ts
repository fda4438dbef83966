/** The live model: documents, edits, the warm engine and the reactive, undoable model over them. */
export { KinemateError } from '../../kernel/errors';
export {
  LiveEditError,
  STEERING_COORDINATE,
  assemblyDocument,
  buildDocument,
  compileDocument,
  documentProblem,
  findHardpoint,
  hardpointPosition,
  isDocumentError,
  liveEdits,
  readSuspensionDocument,
  suspensionDocument,
  type AssemblyLiveDocument,
  type CompiledDocument,
  type GeometryJson,
  type HardpointLocation,
  type LiveDocument,
  type LiveRecipe,
  type SuspensionLiveDocument,
  type SuspensionOptions,
} from './document.ts';
export {
  LiveEngine,
  PULL_MAX_SUBSTEPS,
  PULL_SUBSTEP,
  PULL_TOLERANCE,
  REACH_TOLERANCE,
  liveTolerance,
  plainFrame,
  type Analyze,
  type LiveEngineOptions,
  type LiveFrame,
  type PullRequest,
  type ReachReport,
  type SolveRequest,
  type WarmState,
} from './engine.ts';
export {
  LiveModel,
  type DragSpec,
  type EditResult,
  type LiveAnalysis,
  type LiveError,
  type LiveFrameCore,
  type LiveLane,
  type LiveModelOptions,
  type LiveRequest,
  type LiveSolver,
  type PullStrategy,
} from './live-model.ts';
export { simpleSuspensionAnalysis, worldPoint, type CornerReadout, type SimpleAnalysis } from './simple-analysis.ts';
export { analyseSuspension, flatMetrics, suspensionAnalysis, type LiveSuspensionAnalysis } from './suspension-analysis.ts';
export { LoadsAtPose } from './loads-at-pose.ts';
export { LiveViewEngine, holdOf, type LiveViewFrame, type LiveViewRequest } from './view-engine.ts';
export {
  SuspensionLiveEngine,
  drivenSuspension,
  type SolveReport,
  type SuspensionPull,
  type SuspensionPullMode,
  type SuspensionPullOutcome,
  type SuspensionView,
} from './suspension-engine.ts';
