/** Statics: reactions as Lagrange multipliers, checked by virtual work and closed forms. */
import { describe, expect, it } from 'vitest';
import { tangentSpace } from '../../kernel/analysis';
import { buildDynamics } from '../../src/mechanics/build';
import { loadsHere, statics, type Wrench } from '../../src/mechanics/statics';
import { door, pendulum, sliderCrank } from './models';
import { rng } from '../util/rng';

const G = 9806.65; // mm/s²

describe('statics', () => {
  it('slider-crank: the crank torque holding a slider force is −F·dx/dθ (closed form), and equals −dW/dθ along the tangent', () => {
    const r = 100, l = 300, F = -500;
    for (const angle of [20, 75, 130, 250]) {
      const dyn = buildDynamics(sliderCrank(r, l, angle, F));
      const result = statics(dyn);
      expect(result.status).toBe('solved');
      const th = (angle * Math.PI) / 180;
      const s = Math.sin(th), c = Math.cos(th);
      const dxdth = -r * s - (r * r * s * c) / Math.sqrt(l * l - r * r * s * s);
      const torque = -F * dxdth; // N·mm per radian
      expect(result.drivers['jA.angle']).toBeCloseTo(torque, 6);
      // independent route: the tangent with unit crank rate, and the loads' work along it
      const sys = dyn.system;
      const hold = sys.block([...Array(sys.blockCount).keys()].find((b) => sys.block(b).owner === 'hold:jA.angle')!);
      const t = tangentSpace(sys, [hold]);
      const rate = t.rates[0]!; // per unit row rate: the row is angle·scale
      const Q = loadsHere(dyn);
      let dW = 0;
      for (let i = 0; i < Q.length; i++) dW += Q[i] * rate[i];
      const perRadian = dW * sys.variable('jA.angle').scale;
      expect(result.drivers['jA.angle']).toBeCloseTo(-perRadian, 6);
      // the slider's guide carries no force along the rail; the pin jC pushes the slider with −F along x
      const pin = result.reactions.jC as Wrench;
      expect(pin.on).toBe('slider');
      const rail = result.reactions.jS as Wrench;
      expect(pin.force[0] + rail.force[0] + F).toBeCloseTo(0, 8);
      expect(rail.force[0]).toBeCloseTo(0, 8);
    }
  });

  it('compound pendulum held at an angle: pivot reaction balances the weight, driver torque m g d sin θ (hinge away from the body origin)', () => {
    const mass = 2, d = 300;
    for (const angle of [0, 30, -65]) {
      const dyn = buildDynamics(pendulum({ mass, d, inertia: 4e4, angle, held: true, offset: 120 }));
      const result = statics(dyn);
      expect(result.status).toBe('solved');
      const W = (mass / 1000) * G;
      const th = (angle * Math.PI) / 180;
      expect(Math.abs(result.drivers['jP.angle'])).toBeCloseTo(W * d * Math.abs(Math.sin(th)), 6);
      const pivot = result.reactions.jP as Wrench;
      expect(pivot.on).toBe('bar');
      expect(pivot.force[0]).toBeCloseTo(0, 9);
      expect(pivot.force[2]).toBeCloseTo(W, 9);
      expect(pivot.at.map((x) => Math.abs(x) < 1e-9 ? 0 : x)).toEqual([0, 0, 0]);
      // moment about the hinge balances the weight's: |M_y| = W d sin θ, nothing else
      expect(Math.abs(pivot.moment[1])).toBeCloseTo(W * d * Math.abs(Math.sin(th)), 6);
      expect(Math.abs(pivot.moment[0]) + Math.abs(pivot.moment[2])).toBeLessThan(1e-6);
    }
  });

  it('a free pendulum off the vertical is not in equilibrium: the unbalanced torque is −m g d sin θ along the angle', () => {
    const mass = 2, d = 300;
    const dyn = buildDynamics(pendulum({ mass, d, inertia: 4e4, angle: 30, held: false, offset: 50 }));
    const result = statics(dyn);
    expect(result.status).toBe('not_in_equilibrium');
    const W = (mass / 1000) * G;
    const u = result.unbalanced;
    // the free motion is the swing: reported on the angle coordinate or the bar's pose
    const swing = typeof u['jP.angle'] === 'number' ? Math.abs(u['jP.angle']) : Math.hypot(...(u['bar.pose'] as { moment: number[] }).moment);
    expect(swing).toBeGreaterThan(0);
    // hanging straight down it is balanced
    const hanging = statics(buildDynamics(pendulum({ mass, d, inertia: 4e4, angle: 0, held: false, offset: 50 })));
    expect(hanging.status).toBe('solved');
    expect((hanging.reactions.jP as Wrench).force[2]).toBeCloseTo(W, 9);
  });

  it('virtual work: at a balanced pose Qᵀδq + Σ driver·δx = 0 for random admissible motions', () => {
    const dyn = buildDynamics(sliderCrank(100, 300, 55, 700));
    const result = statics(dyn);
    const sys = dyn.system;
    sys.release('jA.angle');
    const Q = loadsHere(dyn);
    // admissible motions with the crank free: δq = q̇ (unit crank angle rate) × random amplitude
    const angleVar = sys.variable('jA.angle');
    const hold = { owner: 'probe', vars: [angleVar.id], rows: 1, kind: 'driver' as const, evaluate: (s: Float64Array, o: Int32Array, res: Float64Array, jac: Float64Array | null) => { res[0] = s[o[0]]; if (jac) jac[0] = 1; } };
    const t = tangentSpace(sys, [hold]);
    const r = rng(11);
    for (let k = 0; k < 5; k++) {
      const a = r() - 0.5;
      let work = 0;
      for (let i = 0; i < Q.length; i++) work += Q[i] * t.rates[0]![i] * a;
      expect(work + result.drivers['jA.angle'] * a).toBeCloseTo(0, 6);
    }
  });

  it('a planar slider-crank of 3D joints: only the out-of-plane components are indeterminate; the in-plane forces are determined', () => {
    const result = statics(buildDynamics(sliderCrank(100, 300, 60, -500)));
    for (const id of ['jA', 'jB', 'jC', 'jS']) {
      expect((result.reactions[id] as Wrench).indeterminate).toEqual(['force.z', 'moment.x', 'moment.y']);
    }
    expect(result.indeterminate.sort()).toEqual(['jA', 'jB', 'jC', 'jS']);
    // the pin pushes the slider with the rod's force; the rail holds it sideways: Σ = −load
    const jC = result.reactions.jC as Wrench, jS = result.reactions.jS as Wrench;
    expect(jC.force[0] + jS.force[0]).toBeCloseTo(500, 8);
    expect(jC.force[1] + jS.force[1]).toBeCloseTo(0, 8);
  });

  it('a door on two coaxial hinges: the split between them is indeterminate, the sum holds the weight', () => {
    const dyn = buildDynamics(door());
    const result = statics(dyn);
    expect(result.status).toBe('solved');
    expect(result.indeterminate.sort()).toEqual(['hingeHigh', 'hingeLow']);
    const low = result.reactions.hingeLow as Wrench, high = result.reactions.hingeHigh as Wrench;
    const W = 0.02 * G;
    const sum = [0, 1, 2].map((i) => low.force[i] + high.force[i]);
    expect(sum[0]).toBeCloseTo(0, 8);
    expect(sum[1]).toBeCloseTo(0, 8);
    expect(sum[2]).toBeCloseTo(W, 8);
    // moments about the low hinge: the two wrenches balance the weight at (400, 0, 250)
    const about = (w: Wrench) => {
      const r = [w.at[0], w.at[1], w.at[2]];
      return [w.moment[0] + r[1] * w.force[2] - r[2] * w.force[1], w.moment[1] + r[2] * w.force[0] - r[0] * w.force[2], w.moment[2] + r[0] * w.force[1] - r[1] * w.force[0]];
    };
    const m = [0, 1, 2].map((i) => about(low)[i] + about(high)[i]);
    // weight's moment about the origin: (400, 0, 250) × (0, 0, −W) = (0, 400 W, 0)
    expect(m[0]).toBeCloseTo(0, 6);
    expect(m[1]).toBeCloseTo(-400 * W, 6);
    expect(m[2]).toBeCloseTo(0, 6);
  });

  it('reports every element: a spring\'s length and tension', async () => {
    const { readFileSync } = await import('node:fs');
    const { parseAssembly } = await import('../../src/assembly/load');
    const dyn = buildDynamics(parseAssembly(readFileSync('examples/quarter-car.kinemate.json', 'utf8')));
    const result = statics(dyn);
    // at the file's pose the spring is at its free length and the tyre just touches: the weights are unbalanced
    expect(result.status).toBe('not_in_equilibrium');
    expect(result.forces.spring).toEqual({ length: 300, rate: 0, tension: 0 });
    expect((result.forces.tyre as { force: number }).force).toBe(0);
  });
});

describe('statics of couplings, bushings and coordinate springs', () => {
  const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
  const f0 = { origin: [0, 0, 0], rotation: [1, 0, 0, 0] };
  it('a gear pair: the held input needs −ratio·T, the coupling puts −T on the output coordinate', async () => {
    const { validateAssembly } = await import('../../src/assembly/load');
    const ratio = -2.5, T = 1200;
    const doc = validateAssembly({
      format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
      parts: {
        ground: { fixed: true, pose: I, frames: { a: f0, b: { origin: [100, 0, 0], rotation: [1, 0, 0, 0] } } },
        gearA: { pose: I, frames: { f: f0 } },
        gearB: { pose: { position: [100, 0, 0], rotation: [1, 0, 0, 0] }, frames: { f: f0 } },
      },
      mates: {
        jA: { type: 'revolute', a: 'ground.a', b: 'gearA.f' },
        jB: { type: 'revolute', a: 'ground.b', b: 'gearB.f' },
        mesh: { type: 'gear', a: 'jA.angle', b: 'jB.angle', ratio },
      },
      held: ['jA.angle'], gravity: [0, 0, 0],
      forces: { load: { type: 'torque', part: 'gearB', vector: [0, 0, T] } },
    });
    const result = statics(buildDynamics(doc));
    expect(result.status).toBe('solved');
    expect(result.drivers['jA.angle']).toBeCloseTo(-ratio * T, 6);
    expect(result.reactions.mesh).toEqual({ on: 'jB.angle', value: expect.closeTo(-T, 6) });
  });

  it('a coordinate spring on a held joint: the driver balances −k(x − free), reported in N·mm per radian', async () => {
    const { validateAssembly } = await import('../../src/assembly/load');
    const doc = validateAssembly({
      format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
      parts: { ground: { fixed: true, pose: I, frames: { a: f0 } }, arm: { pose: I, frames: { f: f0 } } },
      mates: { j: { type: 'revolute', a: 'ground.a', b: 'arm.f' } },
      state: { 'j.angle': 30 }, held: ['j.angle'], gravity: [0, 0, 0],
      forces: { clock: { type: 'coordinate_spring', coordinate: 'j.angle', stiffness: 50, free: 10 } },
    });
    const result = statics(buildDynamics(doc));
    // 50 N·mm per degree × 20° = 1000 N·mm holding torque
    expect(result.drivers['j.angle']).toBeCloseTo(1000, 8);
    expect(result.forces.clock).toEqual({ value: expect.closeTo(30, 9), force: expect.closeTo(-1000, 8) });
  });
});
