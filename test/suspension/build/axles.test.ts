import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { parseAssembly, validateAssembly } from '../../../src/assembly';
import { SuspensionModel, type MetricValues } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';

type AxleMetrics = { axle: MetricValues; left: MetricValues; right: MetricValues };
const watts = () => new SuspensionModel(parseAssembly(readFileSync('examples/suspension/solid_axle_watts.kinemate.json', 'utf8')));

describe("live axle on a Watt's linkage (assembled by hand, roles only)", () => {
  it("the Watt's centre moves on its straight line within the closed-form error h⁵/(8·c·r³)·(1 + O((h/r)²))", () => {
    const sm = watts();
    const c = 100, r = 300; // half the centre link, the rods' length (the example's)
    for (const h of [-70, -50, -30, 30, 50, 70]) {
      const run = runSweep(sm, sweepFromShortcut('bump', `${h}:${h}:1`), { noSteering: true });
      expect(run.steps[0].status).toBe('solved');
      const p = run.steps[0].positions!.center_watts_pivot;
      expect(p[2]).toBeCloseTo(300 + h, 6); // the parallel side-view links keep it level with the hubs
      const closedForm = h ** 5 / (8 * c * r ** 3);
      // odd in h: the deviation changes side with the direction of travel
      expect(Math.abs(Math.abs(p[1]) - Math.abs(closedForm))).toBeLessThanOrEqual(2 * (h / r) ** 2 * Math.abs(closedForm));
      expect(Math.sign(p[1])).toBe(-Math.sign(h));
      // the beam follows its Watt's centre
      expect((run.steps[0].metrics as AxleMetrics).axle.axle_lateral_shift).toBeCloseTo(p[1], 9);
    }
  });

  it('rolls about the Watt’s pivot at design (the roll centre from the locating linkage), camber mirror-symmetric in roll, no roll steer with parallel links', () => {
    const sm = watts();
    const run = runSweep(sm, sweepFromShortcut('roll', '-3:3:7'), { noSteering: true });
    const at = (i: number) => run.steps[i].metrics as AxleMetrics;
    expect(at(3).axle.roll_center_linkage_y).toBeCloseTo(0, 9);
    expect(at(3).axle.roll_center_linkage_z).toBeCloseTo(300, 9);
    for (let i = 0; i < 7; i++) {
      expect(run.steps[i].status).toBe('solved');
      expect(at(i).left.camber).toBeCloseTo(-at(6 - i).left.camber!, 6);
      // a Watt's linkage is point- not mirror-symmetric, so the roll centre only stays near its pivot
      expect(Math.abs(at(i).axle.roll_center_linkage_z! - 300)).toBeLessThan(3);
      expect(Math.abs(at(i).axle.axle_steer!)).toBeLessThan(1e-3);
      // a beam: camber is the roll itself
      expect(at(i).left.camber! + at(i).axle.roll!).toBeCloseTo(0, 6);
    }
  });
});

describe('semi-trailing arm axle', () => {
  it('is mirror-symmetric: roll left and right swap the corners', () => {
    const sm = new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync('examples/suspension/semi_trailing_arm_axle.yaml', 'utf8')))));
    const run = runSweep(sm, sweepFromShortcut('roll', '-3:3:7'));
    for (let i = 0; i < 7; i++) {
      const a = run.steps[i].metrics as AxleMetrics, b = run.steps[6 - i].metrics as AxleMetrics;
      for (const k of ['camber', 'toe_angle', 'wheel_travel', 'damper_length', 'deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z']) {
        expect(a.left[k]!, k).toBeCloseTo(b.right[k]!, 8);
      }
      expect(a.axle.roll_center_y!).toBeCloseTo(-b.axle.roll_center_y!, 6);
    }
    // the swept pivot axis: bump changes toe (semi-trailing), unlike a pure trailing arm
    expect(Math.abs((run.steps[0].metrics as AxleMetrics).left.toe_angle!)).toBeGreaterThan(0.1);
  });
});

describe('solid_axle geometry files', () => {
  const load = (name: string) => new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')))));

  it("the template's Watt's axle gives the hand-assembled one's numbers through heave and roll", () => {
    const template = load('solid_axle_watts'), hand = watts();
    for (const [kind, range] of [['bump', '-60:60:5'], ['roll', '-3:3:5']] as const) {
      const a = runSweep(template, sweepFromShortcut(kind, range), { noSteering: true }), b = runSweep(hand, sweepFromShortcut(kind, range), { noSteering: true });
      for (let i = 0; i < a.steps.length; i++) {
        const ma = a.steps[i].metrics as AxleMetrics, mb = b.steps[i].metrics as AxleMetrics;
        for (const group of ['axle', 'left', 'right'] as const) {
          for (const [k, v] of Object.entries(mb[group])) {
            if (typeof v === 'number') expect(Math.abs((ma[group][k] as number) - v), `${group}.${k}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(v)));
          }
        }
        expect(a.steps[i].positions!.center_watts_pivot[1]).toBeCloseTo(b.steps[i].positions!.center_watts_pivot[1], 9);
      }
    }
  });

  it('Panhard rod: the beam shifts along the rod’s arc in heave, and rolls about where the rod crosses the centre plane', () => {
    const sm = load('solid_axle_panhard');
    const chassisEnd = [-550, 330], beamEnd = [550, 300];
    const radius = Math.hypot(beamEnd[0] - chassisEnd[0], beamEnd[1] - chassisEnd[1]);
    for (const h of [-50, -20, 20, 50]) {
      const m = runSweep(sm, sweepFromShortcut('bump', `${h}:${h}:1`), { noSteering: true }).steps[0].metrics as AxleMetrics;
      // the beam end stays on its circle about the chassis end (the trailing links' fore-aft arc shortens the rod's front view by < 0.01 mm)
      const arc = Math.sqrt(radius ** 2 - (beamEnd[1] + h - chassisEnd[1]) ** 2) - (beamEnd[0] - chassisEnd[0]);
      expect(Math.abs(m.axle.axle_lateral_shift! - arc)).toBeLessThan(0.02);
    }
    sm.resetToDesign();
    const design = sm.evaluate().metrics as AxleMetrics;
    expect(design.axle.roll_center_linkage_y).toBeCloseTo(0, 9);
    expect(design.axle.roll_center_linkage_z).toBeCloseTo((chassisEnd[1] + beamEnd[1]) / 2, 9);
  });

  it('four links are mirror-symmetric: roll shifts the beam antisymmetrically, pitches it alike; a De Dion beam has no pinion angle', () => {
    const run = runSweep(load('solid_axle_four_link'), sweepFromShortcut('roll', '-3:3:5'), { noSteering: true });
    for (let i = 0; i < 5; i++) {
      const a = run.steps[i].metrics as AxleMetrics, b = run.steps[4 - i].metrics as AxleMetrics;
      expect(a.axle.axle_lateral_shift!).toBeCloseTo(-b.axle.axle_lateral_shift!, 9);
      expect(a.axle.axle_steer!).toBeCloseTo(-b.axle.axle_steer!, 9);
      expect(a.axle.pinion_angle_change!).toBeCloseTo(b.axle.pinion_angle_change!, 9);
      expect(a.left.camber!).toBeCloseTo(b.right.camber!, 9);
    }
    const deDion = load('de_dion_panhard').evaluate().metrics as AxleMetrics;
    expect('pinion_angle_change' in deDion.axle).toBe(false);
    expect(deDion.axle.axle_lateral_shift).toBe(0);
  });

  it('refuses a solid axle without its locating linkage, or short of its points, with their paths', () => {
    const problems = (text: string) => {
      try { parseGeometry(text); } catch (e) { return (e as { problems: { path: string }[] }).problems.map((p) => p.path); }
      return [];
    };
    const text = readFileSync('examples/suspension/solid_axle_four_link.yaml', 'utf8');
    expect(problems(text.replace('  locating: { type: four_link }\n', ''))[0]).toBe('axle_config.locating');
    expect(problems(text.replace('    upper_link_axle: { x: 0, y: 500, z: 450 }\n', ''))).toEqual(['hardpoints.left.upper_link_axle']);
    expect(problems(text.replace('locating: { type: four_link }', 'locating: { type: watts }'))).toEqual(expect.arrayContaining(['hardpoints.left.upper_link_chassis', 'hardpoints.center.watts_pivot']));
    expect(problems(text.replace('  steering: { type: none }', '  steering: { type: rack }'))).toEqual(['axle_config.steering.type']);
  });
});
