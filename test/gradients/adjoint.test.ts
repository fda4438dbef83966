/**
 * The discrete adjoint of the integrator (one backward sweep) against the direct (forward)
 * sensitivities (one column per parameter carried forward): two different routes through the
 * same exact step matrices, so they agree to round-off (1e-10 relative); the direct route
 * itself is checked against central differences in sim-gradient.test.ts, and the adjoint
 * once more here on a few entries.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rotationMatrix } from '../../kernel/dual';
import { prepareSimulation } from '../../src/mechanics/simulate';
import { parseParameter, parseResult, simulationGradient, simulationGradientAdjoint, simulationGradients, type GradientOptions } from '../../src/gradients/run';
import type { AssemblyDoc } from '../../src/assembly/types';
import { kinemate, runMain } from '../cli/helpers';

const load = (name: string): any => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));

/** Max relative difference between the two routes, each entry against the largest |entry| (a zero gradient stays comparable). */
function agree(doc: AssemblyDoc, params: string[], result: string, options: GradientOptions) {
  const ps = params.map(parseParameter), r = parseResult(result);
  const direct = simulationGradient(doc, ps, r, options), adjoint = simulationGradientAdjoint(doc, ps, r, options);
  expect(adjoint.value).toBe(direct.value);
  expect(adjoint.steps).toBe(direct.steps);
  const scale = Math.max(...direct.gradient.map(Math.abs));
  expect(scale).toBeGreaterThan(0);
  let worst = 0;
  direct.gradient.forEach((d, j) => {
    const e = Math.abs(adjoint.gradient[j] - d) / Math.max(Math.abs(d), 1e-6 * scale);
    worst = Math.max(worst, e);
    expect(e).toBeLessThan(1e-10);
  });
  return { direct, adjoint, worst };
}

/**
 * `agree` for several results of one document and run: both routes read every result off one
 * run (simulationGradients; the single-result calls above share its code), each result's
 * entries held to the same bound.
 */
function agreeAll(doc: AssemblyDoc, params: string[], results: string[], options: GradientOptions) {
  const ps = params.map(parseParameter), rs = results.map(parseResult);
  const direct = simulationGradients(doc, ps, rs, options, 'direct'), adjoint = simulationGradients(doc, ps, rs, options, 'adjoint');
  expect(adjoint.steps).toBe(direct.steps);
  direct.results.forEach((d, k) => {
    const a = adjoint.results[k];
    expect(a.value, results[k]).toBe(d.value);
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x) / Math.max(Math.abs(x), 1e-6 * scale), `${results[k]} / ${params[j]}`).toBeLessThan(1e-10));
  });
}

describe('adjoint = direct sensitivities', () => {
  it('quarter car: final height, its peak, the wheel speed (five parameters)', () => {
    const doc = load('quarter-car-bump.kinemate.json');
    const params = ['spring.stiffness', 'damper.damping', 'body.mass', 'wheel.mass', 'tyre.stiffness'];
    agreeAll(doc, params, ['body.position.z', 'body.position.z@max', 'wheel.velocity.z'], { duration: 1, step: 2e-3 });
  });

  it('pendulum with inertia: a point of the bob, its least vertical speed', () => {
    const doc = load('pendulum.kinemate.json');
    doc.parts.bob.mass.inertia = [[1e5, 0, 0], [0, 2e5, 0], [0, 0, 1e5]];
    const params = ['bob.mass', 'bob.inertia.y', 'bob.centre.z', 'bob.centre.x'];
    agreeAll(doc, params, ['bob.mass.position.x', 'bob.mass.velocity.z', 'bob.mass.velocity.z@min'], { duration: 0.8, step: 2e-3 });
  });

  it('double pendulum with a sprung, damped elbow (generalized-α and backward Euler)', () => {
    const doc = load('double-pendulum.kinemate.json');
    doc.forces = { elbowSpring: { type: 'coordinate_spring', coordinate: 'elbow.angle', stiffness: 2000, free: -90, damping: 20 } };
    const params = ['elbowSpring.stiffness', 'elbowSpring.damping', 'upper.mass', 'lower.mass', 'lower.centre.z', 'lower.centre.x', 'lower.inertia.y', 'upper.inertia.y'];
    agree(doc, params, 'lower.position.x', { duration: 0.5, step: 2e-3 });
    agree(doc, params, 'lower.velocity.z', { duration: 0.5, step: 1e-3, rhoInf: 0.5 });
    agree(doc, params, 'lower.position.z', { duration: 0.3, step: 2e-3, method: 'backward-euler' });
  });

  it('a crossing time: the bob falls to z = −700 mm against bearing friction', () => {
    const doc = load('pendulum.kinemate.json');
    doc.parts.bob.mass.inertia = [[1e5, 0, 0], [0, 2e5, 0], [0, 0, 1e5]];
    doc.forces = { bearing: { type: 'coordinate_friction', coordinate: 'pivot.angle', force: 400, regularization: 1 } };
    const { adjoint } = agree(doc, ['bearing.friction', 'bob.mass', 'bob.centre.z', 'bob.centre.x', 'bob.inertia.y'], 'bob.mass.position.z@cross=-700', { duration: 1.5, step: 2e-3 });
    // the adjoint on its own against central differences of re-runs (friction, mass)
    const crossing = (d: AssemblyDoc) => {
      const sim = prepareSimulation(d, { lieGroup: 'R3xSO3' }), it = sim.integrator, sys = sim.dyn.system, v = sys.variables[sim.dyn.model.parts.get('bob')!];
      const p = d.parts.bob.points!.mass, R = new Float64Array(9);
      const z = () => { rotationMatrix(R, sys.state, v.offset + 3); return sys.state[v.offset + 2] + R[6] * p[0] + R[7] * p[1] + R[8] * p[2]; };
      let prev = z();
      for (let k = 1; ; k++) {
        if (!it.step(2e-3, k * 2e-3)) throw new Error('step failed');
        const x = z();
        if ((prev + 700) * (x + 700) <= 0) return it.t - 2e-3 + (2e-3 * (-700 - prev)) / (x - prev);
        prev = x;
      }
    };
    const moved = (f: (c: any) => void) => { const c = structuredClone(doc); f(c); return c; };
    const dF = 4, dm = 1e-3;
    const fdF = (crossing(moved((c) => { c.forces.bearing.force += dF; })) - crossing(moved((c) => { c.forces.bearing.force -= dF; }))) / (2 * dF);
    const fdm = (crossing(moved((c) => { c.parts.bob.mass.mass += dm; })) - crossing(moved((c) => { c.parts.bob.mass.mass -= dm; }))) / (2 * dm);
    expect(Math.abs(adjoint.gradient[0] - fdF)).toBeLessThan(1e-4 * Math.abs(fdF));
    expect(Math.abs(adjoint.gradient[1] - fdm)).toBeLessThan(1e-4 * Math.abs(fdm));
  });
});

describe('kinemate simulate --gradient-method', () => {
  it('adjoint by default for several parameters, direct on request: the same numbers', async () => {
    const args = ['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.8', '--step', '0.002',
      '--gradient', 'spring.stiffness', '--gradient', 'body.mass', '--result', 'body.position.z@max'];
    // the command's main in the test process (the same code, without a process start each); the refusal as a real process
    const a = await runMain(args), d = await runMain([...args, '--gradient-method', 'direct']);
    expect(a.code).toBe(0); expect(d.code).toBe(0);
    const ja = JSON.parse(a.stdout), jd = JSON.parse(d.stdout);
    expect(ja.gradient_method).toBe('adjoint');
    expect(jd.gradient_method).toBe('direct');
    for (const k of ['spring.stiffness', 'body.mass']) {
      expect(Math.abs(jd.gradient[k])).toBeGreaterThan(1e-3);
      expect(Math.abs(ja.gradient[k] - jd.gradient[k])).toBeLessThan(1e-10 * Math.abs(jd.gradient[k]));
    }
    const one = JSON.parse((await runMain(args.slice(0, 8).concat(['--result', 'body.position.z@max']))).stdout);
    expect(one.gradient_method).toBe('direct');
    const bad = await kinemate([...args, '--gradient-method', 'reverse']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--gradient-method/);
  }, 60_000);
});
