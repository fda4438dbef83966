import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssemblyError,
  parseAssembly,
  serializeAssembly,
  validateAssembly,
  type AssemblyDoc,
  type PoseDoc,
  type QuatDoc,
  type Vec3Doc,
} from '../../src/assembly/index.ts';
import { edit, errorOf, expectSameNumbers, fixture, fixtureText, numbersOf } from './helpers.ts';

describe('serializeAssembly', () => {
  it('round-trips the four-bar bit-exactly', () => {
    const text = fixtureText('four-bar');
    const doc = parseAssembly(text);
    const saved = serializeAssembly(doc);
    const again = parseAssembly(saved);
    expect(again).toEqual(doc);
    // Against the numbers as JSON.parse reads the original file, and in the same order.
    const original = numbersOf(JSON.parse(text));
    expectSameNumbers(numbersOf(again), original);
    expect(original.some((n) => Object.is(n, -0))).toBe(true);
    expect(original).toContain(1e-310);
  });

  it('is a fixed point after one save', () => {
    for (const name of ['four-bar', 'kitchen-sink'] as const) {
      const once = serializeAssembly(parseAssembly(fixtureText(name)));
      expect(serializeAssembly(parseAssembly(once))).toBe(once);
    }
  });

  it('writes -0 as -0, and subnormals and extremes exactly', () => {
    const saved = serializeAssembly(parseAssembly(fixtureText('kitchen-sink')));
    expect(saved).toContain('"Q": [-0, 0, 1e-300]');
    expect(saved).toContain('[200, 5e-324, -0]');
    expect(saved).toContain('"j2.slide": -0');
  });

  it('keeps the pose as read, not normalised', () => {
    const saved = serializeAssembly(parseAssembly(fixtureText('kitchen-sink')));
    expect(saved).toContain('"pose": { "position": [1.5, -2.25, 3], "rotation": [2, 0, 0, 0] }');
  });

  it('keeps keys in the order they were read, unknown fields included', () => {
    const doc = fixture('four-bar');
    const reordered = { held: doc.held, 'x-tool': { b: 1, a: 2 }, ...doc, units: { angle: 'rad', length: 'mm' } };
    const saved = serializeAssembly(validateAssembly(reordered));
    expect(Object.keys(JSON.parse(saved))).toEqual(Object.keys(reordered));
    expect(saved).toContain('"units": { "angle": "rad", "length": "mm" }');
    expect(saved).toContain('"x-tool": { "b": 1, "a": 2 }');
  });

  it('writes 2-space indented JSON ending in a newline, short lists on one line', () => {
    const saved = serializeAssembly(parseAssembly(fixtureText('four-bar')));
    expect(saved.endsWith('}\n')).toBe(true);
    expect(saved.split('\n')[1]).toBe('  "format": "kinemate.assembly/1",');
    expect(saved).toContain('\n  "held": ["jA.angle"]\n');
    expect(saved.split('\n').every((line) => line.length <= 100)).toBe(true);
    expect(JSON.parse(saved)).toEqual(JSON.parse(fixtureText('four-bar')));
  });

  it('refuses to write a document that would not load', () => {
    const doc = edit(fixture('four-bar'), ['parts', 'crank', 'pose', 'position', 2], NaN) as unknown as AssemblyDoc;
    const error = errorOf(() => serializeAssembly(doc));
    expect(error).toBeInstanceOf(AssemblyError);
    expect(error.message).toBe('parts.crank.pose.position[2]: expected a finite number, got NaN');
  });
});

// ---- random documents: save then load is bit-exact ----

/** Every finite double, with the awkward ones (signed zeros, subnormals, extremes) drawn often. */
const anyFinite = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    -0, 0, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, Number.MAX_VALUE, -Number.MAX_VALUE,
    Number.EPSILON, 0.1, 1 / 3, 1e21, 1e-7, 123456789012345680000,
  ),
);
const vec3: fc.Arbitrary<Vec3Doc> = fc.tuple(anyFinite, anyFinite, anyFinite);
const nonZero = (v: readonly number[]): boolean => v.some((x) => x !== 0);
const rotation: fc.Arbitrary<QuatDoc> = fc.tuple(anyFinite, anyFinite, anyFinite, anyFinite).filter(nonZero);
const direction = vec3.filter(nonZero);
const pose: fc.Arbitrary<PoseDoc> = fc.record({ position: vec3, rotation });
const range = fc.tuple(anyFinite, anyFinite).map(([x, y]): [number, number] => (x <= y ? [x, y] : [y, x]));

const randomAssembly = fc
  .record({
    groundPose: pose,
    bodyPose: pose,
    statePose: pose,
    point: vec3,
    frame: fc.record({ origin: vec3, rotation }),
    axis: fc.record({ origin: vec3, direction }),
    plane: fc.record({ origin: vec3, normal: direction }),
    circle: fc.record({
      center: vec3,
      normal: direction,
      radius: anyFinite.filter((r) => r > 0),
    }),
    polyline: fc.array(vec3, { minLength: 2, maxLength: 5 }),
    angleLimit: range,
    slideLimit: range,
    angle: anyFinite,
    slide: anyFinite,
    distance: anyFinite,
    ratio: anyFinite,
    offset: anyFinite,
    extra: fc.array(anyFinite, { maxLength: 4 }),
  })
  .map(
    (r): AssemblyDoc => ({
      format: 'kinemate.assembly/1',
      units: { length: 'mm', angle: 'deg' },
      parts: {
        ground: {
          fixed: true,
          pose: r.groundPose,
          frames: { f: r.frame },
          planes: { floor: r.plane },
          curves: { track: { polyline: r.polyline, closed: true } },
        },
        body: {
          pose: r.bodyPose,
          points: { p: r.point },
          frames: { f: r.frame },
          axes: { shaft: r.axis },
          circles: { rim: r.circle },
        },
      },
      mates: {
        hinge: { type: 'cylindrical', a: 'ground.f', b: 'body.f', limits: { angle: r.angleLimit, slide: r.slideLimit } },
        gap: { type: 'distance', a: 'ground.floor', b: 'body.p', value: r.distance },
        roll: { type: 'tangent', a: 'body.rim', b: 'ground.track' },
        lead: { type: 'linear', a: 'hinge.angle', b: 'hinge.slide', ratio: r.ratio, offset: r.offset },
      },
      state: { 'hinge.angle': r.angle, 'hinge.slide': r.slide, 'body.pose': r.statePose },
      held: ['hinge.angle'],
      'x-extra': r.extra,
    }),
  );

describe('save → load on random documents', () => {
  it('reproduces every number bit-exactly, -0 and subnormals included', () => {
    fc.assert(
      fc.property(randomAssembly, (doc) => {
        const saved = serializeAssembly(doc);
        const loaded = parseAssembly(saved);
        expectSameNumbers(numbersOf(loaded), numbersOf(doc));
        expect(serializeAssembly(loaded)).toBe(saved);
      }),
      { numRuns: 500 },
    );
  });
});
