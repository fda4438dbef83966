/**
 * The work of `kinemate sweep` (parsed in ./sweep.ts): files read, sweeps run, output
 * written. The analysis (src/suspension/) never imports this module.
 *
 * `kinemate sweep GEOMETRY [--sweep SWEEP] [--bump A:B:N] [--steer A:B:N] [--roll A:B:N]
 *  [--hold ID] [--loads FILE] [--format json|csv] [--out FILE]`
 *
 * GEOMETRY is a suspension geometry file (YAML or JSON) or any `*.kinemate.json` assembly
 * with a `suspension` section. With no sweep given, a bump of −50…50 mm in 11 steps runs.
 * Exit codes: 0 done, 1 bad input, 2 some step failed.
 */
import { open, writeFile } from './fs-lazy.ts';
import { KinemateError } from '../../kernel/errors.ts';
import { readTextFile } from './files.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import type { CliIO } from './io.ts';
import { progressLine } from './progress.ts';
import { parseAssembly } from '../assembly/load.ts';
import type { AssemblyDoc } from '../assembly/types.ts';
import { parseGeometry, parseSweep, sweepFromShortcut, type SweepSpec, type Geometry } from '../suspension/files/index.ts';
import { suspensionAssembly } from '../suspension/build/template.ts';
import { SuspensionModel } from '../suspension/build/model.ts';
import { runSweep, sweepsToCsv, type SweepRun } from '../suspension/sweep/sweep.ts';
import { contactLoad, parseLoadCase, SweepLoads, type StateLoads } from '../suspension/loads/loads.ts';
import { CompliantState } from '../suspension/compliance/state.ts';

/** The parsed `kinemate sweep` command line, handed to `runSweepCommand`. */
export interface SweepArgs {
  /** GEOMETRY, the path as given (a suspension geometry file, or an assembly). */
  readonly geometry: string;
  /** `--sweep SWEEP`: a sweep file path, as given. */
  readonly sweep?: string;
  /** `--bump A:B:N`, unparsed (see `sweepFromShortcut` in src/suspension/files). */
  readonly bump?: string;
  /** `--steer A:B:N`, unparsed. */
  readonly steer?: string;
  /** `--roll A:B:N`, unparsed. */
  readonly roll?: string;
  /** `--hold ID`. */
  readonly hold?: string;
  /** `--loads FILE`: a load case at the contact centres; each step then carries `loads` (JSON output only). */
  readonly loads?: string;
  /** `--format`, default `json`. */
  readonly format: 'json' | 'csv';
  /** `--out FILE`: write the result there instead of stdout. */
  readonly out?: string;
  /**
   * Standard output and error. Write results with `io.out` (it resolves once flushed);
   * draw a progress bar on `io.err` only when `io.stderrIsTTY`. Return the exit code:
   * 0 done, 1 bad input (or throw an Error whose message names the problem: it is
   * printed as one `kinemate: <message>` line), 2 a step failed.
   */
  readonly io: CliIO;
}

/** Load GEOMETRY: an assembly with a suspension section, or a geometry file. */
export async function loadSuspension(path: string): Promise<{ doc: AssemblyDoc; geometry: Geometry | null }> {
  const text = await readTextFile(path, 'geometry');
  const looksLikeAssembly = /"format"\s*:\s*"kinemate\.assembly\//.test(text);
  if (looksLikeAssembly) {
    const doc = parseAssembly(text);
    if (doc.suspension === undefined) throw new KinemateError('suspension', 'this assembly has no suspension section', `${path}: suspension: this assembly has no suspension section`);
    return { doc, geometry: null };
  }
  const geometry = parseGeometry(text, path);
  return { doc: suspensionAssembly(geometry), geometry };
}

/** The sweeps a command line asks for: `--sweep FILE`, then `--bump`, `--steer`, `--roll`; a −50…50 mm bump in 11 steps when none. */
export async function sweepSpecsOf(args: Pick<SweepArgs, 'sweep' | 'bump' | 'steer' | 'roll'>, geometry: Geometry | null): Promise<[string, SweepSpec][]> {
  const specs: [string, SweepSpec][] = [];
  if (args.sweep) {
    const text = await readTextFile(args.sweep, 'sweep');
    specs.push(['sweep', parseSweep(text, geometry ?? undefined, args.sweep)]);
  }
  for (const kind of ['bump', 'steer', 'roll'] as const) {
    const value = args[kind];
    if (value !== undefined) specs.push([kind, sweepFromShortcut(kind, value, geometry ?? undefined)]);
  }
  if (specs.length === 0) specs.push(['bump', sweepFromShortcut('bump', '-50:50:11', geometry ?? undefined)]);
  return specs;
}

/** Refuses a `--hold` the suspension does not have, listing the ones it has. */
export function checkHold(sm: SuspensionModel, hold: string | undefined): void {
  if (!hold) return;
  for (let i = 0; i < sm.corners.length; i++) {
    if (hold !== 'layout_default' && !Array.isArray(sm.corners[i].roles.holds[hold])) {
      const known = Object.keys(sm.corners[i].roles.holds).filter((k) => k !== 'default');
      throw new KinemateError('--hold', `no hold "${hold}" for this suspension (holds: ${known.join(', ') || 'none'})`);
    }
  }
}

export async function runSweepCommand(args: SweepArgs): Promise<number> {
  refuseOverwritingInputs('sweep', '--out', args.out, [['geometry', args.geometry], ['sweep', args.sweep], ['loads', args.loads]]);
  const { doc, geometry } = await loadSuspension(args.geometry);
  const specs = await sweepSpecsOf(args, geometry);
  const sm = new SuspensionModel(doc);
  checkHold(sm, args.hold);
  let loads: { evaluate: () => StateLoads } | null = null;
  const loadCase = args.loads ? parseLoadCase(await readTextFile(args.loads, 'loads'), sm.corners.map((c) => c.roles.side), args.loads) : null;
  if (args.loads && args.format === 'csv') throw new KinemateError('--loads', 'the loads are nested per step; use --format json');
  // a compliant suspension settles at every step under the loads (none without --loads), placed at the step's
  // unloaded equilibrium as kc places them (state.ts settlePlaced): docs/compliance.md
  const compliant = sm.roles.compliance ? new CompliantState(sm) : null;
  if (compliant && loadCase) compliant.setLoadCase(loadCase, contactLoad);
  if (compliant && loadCase) loads = { evaluate: () => compliant.loads() };
  else if (loadCase) loads = new SweepLoads(sm, loadCase);
  const sweeps: Record<string, SweepRun> = {};
  const total = specs.reduce((s, [, spec]) => s + spec.steps, 0);
  let done = 0;
  const progress = args.io.stderrIsTTY ? progressLine(args.io, 'sweep') : undefined;
  for (const [name, spec] of specs) {
    sweeps[name] = runSweep(sm, spec, {
      ...(args.hold ? { hold: args.hold } : {}),
      ...(compliant ? { settle: () => compliant.settlePlaced(), noSteering: true } : {}),
      ...(loads ? { onSolvedState: (step: SweepRun['steps'][number]) => { step.loads = loads.evaluate(); } } : {}),
      ...(progress ? { onProgress: (k: number) => progress.update(done + k, total) } : {}),
    });
    done += spec.steps;
  }
  await progress?.clear();
  // what a setup (camber or length shims) changed at design, per corner: the numbers below are of the set-up suspension
  const setup = geometry?.corners.some((c) => c.setup_change) ? Object.fromEntries(geometry.corners.filter((c) => c.setup_change).map((c) => [c.side, c.setup_change])) : undefined;
  if (args.format === 'csv') {
    const output = sweepsToCsv(sweeps);
    if (args.out) await writeFile(args.out, output);
    else await args.io.out(output);
  } else {
    // Written in chunks of steps: a long sweep is never built as one string.
    const file = args.out ? await open(args.out, 'w') : null;
    try {
      for (const chunk of sweepJsonChunks(sm.roles.scope, sweeps, setup ? { setup_change: setup } : {})) {
        if (file) await file.write(chunk);
        else await args.io.out(chunk);
      }
    } finally {
      await file?.close();
    }
  }
  const failed = Object.values(sweeps).some((r) => r.steps.some((s) => s.status === 'failed'));
  return failed ? 2 : 0;
}

/**
 * The text of `JSON.stringify({ scope, ...extra, sweeps }, null, 2) + '\n'`, in chunks of
 * about 64 KB (whole steps), so that the largest sweep allowed never becomes one string.
 */
export function* sweepJsonChunks(scope: string, sweeps: Readonly<Record<string, SweepRun>>, extra: Readonly<Record<string, unknown>> = {}): Generator<string, void, undefined> {
  const names = Object.keys(sweeps);
  let chunk = `{\n  "scope": ${JSON.stringify(scope)},`;
  for (const [key, value] of Object.entries(extra)) chunk += `\n  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replaceAll('\n', '\n  ')},`;
  chunk += `\n  "sweeps": {${names.length === 0 ? '}' : ''}`;
  for (let i = 0; i < names.length; i++) {
    const steps = sweeps[names[i]].steps;
    chunk += `${i > 0 ? ',' : ''}\n    ${JSON.stringify(names[i])}: {\n      "steps": [${steps.length === 0 ? ']' : ''}`;
    for (let k = 0; k < steps.length; k++) {
      chunk += `${k > 0 ? ',' : ''}\n${stepAtDepth4(steps[k])}`;
      if (chunk.length > 1 << 16) {
        yield chunk;
        chunk = '';
      }
    }
    chunk += `${steps.length > 0 ? '\n      ]' : ''}\n    }`;
  }
  yield `${chunk}${names.length > 0 ? '\n  }' : ''}\n}\n`;
}

/**
 * A step's JSON as it stands in the document, four levels deep (8 spaces before each line):
 * stringified inside four arrays and cut out of them, so that the one pass that writes it
 * indents it. Indenting `JSON.stringify(step, null, 2)` afterwards took a second pass and a
 * second copy of the text: ~1.6× the CPU time for a 101-step sweep in a cold process.
 */
function stepAtDepth4(step: SweepRun['steps'][number]): string {
  const text = JSON.stringify([[[[step]]]], null, 2);
  // '[\n  [\n    [\n      [\n' before, '\n      ]\n    ]\n  ]\n]' after: 20 characters each
  return text.slice(20, text.length - 20);
}
