/**
 * `simulate --gradient` differentiates the run `simulate` prints: the step on R³ × SO(3) with
 * t_k = k·h (src/gradients/product-step.ts). A free body that spins and travels, tethered by a
 * spring: its motion on R³ × SO(3) and on SE(3) parts by O(h²), and so do the two gradients.
 * The default gradient must match central differences of re-run simulations of the printed
 * scheme to near their own noise — far closer than the SE(3) gradient does.
 */
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../src/assembly/load';
import type { AssemblyDoc } from '../../src/assembly/types';
import { simulate } from '../../src/mechanics/simulate';
import { parseParameter, parseResult, simulationGradients } from '../../src/gradients/run';
import { movedDoc, type Move } from './sim-checks';

const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };

/** A 2 kg body spun about a tilted axis and thrown, tethered to the ground by a spring at an off-centre point. */
function tethered(): AssemblyDoc {
  return validateAssembly({
    format: 'kinemate.assembly/1', name: 'spinning tether', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, points: { anchor: [0, 0, 400] } },
      body: {
        pose: I, points: { tip: [60, 20, 30] },
        mass: { mass: 2, centre: [5, -3, 8], inertia: [[4e3, 0, 0], [0, 6e3, 0], [0, 0, 9e3]] },
      },
    },
    mates: {},
    forces: { tether: { type: 'springdamper', a: 'ground.anchor', b: 'body.tip', stiffness: 0.5, length: 300, damping: 0.002 } },
    velocities: { 'body.pose': { linear: [800, -300, 1500], angular: [700, -400, 1200] } },
  });
}

const params: [string, Move][] = [
  ['tether.stiffness', (d, x) => { d.forces.tether.stiffness += x; }],
  ['body.mass', (d, x) => { d.parts.body.mass.mass += x; }],
  ['body.inertia.y', (d, x) => { d.parts.body.mass.inertia[1][1] += x; }],
  ['body.centre.x', (d, x) => { d.parts.body.mass.centre[0] += x; }],
  ['body.tip.z', (d, x) => { d.parts.body.points.tip[2] += x; }],
];
const deltas = [1e-4, 1e-4, 1, 1e-3, 1e-3];
const names = ['body.tip.position.x', 'body.tip.position.z', 'body.velocity.y'];
const DURATION = 0.2, STEP = 2e-3;

/** The printed last frame's tip position (x, z) and origin velocity y, from `simulate` itself. */
function printed(doc: AssemblyDoc): number[] {
  const frames = simulate(doc, { duration: DURATION, step: STEP }).frames, last = frames[frames.length - 1];
  const pose = last.state['body.pose'] as { position: number[]; rotation: number[] };
  const [w, x, y, z] = pose.rotation, p = doc.parts.body.points!.tip as readonly number[];
  // R p with R from the unit quaternion (w, x, y, z)
  const R = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
  const world = (i: number) => pose.position[i] + R[3 * i] * p[0] + R[3 * i + 1] * p[1] + R[3 * i + 2] * p[2];
  return [world(0), world(2), (last.velocities['body.pose'] as { linear: number[] }).linear[1]];
}

describe('simulate --gradient differentiates the R³ × SO(3) step simulate prints', () => {
  it('a spinning, thrown, tethered body: values are the printed ones, entries match differences of simulate re-runs', () => {
    const doc = tethered(), ps = params.map(([n]) => parseParameter(n)), rs = names.map(parseResult);
    const options = { duration: DURATION, step: STEP };
    const direct = simulationGradients(doc, ps, rs, options, 'direct'), adjoint = simulationGradients(doc, ps, rs, options, 'adjoint');
    const se3 = simulationGradients(doc, ps, rs, { ...options, lieGroup: 'SE3' }, 'direct');
    const shown = printed(doc);
    rs.forEach((_, r) => expect(Math.abs(direct.results[r].value - shown[r]), names[r]).toBeLessThan(1e-9 * Math.max(1, Math.abs(shown[r]))));
    const plus = params.map(([, mv], j) => printed(movedDoc(doc, mv, deltas[j]))), minus = params.map(([, mv], j) => printed(movedDoc(doc, mv, -deltas[j])));
    let worst = 0, se3Least = Infinity;
    rs.forEach((_, r) => {
      const g = direct.results[r].gradient, a = adjoint.results[r].gradient, s = se3.results[r].gradient;
      const scale = Math.max(...g.map(Math.abs));
      g.forEach((x, j) => {
        const fd = (plus[j][r] - minus[j][r]) / (2 * deltas[j]), floor = Math.max(Math.abs(fd), 1e-3 * scale);
        expect(Math.abs(a[j] - x), `${names[r]} ${params[j][0]} adjoint`).toBeLessThan(1e-9 * floor);
        const e = Math.abs(x - fd) / floor;
        worst = Math.max(worst, e);
        // the SE(3) step's gradient belongs to another trajectory: off by its O(h²) part
        if (Math.abs(fd) > 1e-2 * scale) se3Least = Math.min(se3Least, Math.abs(s[j] - fd) / floor);
        expect(e, `${names[r]} ${params[j][0]}: ${x} against ${fd}`).toBeLessThan(1e-6);
      });
    });
    // the SE(3) gradient misses by far more than the product one's difference noise
    expect(se3Least).toBeGreaterThan(100 * worst);
  }, 60_000);
});
