/**
 * The audit of steps accepted without their check (kernel/integrator/unchecked.ts): runs an
 * example's simulation and, after every step that took one evaluation, evaluates the check
 * anyway (rows, forces, dynamic residual at the step's end; it changes no state the next
 * step reads) and reports the largest error over the bounds (|Φ| over 1e-10 × the model's
 * size, the residual over 1e-9 of the force scale) and how many would have failed (> 1).
 * Any change to where Newton stops should leave this clean on every example, both groups:
 *
 *   npx tsx scripts/unchecked-audit.ts EXAMPLE.kinemate.json [STEPS] [--group SE3|R3xSO3] [--repo DIR]
 *
 * h = 1 ms; STEPS default 3000. Reads the integrator's private parts by name (a tool, not API).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const repo = resolve(option('--repo', '.'));
const group = option('--group', 'R3xSO3');
const file = args.find((a) => a.endsWith('.json'));
if (!file) { console.error('usage: npx tsx scripts/unchecked-audit.ts EXAMPLE.kinemate.json [STEPS] [--group SE3|R3xSO3] [--repo DIR]'); process.exit(1); }
const steps = Number(args.find((a, i) => /^\d+$/.test(a) && !['--group', '--repo'].includes(args[i - 1])) ?? 3000);

const { parseAssembly } = await import(join(repo, 'src/assembly/load.ts'));
const { prepareSimulation } = await import(join(repo, 'src/mechanics/simulate.ts'));

/** The parts of the integrator a check reads (integrator.ts, iteration.ts, rows.ts). */
interface AuditView {
  t: number; v: Float64Array; vdot: Float64Array; lambda: Float64Array; size: number; iterations: number;
  tolPhi: number; tolResidual: number; forces: unknown;
  constraints: { evaluate(jacobian: boolean, select: boolean): void; maxPhi(): number; activeCount: number };
  lin: { residual(...a: unknown[]): number; maxResidual(): number };
  scheme: { gammaP: number; betaP: number };
  modelSize(): number;
  step(h: number): boolean;
}

const sim = prepareSimulation(parseAssembly(readFileSync(file, 'utf8')), { lieGroup: group });
const it = sim.integrator as AuditView;
let worst = 0, unchecked = 0, over = 0, failed = -1;
for (let k = 0; k < steps; k++) {
  if (!it.step(0.001)) { failed = k; break; }
  if (it.iterations !== 1) continue;
  unchecked++;
  const c = it.constraints, lin = it.lin;
  c.evaluate(true, false);
  const phi = c.maxPhi();
  const scale = lin.residual(it.forces, false, it.v, it.vdot, it.lambda, c, it.t, it.size + c.activeCount, it.scheme.gammaP / it.scheme.betaP);
  const e = Math.max(phi / (it.tolPhi * it.modelSize()), lin.maxResidual() / (it.tolResidual * scale));
  worst = Math.max(worst, e);
  if (e > 1) over++;
}
console.log(`${file} ${group}: ${steps} steps, ${unchecked} after one evaluation, largest error of those ${worst.toExponential(2)} of the bounds, ${over} over${failed >= 0 ? `, failed at step ${failed}` : ''}`);
