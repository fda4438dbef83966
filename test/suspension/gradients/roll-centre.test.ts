/**
 * Roll-centre and axle-level gradients against central differences of the re-solved
 * pipeline: a corner's roll centre is its mirrored axle's (checked as that axle's sweep),
 * an axle's own metrics as `kinemate sweep` gives them.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { axleFromCornerText, sweptMetrics, forgetKept } from '../moves';
import { checkVirtual } from './virtual-differences';
import { AXLE_METRICS, axleGrads, worstAgainstDifferences } from './roll-centre-differences';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import { SensitivityModel, sensitivityAt, type MetricGradient, type SideMetrics } from '../../../src/suspension/gradients/model';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

/** The axle metrics of the whole pipeline (a fresh model, both wheels at `bump`). */
function axleMetricsOf(g: Geometry, bump: number): Record<string, number | null> {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const r = runSweep(sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), { noSteering: true });
  return (r.steps[0].metrics as unknown as { axle: Record<string, number | null> }).axle;
}

/** The axle file that mirrors a corner file's hardpoints (the DW corner and its axle example share them). */
function mirroredAxle(corner: Geometry, axle: Geometry): Geometry {
  const out = structuredClone(axle);
  for (const c of out.corners) {
    for (const [name, p] of Object.entries(corner.corners[0].hardpoints)) c.hardpoints[name] = c.side === 'right' ? [p[0], -p[1], p[2]] : [...p];
  }
  return out;
}

describe('roll-centre gradients', () => {
  const corner = load('double_wishbone'), axle = load('double_wishbone_axle');

  it('a corner: roll_center_kinematic_z is its mirrored axle\'s, and every entry matches central differences of that axle re-solved', () => {
    for (const bump of [0, 25]) {
      const sens = sensitivityAt(corner, bump, ['roll_center_kinematic_z']);
      const rc = (g: Geometry) => axleMetricsOf(mirroredAxle(g, axle), bump);
      expect(sens.roll_center_kinematic_z!.value).toBeCloseTo(rc(corner).roll_center_kinematic_z!, 8);
      expect(worstAgainstDifferences(sens, rc, corner)).toBeLessThan(2e-4);
    }
    // the fit moves the upper arm's inboard points: they do raise it
    const at0 = sensitivityAt(corner, 0, ['roll_center_kinematic_z']).roll_center_kinematic_z!;
    expect(Math.abs(at0.gradient['upper_wishbone_inboard_front.z'])).toBeGreaterThan(1e-2);
  });

  it('a corner: roll_center_z (contact → FVIC line met with y = 0) is its mirrored axle\'s, null where the FVIC is at infinity', () => {
    // the public DW has parallel, level wishbones at design: no FVIC
    expect(sensitivityAt(corner, 0, ['roll_center_z']).roll_center_z).toBeNull();
    expect(axleMetricsOf(mirroredAxle(corner, axle), 0).roll_center_z).toBeNull();
    const sens = sensitivityAt(corner, 25, ['roll_center_z']);
    const rc = (g: Geometry) => axleMetricsOf(mirroredAxle(g, axle), 25);
    expect(sens.roll_center_z!.value).toBeCloseTo(rc(corner).roll_center_z!, 8);
    expect(worstAgainstDifferences(sens, rc, corner)).toBeLessThan(2e-4);
  });

  it('adjoint and direct routes agree on the corner roll centres (and the kinematic one is the same in both)', () => {
    const model = new SensitivityModel(corner);
    const a = sensitivityAt(model, 25, ['roll_center_z', 'roll_center_kinematic_z'], 'adjoint');
    const d = sensitivityAt(model, 25, ['roll_center_z', 'roll_center_kinematic_z'], 'direct');
    for (const m of ['roll_center_z', 'roll_center_kinematic_z']) {
      const largest = Math.max(...Object.values(d[m]!.gradient).map(Math.abs));
      for (const [key, g] of Object.entries(d[m]!.gradient)) expect(Math.abs(a[m]!.gradient[key] - g)).toBeLessThan(1e-10 * largest);
    }
  });

  it('MacPherson corner: both roll centres match central differences of the mirrored pipeline (its own value route)', () => {
    const mac = load('macpherson');
    // no MacPherson axle example: the mirrored axle is the corner's text with scope axle
    const text = readFileSync('examples/suspension/macpherson.yaml', 'utf8');
    const macAxle = axleFromCornerText(text);
    const sens = sensitivityAt(mac, -15, ['roll_center_z', 'roll_center_kinematic_z']);
    const rc = (g: Geometry) => axleMetricsOf(mirroredAxle(g, macAxle), -15);
    for (const m of ['roll_center_z', 'roll_center_kinematic_z']) expect(sens[m]!.value, m).toBeCloseTo(rc(mac)[m]!, 8);
    expect(worstAgainstDifferences(sens, rc, mac)).toBeLessThan(2e-4);
  });
});


describe('axle-level gradients (metrics.axle)', () => {
  it('steered double wishbone axle at +20 mm: every entry of every axle metric matches central differences', () => {
    const g = load('double_wishbone_axle_steering');
    const grads = axleGrads(g, 20);
    const values = axleMetricsOf(g, 20);
    for (const m of AXLE_METRICS) {
      expect(grads[m], m).not.toBeNull();
      expect(grads[m]!.value, m).toBeCloseTo(values[m]!, 8);
    }
    // the design track moves with the points: not a constant's zero gradient
    expect(grads.track!.gradient['left.axle_outboard.y']).toBeGreaterThan(0.5);
    // kinemate sweep's values kept (moves.ts sweptMetrics): the *_virtual check below re-solves the same moved axles
    const kept = (x: Geometry) => (sweptMetrics(x, sweepFromShortcut('bump', '20:20:1', x)) as { axle: Record<string, number | null> }).axle;
    expect(worstAgainstDifferences(grads, kept, g)).toBeLessThan(2e-4);
  });

  it('steered double wishbone axle at +20 mm (layout-default holds): every side\'s *_virtual against central differences (virtual-differences.ts)', () => {
    expect(checkVirtual(load('double_wishbone_axle_steering'), 'bump', 20)).toBeLessThan(2e-4);
  });

  // the U-bar axle's, at −10 mm: bar-axles.test.ts, beside its other checks at that state

  it('at design (bump 0): the mirrored axle\'s kinematic roll centre, 8.59 mm, and its gradient against central differences', () => {
    const g = load('double_wishbone_axle');
    const grads = axleGrads(g, 0);
    expect(grads.roll_center_kinematic_z!.value).toBeCloseTo(axleMetricsOf(g, 0).roll_center_kinematic_z!, 8);
    expect(grads.roll_center_kinematic_z!.value).toBeCloseTo(8.5929, 3);
    expect(grads.roll_center_z).toBeNull(); // level, parallel wishbones: the FVIC is at infinity
    const { roll_center_kinematic_z, roll_center_kinematic_y } = grads;
    expect(worstAgainstDifferences({ roll_center_kinematic_z, roll_center_kinematic_y }, (x) => axleMetricsOf(x, 0), g)).toBeLessThan(2e-4);
  });

  it('a beam axle: the kinematic roll centre is null (as in kinemate sweep), the others have gradients', () => {
    const grads = axleGrads(load('solid_axle_panhard'), 10);
    expect(grads.roll_center_kinematic_z).toBeNull();
    expect(grads.heave).not.toBeNull();
    const { roll, heave, track_change } = grads;
    expect(worstAgainstDifferences({ roll, heave, track_change }, (x) => axleMetricsOf(x, 10), load('solid_axle_panhard'))).toBeLessThan(2e-4);
  });

  it('kinemate sensitivity prints an axle metric under metrics.axle and a corner roll centre at the top level', async () => {
    const io = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone_axle.yaml', '--at', 'bump=10', '--metric', 'roll_center_kinematic_z', '--metric', 'camber'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: SideMetrics }[] }> };
    const m = out.sweeps['bump=10'].steps[0].metrics;
    expect(Object.keys(m)).toEqual(['left', 'right', 'axle']);
    expect(m.axle.roll_center_kinematic_z!.value).toBeCloseTo(axleMetricsOf(load('double_wishbone_axle'), 10).roll_center_kinematic_z!, 8);
    const io2 = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone.yaml', '--at', 'bump=10', '--metric', 'roll_center_kinematic_z'], io2)).toBe(0);
    const c = JSON.parse(io2.written.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, MetricGradient> }[] }> };
    expect(c.sweeps['bump=10'].steps[0].metrics.roll_center_kinematic_z.value).toBeCloseTo(m.axle.roll_center_kinematic_z!.value, 8);
  });
});
