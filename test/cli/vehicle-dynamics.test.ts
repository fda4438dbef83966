/** `kinemate modes` and `kinemate simulate` on a vehicle file, end to end: the real command once each, and a bad road. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kinemate, REPO, tempFolder } from './helpers';

describe('kinemate modes | simulate VEHICLE', () => {
  it('modes: heave, pitch, roll and the wheel hops, with their frequencies in the summary', async () => {
    const run = await kinemate(['modes', 'examples/vehicles/sedan.vehicle.yaml']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r).toMatchObject({ analysis: 'modes', status: 'solved', units: { frequency: 'Hz' } });
    const names = r.modes.map((m: { name: string }) => m.name);
    for (const n of ['heave', 'pitch', 'roll', 'wheel_hop_front', 'wheel_tramp_front', 'wheel_hop_rear', 'wheel_tramp_rear']) expect(names).toContain(n);
    expect(names.filter((n: string) => n === 'rigid')).toHaveLength(3);
    // a car's body modes lie well below its wheel hops
    expect(r.summary.heave_frequency).toBeLessThan(r.summary.wheel_hop_frequency.front / 3);
  });

  it('simulate: a bump under the front left wheel alone rolls the car; a bad road is refused naming its path', async () => {
    const run = await kinemate(['simulate', 'examples/vehicles/sedan_bump.vehicle.yaml', '--duration', '0.08', '--step', '0.002', '--every', '5']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.status).toBe('completed');
    const last = r.frames[r.frames.length - 1];
    expect(Object.keys(last.vehicle.corners)).toEqual(['front_left', 'front_right', 'rear_left', 'rear_right']);
    expect(Math.max(...r.frames.map((f: { vehicle: { roads: { front_left: number } } }) => f.vehicle.roads.front_left))).toBeGreaterThan(20);
    expect(Math.max(...r.frames.map((f: { vehicle: { body: { roll: number } } }) => Math.abs(f.vehicle.body.roll)))).toBeGreaterThan(0.05);
    expect(r.frames.every((f: { vehicle: { roads: { rear_left: number } } }) => f.vehicle.roads.rear_left === 0)).toBe(true);

    // the same file with an unknown field in its road, its axle files named by absolute path
    const tmp = tempFolder();
    try {
      const text = readFileSync('examples/vehicles/sedan_bump.vehicle.yaml', 'utf8').replace('height: 25,', 'height: 25, width: 3,').replaceAll('../suspension/', join(REPO, 'examples/suspension/'));
      const bad = tmp.file('bad.vehicle.yaml');
      writeFileSync(bad, text);
      const refused = await kinemate(['simulate', bad, '--duration', '0.1', '--step', '0.002']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/road\.front_left\.bump\.width/);
    } finally { tmp.remove(); }
  });
});
