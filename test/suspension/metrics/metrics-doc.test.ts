/**
 * docs/metrics.md documents every column `kinemate sweep --format csv` prints on every
 * example geometry (issue 27 item 9): a metric added to the code without a row in one of
 * the page's tables fails here. The commands that print metrics name the page in --help.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';

const DOC = 'docs/metrics.md';
const doc = readFileSync(DOC, 'utf8');

/** The names in the first cell of every table row of the page (`camber`, `deriv_kpi_wrt_hub_z`, …). */
function documentedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('|') || /^\|\s*-/.test(line)) continue;
    const first = line.split('|')[1];
    for (const m of first.matchAll(/`([^`]+)`/g)) names.add(m[1]);
  }
  return names;
}

/** Every example geometry: the suspension files that are not sweep files, and the hand-built axle. */
const geometries = readdirSync('examples/suspension')
  .filter((f) => /\.(ya?ml|kinemate\.json)$/.test(f))
  .map((f) => `examples/suspension/${f}`)
  .filter((f) => !/^targets:/m.test(readFileSync(f, 'utf8')));

async function csvColumns(file: string): Promise<string[]> {
  const io = memoryIO();
  const code = await main(['sweep', file, '--bump', '-5:5:2', '--format', 'csv'], io);
  expect(code, `${file}: ${io.written.stderr}`).toBe(0);
  return io.written.stdout.split('\n')[0].split(',');
}

describe('docs/metrics.md', () => {
  const names = documentedNames(doc);

  it('has tables the test can read (the parser finds the basic metrics)', () => {
    for (const name of ['camber', 'toe_angle', 'caster', 'kpi', 'scrub_radius', 'roll_center_z', 'deriv_camber_wrt_hub_z']) expect(names.has(name), name).toBe(true);
    expect(names.has('not_a_metric')).toBe(false);
  });

  it('documents every column the sweep CSV prints on every example geometry', async () => {
    expect(geometries.length).toBeGreaterThan(15);
    const missing = new Map<string, string>();
    for (const file of geometries) {
      for (const column of await csvColumns(file)) {
        const name = column.replace(/^(left|right|axle)\./, '');
        if (!names.has(name) && !missing.has(name)) missing.set(name, file);
      }
    }
    expect([...missing].map(([name, file]) => `${name} (${file})`)).toEqual([]);
  }, 120_000);

  it('shows pictures that are there', () => {
    const images = [...doc.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(existsSync(`docs/${image}`), image).toBe(true);
  });

  it.each(['sweep', 'sensitivity', 'fit', 'batch', 'plot', 'report'])('kinemate %s --help names it', async (command) => {
    const io = memoryIO();
    expect(await main([command, '--help'], io)).toBe(0);
    expect(io.written.stdout).toContain(DOC);
  });
});
