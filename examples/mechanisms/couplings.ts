/**
 * Couplings and a limit, side by side on one ground (four independent groups):
 *
 * - gear pair: driver `jA` (pitch radius 0.5) and follower `jB` (pitch radius 1), centres
 *   1.5 apart, coupled by `gear` g1, ratio −1/2: jB.angle = −jA.angle / 2;
 * - rack and pinion: pinion `jP` (pitch radius 0.5) meshing with a rack above it that slides
 *   along world x on `jR`; `rackpinion` rp, radius 0.5: jR.slide = −0.5 · jP.angle (rad)
 *   (a counter-clockwise pinion drives the rack's meshing edge, at its top, toward −x);
 * - lead screw: shaft `jS` turning about world x, nut sliding along it on `jN`; `screw` sc,
 *   lead 0.2 per turn: jN.slide = 0.2 · jS.angle / 360°;
 * - a two-link arm: `arm` on revolute `jL` limited to [−30°, 45°], `forearm` on revolute
 *   `jM` at the arm's tip (no limit), tip point `forearm.tip` — for dragging into the limit.
 *
 * The gear driver, the pinion and the screw shaft are held (drivers); the arm is free.
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { DEG, IDENTITY, axesFromZX, quatFromAxes, rotZ, cleanQ, cleanV, add, type V3 } from './geometry';

export const COUPLINGS = {
  gear: { driverRadius: 0.5, followerRadius: 1, ratio: -0.5, driver: [0, 0, 0] as V3, follower: [1.5, 0, 0] as V3 },
  rack: { radius: 0.5, pinion: [0, -3, 0] as V3 },
  screw: { lead: 0.2, axis: [0, -6, 0] as V3 },
  arm: { pivot: [4, 0, 0] as V3, arm: 1, forearm: 1, limits: [-30, 45] as [number, number] },
};

export interface CouplingsState {
  jA?: number;
  jP?: number;
  jS?: number;
  jL?: number;
  jM?: number;
}

export function couplingsDoc(s: CouplingsState = {}): AssemblyDoc {
  const { jA = 0, jP = 0, jS = 0, jL = 0, jM = 60 } = s;
  const { gear, rack, screw, arm } = COUPLINGS;
  const f = (origin: V3, rotation = IDENTITY) => ({ origin, rotation });
  const zAlongX = quatFromAxes(axesFromZX([1, 0, 0], [0, 1, 0]));
  const jB = gear.ratio * jA;
  const rackSlide = -rack.radius * jP * DEG;
  const nutSlide = (screw.lead * jS) / 360;
  const rackOrigin = add(rack.pinion, [0, rack.radius, 0]);
  const elbow = add(arm.pivot, [arm.arm * Math.cos(jL * DEG), arm.arm * Math.sin(jL * DEG), 0]);
  return {
    format: 'kinemate.assembly/1',
    name: 'couplings',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: {
        fixed: true,
        pose: { position: [0, 0, 0], rotation: IDENTITY },
        frames: {
          driver: f(gear.driver), follower: f(gear.follower), pinion: f(rack.pinion),
          rack: f(rackOrigin, zAlongX), screw: f(screw.axis, zAlongX), armPivot: f(arm.pivot),
        },
      },
      driver: {
        pose: { position: gear.driver, rotation: cleanQ(rotZ(jA * DEG)) },
        frames: { axis: f([0, 0, 0]) },
        circles: { pitch: { center: [0, 0, 0], normal: [0, 0, 1], radius: gear.driverRadius } },
      },
      follower: {
        pose: { position: gear.follower, rotation: cleanQ(rotZ(jB * DEG)) },
        frames: { axis: f([0, 0, 0]) },
        circles: { pitch: { center: [0, 0, 0], normal: [0, 0, 1], radius: gear.followerRadius } },
      },
      pinion: {
        pose: { position: rack.pinion, rotation: cleanQ(rotZ(jP * DEG)) },
        frames: { axis: f([0, 0, 0]) },
        circles: { pitch: { center: [0, 0, 0], normal: [0, 0, 1], radius: rack.radius } },
      },
      rack: {
        pose: { position: cleanV(add(rackOrigin, [rackSlide, 0, 0])), rotation: IDENTITY },
        frames: { rail: f([0, 0, 0], zAlongX) },
        axes: { pitchLine: { origin: [0, 0, 0], direction: [1, 0, 0] } },
      },
      screw: {
        pose: { position: screw.axis, rotation: IDENTITY },
        frames: { axis: f([0, 0, 0], zAlongX) },
      },
      nut: {
        pose: { position: cleanV(add(screw.axis, [nutSlide, 0, 0])), rotation: IDENTITY },
        frames: { axis: f([0, 0, 0], zAlongX) },
      },
      arm: {
        pose: { position: arm.pivot, rotation: cleanQ(rotZ(jL * DEG)) },
        frames: { base: f([0, 0, 0]), tip: f([arm.arm, 0, 0]) },
      },
      forearm: {
        pose: { position: cleanV(elbow), rotation: cleanQ(rotZ((jL + jM) * DEG)) },
        frames: { base: f([0, 0, 0]) },
        points: { tip: [arm.forearm, 0, 0] },
      },
    },
    mates: {
      jA: { type: 'revolute', a: 'ground.driver', b: 'driver.axis' },
      jB: { type: 'revolute', a: 'ground.follower', b: 'follower.axis' },
      g1: { type: 'gear', a: 'jA.angle', b: 'jB.angle', ratio: gear.ratio },
      jP: { type: 'revolute', a: 'ground.pinion', b: 'pinion.axis' },
      jR: { type: 'slider', a: 'ground.rack', b: 'rack.rail' },
      rp: { type: 'rackpinion', a: 'jP.angle', b: 'jR.slide', radius: rack.radius },
      // the screw shaft's turn about world x: its frame's z is world x
      jS: { type: 'revolute', a: 'ground.screw', b: 'screw.axis' },
      jN: { type: 'slider', a: 'ground.screw', b: 'nut.axis' },
      sc: { type: 'screw', a: 'jS.angle', b: 'jN.slide', lead: screw.lead },
      jL: { type: 'revolute', a: 'ground.armPivot', b: 'arm.base', limits: { angle: arm.limits } },
      jM: { type: 'revolute', a: 'arm.tip', b: 'forearm.base' },
    },
    state: { 'jA.angle': jA, 'jP.angle': jP, 'jS.angle': jS, 'jL.angle': jL, 'jM.angle': jM },
    held: ['jA.angle', 'jP.angle', 'jS.angle'],
  };
}
