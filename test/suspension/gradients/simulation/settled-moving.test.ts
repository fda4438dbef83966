/**
 * A settled start already moving at t = 0: a geometry file's corner settled on a sine road
 * (start: equilibrium) whose road has a rate (phase 0) or only an acceleration (phase 90°) at
 * t = 0. The settled pose moves with every number (the equilibrium's tangent, taken with the
 * static multipliers, not the moving start's), and the start's velocities, projected onto the
 * moved rows, move with it (src/gradients/start.ts). Every entry against central
 * differences of whole re-runs (rebuilt, re-settled, re-run) at two steps to 1e-4 relative;
 * adjoint = direct to 1e-10.
 * The two steps (5e-3 and 2.5e-3 s; the pendulum's 2e-3 and 1e-3 s): the coarser in `npm run test:fast`, the
 * finer in the fine-steps project (test/gradients/steps.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stepsOf } from '../../../gradients/steps';
import { parseGeometry } from '../../../../src/suspension/files';
import { readSuspensionDynamics } from '../../../../src/suspension/dynamics/model';
import { geometrySimulationGradients, movedGeometrySource, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { validateAssembly } from '../../../../src/assembly/load';
import { buildDynamics, type DynamicsModel } from '../../../../src/mechanics/build';
import { equilibrium } from '../../../../src/mechanics/equilibrium';
import { parseParameter, parseResult, simulationGradients } from '../../../../src/gradients/run';
import { entity, movedDoc, type Move } from '../../../gradients/sim-checks';

const FILE = 'examples/suspension/double_wishbone_dynamics.yaml';
function sineRoad(phase: number): GeometrySource {
  const geometry = parseGeometry(readFileSync(new URL(`../../../../${FILE}`, import.meta.url), 'utf8'), FILE);
  const raw = structuredClone((geometry.raw as any).dynamics);
  raw.road = { sine: { amplitude: 15, frequency: 3, phase } };
  return { geometry, spec: readSuspensionDynamics(raw, geometry, FILE) };
}

const NAMES = [
  'lower_wishbone_outboard.z', 'upper_wishbone_inboard_front.z', 'trackrod_inboard.y', 'strut_top.z',
  'spring.rate', 'spring.damping', 'dynamics.masses.upright.mass', 'dynamics.tyre.stiffness',
];
const RESULTS = ['upright.wheel_centre.position.z@max', 'upright.trackrod_outboard.position.z', 'lower_wishbone.velocity.x'];
/** Probe sizes: mm; N/mm (the rates' small entries of the arm's speed need a larger move to rise above the noise); N·s/mm, kg. */
const deltaOf = (name: string) => (/stiffness|rate/.test(name) ? 0.1 : /damping|mass/.test(name) ? 1e-2 : 1e-3);

export function settledErrors(source: GeometrySource, step: number, duration = 0.3) {
  const options = { duration, step };
  const direct = geometrySimulationGradients(source, NAMES, RESULTS, options, 'direct');
  const adjoint = geometrySimulationGradients(source, NAMES, RESULTS, options, 'adjoint');
  const value = (s: GeometrySource) => geometrySimulationGradients(s, [], RESULTS, options, 'direct').results.map((r) => r.value);
  const routes: number[] = [], diffs: number[][] = RESULTS.map(() => []);
  direct.results.forEach((d, r) => {
    const scale = Math.max(...d.gradient.map(Math.abs));
    d.gradient.forEach((x, j) => routes.push(Math.abs(adjoint.results[r].gradient[j] - x) / Math.max(Math.abs(x), 1e-4 * scale)));
  });
  NAMES.forEach((name, j) => {
    const d = deltaOf(name);
    const hi = value(movedGeometrySource(source, name, d)!), lo = value(movedGeometrySource(source, name, -d)!);
    RESULTS.forEach((_, r) => {
      const fd = (hi[r] - lo[r]) / (2 * d), g = direct.results[r].gradient, scale = Math.max(...g.map(Math.abs));
      // floors: 1e-4 of the largest entry, and the re-runs' own noise, 1e-11 of the value (each re-settles the start
      // to its solver's tolerance: the small entries of the arm's speed see it) over δ, at 1e-4 of the entry
      diffs[r].push(Math.abs(g[j] - fd) / Math.max(Math.abs(fd), 1e-4 * scale, (1e4 * Math.abs(hi[r]) * 1e-11) / d));
    });
  });
  return { routes: Math.max(...routes), diffs };
}

describe('the double wishbone corner settled on a sine road that moves at t = 0', () => {
  for (const phase of [0, 90]) {
    for (const step of stepsOf(0.005, 0.0025)) {
      it(`phase ${phase}° (${phase === 0 ? 'a rate' : 'an acceleration'} at t = 0), h = ${step} s`, () => {
        const { routes, diffs } = settledErrors(sineRoad(phase), step);
        expect(routes).toBeLessThan(1e-10);
        diffs.forEach((row, r) => row.forEach((e, j) => expect(e, `${RESULTS[r]} / ${NAMES[j]}`).toBeLessThan(1e-4)));
      }, 300_000);
    }
  }
});

/**
 * On an assembly the start's velocities reach the constraints: a pendulum hinged on a cart that a
 * sine shakes along a rail, a spring-damper holding it aside, settled with the cart held where the
 * sine starts. The projected start velocities turn with the settled pose (v₀'), and a cart
 * accelerating at t = 0 makes the start's multipliers dynamic, so the equilibrium's tangent takes
 * the static ones. (Leaving out v₀' misses entries by up to 3.4 relative; taking the dynamic
 * multipliers misses the bob hinge's by 2e-2: checked by hand.)
 */
describe('a pendulum on a shaken cart, settled, then shaken from t = 0', () => {
  const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
  const zToY = [Math.SQRT1_2, -Math.SQRT1_2, 0, 0], zToX = [0.5, 0.5, 0.5, 0.5];
  const cart = (phase: number) => ({
    ...validateAssembly({
      format: 'kinemate.assembly/1', name: 'shaken pendulum', units: { length: 'mm', angle: 'deg' },
      parts: {
        ground: { fixed: true, pose: I, frames: { rail: { origin: [0, 0, 0], rotation: zToX } }, points: { anchor: [600, 0, -300] } },
        cart: { pose: I, frames: { rail: { origin: [0, 0, 0], rotation: zToX }, hinge: { origin: [0, 0, 0], rotation: zToY } },
          mass: { mass: 5, centre: [0, 0, 0], inertia: [[1e4, 0, 0], [0, 1e4, 0], [0, 0, 1e4]] } },
        bob: { pose: I, frames: { hinge: { origin: [0, 0, 0], rotation: zToY } }, points: { arm: [0, 0, -400] },
          mass: { mass: 2, centre: [30, 0, -500], inertia: [[5000, 0, 0], [0, 5000, 0], [0, 0, 1000]] } },
      },
      mates: { slide: { type: 'slider', a: 'ground.rail', b: 'cart.rail' }, pin: { type: 'revolute', a: 'cart.hinge', b: 'bob.hinge' } },
      forces: { spring: { type: 'springdamper', a: 'ground.anchor', b: 'bob.arm', stiffness: 0.3, length: 300, damping: 0.005 } },
      motions: { shake: { coordinate: 'slide.slide', sine: { amplitude: 20, frequency: 2, phase } } },
    } as never),
    // no coordinate values: the run starts where the equilibrium left it
    state: {},
  });
  /** Built and settled with the cart held where the sine starts (as a geometry file's roads are). */
  const settled = (doc: unknown, phase: number): DynamicsModel => {
    const dyn = buildDynamics(doc as never);
    const v = dyn.model.coordinates.get('slide.slide')!.variable;
    dyn.system.hold(v, 20 * Math.sin((phase * Math.PI) / 180));
    expect(equilibrium(dyn).status).toBe('solved');
    dyn.system.release(v);
    return dyn;
  };
  const params: [string, Move, number][] = [
    ['bob.mass', (d, s) => { d.parts.bob.mass.mass += s; }, 1e-3],
    ['bob.centre.x', (d, s) => { d.parts.bob.mass.centre[0] += s; }, 1e-2],
    ['spring.stiffness', (d, s) => { d.forces.spring.stiffness += s; }, 1e-4],
    ['bob.hinge.z', entity('bob', 'frames', 'hinge', 2), 1e-2],
    ['cart.hinge.x', entity('cart', 'frames', 'hinge', 0), 1e-2],
    ['ground.anchor.x', entity('ground', 'points', 'anchor', 0), 1e-2],
  ];
  for (const phase of [0, 90]) {
    for (const step of stepsOf(2e-3, 1e-3)) {
      it(`phase ${phase}° (${phase === 0 ? 'a rate' : 'an acceleration'} at t = 0), h = ${step} s`, () => {
        const doc = cart(phase), ps = params.map((p) => parseParameter(p[0]));
        // both results off one run each way, and each move's two re-runs serve both (simulationGradients
        // equals the single-result runs: test/gradients/hardpoints.test.ts "several results from one run")
        const names = ['bob.arm.position.x', 'bob.arm.velocity.z'], rs = names.map(parseResult);
        const options = { duration: 0.3, step, start: 'equilibrium' as const };
        const direct = simulationGradients(settled(doc, phase), ps, rs, options, 'direct').results;
        const adjoint = simulationGradients(settled(doc, phase), ps, rs, options, 'adjoint').results;
        const values = (dd: unknown) => simulationGradients(settled(dd, phase), [], rs, options, 'direct').results.map((r) => r.value);
        const moved = params.map(([, mv, h]) => [values(movedDoc(doc, mv, h)), values(movedDoc(doc, mv, -h))]);
        names.forEach((name, k) => {
          const d = direct[k], a = adjoint[k];
          const scale = Math.max(...d.gradient.map(Math.abs));
          d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x), `${name} ${params[j][0]}`).toBeLessThanOrEqual(1e-10 * Math.max(Math.abs(x), 1e-4 * scale)));
          params.forEach(([pname, , h], j) => {
            const fd = (moved[j][0][k] - moved[j][1][k]) / (2 * h);
            expect(Math.abs(d.gradient[j] - fd), `${name} ${pname} h=${step}: ${d.gradient[j]} vs ${fd}`).toBeLessThan(1e-4 * Math.max(Math.abs(fd), 1e-4 * scale));
          });
        });
      }, 300_000);
    }
  }
});
