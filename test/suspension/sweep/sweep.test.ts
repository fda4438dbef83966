import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseGeometry, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly, serializeAssembly, parseAssembly } from '../../../src/assembly';
import { SuspensionModel, type MetricValues } from '../../../src/suspension/build/model';
import { runSweep, sweepDrivers } from '../../../src/suspension/sweep/sweep';
import { handBuiltDoubleWishbone } from '../handbuilt';

const geometry = (name: string): Geometry => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));
const model = (name: string) => new SuspensionModel(validateAssembly(suspensionAssembly(geometry(name))));
const corner = (m: unknown) => m as MetricValues;

describe('double wishbone at design', () => {
  it('has the published camber, caster and toe', () => {
    const e = model('double_wishbone').evaluate();
    const m = corner(e.metrics);
    expect(m.camber).toBeCloseTo(-1.909, 3);
    expect(m.caster).toBeCloseTo(4.764, 3);
    expect(Math.abs(m.toe_angle!)).toBeLessThan(1e-3);
  });

  it('generates an assembly that saves, reloads and solves like any other', () => {
    const doc = validateAssembly(suspensionAssembly(geometry('double_wishbone')));
    const again = parseAssembly(serializeAssembly(doc));
    expect(again).toEqual(doc);
  });
});

describe('a double wishbone assembled by hand', () => {
  it('gives the same positions and metrics as the template through bump and steer, to 1e-9', () => {
    const template = model('double_wishbone');
    const hand = new SuspensionModel(validateAssembly(handBuiltDoubleWishbone()));
    for (const [kind, range] of [['bump', '-60:60:13'], ['steer', '-40:40:9']] as const) {
      const spec = sweepFromShortcut(kind, range);
      const a = runSweep(template, spec), b = runSweep(hand, spec);
      expect(a.steps.every((s) => s.status === 'solved')).toBe(true);
      for (let i = 0; i < a.steps.length; i++) {
        const ma = corner(a.steps[i].metrics), mb = corner(b.steps[i].metrics);
        for (const [k, v] of Object.entries(ma)) {
          if (v === null) { expect(mb[k]).toBeNull(); continue; }
          expect(Math.abs((mb[k] as number) - v), `${kind}[${i}] ${k}`).toBeLessThan(1e-9 * Math.max(1, Math.abs(v)));
        }
        for (const name of ['lower_wishbone_outboard', 'upper_wishbone_outboard', 'trackrod_outboard', 'wheel_center', 'wheel_contact_centre']) {
          const pa = a.steps[i].positions![name], pb = b.steps[i].positions![name];
          for (let j = 0; j < 3; j++) expect(Math.abs(pa[j] - pb[j])).toBeLessThan(1e-9 * 1000);
        }
      }
    }
  });
});

describe('derivative metrics', () => {
  /** Central differences of re-solved states (the test's independent route; never in the product). */
  function checkDerivatives(sm: SuspensionModel, steered: boolean) {
    const e0 = corner((sm.evaluate().metrics as { left?: MetricValues }).left ?? sm.evaluate().metrics);
    const saved = sm.model.system.snapshot();
    const c = sm.corners[0];
    const zBlock = c.wheelCenterZ;
    const z0 = sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }])[2];
    const rack0 = steered ? sm.model.system.getScalar(sm.steering) : 0;
    const others = sm.corners.slice(1).map((o) => { const b = o.wheelCenterZ; b.target = sm.pointValue([{ variable: o.upright, local: o.wheelCenterLocal, weight: 1 }])[2]; return b; });
    const at = (dz: number, dr: number) => {
      sm.model.system.restore(saved);
      zBlock.target = z0 + dz;
      const drivers: import("../../../kernel/system").ResidualBlock[] = [zBlock, ...others];
      if (steered) { sm.rackHold!.target = rack0 + dr; drivers.push(sm.rackHold!); }
      const r = sm.solveWith(drivers);
      expect(r.converged).toBe(true);
      const m = sm.evaluate().metrics as MetricValues & { left?: MetricValues };
      return corner(m.left ?? m);
    };
    const h = 1e-3;
    const zp = at(h, 0), zm = at(-h, 0);
    let checked = 0;
    for (const name of ['camber', 'toe_angle', 'steer_angle', 'caster', 'kpi', 'half_track', 'damper_length', 'rocker_angle']) {
      const d = e0[`deriv_${name}_wrt_hub_z`];
      if (d === undefined || d === null) continue;
      const fd = ((zp[name] as number) - (zm[name] as number)) / (2 * h);
      expect(Math.abs(d - fd), `d ${name}/d hub_z: ${d} vs ${fd}`).toBeLessThanOrEqual(1e-5 * Math.max(Math.abs(fd), 1e-3));
      checked++;
    }
    const wcx = (zp.wheel_center_x ?? null);
    void wcx;
    if (steered) {
      const rp = at(0, h), rm = at(0, -h);
      for (const name of ['toe_angle', 'steer_angle', 'camber']) {
        const d = e0[`deriv_${name}_wrt_rack_displacement`] as number;
        const fd = ((rp[name] as number) - (rm[name] as number)) / (2 * h);
        expect(Math.abs(d - fd), `d ${name}/d rack`).toBeLessThanOrEqual(1e-5 * Math.max(Math.abs(fd), 1e-3));
        checked++;
      }
    }
    sm.model.system.restore(saved);
    return checked;
  }

  for (const name of ['double_wishbone', 'double_wishbone_pushrod', 'macpherson', 'multi_link', 'trailing_arm', 'double_wishbone_axle']) {
    it(`agree with central differences of re-solved states: ${name}`, () => {
      const sm = model(name);
      // away from design too: a bump and steer state
      const spec = sweepFromShortcut('bump', '25:25:1');
      runSweep(sm, spec);
      const checked = checkDerivatives(sm, sm.rackHold !== null);
      expect(checked).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('signs (ISO 8855)', () => {
  it('rack toward +y toes the left wheel out and turns it left; camber negative when the top leans in', () => {
    const sm = model('double_wishbone');
    const run = runSweep(sm, sweepFromShortcut('steer', '0:10:2'));
    const m = corner(run.steps[1].metrics);
    expect(m.toe_angle!).toBeLessThan(0);
    expect(m.steer_angle!).toBeGreaterThan(0);
    expect(corner(run.steps[0].metrics).camber!).toBeLessThan(0); // this corner's top leans in at design
  });
  it('toe-in is positive on both sides of an axle (mirror)', () => {
    const sm = model('double_wishbone_axle');
    const run = runSweep(sm, sweepFromShortcut('bump', '40:40:1'));
    const m = run.steps[0].metrics as { left: MetricValues; right: MetricValues };
    expect(m.left.toe_angle).toBeCloseTo(m.right.toe_angle as number, 10);
    expect(m.left.camber).toBeCloseTo(m.right.camber as number, 10);
    expect(m.left.steer_angle).toBeCloseTo(-(m.right.steer_angle as number), 10);
  });
});

describe('sweeps past the reach of the linkage', () => {
  it('report failed steps with the mates that do not hold, never NaN, and go on', () => {
    const sm = model('double_wishbone');
    const run = runSweep(sm, sweepFromShortcut('bump', '-100:700:9'));
    const failed = run.steps.filter((s) => s.status === 'failed');
    const solved = run.steps.filter((s) => s.status === 'solved');
    expect(failed.length).toBeGreaterThan(0);
    expect(solved.length).toBeGreaterThan(0);
    for (const s of failed) {
      expect(s.metrics).toBeNull();
      expect(s.failed!.length).toBeGreaterThan(0);
    }
    for (const s of solved) for (const v of Object.values(corner(s.metrics))) if (v !== null) expect(Number.isFinite(v)).toBe(true);
  });

  it('builds one driver per corner for a bump on an axle and a rack driver held', () => {
    const sm = model('double_wishbone_axle');
    const drivers = sweepDrivers(sm, sweepFromShortcut('bump', '-10:10:3'));
    expect(drivers.map((d) => d.name).sort()).toEqual(['left_wheel_center_z', 'rack_displacement', 'right_wheel_center_z']);
  });
});
