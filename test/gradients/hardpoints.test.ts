/**
 * Hardpoints (entity positions of the file) as parameters of a simulation's gradient: each
 * entry against central differences of whole re-runs with the entity moved in the file, at
 * two step sizes, to 1e-4 relative (the dynamics bar); the adjoint against the direct
 * route to 1e-10; and closed forms where a pendulum has them — a pendulum's period scales as
 * √L, so a crossing time's derivative in the rod length is T/(2L), and moving the ground pivot
 * sideways shifts the discrete crossing by −h/(x_{n+1} − x_n) exactly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rotationMatrix } from '../../kernel/dual';
import { prepareSimulation } from '../../src/mechanics/simulate';
import {
  parseParameter, parseResult, simulationGradient, simulationGradientAdjoint, simulationGradients, type GradientOptions,
} from '../../src/gradients/run';
import type { AssemblyDoc } from '../../src/assembly/types';
import { kinemate } from '../cli/helpers';

const load = (name: string): any => JSON.parse(readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'));

/** A move of one entity coordinate in a copy of the file: [part, group, entity, axis]. */
type Where = [string, 'points' | 'frames' | 'axes' | 'planes' | 'circles', string, 0 | 1 | 2];
function moved(doc: any, [part, group, name, axis]: Where, d: number): AssemblyDoc {
  const c = structuredClone(doc);
  const e = c.parts[part][group][name];
  (Array.isArray(e) ? e : group === 'circles' ? e.center : e.origin)[axis] += d;
  return c;
}

/** Adjoint and direct gradients (equal to 1e-10 of each entry, floored at 1e-4 of the largest: a zero entry is round-off in both). */
function both(doc: AssemblyDoc, params: string[], result: string, options: GradientOptions) {
  const ps = params.map(parseParameter), r = parseResult(result);
  const d = simulationGradient(doc, ps, r, options), a = simulationGradientAdjoint(doc, ps, r, options);
  expect(a.value).toBe(d.value);
  const scale = Math.max(...d.gradient.map(Math.abs));
  expect(scale).toBeGreaterThan(0);
  d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x), params[j]).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale)));
  return a;
}

/** Each entry against central differences of `value` re-run with the entity moved ±δ, to `tol` relative (floored at 1e-4 of the largest entry: the re-runs' noise). */
function againstDifferences(doc: any, gradient: number[], wheres: Where[], value: (d: AssemblyDoc) => number, delta: number, tol = 1e-4) {
  againstDifferencesOf(gradient, wheres, (j) => (value(moved(doc, wheres[j], delta)) - value(moved(doc, wheres[j], -delta))) / (2 * delta), tol);
}

/** Each entry against its central difference fd(j), to `tol` relative (floored at 1e-4 of the largest entry). */
function againstDifferencesOf(gradient: number[], wheres: Where[], fd: (j: number) => number, tol = 1e-4) {
  const scale = Math.max(...gradient.map(Math.abs));
  wheres.forEach((w, j) => {
    const f = fd(j);
    expect(Math.abs(gradient[j] - f), w.join('.')).toBeLessThan(tol * Math.max(Math.abs(f), 1e-4 * scale));
  });
}

const plainValue = (result: string, options: GradientOptions) => (d: AssemblyDoc) => simulationGradient(d, [], parseResult(result), options).value;

/** `againstDifferences` for several results' gradients at once: each move's two re-runs serve every result. */
function againstDifferencesAll(doc: any, gradients: number[][], wheres: Where[], results: string[], options: GradientOptions, delta: number) {
  const rs = results.map(parseResult), values = (d: AssemblyDoc) => simulationGradients(d, [], rs, options, 'direct').results.map((g) => g.value);
  const moves = wheres.map((w) => [values(moved(doc, w, delta)), values(moved(doc, w, -delta))]);
  results.forEach((_, k) => againstDifferencesOf(gradients[k], wheres, (j) => (moves[j][0][k] - moves[j][1][k]) / (2 * delta)));
}

/**
 * `both` and `againstDifferences` for several results of one document, which share its runs:
 * simulationGradients reads them all off one run each way (equal to the single-result runs:
 * see "equal the single-result runs" below), and each move's two re-runs serve every result.
 */
function checkResults(doc: any, params: string[], results: string[], options: GradientOptions, wheres: Where[], delta: number) {
  const ps = params.map(parseParameter), rs = results.map(parseResult);
  const direct = simulationGradients(doc, ps, rs, options, 'direct').results, adjoint = simulationGradients(doc, ps, rs, options, 'adjoint').results;
  const scales = direct.map((d, k) => {
    const a = adjoint[k];
    expect(a.value).toBe(d.value);
    const scale = Math.max(...d.gradient.map(Math.abs));
    expect(scale).toBeGreaterThan(0);
    d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x), `${results[k]} ${params[j]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale)));
    return Math.max(...a.gradient.slice(0, wheres.length).map(Math.abs));
  });
  const values = (d: AssemblyDoc) => simulationGradients(d, [], rs, options).results.map((g) => g.value);
  wheres.forEach((w, j) => {
    const up = values(moved(doc, w, delta)), down = values(moved(doc, w, -delta));
    results.forEach((result, k) => {
      const fd = (up[k] - down[k]) / (2 * delta);
      expect(Math.abs(adjoint[k].gradient[j] - fd), `${result} ${w.join('.')}`).toBeLessThan(1e-4 * Math.max(Math.abs(fd), 1e-4 * scales[k]));
    });
  });
}

describe('pendulum whose pivot moves (1 kg point mass on a 1 m rod, released from horizontal)', () => {
  const doc = load('pendulum.kinemate.json');
  const params = ['bob.hinge.z', 'bob.hinge.x', 'ground.hinge.x', 'ground.hinge.z'];
  const wheres: Where[] = [['bob', 'frames', 'hinge', 2], ['bob', 'frames', 'hinge', 0], ['ground', 'frames', 'hinge', 0]];
  const result = 'bob.mass.position.x@cross=0'; // a quarter period

  for (const h of [2e-3, 1e-3]) {
    it(`the quarter-period crossing against central differences and the closed forms (h = ${h})`, () => {
      const options = { duration: 1, step: h };
      const g = both(doc, params, result, options);
      againstDifferences(doc, g.gradient.slice(0, 3), wheres.slice(0, 3), plainValue(result, options), 1e-2);
      // the period scales as √L: dT/dL = T/(2L), L = 1000 mm + the bob's hinge z (to the method's O(h²))
      expect(Math.abs(g.gradient[0] - g.value / 2000)).toBeLessThan(1e-4 * g.value / 2000);
      // the ground pivot moved sideways moves the whole swing: the discrete crossing by −h/(x_{n+1} − x_n)
      const sim = prepareSimulation(structuredClone(doc), { lieGroup: 'R3xSO3' }), it = sim.integrator, sys = sim.dyn.system, v = sys.variables[sim.dyn.model.parts.get('bob')!];
      const R = new Float64Array(9), x = () => { rotationMatrix(R, sys.state, v.offset + 3); return sys.state[v.offset] + R[2] * -1000; };
      let prev = x(), next = prev, k = 0;
      while (prev * next > 0 || next === prev) { prev = next; it.step(h, ++k * h); next = x(); }
      expect(Math.abs(g.gradient[2] - -h / (next - prev))).toBeLessThan(1e-8 * Math.abs(g.gradient[2]));
      // raising the pivot on the ground moves everything up: no change to a sideways crossing
      expect(Math.abs(g.gradient[3])).toBeLessThan(1e-9 * Math.abs(g.gradient[0]));
    }, 120_000);
  }

  it('a result at the moved point itself, and a rotating spring-damper whose ends are hardpoints', () => {
    const d = structuredClone(doc);
    d.parts.ground.points = { anchor: [300, 0, -200] };
    d.parts.bob.points.arm = [0, 0, -400];
    d.forces = { strut: { type: 'springdamper', a: 'ground.anchor', b: 'bob.arm', stiffness: 2, length: 500, damping: 0.05 } };
    const ps = ['bob.arm.x', 'bob.arm.z', 'ground.anchor.x', 'bob.hinge.z', 'bob.mass.x'];
    const ws: Where[] = [['bob', 'points', 'arm', 0], ['bob', 'points', 'arm', 2], ['ground', 'points', 'anchor', 0], ['bob', 'frames', 'hinge', 2], ['bob', 'points', 'mass', 0]];
    for (const h of [2e-3, 1e-3]) {
      const options = { duration: 0.6, step: h };
      // the bob's point "mass" is not its centre of mass: moving it moves only the result
      const rs = ['bob.mass.position.z', 'bob.mass.velocity.x', 'bob.arm.position.x@max'];
      againstDifferencesAll(d, rs.map((r) => both(d, ps, r, options).gradient), ws, rs, options, 1e-3);
    }
  }, 240_000);
});

describe('quarter car over a bump: the spring, damper and tyre ends', () => {
  const doc = load('quarter-car-bump.kinemate.json');
  const params = ['body.spring_top.z', 'wheel.spring_seat.z', 'wheel.spring_seat.x', 'wheel.contact.z', 'road.surface.z'];
  const wheres: Where[] = [['body', 'points', 'spring_top', 2], ['wheel', 'points', 'spring_seat', 2], ['wheel', 'points', 'spring_seat', 0], ['wheel', 'points', 'contact', 2], ['road', 'points', 'surface', 2]];
  for (const h of [2e-3, 1e-3]) {
    it(`body height at 1 s, its peak, the wheel's speed (h = ${h})`, () => {
      checkResults(doc, [...params, 'spring.stiffness'], ['body.position.z', 'body.position.z@max', 'wheel.velocity.z'], { duration: 1, step: h }, wheres, 1e-3);
    }, 240_000);
  }

  it('the guides, with the slides held in "state" (the start moves with them)', () => {
    const d = structuredClone(doc);
    d.state = { 'bodyGuide.slide': 600, 'wheelGuide.slide': 300 };
    const ps = ['wheel.guide.z', 'body.guide.z', 'ground.guide.x'];
    const ws: Where[] = [['wheel', 'frames', 'guide', 2], ['body', 'frames', 'guide', 2], ['ground', 'frames', 'guide', 0]];
    for (const h of [2e-3, 1e-3]) {
      const options = { duration: 0.8, step: h };
      const g = both(d, ps, 'body.position.z@max', options);
      againstDifferences(d, g.gradient, ws, plainValue('body.position.z@max', options), 1e-3);
      // the ground guide sideways: the sideways position moves with it one for one
      const x = both(d, ps, 'body.spring_top.position.x', options);
      expect(Math.abs(x.gradient[2] - 1)).toBeLessThan(1e-12);
    }
  }, 240_000);

  it('a tyre element (centre and road point) and a bushing between two frames', () => {
    const d = structuredClone(doc);
    // in contact at the start (10 mm): at exactly zero penetration the force has a kink there
    d.forces.tyre = { type: 'tyre', centre: 'wheel.centre', axis: 'wheel.spin', radius: 295, stiffness: 160, damping: 0.2, road: 'road.surface' };
    d.parts.body.frames.bush = { origin: [10, 0, -20], rotation: [1, 0, 0, 0] };
    d.parts.wheel.frames.bush = { origin: [0, 5, 250], rotation: [1, 0, 0, 0] };
    d.forces.mount = { type: 'bushing', a: 'body.bush', b: 'wheel.bush', stiffness: [1, 1, 3], rotational_stiffness: [0, 0, 0], damping: [0, 0, 0.2] };
    const ps = ['wheel.points.centre.z', 'road.surface.z', 'body.bush.z', 'wheel.bush.z'];
    const ws: Where[] = [['wheel', 'points', 'centre', 2], ['road', 'points', 'surface', 2], ['body', 'frames', 'bush', 2], ['wheel', 'frames', 'bush', 2]];
    for (const h of [2e-3, 1e-3]) {
      const options = { duration: 0.8, step: h };
      const g = both(d, ps, 'body.position.z@max', options);
      againstDifferences(d, g.gradient, ws, plainValue('body.position.z@max', options), 1e-3);
    }
  }, 240_000);

  it('refuses a bad name with the name and the list; follows a guide whose start the file leaves free', () => {
    const r = parseResult('body.position.z'), options = { duration: 0.1, step: 2e-3 };
    expect(() => simulationGradient(doc, [parseParameter('body.nope.x')], r, options)).toThrow(/parameter "body\.nope\.x": part "body" has no point.*hardpoints of this file: ground\.guide\.x, .*wheel\.points\.centre\.x/);
    expect(() => simulationGradient(doc, [parseParameter('nobody.spring_top.z')], r, options)).toThrow(/"nobody\.spring_top\.z": no part "nobody"/);
    // the slides not in "state": the start solve's least move carries the body along the moved guide one for one
    // (src/gradients/free-start.ts; test/gradients/free-start.test.ts)
    expect(Math.abs(simulationGradient(doc, [parseParameter('ground.guide.x')], parseResult('body.spring_top.position.x'), options).gradient[0] - 1)).toBeLessThan(1e-12);
    expect(() => parseParameter('body.spring_top')).toThrow(/PART\.ENTITY\.x\|y\|z/);
    // "centre" is the mass centre's; the point of that name in its long form
    expect(parseParameter('wheel.centre.z')).toEqual({ kind: 'centre', part: 'wheel', axis: 2 });
    expect(parseParameter('wheel.points.centre.z')).toEqual({ kind: 'hardpoint', part: 'wheel', group: 'points', entity: 'centre', axis: 2 });
  });
});

describe('double wishbone corner over a bump: coilover ends on the turning lower arm', () => {
  it('the wheel contact\'s peak height (two steps)', () => {
    const doc = load('dw-corner-bump.kinemate.json');
    const ps = ['lower.spring_seat.x', 'lower.spring_seat.z', 'chassis.spring_top.y', 'upright.contact.z'];
    const ws: Where[] = [['lower', 'points', 'spring_seat', 0], ['lower', 'points', 'spring_seat', 2], ['chassis', 'points', 'spring_top', 1], ['upright', 'points', 'contact', 2]];
    for (const h of [2e-3, 1e-3]) {
      const options = { duration: 0.8, step: h };
      const g = both(doc, ps, 'upright.contact.position.z@max', options);
      againstDifferences(doc, g.gradient, ws, plainValue('upright.contact.position.z@max', options), 1e-3);
    }
  }, 240_000);
});

// on SE(3), as pinewood.test.ts: re-runs of this car on R³ × SO(3) scatter by 1e-6 at these δ, above this test's bar
describe('pinewood car: an axle position of the body', () => {
  const doc = load('pinewood.kinemate.json');
  const FINISH = 4000;
  /** The crossing by a plain re-run, converged tighter (the track's spline has kinks: docs/sensitivity.md). */
  const finish = (h: number) => (d: any): number => {
    const sim = prepareSimulation(d, { rhoInf: 0.5, constraintTolerance: 1e-14, residualTolerance: 1e-11, lieGroup: 'SE3' });
    const it = sim.integrator, sys = sim.dyn.system, v = sys.variables[sim.dyn.model.parts.get('body')!];
    const p = d.parts.body.points.nose, R = new Float64Array(9);
    const x = () => { rotationMatrix(R, sys.state, v.offset + 3); return sys.state[v.offset] + R[0] * p[0] + R[1] * p[1] + R[2] * p[2]; };
    let prev = x();
    for (let k = 1; ; k++) {
      if (!it.step(h, k * h)) throw new Error('step failed');
      const xx = x();
      if ((prev - FINISH) * (xx - FINISH) <= 0) return it.t - h + (h * (FINISH - prev)) / (xx - prev);
      prev = xx;
    }
  };
  const params = ['body.frontAxle.x', 'body.rearAxle.x', 'body.frontAxle.z'];
  const wheres: Where[] = [['body', 'axes', 'frontAxle', 0], ['body', 'axes', 'rearAxle', 0], ['body', 'axes', 'frontAxle', 2]];
  for (const h of [2e-3, 1e-3]) {
    it(`d(time to x = 4000 mm)/d(axle positions) (h = ${h})`, () => {
      const g = both(doc, [...params, 'body.mass'], `body.nose.position.x@cross=${FINISH}`, { duration: 2, step: h, rhoInf: 0.5, lieGroup: 'SE3' });
      // 3e-5 rather than the 1e-4: leaving out the start's acceleration-row terms
      // ((∂Φ_q/∂p)v̇₀ and ∂(Φ_q v̇₀)/∂q q₀') moves the front axle's entry by 6.5e-5 (seen at h = 2e-3)
      againstDifferences(doc, g.gradient.slice(0, 3), wheres, finish(h), 1e-4, 3e-5);
    }, 300_000);
  }
});

describe('several results from one run', () => {
  it('equal the single-result runs, both routes; the default route by the counts', () => {
    const doc = load('quarter-car-bump.kinemate.json');
    const ps = ['spring.stiffness', 'body.spring_top.z', 'wheel.contact.z'].map(parseParameter);
    const names = ['body.position.z', 'body.position.z@max', 'wheel.velocity.z@min', 'body.position.z@cross=610'];
    const rs = names.map(parseResult), options = { duration: 0.8, step: 2e-3 };
    const d = simulationGradients(doc, ps, rs, options), a = simulationGradients(doc, ps, rs, options, 'adjoint');
    expect(d.method).toBe('direct'); // 3 parameters, 4 results
    expect(simulationGradients(doc, ps, rs.slice(0, 2), { duration: 0.1, step: 2e-3 }).method).toBe('adjoint');
    rs.forEach((r, k) => {
      const one = simulationGradient(doc, ps, r, options);
      expect(d.results[k].value).toBe(one.value);
      expect(d.results[k].t).toBe(one.t);
      one.gradient.forEach((x, j) => {
        expect(Math.abs(d.results[k].gradient[j] - x)).toBeLessThanOrEqual(1e-12 * Math.abs(x));
        expect(Math.abs(a.results[k].gradient[j] - x)).toBeLessThanOrEqual(1e-10 * Math.abs(x));
      });
    });
  }, 120_000);

  it('kinemate simulate with two --result: one run, keyed by name; a bad hardpoint refused', async () => {
    const args = ['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.6', '--step', '0.002',
      '--gradient', 'spring.stiffness', '--gradient', 'body.spring_top.z', '--gradient', 'wheel.contact.z',
      '--result', 'body.position.z@max', '--result', 'wheel.velocity.z'];
    const out = await kinemate(args);
    expect(out.code).toBe(0);
    const j = JSON.parse(out.stdout);
    expect(j.gradient_method).toBe('adjoint');
    expect(Object.keys(j.results)).toEqual(['body.position.z@max', 'wheel.velocity.z']);
    const doc = load('quarter-car-bump.kinemate.json');
    const single = simulationGradient(doc, ['spring.stiffness', 'body.spring_top.z', 'wheel.contact.z'].map(parseParameter), parseResult('wheel.velocity.z'), { duration: 0.6, step: 2e-3 });
    expect(j.results['wheel.velocity.z'].value).toBe(single.value);
    expect(Math.abs(j.results['wheel.velocity.z'].gradient['body.spring_top.z'] - single.gradient[1])).toBeLessThan(1e-10 * Math.abs(single.gradient[1]));
    const bad = await kinemate([...args.slice(0, 6), '--gradient', 'body.nope.z', '--result', 'body.position.z']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/parameter "body\.nope\.z".*hardpoints of this file: ground\.guide\.x/);
  }, 120_000);
});
