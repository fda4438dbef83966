/**
 * pwdsim's finish-time gradient on the pinewood car (examples/pinewood.kinemate.json: two
 * axles rolling on a curved track, bearing friction, air drag): d(time the nose passes
 * x = 4000 mm, past the ramp's easement)/d(body mass, centre of mass x and z, each axle's
 * bearing friction), by the adjoint, against central differences of whole re-runs at two
 * step sizes, to 2e-6.
 *
 * The differences are taken over small moves: the track is a Catmull–Rom spline, whose C''
 * jumps at each knot (every 25 mm), so the discrete finish time has kinks where a step's end
 * meets a knot; a difference over a larger move (1e-3 kg) averages the derivative across
 * them and differs from the exact one by ~3e-4 (docs/sensitivity.md). The re-runs converge
 * Newton tighter than the default, so the small moves stay above its noise.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rotationMatrix } from '../../kernel/dual';
import { prepareSimulation } from '../../src/mechanics/simulate';
import { parseParameter, parseResult, simulationGradient, simulationGradientAdjoint } from '../../src/gradients/run';

const doc = JSON.parse(readFileSync(new URL('../../examples/pinewood.kinemate.json', import.meta.url), 'utf8'));
const FINISH = 4000;
// on SE(3): these differences follow the rolling contacts' curvature terms to 2e-6, below the 1e-6 scatter that re-runs of
// this car on R³ × SO(3) show at these δ (measured: −0.3091537 … −0.3091531 against −0.3091534 for the mass); the
// contact terms are the same on both (product-step.ts is tested on its own in product-step.test.ts)

/** The crossing time by a plain re-run (nose x passes FINISH, linear between steps). */
function finish(d: any, h: number): number {
  const sim = prepareSimulation(d, { rhoInf: 0.5, constraintTolerance: 1e-14, residualTolerance: 1e-11, lieGroup: 'SE3' });
  const it = sim.integrator, sys = sim.dyn.system, v = sys.variables[sim.dyn.model.parts.get('body')!];
  const p = d.parts.body.points.nose, R = new Float64Array(9);
  const x = () => { rotationMatrix(R, sys.state, v.offset + 3); return sys.state[v.offset] + R[0] * p[0] + R[1] * p[1] + R[2] * p[2]; };
  let prev = x();
  for (let k = 0; k < 1e5; k++) {
    if (!it.step(h, (k + 1) * h)) throw new Error('step failed');
    const xx = x();
    if ((prev - FINISH) * (xx - FINISH) <= 0) return it.t - h + (h * (FINISH - prev)) / (xx - prev);
    prev = xx;
  }
  throw new Error('no finish');
}

const params = ['body.mass', 'body.centre.x', 'body.centre.z', 'rearBearing.friction', 'frontBearing.friction'];
const moves: ((c: any, d: number) => void)[] = [
  (c, d) => { c.parts.body.mass.mass += d; },
  (c, d) => { c.parts.body.mass.centre[0] += d; },
  (c, d) => { c.parts.body.mass.centre[2] += d; },
  (c, d) => { c.forces.rearBearing.force += d; },
  (c, d) => { c.forces.frontBearing.force += d; },
];
const deltas = [1e-7, 1e-4, 1e-4, 1e-8, 1e-8]; // kg, mm, mm, N, N

describe('pinewood finish-time gradient (rolling contacts on a curved track)', () => {
  for (const h of [1e-3, 5e-4]) {
    it(`dT/d(mass, centre x, centre z, rear and front bearing friction) against central differences (h = ${h})`, () => {
      const r = parseResult(`body.nose.position.x@cross=${FINISH}`), ps = params.map(parseParameter);
      const g = simulationGradientAdjoint(doc, ps, r, { duration: 2, step: h, rhoInf: 0.5, lieGroup: 'SE3' });
      expect(g.value).toBeCloseTo(finish(doc, h), 7); // the re-run converges tighter
      ps.forEach((_, j) => {
        const at = (d: number) => { const c = structuredClone(doc); moves[j](c, d); return finish(c, h); };
        const fd = (at(deltas[j]) - at(-deltas[j])) / (2 * deltas[j]);
        // the issue asks 1e-4; 2e-6 (seen: 2e-7) also tells the track-curvature terms of the
        // contact's second derivatives, which move these gradients by 2e-5 … 5e-5
        expect(Math.abs(g.gradient[j] - fd), params[j]).toBeLessThan(2e-6 * Math.abs(fd));
      });
    }, 300_000);
  }
  it('the adjoint equals the direct route (1e-10)', () => {
    const r = parseResult(`body.nose.position.x@cross=${FINISH}`), ps = params.map(parseParameter);
    const a = simulationGradientAdjoint(doc, ps, r, { duration: 2, step: 2e-3, rhoInf: 0.5, lieGroup: 'SE3' });
    const d = simulationGradient(doc, ps, r, { duration: 2, step: 2e-3, rhoInf: 0.5, lieGroup: 'SE3' });
    d.gradient.forEach((x, j) => expect(Math.abs(a.gradient[j] - x)).toBeLessThan(1e-10 * Math.abs(x)));
  }, 300_000);
});
