/**
 * The Magic Formula against the equations written out by hand (straight-line code here, not
 * the product's), against the published curve shapes (peak, cornering stiffness BCD, the
 * aligning moment's sign, the pull at zero slip from the offsets), combined slip, and its
 * exact derivatives against central differences.
 */
import { describe, expect, it } from 'vitest';
import { Dual, dSeed } from '../../../kernel/dual';
import { DualTape, Forward4, LinearTyre, MirroredTyre, linearTyre, steadyForces, type TyreForceDuals } from '../../../mates/tyres';
import { SAMPLE, coefficients, sampleTyre, withKey } from './sample';

const DEG = Math.PI / 180;
const p = coefficients();
const tyre = sampleTyre();

/** Pure lateral force at camber 0 (4.E19–4.E29), scaling factors 1, by hand. */
function fy0(alpha: number, fz: number): number {
  const fz0 = p.FNOMIN, dfz = (fz - fz0) / fz0;
  const kya = p.PKY1 * fz0 * Math.sin(p.PKY4 * Math.atan(fz / (p.PKY2 * fz0)));
  const shy = p.PHY1 + p.PHY2 * dfz;
  const svy = fz * (p.PVY1 + p.PVY2 * dfz);
  const x = alpha + shy;
  const dy = (p.PDY1 + p.PDY2 * dfz) * fz;
  const ey = (p.PEY1 + p.PEY2 * dfz) * (1 - p.PEY3 * Math.sign(x));
  const by = kya / (p.PCY1 * dy);
  return dy * Math.sin(p.PCY1 * Math.atan(by * x - ey * (by * x - Math.atan(by * x)))) + svy;
}

/** Pure longitudinal force at camber 0 (4.E9–4.E18), by hand. */
function fx0(kappa: number, fz: number): number {
  const fz0 = p.FNOMIN, dfz = (fz - fz0) / fz0;
  const dx = (p.PDX1 + p.PDX2 * dfz) * fz;
  const kxk = fz * (p.PKX1 + p.PKX2 * dfz) * Math.exp(p.PKX3 * dfz);
  const x = kappa + p.PHX1 + p.PHX2 * dfz;
  const ex = (p.PEX1 + p.PEX2 * dfz + p.PEX3 * dfz * dfz) * (1 - p.PEX4 * Math.sign(x));
  const bx = kxk / (p.PCX1 * dx);
  return dx * Math.sin(p.PCX1 * Math.atan(bx * x - ex * (bx * x - Math.atan(bx * x)))) + fz * (p.PVX1 + p.PVX2 * dfz);
}

/** Aligning moment at slip ratio 0, camber 0 (4.E31–4.E49 with s·Fx, 4.E71), N·m, by hand. */
function mz(alpha: number, fz: number): number {
  const fz0 = p.FNOMIN, dfz = (fz - fz0) / fz0, r0 = p.UNLOADED_RADIUS;
  const kya = p.PKY1 * fz0 * Math.sin(p.PKY4 * Math.atan(fz / (p.PKY2 * fz0)));
  const shy = p.PHY1 + p.PHY2 * dfz, svy = fz * (p.PVY1 + p.PVY2 * dfz);
  const dy = (p.PDY1 + p.PDY2 * dfz) * fz, by = kya / (p.PCY1 * dy);
  const at = alpha + p.QHZ1 + p.QHZ2 * dfz;
  const bt = p.QBZ1 + p.QBZ2 * dfz + p.QBZ3 * dfz * dfz;
  const dt = (p.QDZ1 + p.QDZ2 * dfz) * fz * (r0 / fz0);
  const et = (p.QEZ1 + p.QEZ2 * dfz + p.QEZ3 * dfz * dfz) * (1 + p.QEZ4 * (2 / Math.PI) * Math.atan(bt * p.QCZ1 * at));
  const trail = dt * Math.cos(p.QCZ1 * Math.atan(bt * at - et * (bt * at - Math.atan(bt * at)))) * Math.cos(alpha);
  const ar = alpha + shy + svy / kya;
  const br = p.QBZ9 + p.QBZ10 * by * p.PCY1;
  const dr = fz * r0 * (p.QDZ6 + p.QDZ7 * dfz) * Math.cos(alpha);
  const mzr = dr * Math.cos(Math.atan(br * ar));
  // Fx at κ = 0 under slip angle α: Fx0(0)·Gxα (REX1 = REX2 = 0)
  const bxa = p.RBX1, gxa = (x: number) => Math.cos(p.RCX1 * Math.atan(bxa * x));
  const fx = fx0(0, fz) * gxa(alpha + p.RHX1) / gxa(p.RHX1);
  const s = r0 * (p.SSZ1 + p.SSZ2 * (fy0(alpha, fz) / fz0));
  return -trail * fy0(alpha, fz) + mzr + s * fx;
}

describe('Magic Formula 6.1 against the equations written out by hand', () => {
  it('pure lateral force, pure longitudinal force and aligning moment at several slips and loads', () => {
    for (const fz of [2500, 4000, 6500]) {
      for (const a of [-8, -1.5, 0, 2, 6, 12]) {
        const f = steadyForces(tyre, a * DEG, 0, fz, 0);
        // the product's ε-guards (1e-6 N in B's denominators) are the only difference
        expect(Math.abs(f.fy - fy0(a * DEG, fz))).toBeLessThan(1e-9 * Math.abs(f.fy) + 1e-6);
        expect(Math.abs(f.mz / 1000 - mz(a * DEG, fz))).toBeLessThan(1e-9 * Math.abs(f.mz / 1000) + 1e-6);
      }
      for (const k of [-0.15, -0.02, 0.03, 0.1, 0.4]) {
        const fx = steadyForces(tyre, 0, k, fz, 0).fx;
        expect(Math.abs(fx - fx0(k, fz))).toBeLessThan(1e-9 * Math.abs(fx) + 1e-6);
      }
    }
  });
});

describe('published curve shapes (Pacejka Table A3.1 tyre)', () => {
  const fz = 4000;
  it('peak side force: |Dy| about the vertical shift SVy, at the slip angle where C·atan(…) = π/2', () => {
    let min = Infinity, at = 0;
    for (let a = 0; a <= 30; a += 0.005) { const y = steadyForces(tyre, a * DEG, 0, fz, 0).fy; if (y < min) { min = y; at = a; } }
    const dy = Math.abs(p.PDY1 * fz), svy = fz * p.PVY1;
    expect(min).toBeCloseTo(svy - dy, 1);
    // the peak's slip angle: x with atan(Bx − E(Bx − atan Bx)) = π/(2C), found by bisection on the hand formula
    const kya = p.PKY1 * fz * Math.sin(2 * Math.atan(1 / p.PKY2)), by = kya / (p.PCY1 * p.PDY1 * fz), ey = p.PEY1 * (1 - p.PEY3);
    let lo = 0, hi = 1;
    for (let i = 0; i < 60; i++) { const x = (lo + hi) / 2; const bx = by * x; const g = bx - ey * (bx - Math.atan(bx)); if (Math.atan(g) < Math.PI / (2 * p.PCY1)) lo = x; else hi = x; }
    expect(at * DEG).toBeCloseTo(lo - p.PHY1, 3);
    expect(at).toBeGreaterThan(8);
    expect(at).toBeLessThan(20);
  });

  it('cornering stiffness at the zero of the sine term equals B·C·D = Kyα = PKY1·Fz0·sin(2 atan(Fz/(PKY2·Fz0)))', () => {
    for (const load of [3000, 4000, 5000]) {
      const dfz = (load - 4000) / 4000;
      const kya = p.PKY1 * 4000 * Math.sin(2 * Math.atan(load / (p.PKY2 * 4000)));
      const a0 = -(p.PHY1 + p.PHY2 * dfz), h = 1e-6;
      const slope = (steadyForces(tyre, a0 + h, 0, load, 0).fy - steadyForces(tyre, a0 - h, 0, load, 0).fy) / (2 * h);
      expect(slope / kya).toBeCloseTo(1, 5);
      expect(kya).toBeLessThan(0); // ISO-W: a positive slip angle gives a negative side force
    }
    expect(steadyForces(tyre, 2 * DEG, 0, fz, 0).fy).toBeLessThan(0);
    expect(steadyForces(tyre, 0, 0.05, fz, 0).fx).toBeGreaterThan(0);
    expect(steadyForces(tyre, 0, -0.05, fz, 0).fx).toBeLessThan(0);
  });

  it('the aligning moment is positive (aligning) at small positive slip angles and falls after the side force has saturated', () => {
    for (const a of [1, 2, 4, 6]) expect(steadyForces(tyre, a * DEG, 0, fz, 0).mz).toBeGreaterThan(0);
    for (const a of [-1, -2, -4, -6]) expect(steadyForces(tyre, a * DEG, 0, fz, 0).mz).toBeLessThan(0);
    const m = (a: number) => steadyForces(tyre, a * DEG, 0, fz, 0).mz;
    expect(m(15)).toBeLessThan(0.5 * m(4));
  });

  it('a real tyre pulls at zero slip from its offsets; with SHy, SVy, SHx, SVx zeroed it does not', () => {
    const pull = steadyForces(tyre, 0, 0, fz, 0);
    expect(Math.abs(pull.fy)).toBeGreaterThan(10);
    expect(Math.abs(pull.fx)).toBeGreaterThan(10);
    let text = SAMPLE;
    for (const key of ['PHY1', 'PHY2', 'PVY1', 'PVY2', 'PHX1', 'PHX2', 'PVX1', 'PVX2']) text = withKey(key, 0, text);
    const none = steadyForces(sampleTyre(text), 0, 0, fz, 0);
    expect(none.fy).toBe(0);
    expect(none.fx).toBe(0);
  });

  it('camber thrust: a positive camber (top to the right, ISO-W) pushes to the right at zero slip', () => {
    expect(steadyForces(tyre, 0, 0, fz, 3 * DEG).fy).toBeLessThan(steadyForces(tyre, 0, 0, fz, 0).fy - 50);
  });
});

describe('combined slip', () => {
  it('|Fy| falls as the slip ratio grows, driving or braking (the weighting Gyκ), and |Fx| falls as the slip angle grows', () => {
    // without the κ-induced side force SVyκ (RVY1..3 = 0) the fall is strict from κ = 0
    let text = SAMPLE;
    for (const key of ['RVY1', 'RVY2', 'RVY3']) text = withKey(key, 0, text);
    const weighted = sampleTyre(text);
    for (const sign of [1, -1]) {
      let last = Infinity;
      for (let k = 0; k <= 0.3; k += 0.02) {
        const fy = Math.abs(steadyForces(weighted, 4 * DEG, sign * k, 4000, 0).fy);
        expect(fy).toBeLessThan(last);
        last = fy;
      }
      // with it (the file as published) the side force still falls well below its pure-slip value
      const pure = Math.abs(steadyForces(tyre, 4 * DEG, 0, 4000, 0).fy);
      expect(Math.abs(steadyForces(tyre, 4 * DEG, sign * 0.3, 4000, 0).fy)).toBeLessThan(0.7 * pure);
    }
    let last = Infinity;
    for (let a = 0; a <= 12; a += 1) {
      const fx = Math.abs(steadyForces(tyre, a * DEG, 0.1, 4000, 0).fx);
      expect(fx).toBeLessThan(last);
      last = fx;
    }
  });
});

describe('exact derivatives', () => {
  it('∂(fx, fy, mz)/∂(α, κ, Fz, γ) by the dual tape equal central differences', () => {
    const t = new DualTape(4);
    const out: TyreForceDuals = { fx: new Dual(4), fy: new Dual(4), mz: new Dual(4) };
    const points = [[3, 0.04, 3500, 1], [-7, -0.12, 5200, -2], [0.5, 0.01, 4000, 0.5], [12, 0.3, 2000, 3]];
    for (const [a, k, fz, g] of points) {
      t.reset();
      const x = [a * DEG, k, fz, g * DEG];
      const seeded = x.map((v, i) => dSeed(new Dual(4), v, i));
      tyre.forces(t, seeded[0], seeded[1], seeded[2], seeded[3], out);
      const got = [out.fx, out.fy, out.mz];
      for (let i = 0; i < 4; i++) {
        const h = [1e-6, 1e-6, 1e-2, 1e-6][i];
        const up = [...x], down = [...x];
        up[i] += h; down[i] -= h;
        const fu = steadyForces(tyre, up[0], up[1], up[2], up[3]), fd = steadyForces(tyre, down[0], down[1], down[2], down[3]);
        const fd3 = [(fu.fx - fd.fx) / (2 * h), (fu.fy - fd.fy) / (2 * h), (fu.mz - fd.mz) / (2 * h)];
        for (let j = 0; j < 3; j++) {
          const scale = Math.max(1, Math.abs(fd3[j]));
          expect(Math.abs(got[j].d[i] - fd3[j]) / scale).toBeLessThan(2e-5);
        }
      }
    }
  });

  it('the register-file route (Forward4) gives the dual tape\'s values and derivatives', () => {
    const t = new DualTape(4), f4 = new Forward4();
    for (const [a, k, fz, g] of [[3, 0.04, 3500, 1], [-7, -0.12, 5200, -2], [12, 0.3, 2000, 3]]) {
      const x = [a * DEG, k, fz, g * DEG];
      const seeded = x.map((v, i) => dSeed(new Dual(4), v, i));
      const duals = tyre.forces(t.reset(), seeded[0], seeded[1], seeded[2], seeded[3], { fx: new Dual(4), fy: new Dual(4), mz: new Dual(4) });
      f4.reset();
      const regs = tyre.forces(f4, f4.seed(x[0], 0), f4.seed(x[1], 1), f4.seed(x[2], 2), f4.seed(x[3], 3), { fx: 0, fy: 0, mz: 0 });
      for (const key of ['fx', 'fy', 'mz'] as const) {
        expect(f4.val(regs[key])).toBeCloseTo(duals[key].v, 9);
        for (let i = 0; i < 4; i++) expect(f4.deriv(regs[key], i)).toBeCloseTo(duals[key].d[i], 6);
      }
    }
  });
});

describe('the linear tyre and a mirrored tyre', () => {
  it('linear: fy = −Cα α, fx = Cκ κ, nothing without load; the vehicle file units converted', () => {
    const lin = linearTyre({ stiffness: 250, cornering_stiffness: 1200, longitudinal_stiffness: 1500, radius: 300 });
    expect(lin).toBeInstanceOf(LinearTyre);
    expect(steadyForces(lin, 1 * DEG, 0, 4000, 0).fy).toBeCloseTo(-1200, 9);
    expect(steadyForces(lin, 0, 0.01, 4000, 0).fx).toBeCloseTo(1500, 9);
    expect(steadyForces(lin, 1 * DEG, 0.01, 0, 0)).toEqual({ fx: 0, fy: 0, mz: 0 });
    expect(lin.verticalStiffness).toBe(250);
  });
  it('mirrored: fy(α, γ) = −fy(−α, −γ), mz likewise, fx unchanged in κ', () => {
    const m = new MirroredTyre(tyre);
    const a = steadyForces(m, 3 * DEG, 0.05, 4200, 1 * DEG), b = steadyForces(tyre, -3 * DEG, 0.05, 4200, -1 * DEG);
    expect(a.fy).toBeCloseTo(-b.fy, 9);
    expect(a.mz).toBeCloseTo(-b.mz, 9);
    expect(a.fx).toBeCloseTo(b.fx, 9);
  });
});
