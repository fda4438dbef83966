/**
 * Simulation gradients with point motions (a point's world coordinate driven over time:
 * kernel/motion.ts PointMotion, whose row now carries its second derivatives in tangent mode)
 * and couplings (linear rows between coordinates). Before, such models were refused. Each entry
 * against central differences of whole re-runs at two steps to 1e-4 relative; adjoint = direct to 1e-10.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS } from './steps';
import { validateAssembly } from '../../src/assembly/load';
import type { AssemblyDoc } from '../../src/assembly/types';
import { bothRoutesAll, centralDifferences, entity, errorsAgainst, type Move } from './sim-checks';

const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
/** z → y: a hinge axis along +y. */
const zToY = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0];

/** A body on a ball joint whose tip's world x is driven by a sine (moving at t = 0 unless phased), a spring-damper to the ground. */
function pushedBob(phase: number): AssemblyDoc {
  return validateAssembly({
    format: 'kinemate.assembly/1', name: 'pushed bob', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, points: { pivot: [0, 0, 0], anchor: [400, 300, -200] } },
      bob: { pose: I, points: { pivot: [0, 0, 0], tip: [200, 100, -800], arm: [0, 150, -500] },
        mass: { mass: 2, centre: [100, 50, -700], inertia: [[8000, 0, 0], [0, 9000, 0], [0, 0, 3000]] } },
    },
    mates: { ball: { type: 'ball', a: 'ground.pivot', b: 'bob.pivot' } },
    forces: { strut: { type: 'springdamper', a: 'ground.anchor', b: 'bob.arm', stiffness: 0.5, length: 450, damping: 0.01 } },
    motions: { push: { point: 'bob.tip', axis: 'x', sine: { amplitude: 80, frequency: 2, phase, offset: 200 } } },
  } as never);
}

describe('a point motion on a turning body: its row\'s curvature', () => {
  // the bob keeps two free turns; the push's direction turns with it, so λ times the row's curvature enters every step
  const params: [string, Move, number][] = [
    ['bob.mass', (d, s) => { d.parts.bob.mass.mass += s; }, 1e-4],
    ['bob.inertia.z', (d, s) => { d.parts.bob.mass.inertia[2][2] += s; }, 1],
    ['bob.centre.y', (d, s) => { d.parts.bob.mass.centre[1] += s; }, 1e-2],
    ['strut.stiffness', (d, s) => { d.forces.strut.stiffness += s; }, 1e-4],
    ['bob.arm.z', entity('bob', 'points', 'arm', 2), 1e-2],
  ];
  for (const h of STEPS) {
    it(`a ball-jointed body pushed at its tip from a moving start, h = ${h} s`, () => {
      const doc = pushedBob(0), options = { duration: 0.3, step: h }, results = ['bob.arm.position.y', 'bob.arm.velocity.z', 'bob.arm.position.z@min'];
      const gs = bothRoutesAll(doc, params.map((p) => p[0]), results, options).map((g) => g.gradient);
      // each move's two re-runs serve every result
      const fd = centralDifferences(doc, params.map((p) => p[1]), params.map((p) => p[2]), results, options);
      results.forEach((result, k) => {
        const { worst, errors } = errorsAgainst(gs[k], fd.map((row) => row[k]));
        expect(worst, `${result}: ${errors.map((e) => e.toExponential(1)).join(' ')}`).toBeLessThan(1e-4);
      });
    }, 300_000);
  }
});

describe('a start placed by a point motion: the double wishbone corner\'s road driven by its surface point', () => {
  const corner = (phase: number) => {
    const doc = JSON.parse(readFileSync(new URL('../../examples/dw-corner-bump.kinemate.json', import.meta.url), 'utf8'));
    // the hinge held by the file; the road's slide placed by the motion (phase 90°: 10 mm above where the file has it)
    doc.state = { 'hinge.angle': 0 };
    doc.motions = { bump: { point: 'road.surface', axis: 'z', sine: { amplitude: 10, frequency: 4, phase, offset: -300 } } };
    return doc;
  };
  const params: [string, Move][] = [
    ['chassis.upper_front.z', entity('chassis', 'points', 'upper_front', 2)],
    ['chassis.trackrod_inboard.y', entity('chassis', 'points', 'trackrod_inboard', 1)],
    ['lower.lower_outboard.z', entity('lower', 'points', 'lower_outboard', 2)],
    // the motion's own point: it moves the motion's row (Φ_p) and the tyre's end
    ['road.surface.z', entity('road', 'points', 'surface', 2)],
    ['road.surface.y', entity('road', 'points', 'surface', 1)],
    ['chassis.spring_top.z', entity('chassis', 'points', 'spring_top', 2)],
  ];
  for (const phase of [0, 90]) {
    it(`the road moving at t = 0 (${phase === 0 ? 'a rate there' : 'at rest, placed 10 mm up'}), h = ${STEPS.join(', ')} s`, () => {
      const doc = corner(phase);
      for (const h of STEPS) {
        const options = { duration: 0.1, step: h }, results = ['upright.contact.position.z@max', 'upright.contact.velocity.y'];
        // each move's two re-runs serve both results
        const fd = centralDifferences(doc, params.map((p) => p[1]), params.map(() => 1e-2), results, options);
        // the routes part by round-off of up to 3e-11 of the largest entry here (the same with the road's
        // motion a table, at rest: the steps', not the start's), so entries are floored at half of it
        const gs = bothRoutesAll(doc, params.map((p) => p[0]), results, options, 1e-10, 0.5);
        results.forEach((result, k) => {
          const g = gs[k];
          // the road's surface z: the motion holds the surface where it is, so the contact does not see it (zero, floored)
          expect(Math.abs(g.gradient[3])).toBeLessThan(1e-6 * Math.max(...g.gradient.map(Math.abs)));
          // the sideways speed's differences are round-off for the road's two entries (zero and 5e-4 of the largest): position only
          const use = result.includes('velocity') ? [0, 1, 2, 5] : [0, 1, 2, 3, 4, 5];
          const { worst, errors } = errorsAgainst(use.map((j) => g.gradient[j]), use.map((j) => fd[j][k]));
          expect(worst, `${result}: ${errors.map((e) => e.toExponential(1)).join(' ')}`).toBeLessThan(1e-4);
        });
      }
    }, 300_000);
  }
});

describe('a coupling\'s row (linear in its coordinates)', () => {
  /** Two bars on parallel hinges, geared 2:1 the other way; the driver's angle in `state`. */
  const geared = (): AssemblyDoc => validateAssembly({
    format: 'kinemate.assembly/1', name: 'geared bars', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { a: { origin: [0, 0, 0], rotation: zToY }, b: { origin: [300, 0, 0], rotation: zToY } } },
      bar: { pose: I, frames: { hinge: { origin: [0, 0, 0], rotation: zToY } }, mass: { mass: 1, centre: [0, 0, -400], inertia: [[1000, 0, 0], [0, 1000, 0], [0, 0, 1000]] } },
      wheel: { pose: { position: [300, 0, 0], rotation: [1, 0, 0, 0] }, frames: { hinge: { origin: [0, 0, 0], rotation: zToY } }, points: { rim: [0, 0, -100] },
        mass: { mass: 3, centre: [50, 0, -60], inertia: [[20000, 0, 0], [0, 20000, 0], [0, 0, 20000]] } },
    },
    mates: {
      ja: { type: 'revolute', a: 'ground.a', b: 'bar.hinge' },
      jb: { type: 'revolute', a: 'ground.b', b: 'wheel.hinge' },
      gear: { type: 'gear', a: 'ja.angle', b: 'jb.angle', ratio: -0.5 },
    },
    state: { 'ja.angle': 40 },
  } as never);
  const params: [string, Move, number][] = [
    ['bar.mass', (d, s) => { d.parts.bar.mass.mass += s; }, 1e-4],
    ['wheel.centre.x', (d, s) => { d.parts.wheel.mass.centre[0] += s; }, 1e-2],
    ['wheel.inertia.y', (d, s) => { d.parts.wheel.mass.inertia[1][1] += s; }, 1],
    // the wheel's hinge moved: the start moves (the gear's row holds the angles' ratio)
    ['ground.b.x', entity('ground', 'frames', 'b', 0), 1e-2],
  ];
  it(`the wheel rim's height and speed against central differences at h = ${STEPS.join(', ')} s`, () => {
    const doc = geared();
    for (const h of STEPS) {
      const options = { duration: 0.3, step: h }, results = ['wheel.rim.position.z', 'wheel.rim.velocity.x'];
      // each move's two re-runs serve both results
      const fd = centralDifferences(doc, params.map((p) => p[1]), params.map((p) => p[2]), results, options);
      // the hinge's x entry of the rim's x speed is zero (a round-off of 3e-14 of the largest): floored at 1e-3 of it
      const gs = bothRoutesAll(doc, params.map((p) => p[0]), results, options, 1e-10, 1e-3);
      results.forEach((result, k) => {
        const g = gs[k];
        const { worst, errors } = errorsAgainst(g.gradient, fd.map((row) => row[k]));
        expect(worst, `${result}: ${errors.map((e) => e.toExponential(1)).join(' ')}`).toBeLessThan(1e-4);
      });
    }
  }, 300_000);
});
