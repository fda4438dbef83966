/**
 * An element's tension as a result of a simulation's gradient (src/gradients/results/tension.ts):
 * each entry against central differences of whole re-runs with the parameter moved in the file,
 * at two steps, to 1e-4 relative; the adjoint against the direct route to 1e-10.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STEPS, itOnce } from './steps';
import { parseParameter, parseResult, simulationGradient, simulationGradients, type GradientOptions } from '../../src/gradients/run';
import type { AssemblyDoc } from '../../src/assembly/types';
import { kinemate } from '../cli/helpers';
import { oscillator } from './sim-models';

const load = (name: string): any => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));

/** A parameter move in a copy of the file. */
type Move = (doc: any, d: number) => void;
const rate = (element: string, key: 'stiffness' | 'damping'): Move => (doc, d) => { doc.forces[element][key] += d; };
const mass = (part: string): Move => (doc, d) => { doc.parts[part].mass.mass += d; };
const point = (part: string, group: 'points' | 'frames', name: string, axis: number): Move => (doc, d) => {
  const e = doc.parts[part][group][name];
  (Array.isArray(e) ? e : e.origin)[axis] += d;
};

/**
 * Each result's gradient, direct and adjoint, against central differences of re-runs: the
 * results of one document share its runs (simulationGradients reads them all off one run;
 * that it equals the single-result runs is test/gradients/hardpoints.test.ts's), so each
 * parameter's two re-runs serve every result. tight: the re-runs' Newton converged far past
 * its default bounds (the differences then measure the discrete map, not where Newton stopped).
 */
function check(doc: any, params: [string, Move, number][], results: string[], options: GradientOptions, tight = false) {
  const ps = params.map(([name]) => parseParameter(name)), rs = results.map(parseResult);
  const direct = simulationGradients(doc, ps, rs, options, 'direct').results, adjoint = simulationGradients(doc, ps, rs, options, 'adjoint').results;
  const scales = direct.map((d, k) => {
    expect(adjoint[k].value).toBe(d.value);
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    return scale;
  });
  const rerun = tight ? { ...options, constraintTolerance: 1e-14, residualTolerance: 1e-12 } : options;
  const values = (x: AssemblyDoc) => simulationGradients(x, [], rs, rerun).results.map((g) => g.value);
  params.forEach(([name, move, delta], j) => {
    const up = structuredClone(doc), down = structuredClone(doc);
    move(up, delta); move(down, -delta);
    const vUp = values(up), vDown = values(down);
    results.forEach((result, k) => {
      const d = direct[k], a = adjoint[k], scale = scales[k];
      expect(Math.abs(a.gradient[j] - d.gradient[j]), `${result} ${name} adjoint`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(d.gradient[j]), 1e-4 * scale));
      const fd = (vUp[k] - vDown[k]) / (2 * delta);
      expect(Math.abs(d.gradient[j] - fd), `${result} ${name}`).toBeLessThan(1e-4 * Math.max(Math.abs(fd), 1e-4 * scale));
    });
  });
}

describe('tension results', () => {
  it(`the quarter car's spring and damper over the bump (rates, mass, both ends; h = ${STEPS.join(', ')} s)`, () => {
    const doc = load('quarter-car-bump.kinemate.json');
    // the damper's top off the spring's, so each end is a parameter of its own
    doc.parts.body.points.damper_top = [30, 0, 0];
    doc.forces.damper.a = 'body.damper_top';
    const params: [string, Move, number][] = [
      ['spring.stiffness', rate('spring', 'stiffness'), 1e-3], ['damper.damping', rate('damper', 'damping'), 1e-4], ['body.mass', mass('body'), 1e-2],
      ['body.spring_top.z', point('body', 'points', 'spring_top', 2), 1e-3], ['wheel.spring_seat.x', point('wheel', 'points', 'spring_seat', 0), 1e-3],
      ['wheel.contact.z', point('wheel', 'points', 'contact', 2), 1e-3], ['body.damper_top.x', point('body', 'points', 'damper_top', 0), 1e-3],
    ];
    for (const h of STEPS) {
      check(doc, params, ['spring.tension@max', 'damper.tension@min', 'spring.tension'], { duration: 1, step: h });
    }
  }, 300_000);

  it('a spring-damper on the swinging pendulum: both ends turn (ω × p in the rate)', () => {
    const doc = load('pendulum.kinemate.json');
    doc.parts.ground.points = { anchor: [300, 0, -200] };
    doc.parts.bob.points.arm = [0, 0, -400];
    doc.forces = { strut: { type: 'springdamper', a: 'ground.anchor', b: 'bob.arm', stiffness: 2, length: 500, damping: 0.05 } };
    const params: [string, Move, number][] = [
      ['strut.stiffness', rate('strut', 'stiffness'), 1e-5], ['strut.damping', rate('strut', 'damping'), 1e-6], ['bob.mass', mass('bob'), 1e-5],
      ['bob.arm.x', point('bob', 'points', 'arm', 0), 1e-4], ['bob.arm.z', point('bob', 'points', 'arm', 2), 1e-4],
      ['ground.anchor.x', point('ground', 'points', 'anchor', 0), 1e-4], ['bob.hinge.z', point('bob', 'frames', 'hinge', 2), 1e-4],
    ];
    // small moves: at h = 1e-3 the trough's step changes (0.271 → 0.272 s) within ±1e-3 kg, and a
    // difference across that averages two steps' slopes (the discrete extreme's derivative is its step's).
    // Re-runs converged tight: at moves this small a run's Newton stopping error (within its bounds, ~1e-8 N
    // of the tension) over 2δ is 1e-4 of an entry (bob.hinge.z: 1.3e-4 and 3.0e-4 at the default bounds,
    // 1.3e-8 tight; every entry within 7e-8 tight, docs/dynamics.md)
    for (const h of STEPS) {
      check(doc, params, ['strut.tension@max', 'strut.tension@min', 'strut.tension'], { duration: 0.6, step: h }, true);
    }
  }, 300_000);

  itOnce('refuses what has no tension; the CLI prints it by name', async () => {
    const doc = load('quarter-car-bump.kinemate.json'), options = { duration: 0.1, step: 2e-3 };
    expect(() => simulationGradient(doc, [parseParameter('body.mass')], parseResult('nope.tension'), options)).toThrow(/result: no force element "nope"/);
    expect(() => simulationGradient(oscillator({ m: 1, k: 1, x0: 10 }), [parseParameter('spring.stiffness')], parseResult('spring.tension@max'), options))
      .toThrow(/element "spring" is a coordinate_spring; a tension is a spring's/);
    expect(() => parseResult('spring.tension@cross=3')).toThrow(/ELEMENT\.tension, optionally @max or @min/);
    const run = await kinemate(['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.4', '--step', '0.002',
      '--gradient', 'spring.stiffness', '--gradient', 'body.spring_top.z', '--result', 'spring.tension@min']);
    expect(run.code).toBe(0);
    const j = JSON.parse(run.stdout);
    const direct = simulationGradient(doc, ['spring.stiffness', 'body.spring_top.z'].map(parseParameter), parseResult('spring.tension@min'), { duration: 0.4, step: 2e-3 });
    expect(j.result).toBe('spring.tension@min');
    expect(j.value).toBe(direct.value);
    expect(Math.abs(j.gradient['spring.stiffness'] - direct.gradient[0])).toBeLessThan(1e-10 * Math.abs(direct.gradient[0]));
  }, 120_000);
});
