/** Hardpoint sensitivities of an axle: both sides' and the centre's hardpoints, metrics grouped by side. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAgainstDifferences, gradientsAt } from './axle-differences';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { SensitivityModel, sensitivitySweep, SensitivityError, type SideMetrics } from '../../../src/suspension/gradients/model';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

describe('axle sensitivities: every hardpoint of both sides and the centre', () => {
  it('steered double wishbone axle: every entry of both sides matches central differences; the rack couples the sides', () => {
    const { worst, grads } = checkAgainstDifferences(load('double_wishbone_axle_steering'), 15);
    expect(worst).toBeLessThan(2e-4);
    // the right toe feels the left track rod only through the rack it shares with it: here, held, not at all
    expect(Math.abs(grads.left.toe_angle!.gradient['left.trackrod_inboard.z'])).toBeGreaterThan(1e-3);
  });

  // the U-bar axle's, at −10 mm: bar-axles.test.ts, beside its other checks at that state

  // the solid axle with a Panhard rod, at +20 mm: devices.test.ts, beside its other checks at that state

  it("a mirrored axle has mirrored gradients: x and z alike, y opposite, no cross-side terms in a corner's own angles", () => {
    const g = load('double_wishbone_axle');
    const grads = gradientsAt(g, 25);
    for (const m of ['camber', 'toe_angle', 'caster', 'half_track']) {
      const l = grads.left[m]!, r = grads.right[m]!;
      expect(r.value).toBeCloseTo(l.value, 9);
      const largest = Math.max(...Object.values(l.gradient).map(Math.abs));
      for (const [key, d] of Object.entries(l.gradient)) {
        const [group, name, ax] = key.split('.');
        if (group === 'right') {
          // half track is measured across the axle (its ground line joins both contact patches): it feels the other side
          if (m !== 'half_track') expect(Math.abs(d)).toBeLessThan(1e-8 * largest); // round-off of the coupled solve
          continue;
        }
        if (group !== 'left') continue;
        const mirror = r.gradient[`right.${name}.${ax}`];
        expect(Math.abs(mirror - (ax === 'y' ? -d : d))).toBeLessThan(1e-8 * largest);
      }
    }
  });

  it('the corner-only sweep refuses an axle and names the route that takes it', () => {
    const model = new SensitivityModel(load('double_wishbone_axle'));
    expect(() => sensitivitySweep(model, sweepFromShortcut('bump', '0:0:1'))).toThrow(SensitivityError);
    expect(() => sensitivitySweep(model, sweepFromShortcut('bump', '0:0:1'))).toThrow(/sensitivitySweepBySide/);
  });

  it('kinemate sensitivity on an axle prints metrics.<side>.<name> over left., right. and center. hardpoints, equal to the library; CSV names the side', async () => {
    const file = 'examples/suspension/double_wishbone_axle_u_bar.yaml';
    const io = memoryIO();
    expect(await main(['sensitivity', file, '--at', 'bump=-10', '--metric', 'camber'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { scope: string; sweeps: Record<string, { steps: { metrics: SideMetrics }[] }> };
    expect(out.scope).toBe('axle');
    const printed = out.sweeps['bump=-10'].steps[0].metrics;
    const lib = gradientsAt(load('double_wishbone_axle_u_bar'), -10);
    expect(Object.keys(printed)).toEqual(['left', 'right']);
    for (const side of ['left', 'right']) {
      expect(printed[side].camber!.value).toBeCloseTo(lib[side].camber!.value, 9);
      for (const [key, d] of Object.entries(lib[side].camber!.gradient)) expect(printed[side].camber!.gradient[key]).toBeCloseTo(d, 9);
    }
    expect(Object.keys(printed.left.camber!.gradient).some((k) => k.startsWith('center.'))).toBe(true);
    const csv = memoryIO();
    expect(await main(['sensitivity', file, '--at', 'bump=-10', '--metric', 'camber', '--format', 'csv'], csv)).toBe(0);
    const rows = csv.written.stdout.trim().split('\n').slice(1);
    expect(rows.length).toBe(2 * Object.keys(lib.left.camber!.gradient).length);
    expect(rows[0]).toMatch(/^bump=-10,0,solved,left\.camber,/);
  });
});
