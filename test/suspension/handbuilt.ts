/**
 * A double wishbone assembled by hand, as a user would in a *.kinemate.json file: its own
 * part names, parts placed at non-identity poses with entities in their own frames,
 * frames (not axes) for the hinges, ball joints, a distance mate for the track rod and a
 * slider for the rack, and a `suspension` section naming the roles. It is the independent
 * route the template is checked against.
 */
import * as P from '../../kernel/pose';
import * as Q from '../../kernel/quat';
import type { AssemblyDoc } from '../../src/assembly/types';

type V = [number, number, number];
const HP: Record<string, V> = {
  lower_wishbone_inboard_front: [250, 400, 200], lower_wishbone_inboard_rear: [-250, 450, 200], lower_wishbone_outboard: [0, 900, 200],
  upper_wishbone_inboard_front: [225, 350, 500], upper_wishbone_inboard_rear: [-275, 350, 500], upper_wishbone_outboard: [-25, 750, 500],
  trackrod_inboard: [50, 200, 250], trackrod_outboard: [150, 800, 275], axle_inboard: [-20, 800, 308.426], axle_outboard: [-20, 950, 313.426],
};

/** A placed part: pose (position, rotation) and a helper that expresses world points locally. */
function placed(position: V, axis: V, angle: number) {
  const pose = P.pose(position, Q.fromAxisAngle(Q.quat(), axis, angle));
  const local = (w: V): V => Array.from(P.applyInversePoint(new Float64Array(3), pose, w)) as V;
  const localDir = (w: V): V => Array.from(P.applyInverseDirection(new Float64Array(3), pose, w)) as V;
  return { pose: P.poseToJSON(pose), local, localDir, q: pose.subarray(3) };
}

/** The rotation quaternion [w,x,y,z] taking +z to direction d (about z × d). */
function zTo(d: V): [number, number, number, number] {
  const l = Math.hypot(...d);
  const u = d.map((x) => x / l);
  const axis: V = [-u[1], u[0], 0];
  const s = Math.hypot(...axis);
  if (s < 1e-15) return u[2] > 0 ? [1, 0, 0, 0] : [0, 1, 0, 0];
  const angle = Math.atan2(s, u[2]);
  const q = Q.fromAxisAngle(Q.quat(), axis, angle);
  return [q[0], q[1], q[2], q[3]];
}

export function handBuiltDoubleWishbone(): AssemblyDoc {
  const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const body = placed([10, 700, 300], [0.3, 0.2, 1], 0.4);
  const lower = placed([0, 600, 180], [1, 0, 0], -0.2);
  const upper = placed([-30, 500, 520], [0, 1, 0], 0.1);
  const rack = placed([0, 200, 250], [0, 0, 1], 0);
  const frameAt = (part: ReturnType<typeof placed> | null, origin: V, dir: V) => {
    const o = part ? part.local(origin) : origin;
    const d = part ? part.localDir(dir) : dir;
    return { origin: o, rotation: zTo(d) };
  };
  const lowerAxis = sub(HP.lower_wishbone_inboard_rear, HP.lower_wishbone_inboard_front);
  const upperAxis = sub(HP.upper_wishbone_inboard_rear, HP.upper_wishbone_inboard_front);
  const dist = (a: V, b: V) => Math.hypot(...sub(a, b));
  return {
    format: 'kinemate.assembly/1',
    name: 'hand-built double wishbone',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      frame: {
        fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] },
        frames: { lowerPivot: frameAt(null, HP.lower_wishbone_inboard_front, lowerAxis), upperPivot: frameAt(null, HP.upper_wishbone_inboard_front, upperAxis), rackGuide: frameAt(null, HP.trackrod_inboard, [0, 1, 0]) },
        points: { lf: HP.lower_wishbone_inboard_front, lr: HP.lower_wishbone_inboard_rear, uf: HP.upper_wishbone_inboard_front, ur: HP.upper_wishbone_inboard_rear },
      },
      lowerArm: { pose: lower.pose, frames: { pivot: frameAt(lower, HP.lower_wishbone_inboard_front, lowerAxis) }, points: { ball: lower.local(HP.lower_wishbone_outboard) } },
      upperArm: { pose: upper.pose, frames: { pivot: frameAt(upper, HP.upper_wishbone_inboard_front, upperAxis) }, points: { ball: upper.local(HP.upper_wishbone_outboard) } },
      knuckle: {
        pose: body.pose,
        points: { lbj: body.local(HP.lower_wishbone_outboard), ubj: body.local(HP.upper_wishbone_outboard), arm: body.local(HP.trackrod_outboard), spindle: body.local(HP.axle_inboard), hub: body.local(HP.axle_outboard) },
      },
      steeringRack: { pose: rack.pose, frames: { guide: frameAt(rack, HP.trackrod_inboard, [0, 1, 0]) }, points: { end: rack.local(HP.trackrod_inboard) } },
    },
    mates: {
      lowerHinge: { type: 'revolute', a: 'frame.lowerPivot', b: 'lowerArm.pivot' },
      upperHinge: { type: 'revolute', a: 'frame.upperPivot', b: 'upperArm.pivot' },
      lowerBall: { type: 'ball', a: 'lowerArm.ball', b: 'knuckle.lbj' },
      upperBall: { type: 'ball', a: 'upperArm.ball', b: 'knuckle.ubj' },
      tieRod: { type: 'distance', a: 'steeringRack.end', b: 'knuckle.arm', value: dist(HP.trackrod_inboard, HP.trackrod_outboard) },
      rack: { type: 'slider', a: 'frame.rackGuide', b: 'steeringRack.guide' },
    },
    state: {},
    held: [],
    suspension: {
      scope: 'corner',
      chassis: 'frame',
      steering: 'rack.slide',
      axle_position: 'front',
      vehicle: { cg_position: [1250, 0, 450], wheelbase: 2500 },
      corners: [{
        side: 'left',
        upright: 'knuckle',
        points: {
          lower_wishbone_outboard: 'knuckle.lbj', upper_wishbone_outboard: 'knuckle.ubj', trackrod_outboard: 'knuckle.arm',
          trackrod_inboard: 'steeringRack.end', axle_inboard: 'knuckle.spindle', axle_outboard: 'knuckle.hub',
          lower_wishbone_inboard_front: 'frame.lf', lower_wishbone_inboard_rear: 'frame.lr',
          upper_wishbone_inboard_front: 'frame.uf', upper_wishbone_inboard_rear: 'frame.ur',
        },
        axle: ['knuckle.spindle', 'knuckle.hub'],
        steering_axis: ['knuckle.lbj', 'knuckle.ubj'],
        instant_axis: { type: 'planes', lower: ['frame.lf', 'frame.lr', 'knuckle.lbj'], upper: ['frame.uf', 'frame.ur', 'knuckle.ubj'] },
        wheel: { offset: 0, tire: { aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 } },
        holds: { default: 'lower_wishbone_angle', lower_wishbone_angle: ['lowerHinge.angle'], upper_wishbone_angle: ['upperHinge.angle'] },
      }],
    },
  };
}
