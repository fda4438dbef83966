/**
 * An ISO 8608 random road (docs/dynamics.md, "ISO 8608 random road"): the displacement PSD
 * Gd(n) = Gd(n0)·(n/n0)^−2 with n0 = 0.1 cycles/m and Gd(n0) the geometric mean of the class
 * (A 16e-6 m³, ×4 per class up to H), written as a sum of sinusoids at the harmonics n_k = k/L
 * of the road's length L over the band 0.011–2.83 cycles/m (wavelengths 90 m down to 0.35 m),
 * each of amplitude sqrt(2·Gd(n_k)·Δn), Δn = 1/L, and a phase drawn from the project's seeded
 * generator (kernel/random.ts). The profile is periodic over L, so its periodogram at n_k is
 * exactly Gd(n_k) for every seed; it is shifted to start at height 0 (the design contact).
 * Sampled as a road table in the files' units: [x m | t s, height mm].
 */
import { ArgumentError } from '../../../kernel/errors';
import { seededRandom } from '../../../kernel/random';

export const ISO8608_CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
export type Iso8608Class = (typeof ISO8608_CLASSES)[number];
/** cycles/m: the reference spatial frequency. */
export const ISO8608_N0 = 0.1;
/** cycles/m: the band the road is built over. */
export const ISO8608_BAND: readonly [number, number] = [0.011, 2.83];
/** m: the default distance between table rows (≥ 14 rows per 0.35 m wavelength). */
export const ISO8608_STEP = 0.025;
/** m: the longest road built (its cost grows as L², components × rows). */
export const ISO8608_MAX_LENGTH = 2000;

/** m³: Gd(n0), the class's geometric mean (A 16e-6, ×4 per class). */
export function iso8608Gd0(roadClass: Iso8608Class): number {
  return 16e-6 * 4 ** ISO8608_CLASSES.indexOf(roadClass);
}

/** m³: the class's displacement PSD at n cycles/m. */
export function iso8608Psd(roadClass: Iso8608Class, n: number): number {
  return iso8608Gd0(roadClass) * (n / ISO8608_N0) ** -2;
}

export interface Iso8608Options {
  roadClass: Iso8608Class;
  /** An integer, 0 ≤ seed < 2³²: the same seed gives the same road. */
  seed: number;
  /** m, > 0, at most ISO8608_MAX_LENGTH. */
  length: number;
  /** m/s: given, the table's first column is time (s) at this speed; absent, distance (m). */
  speedMps?: number;
  /** m between rows, default ISO8608_STEP (rounded down so rows fall on the length). */
  step?: number;
}

export interface Iso8608Components {
  /** cycles/m: Δn = 1/length. */
  dn: number;
  /** cycles/m, k/length. */
  n: Float64Array;
  /** m, sqrt(2·Gd(n)·Δn). */
  amplitude: Float64Array;
  /** rad, uniform in [0, 2π) from the seed. */
  phase: Float64Array;
}

/** Refuse bad options naming the argument. */
function check(o: Iso8608Options): void {
  const bad = (path: string, reason: string): never => { throw new ArgumentError(path, reason); };
  if (!ISO8608_CLASSES.includes(o.roadClass)) bad('roadClass', `expected one of ${ISO8608_CLASSES.join(', ')}, got ${JSON.stringify(o.roadClass)}`);
  if (!Number.isInteger(o.seed) || o.seed < 0 || o.seed >= 2 ** 32) bad('seed', `expected an integer 0 ≤ seed < 2^32, got ${o.seed}`);
  if (!(o.length > 0) || !Number.isFinite(o.length)) bad('length', `must be > 0 m (got ${o.length})`);
  if (o.length > ISO8608_MAX_LENGTH) bad('length', `at most ${ISO8608_MAX_LENGTH} m (got ${o.length})`);
  if (o.length * ISO8608_BAND[1] < 1) bad('length', `at least ${(1 / ISO8608_BAND[1]).toFixed(2)} m: a shorter road holds no wavelength of the band (got ${o.length})`);
  if (o.speedMps !== undefined && (!(o.speedMps > 0) || !Number.isFinite(o.speedMps))) bad('speedMps', `must be > 0 m/s (got ${o.speedMps})`);
  if (o.step !== undefined && (!(o.step > 0) || !(o.step <= o.length))) bad('step', `must be > 0 m and at most the length (got ${o.step})`);
}

/** The sinusoids of the road: harmonics of the length within the band, their amplitudes and seeded phases. */
export function iso8608Components(o: Iso8608Options): Iso8608Components {
  check(o);
  const dn = 1 / o.length;
  const k0 = Math.max(1, Math.ceil(ISO8608_BAND[0] * o.length)), k1 = Math.floor(ISO8608_BAND[1] * o.length);
  const count = k1 - k0 + 1;
  const n = new Float64Array(count), amplitude = new Float64Array(count), phase = new Float64Array(count);
  const random = seededRandom(o.seed);
  for (let i = 0; i < count; i++) {
    n[i] = (k0 + i) * dn;
    amplitude[i] = Math.sqrt(2 * iso8608Psd(o.roadClass, n[i]) * dn);
    phase[i] = 2 * Math.PI * random();
  }
  return { dn, n, amplitude, phase };
}

/**
 * The road as a table [[x m, height mm], …] from x = 0 to the length (or [[t s, height mm], …],
 * t = x / speedMps), rows `step` apart; height 0 at the start.
 */
export function iso8608Road(o: Iso8608Options): [number, number][] {
  const c = iso8608Components(o);
  const rows = Math.ceil(o.length / (o.step ?? ISO8608_STEP) - 1e-9);
  const dx = o.length / rows;
  const h = new Float64Array(rows + 1);
  // each sinusoid by rotation (cos, sin) → (cos, sin)·e^{iθ}: two products a row, no sin() per row
  for (let i = 0; i < c.n.length; i++) {
    const w = 2 * Math.PI * c.n[i] * dx, cw = Math.cos(w), sw = Math.sin(w), a = c.amplitude[i];
    let re = Math.cos(c.phase[i]), im = Math.sin(c.phase[i]);
    for (let j = 0; j <= rows; j++) {
      h[j] += a * im;
      const r = re * cw - im * sw;
      im = re * sw + im * cw;
      re = r;
    }
  }
  const scale = o.speedMps === undefined ? 1 : 1 / o.speedMps;
  const table: [number, number][] = new Array(rows + 1);
  for (let j = 0; j <= rows; j++) table[j] = [j * dx * scale, (h[j] - h[0]) * 1000];
  return table;
}
