/**
 * `kinemate clearance` and `kinemate envelope` on the fixture corner (six bodies): the liner
 * 40 mm over the tyre is hit in a 60 mm bump (exit 3 under --fail-under 0: the real command,
 * in a process of its own), the envelope is written as a closed STL, and a missing geometry
 * file is one line naming it (the command's `main` in this process: the same code).
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isClosedMesh } from '../../src/assembly/geometry/closed.ts';
import { readMeshBytes } from '../../src/assembly/geometry/read.ts';
import { kinemate, runMain, tempFolder } from './helpers.ts';
import { writeCorner } from '../assembly/geometry/corner-fixture.ts';

const tmp = tempFolder();
afterAll(() => tmp.remove());
const corner = writeCorner(tmp.dir);

describe('kinemate clearance / envelope', () => {
  it('clearance over a bump: the tyre reaches the liner at +60, --fail-under exits 3', async () => {
    const run = await kinemate(['clearance', corner, '--grid', 'bump=-60:60:3', '--min', '10', '--fail-under', '0']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(3);
    const out = JSON.parse(run.stdout);
    expect(out.states.map((s: { bump: number }) => s.bump)).toEqual([-60, 0, 60]);
    const first = Object.keys(out.summary)[0];
    expect(first).toBe('chassis:tyre');
    const s = out.summary['chassis:tyre'];
    expect(s.state).toBe(2);
    // 40 mm gap at design: 100 at −60, and about 20 mm into the liner at +60 (the tessellated torus sits a little low)
    expect(out.states[0].pairs['chassis:tyre'].distance).toBeCloseTo(100, 0);
    expect(s.min_distance).toBeLessThan(-18);
    expect(s.min_distance).toBeGreaterThan(-21);
    expect(out.states[2].pairs['chassis:tyre'].touching).toBe(true);
    // pairs a mate joins are left out: the upright and its wishbones, the tyre and its upright
    expect(Object.keys(out.states[0].pairs)).not.toContain('upright:lower_wishbone');
    expect(Object.keys(out.states[0].pairs)).not.toContain('upright:tyre');
  }, 60_000);

  it('envelope writes a closed STL; a missing file is one line naming it', async () => {
    const stl = tmp.file('tyre-envelope.stl');
    const run = await runMain(['envelope', corner, '--grid', 'bump=-30:30:2,steer=-10:10:2', '--voxel', '15', '--out', stl]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ part: 'tyre', states: 4, failed: 0, out: stl });
    expect(isClosedMesh(await readMeshBytes(new Uint8Array(readFileSync(stl)), stl))).toBe(true);
    unlinkSync(tmp.file('damper.stl'));
    const bad = await runMain(['clearance', corner, '--bump', '-10:10:2']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('kinemate: damper.stl: no such file (geometry of "damper")\n');
  }, 60_000);
});
