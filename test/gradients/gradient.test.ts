import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { prepareSimulation } from '../../src/mechanics/simulate';
import { parseParameter, parseResult, simulationGradient, simulationGradients, type DynamicParameter, type DynamicResult } from '../../src/gradients/run';
import type { AssemblyDoc } from '../../src/assembly/types';
import { kinemate, runMain } from '../cli/helpers';
import { rerun, rerunAll } from './sim-checks';
import { describeOnce, itOnce, STEPS } from './steps';

const load = (name: string): AssemblyDoc => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));


/** A copy of the document with the parameter moved by d (file units). */
function moved(doc: AssemblyDoc, param: DynamicParameter, d: number): AssemblyDoc {
  const c = structuredClone(doc) as any, p = param as any;
  if (p.kind === 'stiffness') c.forces[p.element].stiffness += d;
  else if (p.kind === 'damping') c.forces[p.element].damping += d;
  else if (p.kind === 'friction') c.forces[p.element].force += d;
  else if (p.kind === 'mass') c.parts[p.part].mass.mass += d;
  else if (p.kind === 'inertia') c.parts[p.part].mass.inertia[p.axis][p.axis] += d;
  else c.parts[p.part].mass.centre[p.axis] += d;
  return c;
}

/**
 * Each result's gradient against central differences of plain re-runs: the results share
 * their runs (one gradient run and one pair of re-runs per parameter serve them all; each
 * result's values are those of its own run: simulationGradients and rerunAll read every
 * result off one run as a single-result run does).
 */
function check(doc: AssemblyDoc, params: string[], results: string[], duration: number, step: number, rel: number[], tol = 1e-4) {
  const ps = params.map(parseParameter), rs = results.map(parseResult);
  const gs = simulationGradients(doc, ps, rs, { duration, step }, 'direct').results;
  rerunAll(doc, rs, duration, step).forEach((v, k) => expect(gs[k].value).toBeCloseTo(v, 9));
  ps.forEach((p, j) => {
    const d = rel[j];
    const up = rerunAll(moved(doc, p, d), rs, duration, step), down = rerunAll(moved(doc, p, -d), rs, duration, step);
    gs.forEach((g, k) => {
      const fd = (up[k] - down[k]) / (2 * d);
      expect(Math.abs(g.gradient[j] - fd), `${results[k]} ${params[j]}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(fd), 1e-12));
    });
  });
}

describe('simulation gradients, quarter car', () => {
  const doc = load('quarter-car-bump.kinemate.json');
  for (const h of STEPS) {
    it(`body height at 1 s w.r.t. spring rate, damping, masses (h = ${h})`, () => {
      const params = ['spring.stiffness', 'damper.damping', 'body.mass', 'wheel.mass', 'tyre.stiffness'], rel = [1e-3, 1e-4, 1e-2, 1e-3, 1e-2];
      check(doc, params, ['body.position.z', 'body.position.z@max', 'wheel.velocity.z'], 1, h, rel);
    });
  }
});

describe('simulation gradients, pendulum (rotation: the right Jacobian, the pin curvature)', () => {
  const doc = load('pendulum.kinemate.json') as any;
  // a body with inertia too, so that the mass matters to the motion
  doc.parts.bob.mass.inertia[1][1] = 2e5;
  doc.parts.bob.mass.inertia[0][0] = 1e5;
  doc.parts.bob.mass.inertia[2][2] = 1e5;
  for (const h of STEPS) {
    it(`bob x, ż at 0.8 s and the least ż w.r.t. mass, inertia, centre (h = ${h})`, () => {
      const params = ['bob.mass', 'bob.inertia.y', 'bob.centre.z', 'bob.centre.x'];
      const rel = [1e-3, 1e2, 1e-2, 1e-2];
      check(doc, params, ['bob.mass.position.x', 'bob.mass.velocity.z', 'bob.mass.velocity.z@min'], 0.8, h, rel);
    });
  }
});

describe('simulation gradients, a crossing time (the finish-time route)', () => {
  const doc = load('pendulum.kinemate.json') as any;
  doc.parts.bob.mass.inertia = [[1e5, 0, 0], [0, 2e5, 0], [0, 0, 1e5]];
  // bearing friction on the pin (N·mm), as a pinewood axle's
  doc.forces = { bearing: { type: 'coordinate_friction', coordinate: 'pivot.angle', force: 400, regularization: 1 } };
  for (const h of STEPS) {
    it(`time the bob falls to z = −700 mm w.r.t. friction, mass, centre (h = ${h})`, () => {
      const params = ['bearing.friction', 'bob.mass', 'bob.centre.z', 'bob.inertia.y'];
      const rel = [1e-2, 1e-3, 1e-2, 1e2];
      check(doc, params, ['bob.mass.position.z@cross=-700'], 1.5, h, rel);
    });
  }
  itOnce('says when the level is never reached', () => {
    expect(() => simulationGradient(doc, [parseParameter('bob.mass')], parseResult('bob.mass.position.z@cross=-5000'), { duration: 0.1, step: 1e-3 })).toThrow(/does not reach -5000/);
  });
});

describeOnce('a run with no parameters (the differences\' re-runs)', () => {
  it('reads the same values, bit for bit, as a run carrying columns, though it builds no step matrix', () => {
    const doc = load('quarter-car-bump.kinemate.json');
    const rs = ['body.position.z', 'body.position.z@max', 'wheel.velocity.z@min', 'spring.tension', 'reactions.bodyGuide.force.x', 'body.position.z@cross=610'].map(parseResult);
    const options = { duration: 0.8, step: 2e-3 };
    const bare = simulationGradients(doc, [], rs, options, 'direct').results;
    const carried = simulationGradients(doc, [parseParameter('spring.stiffness')], rs, options, 'direct').results;
    rs.forEach((_, k) => { expect(bare[k].value).toBe(carried[k].value); expect(bare[k].t).toBe(carried[k].t); expect(bare[k].gradient).toEqual([]); });
  });
});

describeOnce('refusals', () => {
  it('names unknown parameters and results', () => {
    const doc = load('quarter-car-bump.kinemate.json');
    expect(() => parseParameter('spring.colour')).toThrow(/expected ELEMENT.stiffness/);
    expect(() => parseResult('body.height')).toThrow(/expected PART/);
    expect(() => simulationGradient(doc, [parseParameter('nothing.stiffness')], parseResult('body.position.z'), { duration: 0.01, step: 1e-3 })).toThrow(/no force element "nothing"/);
    expect(() => simulationGradient(doc, [parseParameter('body.mass')], parseResult('chassis.position.z'), { duration: 0.01, step: 1e-3 })).toThrow(/no part "chassis"/);
  });
});

describeOnce('kinemate simulate --gradient', () => {
  it('prints the value and the gradient by name; refuses a bad name (exit 1)', async () => {
    const run = await runMain(['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.8', '--step', '0.002',
      '--gradient', 'spring.stiffness', '--gradient', 'body.mass', '--result', 'body.position.z@max']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const doc = load('quarter-car-bump.kinemate.json'), r = parseResult('body.position.z@max');
    expect(out.value).toBeCloseTo(rerun(doc, r, 0.8, 0.002), 9);
    const d = 1e-3, p = parseParameter('spring.stiffness');
    const fd = (rerun(moved(doc, p, d), r, 0.8, 0.002) - rerun(moved(doc, p, -d), r, 0.8, 0.002)) / (2 * d);
    expect(Math.abs(out.gradient['spring.stiffness'] - fd)).toBeLessThan(1e-4 * Math.abs(fd));
    expect(Object.keys(out.gradient)).toEqual(['spring.stiffness', 'body.mass']);
    const bad = await kinemate(['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.1', '--step', '0.01', '--gradient', 'spring.colour', '--result', 'body.position.z']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/spring\.colour/);
    const noResult = await runMain(['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.1', '--step', '0.01', '--gradient', 'body.mass']);
    expect(noResult.code).toBe(1);
    expect(noResult.stderr).toMatch(/--result/);
  }, 60_000);
});

describe('simulation gradients, double pendulum (a body that turns and travels: Ad(exp(−y)) couples them)', () => {
  const doc = load('double-pendulum.kinemate.json') as any;
  // a sprung, damped elbow (N·mm per degree, N·mm·s per degree): the file's angle unit converts
  doc.forces = { elbowSpring: { type: 'coordinate_spring', coordinate: 'elbow.angle', stiffness: 2000, free: -90, damping: 20 } };
  for (const h of STEPS) {
    it(`lower link's origin at 0.5 s w.r.t. elbow rate and damping, masses, centre (h = ${h})`, () => {
      const params = ['elbowSpring.stiffness', 'elbowSpring.damping', 'upper.mass', 'lower.mass', 'lower.centre.z', 'lower.inertia.y'];
      const rel = [1, 1e-1, 1e-3, 1e-3, 1e-2, 1e2];
      check(doc, params, ['lower.position.x', 'lower.velocity.z'], 0.5, h, rel);
    });
  }
  itOnce('backward Euler too', () => {
    const params = ['elbowSpring.stiffness', 'lower.mass'].map(parseParameter), r = parseResult('lower.position.z');
    const g = simulationGradient(doc, params, r, { duration: 0.3, step: 2e-3, method: 'backward-euler' });
    const run = (d: AssemblyDoc) => {
      const sim = prepareSimulation(d, { method: 'backward-euler', lieGroup: 'R3xSO3' });
      for (let k = 1; k <= 150; k++) sim.integrator.step(2e-3, k * 2e-3);
      return sim.dyn.system.state[sim.dyn.system.variables[sim.dyn.model.parts.get('lower')!].offset + 2];
    };
    params.forEach((p, j) => {
      const d = [1, 1e-3][j];
      const fd = (run(moved(doc, p, d)) - run(moved(doc, p, -d))) / (2 * d);
      expect(Math.abs(g.gradient[j] - fd)).toBeLessThan(1e-4 * Math.abs(fd));
    });
  });
});
