/**
 * A steered front axle's steering geometry where the file lacks what defines a metric
 * (`rack_travel_per_revolution`, the `wheelbase`): `kinemate sweep` prints null, so
 * `kinemate sensitivity` prints null too (value and gradient) instead of refusing the name.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { SensitivityModel, sensitivityMetricsOf, sensitivitySweepBySide } from '../../../src/suspension/gradients/model';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';

const FILE = 'examples/suspension/double_wishbone_axle.yaml';
const NAMES = ['ackermann_percentage', 'toe_out_on_turns', 'turning_radius', 'steering_wheel_angle', 'steering_ratio'];

function sweptAxle(g: Geometry): Record<string, number | null> {
  const r = runSweep(new SuspensionModel(suspensionAssembly(g)), sweepFromShortcut('steer', '5:5:1', g));
  return (r.steps[0].metrics as unknown as { axle: Record<string, number | null> }).axle;
}

function gradientsAxle(g: Geometry) {
  const step = sensitivitySweepBySide(new SensitivityModel(g), sweepFromShortcut('steer', '5:5:1', g), NAMES).steps[0];
  expect(step.status).toBe('solved');
  return step.metrics!.axle;
}

describe('steering geometry a file does not define: null, as kinemate sweep prints it', () => {
  it('without rack_travel_per_revolution: steering_wheel_angle and steering_ratio are null; the others keep their gradients', () => {
    const g = parseGeometry(readFileSync(FILE, 'utf8'));
    expect(g.scope).toBe('axle');
    expect(sensitivityMetricsOf(g).axle).toEqual(expect.arrayContaining(NAMES));
    const swept = sweptAxle(g), grads = gradientsAxle(g);
    for (const m of ['steering_wheel_angle', 'steering_ratio']) {
      expect(swept[m], m).toBeNull();
      expect(grads[m], m).toBeNull();
    }
    for (const m of ['ackermann_percentage', 'toe_out_on_turns', 'turning_radius']) {
      expect(grads[m]!.value, m).toBeCloseTo(swept[m] as number, 9);
    }
  });

  it('without a wheelbase: ackermann_percentage and turning_radius are null too', () => {
    const g = parseGeometry(readFileSync(FILE, 'utf8').replace('  wheelbase: 2500.0\n', ''));
    const swept = sweptAxle(g), grads = gradientsAxle(g);
    for (const m of ['ackermann_percentage', 'turning_radius', 'steering_wheel_angle', 'steering_ratio']) {
      expect(swept[m], m).toBeNull();
      expect(grads[m], m).toBeNull();
    }
    expect(grads.toe_out_on_turns!.value).toBeCloseTo(swept.toe_out_on_turns as number, 9);
  });

  it('kinemate sensitivity prints them null (JSON and CSV) and exits 0', async () => {
    const io = memoryIO();
    expect(await main(['sensitivity', FILE, '--at', 'steer=5', '--metric', 'steering_wheel_angle', '--metric', 'steering_ratio'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, Record<string, unknown>> }[] }> };
    expect(Object.values(out.sweeps)[0].steps[0].metrics.axle).toEqual({ steering_wheel_angle: null, steering_ratio: null });
    const csv = memoryIO();
    expect(await main(['sensitivity', FILE, '--at', 'steer=5', '--metric', 'steering_ratio', '--format', 'csv'], csv)).toBe(0);
    expect(csv.written.stdout.trim().split('\n').slice(1)).toEqual(['steer=5,0,solved,axle.steering_ratio,,,']);
  });
});
