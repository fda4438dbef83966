/**
 * A simulation frame's reactions and driver forces as results of a simulation's gradient
 * (src/gradients/results/reactions.ts): `reactions.MATE.force|moment.x|y|z` and
 * `drivers.NAME`. Each value equal to the printed frame's, each entry against central
 * differences of whole re-runs with the parameter moved in the file at two steps to 1e-4
 * relative, the adjoint against the direct route to 1e-10; leaving out the coefficients'
 * state dependence fails the differences.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { itOnce, stepsOf } from './steps';
import { parseParameter, parseResult, simulationGradients, type DynamicResult, type GradientOptions } from '../../src/gradients/run';
import { validateAssembly } from '../../src/assembly/load';
import { simulate } from '../../src/mechanics/simulate';
import type { AssemblyDoc } from '../../src/assembly/types';
import { kinemate } from '../cli/helpers';
import { entryErrors as errors, type Move } from './sim-checks';

const built = (doc: any): AssemblyDoc => validateAssembly(structuredClone(doc));
const example = (name: string): any => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));

/** The pendulum with its hinge frame 50 mm off the bob's origin and its mass off the swing's plane (the moments are not zero). */
function pendulum(): any {
  const doc = example('pendulum.kinemate.json');
  doc.parts.bob.frames.hinge.origin = [0, 50, 0];
  doc.parts.bob.mass = { mass: 1, centre: [10, 30, -1000], inertia: [[2e4, 0, 0], [0, 2.5e4, 0], [0, 0, 1e4]] };
  return doc;
}

/** The slider-crank under its load, with masses; the rod's ends on balls (the example's revolutes are redundant rows). */
function sliderCrank(held: boolean): any {
  const doc = example('slider-crank-load.kinemate.json');
  const m = (mass: number, centre: number[]) => ({ mass, centre, inertia: [[2000, 0, 0], [0, 2000, 0], [0, 0, 3000]] });
  doc.parts.crank.mass = m(1, [50, 5, 0]); doc.parts.rod.mass = m(2, [150, 0, 10]); doc.parts.slider.mass = m(3, [0, 0, 0]);
  doc.mates.jB.type = 'ball'; doc.mates.jC.type = 'ball';
  if (!held) doc.held = [];
  else { doc.held = []; doc.motions = { spin: { coordinate: 'jA.angle', sine: { amplitude: 20, frequency: 5, offset: 60 } } }; }
  return doc;
}

const massOf = (part: string): Move => (doc, d) => { doc.parts[part].mass.mass += d; };
const centreOf = (part: string, i: number): Move => (doc, d) => { doc.parts[part].mass.centre[i] += d; };
const inertiaOf = (part: string, i: number): Move => (doc, d) => { doc.parts[part].mass.inertia[i][i] += d; };
const loadX: Move = (doc, d) => { doc.forces.load.vector[0] += d; };


/** Direct and adjoint at each step of the run (test/gradients/steps.ts); values against the printed last frame; entries against differences. */
function check(doc: any, params: [string, Move, number][], names: string[], duration: number) {
  const results = names.map(parseResult), ps = params.map(([n]) => parseParameter(n));
  for (const step of stepsOf(0.005, 0.0025)) {
    const options = { duration, step };
    const direct = simulationGradients(built(doc), ps, results, options, 'direct');
    const adjoint = simulationGradients(built(doc), ps, results, options, 'adjoint');
    // the printed run as simulate steps it (R³ × SO(3)), the scheme the gradients differentiate (src/gradients/product-step.ts)
    const frames = simulate(built(doc), options).frames, last = frames[frames.length - 1];
    names.forEach((name, r) => {
      const g = direct.results[r];
      if (results[r].at === 'final') {
        const m = /^reactions\.([^.]+)\.(force|moment)\.([xyz])$/.exec(name);
        const printed = m ? (last.reactions[m[1]] as any)[m[2]]['xyz'.indexOf(m[3])] : last.drivers[name.slice('drivers.'.length)];
        expect(Math.abs(g.value - printed), name).toBeLessThan(1e-9 * Math.max(1, Math.abs(printed)));
      }
      const scale = Math.max(...g.gradient.map(Math.abs));
      expect(scale, `${name} has a gradient`).toBeGreaterThan(0);
      adjoint.results[r].gradient.forEach((x, j) => expect(Math.abs(x - g.gradient[j]), `${name} adjoint`).toBeLessThan(1e-10 * scale));
    });
    const err = errors(doc, params, results, direct.results.map((r) => r.gradient), options);
    err.forEach((row, r) => row.forEach((e, j) => expect(e, `${names[r]} by ${params[j][0]} at h = ${step}`).toBeLessThan(1e-4)));
  }
}

describe('reactions and driver forces as gradient results', () => {
  it('the pendulum: the pivot\'s force and moment about its off-origin hinge point, final, @max and @min', () => {
    check(pendulum(), [['bob.mass', massOf('bob'), 1e-4], ['bob.centre.y', centreOf('bob', 1), 1e-3], ['bob.centre.z', centreOf('bob', 2), 1e-2], ['bob.inertia.y', inertiaOf('bob', 1), 1]],
      ['reactions.pivot.force.x', 'reactions.pivot.force.z', 'reactions.pivot.moment.x', 'reactions.pivot.moment.z', 'reactions.pivot.force.z@max', 'reactions.pivot.moment.x@min'], 0.05);
  }, 120_000);

  it('the slider-crank (free): every joint\'s reaction, by masses and the load', () => {
    check(sliderCrank(false), [['rod.mass', massOf('rod'), 1e-4], ['rod.centre.y', centreOf('rod', 1), 1e-3], ['load.vector.x', loadX, 1e-3]],
      ['reactions.jA.force.x', 'reactions.jA.moment.y', 'reactions.jB.force.y', 'reactions.jC.force.x@max', 'reactions.jS.force.y@min', 'reactions.jS.force.z'], 0.02);
  }, 120_000);

  it('the slider-crank driven by a motion: the motion\'s torque and the crank pivot\'s moment', () => {
    check(sliderCrank(true), [['rod.mass', massOf('rod'), 1e-4], ['crank.centre.x', centreOf('crank', 0), 1e-3], ['load.vector.x', loadX, 1e-3]],
      ['drivers.spin', 'drivers.spin@max', 'reactions.jA.moment.x', 'reactions.jA.force.y'], 0.02);
  }, 120_000);

  itOnce('a held coordinate\'s force (the example\'s jA.angle) equals the frame\'s and moves with the load', () => {
    const doc = sliderCrank(false);
    doc.held = ['jA.angle'];
    check(doc, [['load.vector.x', loadX, 1e-3], ['load.vector.y', (d, x) => { d.forces.load.vector[1] += x; }, 1e-3]], ['drivers.jA.angle', 'reactions.jB.force.x'], 0.01);
  }, 120_000);

  itOnce('leaving out the coefficients\' state dependence fails the differences', () => {
    const options = { duration: 0.3, step: 0.005 };
    const cases: [any, [string, Move, number][], string[]][] = [
      [pendulum(), [['bob.centre.z', centreOf('bob', 2), 1e-2], ['bob.inertia.y', inertiaOf('bob', 1), 1]], ['reactions.pivot.force.x', 'reactions.pivot.moment.x']],
      [sliderCrank(false), [['rod.mass', massOf('rod'), 1e-4], ['load.vector.x', loadX, 1e-3]], ['reactions.jA.moment.y', 'reactions.jB.force.x']],
    ];
    for (const [doc, params, names] of cases) for (const leaveOut of ['turn', 'curvature'] as const) {
      const held = names.map((n) => { const r = parseResult(n); return { ...r, reaction: { ...r.reaction!, leaveOut } } as DynamicResult; });
      const g = simulationGradients(built(doc), params.map(([n]) => parseParameter(n)), held, options, 'direct').results.map((r) => r.gradient);
      const err = errors(doc, params, held, g, options);
      // the body's turn and the rows' curvature each matter (for a world-frame point row they cancel: both are needed)
      err.forEach((row, r) => { expect(Math.max(...row), `${names[r]} without its ${leaveOut}`).toBeGreaterThan(1e-3); });
    }
  });

  itOnce('names that do not fit are refused with the model\'s lists', () => {
    const doc = built(pendulum()), options = { duration: 0.01, step: 0.005 };
    expect(() => simulationGradients(doc, [parseParameter('bob.mass')], [parseResult('reactions.nope.force.x')], options)).toThrow(/no mate "nope" \(mates: pivot\)/);
    expect(() => simulationGradients(doc, [parseParameter('bob.mass')], [parseResult('drivers.nope')], options)).toThrow(/no driver "nope"/);
    expect(() => simulationGradients(doc, [parseParameter('bob.hinge.y')], [parseResult('reactions.pivot.force.x')], options)).toThrow(/hardpoints/);
    expect(() => parseResult('reactions.pivot.torque.x')).toThrow(/reactions\.MATE\.force\.x\|y\|z/);
    expect(parseResult('drivers.jA.angle@max')).toMatchObject({ quantity: 'reaction', reaction: { kind: 'driver', name: 'jA.angle' }, at: 'max' });
    // a part or element named `drivers` keeps its own results
    expect(parseResult('drivers.position.x')).toMatchObject({ part: 'drivers', quantity: 'position' });
    expect(parseResult('drivers.force.z')).toMatchObject({ part: 'drivers', quantity: 'force', component: 2 });
  });

  itOnce('the CLI: simulate --gradient --result reactions.MATE.force.x', async () => {
    const r = await kinemate(['simulate', 'examples/pendulum.kinemate.json', '--duration', '0.02', '--step', '0.005', '--gradient', 'bob.mass', '--result', 'reactions.pivot.force.x']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const frames = simulate(built(example('pendulum.kinemate.json')), { duration: 0.02, step: 0.005 }).frames;
    expect(Math.abs(out.value - (frames[frames.length - 1].reactions.pivot as any).force[0])).toBeLessThan(1e-9);
    expect(out.gradient['bob.mass']).not.toBe(0);
  }, 120_000);
});
