/**
 * The Bennett linkage: the one movable spatial 4R loop with no joint offsets. Links
 * alternate (a, α) = (1, 30°) and (b, β) = (√3, 60°), which meet Bennett's condition
 * a / sin α = b / sin β (= 2).
 *
 * Convention (Denavit–Hartenberg, all offsets d = 0): going round the loop, frame F_i is
 * joint i+1's frame, and F_i = F_{i−1} · Rz(θ_i) · Tx(a_i) · Rx(α_i) with (a_i, α_i) =
 * (a, α), (b, β), (a, α), (b, β) for links 1..4 and F_4 = F_0. θ_i turns about joint i's
 * axis z_{i−1} from link i−1's common normal x_{i−1} to link i's x_i (right-handed); α_i
 * turns about x_i from z_{i−1} to z_i. Link 4 is the ground; joint i is mate `j<i>` and
 * θ_i is `j<i>.angle`. Under this convention the loop closes with
 *
 *   θ₃ = 2π − θ₁,  θ₄ = 2π − θ₂,  tan(θ₁/2)·tan(θ₂/2) = sin((β + α)/2) / sin((β − α)/2)
 *
 * (θ₁ at the joint between the (b, β) link and the (a, α) link, θ₂ between (a, α) and
 * (b, β)). Six scalar loop equations on four angles: three rows are redundant, and the
 * loop keeps one degree of freedom.
 *
 * Parts are drawn with identity poses: entity coordinates are world coordinates at the
 * angle θ₁ the file is written for.
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { DEG, IDENTITY, axisAngle, compose, rotZ, cleanQ, cleanV, type Transform } from './geometry';

export const BENNETT = { a: 1, alpha: 30 * DEG, b: Math.sqrt(3), beta: 60 * DEG };

/** K = sin((β + α)/2) / sin((β − α)/2). */
export function bennettK(): number {
  const { alpha, beta } = BENNETT;
  return Math.sin((beta + alpha) / 2) / Math.sin((beta - alpha) / 2);
}

/** θ₂ (rad, in (0, 2π)) for θ₁ (rad): tan(θ₂/2) = K / tan(θ₁/2). */
export function bennettTheta2(theta1: number): number {
  const t2 = 2 * Math.atan2(bennettK() * Math.cos(theta1 / 2), Math.sin(theta1 / 2));
  return t2 < 0 ? t2 + 2 * Math.PI : t2;
}

const turn = (theta: number): Transform => ({ q: rotZ(theta), t: [0, 0, 0] });
const linkOf = (length: number, twist: number): Transform => compose({ q: IDENTITY, t: [length, 0, 0] }, { q: axisAngle([1, 0, 0], twist), t: [0, 0, 0] });

/** The loop's frames at θ₁: S_i = F_{i−1}·Rz(θ_i) (link i at joint i) and F_i (link i at joint i+1). */
export function bennettFrames(theta1: number): { S: Transform[]; F: Transform[]; theta: number[] } {
  const { a, alpha, b, beta } = BENNETT;
  const t2 = bennettTheta2(theta1);
  const theta = [theta1, t2, 2 * Math.PI - theta1, 2 * Math.PI - t2];
  const links = [linkOf(a, alpha), linkOf(b, beta), linkOf(a, alpha), linkOf(b, beta)];
  const F: Transform[] = [{ q: IDENTITY, t: [0, 0, 0] }];
  const S: Transform[] = [];
  for (let i = 0; i < 4; i++) {
    S.push(compose(F[i], turn(theta[i])));
    F.push(compose(S[i], links[i]));
  }
  return { S, F, theta };
}

export function bennettDoc(theta1Deg = 60): AssemblyDoc {
  const { S, F } = bennettFrames(theta1Deg * DEG);
  const fr = (T: Transform) => ({ origin: cleanV(T.t), rotation: cleanQ(T.q) });
  const pose = { position: [0, 0, 0] as const, rotation: IDENTITY };
  return {
    format: 'kinemate.assembly/1',
    name: 'bennett',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      // link 4 (b, β) is the ground: joint 4 at S_4, joint 1 at F_4 = F_0 (the world frame)
      ground: { fixed: true, pose, frames: { j4: fr(S[3]), j1: fr(F[0]) } },
      link1: { pose, frames: { j1: fr(S[0]), j2: fr(F[1]) } },
      link2: { pose, frames: { j2: fr(S[1]), j3: fr(F[2]) } },
      link3: { pose, frames: { j3: fr(S[2]), j4: fr(F[3]) } },
    },
    mates: {
      j1: { type: 'revolute', a: 'ground.j1', b: 'link1.j1' },
      j2: { type: 'revolute', a: 'link1.j2', b: 'link2.j2' },
      j3: { type: 'revolute', a: 'link2.j3', b: 'link3.j3' },
      j4: { type: 'revolute', a: 'link3.j4', b: 'ground.j4' },
    },
    state: { 'j1.angle': theta1Deg },
    held: ['j1.angle'],
  };
}
