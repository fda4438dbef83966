/**
 * Benchmarks: `npm run bench` prints a table; `npm run bench -- --json` prints, as its last
 * line, one JSON object of named figures to compare run to run.
 */
import { benchmarks } from './cases';
import { queueBenchmarks } from './queue-case';
import { geometryBenchmarks } from './geometry-cases';

const json = process.argv.includes('--json');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const results: Record<string, number> = {};
for (const b of [...benchmarks, ...geometryBenchmarks, ...queueBenchmarks]) {
  if (only && !b.name.includes(only)) continue;
  const value = await b.run();
  results[b.name] = Number(value.toPrecision(4));
  if (!json) console.log(`${b.name.padEnd(32)} ${String(results[b.name]).padStart(12)}  ${b.unit}  (goal ${b.goal ?? '—'})`);
  else console.error(`${b.name}: ${results[b.name]} ${b.unit}`);
}
if (json) console.log(JSON.stringify(results));
