/**
 * A start the file's coordinates leave free: the start solve takes the least move (minimum
 * norm in its scaled columns) from the file's pose, so where that pose satisfies the mates the
 * start's derivative is that least move's (src/gradients/free-start.ts). A pendulum
 * whose swing angle is not in `state`, started swinging; every entry against central
 * differences of whole re-runs at two steps to 1e-4 relative; adjoint = direct to 1e-10.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS, itOnce } from './steps';
import { parseParameter, parseResult, simulationGradient } from '../../src/gradients/run';
import { bothRoutesAll, centralDifferences, entity, errorsAgainst, type Move } from './sim-checks';

const pendulum = (): any => {
  const doc = JSON.parse(readFileSync(new URL('../../examples/pendulum.kinemate.json', import.meta.url), 'utf8'));
  // hanging as the file places it, the angle left to the start solve; the part's origin half way down the rod, so
  // the swing moves it (the least move then weighs turns against travel: the metric matters)
  doc.state = {};
  doc.velocities = { 'pivot.angle': 120 };
  doc.parts.bob.pose.position = [0, 0, -500];
  doc.parts.bob.frames.hinge.origin = [0, 0, 500];
  doc.parts.bob.points = { mass: [0, 0, -500], arm: [0, 0, 100] };
  doc.parts.bob.mass.centre = [0, 0, -500];
  doc.parts.ground.points = { anchor: [300, 0, -200] };
  doc.forces = { strut: { type: 'springdamper', a: 'ground.anchor', b: 'bob.arm', stiffness: 2, length: 500, damping: 0.05 } };
  return doc;
};

describe('a start the file leaves free (the pendulum\'s angle not in state)', () => {
  const params: [string, Move][] = [
    ['bob.hinge.z', entity('bob', 'frames', 'hinge', 2)],
    ['bob.hinge.x', entity('bob', 'frames', 'hinge', 0)],
    ['ground.hinge.x', entity('ground', 'frames', 'hinge', 0)],
    ['ground.hinge.z', entity('ground', 'frames', 'hinge', 2)],
    ['bob.arm.x', entity('bob', 'points', 'arm', 0)],
  ];
  for (const step of STEPS) {
    it(`every hinge coordinate against central differences, h = ${step} s`, () => {
      const doc = pendulum(), options = { duration: 0.5, step }, results = ['bob.mass.position.x', 'bob.mass.velocity.z'];
      // each move's two re-runs serve both results
      const fd = centralDifferences(doc, params.map((p) => p[1]), params.map(() => 1e-3), results, options);
      const gs = bothRoutesAll(doc, params.map((p) => p[0]), results, options);
      results.forEach((result, k) => {
        const g = gs[k];
        const { worst, errors } = errorsAgainst(g.gradient, fd.map((row) => row[k]));
        expect(worst, `${result}: ${errors.map((e) => e.toExponential(1)).join(' ')}`).toBeLessThan(1e-4);
      });
    }, 300_000);
  }

  itOnce('refused where the file\'s pose does not satisfy its mates (the solve moved it: its path would matter)', () => {
    const doc = pendulum();
    doc.parts.bob.pose.rotation = [Math.cos(Math.PI / 12), 0, Math.sin(Math.PI / 12), 0]; // 30° off, the angle still 0
    expect(() => simulationGradient(doc, [parseParameter('bob.hinge.z')], parseResult('bob.mass.position.x'), { duration: 0.01, step: 1e-3 }))
      .toThrow(/leave the start pose 1 degree\(s\) of freedom, and the file's pose does not satisfy them/);
  });
});
