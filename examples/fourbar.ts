/**
 * The planar four-bar of the test suite as an assembly document: ground 2.0, crank 0.8,
 * coupler 1.8, rocker 1.3 (a Grashof crank-rocker), crank at `crankDeg`, rocker on the
 * "open" branch (coupler above the ground line).
 */
import type { AssemblyDoc } from '../src/assembly/types';

export const FOURBAR = { ground: 2.0, crank: 0.8, coupler: 1.8, rocker: 1.3 };

/** Rocker angle (rad) at D for crank angle t (rad), by circle intersection; branch +1 = open. */
export function rockerAngle(t: number, branch = 1): number {
  const { ground: d, crank: a, coupler: b, rocker: c } = FOURBAR;
  const bx = a * Math.cos(t), by = a * Math.sin(t);
  // C on circle(D, c) ∩ circle(B, b)
  const ex = bx - d, ey = by;
  const e = Math.hypot(ex, ey);
  const along = (c * c - b * b + e * e) / (2 * e);
  const h = Math.sqrt(Math.max(0, c * c - along * along));
  const ux = ex / e, uy = ey / e;
  const cx = d + along * ux - branch * h * uy, cy = along * uy + branch * h * ux;
  return Math.atan2(cy, cx - d);
}

const rot = (angle: number): [number, number, number, number] => [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)];

export function fourBarDoc(crankDeg = 30): AssemblyDoc {
  const { ground: d, crank: a } = FOURBAR;
  const t = (crankDeg * Math.PI) / 180;
  const r = rockerAngle(t);
  const B = [a * Math.cos(t), a * Math.sin(t)];
  const C = [d + FOURBAR.rocker * Math.cos(r), FOURBAR.rocker * Math.sin(r)];
  const couplerAngle = Math.atan2(C[1] - B[1], C[0] - B[0]);
  const frame0 = { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } as const;
  return {
    format: 'kinemate.assembly/1',
    name: 'four-bar',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { pivotA: frame0, pivotD: { origin: [d, 0, 0], rotation: [1, 0, 0, 0] } } },
      crank: { pose: { position: [0, 0, 0], rotation: rot(t) }, frames: { base: frame0, tip: { origin: [a, 0, 0], rotation: [1, 0, 0, 0] } } },
      coupler: { pose: { position: [B[0], B[1], 0], rotation: rot(couplerAngle) }, frames: { start: frame0, end: { origin: [FOURBAR.coupler, 0, 0], rotation: [1, 0, 0, 0] } }, points: { mid: [FOURBAR.coupler / 2, 0.3, 0] } },
      rocker: { pose: { position: [d, 0, 0], rotation: rot(r) }, frames: { base: frame0, tip: { origin: [FOURBAR.rocker, 0, 0], rotation: [1, 0, 0, 0] } } },
    },
    mates: {
      jA: { type: 'revolute', a: 'ground.pivotA', b: 'crank.base' },
      jB: { type: 'revolute', a: 'crank.tip', b: 'coupler.start' },
      jC: { type: 'revolute', a: 'coupler.end', b: 'rocker.tip' },
      jD: { type: 'revolute', a: 'ground.pivotD', b: 'rocker.base' },
    },
    state: { 'jA.angle': crankDeg },
    held: ['jA.angle'],
  };
}
