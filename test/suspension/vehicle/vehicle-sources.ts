/** Vehicle files for the tests: the sedan example, read with its axle files edited on the way in. */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { readVehicleFile, type VehicleSpec } from '../../../src/suspension/vehicle/file';

export const SEDAN = 'examples/vehicles/sedan.vehicle.yaml';

/** Read a vehicle file (text or the sedan's), its axle files passed through `edit` (path → text). */
export function readVehicle(text = readFileSync(SEDAN, 'utf8'), edit: (path: string, text: string) => string = (_p, t) => t): VehicleSpec {
  return readVehicleFile(text, SEDAN, (ref) => {
    const path = normalize(join(dirname(SEDAN), ref));
    return { path, text: edit(path, readFileSync(path, 'utf8')) };
  });
}

/** The sedan's text with one line replaced (a bad-input case). */
export function sedanWith(from: string | RegExp, to: string): string {
  const text = readFileSync(SEDAN, 'utf8');
  const out = text.replace(from, to);
  if (out === text) throw new Error(`sedanWith: ${String(from)} not found`);
  return out;
}
