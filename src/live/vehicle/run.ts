/**
 * A run of the whole vehicle for a page (docs/vehicle.md, "Viewer"): the vehicle of a
 * document driven over its file's `road:` or through its `steer:` step (a one-wheel bump
 * under the front left wheel when the file gives neither), by the vehicle simulation
 * (src/suspension/vehicle/simulate.ts), each frame reduced to what the page plays back —
 * every part's pose, each link's axial force and each moving part's largest joint force (the
 * tints the corner models' playback draws), each wheel's centre, spin axis and contact, each
 * tyre's vertical load, the body's heave, pitch and roll — and handed out in batches as it is made. No DOM: it
 * runs in the viewer's vehicle-run worker and, for tests, in Node.
 */
import type { PoseDoc } from '../../assembly/types.ts';
import type { SimulationEvent } from '../../mechanics/simulate.ts';
import { CORNERS, type CornerName } from '../../suspension/vehicle/index.ts';
import { readVehicleRun, type VehicleRun } from '../../suspension/vehicle/road.ts';
import { prepareVehicleSimulation, simulateVehicle, type VehicleSimulationFrame, type VehicleSimulationModel } from '../../suspension/vehicle/simulate.ts';
import { headerOf, partLoads, rodForces, type PlaybackFrame, type SimulationHeader, type SimulationSettings } from '../view/simulation.ts';
import { vehicleSpecOf, type VehicleDocument } from './document.ts';
import { rotatePose } from './frame.ts';

/** The run the viewer starts by default: short, the vehicle simulation takes ~10 ms a step. */
export const VEHICLE_RUN_DEFAULTS: SimulationSettings = { duration: 0.5, step: 0.002, every: 10 };

/** The road of a vehicle file with neither `road:` nor `steer:`: a 25 mm (1 − cos) bump under the front left wheel. */
export const DEFAULT_VEHICLE_ROAD = 'road: { front_left: { bump: { height: 25, duration: 0.06, start: 0.05 } } }';

/**
 * One frame as plain data: the header's parts' poses (`poses`, as a simulation's), the
 * header's links' axial forces (`rods`, N, tension +) and its parts' largest joint forces
 * (`loaded`, N) as a simulation's, the tyres' vertical loads in CORNERS order (`tyres`, N), and per corner `wheels`: the wheel
 * centre, its spin axis and the contact point (9 numbers, world, mm); `body`: heave (mm),
 * pitch and roll (deg).
 */
export interface VehiclePlaybackFrame extends PlaybackFrame {
  wheels: number[][];
  body: [number, number, number];
}

export type VehicleRunMessage =
  | { kind: 'start'; header: SimulationHeader; source: string; settings: SimulationSettings }
  | { kind: 'frames'; frames: VehiclePlaybackFrame[] }
  | { kind: 'done'; status: 'completed' | 'failed'; message: string | null; events: SimulationEvent[]; steps: number; ms: number }
  | { kind: 'error'; message: string };

/** The file's run, or the default bump; and which it is, in words. */
export function vehicleRunOf(doc: VehicleDocument): { run: VehicleRun; source: string; model: VehicleSimulationModel } {
  const spec = vehicleSpecOf(doc);
  const own = readVehicleRun(doc.text, doc.name, spec);
  const given = own.steer !== null || own.torques.length > 0 || Object.keys(own.roads).length > 0;
  const run = given ? own : readVehicleRun(DEFAULT_VEHICLE_ROAD, 'the default bump', spec);
  const torques = own.torques.map((t) => t.kind).join(' and ');
  const source = own.steer ? `the file's steer step${torques ? ` with its ${torques}` : ''}` : torques ? `the file's ${torques}` : given ? 'the file\'s road' : 'a 25 mm bump under the front left wheel (the file gives no road)';
  return { run, source, model: prepareVehicleSimulation(spec, run) };
}

/**
 * What every frame of a run of this vehicle lists: its moving parts, its links (distance
 * mates) and the parts whose joint forces tint them — all but the body, which carries every
 * corner's joints and would set the scale every other part is tinted on.
 */
export function vehicleRunHeader(model: VehicleSimulationModel, first: VehicleSimulationFrame): SimulationHeader {
  const doc = model.vehicle.doc;
  const parts = Object.keys(doc.parts).filter((p) => !(doc.parts[p] as { fixed?: boolean }).fixed && `${p}.pose` in first.state);
  const all = headerOf(doc, first);
  return { parts, rods: all.rods, loaded: all.loaded.filter((p) => p !== 'body' && parts.includes(p)), tyres: [...CORNERS] };
}

/** A vehicle frame as playback data. */
export function vehiclePlaybackFrame(model: VehicleSimulationModel, header: SimulationHeader, frame: VehicleSimulationFrame): VehiclePlaybackFrame {
  const poses = header.parts.map((p) => { const pose = frame.state[`${p}.pose`] as PoseDoc; return [...pose.position, ...pose.rotation]; });
  const v = frame.vehicle;
  const wheels = model.vehicle.wheels.map((w) => {
    const pose = frame.state[`${w.upright}.pose`] as PoseDoc;
    const p = [...pose.position, ...pose.rotation];
    const centre = rotatePose(p, w.centre), axis = rotatePose(p, w.axis, false);
    const n = Math.hypot(axis[0], axis[1], axis[2]) || 1;
    return [...centre, axis[0] / n, axis[1] / n, axis[2] / n, ...v.corners[w.corner].contact_point];
  });
  const tyres = CORNERS.map((c: CornerName) => v.corners[c].contact_load[2]);
  const doc = model.vehicle.doc;
  return { t: frame.t, poses, energy: { ...frame.energy }, rods: rodForces(doc, header, frame), loaded: partLoads(doc, header, frame), tyres, wheels, body: [v.body.heave, v.body.pitch, v.body.roll] };
}

/**
 * Runs the vehicle of a document, sending `start`, then `frames` batches (at most every
 * `batchMs` of wall time, and the rest at the end), then `done`; or `error` when it cannot
 * start (a bad file, no rest state). The vehicle's parts only are played (not the roads).
 */
export function runVehicleSimulation(doc: VehicleDocument, settings: SimulationSettings, send: (message: VehicleRunMessage) => void, batchMs = 100): void {
  const t0 = now();
  let batch: VehiclePlaybackFrame[] = [];
  let last = t0;
  const flush = () => { if (batch.length) { send({ kind: 'frames', frames: batch }); batch = []; } last = now(); };
  try {
    const { model, source } = vehicleRunOf(doc);
    let header: SimulationHeader | null = null;
    const result = simulateVehicle(model, {
      duration: settings.duration, step: settings.step, every: settings.every, keepFrames: false,
      ...(settings.rhoInf !== undefined ? { rhoInf: settings.rhoInf } : {}),
      onFrame: (f) => {
        if (!header) {
          header = vehicleRunHeader(model, f as VehicleSimulationFrame);
          send({ kind: 'start', header, source, settings });
        }
        batch.push(vehiclePlaybackFrame(model, header, f as VehicleSimulationFrame));
        if (now() - last >= batchMs) flush();
      },
    });
    flush();
    send({ kind: 'done', status: result.status, message: result.message ?? null, events: result.events, steps: result.steps, ms: now() - t0 });
  } catch (error) {
    flush();
    send({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
