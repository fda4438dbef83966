/**
 * Loads in sweeps (`kinemate sweep … --loads FILE`): at each state the upright's free body
 * balances (contact load + every mate's force on it + the wheel hold = 0, forces and
 * moments: six equations checked independently of the solver), the hold carries what the
 * spring does not (virtual work: F_hold = −T·dl/dz with dl/dz the damper-length derivative
 * metric), g-levels become the documented forces, and bad load files are refused by path.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../../src/assembly/load';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { contactLoad, LoadCaseError, parseLoadCase, SweepLoads, STANDARD_GRAVITY, type StateLoads } from '../../../src/suspension/loads/loads';
import { runSweepCommand } from '../../../src/cli/sweep-run';
import { memoryIO } from '../../cli/helpers';
import { buildDynamics } from '../../../src/mechanics/build';
import { axleRates } from '../../../src/suspension/loads/axle-rates';
import { solveModel } from '../../../src/model/operations';

const example = (name: string) => readFileSync(`examples/suspension/${name}.yaml`, 'utf8');
type V = [number, number, number];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Σ force and Σ moment about the origin on `part`: every mate's reaction (+ on its b part, − on its a part) plus the extra point forces. */
function freeBody(doc: ReturnType<typeof suspensionAssembly>, loads: StateLoads, part: string, positions: Record<string, V>, extra: { at: V; force: V; moment?: V }[]) {
  const F: V = [0, 0, 0], M: V = [0, 0, 0];
  const add = (at: V, f: V, m: V, sign: number) => {
    const mo = cross(at, f);
    for (let i = 0; i < 3; i++) { F[i] += sign * f[i]; M[i] += sign * (m[i] + mo[i]); }
  };
  for (const [id, mate] of Object.entries(doc.mates) as [string, { a: string; b: string }][]) {
    const aPart = mate.a.split('.')[0], bPart = mate.b.split('.')[0];
    if (aPart !== part && bPart !== part) continue;
    const sign = bPart === part ? 1 : -1;
    if (id in loads.links) {
      // tension pulls the ends together: on b toward a
      const pa = positions[mate.a.split('.')[1]];
      const pb = positions[mate.b.split('.')[1]];
      const d: V = [pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]], l = Math.hypot(...d);
      const T = loads.links[id];
      add(pb, [T * d[0] / l, T * d[1] / l, T * d[2] / l], [0, 0, 0], sign);
    } else {
      const w = loads.joints[id];
      add(w.at, w.force, w.moment, sign);
    }
  }
  for (const e of extra) add(e.at, e.force, e.moment ?? [0, 0, 0], 1);
  return { F, M };
}

describe('loads in sweeps', () => {
  it('g-levels become ISO 8855 contact forces of the corner weight', () => {
    const w = 300 * STANDARD_GRAVITY;
    const { force } = contactLoad({ corner_mass: 300, braking_g: 1, cornering_g: 1.2, bump_g: 0.5 });
    expect(force[0]).toBeCloseTo(-w, 9);
    expect(force[1]).toBeCloseTo(1.2 * w, 9);
    expect(force[2]).toBeCloseTo(1.5 * w, 9);
    expect(contactLoad({ force: [1, 2, 3], moment: [4, 5, 6] })).toEqual({ force: [1, 2, 3], moment: [4, 5, 6] });
  });

  it('bad load files are refused with the path named, one problem a line', () => {
    const bad = (text: string, path: string) => {
      let error: unknown;
      try { parseLoadCase(text, ['left', 'right']); } catch (e) { error = e; }
      expect(error, text).toBeInstanceOf(LoadCaseError);
      expect((error as Error).message).toContain(path);
    };
    bad('left: { force: [1, 2] }', 'loads: left.force');
    bad('left: { braking_g: 1 }', 'left.braking_g: a g-level needs corner_mass');
    bad('middle: { force: [0, 0, 1] }', 'middle: no such corner');
    bad('left: { corner_mass: -3 }', 'left.corner_mass');
    bad('left: { push: 3 }', 'left.push: unknown field');
    bad('left: { force: [0, 0, 1], corner_mass: 3 }', 'left: give force/moment or g-levels');
    const two = (() => { try { parseLoadCase('left: { push: 1 }\nright: { pull: 2 }', ['left', 'right']); } catch (e) { return (e as Error).message; } return ''; })();
    expect(two.split('\n')).toHaveLength(2);
  });

  it('corner bump sweep under braking and cornering: the upright balances (6 equations) and the hold carries −T·dl/dz', () => {
    const geometry = parseGeometry(example('double_wishbone_pushrod').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90, preload: 1500 }'));
    const doc = suspensionAssembly(geometry);
    const sm = new SuspensionModel(validateAssembly(doc));
    const loadCase = parseLoadCase('each: { corner_mass: 300, braking_g: 0.8, cornering_g: 1.1 }', ['left']);
    const loads = new SweepLoads(sm, loadCase);
    let checked = 0;
    runSweep(sm, sweepFromShortcut('bump', '-20:20:5', geometry), {
      onSolvedState(step) {
        const l = loads.evaluate();
        step.loads = l;
        const positions: Record<string, V> = {};
        for (const [k, p] of Object.entries(step.positions!)) positions[k] = p as V;
        // the wheel-travel hold: a vertical force at the wheel centre
        const holdName = Object.keys(l.holds).find((h) => h !== 'rack')!;
        const wc = sm.corners[0];
        const wcWorld = Array.from(sm.pointValue([{ variable: wc.upright, local: wc.wheelCenterLocal, weight: 1 }])) as V;
        const contact = l.contact.left;
        const { F, M } = freeBody(doc, l, 'upright', positions, [
          { at: contact.at, force: contact.force, moment: contact.moment },
          { at: wcWorld, force: [0, 0, l.holds[holdName]] },
        ]);
        const scale = Math.hypot(...contact.force);
        for (let i = 0; i < 3; i++) {
          expect(Math.abs(F[i])).toBeLessThan(1e-8 * scale);
          expect(Math.abs(M[i])).toBeLessThan(1e-8 * scale * 1000);
        }
        // the spring is loaded and the steering reacts the track rod
        expect(Math.abs((l.elements.spring as { tension: number }).tension)).toBeGreaterThan(100);
        expect(Math.abs(l.rack_force!)).toBeGreaterThan(1);
        checked++;
      },
    });
    expect(checked).toBe(5);
  });

  it('with no contact load the wheel hold carries exactly the spring: F_hold = −T·d(spring length)/dz', () => {
    const geometry = parseGeometry(example('double_wishbone_pushrod').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90, preload: 1500 }'));
    const sm = new SuspensionModel(validateAssembly(suspensionAssembly(geometry)));
    const loads = new SweepLoads(sm, {});
    let checked = 0, largest = 0;
    runSweep(sm, sweepFromShortcut('bump', '-20:20:5', geometry), {
      onSolvedState(step) {
        const l = loads.evaluate();
        const T = (l.elements.spring as { tension: number }).tension;
        const dl = (step.metrics as Record<string, number>).deriv_damper_length_wrt_hub_z;
        const hold = Object.entries(l.holds).find(([h]) => h !== 'rack')![1];
        // virtual work along the hub's unit travel (rack held): F_hold·1 − T·dl = 0 (tension pulls the ends together)
        expect(hold - T * dl).toBeCloseTo(0, 6);
        largest = Math.max(largest, Math.abs(hold));
        // the pushrod is on the upright, so the spring also steers it: the rack force is not zero
        expect(Number.isFinite(l.rack_force)).toBe(true);
        checked++;
      },
    });
    expect(checked).toBe(5);
    expect(largest).toBeGreaterThan(10);
  });

  it('rates per state: at design the sweep wheel stiffness, roll stiffness and motion ratios equal axleRates', () => {
    const text = readFileSync('examples/suspension/double_wishbone_axle_u_bar_rates.yaml', 'utf8');
    const geometry = parseGeometry(text);
    const doc = suspensionAssembly(geometry);
    const sm = new SuspensionModel(validateAssembly(doc));
    const dyn = buildDynamics(validateAssembly({ ...doc, held: ['rack_slide.slide'] }));
    solveModel(dyn.model);
    const wheels: [{ part: string; local: Float64Array }, { part: string; local: Float64Array }] = [
      { part: 'left_upright', local: sm.corners[0].wheelCenterLocal }, { part: 'right_upright', local: sm.corners[1].wheelCenterLocal }];
    const expected = axleRates(dyn, wheels);
    const loads = new SweepLoads(sm, {});
    const seen: StateLoads[] = [];
    runSweep(sm, sweepFromShortcut('roll', '-2:2:3', geometry), { onSolvedState: () => { seen.push(loads.evaluate()); } });
    const r = seen[1].rates!;
    for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) expect(r.wheel_stiffness[i][j]).toBeCloseTo(expected.wheelStiffness[i][j], 7);
    expect(r.roll_stiffness! / expected.rollStiffness - 1).toBeCloseTo(0, 9);
    expect(r.heave_wheel_rate! / expected.heaveWheelRate - 1).toBeCloseTo(0, 9);
    expect(r.motion_ratios.left_spring.left).toBeCloseTo(expected.motionRatios.left_spring[0], 10);
    // off design the springs are loaded: the rates move (the geometry's and the reactions' terms)
    expect(Math.abs(seen[0].rates!.roll_stiffness! - r.roll_stiffness!)).toBeGreaterThan(1e-6 * r.roll_stiffness!);
  });

  it('kinemate sweep --loads: every solved step carries loads; csv is refused', async () => {
    const io = memoryIO();
    const code = await runSweepCommand({ geometry: 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml', roll: '-2:2:3', loads: 'examples/suspension/loads/cornering_1g.yaml', format: 'json', io });
    expect(code).toBe(0);
    const out = JSON.parse(io.written.stdout);
    const steps = out.sweeps.roll.steps;
    expect(steps).toHaveLength(3);
    for (const s of steps) {
      expect(Object.keys(s.loads.links)).toEqual(expect.arrayContaining(['left_trackrod', 'left_pushrod', 'right_droplink']));
      expect(typeof s.loads.rack_force).toBe('number');
      expect(s.loads.elements.left_spring.tension).toBeTypeOf('number');
    }
    await expect(runSweepCommand({ geometry: 'examples/suspension/double_wishbone_axle_u_bar_rates.yaml', roll: '-2:2:3', loads: 'examples/suspension/loads/cornering_1g.yaml', format: 'csv', io: memoryIO() })).rejects.toThrow('--loads');
  });
});
