import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseGeometry, validateGeometry, sweepFromShortcut, SuspensionFileError, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel, type MetricValues } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import type { ResidualBlock } from '../../../kernel/system';
import { leverTransmission } from '../../../src/suspension/metrics/devices';

type Doc = Record<string, unknown>;
type AxleMetrics = { axle: MetricValues; left: MetricValues; right: MetricValues };
type V = [number, number, number];
const text = (name: string) => readFileSync(`examples/suspension/${name}.yaml`, 'utf8');
const geometry = (name: string): Geometry => parseGeometry(text(name));
const modelOf = (g: Geometry) => new SuspensionModel(validateAssembly(suspensionAssembly(g)));
const model = (name: string) => modelOf(geometry(name));
const raw = (name: string) => parse(text(name)) as Doc;
function edit(doc: Doc, path: string, value: unknown): Doc {
  const keys = path.split('.');
  const last = keys.pop()!;
  let node = doc;
  for (const k of keys) node = node[k] as Doc;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return doc;
}
function problemsOf(run: () => unknown): { path: string; message: string }[] {
  try { run(); } catch (e) {
    if (e instanceof SuspensionFileError) {
      // one problem a line, each starting with its path
      expect(e.message.split('\n')).toEqual(e.problems.map((p) => `${p.path}: ${p.message}`));
      return [...e.problems];
    }
    throw e;
  }
  throw new Error('expected a SuspensionFileError');
}

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const len = (a: V) => Math.hypot(...a);
const DEG = 180 / Math.PI;
/** The turn of p about A→B since p0, plain numbers, by the angle between the projected radii (an independent route). */
function turn(a: V, b: V, p: V, p0: V): number {
  const u = sub(b, a).map((x) => x / len(sub(b, a))) as V;
  const proj = (r: V): V => sub(r, u.map((x) => x * dot(r, u)) as V);
  const r = proj(sub(p, a)), r0 = proj(sub(p0, a));
  const unsigned = Math.acos(Math.max(-1, Math.min(1, dot(r, r0) / (len(r) * len(r0)))));
  return Math.sign(dot(u, cross(r0, r))) * unsigned * DEG;
}

/** Re-solve with one hub moved by dz (the other hub and the rack held) and return the metrics. */
function resolvedAt(sm: SuspensionModel, side: 0 | 1, dz: number): AxleMetrics | MetricValues {
  const saved = sm.model.system.snapshot();
  const blocks: ResidualBlock[] = sm.corners.map((c, i) => {
    const b = c.wheelCenterZ;
    b.target = sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }])[2] + (i === side ? dz : 0);
    return b;
  });
  if (sm.rackHold) { sm.rackHold.target = sm.model.system.getScalar(sm.steering); blocks.push(sm.rackHold); }
  expect(sm.solveWith(blocks).converged).toBe(true);
  const m = sm.evaluate().metrics;
  sm.clearDrivers();
  sm.model.system.restore(saved);
  return m;
}

/** Every `deriv_X_wrt_hub_z[_left|_right]` device column against central differences of re-solved states. */
function checkDeviceDerivatives(sm: SuspensionModel, names: string[]): number {
  const e = sm.evaluate().metrics as AxleMetrics | MetricValues;
  const h = 1e-3;
  let checked = 0;
  const axle = 'axle' in e;
  for (const side of (axle ? [0, 1] : [0]) as (0 | 1)[]) {
    const plus = resolvedAt(sm, side, h), minus = resolvedAt(sm, side, -h);
    const sideName = side === 0 ? 'left' : 'right';
    for (const name of names) {
      // axle-row columns carry the side in their name; corner-row columns are of their own corner
      const axleColumn = `deriv_${name}_wrt_hub_z_${sideName}`;
      const groups: [string, string, string][] = axle
        ? [['axle', axleColumn, name], [sideName, `deriv_${name}_wrt_hub_z`, name]]
        : [['', `deriv_${name}_wrt_hub_z`, name]];
      for (const [group, column, metric] of groups) {
        const pick = (m: unknown) => (group ? (m as Record<string, MetricValues>)[group] : (m as MetricValues));
        const d = pick(e)[column];
        if (d === undefined || d === null) continue;
        const valueOf = (m: unknown) => {
          const row = pick(m);
          return metric === 't_bar_center_x' ? null : (row[metric] as number);
        };
        const vp = valueOf(plus), vm = valueOf(minus);
        if (vp === null || vm === null) continue;
        const fd = (vp - vm) / (2 * h);
        expect(Math.abs(d - fd), `${group}.${column}: ${d} vs ${fd}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(fd)));
        checked++;
      }
    }
  }
  return checked;
}

describe('camber shim setup', () => {
  const authored = () => { const d = raw('double_wishbone_camber_shim'); edit(d, 'config.camber_shim', undefined); return validateGeometry(d); };
  const withThickness = (t: number) => validateGeometry(edit(raw('double_wishbone_camber_shim'), 'config.camber_shim.setup_thickness', t));

  it('a shim of design thickness changes nothing', () => {
    const g = withThickness(3.0);
    expect(g.corners[0].hardpoints).toEqual(authored().corners[0].hardpoints);
    expect(g.corners[0].setup_change).toBeUndefined();
    const a = modelOf(g).evaluate().metrics as MetricValues, b = modelOf(authored()).evaluate().metrics as MetricValues;
    expect(a.camber).toBe(b.camber);
  });

  it('a thicker shim makes camber more negative, monotonically; a thinner one less', () => {
    const camber = (t: number) => (modelOf(withThickness(t)).evaluate().metrics as MetricValues).camber!;
    const c0 = camber(3), c1 = camber(4), c2 = camber(5), cThin = camber(1);
    expect(c1).toBeLessThan(c0);
    expect(c2).toBeLessThan(c1);
    expect(cThin).toBeGreaterThan(c0);
    // the reported setup change is the design camber's change
    expect(withThickness(5).corners[0].setup_change!.camber).toBeCloseTo(c2 - c0, 9);
    // small-angle closed form: the upright turns by about ΔT / (UBJ–LBJ height) about the LBJ
    expect(c2 - c0).toBeCloseTo(-(2 / 300) * DEG, 1);
  });

  it('solves the setup as the reference does: LBJ fixed, UBJ on its arc, upright rigid, track rod length kept', () => {
    const before = authored().corners[0].hardpoints as Record<string, V>;
    const after = withThickness(5).corners[0].hardpoints as Record<string, V>;
    const d = (p: Record<string, V>, a: string, b: string) => len(sub(p[a], p[b]));
    expect(after.lower_wishbone_outboard).toEqual(before.lower_wishbone_outboard);
    for (const pivot of ['upper_wishbone_inboard_front', 'upper_wishbone_inboard_rear']) {
      expect(d(after, 'upper_wishbone_outboard', pivot)).toBeCloseTo(d(before, 'upper_wishbone_outboard', pivot), 8);
    }
    expect(d(after, 'trackrod_inboard', 'trackrod_outboard')).toBeCloseTo(d(before, 'trackrod_inboard', 'trackrod_outboard'), 8);
    const upright = ['lower_wishbone_outboard', 'axle_inboard', 'axle_outboard', 'trackrod_outboard'];
    for (const a of upright) for (const b of upright) expect(d(after, a, b)).toBeCloseTo(d(before, a, b), 8);
    // the upright's UBJ attachment is the design one moved by −ΔT·n: the UBJ now sits 2 mm further along +y of it
    const n: V = [0, -1, 0];
    const gap = 5 - 3;
    // rotate back: distance from the LBJ to the UBJ equals that to the shifted attachment
    const shifted = sub(before.upper_wishbone_outboard, n.map((x) => x * gap) as V);
    expect(d(after, 'lower_wishbone_outboard', 'upper_wishbone_outboard')).toBeCloseTo(len(sub(shifted, before.lower_wishbone_outboard)), 8);
  });

  it('is the design of every sweep: wheel travel 0 and the setup camber at design', () => {
    const sm = modelOf(withThickness(5));
    const run = runSweep(sm, sweepFromShortcut('bump', '-10:10:3'), { noSteering: true });
    const m = run.steps[1].metrics as MetricValues;
    expect(m.wheel_travel).toBeCloseTo(0, 9);
    sm.resetToDesign();
    expect(m.camber).toBeCloseTo((sm.evaluate().metrics as MetricValues).camber!, 9);
    expect(m.camber).toBeLessThan((modelOf(authored()).evaluate().metrics as MetricValues).camber! - 0.3);
  });

  it('a longer track rod toes the wheel out (track rod ahead of the axle); a pushrod shim turns the rocker', () => {
    const d = raw('double_wishbone_camber_shim');
    edit(d, 'config.camber_shim', undefined);
    edit(d, 'config.length_shims', { trackrod: 1 });
    const g = validateGeometry(d);
    expect(g.corners[0].setup_change!.toe_angle).toBeLessThan(0);
    expect(g.corners[0].setup_change!.camber).toBeCloseTo(0, 1);
    const p = raw('double_wishbone_pushrod');
    edit(p, 'config.length_shims', { pushrod: 2 });
    const gp = validateGeometry(p);
    const hp = gp.corners[0].hardpoints as Record<string, V>, hp0 = gp.corners[0].authored_hardpoints as Record<string, V>;
    expect(len(sub(hp.pushrod_inboard, hp.pushrod_outboard)) - len(sub(hp0.pushrod_inboard, hp0.pushrod_outboard))).toBeCloseTo(2, 8);
    expect(hp.axle_outboard).toEqual(hp0.axle_outboard); // only the rocker moved
    expect(len(sub(hp.strut_bottom, hp.rocker_axis_a))).toBeCloseTo(len(sub(hp0.strut_bottom, hp0.rocker_axis_a)), 8);
  });

  it('the sweep command reports the setup change beside the sweeps', async () => {
    const { main } = await import('../../../src/cli/main');
    const { memoryIO } = await import('../../cli/helpers');
    const io = memoryIO({});
    expect(await main(['sweep', 'examples/suspension/double_wishbone_camber_shim.yaml', '--bump', '0:0:1'], io)).toBe(0);
    const out = JSON.parse(io.written.stdout) as { setup_change: { left: { camber: number; toe_angle: number } } };
    expect(out.setup_change.left.camber).toBeCloseTo(withThickness(5).corners[0].setup_change!.camber, 12);
    expect(out.setup_change.left.camber).toBeLessThan(-0.3);
  });

  it('an axle mirrors the left setup to the right: symmetric camber change', () => {
    const d = raw('double_wishbone_axle');
    const shim = (raw('double_wishbone_camber_shim').config as Doc).camber_shim;
    edit(d, 'axle_config.left_setup', { camber_shim: shim });
    const g = validateGeometry(d);
    expect(g.corners[0].setup_change!.camber).toBeLessThan(-0.1);
    expect(g.corners[1].setup_change!.camber).toBeCloseTo(g.corners[0].setup_change!.camber, 9);
    expect(g.corners[1].setup_change!.toe_angle).toBeCloseTo(g.corners[0].setup_change!.toe_angle, 9);
  });
});

describe('U-bar anti-roll bar', () => {
  const roll = () => {
    const sm = model('double_wishbone_axle_u_bar');
    return { sm, run: runSweep(sm, sweepFromShortcut('roll', '-3:3:7'), { noSteering: true }) };
  };

  it('bar twist is the difference of the two arm angles, each from the arm end about the bar axis (independent route)', () => {
    const { run } = roll();
    const design = run.steps[3].positions!;
    let rolled = 0;
    for (const s of run.steps) {
      expect(s.status).toBe('solved');
      const m = s.metrics as AxleMetrics, p = s.positions!;
      const a = p.center_arb_u_bar_axis_a as V, b = p.center_arb_u_bar_axis_b as V;
      const left = turn(a, b, p.left_droplink_u_bar as V, design.left_droplink_u_bar as V);
      const right = turn(a, b, p.right_droplink_u_bar as V, design.right_droplink_u_bar as V);
      expect(m.left.arb_arm_angle).toBeCloseTo(left, 9);
      expect(m.right.arb_arm_angle).toBeCloseTo(right, 9);
      expect(m.axle.arb_twist).toBeCloseTo(left - right, 9);
      if (Math.abs(m.axle.arb_twist!) > 1) rolled++;
    }
    expect(rolled).toBe(6);
    // the reference's sign: positive with the left wheel down (roll < 0)
    expect((run.steps[0].metrics as AxleMetrics).axle.arb_twist!).toBeGreaterThan(0);
  });

  it('keeps each droplink length constant and the bar axis fixed', () => {
    const { run } = roll();
    const p0 = run.steps[3].positions!;
    for (const s of run.steps) {
      const p = s.positions!;
      for (const side of ['left', 'right']) {
        expect(len(sub(p[`${side}_droplink_rocker`] as V, p[`${side}_droplink_u_bar`] as V))).toBeCloseTo(150, 9);
        // the arm end stays at its radius from the bar axis
        expect(Math.hypot(p[`${side}_droplink_u_bar`][0] - 100, p[`${side}_droplink_u_bar`][2] - 300)).toBeCloseTo(100, 9);
      }
      expect(p.center_arb_u_bar_axis_a).toEqual(p0.center_arb_u_bar_axis_a);
    }
  });

  it('twist is zero in heave, both arms turning alike (mirror symmetry), and antisymmetric in roll', () => {
    const sm = model('double_wishbone_axle_u_bar');
    const heave = runSweep(sm, sweepFromShortcut('bump', '-30:30:5'), { noSteering: true });
    for (const s of heave.steps) {
      const m = s.metrics as AxleMetrics;
      expect(m.axle.arb_twist).toBeCloseTo(0, 9);
      expect(m.left.arb_arm_angle).toBeCloseTo(m.right.arb_arm_angle!, 9);
      expect(m.left.rocker_angle).toBeCloseTo(m.right.rocker_angle!, 9);
    }
    expect(Math.abs((heave.steps[0].metrics as AxleMetrics).left.arb_arm_angle!)).toBeGreaterThan(1);
    const { run } = roll();
    for (let i = 0; i < 7; i++) {
      const a = run.steps[i].metrics as AxleMetrics, b = run.steps[6 - i].metrics as AxleMetrics;
      expect(a.axle.arb_twist).toBeCloseTo(-b.axle.arb_twist!, 9);
      expect(a.left.arb_arm_angle).toBeCloseTo(b.right.arb_arm_angle!, 9);
      expect(a.axle.deriv_arb_twist_wrt_hub_z_left).toBeCloseTo(-b.axle.deriv_arb_twist_wrt_hub_z_right!, 9);
    }
  });

  it('derivatives equal central differences, at design and rolled', () => {
    const { sm } = roll();
    sm.resetToDesign();
    expect(checkDeviceDerivatives(sm, ['arb_twist', 'rocker_angle'])).toBeGreaterThanOrEqual(4);
    runSweep(sm, sweepFromShortcut('roll', '2:2:1'), { noSteering: true });
    expect(checkDeviceDerivatives(sm, ['arb_twist'])).toBe(2);
  });

  it('reports the transmission margin of every link/lever pair and no branch change in a normal roll', () => {
    const { run } = roll();
    for (const s of run.steps) {
      expect(Object.keys(s.transmission!).sort()).toEqual(['left_droplink_rocker', 'left_droplink_u_bar', 'left_pushrod_rocker', 'right_droplink_rocker', 'right_droplink_u_bar', 'right_pushrod_rocker']);
      expect(s.diagnostics ?? []).toEqual([]);
    }
    // at design the droplink is square to both levers
    expect(run.steps[3].transmission!.left_droplink_u_bar).toBeCloseTo(1, 12);
  });
});

describe('link/lever diagnostics', () => {
  it('the signed transmission: 1 square-on, 0 at toggle, its sign the side of the lever plane (the branch)', () => {
    const a = [0, 0, 0], b = [0, 0, 2], pickup = [1, 0, 5];
    expect(leverTransmission(a, b, pickup, [1, 3, 5])).toBeCloseTo(1, 15);
    expect(leverTransmission(a, b, pickup, [4, 0, 5])).toBeCloseTo(0, 15);
    expect(leverTransmission(a, b, pickup, [1, -3, 5])).toBeCloseTo(-1, 15);
    // 45° between the link and the pickup's path: cos 45°
    expect(leverTransmission(a, b, pickup, [2, 1, 5])).toBeCloseTo(Math.SQRT1_2, 15);
    // the axle-direction part of the link turns nothing
    expect(leverTransmission(a, b, pickup, [1, 1, 6])).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('warn below a margin of 0.15', () => {
    // a vertical arm with a vertical droplink: the link pulls nearly along the arm (margin ≈ 2/140)
    const d = raw('double_wishbone_axle_u_bar');
    edit(d, 'hardpoints.left.droplink_u_bar', { x: 0, y: 390, z: 440 });
    edit(d, 'hardpoints.center.arb_u_bar_axis_a', { x: 2, y: 250, z: 300 });
    edit(d, 'hardpoints.center.arb_u_bar_axis_b', { x: 2, y: -250, z: 300 });
    const sm = modelOf(validateGeometry(d));
    const run = runSweep(sm, sweepFromShortcut('bump', '0:1:2'), { noSteering: true });
    const notes = run.steps.flatMap((s) => s.diagnostics ?? []);
    expect(notes.some((n) => n.startsWith('low_transmission: left_droplink_u_bar'))).toBe(true);
  });
});

describe('T-bar anti-roll bar', () => {
  it('keeps its midpoint on Y = 0 and its droplinks at length; twist and heave angle from the positions (independent route)', () => {
    const sm = model('double_wishbone_axle_t_bar');
    const run = runSweep(sm, sweepFromShortcut('roll', '-3:3:7'), { noSteering: true });
    const p0 = run.steps[3].positions!;
    const phi = (p: Record<string, number[]>) => {
      // crossbar direction seen along the stem, measured from +Y: an angle in the plane normal to the stem
      const l = p.left_droplink_t_bar as V, r = p.right_droplink_t_bar as V, piv = p.center_arb_t_bar_pivot as V;
      const m: V = [(l[0] + r[0]) / 2, (l[1] + r[1]) / 2, (l[2] + r[2]) / 2];
      const s = sub(m, piv).map((x) => x / len(sub(m, piv))) as V;
      const c = sub(l, r);
      const cp = sub(c, s.map((x) => x * dot(s, c)) as V);
      return Math.atan2(dot(s, cross([0, 1, 0], cp)), cp[1]) * DEG;
    };
    for (const s of run.steps) {
      const p = s.positions!, m = s.metrics as AxleMetrics;
      expect((p.left_droplink_t_bar[1] + p.right_droplink_t_bar[1]) / 2).toBeCloseTo(0, 9);
      for (const side of ['left', 'right']) expect(len(sub(p[`${side}_droplink_rocker`] as V, p[`${side}_droplink_t_bar`] as V))).toBeCloseTo(150, 9);
      expect(m.axle.arb_twist).toBeCloseTo(phi(p) - phi(p0), 9);
      const mid = (q: Record<string, number[]>): V => [(q.left_droplink_t_bar[0] + q.right_droplink_t_bar[0]) / 2, 0, (q.left_droplink_t_bar[2] + q.right_droplink_t_bar[2]) / 2];
      const piv = p0.center_arb_t_bar_pivot as V;
      expect(m.axle.t_bar_heave_angle).toBeCloseTo(turn(piv, [piv[0], piv[1] + 1, piv[2]], mid(p), mid(p0)), 9);
      // torsion bar on the rocker shaft: the same number as the rocker angle
      expect(m.left.torsion_bar_twist).toBe(m.left.rocker_angle);
      // the separate damper runs damper_chassis → damper_rocker
      expect(m.left.damper_length).toBeCloseTo(len(sub(p.left_damper_chassis as V, p.left_damper_rocker as V)), 9);
    }
    // the T-bar's convention: negative with the left wheel down
    expect((run.steps[0].metrics as AxleMetrics).axle.arb_twist!).toBeLessThan(-1);
  });

  it('derivatives equal central differences', () => {
    const sm = model('double_wishbone_axle_t_bar');
    runSweep(sm, sweepFromShortcut('roll', '1.5:1.5:1'), { noSteering: true });
    expect(checkDeviceDerivatives(sm, ['arb_twist', 'torsion_bar_twist', 'damper_length'])).toBeGreaterThanOrEqual(6);
    // deriv_t_bar_center_x: the crossbar midpoint's x against central differences
    const e = sm.evaluate();
    const h = 1e-3;
    for (const [side, column] of [[0, 'deriv_t_bar_center_x_wrt_hub_z_left'], [1, 'deriv_t_bar_center_x_wrt_hub_z_right']] as const) {
      const x = (dz: number) => {
        const saved = sm.model.system.snapshot();
        resolvedAt(sm, side, 0);
        const blocks: ResidualBlock[] = sm.corners.map((c, i) => { c.wheelCenterZ.target = sm.pointValue([{ variable: c.upright, local: c.wheelCenterLocal, weight: 1 }])[2] + (i === side ? dz : 0); return c.wheelCenterZ; });
        blocks.push(sm.rackHold!);
        sm.solveWith(blocks);
        const p = sm.evaluate({ derivatives: false }).positions;
        sm.clearDrivers();
        sm.model.system.restore(saved);
        return (p.left_droplink_t_bar[0] + p.right_droplink_t_bar[0]) / 2;
      };
      const fd = (x(h) - x(-h)) / (2 * h);
      const d = (e.metrics as AxleMetrics).axle[column]!;
      expect(Math.abs(d - fd)).toBeLessThanOrEqual(1e-7);
      expect(Math.abs(d)).toBeGreaterThan(1e-4);
    }
  });
});

describe('heave link', () => {
  it('its length is the distance between the rocker pickups; heave changes it, roll much less; derivatives equal central differences', () => {
    const sm = model('double_wishbone_axle_heave_link');
    const heave = runSweep(sm, sweepFromShortcut('bump', '-20:20:3'), { noSteering: true });
    for (const s of heave.steps) {
      const p = s.positions!, m = s.metrics as AxleMetrics;
      expect(m.axle.heave_link_length).toBeCloseTo(len(sub(p.left_heave_link_rocker as V, p.right_heave_link_rocker as V)), 9);
    }
    const l = (s: number) => (heave.steps[s].metrics as AxleMetrics).axle.heave_link_length!;
    expect(Math.abs(l(2) - l(0))).toBeGreaterThan(5);
    sm.resetToDesign();
    expect(checkDeviceDerivatives(sm, ['heave_link_length', 'torsion_bar_twist', 'damper_length'])).toBeGreaterThanOrEqual(6);
  });

  it('is a sweep target: element_length heave_link drives it, the other wheel held', () => {
    const sm = model('double_wishbone_axle_heave_link');
    const spec = sweepFromShortcut('bump', '0:0:1');
    spec.steps = 5;
    spec.targets = [
      { type: 'element_length', element: 'heave_link', mode: 'relative', start: -10, stop: 10 },
      { type: 'point', point: 'wheel_center', side: 'right', direction: { axis: 'z' }, mode: 'relative', start: 0, stop: 0, hold: true },
      { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', start: 0, stop: 0, hold: true },
    ] as typeof spec.targets;
    const run = runSweep(sm, spec, { noSteering: true });
    run.steps.forEach((s, i) => {
      expect(s.status).toBe('solved');
      expect((s.metrics as AxleMetrics).axle.heave_link_length).toBeCloseTo(680 - 10 + 5 * i, 8);
      expect((s.metrics as AxleMetrics).right.wheel_travel).toBeCloseTo(0, 8);
    });
  });
});

describe('torsion bar on a trailing arm', () => {
  it('twist is the arm outboard point’s turn about the bar axis times σ; its derivative equals central differences', () => {
    const sm = model('trailing_arm_torsion_bar');
    const run = runSweep(sm, sweepFromShortcut('bump', '-30:30:5'));
    const p0 = run.steps[2].positions!;
    for (const s of run.steps) {
      const p = s.positions!, m = s.metrics as MetricValues;
      expect(m.torsion_bar_twist).toBeCloseTo(turn(p.torsion_bar_axis_a as V, p.torsion_bar_axis_b as V, p.trailing_arm_outboard as V, p0.trailing_arm_outboard as V), 9);
    }
    // bump lifts the arm end behind the pivot: a positive turn about +Y (−x̂ turns toward +z)
    expect((run.steps[4].metrics as MetricValues).torsion_bar_twist!).toBeGreaterThan(0);
    runSweep(sm, sweepFromShortcut('bump', '20:20:1'));
    expect(checkDeviceDerivatives(sm, ['torsion_bar_twist', 'damper_length'])).toBe(2);
  });
});

describe('device fields: refused with their path, one problem a line', () => {
  it('a U-bar without its axle-level points, a misspelt bar field, an unknown setup field', () => {
    const d = raw('double_wishbone_axle_u_bar');
    edit(d, 'hardpoints.center', undefined);
    edit(d, 'axle_config.anti_roll', { type: 'u_bar', stiffness: 3 });
    edit(d, 'axle_config.left_setup', { camber_shim: { shim_face_point_a: [0, 1, 2] }, toe_shim: 1 });
    expect(problemsOf(() => validateGeometry(d)).map((p) => p.path)).toEqual(expect.arrayContaining([
      'axle_config.anti_roll.stiffness',
      'axle_config.left_setup.toe_shim',
      'axle_config.left_setup.camber_shim.shim_face_point_b',
      'axle_config.left_setup.camber_shim.shim_face_normal',
      'axle_config.left_setup.camber_shim.design_thickness',
      'hardpoints.center.arb_u_bar_axis_a',
      'hardpoints.center.arb_u_bar_axis_b',
    ]));
  });

  it('a T-bar pivot off Y = 0, a heave link or damper without a rocker, a damper beside a coilover', () => {
    const t = raw('double_wishbone_axle_t_bar');
    edit(t, 'hardpoints.center.arb_t_bar_pivot', { x: -150, y: 5, z: 300 });
    expect(problemsOf(() => validateGeometry(t))).toEqual([{ path: 'hardpoints.center.arb_t_bar_pivot.y', message: 'the T-bar pivot must lie on Y = 0 (got 5)' }]);
    const a = raw('double_wishbone_axle');
    edit(a, 'axle_config.heave_link', { type: 'rocker_to_rocker' });
    edit(a, 'axle_config.damper', { type: 'linear' });
    expect(problemsOf(() => validateGeometry(a)).map((p) => p.path)).toEqual(['axle_config.damper.type', 'axle_config.heave_link.type']);
    const c = raw('double_wishbone_pushrod');
    edit(c, 'damper', { type: 'linear' });
    expect(problemsOf(() => validateGeometry(c))[0]).toEqual({ path: 'damper.type', message: expect.stringContaining('beside a coilover') });
  });

  it('a field the format may hold that we do not model is refused, not ignored', () => {
    const c = raw('double_wishbone');
    edit(c, 'config.bump_stop', { gap: 20 });
    expect(problemsOf(() => validateGeometry(c))).toEqual([{ path: 'config.bump_stop', message: expect.stringContaining('it is not modelled, so it is refused rather than ignored') }]);
    const s = raw('double_wishbone_camber_shim');
    edit(s, 'config.camber_shim.shim_face_normal', { x: 0, y: -2, z: 0 });
    expect(problemsOf(() => validateGeometry(s))).toEqual([{ path: 'config.camber_shim.shim_face_normal', message: 'must be a unit direction (length 2)' }]);
    const ta = raw('trailing_arm_torsion_bar');
    edit(ta, 'hardpoints.torsion_bar_axis_b', { x: 1000, y: 600, z: 310 });
    expect(problemsOf(() => validateGeometry(ta))[0].path).toBe('hardpoints.torsion_bar_axis_b');
    const r = raw('double_wishbone_axle');
    edit(r, 'axle_config.right_setup', { length_shims: { trackrod: 1 } });
    expect(problemsOf(() => validateGeometry(r))[0].path).toBe('axle_config.right_setup');
  });
});
