/**
 * The statics, equilibrium, modes and simulate commands end to end: the first as a real process, the
 * rest by the command's `main` in the test process (the same code, without a process start each).
 */
import { describe, expect, it } from 'vitest';
import { kinemate, runMain } from '../cli/helpers';

describe('kinemate statics', () => {
  it('prints the crank torque holding the slider load, exit 0', async () => {
    const run = await kinemate(['statics', 'examples/slider-crank-load.kinemate.json', '--set', 'jA.angle=90']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('solved');
    // at 90° the slider moves −r per radian of crank: torque = −F·dx/dθ = −(−500)(−100)
    expect(out.drivers['jA.angle']).toBeCloseTo(-50000, 6);
    expect(Object.keys(out.reactions).sort()).toEqual(['jA', 'jB', 'jC', 'jS']);
  });
  it('exits 2 with the unbalanced forces when the pose is not in equilibrium', async () => {
    const run = await runMain(['statics', 'examples/quarter-car.kinemate.json']);
    expect(run.code).toBe(2);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('not_in_equilibrium');
    expect(Object.keys(out.unbalanced).length).toBeGreaterThan(0);
  });
});

describe('kinemate equilibrium', () => {
  it('settles the quarter car: exit 0, the spring carries the sprung weight', async () => {
    const run = await runMain(['equilibrium', 'examples/quarter-car.kinemate.json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('solved');
    expect(out.forces.spring.tension).toBeCloseTo(-0.25 * 9806.65, 6);
    expect(out.residualForce).toEqual({});
  });
});

describe('kinemate modes', () => {
  it('prints the quarter car\'s body and wheel-hop frequencies, lowest first', async () => {
    const run = await runMain(['modes', 'examples/quarter-car.kinemate.json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.modes).toHaveLength(2);
    expect(out.modes[0].frequency).toBeGreaterThan(1);
    expect(out.modes[0].frequency).toBeLessThan(1.3);
    expect(out.modes[1].frequency).toBeGreaterThan(11);
    expect(out.modes[1].frequency).toBeLessThan(12.5);
  });
});

describe('the double wishbone load-case examples', () => {
  it('settle and report every link\'s axial force', async () => {
    for (const file of ['examples/dw-corner-braking.kinemate.json', 'examples/dw-corner-cornering.kinemate.json']) {
      const run = await runMain(['equilibrium', file]);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      for (const link of ['upper_front', 'upper_rear', 'trackrod']) expect(Number.isFinite(out.reactions[link].tension)).toBe(true);
      expect(out.forces.spring.tension).toBeLessThan(0);
    }
  });
});

describe('kinemate simulate', () => {
  it('prints frames every K steps and the last, with the energy budget in J', async () => {
    const run = await runMain(['simulate', 'examples/pendulum.kinemate.json', '--duration', '0.1', '--step', '0.001', '--every', '25', '--rho-inf', '1']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('completed');
    expect(out.method).toBe('generalized-alpha');
    expect(out.rho_inf).toBe(1);
    expect(out.frames.map((f: { t: number }) => Math.round(f.t * 1000))).toEqual([0, 25, 50, 75, 100]);
    const f = out.frames.at(-1);
    expect(Object.keys(f).sort()).toEqual(['drivers', 'energy', 'forces', 'reactions', 'residual', 'state', 't', 'velocities']);
    expect(Object.keys(f.energy).sort()).toEqual(['dissipated', 'elastic', 'external', 'kinetic', 'potential', 'total']);
    // 1 kg falling from the horizontal: kinetic = −Δpotential (J)
    expect(f.energy.kinetic).toBeCloseTo(out.frames[0].energy.potential - f.energy.potential, 6);
  });
  it('writes CSV with --format csv: a header of t, coordinates, energy and the residual', async () => {
    const run = await runMain(['simulate', 'examples/quarter-car-bump.kinemate.json', '--duration', '0.01', '--step', '0.005', '--method', 'backward-euler', '--format', 'csv']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(4); // the header and t = 0, 0.005, 0.01
    const header = lines[0].split(',');
    expect(header[0]).toBe('t');
    expect(header).toContain('bodyGuide.slide');
    expect(header).toContain('energy.total');
    expect(header).toContain('driver.bump');
    expect(header.at(-1)).toBe('residual');
  });
  it('refuses a missing step, a bad method and ρ∞ outside [0, 1] (exit 1)', async () => {
    for (const args of [['--duration', '1'], ['--duration', '1', '--step', '0.01', '--method', 'rk4'], ['--duration', '1', '--step', '0.01', '--rho-inf', '1.5']]) {
      const run = await runMain(['simulate', 'examples/pendulum.kinemate.json', ...args]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/simulate/);
    }
  });
});
