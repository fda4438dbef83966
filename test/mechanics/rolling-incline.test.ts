/**
 * A disc rolling down a 30° incline (examples/rolling-disc-incline.kinemate.json: a `rolling`
 * mate on a plane, a `planar` mate keeping it upright) against the closed form: the centre
 * travels ½ a t² along the slope with a = g sin α / (1 + I/(m r²)) = ⅔ g sin 30°, and the
 * energy is kept. The motion has constant accelerations (the travel's and the turn's), which
 * generalized-α reproduces exactly when a pose's translation steps in world axes (R³ × SO(3),
 * kernel/integrator/product-group.ts); on SE(3) the body-frame velocity turns with the disc and the run
 * was off by O(h²): 1.2e-4 of the travel and 1.2 mJ after 1 s at 1 ms steps.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { simulate, type SimulationFrame } from '../../src/mechanics/simulate';
import { kinemate } from '../cli/helpers';

const FILE = 'examples/rolling-disc-incline.kinemate.json';
const g = 9806.65; // mm/s²
const alpha = Math.PI / 6;
const a = (2 / 3) * g * Math.sin(alpha); // a uniform disc: I/(m r²) = ½
const disc = () => parseAssembly(readFileSync(FILE, 'utf8'));

type Pose = { position: number[] };
/** The centre's travel down the slope since the first frame (mm). */
const travel = (f: SimulationFrame, first: SimulationFrame) =>
  ((f.state['disc.pose'] as unknown as Pose).position[0] - (first.state['disc.pose'] as unknown as Pose).position[0]) / Math.cos(alpha);

/** Largest relative travel error against ½ a t² and largest |total − total₀| (J) over the frames. */
function errors(frames: SimulationFrame[]): { travel: number; energy: number } {
  let dx = 0, de = 0;
  for (const f of frames.slice(1)) {
    const exact = 0.5 * a * f.t * f.t;
    dx = Math.max(dx, Math.abs(travel(f, frames[0]) - exact) / exact);
    de = Math.max(de, Math.abs(f.energy.total - frames[0].energy.total));
  }
  return { travel: dx, energy: de };
}

describe('a disc rolling down a 30° incline', () => {
  it('travels ½ a t² with a = ⅔ g sin 30° to 1e-6 and keeps its energy to 1e-6 J (ρ∞ = 1, 1 ms steps, 1 s)', () => {
    const run = simulate(disc(), { duration: 1, step: 1e-3, rhoInf: 1, every: 50 });
    expect(run.status).toBe('completed');
    expect(run.frames[run.frames.length - 1].t).toBe(1);
    const e = errors(run.frames);
    expect(e.travel).toBeLessThan(1e-6);
    expect(e.energy).toBeLessThan(1e-6);
    // it does roll: the contact's arc length follows the centre, the turn is travel / r
    const last = run.frames[run.frames.length - 1];
    expect(Math.abs(Math.abs((last.state['roll.u'] as number) - (run.frames[0].state['roll.u'] as number)) - travel(last, run.frames[0]))).toBeLessThan(1e-6);
    const spin = (last.velocities['disc.pose'] as { angular: number[] }).angular[1] * (Math.PI / 180);
    expect(Math.abs(spin) * 100 / (a * last.t)).toBeCloseTo(1, 8);
  });

  it('the default ρ∞ = 0.9 is exact too (the motion has no high frequency to damp)', () => {
    const e = errors(simulate(disc(), { duration: 1, step: 1e-3, every: 100 }).frames);
    expect(e.travel).toBeLessThan(1e-6);
    expect(e.energy).toBeLessThan(1e-6);
  });

  it('on SE(3) (what the gradients differentiate) the error is the second-order one: ÷4 per halving of h', () => {
    const err = (h: number) => errors(simulate(disc(), { duration: 0.5, step: h, rhoInf: 1, every: Math.round(0.5 / h), lieGroup: 'SE3' }).frames).travel;
    const coarse = err(2e-3), fine = err(1e-3);
    expect(coarse).toBeGreaterThan(1e-5);
    expect(coarse / fine).toBeGreaterThan(3.6);
    expect(coarse / fine).toBeLessThan(4.4);
  });

  it('kinemate simulate on the example: the last frame at t = 1 s, travel and energy as the closed form', async () => {
    const run = await kinemate(['simulate', FILE, '--duration', '1', '--step', '0.001', '--rho-inf', '1', '--every', '250']);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { frames: SimulationFrame[]; numerical_dissipation: number };
    expect(out.frames.map((f) => f.t)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    const e = errors(out.frames);
    expect(e.travel).toBeLessThan(1e-6);
    expect(e.energy).toBeLessThan(1e-6);
    expect(Math.abs(out.numerical_dissipation)).toBeLessThan(1e-6);
  }, 60_000);
});

describe('a body spinning as it falls', () => {
  it('flies the parabola x = v t, z = −½ g t² exactly however fast it spins (its translation steps in world axes)', () => {
    const doc = parseAssembly(JSON.stringify({
      format: 'kinemate.assembly/1', name: 'spinning body', units: { length: 'mm', angle: 'deg' },
      parts: { body: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, mass: { mass: 1, centre: [0, 0, 0], inertia: [[5000, 0, 0], [0, 6000, 0], [0, 0, 7000]] } } },
      mates: {}, velocities: { 'body.pose': { linear: [100, 0, 0], angular: [0, 1800, 0] } },
    }));
    const run = simulate(doc, { duration: 0.5, step: 2e-3, rhoInf: 1, every: 50 });
    expect(run.status).toBe('completed');
    for (const f of run.frames) {
      const [x, , z] = (f.state['body.pose'] as unknown as Pose).position;
      expect(Math.abs(x - 100 * f.t)).toBeLessThan(1e-9);
      expect(Math.abs(z + 0.5 * g * f.t * f.t)).toBeLessThan(1e-9 * (1 + Math.abs(z)));
    }
  });
});
