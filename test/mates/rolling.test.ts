/**
 * The rolling mate: its rows against central differences, rolling kinematics against
 * closed forms (a wheel on a plane moves r·θ; round a circle it turns (R ± r)/r per lap —
 * the coin paradox), random radii and poses (fast-check), and the normal force as the
 * constraint multiplier (statics: a wheel at rest carries its weight; on an incline m g cos α).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as P from '../../kernel/pose';
import * as Q from '../../kernel/quat';
import { System } from '../../kernel/system';
import { cross, dot, normalize, vec3, type Vec3 } from '../../kernel/vec3';
import { addMate, ArcLengthCurve, Curve, RollingBlock, type Entity } from '../../mates';
import { validateAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/mechanics/build';
import { statics, type Wrench } from '../../src/mechanics/statics';
import { buildModel } from '../../src/model/build';
import { driveModel, solveModel } from '../../src/model/operations';
import { finiteDifferenceJacobian, maxAbsDiff } from '../util/fd';
import { rng } from '../util/rng';
import { circlePoints, wheelOnTrack } from './rolling-models';

type Rand = () => number;
const between = (r: Rand, lo: number, hi: number) => lo + (hi - lo) * r();
const randomUnit = (r: Rand): Vec3 => normalize(vec3(), vec3(between(r, -1, 1), between(r, -1, 1), between(r, -1, 1)));
const randomQuat = (r: Rand): number[] => {
  const q = [between(r, -1, 1), between(r, -1, 1), between(r, -1, 1), between(r, -1, 1)];
  const k = between(r, 0.6, 1.7) / Math.hypot(...q); // deliberately not unit
  return q.map((x) => x * k);
};
/** The rotation taking unit a onto unit b. */
function turnOnto(a: Vec3, b: Vec3): number[] {
  const axis = cross(vec3(), a, b), s = Math.hypot(axis[0], axis[1], axis[2]);
  if (s < 1e-12) return dot(a, b) > 0 ? [1, 0, 0, 0] : Array.from(Q.fromAxisAngle(Q.quat(), normalize(vec3(), cross(vec3(), a, Math.abs(a[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0])), Math.PI));
  return Array.from(Q.fromAxisAngle(Q.quat(), normalize(axis, axis), Math.atan2(s, dot(a, b))));
}

type TrackKind = 'plane' | { closed: boolean; smooth: boolean };

/** A track curve in its part's xz plane: a wavy run or a wobbly loop. */
function trackCurve(r: Rand, closed: boolean, smooth: boolean): Curve {
  const pts = closed
    ? Array.from({ length: 7 }, (_, i) => { const a = (2 * Math.PI * i) / 7; return [3 * Math.cos(a) + between(r, -0.2, 0.2), 0, 2 * Math.sin(a) + between(r, -0.2, 0.2)] as const; })
    : Array.from({ length: 6 }, (_, i) => [1.2 * i + between(r, -0.2, 0.2), 0, 0.4 * Math.sin(i) + between(r, -0.1, 0.1)] as const);
  return new Curve(pts, closed, smooth);
}

/**
 * Two free parts, a wheel rolling on a track, placed tangent at a random contact (the wheel
 * spun by a random angle about its axis), on side a or b of the mate.
 */
function rollingPair(r: Rand, kind: TrackKind, wheelFirst: boolean) {
  const system = new System(2.5);
  const trackPose = P.pose([between(r, -2, 2), between(r, -2, 2), between(r, -2, 2)], randomQuat(r));
  const radius = between(r, 0.2, 0.8);
  const wheelEntity: Entity = { kind: 'circle', center: vec3(between(r, -1, 1), between(r, -1, 1), between(r, -1, 1)), normal: randomUnit(r), radius };
  let track: Entity, foot: Vec3, along: Vec3;
  const side = vec3(0, 1, 0); // the track's plane normal, local
  if (kind === 'plane') {
    track = { kind: 'plane', origin: vec3(between(r, -1, 1), between(r, -1, 1), between(r, -1, 1)), normal: vec3(0, 0, between(r, 0.5, 2)) };
    foot = vec3(track.origin[0] + between(r, -2, 2), track.origin[1] + between(r, -2, 2), track.origin[2]);
    along = vec3(1, 0, 0);
  } else {
    const curve = trackCurve(r, kind.closed, kind.smooth);
    track = { kind: 'curve', curve };
    const e = curve.evaluate(new Float64Array(9), Math.floor(between(r, 0, curve.count - 1)) + between(r, 0.2, 0.8));
    foot = vec3(e[0], e[1], e[2]);
    along = normalize(vec3(), vec3(e[3], e[4], e[5]));
  }
  // local: the centre a radius off the foot, across the track in its plane, on a random side
  const nu = normalize(vec3(), cross(vec3(), side, along));
  const up = kind === 'plane' ? 1 : r() < 0.5 ? 1 : -1;
  const centreLocal = vec3(foot[0] + up * radius * nu[0], foot[1] + up * radius * nu[1], foot[2] + up * radius * nu[2]);
  if (kind === 'plane') { centreLocal[0] = foot[0]; centreLocal[1] = foot[1]; centreLocal[2] = foot[2] + radius; }
  // the wheel's axis onto the track's plane normal (either way), spun about it
  const axisWorld = P.applyDirection(vec3(), trackPose, r() < 0.5 ? side : vec3(0, -1, 0));
  const align = turnOnto(wheelEntity.normal as Vec3, axisWorld);
  const spin = Array.from(Q.fromAxisAngle(Q.quat(), axisWorld, between(r, -Math.PI, Math.PI)));
  const rotation = Array.from(Q.multiply(Q.quat(), spin, align));
  const centreWorld = P.applyPoint(vec3(), trackPose, centreLocal);
  const offset = Q.rotate(vec3(), rotation, wheelEntity.center);
  const wheelPose = P.pose([centreWorld[0] - offset[0], centreWorld[1] - offset[1], centreWorld[2] - offset[2]], rotation);
  const wheel = system.addPose('wheel', wheelPose);
  const trackPart = system.addPose('track', trackPose);
  const w = { part: wheel, entity: wheelEntity }, t = { part: trackPart, entity: track };
  const handle = addMate(system, 'roll', { type: 'rolling', a: wheelFirst ? w : t, b: wheelFirst ? t : w });
  return { system, handle, wheel, trackPart, radius };
}

const KINDS: { label: string; kind: TrackKind }[] = [
  { label: 'plane', kind: 'plane' },
  { label: 'open polyline', kind: { closed: false, smooth: false } },
  { label: 'open smooth curve', kind: { closed: false, smooth: true } },
  { label: 'closed polyline', kind: { closed: true, smooth: false } },
  { label: 'closed smooth curve', kind: { closed: true, smooth: true } },
];

describe('rolling rows', () => {
  for (const { label, kind } of KINDS) {
    for (const wheelFirst of [true, false]) {
      it(`hold at the authored pose and match central differences off it: ${label}, wheel as ${wheelFirst ? 'a' : 'b'}`, () => {
        for (let k = 0; k < 6; k++) {
          const r = rng(9100 + 37 * k + label.length * 3 + (wheelFirst ? 1 : 0));
          const { system, handle, wheel } = rollingPair(r, kind, wheelFirst);
          expect(Object.keys(handle.coordinates)).toEqual(['u']);
          const [b] = handle.blocks;
          const res = new Float64Array(3);
          system.evaluateBlock(b, res, null);
          for (const x of res) expect(Math.abs(x)).toBeLessThan(1e-9);
          // off the solution: the wheel moved and turned a little, the contact elsewhere (inside a span)
          system.retractVariable(system.variables[wheel], Float64Array.from({ length: 6 }, () => between(r, -0.3, 0.3)), 0);
          const u = handle.coordinates.u, block = system.block(b) as RollingBlock;
          if (block instanceof RollingBlock && kind !== 'plane') {
            const track = (block as unknown as { track: ArcLengthCurve }).track;
            const span = kind.closed ? Math.floor(between(r, -8, 14)) : Math.floor(between(r, 0, track.spans));
            system.setScalar(u, track.arcLength(span + between(r, 0.2, 0.8)));
          } else {
            system.setScalar(u, system.getScalar(u) + between(r, -2, 2));
          }
          const { analytic, numeric } = finiteDifferenceJacobian(system, b);
          const scale = Math.max(...Array.from(analytic, Math.abs));
          expect(scale).toBeGreaterThan(0);
          expect(maxAbsDiff(analytic, numeric), `${label} #${k}`).toBeLessThan(1e-6 * (1 + scale));
        }
      });
    }
  }

  it('a slip is the rim distance it takes: sliding the wheel δ along a plane without turning leaves 2r·tan(δ/2r) in the no-slip row', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 1e6 }),
      fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }),
      (seed, fraction) => {
        const r = rng(seed);
        const { system, handle, wheel, radius } = rollingPair(r, 'plane', true);
        const block = system.block(handle.blocks[0]) as RollingBlock;
        // slide the wheel along the rolling direction by δ (the contact follows: u += δ)
        const delta = fraction * radius;
        const res = new Float64Array(3);
        system.evaluateBlock(handle.blocks[0], res, null);
        const t = Array.from(block.tangent);
        const pose = system.getPose(wheel);
        for (let i = 0; i < 3; i++) pose[i] += delta * t[i];
        system.setPose(wheel, pose);
        system.setScalar(handle.coordinates.u, system.getScalar(handle.coordinates.u) + delta);
        system.evaluateBlock(handle.blocks[0], res, null);
        expect(Math.abs(res[0]) + Math.abs(res[1])).toBeLessThan(1e-9 * (1 + radius));
        expect(Math.abs(res[2])).toBeCloseTo(2 * radius * Math.tan(Math.abs(delta) / (2 * radius)), 9);
      }), { numRuns: 60 });
  });
});

describe('rolling kinematics', () => {
  it('on a plane: turning the wheel by θ moves its centre r·θ and the contact coordinate with it; the height stays r', () => {
    fc.assert(fc.property(
      fc.double({ min: 1, max: 500, noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -400, max: 400, noNaN: true, noDefaultInfinity: true }),
      (radius, x0, turn) => {
        const model = buildModel(validateAssembly(wheelOnTrack({ radius, centre: [x0, radius * 1.2], track: 'plane', heldAngle: 0 })));
        expect(solveModel(model).status).toBe('solved');
        const wheel = model.parts.get('wheel')!;
        const start = Array.from(model.system.getPose(wheel));
        const u0 = model.system.getScalar(model.coordinates.get('roll.u')!.variable);
        expect(start[2]).toBeCloseTo(radius, 9);
        expect(start[0]).toBeCloseTo(x0, 9);
        const result = solveModel(model, { set: { 'jP.angle': turn } });
        expect(result.status).toBe('solved');
        const end = model.system.getPose(wheel);
        // the planar joint turns about −y: a positive turn rolls the wheel toward −x
        const travel = (-turn * Math.PI / 180) * radius;
        expect(end[0] - start[0]).toBeCloseTo(travel, 6);
        expect(end[2]).toBeCloseTo(radius, 8);
        expect(Math.abs(model.system.getScalar(model.coordinates.get('roll.u')!.variable) - u0)).toBeCloseTo(Math.abs(travel), 6);
      }), { numRuns: 25 });
  });

  it('setting the contact coordinate rolls the wheel there (state u in mm)', () => {
    const radius = 20;
    const doc = wheelOnTrack({ radius, centre: [0, radius], track: 'plane' });
    const model = buildModel(validateAssembly({ ...doc, state: { 'roll.u': 100 }, held: ['roll.u'] }));
    expect(solveModel(model).status).toBe('solved');
    const pose = model.system.getPose(model.parts.get('wheel')!);
    expect(Math.abs(pose[0])).toBeCloseTo(100, 8);
    // the wheel turned by −x/r (a positive turn about −y rolls toward −x), up to whole turns
    const angle = model.system.getScalar(model.coordinates.get('jP.angle')!.variable);
    expect(Math.cos(angle)).toBeCloseTo(Math.cos(-pose[0] / radius), 9);
    expect(Math.sin(angle)).toBeCloseTo(Math.sin(-pose[0] / radius), 9);
  });

  // A coin rolled once round an equal coin turns twice: outside a circle of radius R the wheel
  // turns (R + r)/r per lap, inside it (R − r)/r the other way.
  for (const { label, R, r, inside } of [
    { label: 'outside an equal circle: two turns a lap', R: 40, r: 40, inside: false },
    { label: 'outside a circle three times its size: four turns a lap', R: 60, r: 20, inside: false },
    { label: 'inside a circle three times its size: two turns a lap', R: 60, r: 20, inside: true },
  ]) {
    it(`round a circle, ${label}`, () => {
      const turns = inside ? (R - r) / r : (R + r) / r;
      const doc = wheelOnTrack({ radius: r, centre: [inside ? R - r : R + r, 0], track: { points: circlePoints(R, 144), closed: true, smooth: true }, heldAngle: 0 });
      const model = buildModel(validateAssembly(doc));
      expect(solveModel(model).status).toBe('solved');
      const wheel = model.parts.get('wheel')!;
      const start = Array.from(model.system.getPose(wheel));
      expect(Math.hypot(start[0], start[2])).toBeCloseTo(inside ? R - r : R + r, 4);
      const u = model.coordinates.get('roll.u')!.variable;
      const u0 = model.system.getScalar(u);
      // half a lap: the centre opposite; a whole lap: back where it started, the contact one circumference on
      const drive = driveModel(model, 'jP.angle', 0, 360 * turns, 48 * Math.ceil(turns));
      expect(drive.steps.every((s) => s.status === 'solved')).toBe(true);
      const end = model.system.getPose(wheel);
      expect(Math.hypot(end[0] - start[0], end[2] - start[2])).toBeLessThan(1e-4 * R);
      expect(Math.abs(model.system.getScalar(u) - u0)).toBeCloseTo(2 * Math.PI * R, 2);
      const half = drive.steps[Math.round(drive.steps.length / 2) - 1].state['wheel.pose'] as { position: number[] };
      expect(Math.hypot(half.position[0] + start[0], half.position[2] + start[2])).toBeLessThan(1e-4 * R);
    });
  }

  it('arc length: a circle as a closed smooth curve measures 2πR a lap, and u(s) inverts s(u)', () => {
    const track = new ArcLengthCurve(new Curve(circlePoints(50, 144).map(([x, z]) => [x, 0, z] as const), true, true));
    expect(track.length).toBeCloseTo(2 * Math.PI * 50, 4);
    fc.assert(fc.property(fc.double({ min: -3000, max: 3000, noNaN: true, noDefaultInfinity: true }), (s) => {
      expect(track.arcLength(track.parameterAt(s))).toBeCloseTo(s, 9);
    }));
    const open = new ArcLengthCurve(new Curve([[0, 0, 0], [30, 0, 40], [60, 0, 80]], false, false));
    expect(open.length).toBeCloseTo(100, 12);
    expect(open.parameterAt(75)).toBeCloseTo(1.5, 12);
    expect(open.parameterAt(-10)).toBeCloseTo(-0.2, 12);
  });
});

const G = 9806.65; // mm/s²

describe('rolling contact forces (statics: the multipliers)', () => {
  it('a wheel at rest on a plane carries its weight: normal m·g, no traction, balanced', () => {
    fc.assert(fc.property(
      fc.double({ min: 2, max: 300, noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: 0.01, max: 20, noNaN: true, noDefaultInfinity: true }),
      (radius, mass) => {
        const dyn = buildDynamics(validateAssembly(wheelOnTrack({ radius, mass, centre: [10, radius], track: 'plane' })));
        const result = statics(dyn);
        expect(result.status).toBe('solved');
        const roll = result.reactions.roll as Wrench;
        const weight = mass * G / 1000;
        expect(roll.normal! / weight).toBeCloseTo(1, 9);
        expect(Math.abs(roll.traction!) / weight).toBeLessThan(1e-9);
        expect(roll.contact![2]).toBeCloseTo(0, 9);
      }), { numRuns: 20 });
  });

  it('held on an incline of angle α: normal m g cos α, traction m g sin α uphill, holding torque m g r sin α; the force acts at the contact', () => {
    const radius = 15, mass = 0.1, weight = mass * G / 1000;
    for (const degrees of [5, 20, 35]) {
      const a = degrees * Math.PI / 180;
      const L = 2000;
      // a straight track down toward +x: from (0, 0) to (L cos α, −L sin α)
      const points = [[0, 0], [L * Math.cos(a), -L * Math.sin(a)]] as const;
      const centre: [number, number] = [500 * Math.cos(a) + radius * Math.sin(a), -500 * Math.sin(a) + radius * Math.cos(a)];
      const dyn = buildDynamics(validateAssembly(wheelOnTrack({ radius, mass, centre, track: { points, smooth: false }, heldAngle: 0 })));
      const result = statics(dyn);
      expect(result.status).toBe('solved');
      const roll = result.reactions.roll as Wrench;
      expect(roll.normal! / weight).toBeCloseTo(Math.cos(a), 9);
      // the track's tangent runs downhill (+x): the traction on the wheel points back up
      expect(roll.traction! / weight).toBeCloseTo(-Math.sin(a), 9);
      expect(Math.abs(result.drivers['jP.angle']) / (weight * radius)).toBeCloseTo(Math.sin(a), 9);
      // the reaction on the track, moved to the contact point, has no moment about the wheel's axis
      const c = roll.contact!, at = roll.at, f = roll.force;
      const r = [at[0] - c[0], at[1] - c[1], at[2] - c[2]];
      const momentAtContact = [roll.moment[0] + r[1] * f[2] - r[2] * f[1], roll.moment[1] + r[2] * f[0] - r[0] * f[2], roll.moment[2] + r[0] * f[1] - r[1] * f[0]];
      expect(Math.abs(momentAtContact[1]) / (weight * radius)).toBeLessThan(1e-9);
    }
  });
});

describe('rolling in files', () => {
  it('loads circle–curve, curve–circle and circle–plane, and frees u', () => {
    const doc = wheelOnTrack({ radius: 10, centre: [0, 10], track: 'plane' });
    expect(validateAssembly(doc).mates.roll).toEqual({ type: 'rolling', a: 'wheel.rim', b: 'ground.floor' });
    const swapped = { ...doc, mates: { ...doc.mates, roll: { type: 'rolling', a: 'ground.floor', b: 'wheel.rim' } } };
    expect(buildModel(validateAssembly(swapped)).coordinates.get('roll.u')?.kind).toBe('length');
  });

  it('refuses other entity kinds, unknown fields, and a wheel that cannot roll on its track, naming the path', () => {
    const doc = wheelOnTrack({ radius: 10, centre: [0, 10], track: 'plane' });
    const bad = (roll: unknown) => () => validateAssembly({ ...doc, mates: { ...doc.mates, roll } });
    expect(bad({ type: 'rolling', a: 'wheel.hub', b: 'ground.floor' })).toThrow('mates.roll.a: a rolling mate joins a circle (the wheel) to a curve or a plane (the track); "wheel.hub" is a frame');
    expect(bad({ type: 'rolling', a: 'wheel.rim', b: 'ground.floor', value: 3 })).toThrow('mates.roll.value: unknown field "value" in a rolling mate; expected type, a, b');
    // a wheel lying flat on the floor
    const flat = structuredClone(doc) as unknown as { parts: { wheel: { circles: { rim: { normal: number[] } } } } };
    flat.parts.wheel.circles.rim.normal = [0, 0, 1];
    expect(() => buildModel(validateAssembly(flat))).toThrow('mates.roll: the wheel\'s axis is square to the plane (the wheel lies flat); it cannot roll on it');
  });
});
