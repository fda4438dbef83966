/**
 * `kinemate modes` and `kinemate simulate` on a vehicle file, end to end: the command's `main` in the
 * test process (the same code, without a process start and its JIT's warm-up each), and a bad road
 * refused by the real command.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kinemate, REPO, runMain, tempFolder } from './helpers';

describe('kinemate modes | simulate VEHICLE', () => {
  it('modes: heave, pitch, roll and the wheel hops, with their frequencies in the summary', async () => {
    const run = await runMain(['modes', 'examples/vehicles/sedan.vehicle.yaml']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r).toMatchObject({ analysis: 'modes', status: 'solved', units: { frequency: 'Hz' } });
    const names = r.modes.map((m: { name: string }) => m.name);
    for (const n of ['heave', 'pitch', 'roll', 'wheel_hop_front', 'wheel_tramp_front', 'wheel_hop_rear', 'wheel_tramp_rear']) expect(names).toContain(n);
    expect(names.filter((n: string) => n === 'rigid')).toHaveLength(3);
    // a car's body modes lie well below its wheel hops
    expect(r.summary.heave_frequency).toBeLessThan(r.summary.wheel_hop_frequency.front / 3);
  });

  it('simulate: a brake torque decelerates the car, the brakes\' work a line each in the budget', async () => {
    const run = await runMain(['simulate', 'examples/vehicles/sedan_braking.vehicle.yaml', '--duration', '0.12', '--step', '0.002', '--every', '10']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r.status).toBe('completed');
    for (const c of ['front_left', 'front_right', 'rear_left', 'rear_right']) expect(r.energy_by_element[`${c}_brake`]).toBeGreaterThan(0);
    const last = r.frames[r.frames.length - 1];
    const fx = Object.values(last.vehicle.corners as Record<string, { contact_load: number[] }>).reduce((t, c) => t + c.contact_load[0]!, 0);
    expect(fx).toBeLessThan(-3000); // 1500 N·m over ~0.3 m, less the wheels' spin
    expect(last.velocities['body.pose'].linear[0]).toBeLessThan(0);
  });

  it('simulate --gradient: a road run\'s exact gradients with the run\'s names; a moving-road run refused', async () => {
    const run = await runMain(['simulate', 'examples/vehicles/sedan_bump.vehicle.yaml', '--duration', '0.02', '--step', '0.001',
      '--gradient', 'front_left_tyre.stiffness', '--gradient', 'body.mass', '--result', 'body.position.z']);
    expect(run.code).toBe(0);
    const r = JSON.parse(run.stdout);
    expect(r).toMatchObject({ status: 'completed', gradient_method: 'adjoint', steps: 20, result: 'body.position.z' }); // more parameters than results
    // at rest (the bump comes at 0.05 s) a heavier body sits lower, a stiffer tyre higher
    expect(r.gradient['body.mass']).toBeLessThan(0);
    expect(r.gradient['front_left_tyre.stiffness']).toBeGreaterThan(0);
    const refused = await runMain(['simulate', 'examples/vehicles/sedan_step_steer.vehicle.yaml', '--duration', '0.02', '--step', '0.001', '--gradient', 'body.mass', '--result', 'body.position.z']);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toMatch(/--gradient: a run on the moving road \(steer\)/);
  });

  it('simulate: a bump under the front left wheel alone rolls the car; a bad road is refused naming its path', async () => {
    const run = await runMain(['simulate', 'examples/vehicles/sedan_bump.vehicle.yaml', '--duration', '0.08', '--step', '0.002', '--every', '5']);
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

  it('simulate --format csv: the vehicle view\'s columns after the run\'s, flattened as kinemate vehicle names a state\'s, each the JSON frame\'s value', async () => {
    const args = ['simulate', 'examples/vehicles/sedan_bump.vehicle.yaml', '--duration', '0.004', '--step', '0.002'];
    const csv = await runMain([...args, '--format', 'csv']), json = await runMain(args);
    expect(csv.code).toBe(0);
    const [header, ...rows] = csv.stdout.trim().split('\n').map((l) => l.split(','));
    const frames = JSON.parse(json.stdout).frames;
    expect(rows).toHaveLength(frames.length);
    const at = (name: string) => header.indexOf(name);
    // after the run's own columns (its residual), in the view's order
    expect(at('corners.front_left.contact_load.z')).toBeGreaterThan(at('residual'));
    expect(at('roads.rear_right')).toBe(header.length - 1);
    const path = (f: any, name: string): number => {
      const parts = name.split('.'), last = parts[parts.length - 1], i = ['x', 'y', 'z'].indexOf(last);
      const v = (i >= 0 ? parts.slice(0, -1) : parts).reduce((o, k) => o[k], f.vehicle);
      return i >= 0 ? v[i] : v;
    };
    const viewColumns = header.filter((h) => /^(corners\.|body\.(heave|pitch|roll)$|vehicle\.|roads\.)/.test(h));
    // per corner the load and contact point (3 each), travel, ride height, camber, toe; the body's 3; mass and cg; the roads
    expect(viewColumns).toHaveLength(4 * 10 + 3 + 4 + 4);
    rows.forEach((row, k) => { for (const name of viewColumns) expect(Number(row[at(name)])).toBe(path(frames[k], name)); });
    // at rest the tyres carry the car: the four loads sum to m g
    const load = ['front_left', 'front_right', 'rear_left', 'rear_right'].reduce((s, c) => s + Number(rows[0][at(`corners.${c}.contact_load.z`)]), 0);
    expect(load / (Number(rows[0][at('vehicle.mass')]) * 9.80665)).toBeCloseTo(1, 6);
  });
});
