import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  SuspensionFileError,
  mirrorHardpoints,
  optionalHardpoints,
  parseGeometry,
  requiredHardpoints,
  tireRadius,
  validateGeometry,
  type FileProblem,
  type Point3,
} from '../../../src/suspension/files';

const examples = new URL('../../../examples/suspension/', import.meta.url);
const exampleText = (name: string): string => readFileSync(new URL(name, examples), 'utf8');

type Doc = Record<string, unknown>;

/** The mapping at a dotted path of a parsed document. */
function at(doc: Doc, path: string): Doc {
  let node: unknown = doc;
  for (const key of path.split('.')) node = (node as Doc)[key];
  return node as Doc;
}

/**
 * An example file parsed to plain data, with edits applied: each key is a dotted path,
 * each value the new value, `undefined` deleting the field.
 */
function example(name: string, edits: Record<string, unknown> = {}): Doc {
  const doc = parse(exampleText(name)) as Doc;
  for (const [path, value] of Object.entries(edits)) {
    const keys = path.split('.');
    const last = keys.pop() as string;
    const parent = keys.length === 0 ? doc : at(doc, keys.join('.'));
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return doc;
}

/** The problems of the SuspensionFileError that `run` throws (fails the test otherwise). */
function problemsOf(run: () => unknown): readonly FileProblem[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SuspensionFileError);
    return (error as SuspensionFileError).problems;
  }
  throw new Error('expected a SuspensionFileError');
}

/** Asserts exactly one problem, at `path`, whose message contains `message`, and the error text. */
function expectSingleProblem(run: () => unknown, path: string, message: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(SuspensionFileError);
  const error = thrown as SuspensionFileError;
  expect(error.problems).toHaveLength(1);
  expect(error.path).toBe(path);
  expect(error.problems[0].path).toBe(path);
  expect(error.problems[0].message).toContain(message);
  expect(error.message.startsWith(`${path}: `)).toBe(true);
}

describe('validateGeometry problems (one per kind, path and message)', () => {
  const DW = 'double_wishbone.yaml';

  it('missing hardpoint (corner)', () => {
    const doc = example(DW, { 'hardpoints.upper_wishbone_outboard': undefined });
    expectSingleProblem(() => validateGeometry(doc), 'hardpoints.upper_wishbone_outboard', 'missing hardpoint');
  });

  it('missing hardpoint (axle) names the side', () => {
    const doc = example('double_wishbone_axle.yaml', { 'hardpoints.left.upper_wishbone_outboard': undefined });
    expect(() => validateGeometry(doc)).toThrow('hardpoints.left.upper_wishbone_outboard: missing hardpoint');
  });

  it('missing strut points when a spring is fitted to a direct double wishbone', () => {
    const doc = example(DW, { spring: { type: 'coilover' } });
    expect(problemsOf(() => validateGeometry(doc)).map((problem) => problem.path)).toEqual(['hardpoints.strut_bottom', 'hardpoints.strut_top']);
  });

  it('unknown hardpoint, with a did-you-mean hint', () => {
    const doc = example(DW, { 'hardpoints.upper_wishbone_outboard': undefined, 'hardpoints.upper_wishbone_outbord': { x: -25, y: 750, z: 500 } });
    expect(problemsOf(() => validateGeometry(doc))).toEqual([
      {
        path: 'hardpoints.upper_wishbone_outbord',
        message: 'unknown hardpoint for a double_wishbone with direct actuation and spring none (did you mean upper_wishbone_outboard?)',
      },
      { path: 'hardpoints.upper_wishbone_outboard', message: 'missing hardpoint' },
    ]);
  });

  it('unknown hardpoint: a trackrod on an unsteered trailing arm', () => {
    const doc = example('trailing_arm.yaml', { 'hardpoints.trackrod_inboard': { x: 0, y: 0, z: 0 } });
    expectSingleProblem(() => validateGeometry(doc), 'hardpoints.trackrod_inboard', 'unknown hardpoint for a trailing_arm');
  });

  it('a hardpoint named __proto__ is just an unknown name', () => {
    const text = exampleText(DW).replace('hardpoints:\n', 'hardpoints:\n  __proto__: { x: 0, y: 0, z: 0 }\n');
    expect(problemsOf(() => parseGeometry(text))).toEqual([
      { path: 'hardpoints.__proto__', message: 'unknown hardpoint for a double_wishbone with direct actuation and spring none' },
    ]);
  });

  it('non-numeric coordinate', () => {
    const doc = example(DW, { 'hardpoints.lower_wishbone_outboard.z': '200' });
    expectSingleProblem(() => validateGeometry(doc), 'hardpoints.lower_wishbone_outboard.z', 'expected a number, got the string "200"');
  });

  it('non-finite coordinates written as YAML .nan and .inf', () => {
    const text = exampleText(DW)
      .replace('axle_inboard: { x: -20, y: 800, z: 308.426 }', 'axle_inboard: { x: .nan, y: 800, z: 308.426 }')
      .replace('axle_outboard: { x: -20, y: 950, z: 313.426 }', 'axle_outboard: { x: -20, y: -.inf, z: 313.426 }');
    expect(problemsOf(() => parseGeometry(text))).toEqual([
      { path: 'hardpoints.axle_inboard.x', message: 'not a finite number (got NaN)' },
      { path: 'hardpoints.axle_outboard.y', message: 'not a finite number (got -Infinity)' },
    ]);
  });

  it('missing and unknown coordinates, and list points of the wrong length', () => {
    const doc = example(DW, { 'hardpoints.trackrod_inboard': { x: 50, y: 200, w: 250 }, 'hardpoints.trackrod_outboard': [150, 800] });
    expect(problemsOf(() => validateGeometry(doc))).toEqual([
      { path: 'hardpoints.trackrod_inboard.w', message: 'unknown coordinate (expected x, y and z)' },
      { path: 'hardpoints.trackrod_inboard.z', message: 'missing coordinate' },
      { path: 'hardpoints.trackrod_outboard', message: 'expected 3 coordinates [x, y, z], got 2' },
    ]);
  });

  it('coincident pivots: wishbone inboard front = rear', () => {
    const doc = example(DW, { 'hardpoints.lower_wishbone_inboard_rear': { x: 250, y: 400, z: 200 } });
    expectSingleProblem(
      () => validateGeometry(doc),
      'hardpoints.lower_wishbone_inboard_rear',
      'coincident pivots: same point as lower_wishbone_inboard_front, so the lower wishbone pivot axis is undefined',
    );
  });

  it('coincident pivots: rocker axis a = b', () => {
    const doc = example('double_wishbone_pushrod.yaml', { 'hardpoints.rocker_axis_b': { x: 100, y: 340, z: 450 } });
    expectSingleProblem(
      () => validateGeometry(doc),
      'hardpoints.rocker_axis_b',
      'coincident pivots: same point as rocker_axis_a, so the rocker axis is undefined',
    );
  });

  it('coincident pivots: trailing arm pivots', () => {
    const doc = example('trailing_arm.yaml', { 'hardpoints.trailing_arm_pivot_b': { x: 1000, y: 500, z: 300 } });
    expectSingleProblem(
      () => validateGeometry(doc),
      'hardpoints.trailing_arm_pivot_b',
      'coincident pivots: same point as trailing_arm_pivot_a, so the trailing arm pivot axis is undefined',
    );
  });

  it('collinear wishbone points', () => {
    // On the extension of the upper inboard front–rear line (both at y 350, z 500).
    const doc = example(DW, { 'hardpoints.upper_wishbone_outboard': { x: -600, y: 350, z: 500 } });
    expectSingleProblem(
      () => validateGeometry(doc),
      'hardpoints.upper_wishbone_outboard',
      'collinear points: on the line through upper_wishbone_inboard_front and upper_wishbone_inboard_rear, so the upper wishbone has no plane',
    );
  });

  it('collinear rocker: pushrod_inboard on the rocker axis', () => {
    const doc = example('double_wishbone_pushrod.yaml', { 'hardpoints.pushrod_inboard': { x: 0, y: 340, z: 450 } });
    expectSingleProblem(() => validateGeometry(doc), 'hardpoints.pushrod_inboard', 'so the pushrod cannot turn the rocker');
  });

  it('unsupported combination: pushrod_rocker on a macpherson', () => {
    const doc = example('macpherson.yaml', { actuation: { type: 'pushrod_rocker', mount: 'upright' } });
    expectSingleProblem(
      () => validateGeometry(doc),
      'actuation.type',
      'unsupported combination: pushrod_rocker is supported on a double_wishbone only, not a macpherson',
    );
  });

  it('unsupported combination: torsion_bar without a rocker', () => {
    const doc = example(DW, { spring: { type: 'torsion_bar' } });
    expectSingleProblem(
      () => validateGeometry(doc),
      'spring.type',
      'unsupported combination: torsion_bar needs pushrod_rocker or pullrod_rocker actuation, not direct',
    );
  });

  it('torsion_bar on a rocker is accepted', () => {
    const doc = example('double_wishbone_pushrod.yaml', { spring: { type: 'torsion_bar' } });
    expect(validateGeometry(doc).spring).toEqual({ type: 'torsion_bar' });
  });

  it('unsupported combination: rack steering on a trailing arm', () => {
    const doc = example('trailing_arm.yaml', { 'config.steering': { type: 'rack' } });
    expectSingleProblem(() => validateGeometry(doc), 'config.steering.type', 'unsupported combination: a trailing_arm is unsteered (use none)');
  });

  it('unsupported mount for the actuation', () => {
    const doc = example('double_wishbone_pushrod.yaml', { 'actuation.mount': 'upper_wishbone' });
    expectSingleProblem(
      () => validateGeometry(doc),
      'actuation.mount',
      'unsupported mount "upper_wishbone" for pushrod_rocker actuation on a double_wishbone (expected lower_wishbone or upright)',
    );
  });

  it('units other than millimetres are refused; millimeters, mm or none are accepted', () => {
    expectSingleProblem(
      () => validateGeometry(example(DW, { units: 'inches' })),
      'units',
      'unsupported units "inches": geometry files are in millimetres (millimeters or mm)',
    );
    for (const units of ['millimeters', 'mm', undefined]) expect(() => validateGeometry(example(DW, { units }))).not.toThrow();
  });

  it('unknown topology type', () => {
    expectSingleProblem(
      () => validateGeometry(example(DW, { type: 'de_dion' })),
      'type',
      'unknown topology "de_dion" (expected double_wishbone, macpherson, multi_link, trailing_arm or solid_axle)',
    );
  });

  it('unknown actuation and spring types', () => {
    const doc = example(DW, { 'actuation.type': 'hydraulic', 'spring.type': 'leaf' });
    expect(problemsOf(() => validateGeometry(doc))).toEqual([
      { path: 'actuation.type', message: 'unknown actuation type "hydraulic" (expected direct, pushrod_rocker or pullrod_rocker)' },
      { path: 'spring.type', message: 'unknown spring type "leaf" (expected none, coilover or torsion_bar)' },
    ]);
  });

  it('bad side', () => {
    expectSingleProblem(() => validateGeometry(example(DW, { side: 'centre' })), 'side', 'unknown side "centre" (expected left or right)');
  });

  it('unknown scope', () => {
    expectSingleProblem(() => validateGeometry(example(DW, { scope: 'car' })), 'scope', 'unknown scope "car" (expected corner or axle)');
  });

  it('tyre aspect ratio given as a percentage', () => {
    expectSingleProblem(
      () => validateGeometry(example(DW, { 'config.wheel.tire.aspect_ratio': 55 })),
      'config.wheel.tire.aspect_ratio',
      'must be a fraction in (0, 1.5], e.g. 0.55 for a 55-series tyre (got 55)',
    );
  });

  it('missing wheel', () => {
    expectSingleProblem(() => validateGeometry(example(DW, { 'config.wheel': undefined })), 'config.wheel', 'missing wheel');
  });

  it('vehicle config out of range (axle paths)', () => {
    const doc = example('double_wishbone_axle.yaml', { 'vehicle_config.front_brake_bias': 1.2, 'vehicle_config.driven_axle': 'all' });
    expect(problemsOf(() => validateGeometry(doc))).toEqual([
      { path: 'vehicle_config.front_brake_bias', message: 'must be a fraction in [0, 1] (got 1.2)' },
      { path: 'vehicle_config.driven_axle', message: 'unknown axle "all" (expected front or rear)' },
    ]);
  });

  it('an anti-roll bar without a rocker to drive it is refused', () => {
    const doc = example('double_wishbone_axle.yaml', { 'axle_config.anti_roll': { type: 'u_bar' } });
    expectSingleProblem(() => validateGeometry(doc), 'axle_config.anti_roll.type', 'unsupported combination: an anti-roll bar u_bar needs pushrod_rocker');
  });

  it('axle hardpoints without a left side, or with another key', () => {
    const left = at(example('double_wishbone_axle.yaml'), 'hardpoints.left');
    const doc = example('double_wishbone_axle.yaml', { hardpoints: { front: left } });
    expect(problemsOf(() => validateGeometry(doc))).toEqual([
      { path: 'hardpoints.front', message: 'unexpected key: an axle file gives hardpoints under left (and optionally right), axle-level points under center' },
      { path: 'hardpoints.left', message: 'missing hardpoints for the left corner' },
    ]);
  });

  it('a document that is not a mapping', () => {
    expectSingleProblem(() => parseGeometry('- 1\n- 2\n'), '(root)', 'expected a mapping (a geometry file), got a list');
  });

  it('syntax errors and duplicate keys are reported by line and column, with the file name kept apart', () => {
    const text = 'type: double_wishbone\ntype: macpherson\n';
    expectSingleProblem(() => parseGeometry(text, 'bad.yaml'), 'line 2, column 1', 'Map keys must be unique');
    expect(() => parseGeometry(text, 'bad.yaml')).toThrow(expect.objectContaining({ fileName: 'bad.yaml' }));
  });

  it('collects every problem into one error, one line each', () => {
    const doc = example(DW, { units: 'm', side: 'middle', 'hardpoints.axle_inboard': undefined, 'hardpoints.axle_outboard.x': null });
    let thrown: unknown;
    try {
      validateGeometry(doc);
    } catch (error) {
      thrown = error;
    }
    const error = thrown as SuspensionFileError;
    expect(error.problems.map((problem) => problem.path)).toEqual(['units', 'side', 'hardpoints.axle_outboard.x', 'hardpoints.axle_inboard']);
    expect(error.message.split('\n')).toEqual(error.problems.map((problem) => `${problem.path}: ${problem.message}`));
    expect(error.path).toBe('units');
  });
});

describe('normalised geometry', () => {
  it('tyre radius of a 270/55R13 is 313.6 mm, of a 205/55R16 315.95 mm', () => {
    expect(parseGeometry(exampleText('double_wishbone.yaml')).wheel.tire_radius).toBeCloseTo(313.6, 12);
    expect(tireRadius({ aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 })).toBeCloseTo(313.6, 12);
    expect(parseGeometry(exampleText('multi_link.yaml')).wheel.tire_radius).toBeCloseTo(315.95, 12);
  });

  it('a corner file normalises to one corner with its side, points as [x, y, z]', () => {
    const geometry = parseGeometry(exampleText('double_wishbone.yaml'));
    expect(geometry.scope).toBe('corner');
    expect(geometry.topology).toBe('double_wishbone');
    expect(geometry.corners).toHaveLength(1);
    expect(geometry.corners[0].side).toBe('left');
    expect(geometry.corners[0].hardpoints.axle_outboard).toEqual([-20, 950, 313.426]);
    expect(geometry.vehicle).toEqual({ cg_position: [1250, 0, 450], wheelbase: 2500 });
    expect(geometry).toMatchObject({
      axle_position: 'front',
      steering: 'rack',
      actuation: { type: 'direct', mount: 'lower_wishbone' },
      spring: { type: 'none' },
      wheel: { offset: 0, tire: { aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 } },
    });
  });

  it('defaults: side left, direct actuation on the first mount, no spring, rack on a front axle, none on a rear one', () => {
    const edits = { side: undefined, units: undefined, actuation: undefined, spring: undefined, 'config.steering': undefined };
    const front = validateGeometry(example('double_wishbone.yaml', edits));
    expect(front.corners[0].side).toBe('left');
    expect(front.actuation).toEqual({ type: 'direct', mount: 'lower_wishbone' });
    expect(front.spring).toEqual({ type: 'none' });
    expect(front.steering).toBe('rack');
    expect(validateGeometry(example('double_wishbone.yaml', { ...edits, 'config.axle_position': 'rear' })).steering).toBe('none');
    const trailing = example('trailing_arm.yaml', { 'config.steering': undefined, 'config.axle_position': undefined, actuation: undefined });
    expect(validateGeometry(trailing)).toMatchObject({ steering: 'none', axle_position: 'rear', actuation: { mount: 'trailing_arm' } });
  });

  it('steering may be written as a bare word', () => {
    expect(validateGeometry(example('double_wishbone.yaml', { 'config.steering': 'none' })).steering).toBe('none');
  });

  it('points may be written as [x, y, z] lists', () => {
    const doc = example('double_wishbone.yaml');
    const hardpoints = at(doc, 'hardpoints');
    for (const [name, point] of Object.entries(hardpoints as Record<string, { x: number; y: number; z: number }>)) {
      hardpoints[name] = [point.x, point.y, point.z];
    }
    expect(validateGeometry(doc).corners).toEqual(parseGeometry(exampleText('double_wishbone.yaml')).corners);
  });

  it('an axle file with only a left side mirrors it to the right, y -> -y', () => {
    const axle = parseGeometry(exampleText('double_wishbone_axle.yaml'));
    const corner = parseGeometry(exampleText('double_wishbone.yaml'));
    expect(axle.scope).toBe('axle');
    expect(axle.corners.map((c) => c.side)).toEqual(['left', 'right']);
    expect(axle.corners[0].hardpoints).toEqual(corner.corners[0].hardpoints);
    expect(Object.keys(axle.corners[1].hardpoints)).toEqual(Object.keys(corner.corners[0].hardpoints));
    for (const [name, [x, y, z]] of Object.entries(corner.corners[0].hardpoints)) {
      expect(axle.corners[1].hardpoints[name]).toEqual([x, -y, z]);
    }
    expect(axle.vehicle).toEqual({ cg_position: [1250, 0, 450], wheelbase: 2500, front_brake_bias: 0.6, driven_axle: 'front' });
  });

  it('an explicit right side is taken as written and validated on its own path', () => {
    const axle = parseGeometry(exampleText('multi_link_axle.yaml'));
    expect(axle.corners[1].hardpoints.strut_bottom).toEqual([-4.7, -754.45, 200.85]);
    const doc = example('multi_link_axle.yaml', { 'hardpoints.right.axle_inboard': undefined });
    expect(() => validateGeometry(doc)).toThrow('hardpoints.right.axle_inboard: missing hardpoint');
  });

  it('mirroring twice is the identity, and y = 0 mirrors to +0', () => {
    // + 0 turns -0 into +0: the mirror deliberately never produces -0.
    const coordinate = fc.double({ min: -1e4, max: 1e4, noNaN: true }).map((x) => x + 0);
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.tuple(coordinate, coordinate, coordinate)), (points) => {
        expect(mirrorHardpoints(mirrorHardpoints(points as Record<string, Point3>))).toEqual(points);
      }),
    );
    expect(Object.is(mirrorHardpoints({ p: [1, 0, 2] }).p[1], 0)).toBe(true);
  });

  it('YAML and JSON give the same result', () => {
    for (const name of ['double_wishbone.yaml', 'double_wishbone_axle.yaml', 'multi_link_axle.yaml', 'trailing_arm.yaml']) {
      const fromYaml = parseGeometry(exampleText(name));
      const json = JSON.stringify(fromYaml.raw, null, '\t');
      expect(parseGeometry(json, name.replace('.yaml', '.json'))).toEqual(fromYaml);
      expect(validateGeometry(JSON.parse(json))).toEqual(fromYaml);
    }
  });
});

describe('hardpoint catalogue', () => {
  it('double wishbone, direct, no spring', () => {
    expect(requiredHardpoints('double_wishbone', 'direct', 'none', 'rack')).toEqual([
      'lower_wishbone_inboard_front',
      'lower_wishbone_inboard_rear',
      'lower_wishbone_outboard',
      'upper_wishbone_inboard_front',
      'upper_wishbone_inboard_rear',
      'upper_wishbone_outboard',
      'trackrod_inboard',
      'trackrod_outboard',
      'axle_inboard',
      'axle_outboard',
    ]);
    expect(optionalHardpoints('double_wishbone', 'direct', 'none', 'rack')).toEqual(['strut_bottom', 'strut_top']);
  });

  it('pushrod rocker adds the rod, the rocker axis and the strut', () => {
    const base = requiredHardpoints('double_wishbone', 'direct', 'none', 'rack');
    const rocker = requiredHardpoints('double_wishbone', 'pushrod_rocker', 'coilover', 'rack');
    expect(rocker.filter((name) => !base.includes(name))).toEqual([
      'pushrod_outboard',
      'pushrod_inboard',
      'rocker_axis_a',
      'rocker_axis_b',
      'strut_bottom',
      'strut_top',
    ]);
    expect(optionalHardpoints('double_wishbone', 'pushrod_rocker', 'none', 'rack')).toEqual([]);
  });

  it('steering none keeps the track rod as a fixed toe link', () => {
    expect(requiredHardpoints('double_wishbone', 'direct', 'none', 'none')).toEqual(requiredHardpoints('double_wishbone', 'direct', 'none', 'rack'));
  });

  it('macpherson, multi-link and trailing arm', () => {
    expect(requiredHardpoints('macpherson', 'direct', 'none', 'rack')).toContain('strut_top');
    expect(requiredHardpoints('multi_link', 'direct', 'coilover', 'rack')).toHaveLength(14);
    expect(requiredHardpoints('multi_link', 'direct', 'none', 'rack')).toHaveLength(12);
    expect(requiredHardpoints('trailing_arm', 'direct', 'coilover', 'none')).toEqual([
      'trailing_arm_pivot_a',
      'trailing_arm_pivot_b',
      'trailing_arm_outboard',
      'axle_inboard',
      'axle_outboard',
      'strut_bottom',
      'strut_top',
    ]);
  });
});
