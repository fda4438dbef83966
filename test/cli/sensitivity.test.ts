import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { memoryIO, tempFolder } from './helpers.ts';
import { parseGeometry } from '../../src/suspension/files/index.ts';
import { sensitivityAt } from '../../src/suspension/gradients/model.ts';

const DW = 'examples/suspension/double_wishbone.yaml';
const tmp = tempFolder();
afterAll(() => tmp.remove());

async function run(args: string[]) {
  const io = memoryIO();
  const code = await main(args, io);
  return { code, stdout: io.written.stdout, stderr: io.written.stderr };
}

describe('kinemate sensitivity, fit, batch', () => {
  it('sensitivity prints the sweep layout with { value, gradient } per metric, equal to the library', async () => {
    const r = await run(['sensitivity', DW, '--bump', '-20:20:3', '--metric', 'camber', '--metric', 'toe_angle']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { scope: string; sweeps: Record<string, { steps: { status: string; metrics: Record<string, { value: number; gradient: Record<string, number> }> }[] }> };
    expect(out.scope).toBe('corner');
    const step = out.sweeps.bump.steps[2];
    expect(step.status).toBe('solved');
    expect(Object.keys(step.metrics)).toEqual(['camber', 'toe_angle']);
    expect(Object.keys(step.metrics.camber.gradient)).toHaveLength(30);
    const lib = sensitivityAt(parseGeometry(readFileSync(DW, 'utf8')), 20, ['camber']);
    expect(step.metrics.camber.value).toBeCloseTo(lib.camber!.value, 10);
    expect(step.metrics.camber.gradient['trackrod_inboard.z']).toBeCloseTo(lib.camber!.gradient['trackrod_inboard.z'], 10);
  });
  it('sensitivity --loads FILE --metric link_force.<id>: the link force and its gradient, equal to the library; bad names refused', async () => {
    const LOADS = 'examples/suspension/loads/corner_cornering_1g.yaml';
    const r = await run(['sensitivity', DW, '--at', 'bump=20', '--loads', LOADS, '--metric', 'link_force.trackrod', '--metric', 'rack_force']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, { value: number; gradient: Record<string, number> }> }[] }> };
    const m = out.sweeps['bump=20'].steps[0].metrics;
    expect(Object.keys(m)).toEqual(['link_force.trackrod', 'rack_force']);
    expect(Object.keys(m['link_force.trackrod'].gradient)).toHaveLength(30);
    const { SensitivityModel, bumpStates, sensitivitySweep } = await import('../../src/suspension/gradients/model.ts');
    const { LoadSensitivity } = await import('../../src/suspension/gradients/loads.ts');
    const { parseLoadCase } = await import('../../src/suspension/loads/loads.ts');
    const model = new SensitivityModel(parseGeometry(readFileSync(DW, 'utf8')));
    const ls = new LoadSensitivity(model, parseLoadCase(readFileSync(LOADS, 'utf8'), ['left']));
    const lib = sensitivitySweep(model, bumpStates([20]), ['link_force.trackrod'], 'adjoint', ls).steps[0].metrics!['link_force.trackrod']!;
    expect(m['link_force.trackrod'].value).toBeCloseTo(lib.value, 9);
    expect(m['link_force.trackrod'].gradient['lower_wishbone_outboard.x']).toBeCloseTo(lib.gradient['lower_wishbone_outboard.x'], 9);
    const bad = await run(['sensitivity', DW, '--metric', 'link_force.trackrod']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/link_force\.trackrod.*need --loads FILE/);
  });
  it('sensitivity AXLE --loads FILE: link forces grouped by side beside the kinematic metrics, the rack force under axle; values as kinemate sweep --loads prints them', async () => {
    const AXLE = 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml', LOADS = 'examples/suspension/loads/cornering_1g.yaml';
    const r = await run(['sensitivity', AXLE, '--roll', '2:2:1', '--loads', LOADS, '--metric', 'camber', '--metric', 'link_force.trackrod', '--metric', 'rack_force', '--metric', 'joint_force.lower_ball.z']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    type G = { value: number; gradient: Record<string, number> };
    const m = (JSON.parse(r.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, Record<string, G>> }[] }> }).sweeps.roll.steps[0].metrics;
    expect(Object.keys(m)).toEqual(['left', 'right', 'axle']);
    expect(Object.keys(m.left)).toEqual(['camber', 'link_force.trackrod', 'joint_force.lower_ball.z']);
    expect(Object.keys(m.axle)).toEqual(['rack_force']);
    expect(Object.keys(m.right['link_force.trackrod'].gradient)).toContain('center.arb_u_bar_axis_a.z');
    const sweep = await run(['sweep', AXLE, '--roll', '2:2:1', '--loads', LOADS]);
    const loads = (JSON.parse(sweep.stdout) as { sweeps: Record<string, { steps: { loads: { links: Record<string, number>; joints: Record<string, { force: number[] }>; rack_force: number } }[] }> }).sweeps.roll.steps[0].loads;
    expect(m.right['joint_force.lower_ball.z'].value).toBeCloseTo(loads.joints.right_lower_ball.force[2], 8);
    expect(m.left['link_force.trackrod'].value).toBeCloseTo(loads.links.left_trackrod, 8);
    expect(m.right['link_force.trackrod'].value).toBeCloseTo(loads.links.right_trackrod, 8);
    expect(m.axle.rack_force.value).toBeCloseTo(loads.rack_force, 8);
    const csv = await run(['sensitivity', AXLE, '--roll', '2:2:1', '--loads', LOADS, '--metric', 'link_force.droplink', '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n').filter((l) => l.includes(',left.link_force.droplink,')).length).toBe(Object.keys(m.left.camber.gradient).length);
  });
  it('sensitivity --at bump=V --format csv: one row per step, metric and coordinate', async () => {
    const r = await run(['sensitivity', DW, '--at', 'bump=10', '--metric', 'caster', '--format', 'csv']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('sweep,step,status,metric,value,parameter,gradient');
    expect(lines).toHaveLength(31);
    expect(lines[1]).toMatch(/^bump=10,0,solved,caster,[-\d.e]+,lower_wishbone_inboard_front\.x,[-\d.e]+$/);
  });
  it('sensitivity refuses an unknown metric, naming it', async () => {
    const r = await run(['sensitivity', DW, '--metric', 'nope']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^kinemate: sensitivity: --metric: no gradient for "nope"/);
  });
  it('fit writes the fitted geometry and reports; a bad targets file is refused with its path', async () => {
    const targets = tmp.file('t.yaml');
    writeFileSync(targets, 'move: { upper_wishbone_outboard: { z: [-5, 5] } }\ntargets:\n  - { metric: camber, at: 25, value: -2.0 }\n');
    const out = tmp.file('fitted.json');
    const r = await run(['fit', DW, '--targets', targets, '--out', out]);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as { status: string; targets: { value: number }[]; fitted_file: string };
    expect(report.status).toBe('converged');
    expect(r.code).toBe(0);
    expect(report.targets[0].value).toBeCloseTo(-2.0, 8);
    const back = sensitivityAt(parseGeometry(readFileSync(out, 'utf8')), 25, ['camber']);
    expect(back.camber!.value).toBeCloseTo(-2.0, 8);
    writeFileSync(targets, 'move: { upper_wishbone_outboard: { w: [-5, 5] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]\n');
    const bad = await run(['fit', DW, '--targets', targets]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${targets}: move.upper_wishbone_outboard.w: expected x, y or z`);
  });
  it('batch streams the CSV in variant order; a bad DOE file is refused with its path', async () => {
    const doe = tmp.file('d.yaml');
    writeFileSync(doe, 'vary: { trackrod_inboard.z: [-2, 2] }\nsampling: { type: grid, levels: 3 }\nbump: "-10:10:3"\n');
    const r = await run(['batch', DW, '--doe', doe, '--threads', '0']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 9);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['0', '0', '0', '1', '1', '1', '2', '2', '2']);
    writeFileSync(doe, 'vary: { trackrod_inboard.z: [-2, 2] }\nsampling: { type: grid }\n');
    const bad = await run(['batch', DW, '--doe', doe]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${doe}: sampling.levels: expected an integer ≥ 2`);
  });
  it('an unknown --metric names the offered ones of its kind first (the whole list is past the capped error line)', async () => {
    const AXLE = 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml', LOADS = 'examples/suspension/loads/cornering_1g.yaml';
    const typo = await run(['sensitivity', AXLE, '--at', 'bump=10', '--loads', LOADS, '--metric', 'element_tension.sprin']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/no gradient for "element_tension\.sprin" \(of this kind: element_tension\.spring; metrics: camber/);
    const none = await run(['sensitivity', 'examples/suspension/double_wishbone_pushrod.yaml', '--at', 'bump=10', '--loads', 'examples/suspension/loads/corner_cornering_1g.yaml', '--metric', 'element_tension.spring']);
    expect(none.stderr).toMatch(/\(none named element_tension\.… in this file; /);
    const noLoads = await run(['sensitivity', AXLE, '--metric', 'hold_force.rack']);
    expect(noLoads.stderr).toMatch(/\(none named hold_force\.… in this file without --loads FILE; /);
  });
});
