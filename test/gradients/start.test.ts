/**
 * Hardpoints as parameters of a simulation's gradient when the start moves (initial
 * velocities, a motion with a rate at t = 0): the velocity projection of the consistent start
 * differentiated (src/gradients/start.ts). Each entry against central differences of
 * whole re-runs with the entity moved in the file, at two steps, to 1e-4 relative; the adjoint
 * against the direct route; a closed form where a pendulum has one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS } from './steps';
import { parseResult, simulationGradients, type GradientOptions } from '../../src/gradients/run';
import { bothRoutesAll } from './sim-checks';
import type { AssemblyDoc } from '../../src/assembly/types';

const load = (name: string): any => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));

/** A move of one entity coordinate in a copy of the file: [part, group, entity, axis]. */
type Where = [string, 'points' | 'frames', string, 0 | 1 | 2];
function moved(doc: any, [part, group, name, axis]: Where, d: number): AssemblyDoc {
  const c = structuredClone(doc);
  const e = c.parts[part][group][name];
  (Array.isArray(e) ? e : e.origin)[axis] += d;
  return c;
}

/*
 * The start's projection weighs given rates 1e10 times the rest (kernel/integrator/integrator.ts): its tangent
 * and its transpose parted by up to 1e-8 of an entry, so both routes now take v₀' from the same
 * forward solves (src/gradients/run.ts startColumns) and agree to 1e-10 (bothRoutesAll checks them).
 */

/**
 * Each result's entries against central differences of re-runs with the entity moved ±δ, to 1e-4
 * relative (floored at 1e-4 of the result's largest entry); each move's two re-runs serve every result.
 */
function againstDifferences(doc: any, gradients: number[][], wheres: Where[], results: string[], options: GradientOptions, delta: number) {
  const rs = results.map(parseResult);
  const values = (d: AssemblyDoc) => simulationGradients(d, [], rs, options, 'direct').results.map((g) => g.value);
  const fds = wheres.map((w) => { const up = values(moved(doc, w, delta)), down = values(moved(doc, w, -delta)); return up.map((u, k) => (u - down[k]) / (2 * delta)); });
  results.forEach((result, k) => {
    const gradient = gradients[k], scale = Math.max(...gradient.map(Math.abs));
    wheres.forEach((w, j) => {
      const fd = fds[j][k];
      expect(Math.abs(gradient[j] - fd), `${result} ${w.join('.')}`).toBeLessThan(1e-4 * Math.max(Math.abs(fd), 1e-4 * scale));
    });
  });
}

describe('a pendulum started with a swing rate', () => {
  it('without gravity it turns at its start rate: the bob\'s position and velocity scale with the rod (closed form)', () => {
    const doc = load('pendulum.kinemate.json');
    doc.gravity = [0, 0, 0];
    doc.velocities = { 'pivot.angle': 120 };
    // the rate is an angle rate: a longer rod (the bob's hinge z, L = 1000 mm + it) carries the bob faster
    const params = ['bob.hinge.z', 'ground.hinge.x', 'ground.hinge.z'];
    const cases = [['bob.mass.position.x', [1, 0]], ['bob.mass.position.z', [0, 1]], ['bob.mass.velocity.x', [0, 0]], ['bob.mass.velocity.z@min', [0, 0]]] as const;
    for (const h of STEPS) {
      // entries zero in closed form are round-off of the bob's 1.8 m/s in both routes: floored at 1e-1 of the largest
      // the closed form is the SE(3) step's: a turn at a constant rate about a fixed pivot is one screw, which that step
      // follows exactly (R³ × SO(3), simulate's default, moves the bob in straight chords: O(h²) off it)
      const gs = bothRoutesAll(doc, params, cases.map((c) => c[0]), { duration: 0.5, step: h, lieGroup: 'SE3' }, 1e-10, 1e-1);
      for (const [k, [result, shift]] of cases.entries()) {
        const g = gs[k];
        expect(Math.abs(g.gradient[0] - g.value / 1000), result).toBeLessThan(1e-9 * Math.abs(g.value / 1000));
        // the ground pivot moved carries the swing along
        expect(Math.abs(g.gradient[1] - shift[0]), result).toBeLessThan(1e-9);
        expect(Math.abs(g.gradient[2] - shift[1]), result).toBeLessThan(1e-9);
      }
    }
  }, 120_000);

  it(`under gravity from 60° at 100°/s: against central differences (h = ${STEPS.join(', ')} s)`, () => {
    const doc = load('pendulum.kinemate.json');
    doc.state = { 'pivot.angle': 60 };
    doc.velocities = { 'pivot.angle': 100 };
    doc.parts.ground.points = { anchor: [300, 0, -200] };
    doc.parts.bob.points.arm = [0, 0, -400];
    doc.forces = { strut: { type: 'springdamper', a: 'ground.anchor', b: 'bob.arm', stiffness: 2, length: 500, damping: 0.05 } };
    const params = ['bob.hinge.z', 'bob.hinge.x', 'ground.hinge.x', 'bob.arm.x', 'bob.mass'];
    const wheres: Where[] = [['bob', 'frames', 'hinge', 2], ['bob', 'frames', 'hinge', 0], ['ground', 'frames', 'hinge', 0], ['bob', 'points', 'arm', 0]];
    const results = ['bob.mass.position.x', 'bob.mass.velocity.z', 'bob.mass.position.z@min'];
    for (const h of STEPS) {
      const options = { duration: 0.5, step: h };
      const gs = bothRoutesAll(doc, params, results, options).map((g) => g.gradient.slice(0, 4));
      againstDifferences(doc, gs, wheres, results, options, 1e-3);
    }
  }, 300_000);
});

describe('double wishbone corner, its start moving', () => {
  const base = () => {
    const doc = load('dw-corner-bump.kinemate.json');
    doc.state = { 'roadGuide.slide': 0, 'hinge.angle': 0 };
    return doc;
  };
  const params = ['chassis.upper_front.z', 'chassis.trackrod_inboard.y', 'lower.lower_outboard.z', 'upright.upper_outboard.x', 'chassis.spring_top.z'];
  const wheres: Where[] = [['chassis', 'points', 'upper_front', 2], ['chassis', 'points', 'trackrod_inboard', 1], ['lower', 'points', 'lower_outboard', 2],
    ['upright', 'points', 'upper_outboard', 0], ['chassis', 'points', 'spring_top', 2]];

  it(`the lower arm started at 30°/s: the contact's height and sideways speed (h = ${STEPS.join(', ')} s)`, () => {
    const doc = base();
    doc.velocities = { 'hinge.angle': 30 };
    for (const h of STEPS) {
      // on SE(3): the start's terms are the same on both groups, and the sideways speed's differences scatter by up to 5e-4 of
      // it at these δ on either (measured, tight re-runs too), its last realisation under the bar on SE(3) only
      const options = { duration: 0.1, step: h, lieGroup: 'SE3' as const };
      const results = ['upright.contact.position.z', 'upright.contact.velocity.y'];
      // the sideways speed's routes part by up to 5e-11 of its largest entry in the steps (as much with the start's
      // velocity tangent left out), so its entries are floored at half the largest
      const gs = bothRoutesAll(doc, params, results, options, 1e-10, results.map((result) => (result.includes('velocity') ? 0.5 : 1e-4))).map((g) => g.gradient);
      againstDifferences(doc, gs, wheres, results, options, 1e-2);
    }
  }, 300_000);

  it('the road driven by a sine that is moving at t = 0 (a motion\'s rate in the start)', () => {
    const doc = base();
    doc.motions = { bump: { coordinate: 'roadGuide.slide', sine: { amplitude: 10, frequency: 4, phase: 0 } } };
    for (const h of STEPS) {
      const options = { duration: 0.1, step: h };
      const [g] = bothRoutesAll(doc, params, ['upright.contact.position.z@max'], options);
      againstDifferences(doc, [g.gradient], wheres, ['upright.contact.position.z@max'], options, 1e-2);
    }
  }, 300_000);

  it('the upright given a pose velocity in world axes (it turns with the start: d(Rᵀw))', () => {
    const doc = base();
    doc.velocities = { 'upright.pose': { linear: [0, 0, 30], angular: [1, 0, 0] } };
    for (const h of STEPS) {
      const options = { duration: 0.1, step: h };
      // the projection weighs the given slots 1e10 times the others: its tangent and transpose parted by
      // 5e-9 of an entry here; the same forward solves in both routes now (1e-13 seen)
      const [g] = bothRoutesAll(doc, params, ['upright.contact.position.z'], options);
      againstDifferences(doc, [g.gradient], wheres, ['upright.contact.position.z'], options, 1e-2);
    }
  }, 300_000);

  // point motions (a start they place, their rows' curvature): test/gradients/start-motion.test.ts
});
