/**
 * The second-order metrics (the kinematic roll centre, the `deriv_*` rates, a beam's
 * `roll_center_linkage_y/z`, the devices' rates) under drivers other than a bump or steer
 * sweep: a roll sweep (each wheel centre driven to design ± h·tanθ) and a damper-length
 * target. `kinemate sweep` takes them along its hub/rack tangent whatever drives the state;
 * every entry is checked against central differences of its values re-solved with the point
 * moved.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { axleFromCornerText } from '../moves';
import { check, sweepOf, type Values } from './second-order-differences';
import { parseGeometry, parseSweep, sweepFromShortcut, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { main } from '../../../src/cli/main';
import { memoryIO, tempFolder } from '../../cli/helpers';
import { AXLE_DERIVATIVE_METRICS, DERIVATIVE_METRICS } from '../../../src/suspension/gradients/derivatives';

const load = (name: string) => parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8'));

const roll2 = (g: Geometry) => sweepFromShortcut('roll', '2:2:1', g);

describe('second-order gradients under a roll sweep', () => {
  it('double wishbone axle rolled 2°: the kinematic roll centre and every deriv_* of both sides match central differences', () => {
    const g = load('double_wishbone_axle');
    const { worst, grads, entries } = check(g, roll2(g), ['roll_center_kinematic_y', 'roll_center_kinematic_z', ...AXLE_DERIVATIVE_METRICS]);
    expect(worst).toBeLessThan(2e-4);
    expect(entries).toBeGreaterThan(1000);
    // the rolled sides differ: the left's camber gain is not the right's
    expect(grads.left.deriv_camber_wrt_hub_z!.value).not.toBeCloseTo(-grads.right.deriv_camber_wrt_hub_z!.value, 4);
  });

  // the U-bar and T-bar axles rolled 2°: bar-axles.test.ts, beside their device metrics at that state

  it('Panhard beam axle rolled 2°: roll_center_linkage_y/z and the deriv_* match central differences', () => {
    const g = load('solid_axle_panhard');
    const { worst, grads } = check(g, roll2(g), ['roll_center_linkage_y', 'roll_center_linkage_z', 'deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_wheel_center_x_wrt_hub_z']);
    expect(worst).toBeLessThan(2e-4);
    // the Panhard rod's ends set the beam's roll centre
    const rc = grads.axle.roll_center_linkage_z!.gradient;
    expect(Math.max(...Object.keys(rc).filter((k) => k.includes('panhard') && k.endsWith('.z')).map((k) => Math.abs(rc[k])))).toBeGreaterThan(1e-2);
  });
});

describe('second-order gradients under other drivers (a damper or heave-link length, another point)', () => {
  const text = readFileSync('examples/suspension/macpherson.yaml', 'utf8');
  const mac = parseGeometry(text);
  const spec = parseSweep(JSON.stringify({ version: 1, steps: 1, targets: [
    { type: 'element_length', element: 'damper', mode: 'relative', start: -8, stop: -8 },
    { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true },
  ] }), mac);

  it('MacPherson corner with its damper 8 mm shorter: every deriv_* and the first-order metrics match central differences of the corner\'s sweep', () => {
    const metrics = ['camber', 'toe_angle', 'wheel_travel', 'damper_length', ...DERIVATIVE_METRICS.filter((m) => m !== 'deriv_rocker_angle_wrt_hub_z')];
    const { worst, grads } = check(mac, spec, metrics);
    expect(grads[mac.corners[0].side].deriv_camber_wrt_hub_z).not.toBeNull();
    expect(worst).toBeLessThan(2e-4);
    // the driven damper's length is the design length − 8 mm: it moves with its ends as |top − bottom| does
    const hp = mac.corners[0].hardpoints, d = [0, 1, 2].map((i) => hp.strut_top[i] - hp.strut_bottom[i]);
    const side = mac.corners[0].side;
    for (let i = 0; i < 3; i++) expect(grads[side].damper_length!.gradient[`strut_top.${'xyz'[i]}`]).toBeCloseTo(d[i] / Math.hypot(...d), 10);
  });

  it('MacPherson corner, damper 8 mm shorter: the *_virtual metrics (the steering response\'s axis) match central differences of the corner\'s sweep', () => {
    // the steering response is evaluated (no noSteering), as `kinemate sweep` prints them
    const values = (g: Geometry): Values => {
      const r = runSweep(new SuspensionModel(suspensionAssembly(g)), spec);
      return { [g.corners[0].side]: r.steps[0].metrics as unknown as Record<string, number | null> };
    };
    const { worst } = check(mac, spec, ['caster_virtual', 'kpi_virtual', 'scrub_radius_virtual', 'mechanical_trail_virtual', 'steering_axis_offset_ground_virtual'], values);
    expect(worst).toBeLessThan(2e-4);
  });

  it('MacPherson corner, damper 8 mm shorter: roll_center_kinematic_z is the mirrored axle\'s under the same target, every entry against its differences', () => {
    const mirrored = (g: Geometry): Values => {
      const axle = axleFromCornerText(text);
      for (const c of axle.corners) for (const [name, p] of Object.entries(g.corners[0].hardpoints)) c.hardpoints[name] = c.side === 'right' ? [p[0], -p[1], p[2]] : [...p];
      return { [g.corners[0].side]: { roll_center_kinematic_z: sweepOf(axle, spec).axle.roll_center_kinematic_z } };
    };
    const { worst } = check(mac, spec, ['roll_center_kinematic_z'], mirrored);
    expect(worst).toBeLessThan(2e-4);
  });

  it('semi-trailing arm axle with both dampers 5 mm shorter: the kinematic roll centre and every deriv_* of both sides match central differences', () => {
    const g = load('semi_trailing_arm_axle');
    const damper = parseSweep(JSON.stringify({ version: 1, steps: 1, targets: [{ type: 'element_length', element: 'damper', mode: 'relative', start: -5, stop: -5 }] }), g);
    const { worst } = check(g, damper, ['roll_center_kinematic_y', 'roll_center_kinematic_z', 'damper_length', ...AXLE_DERIVATIVE_METRICS]);
    expect(worst).toBeLessThan(2e-4);
  });

  it('heave-link axle with the heave link 3 mm shorter and the left wheel at +10 mm: the link\'s rates, the deriv_* and the kinematic roll centre match central differences', () => {
    const g = load('double_wishbone_axle_heave_link');
    const heave = parseSweep(JSON.stringify({ version: 1, steps: 1, targets: [
      { type: 'element_length', element: 'heave_link', mode: 'relative', start: -3, stop: -3 },
      { type: 'point', point: 'wheel_center', direction: { axis: 'z' }, side: 'left', mode: 'relative', start: 10, stop: 10 },
      { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true },
    ] }), g);
    const metrics = ['roll_center_kinematic_z', 'heave_link_length', 'deriv_camber_wrt_hub_z', 'deriv_toe_angle_wrt_hub_z', 'deriv_heave_link_length_wrt_hub_z_left', 'deriv_heave_link_length_wrt_hub_z_right'];
    const { worst } = check(g, heave, metrics);
    expect(worst).toBeLessThan(2e-4);
  });

  it('double wishbone corner driven by its lower ball joint\'s z (+15 mm, rack held): every deriv_* and roll_center_kinematic_z match central differences', () => {
    const text = readFileSync('examples/suspension/double_wishbone.yaml', 'utf8');
    const dw = parseGeometry(text), dwAxle = load('double_wishbone_axle');
    const joint = parseSweep(JSON.stringify({ version: 1, steps: 1, targets: [
      { type: 'point', point: 'lower_wishbone_outboard', direction: { axis: 'z' }, mode: 'relative', start: 15, stop: 15 },
      { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true },
    ] }), dw);
    const names = DERIVATIVE_METRICS.filter((m) => m !== 'deriv_rocker_angle_wrt_hub_z' && m !== 'deriv_damper_length_wrt_hub_z');
    // the corner's own deriv_*, and its roll centre from the mirrored axle (the axle example shares its points)
    const values = (g: Geometry): Values => {
      const axle = structuredClone(dwAxle);
      for (const c of axle.corners) for (const [name, p] of Object.entries(g.corners[0].hardpoints)) c.hardpoints[name] = c.side === 'right' ? [p[0], -p[1], p[2]] : [...p];
      const side = g.corners[0].side;
      return { [side]: { ...sweepOf(g, joint)[side], roll_center_kinematic_z: sweepOf(axle, joint).axle.roll_center_kinematic_z } };
    };
    const { worst } = check(dw, joint, ['roll_center_kinematic_z', ...names], values);
    expect(worst).toBeLessThan(2e-4);
  });

  it('kinemate sensitivity --sweep with a damper-length target (refused before) prints the deriv_* with gradients', async () => {
    const io = memoryIO();
    const tmp = tempFolder();
    const file = tmp.file('damper.json');
    writeFileSync(file, JSON.stringify({ version: 1, steps: 2, targets: [{ type: 'element_length', element: 'damper', mode: 'relative', start: -8, stop: 8 }, { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true }] }));
    try {
      expect(await main(['sensitivity', 'examples/suspension/macpherson.yaml', '--sweep', file, '--metric', 'deriv_camber_wrt_hub_z', '--metric', 'roll_center_kinematic_z'], io)).toBe(0);
    } finally {
      tmp.remove();
    }
    const out = JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { status: string; metrics: Record<string, { value: number; gradient: Record<string, number> } | null> }[] }> };
    const steps = Object.values(out.sweeps)[0].steps;
    expect(steps.map((s) => s.status)).toEqual(['solved', 'solved']);
    for (const s of steps) for (const m of ['deriv_camber_wrt_hub_z', 'roll_center_kinematic_z']) expect(Object.keys(s.metrics[m]!.gradient).length).toBeGreaterThan(10);
  });
});
