import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AssemblyError,
  CONSTRAINT_TYPES,
  CONTACT_TYPES,
  COUPLING_TYPES,
  JOINT_TYPES,
  parseAssembly,
  serializeAssembly,
  validateAssembly,
} from '../../src/assembly/index.ts';
import { edit, errorOf, expectSameNumbers, fixture, fixtureText, numbersOf, type Json } from './helpers.ts';

type Doc = { [key: string]: Json };
type FixtureName = 'four-bar' | 'kitchen-sink';

/**
 * Loads the edited fixture both as text (as a file arrives) and as an object in
 * memory, and expects the same error from both.
 */
function expectError(doc: Doc, path: string, reason: string): void {
  for (const load of [() => parseAssembly(JSON.stringify(doc)), () => validateAssembly(doc)]) {
    const error = errorOf(load);
    expect(error.path).toBe(path);
    expect(error.reason).toBe(reason);
    expect(error.message).toBe(`${path}: ${reason}`);
  }
}

interface Case {
  readonly title: string;
  readonly from: FixtureName;
  readonly change: (doc: Doc) => void;
  readonly path: string;
  readonly reason: string;
}

const ALL_MATE_TYPES = [...CONSTRAINT_TYPES, ...JOINT_TYPES, ...COUPLING_TYPES, ...CONTACT_TYPES].join(', ');

const cases: readonly Case[] = [
  // format and units
  { title: 'missing format', from: 'four-bar', change: (d) => edit(d, ['format'], undefined),
    path: 'format', reason: 'missing; expected "kinemate.assembly/1"' },
  { title: 'another format version', from: 'four-bar', change: (d) => edit(d, ['format'], 'kinemate.assembly/2'),
    path: 'format', reason: 'unsupported format "kinemate.assembly/2"; expected "kinemate.assembly/1"' },
  { title: 'format not a string', from: 'four-bar', change: (d) => edit(d, ['format'], 1),
    path: 'format', reason: 'got 1; expected "kinemate.assembly/1"' },
  { title: 'missing units', from: 'four-bar', change: (d) => edit(d, ['units'], undefined),
    path: 'units', reason: 'missing; expected { "length": "mm", "angle": "deg" }' },
  { title: 'length unit other than mm', from: 'four-bar', change: (d) => edit(d, ['units', 'length'], 'm'),
    path: 'units.length', reason: 'unsupported length unit "m"; only "mm" is supported' },
  { title: 'missing length unit', from: 'four-bar', change: (d) => edit(d, ['units', 'length'], undefined),
    path: 'units.length', reason: 'missing; expected "mm"' },
  { title: 'angle unit other than deg or rad', from: 'four-bar', change: (d) => edit(d, ['units', 'angle'], 'grad'),
    path: 'units.angle', reason: 'unsupported angle unit "grad"; expected "deg" or "rad"' },
  { title: 'name not a string', from: 'four-bar', change: (d) => edit(d, ['name'], 5),
    path: 'name', reason: 'expected a string, got 5' },

  // objects where objects belong
  { title: 'missing parts', from: 'four-bar', change: (d) => edit(d, ['parts'], undefined),
    path: 'parts', reason: 'missing; an assembly needs a parts object' },
  { title: 'parts as an array', from: 'four-bar', change: (d) => edit(d, ['parts'], []),
    path: 'parts', reason: 'expected an object of parts, got an array' },
  { title: 'a part that is a number', from: 'four-bar', change: (d) => edit(d, ['parts', 'crank'], 3),
    path: 'parts.crank', reason: 'expected a part object, got 3' },
  { title: 'a part without a pose', from: 'four-bar', change: (d) => edit(d, ['parts', 'crank', 'pose'], undefined),
    path: 'parts.crank.pose', reason: 'missing; every part needs a pose' },
  { title: 'a pose that is a string', from: 'four-bar', change: (d) => edit(d, ['parts', 'crank', 'pose'], 'identity'),
    path: 'parts.crank.pose', reason: 'expected a pose { position, rotation }, got the string "identity"' },
  { title: 'an entity group that is an array', from: 'four-bar', change: (d) => edit(d, ['parts', 'crank', 'frames'], []),
    path: 'parts.crank.frames', reason: 'expected an object of frames, got an array' },
  { title: 'mates as null', from: 'four-bar', change: (d) => edit(d, ['mates'], null),
    path: 'mates', reason: 'expected an object of mates, got null' },
  { title: 'a mate that is null', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB'], null),
    path: 'mates.jB', reason: 'expected a mate object, got null' },
  { title: 'suspension that is not an object', from: 'four-bar', change: (d) => edit(d, ['suspension'], [1]),
    path: 'suspension', reason: 'expected an object, got an array' },
  { title: 'an unknown field in a part', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'postion'], [0, 0, 0]),
    path: 'parts.crank.postion',
    reason: 'unknown field "postion" in a part; expected fixed, pose, points, frames, axes, planes, circles, curves, mass, geometry' },
  { title: 'an unknown field in a pose', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'scale'], 1),
    path: 'parts.crank.pose.scale', reason: 'unknown field "scale" in a pose; expected position, rotation' },

  // numbers
  { title: 'a string for a number', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'position', 1], '1'),
    path: 'parts.crank.pose.position[1]', reason: 'expected a number, got the string "1"' },
  { title: 'the string "NaN"', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'coupler', 'points', 'mid', 2], 'NaN'),
    path: 'parts.coupler.points.mid[2]', reason: 'expected a number, got the string "NaN"' },
  { title: 'the string "Infinity"', from: 'four-bar', change: (d) => edit(d, ['state', 'jA.angle'], 'Infinity'),
    path: 'state.jA.angle', reason: 'expected a number, got the string "Infinity"' },
  { title: 'null for a number', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'rotation', 0], null),
    path: 'parts.crank.pose.rotation[0]', reason: 'expected a number, got null' },
  { title: 'a boolean that is a string', from: 'four-bar', change: (d) => edit(d, ['parts', 'ground', 'fixed'], 'yes'),
    path: 'parts.ground.fixed', reason: 'expected true or false, got the string "yes"' },

  // arrays and vectors
  { title: 'a position with 2 numbers', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'position'], [0, 0]),
    path: 'parts.crank.pose.position', reason: 'expected 3 numbers [x, y, z], got 2' },
  { title: 'a rotation with 3 numbers', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'rotation'], [1, 0, 0]),
    path: 'parts.crank.pose.rotation', reason: 'expected 4 numbers [w, x, y, z], got 3' },
  { title: 'a position that is an object', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'position'], { x: 0 }),
    path: 'parts.crank.pose.position', reason: 'expected [x, y, z], got an object' },
  { title: 'a point with 4 numbers', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'coupler', 'points', 'mid'], [1, 2, 3, 4]),
    path: 'parts.coupler.points.mid', reason: 'expected 3 numbers [x, y, z], got 4' },
  { title: 'a zero quaternion in a pose', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'crank', 'pose', 'rotation'], [0, 0, -0, 0]),
    path: 'parts.crank.pose.rotation', reason: 'quaternion [0, 0, 0, 0] has zero length; a rotation must be non-zero' },
  { title: 'a zero quaternion in a frame', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'ground', 'frames', 'pivotA', 'rotation'], [0, 0, 0, 0]),
    path: 'parts.ground.frames.pivotA.rotation',
    reason: 'quaternion [0, 0, 0, 0] has zero length; a rotation must be non-zero' },
  { title: 'a zero quaternion in a state pose', from: 'four-bar',
    change: (d) => edit(d, ['state', 'crank.pose', 'rotation'], [0, 0, 0, 0]),
    path: 'state.crank.pose.rotation', reason: 'quaternion [0, 0, 0, 0] has zero length; a rotation must be non-zero' },
  { title: 'a zero axis direction', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'axes', 'rail', 'direction'], [0, 0, 0]),
    path: 'parts.ground.axes.rail.direction', reason: '[0, 0, 0] has zero length; a direction must be non-zero' },
  { title: 'a zero plane normal', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'body', 'planes', 'face', 'normal'], [0, 0, 0]),
    path: 'parts.body.planes.face.normal', reason: '[0, 0, 0] has zero length; a direction must be non-zero' },
  { title: 'a zero circle normal', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'circles', 'rim', 'normal'], [0, 0, 0]),
    path: 'parts.ground.circles.rim.normal', reason: '[0, 0, 0] has zero length; a direction must be non-zero' },
  { title: 'a zero radius', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'circles', 'rim', 'radius'], 0),
    path: 'parts.ground.circles.rim.radius', reason: 'radius must be positive, got 0' },
  { title: 'a negative radius', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'circles', 'rim', 'radius'], -1),
    path: 'parts.ground.circles.rim.radius', reason: 'radius must be positive, got -1' },
  { title: 'a curve of one point', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'curves', 'track', 'polyline'], [[0, 0, 0]]),
    path: 'parts.ground.curves.track.polyline', reason: 'a polyline needs at least 2 points, got 1' },
  { title: 'a curve point of 2 numbers', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'curves', 'track', 'polyline', 1], [1, 2]),
    path: 'parts.ground.curves.track.polyline[1]', reason: 'expected 3 numbers [x, y, z], got 2' },
  { title: 'a curve without a polyline', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'body', 'curves', 'slot', 'polyline'], undefined),
    path: 'parts.body.curves.slot.polyline', reason: 'missing' },

  // ids
  { title: 'the same id for a part and a mate', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'crank'], { type: 'revolute', a: 'ground.pivotA', b: 'crank.base' }),
    path: 'mates.crank', reason: 'id "crank" is already used by a part; part and mate ids must differ' },
  { title: 'the same entity name twice in a part', from: 'kitchen-sink',
    change: (d) => edit(d, ['parts', 'ground', 'frames', 'A'], { origin: [0, 0, 0], rotation: [1, 0, 0, 0] }),
    path: 'parts.ground.frames.A',
    reason: 'part "ground" already has a point named "A"; entity names must be unique within a part' },
  { title: 'a part id with a dot', from: 'four-bar',
    change: (d) => edit(d, ['parts', 'a.b'], { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] } }),
    path: 'parts.a.b',
    reason: 'part id "a.b" must not contain "." (it separates the halves of "part.entity" and "mate.coordinate")' },
  { title: 'an empty entity name', from: 'four-bar', change: (d) => edit(d, ['parts', 'coupler', 'points', ''], [0, 0, 0]),
    path: 'parts.coupler.points.', reason: 'an entity id must not be empty' },

  // mate types and references
  { title: 'an unknown mate type', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'type'], 'hinge'),
    path: 'mates.jB.type', reason: `unknown mate type "hinge"; expected one of ${ALL_MATE_TYPES}` },
  { title: 'a mate without a type', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'type'], undefined),
    path: 'mates.jB.type', reason: 'missing; every mate needs a type' },
  { title: 'a reference without a dot', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'b'], 'coupler'),
    path: 'mates.jB.b', reason: '"coupler" is not a reference; expected "part.entity"' },
  { title: 'a reference that is not a string', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'a'], 7),
    path: 'mates.jB.a', reason: 'expected a reference "part.entity", got 7' },
  { title: 'a missing reference', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'b'], undefined),
    path: 'mates.jB.b', reason: 'missing' },
  { title: 'a reference to a missing part', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'b'], 'nope.a'),
    path: 'mates.jB.b', reason: 'no part "nope"' },
  { title: 'a reference to a part named like an Object method', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'jB', 'b'], 'constructor.a'),
    path: 'mates.jB.b', reason: 'no part "constructor"' },
  { title: 'a reference to a mate where a part belongs', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'jB', 'b'], 'jA.angle'),
    path: 'mates.jB.b', reason: '"jA" is a mate, not a part' },
  { title: 'a reference to a missing entity', from: 'four-bar',
    change: (d) => {
      // The contract's own example: the rocker has no "tip".
      const frames = (d.parts as Doc).rocker as Doc;
      edit(frames, ['frames', 'end'], (frames.frames as Doc).tip);
      edit(frames, ['frames', 'tip'], undefined);
      edit(d, ['mates', 'jC', 'b'], 'rocker.end');
      edit(d, ['mates', 'tie'], { type: 'distance', a: 'coupler.mid', b: 'rocker.tip', value: 1800 });
    },
    path: 'mates.tie.b', reason: 'no entity "tip" on part "rocker"' },
  { title: 'a mate between two entities of one part', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'jB', 'b'], 'crank.base'),
    path: 'mates.jB.b', reason: 'a and b are both on part "crank"; a mate joins two different parts' },

  // entity kinds
  { title: 'a revolute on a point', from: 'four-bar', change: (d) => edit(d, ['mates', 'jB', 'b'], 'coupler.mid'),
    path: 'mates.jB.b', reason: 'a revolute joint joins frames or axes; "coupler.mid" is a point' },
  { title: 'a slider on a plane', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'j2', 'a'], 'ground.floor'),
    path: 'mates.j2.a', reason: 'a slider joint joins frames or axes; "ground.floor" is a plane' },
  { title: 'a ball on an axis', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'j7', 'b'], 'body.shaft'),
    path: 'mates.j7.b', reason: 'a ball joint joins frames and points; "body.shaft" is an axis' },
  { title: 'a distance to a circle', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c7', 'b'], 'body.hole'),
    path: 'mates.c7.b', reason: 'a distance mate joins point–point, point–plane or point–axis; "body.hole" is a circle' },
  { title: 'a distance between two planes', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c7', 'b'], 'body.face'),
    path: 'mates.c7.b', reason: 'a distance mate joins point–point, point–plane or point–axis, not plane–plane' },
  { title: 'a coincident point and circle', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c1', 'b'], 'body.hole'),
    path: 'mates.c1.b',
    reason: 'a coincident mate joins point–point, point–plane, point–axis, axis–axis or plane–plane; "body.hole" is a circle' },
  { title: 'a coincident axis and plane', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c3', 'b'], 'body.face'),
    path: 'mates.c3.b',
    reason: 'a coincident mate joins point–point, point–plane, point–axis, axis–axis or plane–plane, not axis–plane' },
  { title: 'a concentric point', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c4', 'b'], 'body.P'),
    path: 'mates.c4.b', reason: 'a concentric mate joins axes, circles and frames; "body.P" is a point' },
  { title: 'a parallel circle', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c5', 'a'], 'ground.rim'),
    path: 'mates.c5.a', reason: 'a parallel mate joins axes, planes and frames; "ground.rim" is a circle' },
  { title: 'a perpendicular point', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c6', 'b'], 'body.P'),
    path: 'mates.c6.b', reason: 'a perpendicular mate joins axes, planes and frames; "body.P" is a point' },
  { title: 'an angle to a curve', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c8', 'b'], 'body.slot'),
    path: 'mates.c8.b', reason: 'an angle mate joins axes, planes and frames; "body.slot" is a curve' },
  { title: 'a tangent to an axis', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c9', 'b'], 'ground.rail'),
    path: 'mates.c9.b', reason: 'a tangent mate joins circle–plane or circle–curve; "ground.rail" is an axis' },
  { title: 'a tangent between two circles', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c9', 'b'], 'ground.rim'),
    path: 'mates.c9.b', reason: 'a tangent mate joins circle–plane or circle–curve, not circle–circle' },
  { title: 'a path on a frame', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'p1', 'a'], 'body.f'),
    path: 'mates.p1.a', reason: 'a path mate joins a point to a curve; "body.f" is a frame' },
  { title: 'a path between two points', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'p1', 'b'], 'ground.A'),
    path: 'mates.p1.b', reason: 'a path mate joins a point to a curve, not point–point' },

  // mate fields
  { title: 'a distance without a value', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c7', 'value'], undefined),
    path: 'mates.c7.value', reason: 'missing; a distance mate needs a value' },
  { title: 'a negative point–point distance', from: 'kitchen-sink',
    change: (d) => edit(d, ['mates', 'c7'], { type: 'distance', a: 'ground.A', b: 'body.P', value: -1 }),
    path: 'mates.c7.value', reason: 'a point–point distance cannot be negative, got -1' },
  { title: 'an angle with a string value', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c8', 'value'], '45'),
    path: 'mates.c8.value', reason: 'expected a number, got the string "45"' },
  { title: 'limits on a constraint', from: 'kitchen-sink',
    change: (d) => edit(d, ['mates', 'c1', 'limits'], { angle: [0, 1] }),
    path: 'mates.c1.limits', reason: 'unknown field "limits" in a coincident mate; expected type, a, b, flip' },
  { title: 'a flip that is a number', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'c4', 'flip'], 1),
    path: 'mates.c4.flip', reason: 'expected true or false, got 1' },

  // limits
  { title: 'a limit with lower above upper', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'jA', 'limits', 'angle'], [45, -30]),
    path: 'mates.jA.limits.angle', reason: 'lower limit 45 is above upper limit -30' },
  { title: 'a limit on a coordinate the joint lacks', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'jA', 'limits', 'slide'], [0, 10]),
    path: 'mates.jA.limits.slide', reason: 'a revolute joint has no slide coordinate; its coordinates are angle' },
  { title: 'a limit on a joint without coordinates', from: 'kitchen-sink',
    change: (d) => edit(d, ['mates', 'j7', 'limits'], { angle: [0, 1] }),
    path: 'mates.j7.limits.angle', reason: 'a ball joint has no angle coordinate; it has no coordinates' },
  { title: 'a limit of three numbers', from: 'four-bar',
    change: (d) => edit(d, ['mates', 'jA', 'limits', 'angle'], [0, 1, 2]),
    path: 'mates.jA.limits.angle', reason: 'expected 2 numbers [lower, upper], got 3' },

  // couplings
  { title: 'a coupling on a mate that frees nothing', from: 'kitchen-sink',
    change: (d) => edit(d, ['mates', 'g1', 'b'], 'c1.angle'),
    path: 'mates.g1.b', reason: 'mate "c1" (coincident) frees no coordinates' },
  { title: 'a coupling on a coupling', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'b'], 'g2.angle'),
    path: 'mates.g1.b', reason: 'mate "g2" (belt) frees no coordinates' },
  { title: 'a coupling on a coordinate the joint lacks', from: 'kitchen-sink',
    change: (d) => edit(d, ['mates', 'g1', 'b'], 'j1.slide'),
    path: 'mates.g1.b', reason: 'mate "j1" (revolute) has no coordinate "slide"; it frees angle' },
  { title: 'a coupling on a missing mate', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'a'], 'nope.angle'),
    path: 'mates.g1.a', reason: 'no mate "nope"' },
  { title: 'a coupling on a part', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'a'], 'body.angle'),
    path: 'mates.g1.a', reason: '"body" is a part, not a mate' },
  { title: 'a coupling coordinate without a dot', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'a'], 'j1'),
    path: 'mates.g1.a', reason: '"j1" is not a coordinate; expected "mate.coordinate", e.g. "jA.angle"' },
  { title: 'a coupling of a coordinate with itself', from: 'kitchen-sink',
    change: (d) => edit(d, ['mates', 'g1', 'b'], 'j1.angle'),
    path: 'mates.g1.b', reason: 'a and b are the same coordinate "j1.angle"' },
  { title: 'a gear on a slide', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'b'], 'j2.slide'),
    path: 'mates.g1.b', reason: 'a gear coupling couples two angles; "j2.slide" is a slide' },
  { title: 'a rack and pinion of two angles', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g3', 'b'], 'j3.angle'),
    path: 'mates.g3.b', reason: 'a rackpinion coupling couples an angle with a slide; both are angles' },
  { title: 'a screw of two slides', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g4', 'b'], 'j5.slideX'),
    path: 'mates.g4.b', reason: 'a screw coupling couples an angle with a slide; neither is an angle' },
  { title: 'a screw on a path parameter', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g4', 'a'], 'p1.u'),
    path: 'mates.g4.a', reason: 'a screw coupling couples an angle with a slide; "p1.u" is a path parameter' },
  { title: 'a gear without a ratio', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'ratio'], undefined),
    path: 'mates.g1.ratio', reason: 'missing; a gear coupling needs a ratio' },
  { title: 'a gear with a radius', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g1', 'radius'], 5),
    path: 'mates.g1.radius', reason: 'unknown field "radius" in a gear coupling; expected type, a, b, ratio, offset' },
  { title: 'a rack and pinion of zero radius', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g3', 'radius'], 0),
    path: 'mates.g3.radius', reason: 'radius must be positive, got 0' },
  { title: 'a screw of zero lead', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g4', 'lead'], -0),
    path: 'mates.g4.lead', reason: 'lead must not be zero' },
  { title: 'an offset that is a string', from: 'kitchen-sink', change: (d) => edit(d, ['mates', 'g4', 'offset'], 'NaN'),
    path: 'mates.g4.offset', reason: 'expected a number, got the string "NaN"' },

  // state and held
  { title: 'a state key without a dot', from: 'four-bar', change: (d) => edit(d, ['state', 'crank'], 1),
    path: 'state.crank', reason: '"crank" is neither a coordinate ("mate.angle") nor a part pose ("part.pose")' },
  { title: 'a state key naming nothing', from: 'four-bar', change: (d) => edit(d, ['state', 'nope.angle'], 1),
    path: 'state.nope.angle', reason: '"nope.angle" is neither a coordinate ("mate.angle") nor a part pose ("part.pose")' },
  { title: 'a state key on a coordinate the joint lacks', from: 'four-bar', change: (d) => edit(d, ['state', 'jA.slide'], 1),
    path: 'state.jA.slide', reason: 'mate "jA" (revolute) has no coordinate "slide"; it frees angle' },
  { title: 'a state key on a part other than its pose', from: 'four-bar', change: (d) => edit(d, ['state', 'crank.angle'], 1),
    path: 'state.crank.angle', reason: '"crank.angle" names part "crank"; a part\'s state entry is "crank.pose"' },
  { title: 'a state coordinate that is a string', from: 'four-bar', change: (d) => edit(d, ['state', 'jA.angle'], '30'),
    path: 'state.jA.angle', reason: 'expected a number, got the string "30"' },
  { title: 'a state pose that is a number', from: 'four-bar', change: (d) => edit(d, ['state', 'crank.pose'], 5),
    path: 'state.crank.pose', reason: 'expected a pose { position, rotation }, got 5' },
  { title: 'held that is not an array', from: 'four-bar', change: (d) => edit(d, ['held'], { 'jA.angle': true }),
    path: 'held', reason: 'expected an array of coordinates, got an object' },
  { title: 'a held part pose', from: 'four-bar', change: (d) => edit(d, ['held', 1], 'crank.pose'),
    path: 'held[1]', reason: '"crank" is a part, not a mate' },
  { title: 'a held coordinate the joint lacks', from: 'four-bar', change: (d) => edit(d, ['held', 0], 'jA.slide'),
    path: 'held[0]', reason: 'mate "jA" (revolute) has no coordinate "slide"; it frees angle' },
  { title: 'a coordinate held twice', from: 'four-bar', change: (d) => edit(d, ['held', 1], 'jA.angle'),
    path: 'held[1]', reason: '"jA.angle" is already held' },
  { title: 'a held entry that is a number', from: 'four-bar', change: (d) => edit(d, ['held', 0], 3),
    path: 'held[0]', reason: 'expected a coordinate "mate.coordinate", got 3' },
];

describe('validation messages', () => {
  it.each(cases.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const doc = fixture(c.from);
    c.change(doc);
    expectError(doc, c.path, c.reason);
  });

  it('refuses a top level that is not an object', () => {
    expectError([1] as unknown as Doc, '$', 'expected a JSON object at the top level, got an array');
  });

  it('refuses text that is not JSON, naming line and column', () => {
    const error = errorOf(() => parseAssembly('{\n  "format": "kinemate.assembly/1",\n  "units": { "length": "mm", }\n}'));
    expect(error.path).toBe('$');
    expect(error.message).toBe('$: invalid JSON at line 3, column 30: unexpected "}", expected a key in double quotes');
    expect([error.line, error.column]).toEqual([3, 30]);
  });

  it('refuses empty text', () => {
    expect(errorOf(() => parseAssembly('')).message).toBe(
      '$: invalid JSON at line 1, column 1: unexpected end of text, expected a value',
    );
  });

  it('refuses truncated text', () => {
    const text = fixtureText('four-bar');
    const error = errorOf(() => parseAssembly(text.slice(0, 200)));
    expect(error.path).toBe('$');
    expect(error.reason).toMatch(/^invalid JSON at line \d+, column \d+: /);
  });

  it('refuses a number too large for a double, at its path', () => {
    const text = fixtureText('four-bar').replace('"position": [300, 0, 0]', '"position": [1e400, 0, 0]');
    const error = errorOf(() => parseAssembly(text));
    expect(error.path).toBe('parts.rocker.pose.position[0]');
    expect(error.reason).toBe('number 1e400 at line 30, column 30 is too large for a double');
  });

  it('refuses a duplicate key in the text, at its path and line', () => {
    const text = fixtureText('four-bar').replace('"rocker": {', '"crank": {');
    const error = errorOf(() => parseAssembly(text));
    expect(error.path).toBe('parts.crank');
    expect(error.reason).toBe('duplicate key "crank" at line 29, column 5');
  });

  it('refuses a duplicate mate id in the text', () => {
    const text = fixtureText('four-bar').replace('"jC": {', '"jB": {');
    expect(errorOf(() => parseAssembly(text)).path).toBe('mates.jB');
  });

  it('refuses a duplicate field inside a mate in the text', () => {
    const text = fixtureText('four-bar').replace('"a": "crank.tip"', '"b": "crank.tip"');
    const error = errorOf(() => parseAssembly(text));
    expect(error.path).toBe('mates.jB.b');
    expect(error.reason).toMatch(/^duplicate key "b" at line \d+, column \d+$/);
  });

  it('refuses a duplicate top-level key in the text', () => {
    const text = fixtureText('four-bar').replace('"name": "four-bar"', '"format": "kinemate.assembly/1"');
    expect(errorOf(() => parseAssembly(text)).path).toBe('format');
  });

  it('refuses text that is not a string', () => {
    expect(errorOf(() => parseAssembly(42 as unknown as string)).message).toBe(
      '$: expected the text of a JSON document, got 42',
    );
  });

  // JSON text cannot hold these, but a document built in code can.
  it.each([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
  ])('refuses %s in memory', (text, value) => {
    const doc = edit(fixture('four-bar'), ['parts', 'crank', 'pose', 'position', 0], value);
    const error = errorOf(() => validateAssembly(doc));
    expect(error.message).toBe(`parts.crank.pose.position[0]: expected a finite number, got ${text}`);
  });

  it('refuses NaN in an unknown top-level field and in the suspension section', () => {
    const extra = edit(fixture('kitchen-sink'), ['x-editor', 'camera', 1], NaN);
    expect(errorOf(() => validateAssembly(extra)).message).toBe('x-editor.camera[1]: expected a finite number, got NaN');
    const suspension = edit(fixture('kitchen-sink'), ['suspension', 'vehicle', 'wheelbase'], Infinity);
    expect(errorOf(() => validateAssembly(suspension)).message).toBe(
      'suspension.vehicle.wheelbase: expected a finite number, got Infinity',
    );
  });

  it('refuses a cycle, a function and a Date in memory', () => {
    const cyclic = fixture('kitchen-sink');
    const editor = cyclic['x-editor'] as Doc;
    (editor as Record<string, unknown>).self = editor;
    expect(errorOf(() => validateAssembly(cyclic)).message).toBe('x-editor.self: circular reference');
    const withFunction = edit(fixture('kitchen-sink'), ['x-editor', 'f'], () => 1);
    expect(errorOf(() => validateAssembly(withFunction)).message).toBe('x-editor.f: expected a JSON value, got a function');
    const withDate = edit(fixture('four-bar'), ['parts', 'crank'], new Date(0));
    expect(errorOf(() => validateAssembly(withDate)).message).toBe('parts.crank: expected a part object, got a Date object');
  });

  it('refuses a sparse array in memory', () => {
    const doc = edit(fixture('four-bar'), ['parts', 'crank', 'pose', 'position'], [1, , 3]);
    expect(errorOf(() => validateAssembly(doc)).message).toBe('parts.crank.pose.position[1]: expected a number, got nothing');
  });
});

describe('valid documents', () => {
  it('loads every entity kind and every mate type', () => {
    const doc = parseAssembly(fixtureText('kitchen-sink'));
    const types = new Set(Object.values(doc.mates).map((mate) => mate.type));
    expect([...types].sort()).toEqual([...CONSTRAINT_TYPES, ...JOINT_TYPES, ...COUPLING_TYPES, ...CONTACT_TYPES].sort());
  });

  it('returns a frozen copy and leaves its input alone', () => {
    const input = fixture('kitchen-sink');
    const before = JSON.stringify(input);
    const doc = validateAssembly(input);
    expect(JSON.stringify(input)).toBe(before);
    expect(doc).not.toBe(input);
    expect(Object.isFrozen(doc)).toBe(true);
    expect(Object.isFrozen(doc.parts.body.pose.rotation)).toBe(true);
    expect(Object.isFrozen(doc.suspension)).toBe(true);
  });

  it('keeps quaternions as written, not normalised', () => {
    const doc = parseAssembly(fixtureText('kitchen-sink'));
    expect(doc.parts.body.pose.rotation).toEqual([2, 0, 0, 0]);
  });

  it('keeps unknown top-level fields and the suspension section verbatim', () => {
    const input = fixture('kitchen-sink');
    const doc = parseAssembly(fixtureText('kitchen-sink'));
    expect(doc['x-editor']).toEqual(input['x-editor']);
    expect(doc.comment).toBe(input.comment);
    expect(doc.suspension).toEqual(input.suspension);
  });

  it('accepts a coupling that names a mate written after it', () => {
    const doc = parseAssembly(fixtureText('kitchen-sink'));
    expect(doc.mates.g6).toEqual({ type: 'gear', a: 'j1.angle', b: 'late.angle', ratio: 1 });
  });

  it('accepts either order of entity kinds', () => {
    const doc = fixture('kitchen-sink');
    edit(doc, ['mates', 'p1'], { type: 'path', a: 'ground.track', b: 'body.P' });
    edit(doc, ['mates', 'c9'], { type: 'tangent', a: 'ground.floor', b: 'wheel.tread' });
    expect(() => validateAssembly(doc)).not.toThrow();
  });

  it('accepts a signed point–plane distance', () => {
    expect(validateAssembly(fixture('kitchen-sink')).mates.c7).toMatchObject({ value: -12.5 });
  });

  it('fills in missing mates, state and held, and treats undefined members as absent', () => {
    const doc = validateAssembly({
      format: 'kinemate.assembly/1',
      name: undefined,
      units: { length: 'mm', angle: 'deg' },
      parts: { solo: { fixed: undefined, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] } } },
    });
    expect(doc).toEqual({
      format: 'kinemate.assembly/1',
      units: { length: 'mm', angle: 'deg' },
      parts: { solo: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] } } },
      mates: {},
      state: {},
      held: [],
    });
    expect(Object.keys(doc)).toEqual(['format', 'units', 'parts', 'mates', 'state', 'held']);
  });

  it('keeps ids that are names of Object members as plain own members', () => {
    const text = JSON.stringify({
      format: 'kinemate.assembly/1',
      units: { length: 'mm', angle: 'deg' },
      parts: {
        constructor: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, points: { toString: [0, 0, 0] } },
        ['__proto__']: { pose: { position: [1, 0, 0], rotation: [1, 0, 0, 0] }, points: { p: [0, 0, 0] } },
      },
      mates: { hasOwnProperty: { type: 'ball', a: 'constructor.toString', b: '__proto__.p' } },
    });
    const doc = parseAssembly(text);
    expect(Object.keys(doc.parts)).toEqual(['constructor', '__proto__']);
    expect(Object.getPrototypeOf(doc.parts)).toBe(Object.prototype);
    expect(parseAssembly(serializeAssembly(doc))).toEqual(doc);
  });
});

// ---- fuzzing: any damage gives a document or an AssemblyError, nothing else ----

type Step = (string | number)[];

/** Paths to every member and item, the root excluded. */
function allPaths(value: Json, prefix: Step = [], out: Step[] = []): Step[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i]);
      allPaths(item, [...prefix, i], out);
    });
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      out.push([...prefix, key]);
      allPaths(member, [...prefix, key], out);
    }
  }
  return out;
}

function valueAt(root: Json, path: Step): unknown {
  let node: unknown = root;
  for (const key of path) node = (node as Record<string | number, unknown>)[key];
  return node;
}

/** Names that appear in the fixtures, so renamed references often almost resolve. */
const NAMES = [
  'ground', 'crank', 'coupler', 'rocker', 'body', 'wheel', 'jA', 'jB', 'j1', 'j2', 'j5', 'p1', 'g1', 'late',
  'pivotA', 'tip', 'base', 'mid', 'A', 'P', 'f', 'rail', 'floor', 'rim', 'track', 'hub', 'tread', 'face',
  'angle', 'slide', 'slideX', 'slideY', 'u', 'pose', 'constructor', '__proto__', '',
];

const strangeValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom<unknown>(NaN, Infinity, -Infinity, -0, 5e-324, undefined, [], {}, [0, 0, 0, 0], 'NaN'),
);

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: strangeValue }),
  fc.record({
    kind: fc.constant('rename' as const),
    pick: fc.nat(),
    owner: fc.constantFrom(...NAMES),
    name: fc.constantFrom(...NAMES),
  }),
  fc.record({ kind: fc.constant('renameKey' as const), pick: fc.nat(), name: fc.constantFrom(...NAMES) }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function applyMutation(doc: Doc, change: Mutation): void {
  const paths = allPaths(doc);
  if (paths.length === 0) return;
  const path = paths[change.pick % paths.length];
  const parent = valueAt(doc, path.slice(0, -1)) as Record<string | number, unknown>;
  const last = path[path.length - 1];
  switch (change.kind) {
    case 'delete':
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
      break;
    case 'replace':
      parent[last] = change.value;
      break;
    case 'rename':
      parent[last] = `${change.owner}.${change.name}`;
      break;
    case 'renameKey':
      if (!Array.isArray(parent)) {
        // Rebuild the object so the renamed key keeps its place.
        const entries = Object.entries(parent).map(([key, member]): [string, unknown] => [
          key === last ? change.name : key,
          member,
        ]);
        for (const key of Object.keys(parent)) delete parent[key];
        for (const [key, value] of entries) {
          Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true });
        }
      }
      break;
  }
}

/** Loads, and if it loads, checks that saving and loading again changes nothing. */
function expectDocumentOrAssemblyError(load: () => unknown): void {
  let doc: unknown;
  try {
    doc = load();
  } catch (error) {
    if (!(error instanceof AssemblyError)) throw error;
    expect(error.message.startsWith(`${error.path}: `)).toBe(true);
    return;
  }
  const loaded = doc as ReturnType<typeof parseAssembly>;
  const again = parseAssembly(serializeAssembly(loaded));
  expect(again).toEqual(loaded);
  expectSameNumbers(numbersOf(again), numbersOf(loaded));
}

describe('fuzzing the loader', () => {
  const fixtureName = fc.constantFrom<FixtureName>('four-bar', 'kitchen-sink');

  it('damaged documents load or fail with an AssemblyError, in memory and as text', () => {
    fc.assert(
      fc.property(fixtureName, fc.array(mutation, { minLength: 1, maxLength: 4 }), (name, changes) => {
        const doc = fixture(name);
        for (const change of changes) applyMutation(doc, change);
        expectDocumentOrAssemblyError(() => validateAssembly(doc));
        let text: string | undefined;
        try {
          text = JSON.stringify(doc);
        } catch {
          text = undefined; // a cycle cannot be written as text at all
        }
        if (text !== undefined) expectDocumentOrAssemblyError(() => parseAssembly(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('truncated and spliced text fails with an AssemblyError or loads', () => {
    fc.assert(
      fc.property(fixtureName, fc.nat(), fc.nat(), fc.string({ maxLength: 8 }), (name, cut, at, insert) => {
        const text = fixtureText(name);
        expectDocumentOrAssemblyError(() => parseAssembly(text.slice(0, cut % text.length)));
        const position = at % text.length;
        expectDocumentOrAssemblyError(() => parseAssembly(text.slice(0, position) + insert + text.slice(position)));
      }),
      { numRuns: 1500 },
    );
  });

  it('arbitrary text and arbitrary values never escape as another exception', () => {
    fc.assert(
      fc.property(fc.string(), fc.anything(), (text, value) => {
        expectDocumentOrAssemblyError(() => parseAssembly(text));
        expectDocumentOrAssemblyError(() => validateAssembly(value));
      }),
      { numRuns: 1000 },
    );
  });
});
