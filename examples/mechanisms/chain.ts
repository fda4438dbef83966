/**
 * A planar chain of N unit links (default 100) joined end to end by revolutes about world
 * z. Link k (k = 1..N) starts where link k−1 ends and points along the angle k·θ, so every
 * relative angle `j<k>.angle` (between link k−1 and link k, k = 2..N) is θ. Link 1 is the
 * ground: fixed at the origin along the angle θ. The tip (the end of link N) is then at
 *
 *   Σ_{k=1..N} (cos kθ, sin kθ) = sin(Nθ/2)/sin(θ/2) · (cos((N+1)θ/2), sin((N+1)θ/2)).
 *
 * At θ = 360°/N the chain closes into a regular N-gon and the tip is back at the origin;
 * `close: true` then adds a coincident mate `closure` from the tip to the ground's start.
 * Freedom: N − 1 relative angles; closing takes 2 more in the plane (the third row of the
 * point–point coincidence, along z, is redundant): N − 3.
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { DEG, IDENTITY, rotZ, cleanQ, cleanV, type V3 } from './geometry';

/** Tip of the chain for relative angle θ (rad), N unit links. */
export function chainTip(theta: number, n = 100): [number, number] {
  if (Math.abs(Math.sin(theta / 2)) < 1e-300) return [n * Math.cos(((n + 1) * theta) / 2), n * Math.sin(((n + 1) * theta) / 2)];
  const k = Math.sin((n * theta) / 2) / Math.sin(theta / 2);
  return [k * Math.cos(((n + 1) * theta) / 2), k * Math.sin(((n + 1) * theta) / 2)];
}

export interface ChainOptions {
  n?: number;
  /** Relative angle θ (deg): link 1, the ground, is fixed along θ. */
  thetaDeg?: number;
  /**
   * Relative angle (deg) the moving links are drawn at (default θ): link k along
   * θ + (k − 1)·drawn. The `state` angles are the drawn ones, so a file drawn off θ has
   * poses and coordinates that agree, and a solve holding the joints at θ must move it.
   */
  drawnDeg?: number;
  /** Close the chain: tip coincident with the ground's start (meaningful at θ = 360°/N). */
  close?: boolean;
  /** Hold every joint angle (drivers). */
  hold?: boolean;
}

export function chainDoc(options: ChainOptions = {}): AssemblyDoc {
  const { n = 100, thetaDeg = 360 / n, close = false, hold = false } = options;
  const drawnDeg = options.drawnDeg ?? thetaDeg;
  const theta = thetaDeg * DEG, drawn = drawnDeg * DEG;
  const parts: Record<string, unknown> = {};
  const mates: Record<string, unknown> = {};
  const state: Record<string, number> = {};
  let start: V3 = [0, 0, 0];
  for (let k = 1; k <= n; k++) {
    const a = theta + (k - 1) * drawn;
    const frames = { start: { origin: [0, 0, 0], rotation: IDENTITY }, end: { origin: [1, 0, 0], rotation: IDENTITY } };
    const part: Record<string, unknown> = { pose: { position: cleanV(start), rotation: cleanQ(rotZ(a)) }, frames };
    if (k === 1) { part.fixed = true; part.points = { origin: [0, 0, 0] }; }
    if (k === n) part.points = { tip: [1, 0, 0] };
    // a part's entries in file order: fixed first, as people write it
    parts[`link${k}`] = k === 1 ? { fixed: true, ...part } : part;
    if (k > 1) {
      mates[`j${k}`] = { type: 'revolute', a: `link${k - 1}.end`, b: `link${k}.start` };
      state[`j${k}.angle`] = drawnDeg;
    }
    start = [start[0] + Math.cos(a), start[1] + Math.sin(a), 0];
  }
  if (close) mates.closure = { type: 'coincident', a: `link${n}.tip`, b: 'link1.origin' };
  return {
    format: 'kinemate.assembly/1',
    name: close ? `ring-${n}` : `chain-${n}`,
    units: { length: 'mm', angle: 'deg' },
    parts: parts as AssemblyDoc['parts'],
    mates: mates as AssemblyDoc['mates'],
    state,
    held: hold ? Object.keys(state) : [],
  };
}
