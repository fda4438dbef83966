/**
 * The rates of a vehicle document a page's fit may change and its rates' table shows
 * (docs/vehicle.md, "Viewer"): each axle's spring and anti-roll bar rate (`axle_config`) and its
 * bushings' and compliant links' rates (`compliance:`, src/suspension/vehicle/compliance-parameters.ts),
 * with their values now, and a rate moved where `kinemate fit` writes it in the axle file.
 */
import { vehicleParameterNames } from '../../suspension/vehicle/parameters.ts';
import { movedFile, placesOf, type DoePlace } from '../../suspension/design/doe-parameters.ts';
import { setNumberAtPath, stiffnessValues } from '../../suspension/compliance/fit-rates.ts';
import type { GeometryJson } from '../document.ts';
import type { AxleName, VehicleSpec } from '../../suspension/vehicle/index.ts';
import { vehicleSpecOf, type VehicleDocument } from './document.ts';

/** A spring's or bar's rate (N/mm; the bar's in its file's unit), and a bushing's or compliant link's. */
const RATE = /^(front|rear)\.(spring|anti_roll)\.rate$/;
const COMPLIANCE = /^(front|rear)\.compliance\./;

/** A rate a page's fit may change and its arrows show: its value now, its unit and how it is written into its axle file. */
export interface VehicleRate {
  name: string;
  /** A spring's or bar's rate (`axle_config`), or a bushing's or compliant link's (`compliance:`). */
  kind: 'device' | 'compliance';
  value: number;
  /** N/mm, or N·mm/deg (a bar's, a bushing's torsional and conical). */
  unit: string;
  axle: AxleName;
  /** Where a device's rate is in the file (doe-parameters.ts); null for a compliance rate (its path after the axle). */
  places: DoePlace[] | null;
}

/** The spring, bar and compliance rates of a vehicle, with their values now and their places in the axle files. */
export function vehicleRates(doc: VehicleDocument, spec: VehicleSpec = vehicleSpecOf(doc)): VehicleRate[] {
  return vehicleParameterNames(spec).filter((n) => RATE.test(n) || COMPLIANCE.test(n)).flatMap((name): VehicleRate[] => {
    const axle = name.split('.')[0] as AxleName, rest = name.slice(axle.length + 1), file = doc.axles[axle].geometry;
    if (COMPLIANCE.test(name)) {
      const value = stiffnessValues(spec[axle].geometry).get(rest);
      const unit = /\.(torsional|conical)$/.test(rest) ? 'N·mm/deg' : 'N/mm';
      return value === undefined ? [] : [{ name, kind: 'compliance', value, unit, axle, places: null }];
    }
    const places = placesOf(file, spec[axle].geometry, rest);
    if (typeof places === 'string' || places.length !== 1) return [];
    const value = places[0].path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], file);
    return typeof value === 'number' && Number.isFinite(value) ? [{ name, kind: 'device', value, unit: rest === 'anti_roll.rate' ? 'N·mm/deg' : 'N/mm', axle, places }] : [];
  });
}

/** The names of vehicleRates (what the page offers): every rate, or only the springs' and bars' (`device`), or only the bushings' and links' (`compliance`). */
export function vehicleRateNames(doc: VehicleDocument, kind?: VehicleRate['kind']): string[] {
  return vehicleRates(doc).filter((r) => kind === undefined || r.kind === kind).map((r) => r.name);
}

/** The document with one rate moved by d in its axle file (where `kinemate fit` writes it): one new document. */
export function moveVehicleRate(doc: VehicleDocument, rate: VehicleRate, d: number): VehicleDocument {
  const source = doc.axles[rate.axle];
  let geometry: GeometryJson;
  if (rate.places) geometry = movedFile(source.geometry, [rate.places], [d]) as GeometryJson;
  else {
    geometry = structuredClone(source.geometry);
    setNumberAtPath(geometry as Record<string, unknown>, rate.name.slice(rate.axle.length + 1), (v) => v + d);
  }
  return { ...doc, axles: { ...doc.axles, [rate.axle]: { ...source, geometry } } };
}
