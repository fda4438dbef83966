import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The long runs `npm run test:fast` leaves out (`npm test` and CI run them): the live model's
 * soak, the pinewood car's finish-time gradient against central differences at two step
 * sizes (20 s of a 2-core machine's CPU for three tests, whose scheme the other gradient files
 * check on shorter runs), and the simulation gradients over hardpoints against whole re-runs
 * at two step sizes (28 s; the adjoint and direct routes themselves are checked by
 * gradient.test.ts and adjoint.test.ts, which test:fast keeps), and a whole car's run gradients
 * against re-run cars (9 s; the routes are the ones gradient.test.ts checks).
 */
const SOAK = [
  'test/live/soak.test.ts', 'test/gradients/pinewood.test.ts', 'test/gradients/hardpoints.test.ts',
  'test/suspension/vehicle/run-gradients.test.ts',
];
/**
 * End-to-end runs of the package and the browser: the viewer, and the report's page and a
 * plot's SVG, in Chromium (BROWSER: one Chromium a run, test/setup/viewer-server.ts), the multi-process CLI runs
 * on a real Redis and the packed package installed in a bare project (its build and install)
 * (PROCESSES).
 */
const PROCESSES = ['test/e2e/queue.test.ts', 'test/package/pack.test.ts'];
const BROWSER = ['test/e2e/**/*.test.ts', 'test/pictures/report-chromium.test.ts'];
const E2E = [...BROWSER, ...PROCESSES];
/**
 * Files that measure what V8 does with the code (bytes allocated a call): each in a worker of its
 * own, since in the unit project's shared workers the type feedback other files leave in the
 * same functions (other element kinds, other classes) changes what is boxed (48 bytes a round
 * in a full run against 0–3 alone).
 */
const ISOLATED = ['test/mates/values-allocation.test.ts', 'test/kernel/integrator/step-deopt.test.ts'];
/**
 * Gradient files whose runs are checked at two integrator steps: `npm run test:fast` checks them
 * at the coarser (the unit project), the fine-steps project at the finer (test/gradients/steps.ts),
 * so a full run checks both. The finer step's runs are two thirds of those tests' CPU (the
 * fine-steps project alone: 14 s of its workers' CPU, load ~13).
 */
const FINE_STEPS = ['gradient', 'coefficients', 'tension', 'redundant', 'start', 'start-motion', 'force-results', 'free-start', 'reaction-results'].map((f) => `test/gradients/${f}.test.ts`)
  // the geometry files' simulation gradients: 5e-3 s in test:fast, 2.5e-3 s here (a third of their CPU)
  .concat(['axes', 'frames', 'geometry', 'lumps', 'results', 'settled-moving'].map((f) => `test/suspension/gradients/simulation/${f}.test.ts`));

export default defineConfig({
  test: {
    setupFiles: ['test/setup/fast-check.ts'],
    // the package's command built once per change of the sources, for the tests that spawn it
    globalSetup: ['test/setup/built-command.ts'],
    testTimeout: 60_000,
    pool: 'threads',
    // Vitest runs one worker fewer than the cores by default: on a 2-core machine, one, and
    // the suite's CPU-bound files then take turns on one core while the other idles (the
    // main thread only collects results). One worker per core, at least two.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        // A worker's files share its module graph rather than each importing src/ afresh: that
        // import was half the CPU of the light files (31 suspension files: 32 s → 16.5 s). No test
        // keeps state in a module between files (spies are restored after each test; src/'s
        // module-level caches are memos), so each file still sees what a fresh import would.
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...E2E, ...SOAK, ...ISOLATED], isolate: false },
      },
      {
        extends: true,
        // fresh module state and type feedback per file (isolate is vitest's default)
        test: { name: 'isolated', include: ISOLATED },
      },
      {
        extends: true,
        // the gradient files again at the finer step (their tests without a step of their own skipped),
        // sharing a worker's module graph as in the unit project, which runs the same files so: a fresh
        // import of src/ per file was most of the project's CPU (76 → 47 s for its 15 files, load ~12)
        test: { name: 'fine-steps', include: FINE_STEPS, env: { KINEMATE_GRADIENT_STEPS: 'fine' }, isolate: false },
      },
      {
        extends: true,
        // the long runs: their own project, so `npm run test:fast` (`--project unit`) leaves
        // them out (a command-line --exclude does not reach into the projects)
        test: { name: 'soak', include: SOAK },
      },
      {
        extends: true,
        // the browser runs; the viewer built once for all of them and one Chromium they connect to
        // (test/setup/viewer-server.ts; a global setup runs only where its project
        // has files to run). A worker's files share its module graph (playwright-core, src/ for the
        // files that compare with the library): no file keeps state in a module, each opens its own
        // pages (5 browser files 51.0 → 43.9 s of CPU, load ~23)
        test: { name: 'e2e', include: BROWSER, exclude: PROCESSES, globalSetup: ['test/setup/viewer-server.ts'], isolate: false },
      },
      {
        extends: true,
        // the multi-process CLI runs and the packed package: each file in a fresh context (sharing a
        // worker's module graph, as the other projects do, measured nothing: 104.8 → 107.4 s of CPU
        // for soak and processes together, load ~13; their six files' work dwarfs the imports)
        test: { name: 'processes', include: PROCESSES },
      },
    ],
  },
});
