/**
 * Settled per-state figures of two checkouts in one process, for A/B work on the suspension
 * state path: both trees' modules are loaded side by side (separate module instances, so
 * separate compiled code), each warmed until V8 has settled, then timed in alternating
 * rounds by this process's CPU time. One process shares the machine's load between the two,
 * which separate bench runs on a busy machine do not.
 *
 * Usage: npx tsx scripts/state-ab.ts CASE DIR_A DIR_B
 *   CASE: sens — the DW corner's adjoint sensitivity at +20 mm bump (ms per call), or
 *         sweep[:EXAMPLE:KIND:A:B:N] — a sweep (ms per state; default double_wishbone:bump:-50:50:100)
 * Prints the median and first quartile of 20 rounds per side.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const [kind, dirA, dirB] = process.argv.slice(2);
if (!kind || !dirA || !dirB) { console.error('usage: npx tsx scripts/state-ab.ts sens|sweep[:EXAMPLE:KIND:A:B:N] DIR_A DIR_B'); process.exit(1); }

/** One round of the case from checkout `root` (100 calls or one sweep) and its count of states. */
async function caseOf(root: string): Promise<{ round: () => void; states: number }> {
  const { parseGeometry, sweepFromShortcut } = await import(`${root}/src/suspension/files/index.ts`);
  if (kind === 'sens') {
    const { SensitivityModel, gradientsAtFirstState } = await import(`${root}/src/suspension/gradients/model.ts`);
    const model = new SensitivityModel(parseGeometry(readFileSync(`${root}/examples/suspension/double_wishbone.yaml`, 'utf8')));
    const here = gradientsAtFirstState(model, sweepFromShortcut('bump', '20:20:1'));
    return { round: () => { for (let i = 0; i < 100; i++) here('adjoint'); }, states: 100 };
  }
  const { validateAssembly } = await import(`${root}/src/assembly/index.ts`);
  const { suspensionAssembly } = await import(`${root}/src/suspension/build/template.ts`);
  const { SuspensionModel } = await import(`${root}/src/suspension/build/model.ts`);
  const { runSweep } = await import(`${root}/src/suspension/sweep/sweep.ts`);
  const [, example = 'double_wishbone', sweepKind = 'bump', ...range] = kind.split(':');
  const sm = new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`${root}/examples/suspension/${example}.yaml`, 'utf8')))));
  const spec = sweepFromShortcut(sweepKind, range.length ? range.join(':') : '-50:50:100');
  return { round: () => { runSweep(sm, spec); }, states: spec.steps };
}

const a = await caseOf(resolve(dirA)), b = await caseOf(resolve(dirB));
// warm-up: 50 rounds each, interleaved (V8 settles after ~30 on the DW corner)
for (let i = 0; i < 50; i++) { a.round(); b.round(); }
const cpuMs = (c: { round: () => void; states: number }) => {
  const t0 = process.cpuUsage();
  c.round();
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000 / c.states;
};
const ta: number[] = [], tb: number[] = [];
for (let r = 0; r < 40; r++) {
  if (r % 2) { ta.push(cpuMs(a)); tb.push(cpuMs(b)); } else { tb.push(cpuMs(b)); ta.push(cpuMs(a)); }
}
const at = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * q)].toFixed(4);
console.log(`${kind}: A median ${at(ta, 0.5)} q1 ${at(ta, 0.25)} | B median ${at(tb, 0.5)} q1 ${at(tb, 0.25)} (CPU ms per state)`);
