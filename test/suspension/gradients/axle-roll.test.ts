/**
 * Axle sensitivities under a T-bar anti-roll bar (its crossbar midpoint held on the centre
 * plane: a point–plane mate whose point is the mean of two hardpoints: its checks at +10 mm
 * are in bar-axles.test.ts) and along a roll sweep (its drivers' targets move with the design
 * wheel centres), against central differences of the re-solved axle.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { check } from './axle-roll-differences';
import { checkVirtual } from './virtual-differences';
import { sweptMetrics, forgetKept } from '../moves';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { main } from '../../../src/cli/main';
import { memoryIO } from '../../cli/helpers';
import type { SideMetrics } from '../../../src/suspension/gradients/model';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

describe('axle sensitivities: a T-bar and a roll sweep', () => {
  // the T-bar axle's at +10 mm (every entry, and the bar's own motion): bar-axles.test.ts, beside its other checks at that state

  it('a roll sweep (2°, rack held) on the steered double wishbone axle: every entry matches central differences, the axle\'s roll and roll centres too', () => {
    const g = load('double_wishbone_axle_steering');
    const spec = (x: Geometry) => sweepFromShortcut('roll', '2:2:1', x);
    // kinemate sweep's values kept (moves.ts sweptMetrics): the *_virtual check below re-solves the same moved axles
    const kept = (x: Geometry, s: typeof spec) => sweptMetrics(x, s(x)) as Record<string, Record<string, number | null>>;
    const { worst, grads } = check(g, spec, ['camber', 'toe_angle', 'half_track', 'wheel_travel', 'roll', 'heave', 'roll_center_z', 'roll_center_kinematic_z', 'roll_center_kinematic_y'], 1e-3, kept);
    expect(worst).toBeLessThan(2e-4);
    // each wheel's travel is ±h·tan 2°, h half the design wheel centres' span: it moves with them
    expect(grads.left.wheel_travel!.gradient['left.axle_outboard.y']).toBeCloseTo(Math.tan((2 * Math.PI) / 180) / 2, 9);
  });

  it('the steered double wishbone axle rolled 2° (the hub rows driven to design z ± h·tanθ): every side\'s *_virtual against central differences (virtual-differences.ts)', () => {
    expect(checkVirtual(load('double_wishbone_axle_steering'), 'roll', 2)).toBeLessThan(2e-4);
  });

  it('kinemate sensitivity --roll on the T-bar axle (refused before): every step solved, every group printed', async () => {
    const io = memoryIO();
    expect(await main(['sensitivity', 'examples/suspension/double_wishbone_axle_t_bar.yaml', '--roll', '-2:2:3', '--metric', 'camber', '--metric', 'roll'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: SideMetrics }[] }> };
    const steps = out.sweeps.roll.steps;
    expect(steps).toHaveLength(3);
    expect(Object.keys(steps[0].metrics)).toEqual(['left', 'right', 'axle']);
    // the sweep drives the wheel centres to ±h·tanθ: the measured roll is about θ
    expect(steps.map((s) => s.metrics.axle.roll!.value)).toEqual([expect.closeTo(-2, 1), expect.closeTo(0, 6), expect.closeTo(2, 1)]);
  });
});
