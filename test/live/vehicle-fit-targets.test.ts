/**
 * The viewer's vehicle fit with targets as ranges and weights (src/live/vehicle/design-fit.ts):
 * the same answer as `kinemate fit` (the real command, in process) on the same vehicle file, the
 * same targets file's targets and the same moves; the moves written into the document give a car,
 * built afresh, whose figures are where the report says; each target said met, on its range's
 * edge, or missed by how much; a heavier weight pulls the compromise towards its target.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVehicle, frequencySensitivity } from '../../src/suspension/vehicle/index.ts';
import { fitVehicleDocument, readVehicleDocument, targetOutcome, vehicleLiveFrame, vehicleSpecOf, type VehicleDocument } from '../../src/live/vehicle/index.ts';
import { runMain, tempFolder } from '../cli/helpers.ts';

const EX = join(__dirname, '../../examples');
const SEDAN = join(EX, 'vehicles/sedan.vehicle.yaml');
const read = (p: string) => readFileSync(join(EX, p), 'utf8');
const FILES = { 'double_wishbone_axle_front.yaml': read('suspension/double_wishbone_axle_front.yaml'), 'multi_link_axle_rear.yaml': read('suspension/multi_link_axle_rear.yaml') };
const sedan = (): VehicleDocument => readVehicleDocument('sedan.vehicle.yaml', read('vehicles/sedan.vehicle.yaml'), FILES);
const roll = (doc: VehicleDocument) => vehicleLiveFrame(doc, 0, { quick: true }).figures!.roll_gradient;
const heave = (doc: VehicleDocument) => {
  const r = frequencySensitivity(buildVehicle(vehicleSpecOf(doc)), [], ['vehicle.heave_frequency']);
  if (r.status !== 'solved') throw new Error(r.message);
  return r.metrics['vehicle.heave_frequency'].value;
};
const RATES = ['front.spring.rate', 'front.anti_roll.rate', 'rear.spring.rate'];
// the sedan's rates: 2000 N/mm, 30000 N·mm/deg, 100 N/mm; ±50 % as the page's default box
const BOX = { 'front.spring.rate': 1000, 'front.anti_roll.rate': 15000, 'rear.spring.rate': 50 } as Record<string, number>;

describe('the viewer\'s vehicle fit: targets as ranges and weights', () => {
  it('a range (roll gradient at most 0.42 deg/g) and a weighted value (heave 3.45 Hz, weight 2) by the three rates: kinemate fit\'s answer, the rates at the box, both missed', async () => {
    const doc = sedan();
    expect(roll(doc)).toBeGreaterThan(0.44);
    const targets = [{ metric: 'vehicle.roll_gradient', max: 0.42 }, { metric: 'vehicle.heave_frequency', value: 3.45, weight: 2 }];
    const page = fitVehicleDocument(doc, { targets, pickups: [], axes: ['z'], box: 20, locked: true, rates: RATES, rateBox: 0.5 });
    if ('error' in page) throw new Error(page.error);

    const tmp = tempFolder();
    try {
      const file = tmp.file('targets.yaml');
      writeFileSync(file, `move:\n${RATES.map((n) => `  ${n}: [${-BOX[n]}, ${BOX[n]}]`).join('\n')}\ntargets:\n`
        + '  - { metric: vehicle.roll_gradient, max: 0.42 }\n  - { metric: vehicle.heave_frequency, value: 3.45, weight: 2 }\n');
      const run = await runMain(['fit', SEDAN, '--targets', file, '--out', tmp.file('fitted.json')]);
      const cli = JSON.parse(run.stdout);
      // not met: the command's status, exit 2
      expect(run.code, run.stderr).toBe(2);
      expect(page.report.status).toBe(cli.status);
      expect(page.report.status).toBe('at_bounds');
      expect(page.report.iterations).toBe(cli.iterations);
      expect(page.report.at_bound).toEqual(cli.at_bound);
      for (const n of RATES) expect(Math.abs(page.report.moves[n].delta - cli.moves[n].delta), n).toBeLessThan(1e-9 * BOX[n]);
      expect(page.report.targets.map((t) => t.wanted)).toEqual(cli.targets.map((t: { wanted: string }) => t.wanted));
      page.report.targets.forEach((t, i) => expect(Math.abs(t.value - cli.targets[i].value)).toBeLessThan(1e-9));
    } finally { tmp.remove(); }
    // the front spring at its low edge and the bar at its high one, the roll gradient still above the band
    expect(page.report.at_bound).toEqual(['front.spring.rate (low)', 'front.anti_roll.rate (high)']);
    const [r, h] = page.outcomes;
    expect(r).toEqual({ target: 'vehicle.roll_gradient', met: false, miss: expect.closeTo(page.report.targets[0].value - 0.42, 12) });
    expect((r as { miss: number }).miss).toBeGreaterThan(0.005);
    expect(h.met).toBe(false);
    // the written car, built afresh, has the figures the report gives
    expect(roll(page.doc!)).toBeCloseTo(page.report.targets[0].value, 7);
    expect(heave(page.doc!)).toBeCloseTo(page.report.targets[1].value, 7);
  }, 180_000);

  it('a range the rates can reach (roll gradient at most 0.44 deg/g) with the heave at 3.45 Hz: both met, the roll gradient inside the band or on its max', () => {
    const doc = sedan();
    const page = fitVehicleDocument(doc, {
      targets: [{ metric: 'vehicle.roll_gradient', max: 0.44 }, { metric: 'vehicle.heave_frequency', value: 3.45, weight: 2 }],
      pickups: [], axes: ['z'], box: 20, locked: true, rates: RATES, rateBox: 0.5,
    });
    if ('error' in page) throw new Error(page.error);
    expect(page.report.status).toBe('converged');
    // the band's miss is zero inside it: the fit stops once inside (a step may cross the edge), which the page says
    const [r, h] = page.outcomes;
    expect(r.met && h.met).toBe(true);
    const reached = roll(page.doc!);
    expect(reached).toBeLessThanOrEqual(0.44 + 1e-7);
    expect(reached).toBeCloseTo(page.report.targets[0].value, 7);
    expect(r).toEqual(Math.abs(reached - 0.44) < 1e-6 ? { target: 'vehicle.roll_gradient', met: true, edge: 'max' } : { target: 'vehicle.roll_gradient', met: true });
    expect(heave(page.doc!)).toBeCloseTo(3.45, 7);
  }, 180_000);

  it('a weight pulls the compromise: two heave targets no rate can both meet end nearer the heavier one', () => {
    // the same figure wanted at two values: the weighted mean of the two is the least-squares answer, (w1 v1 ... ) with w² weights
    const doc = sedan();
    const fit = (w: number) => {
      const out = fitVehicleDocument(doc, {
        targets: [{ metric: 'vehicle.heave_frequency', value: 3.3 }, { metric: 'vehicle.heave_frequency', value: 3.4, weight: w }],
        pickups: [], axes: ['z'], box: 20, locked: true, rates: ['rear.spring.rate'], rateBox: 0.5,
      });
      if ('error' in out) throw new Error(out.error);
      return out;
    };
    for (const w of [1, 3]) {
      const out = fit(w);
      // min ½[(f − 3.3)² + w²(f − 3.4)²]: f = (3.3 + w² 3.4)/(1 + w²)
      const f = (3.3 + w * w * 3.4) / (1 + w * w);
      expect(out.report.targets[0].value, `weight ${w}`).toBeCloseTo(f, 6);
      expect(out.outcomes.map((o) => o.met)).toEqual([false, false]);
      const [a, b] = out.outcomes as { miss: number }[];
      expect(a.miss).toBeCloseTo(f - 3.3, 6);
      expect(b.miss).toBeCloseTo(f - 3.4, 6);
    }
  }, 180_000);

  it('says met, on an edge or missed by how much; refuses a target that is neither a value nor a range', () => {
    expect(targetOutcome({ metric: 'm', value: 2 }, 2 + 1e-8)).toEqual({ target: 'm', met: true });
    expect(targetOutcome({ metric: 'm', value: 2 }, 2.01)).toEqual({ target: 'm', met: false, miss: expect.closeTo(0.01, 12) });
    expect(targetOutcome({ metric: 'm', min: 1, max: 3 }, 2)).toEqual({ target: 'm', met: true });
    expect(targetOutcome({ metric: 'm', min: 1, max: 3 }, 1)).toEqual({ target: 'm', met: true, edge: 'min' });
    expect(targetOutcome({ metric: 'm', max: 3 }, 3.5)).toEqual({ target: 'm', met: false, miss: 0.5 });
    expect(targetOutcome({ metric: 'm', min: 1 }, 0.5)).toEqual({ target: 'm', met: false, miss: -0.5 });
    const doc = sedan();
    const ask = (t: object) => fitVehicleDocument(doc, { targets: [{ metric: 'vehicle.roll_gradient', ...t }], pickups: [], axes: ['z'], box: 20, locked: true, rates: RATES });
    expect(ask({})).toEqual({ error: expect.stringMatching(/roll_gradient: give the value wanted, or a range/) });
    expect(ask({ min: 0.5, max: 0.4 })).toEqual({ error: expect.stringMatching(/min 0.5 is above max 0.4/) });
    expect(ask({ value: 0.4, weight: 0 })).toEqual({ error: expect.stringMatching(/weight must be above 0/) });
    expect(ask({ value: 0.4, max: 0.5 })).toEqual({ error: expect.stringMatching(/a value or a range, not both/) });
  });
});
