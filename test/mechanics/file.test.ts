/** Mass, gravity and force elements in the assembly file: strict loading, exact saving (dynamics.md). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AssemblyError, parseAssembly, serializeAssembly, validateAssembly } from '../../src/assembly/index.ts';
import { numbersOf, expectSameNumbers } from '../assembly/helpers.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Doc = { [key: string]: Json };

/** Every force type, scale and mass field in one document. */
export function kitchenSink(): Doc {
  return {
    format: 'kinemate.assembly/1',
    units: { length: 'mm', angle: 'deg', mass: 'kg', time: 's', force: 'N' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
        points: { top: [0, 0, 500] }, frames: { f: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } } },
      arm: { pose: { position: [0.1, -0, 100], rotation: [0.9, 0.1, 0, 0.3] },
        points: { p: [10, 0, 0], q: [0, 5e-324, 0] }, frames: { f: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } },
        axes: { spin: { origin: [0, 0, 0], direction: [0, 1, 0] } },
        mass: { mass: 12.5, centre: [1.25, -0, 3], inertia: [[90000, -120.5, 0], [-120.5, 60000, 0], [0, 0, 70000]] } },
    },
    mates: { j: { type: 'revolute', a: 'ground.f', b: 'arm.f' } },
    state: { 'j.angle': 0.1 },
    held: [],
    gravity: [0, 0, -9806.65],
    forces: {
      s1: { type: 'spring', a: 'ground.top', b: 'arm.p', stiffness: 16.5, length: 380, preload: -0 },
      s2: { type: 'spring', a: 'ground.top', b: 'arm.p', curve: [[300, -100], [400, 0.1], [500, 1e3]] },
      d1: { type: 'damper', a: 'ground.top', b: 'arm.q', damping: 1.5 },
      d2: { type: 'damper', a: 'ground.top', b: 'arm.q', curve: [[-1000, -500], [0, 0], [1000, 800]] },
      sd: { type: 'springdamper', a: 'ground.top', b: 'arm.p', stiffness: 30, length: 400, damping: 2 },
      b1: { type: 'bushing', a: 'ground.f', b: 'arm.f', stiffness: [1000, 1000, 500], rotational_stiffness: [1e5, 1e5, 0], damping: [1, 1, 1], rotational_damping: [0, 0, 0] },
      c1: { type: 'coordinate_spring', coordinate: 'j.angle', stiffness: 2000, free: 5, damping: 0.25 },
      f1: { type: 'force', at: 'arm.p', vector: [0, 0, -100], frame: 'part', scale: { table: [[0, 0], [1, 1]] } },
      t1: { type: 'torque', part: 'arm', vector: [0, 1e4, 0], scale: { sine: { amplitude: 1, frequency: 2, phase: 90, offset: 0.5 } } },
      ty: { type: 'tyre', centre: 'arm.q', axis: 'arm.spin', radius: 300, stiffness: 160, damping: 0.5, ground: -0 },
    },
  };
}

function errorOf(doc: unknown): AssemblyError {
  let caught: unknown;
  try { validateAssembly(doc); } catch (e) { caught = e; }
  expect(caught).toBeInstanceOf(AssemblyError);
  // the same from the text, as a file arrives
  let fromText: unknown;
  try { parseAssembly(JSON.stringify(doc)); } catch (e) { fromText = e; }
  expect((fromText as AssemblyError).path).toBe((caught as AssemblyError).path);
  return caught as AssemblyError;
}

function edited(change: (doc: any) => void): Doc {
  const doc = kitchenSink();
  change(doc);
  return doc;
}

describe('mass and forces in the file', () => {
  it('load → save → load keeps every number bit for bit and saves the same text twice', () => {
    const doc = kitchenSink();
    const text = serializeAssembly(validateAssembly(doc));
    const again = parseAssembly(text);
    expect(serializeAssembly(again)).toBe(text);
    expectSameNumbers(numbersOf(again), numbersOf(validateAssembly(doc)));
    expect(Object.is((again.forces!.s1 as { preload: number }).preload, -0)).toBe(true);
    expect((again.parts.arm.points!.q as readonly number[])[1]).toBe(5e-324);
  });

  it('a file without mass and forces loads and saves exactly as before', () => {
    for (const name of ['slider-crank', 'four-bar', 'cam']) {
      const text = readFileSync(`examples/${name}.kinemate.json`, 'utf8');
      const doc = parseAssembly(text);
      expect(doc.forces).toBeUndefined();
      expect(doc.gravity).toBeUndefined();
      expect(serializeAssembly(doc)).toBe(text);
    }
  });

  it('the quarter-car example loads and saves to the same text', () => {
    const text = readFileSync('examples/quarter-car.kinemate.json', 'utf8');
    expect(serializeAssembly(parseAssembly(text))).toBe(text);
  });

  const bad: [string, (doc: any) => void, string, RegExp][] = [
    ['zero mass', (d) => { d.parts.arm.mass.mass = 0; }, 'parts.arm.mass.mass', /positive/],
    ['negative mass', (d) => { d.parts.arm.mass.mass = -1; }, 'parts.arm.mass.mass', /positive/],
    ['inertia not symmetric', (d) => { d.parts.arm.mass.inertia[1][0] = 5; }, 'parts.arm.mass.inertia[0][1]', /not symmetric/],
    ['inertia not PSD', (d) => { d.parts.arm.mass.inertia = [[1, 0, 0], [0, -1, 0], [0, 0, 1]]; }, 'parts.arm.mass.inertia', /semi-definite/],
    ['inertia breaks the triangle inequality', (d) => { d.parts.arm.mass.inertia = [[1, 0, 0], [0, 1, 0], [0, 0, 3]]; }, 'parts.arm.mass.inertia', /triangle/],
    ['inertia off-diagonal makes it break the triangle inequality', (d) => { d.parts.arm.mass.inertia = [[2, 1.9, 0], [1.9, 2, 0], [0, 0, 4.5]]; }, 'parts.arm.mass.inertia', /triangle/],
    ['inertia not 3×3', (d) => { d.parts.arm.mass.inertia = [[1, 0, 0], [0, 1, 0]]; }, 'parts.arm.mass.inertia', /3×3/],
    ['unknown mass field', (d) => { d.parts.arm.mass.density = 1; }, 'parts.arm.mass.density', /unknown field/],
    ['non-finite gravity', (d) => { d.gravity = [0, 0, 'x']; }, 'gravity[2]', /number/],
    ['bad mass unit', (d) => { d.units.mass = 'g'; }, 'units.mass', /"kg"/],
    ['unknown force type', (d) => { d.forces.s1.type = 'rope'; }, 'forces.s1.type', /unknown force element type/],
    ['missing point', (d) => { d.forces.s1.b = 'arm.nowhere'; }, 'forces.s1.b', /no entity "nowhere"/],
    ['missing part', (d) => { d.forces.t1.part = 'wing'; }, 'forces.t1.part', /no part "wing"/],
    ['a frame where a point belongs', (d) => { d.forces.s1.b = 'arm.f'; }, 'forces.s1.b', /needs a point/],
    ['missing coordinate', (d) => { d.forces.c1.coordinate = 'j.slide'; }, 'forces.c1.coordinate', /no coordinate "slide"/],
    ['negative damping', (d) => { d.forces.d1.damping = -1; }, 'forces.d1.damping', /negative/],
    ['negative bushing damping', (d) => { d.forces.b1.damping[2] = -1; }, 'forces.b1.damping[2]', /negative/],
    ['negative coordinate damping', (d) => { d.forces.c1.damping = -0.1; }, 'forces.c1.damping', /negative/],
    ['spring with no stiffness', (d) => { delete d.forces.s1.stiffness; }, 'forces.s1.stiffness', /missing/],
    ['spring with curve and stiffness', (d) => { d.forces.s2.stiffness = 3; }, 'forces.s2.curve', /either curve/],
    ['curve not increasing', (d) => { d.forces.s2.curve[2][0] = 350; }, 'forces.s2.curve[2][0]', /increase/],
    ['non-finite stiffness (text null)', (d) => { d.forces.s1.stiffness = null; }, 'forces.s1.stiffness', /number/],
    ['zero-length spring axis at the file pose', (d) => { d.forces.s1.a = 'arm.p'; }, 'forces.s1.b', /coincide/],
    ['damper with both damping and curve', (d) => { d.forces.d2.damping = 1; }, 'forces.d2.damping', /either/],
    ['tyre axis on another part', (d) => { d.parts.ground.axes = { up: { origin: [0, 0, 0], direction: [0, 0, 1] } }; d.forces.ty.axis = 'ground.up'; }, 'forces.ty.axis', /wheel's part/],
    ['tyre radius zero', (d) => { d.forces.ty.radius = 0; }, 'forces.ty.radius', /positive/],
    ['bad frame word', (d) => { d.forces.f1.frame = 'body'; }, 'forces.f1.frame', /"world" or "part"/],
    ['bad scale', (d) => { d.forces.f1.scale = { table: [[0, 0]] }; }, 'forces.f1.scale.table', /at least 2/],
    ['sine without frequency', (d) => { delete d.forces.t1.scale.sine.frequency; }, 'forces.t1.scale.sine.frequency', /missing/],
    ['unknown field in an element', (d) => { d.forces.s1.rate = 3; }, 'forces.s1.rate', /unknown field/],
    ['bushing on one part', (d) => { d.forces.b1.a = 'arm.f'; }, 'forces.b1.b', /same part/],
  ];
  for (const [title, change, path, reason] of bad) {
    it(`refuses ${title}, naming ${path}, and changes nothing`, () => {
      const doc = edited(change);
      const before = JSON.stringify(doc);
      const error = errorOf(doc);
      expect(error.path).toBe(path);
      expect(error.message).toMatch(reason);
      expect(JSON.stringify(doc)).toBe(before);
    });
  }
});
