/**
 * A vehicle run for the viewer's playback (src/live/vehicle/run.ts): the messages in order,
 * the frames' tyre loads carrying the car's weight at rest, the default one-wheel bump
 * lifting the front left wheel before the others, the links' forces (the playback's tints) at
 * rest those of the static solve and the bumped corner's growing, the file's own road or steer step named
 * as the run's source, and a file that cannot run answered with one error message.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVehicle, readVehicleDocument, runVehicleSimulation, staticAnalysis, vehicleLiveFrame, vehicleRunOf, vehicleSpecOf, type VehiclePlaybackFrame, type VehicleRunMessage } from '../../src/index.ts';

const ROOT = join(__dirname, '../..');
const FILES = Object.fromEntries(['double_wishbone_axle_front.yaml', 'multi_link_axle_rear.yaml'].map((f) => [f, readFileSync(join(ROOT, 'examples/suspension', f), 'utf8')]));
const vehicle = (name: string, extra = '') => readVehicleDocument(name, readFileSync(join(ROOT, 'examples/vehicles', name), 'utf8') + extra, FILES);

describe('vehicle run for playback', () => {
  it('runs the default bump on a file without a road: start, frames, done; the weight carried at rest; the bumped wheel rises first', () => {
    const doc = vehicle('sedan.vehicle.yaml');
    const messages: VehicleRunMessage[] = [];
    runVehicleSimulation(doc, { duration: 0.09, step: 0.002, every: 5 }, (m) => messages.push(m), 0);
    const kinds = messages.map((m) => m.kind);
    expect(kinds[0]).toBe('start');
    expect(kinds.at(-1)).toBe('done');
    expect(kinds.slice(1, -1).every((k) => k === 'frames')).toBe(true);
    const start = messages[0] as Extract<VehicleRunMessage, { kind: 'start' }>;
    expect(start.source).toContain('bump under the front left wheel');
    expect(start.header.parts).toContain('body');
    expect(start.header.parts.some((p) => p.endsWith('_road'))).toBe(false);
    const done = messages.at(-1) as Extract<VehicleRunMessage, { kind: 'done' }>;
    expect(done.status).toBe('completed');
    const frames = messages.flatMap((m) => (m.kind === 'frames' ? m.frames : [])) as VehiclePlaybackFrame[];
    expect(frames.length).toBe(Math.round(0.09 / 0.002 / 5) + 1);
    // at rest the four tyres carry the car's weight (g = 9.80665 m/s²)
    const mass = vehicleLiveFrame(doc, 1, { quick: true }).figures!.mass;
    const f0 = frames[0];
    expect(f0.tyres.reduce((s, x) => s + x, 0)).toBeCloseTo(mass * 9.80665, 0);
    // the bump (0.05 to 0.11 s, front left) lifts that wheel and loads its tyre before any other corner moves
    const f = frames.find((x) => Math.abs(x.t - 0.08) < 1e-9)!;
    const rise = (x: VehiclePlaybackFrame, i: number) => x.wheels[i][2] - f0.wheels[i][2];
    expect(rise(f, 0)).toBeGreaterThan(5);
    for (const i of [1, 2, 3]) expect(Math.abs(rise(f, i))).toBeLessThan(rise(f, 0) / 5);
    expect(f.tyres[0]).toBeGreaterThan(f0.tyres[0] * 1.5);
    // the spin axes stay unit vectors and the contacts under the wheels
    for (const w of f.wheels) {
      expect(Math.hypot(w[3], w[4], w[5])).toBeCloseTo(1, 9);
      expect(Math.hypot(w[6] - w[0], w[7] - w[1])).toBeLessThan(50);
    }
  }, 30_000);

  it('carries every link\'s axial force and every part\'s largest joint force: at rest the static solve\'s, over the bump the bumped corner\'s growing', () => {
    const doc = vehicle('sedan.vehicle.yaml');
    const messages: VehicleRunMessage[] = [];
    runVehicleSimulation(doc, { duration: 0.09, step: 0.002, every: 5 }, (m) => messages.push(m), 0);
    const header = (messages[0] as Extract<VehicleRunMessage, { kind: 'start' }>).header;
    const frames = messages.flatMap((m) => (m.kind === 'frames' ? m.frames : [])) as VehiclePlaybackFrame[];
    // every distance mate of both axles is a link; the body (it carries every corner) is left out of the parts tinted
    expect(header.rods).toContain('front_left_pushrod');
    expect(header.rods).toContain('rear_right_lower_rear_link');
    expect(header.loaded).toContain('front_left_lower_wishbone');
    expect(header.loaded).not.toContain('body');
    for (const f of frames) expect([f.rods.length, f.loaded.length]).toEqual([header.rods.length, header.loaded.length]);
    // at t = 0 the car is at rest: each link carries what the static analysis (another solve, its own tensions) finds
    const links = staticAnalysis(buildVehicle(vehicleSpecOf(doc))).links!;
    expect(Object.keys(links).sort()).toEqual([...header.rods].sort());
    header.rods.forEach((id, i) => expect(Math.abs(frames[0].rods[i] - links[id])).toBeLessThan(1e-5 * Math.max(1, Math.abs(links[id]))));
    // the front left pushrod (compression at rest) is pushed harder over the bump under that wheel; a rear link changes far less
    const f = frames.find((x) => Math.abs(x.t - 0.08) < 1e-9)!;
    const rod = (x: VehiclePlaybackFrame, id: string) => x.rods[header.rods.indexOf(id)];
    const change = (id: string) => Math.abs(rod(f, id) / rod(frames[0], id) - 1);
    expect(rod(frames[0], 'front_left_pushrod')).toBeLessThan(0);
    expect(rod(f, 'front_left_pushrod')).toBeLessThan(1.3 * rod(frames[0], 'front_left_pushrod'));
    expect(change('front_left_pushrod')).toBeGreaterThan(2 * change('rear_left_lower_rear_link'));
    const part = (x: VehiclePlaybackFrame, id: string) => x.loaded[header.loaded.indexOf(id)];
    expect(part(f, 'front_left_lower_wishbone')).toBeGreaterThan(1.3 * part(frames[0], 'front_left_lower_wishbone'));
  }, 30_000);

  it('names the file\'s own road or steer step as the run, and answers a file that cannot run with an error', () => {
    expect(vehicleRunOf(vehicle('sedan_bump.vehicle.yaml')).source).toBe('the file\'s road');
    expect(vehicleRunOf(vehicle('sedan_step_steer.vehicle.yaml')).source).toBe('the file\'s steer step');
    const both = vehicle('sedan_bump.vehicle.yaml', 'steer: { rack: 5, speed_kmh: 60 }\n');
    const messages: VehicleRunMessage[] = [];
    runVehicleSimulation(both, { duration: 0.01, step: 0.002, every: 1 }, (m) => messages.push(m));
    expect(messages.map((m) => m.kind)).toEqual(['error']);
    expect((messages[0] as { message: string }).message).toMatch(/steer/);
  }, 30_000);
});
