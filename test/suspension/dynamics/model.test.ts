/**
 * Suspension dynamics from a geometry file: static sag and quarter-car frequencies against
 * closed forms whose rates come from a kinematic sweep (an independent route: no dynamics),
 * the exact tyre load with a sprung mass, the run settling on equilibrium(), the energy
 * budget, the hand-built double wishbone corner, the command line and the refusals.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load';
import { simulate } from '../../../src/mechanics/simulate';
import { modes } from '../../../src/mechanics/modes';
import { statics } from '../../../src/mechanics/statics';
import {
  prepareSuspensionDynamics, readSuspensionDynamics, simulateSuspension, type SuspensionDynamicsModel,
} from '../../../src/suspension/dynamics/model';
import { parseText } from '../../../src/suspension/files/read';
import { sweepFromShortcut, validateGeometry, type Geometry } from '../../../src/suspension/files';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { kinemate, runMain } from '../../cli/helpers';

const EXAMPLE = 'examples/suspension/double_wishbone_dynamics.yaml';
const g = 9806.65; // mm/s²

/** The example geometry with its spring and dynamics section replaced. */
function corner(spring: Record<string, unknown>, dynamics: Record<string, unknown>): { geometry: Geometry; model: () => SuspensionDynamicsModel } {
  const raw = parseText(readFileSync(EXAMPLE, 'utf8')) as Record<string, unknown>;
  raw.spring = { type: 'coilover', ...spring };
  raw.dynamics = dynamics;
  const geometry = validateGeometry(raw);
  return { geometry, model: () => prepareSuspensionDynamics(geometry, readSuspensionDynamics(raw.dynamics, geometry)) };
}

/**
 * Kinematic rates at wheel travel u (mm from design) by central differences of a bump sweep:
 * spring length l (the damper length) and contact-centre height z_c against u, first and second
 * derivatives, and the wheel centre's whole velocity |dWC/du|².
 */
function kinematicRates(geometry: Geometry, u: number, h = 0.1) {
  const sm = new SuspensionModel(suspensionAssembly(geometry));
  const run = runSweep(sm, sweepFromShortcut('bump', `${u - h}:${u + h}:3`, geometry));
  const steps = run.steps;
  expect(steps.every((s) => s.status === 'solved')).toBe(true);
  const l = steps.map((s) => (s.metrics as Record<string, number>).damper_length);
  const zc = steps.map((s) => s.positions!.wheel_contact_centre[2]);
  const wc = steps.map((s) => s.positions!.wheel_center);
  const d1 = (y: number[]) => (y[2] - y[0]) / (2 * h), d2 = (y: number[]) => (y[2] - 2 * y[1] + y[0]) / (h * h);
  const dwc = [0, 1, 2].map((i) => (wc[2][i] - wc[0][i]) / (2 * h));
  return { dl: d1(l), ddl: d2(l), dzc: d1(zc), ddzc: d2(zc), wc2: dwc[0] ** 2 + dwc[1] ** 2 + dwc[2] ** 2 };
}

describe('static sag', () => {
  it('fixed chassis: the wheel settles by m g / (k_s (dl/dz)² + k_t (dz_c/dz)²), rates from a kinematic sweep; statics() finds it balanced', () => {
    const m = 20, ks = 60, kt = 250;
    const c = corner({ rate: ks, damping: 3 }, { masses: { wheel: { mass: m, inertia: [0, 0, 0] } }, tyre: { stiffness: kt } });
    const model = c.model();
    expect(model.equilibrium!.status).toBe('solved');
    const first = simulateSuspension(model, { duration: 0.001, step: 0.001 }).frames[0].suspension.corners.left;
    const r = kinematicRates(c.geometry, 0);
    // all the mass at the wheel centre: gravity's force along the travel is m g exactly
    const sag = (m * g) / 1000 / (ks * r.dl ** 2 + kt * r.dzc ** 2);
    expect(Math.abs(-first.wheel_travel - sag) / sag).toBeLessThan(2e-3);
    // the tyre carries what the spring does not: its force is k_t times its compression
    expect(first.tyre_force).toBeCloseTo(kt * first.tyre_penetration, 9);
    const st = statics(model.dyn, { set: { 'road_slide.slide': 0 } });
    expect(Object.keys(st.unbalanced)).toEqual([]);
    expect(() => simulateSuspension(model, { duration: 0.001, step: 0.001 })).toThrow(/has run already/);
  });

  it('sprung mass: the tyre carries the whole weight exactly (compression W / k_t), the chassis heaves by it and the spring\'s share', () => {
    const ms = 100, m = 20, kt = 250;
    const c = corner({ rate: 200, damping: 5 }, { masses: { wheel: { mass: m } }, sprung_mass: ms, tyre: { stiffness: kt } });
    const model = c.model();
    const f = simulateSuspension(model, { duration: 0.001, step: 0.001 }).frames[0].suspension;
    const W = ((ms + m) * g) / 1000;
    // exact but for equilibrium()'s balance tolerance (1e-6 of the load scale)
    expect(Math.abs(f.corners.left.tyre_force - W) / W).toBeLessThan(1e-6);
    expect(Math.abs(f.corners.left.tyre_penetration - W / kt) / (W / kt)).toBeLessThan(1e-6);
    // the chassis sits lower than the wheel by the spring's compression (travel relative to it is positive)
    expect(f.chassis_heave!).toBeLessThan(f.corners.left.wheel_travel);
    expect(f.corners.left.suspension_travel).toBeCloseTo(f.corners.left.wheel_travel - f.chassis_heave!, 12);
  });
});

describe('a run', () => {
  it('released at design, the corner settles where equilibrium() puts it', () => {
    const c = corner({ rate: 60, damping: 3 }, { masses: { upright: 15, lower_wishbone: 3, wheel: 12 }, links: { trackrod: 1 }, tyre: { stiffness: 250, damping: 0.2 }, start: 'design' });
    const fromDesign = simulateSuspension(c.model(), { duration: 1.5, step: 0.001, every: 500 });
    expect(fromDesign.status).toBe('completed');
    const settled = corner({ rate: 60, damping: 3 }, { masses: { upright: 15, lower_wishbone: 3, wheel: 12 }, links: { trackrod: 1 }, tyre: { stiffness: 250, damping: 0.2 } }).model();
    const eq = simulateSuspension(settled, { duration: 0.001, step: 0.001 }).frames[0].suspension.corners.left;
    const end = fromDesign.frames.at(-1)!.suspension.corners.left;
    expect(fromDesign.frames[0].suspension.corners.left.wheel_travel).toBeCloseTo(0, 9);
    expect(Math.abs(eq.wheel_travel)).toBeGreaterThan(0.3);
    expect(end.wheel_travel).toBeCloseTo(eq.wheel_travel, 5);
    expect(end.camber!).toBeCloseTo(eq.camber!, 7);
    expect(end.tyre_force).toBeCloseTo(eq.tyre_force, 3);
  });

  it('over the example\'s bump the budget closes to 1e-4 of the road\'s work, with the tyre leaving the road and landing', () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const geometry = validateGeometry(parseText(text));
    const spec = readSuspensionDynamics((geometry.raw as Record<string, unknown>).dynamics, geometry);
    const r = simulateSuspension(prepareSuspensionDynamics(geometry, spec), { duration: 0.6, step: 0.0005, every: 20, rhoInf: 1 });
    expect(r.status).toBe('completed');
    expect(r.events.map((e) => e.type)).toEqual(['lift_off', 'touch_down']);
    const roadWork = -r.energy_by_element.road;
    expect(roadWork).toBeGreaterThan(1);
    expect(Math.abs(r.numerical_dissipation)).toBeLessThan(1e-4 * roadWork);
    const peak = Math.max(...r.frames.map((f) => f.suspension.corners.left.wheel_travel));
    expect(peak).toBeGreaterThan(30); // the wheel follows the 40 mm bump, then flies
    for (const f of r.frames) expect(f.residual).toBeLessThan(1e-6);
  });

  it('dropped 10 mm onto the road: it lands (touch_down), and what gravity did is stored, dissipated or kinetic', () => {
    const c = corner({ rate: 60, damping: 3 }, { masses: { upright: 15, wheel: 12 }, tyre: { stiffness: 250 }, drop: 10 });
    const r = simulateSuspension(c.model(), { duration: 0.4, step: 0.0005, every: 10, rhoInf: 1 });
    expect(r.status).toBe('completed');
    expect(r.frames[0].suspension.corners.left.tyre_force).toBe(0);
    expect(r.frames[0].suspension.corners.left.road).toBeCloseTo(-10, 9);
    expect(r.events.map((e) => e.type)).toEqual(['touch_down', 'lift_off', 'touch_down']);
    const e0 = r.frames[0].energy, e1 = r.frames.at(-1)!.energy;
    const gravityWork = e0.potential - e1.potential;
    expect(gravityWork).toBeGreaterThan(0);
    const accounted = e1.kinetic - e0.kinetic + e1.elastic - e0.elastic + e1.dissipated - e0.dissipated;
    // the force's slope jumps at touch-down and lift-off: the error there is O(h) per event (7e-5 at 0.5 ms, 2e-5 at 0.25 ms)
    expect(Math.abs(accounted - gravityWork)).toBeLessThan(2e-4 * gravityWork);
  });
});

describe('an axle', () => {
  it('U-bar pushrod axle with a sprung mass: the tyres share the whole weight equally at rest; a left-only bump rolls the body, the bar and the links carry it, and the budget closes', () => {
    const raw = parseText(readFileSync('examples/suspension/double_wishbone_axle_u_bar_rates.yaml', 'utf8')) as Record<string, unknown>;
    raw.dynamics = { masses: { upright: 15, wheel: 12, lower_wishbone: 3 }, links: { pushrod: 0.5 }, sprung_mass: 150, tyre: { stiffness: 250 }, road: { left: { bump: { height: 20, duration: 0.1, start: 0.02 } } } };
    const geometry = validateGeometry(raw);
    const model = prepareSuspensionDynamics(geometry, readSuspensionDynamics(raw.dynamics, geometry));
    const r = simulateSuspension(model, { duration: 0.15, step: 0.0005, every: 10, rhoInf: 1 });
    expect(r.status).toBe('completed');
    const c0 = r.frames[0].suspension.corners;
    const W = ((150 + 2 * (15 + 12 + 3 + 0.5)) * g) / 1000;
    // equilibrium() balances to 1e-6 of the load scale
    expect(Math.abs(c0.left.tyre_force + c0.right.tyre_force - W) / W).toBeLessThan(1e-6);
    expect(Math.abs(c0.left.tyre_force - c0.right.tyre_force) / W).toBeLessThan(1e-6);
    expect(Object.keys(r.frames[0].suspension.links).sort()).toEqual(['left_droplink', 'left_pushrod', 'left_trackrod', 'right_droplink', 'right_pushrod', 'right_trackrod']);
    // the left wheel is pushed up, the right one follows only through the body and the bar
    const peak = r.frames.reduce((a, f) => (f.suspension.corners.left.wheel_travel > a.suspension.corners.left.wheel_travel ? f : a));
    expect(peak.suspension.corners.left.suspension_travel).toBeGreaterThan(peak.suspension.corners.right.suspension_travel + 5);
    expect(Math.abs(r.numerical_dissipation)).toBeLessThan(1e-4 * -r.energy_by_element.left_road);
  });
});

describe('quarter car', () => {
  it('the modes equal the two-mass closed form with the wheel rate, tyre rate and masses (rates and geometric terms from a kinematic sweep)', () => {
    const ms = 100, mu = 20, ks = 200, kt = 250;
    // preloaded so the sprung weight sits at design: the spring's force along the travel, −T dl/du, holds m_s g
    const pre = corner({ rate: ks }, { masses: { wheel: { mass: mu, inertia: [0, 0, 0] } }, sprung_mass: ms, tyre: { stiffness: kt } });
    const r0 = kinematicRates(pre.geometry, 0);
    const c = corner({ rate: ks, preload: (ms * g) / 1000 / r0.dl }, { masses: { wheel: { mass: mu, inertia: [0, 0, 0] } }, sprung_mass: ms, tyre: { stiffness: kt } });
    const model = c.model();
    const eqState = simulateSuspension(model, { duration: 0.001, step: 0.001 }).frames[0];
    const u = eqState.suspension.corners.left.suspension_travel;
    const T = eqState.suspension.elements.spring.tension, p = eqState.suspension.corners.left.tyre_penetration;
    expect(Math.abs(u)).toBeLessThan(5);
    const r = kinematicRates(c.geometry, u);
    // coordinates (z_s, u): u the wheel centre's height relative to the chassis; masses in t, stiffness in N/mm
    const Ms = ms / 1000, Mu = mu / 1000;
    const M = [[Ms + Mu, Mu], [Mu, Mu * r.wc2]];
    const K = [[kt, kt * r.dzc], [kt * r.dzc, ks * r.dl ** 2 + T * r.ddl + kt * r.dzc ** 2 - kt * p * r.ddzc]];
    // det(K − ω² M) = 0
    const a = M[0][0] * M[1][1] - M[0][1] ** 2;
    const b = -(K[0][0] * M[1][1] + K[1][1] * M[0][0] - 2 * K[0][1] * M[0][1]);
    const cc = K[0][0] * K[1][1] - K[0][1] ** 2;
    const disc = Math.sqrt(b * b - 4 * a * cc);
    const closed = [(-b - disc) / (2 * a), (-b + disc) / (2 * a)].map((w2) => Math.sqrt(w2) / (2 * Math.PI));
    // the modes command on the same model, the road held
    const road = model.dyn.model.coordinates.get('road_slide.slide')!.variable;
    model.dyn.system.hold(road, 0);
    const result = modes(model.dyn);
    expect(result.status).toBe('solved');
    const f = result.modes.map((mo) => mo.frequency);
    expect(f.length).toBe(2);
    expect(Math.abs(f[0] - closed[0]) / closed[0]).toBeLessThan(1e-3);
    expect(Math.abs(f[1] - closed[1]) / closed[1]).toBeLessThan(1e-3);
    // and the textbook estimates it refines: body √(k_ride/m_s), wheel hop √((k_w + k_t)/m_u), within 10 %
    const kw = ks * r.dl ** 2, ride = (kw * kt) / (kw + kt);
    expect(Math.abs(f[0] / (Math.sqrt(ride / Ms) / (2 * Math.PI)) - 1)).toBeLessThan(0.1);
    expect(Math.abs(f[1] / (Math.sqrt((kw + kt) / Mu) / (2 * Math.PI)) - 1)).toBeLessThan(0.1);
  });
});

describe('the hand-built double wishbone corner (examples/dw-corner-bump.kinemate.json)', () => {
  it('agrees while the tyre is on the road: the same masses, spring and bump, the tyre preloaded 8 mm at design as there', () => {
    const hand = parseAssembly(readFileSync('examples/dw-corner-bump.kinemate.json', 'utf8'));
    const table = (hand as unknown as { motions: { bump: { table: [number, number][] } } }).motions.bump.table;
    const raw = parseText(readFileSync(EXAMPLE, 'utf8')) as { dynamics: Record<string, unknown> };
    const geometry = validateGeometry(raw);
    // the hand-built tyre is a 308 mm spring 300 mm long: 8 mm in at design
    const spec = readSuspensionDynamics({ ...raw.dynamics, start: 'design', road: { table: table.map(([t, z]) => [t, z + 8]) } }, geometry);
    const options = { duration: 0.555, step: 0.0005, every: 10 };
    const a = simulate(hand, options), b = simulateSuspension(prepareSuspensionDynamics(geometry, spec), options);
    expect(b.events).toEqual([]);
    expect(b.frames.length).toBe(a.frames.length);
    const z = (f: { state: Record<string, unknown> }) => (f.state['upright.pose'] as { position: number[] }).position[2];
    let worst = 0;
    a.frames.forEach((fa, i) => {
      const fb = b.frames[i];
      worst = Math.max(worst, Math.abs(z(fa) - z(fb)));
      // the hand-built tyre's tension is minus our tyre's push
      expect(Math.abs(-(fa.forces.tyre as { tension: number }).tension - (fb.forces.tyre as { force: number }).force)).toBeLessThan(5);
    });
    // the tyres differ only in where they touch (a material point there, the rim's lowest point here): 0.02 mm over a 40 mm bump
    expect(worst).toBeLessThan(0.02);
    expect(Math.max(...b.frames.map(z))).toBeGreaterThan(40);
    // settled before the bump (0.5 s): spring tension to 0.1 N (there spring and damper are two elements)
    const ia = a.frames.findIndex((f) => Math.abs(f.t - 0.5) < 1e-9);
    expect((b.frames[ia].forces.spring as { tension: number }).tension).toBeCloseTo((a.frames[ia].forces.spring as { tension: number }).tension, 0);
  });
});

describe('kinemate simulate GEOMETRY.yaml', () => {
  it('runs the example: CSV with the suspension\'s columns; JSON frames with the suspension view', async () => {
    const csv = await kinemate(['simulate', EXAMPLE, '--duration', '0.02', '--step', '0.001', '--every', '10', '--format', 'csv']);
    expect(csv.stderr).toBe('');
    expect(csv.code).toBe(0);
    const [head, ...rows] = csv.stdout.trim().split('\n');
    const cols = head.split(',');
    for (const c of ['left.wheel_travel', 'left.camber', 'left.toe_angle', 'left.road', 'left.tyre_force', 'spring.travel', 'link.trackrod', 'energy.total']) expect(cols).toContain(c);
    expect(rows.length).toBe(3);
    for (const row of rows) expect(row.split(',').length).toBe(cols.length);
    const json = await runMain(['simulate', EXAMPLE, '--duration', '0.002', '--step', '0.001']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.start).toEqual({ from: 'equilibrium', drop: 0 });
    expect(Object.keys(out.frames[0].suspension)).toEqual(['corners', 'elements', 'links']);
  });

  it('refuses a geometry without a dynamics section, and names bad fields', async () => {
    const run = await runMain(['simulate', 'examples/suspension/double_wishbone.yaml', '--duration', '0.01', '--step', '0.001']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/dynamics.*missing/);
    const g2 = validateGeometry(parseText(readFileSync(EXAMPLE, 'utf8')));
    expect(() => readSuspensionDynamics({ tyre: { stiffness: -1 }, masses: { upright: { mass: 2, colour: 1 } }, road: { sine: { amplitude: 3 } }, spin: 1 }, g2))
      .toThrow(/dynamics.spin: unknown field[\s\S]*dynamics.masses.upright.colour[\s\S]*dynamics.tyre.stiffness: must be > 0[\s\S]*dynamics.road.sine.frequency/);
    const spec = readSuspensionDynamics({ tyre: { stiffness: 200 }, masses: { hub: 2 }, links: { pushrod: 1 } }, g2);
    expect(() => prepareSuspensionDynamics(g2, spec)).toThrow(/dynamics.masses.hub: no moving part "hub"[\s\S]*dynamics.links.pushrod: no two-force link "pushrod" \(links: trackrod\)/);
  });
});
