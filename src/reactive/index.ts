/** The reactive graph's building blocks: undo/redo history and solve scheduling. */

export {
  History,
  EditRefused,
  HistoryStateError,
  type Recipe,
  type Validator,
  type HistoryEntry,
  type HistoryChange,
  type HistoryChangeKind,
  type HistoryOptions,
} from './history.ts';
export {
  latestPerFrame,
  defaultFrameScheduler,
  solveLatest,
  lastGood,
  type SolveOutcome,
  type SolveFunction,
  type WithLastGood,
} from './scheduler.ts';
