/**
 * A force element's force as a result of a simulation's gradient (src/gradients/results/forces.ts):
 * a bushing's force on its B frame and a drag's force (a free body swinging on a bushing), a
 * tyre's load (a wheel bouncing on a slider), a coordinate spring's and friction's force (an
 * oscillator). Each value equal to the element's report at the end of the run, each entry
 * against central differences of whole re-runs with the parameter moved in the file at two
 * steps to 1e-4 relative, the adjoint against the direct route to 1e-10; leaving out the
 * result's explicit dependence fails the differences.
 */
import { describe, expect, it } from 'vitest';
import { STEPS, itOnce } from './steps';
import { parseParameter, parseResult, simulationGradients, type DynamicResult, type GradientOptions } from '../../src/gradients/run';
import { ownResult } from '../../src/gradients/results/own';
import { validateAssembly } from '../../src/assembly/load';
import { simulate } from '../../src/mechanics/simulate';
import type { AssemblyDoc } from '../../src/assembly/types';
import { kinemate } from '../cli/helpers';
import { entryErrors as errors, type Move } from './sim-checks';
import { oscillator } from './sim-models';

const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
const frame = (origin: number[]) => ({ origin, rotation: [1, 0, 0, 0] });

/** A 5 kg body hung from the ground on a bushing, thrown sideways and spinning, with air drag at its nose. */
function bushed(): any {
  return {
    format: 'kinemate.assembly/1', name: 'bushed body', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { mount: frame([0, 0, 0]) } },
      body: {
        pose: { position: [0, 0, -100], rotation: [1, 0, 0, 0] }, frames: { mount: frame([0, 0, 100]) }, points: { nose: [60, 20, -30] },
        mass: { mass: 5, centre: [5, 0, 0], inertia: [[2e4, 0, 0], [0, 3e4, 0], [0, 0, 2.5e4]] },
      },
    },
    mates: {},
    forces: {
      bush: { type: 'bushing', a: 'ground.mount', b: 'body.mount', stiffness: [40, 50, 60], rotational_stiffness: [3e4, 4e4, 5e4], damping: [0.05, 0.05, 0.05], rotational_damping: [20, 20, 20] },
      air: { type: 'drag', at: 'body.nose', cd: 1, area: 1e7 },
    },
    velocities: { 'body.pose': { linear: [300, -200, 500], angular: [100, -60, 150] } },
  };
}

/** A 20 kg wheel on a vertical slider, 2 mm into the ground and falling at 100 mm/s, on a damped tyre (it stays on the ground). */
function bouncing(): any {
  return {
    format: 'kinemate.assembly/1', name: 'bouncing wheel', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, axes: { guide: { origin: [0, 0, 0], direction: [0, 0, 1] } } },
      wheel: {
        pose: I, axes: { guide: { origin: [0, 0, 0], direction: [0, 0, 1] }, spin: { origin: [0, 0, 300], direction: [0, 1, 0] } }, points: { hub: [0, 0, 300] },
        mass: { mass: 20, centre: [0, 0, 300], inertia: [[1e6, 0, 0], [0, 1.5e6, 0], [0, 0, 1e6]] },
      },
    },
    mates: { guide: { type: 'slider', a: 'ground.guide', b: 'wheel.guide' } },
    state: { 'guide.slide': -2 },
    velocities: { 'guide.slide': -100 },
    forces: { tyre: { type: 'tyre', centre: 'wheel.hub', axis: 'wheel.spin', radius: 300, stiffness: 200, damping: 1 } },
  };
}

/** A validated copy of a document (the gradient routes take a read file). */
const built = (doc: any): AssemblyDoc => validateAssembly(structuredClone(doc));
const at = (path: (doc: any) => number[], i: number): Move => (doc, d) => { path(doc)[i] += d; };

/** The result as parsed, less its explicit dependence on the parameters. */
function withoutExplicit(r: DynamicResult): DynamicResult {
  return { ...r, quantity: 'own', own: (dyn, layout, ps) => { const full = ownResult(dyn, layout, r, ps); return { reads: () => false, evaluate: full.evaluate.bind(full), explicit: () => 0 }; } };
}


function check(doc: any, params: [string, Move, number][], names: string[], options: GradientOptions) {
  const ps = params.map(([name]) => parseParameter(name)), rs = names.map(parseResult);
  const d = simulationGradients(built(doc), ps, rs, options, 'direct'), a = simulationGradients(built(doc), ps, rs, options, 'adjoint');
  d.results.forEach((x, r) => {
    const scale = Math.max(...x.gradient.map(Math.abs));
    expect(scale, names[r]).toBeGreaterThan(0);
    expect(a.results[r].value).toBe(x.value);
    x.gradient.forEach((g, j) => expect(Math.abs(a.results[r].gradient[j] - g), `${names[r]} / ${params[j][0]} adjoint`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(g), 1e-4 * scale)));
  });
  errors(doc, params, rs, d.results.map((x) => x.gradient), options).forEach((row, r) => row.forEach((e, j) => expect(e, `${names[r]} / ${params[j][0]}`).toBeLessThan(1e-4)));
  return d;
}

/** The element reports of the run's last frame (as simulate steps it, the scheme the gradients differentiate: src/gradients/product-step.ts). */
const lastForces = (doc: any, options: GradientOptions) => {
  const run = simulate(built(doc), { duration: options.duration, step: options.step });
  return run.frames[run.frames.length - 1].forces as Record<string, any>;
};

describe('force results', () => {
  it(`a bushing's and a drag's force on a swinging, spinning body (masses, the bushing's frames, the drag's point; h = ${STEPS.join(', ')} s)`, () => {
    const doc = bushed();
    const params: [string, Move, number][] = [
      ['body.mass', (x, d) => { x.parts.body.mass.mass += d; }, 1e-4], ['body.inertia.y', (x, d) => { x.parts.body.mass.inertia[1][1] += d; }, 10],
      ['body.centre.x', at((x) => x.parts.body.mass.centre, 0), 1e-3], ['body.mount.x', at((x) => x.parts.body.frames.mount.origin, 0), 1e-3],
      ['ground.mount.z', at((x) => x.parts.ground.frames.mount.origin, 2), 1e-3], ['body.nose.y', at((x) => x.parts.body.points.nose, 1), 1e-3],
      ['body.nose.z', at((x) => x.parts.body.points.nose, 2), 1e-3],
    ];
    const names = ['bush.force.x@max', 'bush.force.z', 'bush.force@max', 'air.force.x@min', 'air.force.y', 'air.force'];
    for (const step of STEPS) {
      const options = { duration: 0.3, step };
      const d = check(doc, params, names, options);
      const f = lastForces(doc, options);
      expect(d.results[1].value).toBeCloseTo(f.bush.force[2], 9);
      expect(d.results[5].value).toBeCloseTo(f.air.force, 12);
    }
  }, 300_000);

  it(`a tyre's load on a bouncing wheel (its mass, the tyre's centre; h = ${STEPS.join(', ')} s)`, () => {
    const doc = bouncing();
    const params: [string, Move, number][] = [
      ['wheel.mass', (x, d) => { x.parts.wheel.mass.mass += d; }, 1e-3], ['wheel.hub.z', at((x) => x.parts.wheel.points.hub, 2), 1e-3],
    ];
    for (const step of STEPS) {
      const options = { duration: 0.2, step };
      const d = check(doc, params, ['tyre.force@max', 'tyre.force@min', 'tyre.force'], options);
      expect(d.results[2].value).toBeCloseTo(lastForces(doc, options).tyre.force, 9);
    }
  }, 300_000);

  it(`a coordinate spring's and friction's force on an oscillator (rate, damping, friction, mass; h = ${STEPS.join(', ')} s)`, () => {
    const doc: any = structuredClone(oscillator({ m: 2, k: 5, c: 0.05, x0: 20 }));
    doc.forces.fric = { type: 'coordinate_friction', coordinate: 'rail.slide', force: 2, regularization: 5 };
    const params: [string, Move, number][] = [
      ['spring.stiffness', (x, d) => { x.forces.spring.stiffness += d; }, 1e-4], ['spring.damping', (x, d) => { x.forces.spring.damping += d; }, 1e-5],
      ['fric.friction', (x, d) => { x.forces.fric.force += d; }, 1e-4], ['block.mass', (x, d) => { x.parts.block.mass.mass += d; }, 1e-4],
    ];
    for (const step of STEPS) {
      const options = { duration: 0.5, step };
      const d = check(doc, params, ['spring.force@min', 'spring.force', 'fric.force@max'], options);
      expect(d.results[1].value).toBeCloseTo(lastForces(doc, options).spring.force, 9);
    }
  }, 300_000);

  itOnce('leaving out a force\'s explicit dependence (the bushing\'s frame, the tyre\'s centre, the spring\'s rate) fails the differences', () => {
    const cases: [any, [string, Move, number], string, GradientOptions][] = [
      [bushed(), ['body.mount.x', at((x) => x.parts.body.frames.mount.origin, 0), 1e-3], 'bush.force.z', { duration: 0.3, step: 2e-3 }],
      [bushed(), ['body.nose.z', at((x) => x.parts.body.points.nose, 2), 1e-3], 'air.force.y', { duration: 0.3, step: 2e-3 }],
      [bouncing(), ['wheel.hub.z', at((x) => x.parts.wheel.points.hub, 2), 1e-3], 'tyre.force', { duration: 0.2, step: 2e-3 }],
      [oscillator({ m: 2, k: 5, c: 0.05, x0: 20 }), ['spring.stiffness', (x, d) => { x.forces.spring.stiffness += d; }, 1e-4], 'spring.force', { duration: 0.5, step: 2e-3 }],
    ];
    for (const [doc, param, name, options] of cases) {
      const bare = withoutExplicit(parseResult(name));
      const g = simulationGradients(built(doc), [parseParameter(param[0])], [bare], options, 'direct').results[0].gradient;
      expect(errors(doc, [param], [parseResult(name)], [g], options)[0][0], `${name} / ${param[0]} without its explicit term`).toBeGreaterThan(1e-2);
    }
  }, 300_000);

  itOnce('refuses what has no force of this kind; the CLI prints it by name', async () => {
    const options = { duration: 0.1, step: 2e-3 };
    expect(() => simulationGradients(built(bushed()), [parseParameter('body.mass')], [parseResult('nope.force')], options)).toThrow(/result: no force element "nope" \(elements: bush, air\)/);
    const quarter = await import('../../examples/quarter-car-bump.kinemate.json', { with: { type: 'json' } });
    expect(() => simulationGradients(structuredClone(quarter.default) as any, [parseParameter('body.mass')], [parseResult('spring.force')], options)).toThrow(/its force is spring\.tension/);
    expect(() => simulationGradients(built(bouncing()), [parseParameter('wheel.mass')], [parseResult('tyre.force.x')], options)).toThrow(/its force is its normal load, tyre\.force/);
    expect(() => parseResult('bush.force@cross=3')).toThrow(/ELEMENT\.force, ELEMENT\.force\.x\|y\|z/);
    const run = await kinemate(['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.1', '--step', '0.002', '--gradient', 'body.mass', '--result', 'spring.force']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/its force is spring\.tension/);
  }, 120_000);
});
