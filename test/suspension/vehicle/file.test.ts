/**
 * The vehicle file's bad input (vehicle.md, issue 29 item 8): each refused with the path
 * and the key named, one problem per case; and what the vehicle replaces in an axle file
 * said in a note. A few cases through the real CLI: one line, exit 1.
 */
import { describe, expect, it } from 'vitest';
import { SuspensionFileError } from '../../../src/suspension/files/errors';
import { kinemate, runMain, tempFolder } from '../../cli/helpers';
import { readVehicle, sedanWith, SEDAN } from './vehicle-sources';

function refusal(text: string, edit?: (path: string, text: string) => string): string {
  try { readVehicle(text, edit); } catch (e) {
    expect(e).toBeInstanceOf(SuspensionFileError);
    const problems = (e as SuspensionFileError).problems;
    expect(problems).toHaveLength(1);
    return `${problems[0].path}: ${problems[0].message}`;
  }
  throw new Error('not refused');
}

describe('vehicle file', () => {
  it('reads the sedan', () => {
    const spec = readVehicle();
    expect(spec.wheelbase).toBe(2500);
    expect(spec.front.geometry.topology).toBe('double_wishbone');
    expect(spec.rear.geometry.topology).toBe('multi_link');
    expect(spec.body.inertia[1][1]).toBe(700e6);
    expect(spec.notes).toEqual([]);
  });

  it('says a .tir file\'s unused keys once when both axles use it (they were printed twice)', () => {
    const spec = readVehicle(sedanWith(/tyres:[\s\S]*$/, 'tyres:\n  front: { tir: ../tyres/pacejka_205_60R15.tir }\n  rear: { tir: ../tyres/pacejka_205_60R15.tir }\n'));
    const unused = spec.notes.filter((n) => n.includes('not used'));
    expect(unused.length).toBeGreaterThan(0);
    expect(new Set(unused).size).toBe(unused.length);
    expect(unused.filter((n) => n.includes('[DIMENSION]'))).toHaveLength(1);
  });

  it.each([
    ['a missing axle file', ['front: ../suspension/double_wishbone_axle_front.yaml', 'front: ../suspension/nowhere.yaml'], /^front: cannot read "\.\.\/suspension\/nowhere\.yaml"/],
    ['a file that is not an axle or corner', ['rear: ../suspension/multi_link_axle_rear.yaml', 'rear: ../sensitivity/doe_axle_roll.yaml'], /^rear: "examples\/sensitivity\/doe_axle_roll\.yaml" is not an axle or corner file/],
    ['a front axle given as the rear', ['rear: ../suspension/multi_link_axle_rear.yaml', 'rear: ../suspension/double_wishbone_axle_front.yaml'], /^rear: .* is a front axle \(axle_position\)/],
    ['a disagreeing vehicle_config', ['wheelbase: 2500', 'wheelbase: 2600'], /^front: ".*double_wishbone_axle_front\.yaml" has vehicle_config\.wheelbase 2500 but the vehicle has 2600/],
    ['a non-positive mass', ['mass: 600 ', 'mass: 0 '], /^body\.mass: must be positive/],
    ['a non-positive wheelbase', ['wheelbase: 2500', 'wheelbase: -1'], /^vehicle_config\.wheelbase: must be positive/],
    ['an inertia that is not positive definite', ['inertia: [150e6, 700e6, 800e6]', 'inertia: [[150e6, 0, 0], [0, 700e6, 900e6], [0, 900e6, 800e6]]'], /^body\.inertia: not positive definite/],
    ['an inertia no body has', ['inertia: [150e6, 700e6, 800e6]', 'inertia: [150e6, 700e6, 900e6]'], /^body\.inertia: not a body's inertia/],
    ['a tyre without stiffness', ['front: { stiffness: 250, ', 'front: { '], /^tyres\.front\.stiffness: a tyre without stiffness/],
    ['an unknown field', ['body:', 'boddy: 1\nbody:'], /^boddy: unknown field/],
  ])('refuses %s, naming the path and the key', (_what, [from, to], expected) => {
    // a disagreeing wheelbase is refused against both axle files: the front is named first
    const message = from.startsWith('wheelbase') && to === 'wheelbase: 2600' ? firstOf(sedanWith(from, to)) : refusal(sedanWith(from, to));
    expect(message).toMatch(expected);
  });

  it('says in a note what replaces an axle file\'s sprung mass, road, start and tyre stiffness', () => {
    const spec = readVehicle(undefined, (path, text) => (path.endsWith('multi_link_axle_rear.yaml')
      ? text.replace('dynamics:\n', 'dynamics:\n  sprung_mass: 300\n  road: { sine: { amplitude: 5, frequency: 2 } }\n  tyre: { stiffness: 180 }\n')
      : text));
    expect(spec.notes).toHaveLength(2);
    expect(spec.notes[1]).toMatch(/^rear: .* dynamics\.tyre\.stiffness 180 replaced by the vehicle's 250 N\/mm$/);
    expect(spec.notes[0]).toMatch(/^rear: .* dynamics\.sprung_mass, dynamics\.road replaced by the vehicle's body and flat road$/);
    expect(spec.rear.tyre.stiffness).toBe(250);
  });

  it('reads a Magic Formula tyre: its vertical stiffness from the .tir file', () => {
    const spec = readVehicle(sedanWith(/rear: \{ stiffness: 250, [^}]*\}/, 'rear: { tir: ../tyres/pacejka_205_60R15.tir }'));
    expect(spec.rear.tyre.stiffness).toBeCloseTo(170.863, 9);
    expect(spec.rear.tyre.tir?.model.nominalLoad).toBe(4000);
  });

  it('refuses a .tir missing a key it needs, naming the section and the key', () => {
    const text = sedanWith(/rear: \{ stiffness: 250, [^}]*\}/, 'rear: { tir: ../tyres/pacejka_205_60R15.tir }');
    let message = '';
    try { readVehicle(text, (path, t) => (path.endsWith('.tir') ? t.replace(/^VERTICAL_STIFFNESS.*$/m, '') : t)); } catch (e) { message = (e as Error).message; }
    expect(message).toMatch(/^tyres\.rear\.tir: .*VERTICAL.*VERTICAL_STIFFNESS/);
  });

  it('mirrors a corner file into an axle', () => {
    const spec = readVehicle(sedanWith('front: ../suspension/double_wishbone_axle_front.yaml', 'front: ../suspension/double_wishbone.yaml'));
    expect(spec.front.geometry.scope).toBe('axle');
    const [l, r] = spec.front.geometry.corners;
    expect(r.hardpoints.lower_wishbone_outboard[1]).toBe(-l.hardpoints.lower_wishbone_outboard[1]);
  });
});

function firstOf(text: string): string {
  try { readVehicle(text); } catch (e) { const p = (e as SuspensionFileError).problems[0]; return `${p.path}: ${p.message}`; }
  throw new Error('not refused');
}

describe('kinemate vehicle (the real CLI)', () => {
  it('prints the state at rest with the contract\'s fields', async () => {
    // main in the test process (the same code without a process start); the refusal below as a real process
    const run = await runMain(['vehicle', SEDAN, '--static']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('solved');
    expect(Object.keys(out.corners)).toEqual(['front_left', 'front_right', 'rear_left', 'rear_right']);
    expect(Object.keys(out.corners.front_left)).toEqual(['contact_load', 'contact_point', 'wheel_travel', 'ride_height', 'camber', 'toe']);
    expect(Object.keys(out.body)).toEqual(['heave', 'pitch', 'roll']);
    expect(out.vehicle.cg).toHaveLength(3);
    const fz = ['front_left', 'front_right', 'rear_left', 'rear_right'].reduce((s, c) => s + out.corners[c].contact_load[2], 0);
    expect(fz / (out.vehicle.mass * 9.80665)).toBeCloseTo(1, 9);
    expect(Object.keys(out.elements)).toContain('front_left_spring');
  });

  it('refuses bad input in one line with exit 1', async () => {
    const tmp = tempFolder();
    try {
      const file = tmp.file('bad.vehicle.yaml');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(file, sedanWith('mass: 600 ', 'mass: -5 ').replaceAll('../suspension/', `${process.cwd()}/examples/suspension/`));
      const run = await kinemate(['vehicle', file, '--static']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(/bad\.vehicle\.yaml.*body\.mass: must be positive/);
    } finally { tmp.remove(); }
  });
});
