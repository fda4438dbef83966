/** The statics, equilibrium and modes commands end to end. */
import { describe, expect, it } from 'vitest';
import { kinemate } from '../cli/helpers';

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
    const run = await kinemate(['statics', 'examples/quarter-car.kinemate.json']);
    expect(run.code).toBe(2);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('not_in_equilibrium');
    expect(Object.keys(out.unbalanced).length).toBeGreaterThan(0);
  });
});

describe('kinemate equilibrium', () => {
  it('settles the quarter car: exit 0, the spring carries the sprung weight', async () => {
    const run = await kinemate(['equilibrium', 'examples/quarter-car.kinemate.json']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('solved');
    expect(out.forces.spring.tension).toBeCloseTo(-0.25 * 9806.65, 6);
    expect(out.residualForce).toEqual({});
  });
});

describe('kinemate modes', () => {
  it('prints the quarter car\'s body and wheel-hop frequencies, lowest first', async () => {
    const run = await kinemate(['modes', 'examples/quarter-car.kinemate.json']);
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
      const run = await kinemate(['equilibrium', file]);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      for (const link of ['upper_front', 'upper_rear', 'trackrod']) expect(Number.isFinite(out.reactions[link].tension)).toBe(true);
      expect(out.forces.spring.tension).toBeLessThan(0);
    }
  });
});
