/** Models the benchmarks run on, generated in code (exact geometry, any size). */
import type { AssemblyDoc } from '../src/assembly/types';

type Part = AssemblyDoc['parts'][string];
type Mate = AssemblyDoc['mates'][string];
const frame0 = { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } as const;
const tipFrame = { origin: [1, 0, 0], rotation: [1, 0, 0, 0] } as const;

/**
 * A planar chain of unit links joined by revolutes about z, every relative angle θ (rad):
 * link 0 is `ground` (fixed) when `groundFirst`; parts are named `${prefix}link${k}`.
 */
export function addChain(parts: Record<string, Part>, mates: Record<string, Mate>, prefix: string, links: number, theta: number, origin: [number, number, number], ground: string): string {
  let x = origin[0], y = origin[1];
  let previous = ground, previousFrame = `${ground}.${prefix}base`;
  (parts[ground] as { frames: Record<string, typeof frame0> }).frames[`${prefix}base`] = { origin, rotation: [1, 0, 0, 0] } as never;
  for (let k = 1; k <= links; k++) {
    const angle = k * theta;
    const name = `${prefix}link${k}`;
    parts[name] = { pose: { position: [x, y, origin[2]], rotation: [Math.cos(angle / 2), 0, 0, Math.sin(angle / 2)] }, frames: { base: frame0, tip: tipFrame } } as Part;
    mates[`${prefix}j${k}`] = { type: 'revolute', a: previousFrame, b: `${name}.base` } as Mate;
    x += Math.cos(angle); y += Math.sin(angle);
    previous = name; previousFrame = `${name}.tip`;
  }
  return previous;
}

export function chainDoc(links: number, theta: number): AssemblyDoc {
  const parts: Record<string, Part> = { ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: {} } as Part };
  const mates: Record<string, Mate> = {};
  addChain(parts, mates, '', links, theta, [0, 0, 0], 'ground');
  return { format: 'kinemate.assembly/1', name: `chain ${links}`, units: { length: 'mm', angle: 'deg' }, parts, mates, state: {}, held: [] };
}

/** `groups` independent chains of `links` links each (groups × links parts), one fixed ground. */
export function manyChainsDoc(groups: number, links: number, theta: number): AssemblyDoc {
  const parts: Record<string, Part> = { ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: {} } as Part };
  const mates: Record<string, Mate> = {};
  for (let g = 0; g < groups; g++) addChain(parts, mates, `g${g}_`, links, theta, [0, 3 * g, 0], 'ground');
  return { format: 'kinemate.assembly/1', name: `${groups}×${links} chains`, units: { length: 'mm', angle: 'deg' }, parts, mates, state: {}, held: [] };
}
