import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetKept } from '../moves';
import { parseGeometry } from '../../../src/suspension/files';
import { parseLoadCase } from '../../../src/suspension/loads/loads';
import { frameAxesRate } from '../../../src/suspension/gradients/device-loads';
import { Builder } from '../../../src/suspension/build/template';
import { toMatrix } from '../../../kernel/quat';
import { checkLinkGradients } from './link-differences';

// the moved geometries' re-solves this file kept (moves.ts) are dropped after it
afterAll(forgetKept);

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const sides = ['left', 'right'];
const cornering = parseLoadCase(readFileSync('examples/suspension/loads/cornering_1g.yaml', 'utf8'), sides);

describe('load gradients on an axle, grouped by side', () => {
  it('heave-link axle with a rated heave spring (free length regenerated from its rocker pickups) and torsion bars, in bump', () => {
    const g = load('double_wishbone_axle_heave_link');
    g.spring = { ...g.spring, rate: 4e5 };
    g.devices = { ...g.devices!, heave_spring: { rate: 300 } };
    const { worst, got } = checkLinkGradients(g, 'bump', 15, cornering, 1e-2);
    expect(worst).toBeLessThan(1e-6);
    expect(Math.abs(got.left['link_force.pushrod']!.gradient['left.heave_link_rocker.y'])).toBeGreaterThan(1);
  });
  it('the template frame of a bar: the axes rate by hand equals differences of Builder.frame (the spin about x included)', () => {
    const axisOf = (x: number[]) => {
      const b = new Builder();
      b.part('p');
      const ref = b.frame('p', 'f', [0, 0, 0], x as [number, number, number]);
      const R = toMatrix(new Float64Array(9), b.parts.p.frames![ref.split('.')[1]].rotation);
      return [0, 1, 2].map((c) => [R[c], R[3 + c], R[6 + c]]);
    };
    const x = [30, -500, 40], xd = [0.3, 0.7, -1.1], h = 1e-5;
    const rates = frameAxesRate(x, xd);
    const p = axisOf(x.map((c, i) => c + h * xd[i])), m = axisOf(x.map((c, i) => c - h * xd[i]));
    for (let i = 0; i < 3; i++) for (let c = 0; c < 3; c++) expect(Math.abs(rates[i][c] - (p[i][c] - m[i][c]) / (2 * h))).toBeLessThan(1e-9);
    expect(Math.hypot(...rates[1])).toBeGreaterThan(1e-4);
  });
});
