/**
 * Link forces of a statically determinate double wishbone (each wishbone as two two-force
 * links, a track rod, a spring; the wheel loaded at its contact patch) against an
 * independent hand calculation: the free body of the upright, 6 equations in the five
 * link tensions and the spring force, solved by Gaussian elimination.
 */
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/mechanics/build';
import { statics, type Wrench } from '../../src/mechanics/statics';

type V = [number, number, number];
const hp: Record<string, V> = {
  lower_front: [250, 400, 200], lower_rear: [-250, 450, 200], lower_outboard: [0, 900, 200],
  upper_front: [225, 350, 500], upper_rear: [-275, 350, 500], upper_outboard: [-25, 750, 500],
  trackrod_inboard: [50, 200, 250], trackrod_outboard: [150, 800, 275],
  spring_top: [-10, 620, 640], spring_bottom: [-10, 820, 240],
  contact: [-20, 950, 0],
};
const links: [string, string, string][] = [
  ['lower_front', 'lower_front', 'lower_outboard'], ['lower_rear', 'lower_rear', 'lower_outboard'],
  ['upper_front', 'upper_front', 'upper_outboard'], ['upper_rear', 'upper_rear', 'upper_outboard'],
  ['trackrod', 'trackrod_inboard', 'trackrod_outboard'],
];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V): V => { const l = Math.hypot(...a); return [a[0] / l, a[1] / l, a[2] / l]; };

/** Solve A x = b (n × n, row-major) by Gaussian elimination with partial pivoting. */
function gauss(A: number[][], b: number[]): number[] {
  const n = b.length, M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = c + 1; r < n; r++) { const f = M[r][c] / M[c][c]; for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k]; }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) { let s = M[r][n]; for (let k = r + 1; k < n; k++) s -= M[r][k] * x[k]; x[r] = s / M[r][r]; }
  return x;
}

/** The upright's free body: tensions of the five links and the spring (pulling the upright toward the chassis) balancing the contact load. */
function handCalculation(load: V): number[] {
  const members: [V, V][] = [...links.map(([, inb, out]) => [hp[inb], hp[out]] as [V, V]), [hp.spring_top, hp.spring_bottom]];
  const A: number[][] = Array.from({ length: 6 }, () => []);
  for (const [inboard, outboard] of members) {
    const u = unit(sub(inboard, outboard));
    const m = cross(outboard, u);
    for (let i = 0; i < 3; i++) { A[i].push(u[i]); A[3 + i].push(m[i]); }
  }
  const mLoad = cross(hp.contact, load);
  return gauss(A, [-load[0], -load[1], -load[2], -mLoad[0], -mLoad[1], -mLoad[2]]);
}

function corner(load: V, springTension: number) {
  const k = 60; // N/mm
  const length = Math.hypot(...sub(hp.spring_top, hp.spring_bottom));
  const points = (names: string[]) => Object.fromEntries(names.map((n) => [n, hp[n]]));
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      chassis: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
        points: points(['lower_front', 'lower_rear', 'upper_front', 'upper_rear', 'trackrod_inboard', 'spring_top']) },
      upright: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
        points: points(['lower_outboard', 'upper_outboard', 'trackrod_outboard', 'spring_bottom', 'contact']) },
    },
    mates: Object.fromEntries(links.map(([id, inb, out]) => [id, { type: 'distance', a: `chassis.${inb}`, b: `upright.${out}`, value: Math.hypot(...sub(hp[inb], hp[out])) }])),
    gravity: [0, 0, 0],
    forces: {
      // free length chosen so the spring carries exactly the hand-calculated force at the design pose
      spring: { type: 'spring', a: 'chassis.spring_top', b: 'upright.spring_bottom', stiffness: k, length: length - springTension / k },
      patch: { type: 'force', at: 'upright.contact', vector: load },
    },
  });
}

describe('double wishbone link forces', () => {
  const cases: [string, V][] = [
    ['static corner load', [0, 0, 3000]],
    ['1 g braking (corner mass 300 kg)', [-2942, 0, 2942]],
    ['1.2 g cornering, outer wheel', [0, -3530, 2942]],
  ];
  for (const [title, load] of cases) {
    it(`${title}: five link forces and the spring force equal the upright's free-body solution`, () => {
      const expected = handCalculation(load);
      const result = statics(buildDynamics(corner(load, expected[5])));
      expect(result.status).toBe('solved');
      links.forEach(([id], i) => {
        const tension = (result.reactions[id] as Wrench).tension!;
        expect(tension).toBeCloseTo(expected[i], 6);
      });
      expect((result.forces.spring as { tension: number }).tension).toBeCloseTo(expected[5], 6);
      // a spring that does not match is reported unbalanced along the wheel's travel
      const off = statics(buildDynamics(corner(load, expected[5] + 100)));
      expect(off.status).toBe('not_in_equilibrium');
    });
  }
});
