import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SuspensionFileError,
  parseGeometry,
  parseSweep,
  sweepFromShortcut,
  sweepValues,
  validateSweep,
  type FileProblem,
  type Geometry,
} from '../../../src/suspension/files';

const examples = new URL('../../../examples/suspension/', import.meta.url);
const geometry = (name: string): Geometry => parseGeometry(readFileSync(new URL(name, examples), 'utf8'));
const doubleWishbone = geometry('double_wishbone.yaml');
const trailingArm = geometry('trailing_arm.yaml');
const axle = geometry('double_wishbone_axle.yaml');

const bumpTarget = { type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', start: -50, stop: 50 };
const rackHold = { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, hold: true };
const sweep = (...targets: unknown[]): Record<string, unknown> => ({ version: 1, steps: 11, targets });

function problemsOf(run: () => unknown): readonly FileProblem[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SuspensionFileError);
    return (error as SuspensionFileError).problems;
  }
  throw new Error('expected a SuspensionFileError');
}

describe('validateSweep problems (path and message)', () => {
  it.each(['wheel_contact_centre', 'wheel_inboard', 'wheel_outboard', 'axle_midpoint'])('output-only point %s', (point) => {
    expect(problemsOf(() => validateSweep(sweep({ ...bumpTarget, point }, rackHold)))).toEqual([
      { path: 'targets[0].point', message: `${point} is output only and cannot be a sweep target (drive wheel_center instead)` },
    ]);
  });

  it('wheel_center and hardpoints are valid targets', () => {
    expect(validateSweep(sweep(bumpTarget, rackHold), doubleWishbone).targets[0]).toMatchObject({ point: 'wheel_center' });
    const ballJoint = { ...bumpTarget, point: 'lower_wishbone_outboard' };
    expect(validateSweep(sweep(ballJoint), doubleWishbone).targets[0]).toMatchObject({ point: 'lower_wishbone_outboard' });
  });

  it('unknown point, checked against the geometry when given', () => {
    const target = { ...bumpTarget, point: 'pushrod_outboard' };
    expect(() => validateSweep(sweep(target))).not.toThrow(); // some topology has it
    expect(problemsOf(() => validateSweep(sweep(target), doubleWishbone))).toEqual([
      { path: 'targets[0].point', message: 'unknown point: the geometry has no pushrod_outboard' },
    ]);
    expect(problemsOf(() => validateSweep(sweep({ ...bumpTarget, point: 'hub' })))).toEqual([
      { path: 'targets[0].point', message: 'unknown point hub' },
    ]);
  });

  it('duplicated rack target', () => {
    const steer = { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, start: -30, stop: 30 };
    expect(problemsOf(() => validateSweep(sweep(bumpTarget, steer, rackHold)))).toEqual([
      { path: 'targets[2]', message: 'duplicated rack target: targets[1] already drives or holds this coordinate' },
    ]);
  });

  it('duplicated point coordinate, a sideless target overlapping a sided one', () => {
    expect(problemsOf(() => validateSweep(sweep(bumpTarget, { ...bumpTarget, side: 'left' })))).toEqual([
      { path: 'targets[1]', message: 'duplicated target: targets[0] already drives or holds this coordinate' },
    ]);
    // Left and right of an axle are different coordinates.
    expect(() => validateSweep(sweep({ ...bumpTarget, side: 'left' }, { ...bumpTarget, side: 'right' }), axle)).not.toThrow();
  });

  it('a target with neither hold nor start/stop', () => {
    const { start, stop, ...motionless } = bumpTarget;
    void start;
    void stop;
    expect(problemsOf(() => validateSweep(sweep(motionless)))).toEqual([{ path: 'targets[0]', message: 'needs hold: true or start and stop' }]);
  });

  it('a target with start but no stop', () => {
    expect(problemsOf(() => validateSweep(sweep({ ...bumpTarget, stop: undefined })))).toEqual([
      { path: 'targets[0].stop', message: 'missing number' },
    ]);
  });

  it('a target with both hold and start/stop', () => {
    expect(problemsOf(() => validateSweep(sweep({ ...rackHold, start: 0, stop: 1 })))).toEqual([
      { path: 'targets[0]', message: 'both hold: true and start/stop: a target either holds or moves' },
    ]);
  });

  it.each([
    [0, 'must be a whole number of states from 1 to 10001 (both ends included) (got 0)'],
    [2.5, 'must be a whole number of states from 1 to 10001 (both ends included) (got 2.5)'],
    [10002, 'must be a whole number of states from 1 to 10001 (both ends included) (got 10002)'],
    ['11', 'expected a number, got the string "11"'],
  ])('steps %s', (steps, message) => {
    expect(problemsOf(() => validateSweep({ ...sweep(bumpTarget), steps }))).toEqual([{ path: 'steps', message }]);
  });

  it('version other than 1, and a missing version', () => {
    expect(problemsOf(() => validateSweep({ ...sweep(bumpTarget), version: 2 }))).toEqual([
      { path: 'version', message: 'unsupported version 2 (expected 1)' },
    ]);
    expect(problemsOf(() => validateSweep({ ...sweep(bumpTarget), version: undefined }))).toEqual([
      { path: 'version', message: 'missing version (expected 1)' },
    ]);
  });

  it('unknown target type, bad axis, bad mode', () => {
    const problems = problemsOf(() =>
      validateSweep(sweep({ type: 'force' }, { ...bumpTarget, direction: { axis: 'w' } }, { ...bumpTarget, mode: 'delta' })),
    );
    expect(problems).toEqual([
      { path: 'targets[0].type', message: 'unknown target type "force" (expected point, actuator_position, element_length or roll)' },
      { path: 'targets[1].direction.axis', message: 'unknown axis "w" (expected x, y or z)' },
      { path: 'targets[2].mode', message: 'unknown mode "delta" (expected relative or absolute)' },
    ]);
  });

  it('the rack moves only along y', () => {
    expect(problemsOf(() => validateSweep(sweep({ ...rackHold, direction: { axis: 'x' } })))).toEqual([
      { path: 'targets[0].direction.axis', message: 'unknown axis "x" (expected y)' },
    ]);
  });

  it('empty or missing target list', () => {
    expect(problemsOf(() => validateSweep(sweep()))).toEqual([{ path: 'targets', message: 'at least one target is needed' }]);
    expect(problemsOf(() => validateSweep({ version: 1, steps: 3 }))).toEqual([{ path: 'targets', message: 'missing list of targets' }]);
  });

  it('driving a rack the geometry lacks; holding it is dropped', () => {
    const steer = { type: 'actuator_position', actuator: 'rack', start: -30, stop: 30 };
    expect(problemsOf(() => validateSweep(sweep(steer), trailingArm))).toEqual([
      { path: 'targets[0].actuator', message: 'the geometry has no rack (steering none)' },
    ]);
    expect(validateSweep(sweep(bumpTarget, rackHold), trailingArm).targets.map((target) => target.type)).toEqual(['point']);
  });

  it('a damper target on a geometry without a damper', () => {
    const damper = { type: 'element_length', element: 'damper', start: -10, stop: 10 };
    expect(problemsOf(() => validateSweep(sweep(damper), doubleWishbone))).toEqual([
      { path: 'targets[0].element', message: 'the geometry has no damper (strut_bottom, strut_top)' },
    ]);
    expect(validateSweep(sweep(damper), trailingArm).targets[0]).toEqual({
      type: 'element_length',
      element: 'damper',
      mode: 'relative',
      hold: false,
      start: -10,
      stop: 10,
    });
  });

  it('a side the geometry does not have', () => {
    expect(problemsOf(() => validateSweep(sweep({ ...bumpTarget, side: 'right' }), doubleWishbone))).toEqual([
      { path: 'targets[0].side', message: 'the geometry has no right corner' },
    ]);
  });

  it('a roll target on a corner', () => {
    expect(problemsOf(() => validateSweep(sweep({ type: 'roll', start: -2, stop: 2 }), doubleWishbone))).toEqual([
      { path: 'targets[0].type', message: 'a roll target needs an axle geometry' },
    ]);
  });

  it('suspension hold: default, catalogue, unknown', () => {
    expect(validateSweep(sweep(bumpTarget)).analysis.virtual_steering.suspension_hold).toBe('layout_default');
    const withHold = (hold: string): Record<string, unknown> => ({ ...sweep(bumpTarget), analysis: { virtual_steering: { suspension_hold: hold } } });
    expect(validateSweep(withHold('upper_wishbone_angle'), doubleWishbone).analysis.virtual_steering.suspension_hold).toBe('upper_wishbone_angle');
    expect(problemsOf(() => validateSweep(withHold('damper_length'), doubleWishbone))).toEqual([
      {
        path: 'analysis.virtual_steering.suspension_hold',
        message: 'unknown hold "damper_length" for a double_wishbone (expected layout_default, lower_wishbone_angle, upper_wishbone_angle, contact_patch or wheel_center_height)',
      },
    ]);
    expect(validateSweep(withHold('contact_patch'), doubleWishbone).analysis.virtual_steering.suspension_hold).toBe('contact_patch');
  });

  it('collects every problem into one error', () => {
    const error = (() => {
      try {
        parseSweep('version: 3\nsteps: 0\ntargets:\n  - { type: point, point: wheel_contact_centre, direction: { axis: z }, start: 0, stop: 1 }\n');
      } catch (caught) {
        return caught as SuspensionFileError;
      }
      throw new Error('expected a SuspensionFileError');
    })();
    expect(error.problems.map((problem) => problem.path)).toEqual(['version', 'steps', 'targets[0].point']);
    expect(error.message.split('\n')).toHaveLength(3);
  });
});

describe('normalised sweep', () => {
  it('holds become relative 0 → 0 with hold: true; point target fields are kept', () => {
    const spec = validateSweep(sweep({ ...bumpTarget, side: 'left' }, rackHold), doubleWishbone);
    expect(spec).toEqual({
      version: 1,
      steps: 11,
      targets: [
        { type: 'point', point: 'wheel_center', side: 'left', direction: { axis: 'z' }, mode: 'relative', hold: false, start: -50, stop: 50 },
        { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', hold: true, start: 0, stop: 0 },
      ],
      analysis: { virtual_steering: { suspension_hold: 'layout_default' } },
    });
  });

  it('sweepValues spaces values evenly from start to stop', () => {
    expect(sweepValues({ mode: 'relative', hold: false, start: -50, stop: 50 }, 11)).toEqual([-50, -40, -30, -20, -10, 0, 10, 20, 30, 40, 50]);
    expect(sweepValues({ mode: 'relative', hold: false, start: 5, stop: 9 }, 1)).toEqual([5]);
  });
});

describe('sweepFromShortcut', () => {
  it('--bump: wheel_center z relative, rack held', () => {
    expect(sweepFromShortcut('bump', '-50:50:11').targets).toEqual([
      { type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', hold: false, start: -50, stop: 50 },
      { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', hold: true, start: 0, stop: 0 },
    ]);
  });

  it('--bump on an unsteered geometry drops the rack hold', () => {
    expect(sweepFromShortcut('bump', '-50:50:11', trailingArm).targets.map((target) => target.type)).toEqual(['point']);
  });

  it('--steer: rack relative, wheel_center z held', () => {
    const spec = sweepFromShortcut('steer', '-30:30:7', doubleWishbone);
    expect(spec.steps).toBe(7);
    expect(spec.targets).toEqual([
      { type: 'actuator_position', actuator: 'rack', direction: { axis: 'y' }, mode: 'relative', hold: false, start: -30, stop: 30 },
      { type: 'point', point: 'wheel_center', direction: { axis: 'z' }, mode: 'relative', hold: true, start: 0, stop: 0 },
    ]);
  });

  it('--roll: a roll target in degrees, rack held, axles only', () => {
    expect(sweepFromShortcut('roll', '-3:3:13', axle).targets[0]).toEqual({ type: 'roll', mode: 'relative', hold: false, start: -3, stop: 3 });
    expect(problemsOf(() => sweepFromShortcut('roll', '-3:3:13', doubleWishbone))).toEqual([
      { path: '--roll', message: 'a roll target needs an axle geometry' },
    ]);
  });

  it('--steer on an unsteered geometry names the flag', () => {
    expect(() => sweepFromShortcut('steer', '-30:30:7', trailingArm)).toThrow('--steer: the geometry has no rack (steering none)');
  });

  it.each(['-50:50', '-50:50:11:2', 'a:50:11', '-50::11', '-50:50:0', '-50:50:2.5', '-50:50:x', ''])('malformed spec %j', (spec) => {
    expect(problemsOf(() => sweepFromShortcut('bump', spec))).toEqual([
      { path: '--bump', message: `expected A:B:N (N states from A to B, both ends included; N a whole number from 2 to 10001, or 1 when A = B), got ${JSON.stringify(spec)}` },
    ]);
  });

  it('any finite A, B and whole N from 2 to 10001 (1 when A = B) round-trips', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((x) => x + 0);
    fc.assert(
      fc.property(finite, finite, fc.integer({ min: 1, max: 10_001 }), (start, b, steps) => {
        const stop = steps === 1 ? start : b;
        const spec = sweepFromShortcut('bump', `${start}:${stop}:${steps}`);
        expect(spec.steps).toBe(steps);
        expect(spec.targets[0]).toMatchObject({ start, stop });
      }),
    );
  });
});
