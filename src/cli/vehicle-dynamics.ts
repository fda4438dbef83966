/**
 * `kinemate modes` and `kinemate simulate` on a vehicle file (`*.vehicle.yaml`,
 * docs/vehicle-dynamics.md): the whole car's ride modes, and its run over a road per wheel
 * or through a step steer.
 */
import type { VehicleSpec } from '../suspension/vehicle/index.ts';
import type { SimulateOptions, SimulationResult } from '../index.ts';
import type { Command } from './command.ts';
import { EXIT, toJsonText } from './io.ts';
import { readTextFile } from './files.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { openBeside, vehicleInputFiles } from './vehicle-inputs.ts';

type IO = Parameters<Command['run']>[1];

/** A vehicle file, by its name (the vehicle command's files end so). */
export function isVehicleFile(file: string): boolean {
  return /\.vehicle\.(ya?ml|json)$/i.test(file);
}

/**
 * A vehicle file by its name or, for another YAML or JSON file, by its top-level `vehicle:`
 * (as `sensitivity`, `fit` and the viewer tell it): `modes car.yaml` on a vehicle file
 * named otherwise had said it was no assembly and sent the user to `kinemate sweep`.
 */
export async function isVehicleInput(file: string): Promise<boolean> {
  if (isVehicleFile(file)) return true;
  if (file === '-' || !/\.(ya?ml|json)$/i.test(file)) return false;
  const [text, { isVehicleText }] = await Promise.all([readTextFile(file, 'model'), import('./vehicle-gradients.ts')]);
  return isVehicleText(text);
}

/** Read the vehicle file and its axle files (relative to it); `simulate --out` refused over any of them, then the notes on stderr. */
export async function loadVehicle(file: string, io: IO, out?: string): Promise<{ spec: VehicleSpec; text: string }> {
  const text = await readTextFile(file, 'vehicle');
  const v = await import('../suspension/vehicle/index.ts');
  const spec = v.readVehicleFile(text, file, openBeside(file));
  refuseOverwritingInputs('simulate', '--out', out, vehicleInputFiles(file, spec));
  for (const note of spec.notes) await io.err(`kinemate: note: ${note}\n`);
  return { spec, text };
}

/** `kinemate modes VEHICLE`: the ride modes at rest. */
export async function vehicleModesCommand(file: string, io: IO): Promise<number> {
  const { spec } = await loadVehicle(file, io);
  const [{ buildVehicle }, { vehicleModes }] = await Promise.all([import('../suspension/vehicle/assembly.ts'), import('../suspension/vehicle/modes.ts')]);
  const result = vehicleModes(buildVehicle(spec));
  await io.out(toJsonText({ name: spec.name, analysis: 'modes', units: { frequency: 'Hz', heave: 'mm', pitch: 'deg', roll: 'deg' }, ...result }));
  return result.status === 'solved' ? EXIT.ok : EXIT.failed;
}

/** The vehicle file's run built and placed at rest (its road and steer read from the same file). */
export async function prepareVehicleRun(file: string, io: IO, out?: string): Promise<import('../suspension/vehicle/simulate.ts').VehicleSimulationModel> {
  const { spec, text } = await loadVehicle(file, io, out);
  const [{ readVehicleRun }, { prepareVehicleSimulation }] = await Promise.all([import('../suspension/vehicle/road.ts'), import('../suspension/vehicle/simulate.ts')]);
  return prepareVehicleSimulation(spec, readVehicleRun(text, file, spec));
}

/** Run it: simulate()'s frames, each with its `vehicle` view. */
export async function simulateVehicleRun(model: import('../suspension/vehicle/simulate.ts').VehicleSimulationModel, options: SimulateOptions): Promise<SimulationResult> {
  const { simulateVehicle } = await import('../suspension/vehicle/simulate.ts');
  return simulateVehicle(model, options);
}
