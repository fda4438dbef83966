/** The live model: documents, edits, the warm engine and the reactive, undoable model over them. */
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
  type LiveModelOptions,
  type LiveSolver,
} from './live-model.ts';
export { simpleSuspensionAnalysis, worldPoint, type CornerReadout, type SimpleAnalysis } from './simple-analysis.ts';
export { suspensionAnalysis, type LiveSuspensionAnalysis } from './suspension-analysis.ts';
export {
  SuspensionLiveEngine,
  drivenSuspension,
  type SolveReport,
  type SuspensionPull,
  type SuspensionPullMode,
  type SuspensionPullOutcome,
  type SuspensionView,
} from './suspension-engine.ts';
