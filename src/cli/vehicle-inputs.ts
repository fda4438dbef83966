/**
 * The files a vehicle file makes a command read: itself, its two axle files and its
 * `.tir` files. Every vehicle command checks its outputs against all of them, so none
 * writes over a tyre or axle file it reads (`--out ../tyres/x.tir` once replaced the tyre).
 */
import type { VehicleSpec } from '../suspension/vehicle/file.ts';
import type { InputFile } from './no-overwrite.ts';

export function vehicleInputFiles(file: string, spec: VehicleSpec): InputFile[] {
  const inputs: InputFile[] = [['vehicle', file], ['front axle', spec.front.path], ['rear axle', spec.rear.path]];
  for (const axle of ['front', 'rear'] as const) {
    const tir = spec[axle].tyre.tir;
    if (tir) inputs.push([`${axle} tyre`, tir.path]);
  }
  return inputs;
}
