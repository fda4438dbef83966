/**
 * `kc.wheel_rate` (src/suspension/compliance/wheel-rate-rates.ts): the `vertical` event's
 * compliant wheel rate as a metric of `sensitivity` on a bump sweep, its value the event's and
 * its gradients over the hardpoints and the stiffnesses against Richardson-extrapolated central
 * differences of the event's rate on the re-read file (a pushrod corner on two bushings and a
 * compliant pushrod, its coilover at 90 N/mm: at design, and 20 mm in bump where the spring's
 * load runs through the joints).
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readFileSync } from 'node:fs';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files/index.ts';
import { compliantSensitivitySweep } from '../../../src/suspension/compliance/sensitivity-sweep.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';
import type { MetricGradient } from '../../../src/suspension/gradients/types.ts';
import { setFilePath } from './gradient-helpers.ts';

const rigidText = readFileSync(new URL('../../../examples/suspension/double_wishbone_pushrod.yaml', import.meta.url), 'utf8').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90 }');
const FILE = `${rigidText}compliance:\n  bushings:\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1600 }\n    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }\n  links:\n    pushrod: 20000\n`;

const rateOf = (text: string, bump: number) => runKc(new SuspensionModel(suspensionAssembly(parseGeometry(text))), 'vertical', { range: [bump, bump, 1] }).steps[0].wheel_rate as number;

/** (4 D(h) − D(2h)) / 3 of central differences of the event's rate with the file's number at `path` moved. */
function extrapolated(path: string, h: number, bump: number): number {
  const at = (d: number) => { const raw = YAML.parse(FILE) as Record<string, unknown>; setFilePath(raw, path, (v) => v + d); return rateOf(JSON.stringify(raw), bump); };
  const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map(at);
  return (4 * (p1 - m1) / (2 * h) - (p2 - m2) / (4 * h)) / 3;
}

function wheelRate(bump: number): MetricGradient {
  const g = parseGeometry(FILE);
  const step = compliantSensitivitySweep(g, sweepFromShortcut('bump', `${bump}:${bump}:1`, g), ['kc.wheel_rate']).steps[0];
  return (step.metrics as Record<string, MetricGradient>)['kc.wheel_rate'];
}

describe('the compliant wheel rate\'s gradients', () => {
  for (const [bump, points] of [[0, ['upper_wishbone_outboard.z', 'pushrod_outboard.z']], [20, ['lower_wishbone_inboard_front.y', 'pushrod_outboard.z']]] as const) {
    it(`${bump} mm in bump: the event's rate, and over two hardpoints against extrapolated differences (1e-6)`, () => {
      const m = wheelRate(bump);
      expect(Math.abs(m.value - rateOf(FILE, bump))).toBeLessThan(1e-9 * Math.abs(m.value));
      for (const key of points) {
        const fd = extrapolated(`hardpoints.${key}`, 2, bump);
        expect(Math.abs(m.gradient[key] - fd), `${key}: ${m.gradient[key]} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd));
      }
    });
  }

  it('at design, over the pushrod\'s and a bushing\'s rate (the re-settled rate\'s noise: 2e-5)', () => {
    const m = wheelRate(0);
    for (const key of ['compliance.links.pushrod', 'compliance.bushings.lower_wishbone_inboard_front.radial']) {
      const fd = extrapolated(key, 100, 0);
      expect(Math.abs(m.gradient[key] - fd), `${key}: ${m.gradient[key]} vs ${fd}`).toBeLessThan(2e-5 * Math.abs(fd));
      // softer rubber, a softer wheel: the rate grows with every stiffness in series
      expect(m.gradient[key]).toBeGreaterThan(0);
    }
  });
});
