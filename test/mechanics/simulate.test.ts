/** Time simulation against closed forms, conservation and an independent integration. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { simulate, type SimulationFrame } from '../../src/mechanics/simulate';
import { pendulum } from './models';
import { doublePendulum, oscillator, spinningBody } from '../gradients/sim-models';

const g = 9806.65;

/** Time the coordinate first crosses zero going down (linear interpolation between frames). */
function firstDownCrossing(frames: SimulationFrame[], coordinate: string): number {
  for (let i = 1; i < frames.length; i++) {
    const a = frames[i - 1].state[coordinate] as number, b = frames[i].state[coordinate] as number;
    if (a > 0 && b <= 0) return frames[i - 1].t + (a / (a - b)) * (frames[i].t - frames[i - 1].t);
  }
  return NaN;
}

const angleAt = (frames: SimulationFrame[], coordinate: string, t: number) => frames.find((f) => Math.abs(f.t - t) < 1e-9)!.state[coordinate] as number;

describe('pendulum', () => {
  it('a 1 m point pendulum released at 90° has the elliptic-integral period 2.3682463463 s', () => {
    const doc = parseAssembly(readFileSync('examples/pendulum.kinemate.json', 'utf8'));
    const r = simulate(doc, { duration: 0.7, step: 0.0005, rhoInf: 1 });
    expect(r.status).toBe('completed');
    const T = 4 * firstDownCrossing(r.frames, 'pivot.angle');
    expect(Math.abs(T - 2.3682463463) / 2.3682463463).toBeLessThan(2e-6);
    for (const f of r.frames) expect(f.residual).toBeLessThanOrEqual(1e-10);
  });

  it('a compound pendulum at small amplitude has the period 2π √(I_pivot / m g d)', () => {
    const m = 2, d = 300, Ic = 2e5, amp = 2;
    const r = simulate(pendulum({ mass: m, d, inertia: Ic, angle: amp, held: false, offset: 100 }), { duration: 0.4, step: 0.0005 });
    const Ip = (Ic + m * d * d) / 1000, T0 = 2 * Math.PI * Math.sqrt(Ip / ((m / 1000) * g * d));
    const th = (amp * Math.PI) / 180;
    const T = 4 * firstDownCrossing(r.frames, 'jP.angle');
    expect(Math.abs(T - T0 * (1 + th * th / 16)) / T0).toBeLessThan(2e-5);
  });

  it('a uniform bar released from horizontal: the pivot carries mg/4 at release and 2.5 mg at the bottom', () => {
    const m = 3, l = 800;
    const r = simulate(pendulum({ mass: m, d: l / 2, inertia: (m * l * l) / 12, angle: 90, held: false }), { duration: 0.5, step: 0.0002, rhoInf: 1 });
    const W = m * g / 1000;
    const F0 = (r.frames[0].reactions.jP as { force: number[] }).force;
    expect(F0[2]).toBeCloseTo(W / 4, 6);
    expect(Math.abs(F0[0])).toBeLessThan(1e-6 * W);
    const i = r.frames.findIndex((f, k) => k > 0 && (f.state['jP.angle'] as number) <= 0);
    const a = r.frames[i - 1], b = r.frames[i];
    const fa = (a.state['jP.angle'] as number), fb = (b.state['jP.angle'] as number), s = fa / (fa - fb);
    const Fz = (1 - s) * (a.reactions.jP as { force: number[] }).force[2] + s * (b.reactions.jP as { force: number[] }).force[2];
    expect(Fz / W).toBeCloseTo(2.5, 4);
  });

  it('generalized-α is second order and backward Euler first order in the step', () => {
    const doc = pendulum({ mass: 1, d: 500, inertia: 0, angle: 60, held: false });
    const at = (method: 'generalized-alpha' | 'backward-euler', h: number) => {
      const r = simulate(doc, { duration: 0.5, step: h, method, every: Math.round(0.5 / h) });
      return r.frames.at(-1)!.state['jP.angle'] as number;
    };
    const reference = at('generalized-alpha', 0.5 / 6400);
    const errors = (method: 'generalized-alpha' | 'backward-euler') => [0.01, 0.005, 0.0025].map((h) => Math.abs(at(method, h) - reference));
    const ga = errors('generalized-alpha'), be = errors('backward-euler');
    for (let k = 1; k < 3; k++) {
      expect(ga[k - 1] / ga[k]).toBeGreaterThan(3.6);
      expect(ga[k - 1] / ga[k]).toBeLessThan(4.4);
      expect(be[k - 1] / be[k]).toBeGreaterThan(1.8);
      expect(be[k - 1] / be[k]).toBeLessThan(2.2);
    }
  });
});

describe('energy budget', () => {
  const m = 1, k = 10; // ω = √(k/m) = 100 rad/s in t, mm, s, N
  const omega = Math.sqrt(k / (m / 1000)), T = (2 * Math.PI) / omega;

  it('an undamped oscillator keeps its total to 1e-6 of the energy scale over 10 periods at T/200 (ρ∞ = 1)', () => {
    const r = simulate(oscillator({ m, k, x0: 20 }), { duration: 10 * T, step: T / 200, rhoInf: 1 });
    const scale = 0.5 * k * 20 * 20 / 1000;
    const e0 = r.frames[0].energy.total;
    for (const f of r.frames) expect(Math.abs(f.energy.total - e0)).toBeLessThan(1e-6 * scale);
    expect(r.frames[0].energy.elastic).toBeCloseTo(scale, 12);
  });

  it('a damped oscillator closes kinetic + elastic + dissipated to 1e-6 of the energy scale', () => {
    const r = simulate(oscillator({ m, k, c: 0.02, x0: 20, v0: 500 }), { duration: 10 * T, step: T / 200, rhoInf: 1 });
    const e0 = r.frames[0].energy.total;
    for (const f of r.frames) expect(Math.abs(f.energy.total - e0)).toBeLessThan(1e-6 * Math.abs(e0));
    const last = r.frames.at(-1)!.energy;
    expect(last.dissipated).toBeGreaterThan(0.5 * e0);
    expect(r.energy_by_element.spring).toBeCloseTo(last.elastic + last.dissipated, 12);
  });

  it('a constant applied force: its work is counted as external and the budget closes', () => {
    const r = simulate(oscillator({ m, k, x0: 0, force: 50 }), { duration: 3 * T, step: T / 200, rhoInf: 1 });
    for (const f of r.frames) expect(Math.abs(f.energy.total)).toBeLessThan(1e-9);
    const x = r.frames.at(-1)!.state['rail.slide'] as number;
    expect(r.frames.at(-1)!.energy.external).toBeCloseTo(50 * x / 1000, 9);
  });

  it('backward Euler damps an undamped oscillator by (1 + (ωh)²)^(−1/2) per step in amplitude', () => {
    const h = T / 50, n = 100;
    const r = simulate(oscillator({ m, k, x0: 20 }), { duration: n * h, step: h, method: 'backward-euler' });
    const ratio = r.frames.at(-1)!.energy.total / r.frames[0].energy.total;
    expect(ratio).toBeCloseTo((1 + (omega * h) ** 2) ** -n, 6);
  });
});

describe('motions', () => {
  it('a sine motion on a slide: the actuator force is m ẍ + k x and its work is the energy it put in', () => {
    const m = 1, k = 10, A = 5, f = 3;
    const r = simulate(oscillator({ m, k, x0: 0, motion: { coordinate: 'rail.slide', sine: { amplitude: A, frequency: f } } }), { duration: 0.5, step: 0.0005 });
    const w = 2 * Math.PI * f;
    for (const frame of r.frames.slice(1)) {
      const x = A * Math.sin(w * frame.t);
      expect(frame.state['rail.slide'] as number).toBeCloseTo(x, 9);
      const expected = (m / 1000) * (-w * w * x) + k * x;
      expect(Math.abs(frame.drivers.drive - expected)).toBeLessThan(3e-2 * (m / 1000) * w * w * A);
      // the driver work is a trapezoid of λ·Φ_t: closes to 3e-5 of the spring energy scale ½ k A² (λ of an index-3 scheme carries O(h) error)
      expect(Math.abs(frame.energy.total - r.frames[0].energy.total)).toBeLessThan(3e-5 * 0.5 * k * A * A / 1000);
    }
  });
});

describe('double pendulum', () => {
  it('agrees with an RK4 integration of its minimal coordinates to 1e-4 rad at t = 1 s', () => {
    const m = 1, L = 1000, th1 = 50, rel = 40;
    const r = simulate(doublePendulum(m, L, th1, rel), { duration: 1, step: 0.0002, every: 5000 });
    const deg = Math.PI / 180;
    // RK4 on (θ1, θ2, ω1, ω2), absolute angles, equal point masses and rods (m cancels)
    const G = g / 1000, l = L / 1000;
    const f = (y: number[]): number[] => {
      const [a, b, wa, wb] = y, d = a - b, den = 3 - Math.cos(2 * d);
      const aa = (-3 * G * Math.sin(a) - G * Math.sin(a - 2 * b) - 2 * Math.sin(d) * (wb * wb * l + wa * wa * l * Math.cos(d))) / (l * den);
      const bb = (2 * Math.sin(d) * (wa * wa * l * 2 + 2 * G * Math.cos(a) + wb * wb * l * Math.cos(d))) / (l * den);
      return [wa, wb, aa, bb];
    };
    let y = [th1 * deg, (th1 + rel) * deg, 0, 0];
    const h = 1e-5;
    for (let i = 0; i < 1e5; i++) {
      const k1 = f(y), k2 = f(y.map((v, j) => v + 0.5 * h * k1[j])), k3 = f(y.map((v, j) => v + 0.5 * h * k2[j])), k4 = f(y.map((v, j) => v + h * k3[j]));
      y = y.map((v, j) => v + (h / 6) * (k1[j] + 2 * k2[j] + 2 * k3[j] + k4[j]));
    }
    const end = r.frames.at(-1)!;
    expect(end.t).toBeCloseTo(1, 12);
    expect(Math.abs((end.state['shoulder.angle'] as number) * deg - y[0])).toBeLessThan(1e-4);
    expect(Math.abs(((end.state['shoulder.angle'] as number) + (end.state['elbow.angle'] as number)) * deg - y[1])).toBeLessThan(1e-4);
  });
});

describe('free body', () => {
  it('a constant torque about a principal axis spins it up as ½ (τ/I) t², the pose turned on the group', () => {
    const I = 4e4, tau = 2e3; // kg·mm², N·mm → α = τ / (I/1000 t·mm²) = 50 rad/s²
    const r = simulate(spinningBody([I * 2, I * 3, I], [0, 0, tau]), { duration: 1, step: 0.001, every: 1000 });
    const alpha = tau / (I / 1000), phi = 0.5 * alpha;
    const q = (r.frames.at(-1)!.state['body.pose'] as { rotation: number[] }).rotation;
    expect(Math.abs(Math.abs(q[0]) - Math.abs(Math.cos(phi / 2)))).toBeLessThan(1e-6);
    expect(Math.abs(Math.abs(q[3]) - Math.abs(Math.sin(phi / 2)))).toBeLessThan(1e-6);
    expect(Math.hypot(q[0], q[1], q[2], q[3])).toBeCloseTo(1, 14);
    const w = (r.frames.at(-1)!.velocities['body.pose'] as { angular: number[] }).angular;
    expect(w[2]).toBeCloseTo(alpha, 8);
  });
});

describe('refusals', () => {
  it('a moving part without mass is named, never NaN', () => {
    const doc = pendulum({ mass: 1, d: 500, inertia: 0, angle: 30, held: false });
    const massless = { ...doc, parts: { ...doc.parts, bar: { ...doc.parts.bar, mass: undefined } } };
    expect(() => simulate(massless as typeof doc, { duration: 0.1, step: 0.01 })).toThrow(/bar \(no mass\)/);
  });
});

describe('events', () => {
  it('a coordinate passing its limit is a limit event (limits are reported, not enforced, in a run)', () => {
    const doc = oscillator({ m: 1, k: 10, x0: 5, v0: 2000 });
    const limited = { ...doc, mates: { rail: { ...doc.mates.rail, limits: { slide: [-10, 10] } } } } as unknown as typeof doc;
    const r = simulate(limited, { duration: 0.02, step: 0.0005 });
    expect(r.events.filter((e) => e.type === 'limit').map((e) => e.element)).toEqual(['rail.slide']);
    const e = r.events[0];
    const at = r.frames.find((f) => Math.abs(f.t - e.t) < 1e-12)!;
    expect(at.state['rail.slide'] as number).toBeGreaterThan(10);
  });
});
