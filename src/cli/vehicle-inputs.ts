/**
 * The files a vehicle file makes a command read: its axle files and `.tir` files, opened
 * relative to it, and the list every vehicle command checks its outputs against, so none
 * writes over a tyre or axle file it reads (`--out ../tyres/x.tir` once replaced the tyre).
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import type { OpenFile, VehicleSpec } from '../suspension/vehicle/file.ts';
import { fileErrorReason } from './files.ts';
import { CliError } from './io.ts';
import type { InputFile } from './no-overwrite.ts';

export function vehicleInputFiles(file: string, spec: VehicleSpec): InputFile[] {
  const inputs: InputFile[] = [['vehicle', file], ['front axle', spec.front.path], ['rear axle', spec.rear.path]];
  for (const axle of ['front', 'rear'] as const) {
    const tir = spec[axle].tyre.tir;
    if (tir) inputs.push([`${axle} tyre`, tir.path]);
  }
  return inputs;
}

/**
 * Opens a file the vehicle file names, relative to it. A file that cannot be read says why
 * in words and where it was looked for (`no such file or directory (examples/suspension/x.yaml)`),
 * not Node's `ENOENT: …, open '…'`.
 */
export function openBeside(file: string): OpenFile {
  return (ref) => {
    const path = isAbsolute(ref) ? ref : normalize(join(dirname(file), ref));
    try {
      return { path, text: readFileSync(path, 'utf8') };
    } catch (error) {
      const reason = fileErrorReason(error);
      if (reason === undefined) throw error;
      throw new CliError(path === ref ? reason : `${reason} (${path})`);
    }
  };
}
