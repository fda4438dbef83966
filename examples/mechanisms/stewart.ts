/**
 * A 6-6 Stewart platform (UPS legs). Six base anchors B_i on the ground at radius 1, six
 * platform anchors p_i on the platform at radius 0.6 (platform frame), the platform at
 * height 1 at home. Anchors come in pairs 20° apart; base pair k sits at 120°·k ± 10°,
 * platform pair k at 120°·k + 60° ± 10°, and each leg runs from a base anchor to the
 * nearer anchor of the neighbouring platform pair (the classic crossed arrangement).
 *
 * Leg i is two parts: `lower<i>` on a universal joint `u<i>` at B_i (two frames placed
 * together along the leg: the ground's pin, x, horizontal and square to the leg; the
 * leg's pin, y, square to both) and `upper<i>`
 * sliding along the leg on a slider `leg<i>` whose slide is the leg length |P_i − B_i|
 * (the slider frames sit at B_i on the lower part and at P_i on the upper part). The
 * upper part meets the platform in a ball joint `s<i>` at P_i.
 *
 * Freedom: 6 (the platform); holding the six `leg<i>.slide` fixes it.
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { DEG, IDENTITY, apply, axesFromZX, cross, norm, quatFromAxes, sub, unit, type Transform, type V3 } from './geometry';

export const STEWART = { baseRadius: 1, platformRadius: 0.6, height: 1 };

/** Base anchors B_i (world) and platform anchors p_i (platform frame), legs i = 0..5. */
export function stewartAnchors(): { base: V3[]; platform: V3[] } {
  const { baseRadius: rb, platformRadius: rp } = STEWART;
  const base: V3[] = [], platform: V3[] = [];
  for (let k = 0; k < 3; k++) {
    for (const side of [-1, 1]) {
      const b = (120 * k + 10 * side) * DEG;
      // the nearer anchor of the neighbouring platform pair: 120k + 60 − 10 (side +1), 120k − 60 + 10 (side −1)
      const p = (120 * k + side * 50) * DEG;
      base.push([rb * Math.cos(b), rb * Math.sin(b), 0]);
      platform.push([rp * Math.cos(p), rp * Math.sin(p), 0]);
    }
  }
  return { base, platform };
}

export const STEWART_HOME: Transform = { q: IDENTITY, t: [0, 0, STEWART.height] };

/** The six leg lengths |T(p_i) − B_i| for a platform pose T (inverse kinematics). */
export function legLengths(T: Transform): number[] {
  const { base, platform } = stewartAnchors();
  return base.map((b, i) => norm(sub(apply(T, platform[i]), b)));
}

/** The platform drawn at pose T (default: home); every leg at its length for T. */
export function stewartDoc(T: Transform = STEWART_HOME): AssemblyDoc {
  const { base, platform } = stewartAnchors();
  const parts: Record<string, unknown> = {};
  const mates: Record<string, unknown> = {};
  const state: Record<string, number> = {};
  const groundFrames: Record<string, unknown> = {};
  const platformPoints: Record<string, V3> = {};
  for (let i = 0; i < 6; i++) {
    const n = i + 1;
    const B = base[i], P = apply(T, platform[i]);
    const leg = unit(sub(P, B));
    // universal: both frames along the leg (the shafts), x the ground's pin (horizontal,
    // square to the leg), y the leg's pin (square to both): placed together, as in CAD
    const pinGround = unit(cross([0, 0, 1], leg));
    const legRotation = quatFromAxes(axesFromZX(leg, pinGround));
    groundFrames[`u${n}`] = { origin: B, rotation: legRotation };
    parts[`lower${n}`] = {
      pose: { position: [0, 0, 0], rotation: IDENTITY },
      frames: {
        u: { origin: B, rotation: legRotation },
        slide: { origin: B, rotation: legRotation },
      },
    };
    parts[`upper${n}`] = {
      pose: { position: [0, 0, 0], rotation: IDENTITY },
      frames: { slide: { origin: P, rotation: legRotation } },
      points: { top: P },
    };
    platformPoints[`p${n}`] = platform[i];
    mates[`u${n}`] = { type: 'universal', a: `ground.u${n}`, b: `lower${n}.u` };
    mates[`leg${n}`] = { type: 'slider', a: `lower${n}.slide`, b: `upper${n}.slide` };
    mates[`s${n}`] = { type: 'ball', a: `upper${n}.top`, b: `platform.p${n}` };
    state[`leg${n}.slide`] = norm(sub(P, B));
  }
  return {
    format: 'kinemate.assembly/1',
    name: 'stewart-platform',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: IDENTITY }, frames: groundFrames },
      platform: { pose: { position: T.t, rotation: T.q }, points: platformPoints },
      ...parts,
    } as AssemblyDoc['parts'],
    mates: mates as AssemblyDoc['mates'],
    state,
    held: [],
  };
}
