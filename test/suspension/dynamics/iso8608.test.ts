/**
 * The ISO 8608 random road: its periodogram against the class's Gd(n) = Gd(n0)·(n/n0)^−2 written
 * out here from the standard's numbers, its variance against the PSD's integral over the band,
 * the class ratios, the seed's determinism, the refusals, and one run of `kinemate simulate`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { iso8608Road, type Iso8608Class } from '../../../src/suspension/dynamics/iso8608';
import { readSuspensionDynamics } from '../../../src/suspension/dynamics/model';
import { parseText } from '../../../src/suspension/files/read';
import { validateGeometry } from '../../../src/suspension/files';
import { ArgumentError } from '../../../kernel/errors';
import { kinemate, tempFolder } from '../../cli/helpers';

/** ISO 8608's geometric means Gd(n0), m³, n0 = 0.1 cycles/m. */
const GD0: Record<Iso8608Class, number> = { A: 16e-6, B: 64e-6, C: 256e-6, D: 1024e-6, E: 4096e-6, F: 16384e-6, G: 65536e-6, H: 262144e-6 };
const gd = (c: Iso8608Class, n: number) => GD0[c] * (n / 0.1) ** -2;
const heightsM = (rows: [number, number][]) => rows.map((r) => r[1] / 1000);

/** One-sided periodogram (m³) of one period of N samples dx apart at bin k: 2|X_k|²·dx/N. */
function periodogram(h: number[], dx: number, k: number): number {
  const N = h.length;
  let re = 0, im = 0;
  for (let j = 0; j < N; j++) { const a = (2 * Math.PI * k * j) / N; re += h[j] * Math.cos(a); im -= h[j] * Math.sin(a); }
  return (2 * (re * re + im * im) * dx) / N;
}

describe('iso8608Road', () => {
  it('its periodogram equals the class\'s Gd(n) at every harmonic in 0.011–2.83 cycles/m (1e-6), and is empty outside the band', () => {
    const length = 100, step = 0.05;
    for (const [roadClass, seed] of [['A', 1], ['C', 7], ['H', 123456]] as const) {
      const rows = iso8608Road({ roadClass, seed, length, step });
      expect(rows.length).toBe(length / step + 1);
      expect(rows[rows.length - 1][0]).toBeCloseTo(length, 12);
      const h = heightsM(rows).slice(0, -1); // one period: x = L repeats x = 0
      for (const k of [2, 3, 10, 57, 150, 283]) {
        const n = k / length;
        expect(periodogram(h, step, k) / gd(roadClass, n)).toBeCloseTo(1, 6);
      }
      // below 0.011 (k = 1) and above 2.83 (k = 284…) there is no power
      for (const k of [1, 284, 400]) expect(periodogram(h, step, k)).toBeLessThan(1e-12 * gd(roadClass, 0.1));
    }
  });

  it('its variance is the PSD\'s integral over the band, Gd(n0)·n0²·(1/n1 − 1/n2) (2 %)', () => {
    const length = 200, rows = iso8608Road({ roadClass: 'D', seed: 3, length, step: 0.05 });
    const h = heightsM(rows).slice(0, -1);
    const mean = h.reduce((s, x) => s + x, 0) / h.length;
    const variance = h.reduce((s, x) => s + (x - mean) ** 2, 0) / h.length;
    // the harmonics k = 3 … 566 of 1/200 m stand for the band from 2.5/L to 566.5/L
    const n1 = 2.5 / length, n2 = 566.5 / length;
    expect(Math.abs(variance / (GD0.D * 0.01 * (1 / n1 - 1 / n2)) - 1)).toBeLessThan(0.02);
  });

  it('each class is 4× the PSD of the one before: the same seed gives the profile ×2, so the RMS ×2', () => {
    const classes = Object.keys(GD0) as Iso8608Class[];
    const road = (c: Iso8608Class) => iso8608Road({ roadClass: c, seed: 42, length: 50 });
    let before = road('A');
    for (const c of classes.slice(1)) {
      const now = road(c);
      for (let j = 0; j < now.length; j += 97) expect(now[j][1]).toBeCloseTo(2 * before[j][1], 9);
      before = now;
    }
  });

  it('the same seed gives the same road; another seed another; at a speed the first column is time', () => {
    const a = iso8608Road({ roadClass: 'B', seed: 5, length: 40 });
    expect(iso8608Road({ roadClass: 'B', seed: 5, length: 40 })).toEqual(a);
    const b = iso8608Road({ roadClass: 'B', seed: 6, length: 40 });
    const rms = (f: (j: number) => number) => Math.sqrt(a.reduce((s, _, j) => s + f(j) ** 2, 0) / a.length);
    expect(rms((j) => a[j][1] - b[j][1])).toBeGreaterThan(0.5 * rms((j) => a[j][1]));
    const timed = iso8608Road({ roadClass: 'B', seed: 5, length: 40, speedMps: 20 });
    expect(timed.map((r) => r[1])).toEqual(a.map((r) => r[1]));
    for (const j of [1, 100, timed.length - 1]) expect(timed[j][0]).toBeCloseTo(a[j][0] / 20, 12);
    expect(a[0]).toEqual([0, 0]);
  });

  it('refuses an unknown class, a non-integer seed, a non-positive length or speed, naming the argument', () => {
    const ok = { roadClass: 'C' as Iso8608Class, seed: 1, length: 10 };
    const refused = (o: Record<string, unknown>) => { try { iso8608Road({ ...ok, ...o }); } catch (e) { return e instanceof ArgumentError ? e.path : 'not an ArgumentError'; } return 'accepted'; };
    expect(refused({ roadClass: 'I' })).toBe('roadClass');
    expect(refused({ seed: 1.5 })).toBe('seed');
    expect(refused({ seed: -1 })).toBe('seed');
    expect(refused({ length: 0 })).toBe('length');
    expect(refused({ length: 0.2 })).toBe('length');
    expect(refused({ speedMps: 0 })).toBe('speedMps');
  });
});

const EXAMPLE = 'examples/suspension/double_wishbone_dynamics.yaml';

describe('dynamics.road.iso8608 in a geometry file', () => {
  const text = readFileSync(EXAMPLE, 'utf8');
  const geometry = validateGeometry(parseText(text));

  it('is read as the table iso8608Road builds (speed in km/h, length in m); bad fields named by path, all at once', () => {
    const spec = readSuspensionDynamics({ tyre: { stiffness: 200 }, road: { iso8608: { class: 'E', seed: 9, speed_kmh: 36, length_m: 30 } } }, geometry);
    expect(spec.road.left).toEqual({ table: iso8608Road({ roadClass: 'E', seed: 9, length: 30, speedMps: 10 }) });
    expect(() => readSuspensionDynamics({ tyre: { stiffness: 200 }, road: { iso8608: { class: 'Z', seed: 0.5, speed_kmh: -3, length_m: 0, lane: 1 } } }, geometry))
      .toThrow(/dynamics.road.iso8608.lane: unknown field[\s\S]*iso8608.class: expected one of A, B, C, D, E, F, G, H, got "Z"[\s\S]*iso8608.seed: expected an integer[\s\S]*iso8608.speed_kmh: must be > 0[\s\S]*iso8608.length_m: must be > 0/);
    expect(() => readSuspensionDynamics({ tyre: { stiffness: 200 }, road: { iso8608: { class: 'A', seed: 1, speed_kmh: 10, length_m: 0.1 } } }, geometry))
      .toThrow(/^dynamics.road.iso8608.length_m: at least 0.35 m/);
  });

  it('kinemate simulate runs the example over a class D road and reports the road it drove', async () => {
    const tmp = tempFolder();
    try {
      const road = '{ iso8608: { class: D, seed: 2, speed_kmh: 72, length_m: 20 } }';
      expect(text).toMatch(/^ {2}road: .*$/m);
      const file = tmp.file('iso.yaml');
      writeFileSync(file, text.replace(/^ {2}road: .*$/m, `  road: ${road}`));
      const run = await kinemate(['simulate', file, '--duration', '0.2', '--step', '0.001', '--every', '50', '--format', 'csv']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const [head, ...lines] = run.stdout.trim().split('\n');
      const cols = head.split(','), t = cols.indexOf('t'), z = cols.indexOf('left.road');
      expect(lines.length).toBe(5);
      // the road column is the table at the frame's time (linear between rows 1.25 ms apart)
      const table = iso8608Road({ roadClass: 'D', seed: 2, length: 20, speedMps: 20 });
      for (const line of lines) {
        const v = line.split(',').map(Number), j = Math.round(v[t] / 0.00125);
        expect(table[j][0]).toBeCloseTo(v[t], 9);
        expect(v[z]).toBeCloseTo(table[j][1], 3);
      }
      expect(lines.some((l) => Math.abs(Number(l.split(',')[z])) > 1)).toBe(true);
    } finally { tmp.remove(); }
  });
});
