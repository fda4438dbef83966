/**
 * Issue 27 item 8: wheel travel and wheel-centre z were mixed up. On main `batch`'s `bump`
 * column held the wheel centre's absolute z (263.4…363.4 for `bump: "-50:50:21"`) and
 * `sweep --help` said `--bump A:B:N  wheel centre z from A to B` while A:B is travel from
 * design. Each column now holds what it is named: batch's bump is the travel, sweep's
 * driver.wheel_center_z the absolute z; the help lines say travel where it is travel.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runMain, tempFolder } from './helpers.ts';

const GEOMETRY = join(REPO, 'examples/suspension/double_wishbone.yaml');
let folder: ReturnType<typeof tempFolder>;
beforeAll(() => { folder = tempFolder(); });
afterAll(() => folder.remove());

/** CSV text as rows of cells keyed by the header. */
function table(text: string): Record<string, string>[] {
  const [head, ...rows] = text.trimEnd().split('\n').map((line) => line.split(','));
  return rows.map((cells) => Object.fromEntries(head.map((name, i) => [name, cells[i]])));
}

describe('travel columns hold travel, z columns hold z', () => {
  it('batch: bump is the commanded travel (-50…50 every 5 mm), equal to the solved wheel_travel', async () => {
    const doe = folder.file('doe.yaml');
    writeFileSync(doe, 'vary: { trackrod_inboard.z: [-5, 5] }\nsampling: { type: list, variants: [[0], [4]] }\nbump: "-50:50:21"\nmetrics: [wheel_travel, camber]\n');
    const run = await runMain(['batch', GEOMETRY, '--doe', doe, '--threads', '0']);
    expect(run.code).toBe(0);
    const rows = table(run.stdout);
    expect(rows).toHaveLength(2 * 21);
    for (const row of rows) {
      const travel = -50 + 5 * Number(row.step);
      expect(Number(row.bump)).toBe(travel);
      expect(Math.abs(Number(row.wheel_travel) - travel)).toBeLessThan(1e-9);
    }
  });

  it('sweep CSV: driver.wheel_center_z is the absolute z, its change from design the wheel_travel', async () => {
    const run = await runMain(['sweep', GEOMETRY, '--bump', '-50:50:5', '--format', 'csv']);
    expect(run.code).toBe(0);
    const rows = table(run.stdout);
    const design = Number(rows[2]['driver.wheel_center_z']); // travel 0
    expect(design).toBeGreaterThan(200); // a wheel centre well above the ground, not a travel
    for (const [i, row] of rows.entries()) {
      expect(Number(row['driver.wheel_center_z']) - design).toBeCloseTo(-50 + 25 * i, 9);
      expect(Number(row.wheel_travel)).toBeCloseTo(-50 + 25 * i, 9);
    }
  });

  it('help lines call A:B travel from design', async () => {
    for (const command of ['sweep', 'sensitivity']) {
      const help = (await runMain([command, '--help'])).stdout;
      expect(help).not.toMatch(/wheel centre z from A to B|wheel centre z at V/);
      expect(help).toMatch(/--bump A:B:N +wheel travel from A to B \(mm: .*wheel centre('s)? z from (its )?design/);
      expect(help).toMatch(/--steer A:B:N +rack travel from A to B \(mm from design/);
    }
    expect((await runMain(['batch', '--help'])).stdout).toMatch(/bump is the step's wheel travel/);
  });
});
