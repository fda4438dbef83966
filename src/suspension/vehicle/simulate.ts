/**
 * The whole vehicle in time (docs/vehicle-dynamics.md): the vehicle's assembly (assembly.ts)
 * with, under each wheel, a road part on a vertical slider from a fixed `ground`, driven by
 * a motion (the wheel's road law, road.ts), and the `tyre` force element between the wheel
 * and its road (mates/forces.ts TyreForce: the vertical load k p + c ṗ, lifting off at 0)
 * — the parts, mates, forces and motions the suspension-dynamics runs use — run by
 * simulate() (src/mechanics/simulate.ts: generalized-α, the energy budget per element).
 * The run starts at rest on a flat road: the vehicle's static equilibrium (solveVehicle,
 * the quasi-static analyses' exact Newton), its pose copied part by part. Nothing holds
 * the body's x, y and yaw (the quasi-static datum is left out): a wheel rolling without
 * slip resists no displacement, and the vertical tyre has no horizontal force, so the
 * body keeps its momentum there. Each frame gains `vehicle`: the state the quasi-static
 * analyses print (state.ts) and each wheel's road height.
 */
import type { AssemblyDoc, ForceDoc, MateDoc } from '../../assembly/types';
import { validateAssembly } from '../../assembly/load';
import { buildDynamics, type DynamicsModel } from '../../mechanics/build';
import { simulate, type SimulateOptions, type SimulationFrame, type SimulationResult } from '../../mechanics/simulate';
import { IntegratorError } from '../../../kernel/integrator/integrator';
import { TyreForce } from '../../../mates/forces';
import { SlipTyreForce } from '../../../mates/tyres';
import { VehicleInputError } from './errors';
import { addSlipTyres, steerAssembly } from './step-steer';
import { addWheelTorques } from './wheel-torque';
import { CORNERS, buildVehicle, type CornerName, type VehicleModel } from './assembly';
import { solveVehicle } from './analysis';
import type { VehicleSpec } from './file';
import { vehicleState, type VehicleState } from './state';
import type { RoadLaw, VehicleRun } from './road';

export type VehicleFrameView = VehicleState & { roads: Record<CornerName, number> };
export type VehicleSimulationFrame = SimulationFrame & { vehicle: VehicleFrameView };
export type VehicleSimulationResult = Omit<SimulationResult, 'frames'> & { frames: VehicleSimulationFrame[]; delay: number };

export interface VehicleSimulationModel {
  /** The quasi-static vehicle (its rest state solved), whose wheels, names and reports the run shares. */
  vehicle: VehicleModel;
  doc: AssemblyDoc;
  dyn: DynamicsModel;
  tyres: TyreForce[];
  /** The road slides' coordinates per corner (none in a step steer: the road is flat). */
  roads: Partial<Record<CornerName, string>>;
  run: VehicleRun;
}

const FLAT: RoadLaw = { table: [[0, 0], [1, 0]] };

/** The run's assembly: the vehicle's, plus ground, a road part per wheel on its driven slide, and a tyre per wheel. */
function runAssembly(m: VehicleModel, run: VehicleRun): { doc: AssemblyDoc; roads: Record<CornerName, string> } {
  const base = m.doc as AssemblyDoc & { motions?: Record<string, unknown> };
  const parts: Record<string, unknown> = { ...base.parts }, mates: Record<string, MateDoc> = { ...base.mates }, forces: Record<string, ForceDoc> = { ...(base.forces ?? {}) };
  const motions: Record<string, unknown> = {};
  const ground = { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, axes: {} as Record<string, { origin: number[]; direction: number[] }> };
  const roads = {} as Record<CornerName, string>;
  m.wheels.forEach((w, i) => {
    // the road's surface under the wheel's contact at rest, on the level road
    const c = m.contacts[i].last.contact;
    const at = [c[0], c[1], m.road];
    ground.axes[`${w.corner}_guide`] = { origin: at, direction: [0, 0, 1] };
    parts[`${w.corner}_road`] = { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { surface: at }, axes: { guide: { origin: at, direction: [0, 0, 1] } } };
    mates[`${w.corner}_road_slide`] = { type: 'slider', a: `ground.${w.corner}_guide`, b: `${w.corner}_road.guide` } as MateDoc;
    roads[w.corner] = `${w.corner}_road_slide.slide`;
    motions[`${w.corner}_road`] = { coordinate: roads[w.corner], ...(run.roads[w.corner] ?? FLAT) };
    forces[`${w.corner}_tyre`] = {
      type: 'tyre', centre: `${w.wheel}.centre`, axis: `${w.wheel}.spin`, radius: w.radius, stiffness: w.tyre.stiffness,
      ...(w.tyre.damping > 0 ? { damping: w.tyre.damping } : {}), road: `${w.corner}_road.surface`,
    } as ForceDoc;
  });
  parts.ground = ground;
  const doc = validateAssembly({ ...base, name: `${base.name} run`, parts, mates, forces, motions } as AssemblyDoc);
  return { doc, roads };
}

/** Build the run and place it at the vehicle's rest state. */
export function prepareVehicleSimulation(spec: VehicleSpec, run: VehicleRun): VehicleSimulationModel {
  const vehicle = buildVehicle(spec);
  const rest = solveVehicle(vehicle, { ax: 0, ay: 0 });
  if (rest.status !== 'solved') throw new IntegratorError(`the vehicle at rest was not found: ${rest.message}`);
  if (run.steer && Object.keys(run.roads).length) throw new VehicleInputError('steer', 'a step steer runs on a flat road: give road or steer, not both');
  if (run.torques.length && Object.keys(run.roads).length) throw new VehicleInputError(run.torques[0].kind, `a ${run.torques[0].kind} torque runs on a flat road at speed: give road or ${run.torques[0].kind}, not both`);
  // a step steer, a brake or a drive: the car at speed on the moving road, its tyres slipping
  const moving = run.steer !== null || run.torques.length > 0;
  const speed = run.steer?.speed_kmh ?? run.torques[0]?.speed_kmh ?? 0;
  const { doc, roads } = moving ? { doc: steerAssembly(vehicle, run.steer, speed).doc, roads: {} } : runAssembly(vehicle, run);
  const built = buildDynamics(doc);
  // the rest pose, variable by variable (the same names: the run's assembly adds to the vehicle's)
  const from = vehicle.dyn.system, to = built.system;
  const byName = new Map(to.variables.map((v) => [v.name, v]));
  for (const v of from.variables) {
    const w = byName.get(v.name);
    if (w && w.dim === v.dim && !w.fixed) to.state.set(from.state.subarray(v.offset, v.offset + (v.dim === 6 ? 7 : 1)), w.offset);
  }
  const slipping = moving ? addSlipTyres(vehicle, built) : { dyn: built, tyres: CORNERS.map((c) => built.elements.find((e) => e.id === `${c}_tyre`)!.block as TyreForce) };
  const { dyn } = run.torques.length ? addWheelTorques(vehicle, slipping.dyn, run.torques) : slipping;
  return { vehicle, doc, dyn, tyres: slipping.tyres, roads, run };
}

/** The vehicle's view of the run's current state: the quasi-static report (state.ts) with the tyres' loads, and the roads. */
export function vehicleFrame(model: VehicleSimulationModel): VehicleFrameView {
  const { vehicle: m, dyn, tyres } = model;
  // state.ts reads the contacts' last values: the run's tyres, their world horizontal force when they slip
  const contacts = tyres.map((t) => ({ last: { force: t.last.force, contact: t.last.contact, shear: shearOf(t) } }));
  const view = vehicleState({ dyn, wheels: m.wheels, road: m.road, cgDesign: m.cgDesign, contacts });
  const roads = {} as Record<CornerName, number>;
  for (const c of CORNERS) { const r = model.roads[c]; roads[c] = r ? dyn.system.getScalar(dyn.model.coordinates.get(r)!.variable) : 0; }
  return { ...view, roads };
}

/** A slipping tyre's force on the road plane in world axes [Fx, Fy] (N); a vertical tyre's none. */
function shearOf(t: TyreForce): [number, number] {
  if (!(t instanceof SlipTyreForce) || !(t.last.force > 0)) return [0, 0];
  const s = t.slip;
  return [s.fx * s.forward[0] + s.fy * s.lateral[0], s.fx * s.forward[1] + s.fy * s.lateral[1]];
}

/** Run the vehicle over its roads; each frame with its `vehicle` view. */
export function simulateVehicle(model: VehicleSimulationModel, options: SimulateOptions): VehicleSimulationResult {
  const result = simulate(model.dyn, {
    ...options,
    onFrame: (f) => { (f as VehicleSimulationFrame).vehicle = vehicleFrame(model); options.onFrame?.(f); },
  });
  return { ...result, frames: result.frames as VehicleSimulationFrame[], delay: model.run.delay };
}
