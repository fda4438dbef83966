/**
 * An offset slider-crank: crank r turning about world z at the origin, connecting rod l,
 * a slider running along world x on the line y = e. The slider's position is the slide
 * of `jS` (measured along x from the ground's rail frame at (0, e, 0)):
 *
 *   x(θ) = r cos θ + √(l² − (r sin θ − e)²)
 *
 * θ is the crank angle `jA.angle` from world x. The file is drawn at `crankDeg` on the
 * branch with the slider to the right of the crank pivot (x > r cos θ).
 */
import type { AssemblyDoc, JointMateDoc } from '../../src/assembly/types';
import { DEG, IDENTITY, axesFromZX, quatFromAxes, rotZ, cleanQ, cleanV, type V3 } from './geometry';

export interface SliderCrankOptions {
  r?: number;
  l?: number;
  e?: number;
  crankDeg?: number;
  /** Limits of the slide (`jS.slide`), in length units. */
  slideLimits?: [number, number];
  name?: string;
}

/** Slider position along x for crank angle t (rad). */
export function sliderPosition(t: number, r = 1, l = 3, e = 0): number {
  const s = r * Math.sin(t) - e;
  return r * Math.cos(t) + Math.sqrt(l * l - s * s);
}

export function sliderCrankDoc(options: SliderCrankOptions = {}): AssemblyDoc {
  const { r = 1, l = 3, e = 0, crankDeg = 0 } = options;
  if (!(l > r + Math.abs(e))) throw new RangeError('slider-crank: the crank turns fully only when l > r + |e|');
  const t = crankDeg * DEG;
  const B: [number, number, number] = [r * Math.cos(t), r * Math.sin(t), 0];
  const x = sliderPosition(t, r, l, e);
  const rodAngle = Math.atan2(e - B[1], x - B[0]);
  // The rail frame: z along world x (the slide direction), x along world y.
  const rail = { origin: [0, e, 0] as const, rotation: quatFromAxes(axesFromZX([1, 0, 0], [0, 1, 0])) };
  const frame0 = { origin: [0, 0, 0] as V3, rotation: IDENTITY };
  const jS: JointMateDoc = options.slideLimits
    ? { type: 'slider', a: 'ground.rail', b: 'slider.rail', limits: { slide: options.slideLimits } }
    : { type: 'slider', a: 'ground.rail', b: 'slider.rail' };
  return {
    format: 'kinemate.assembly/1',
    name: options.name ?? (e === 0 ? 'slider-crank' : 'offset-slider-crank'),
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: { position: [0, 0, 0], rotation: IDENTITY }, frames: { pivot: frame0, rail } },
      crank: { pose: { position: [0, 0, 0], rotation: cleanQ(rotZ(t)) }, frames: { base: frame0, tip: { origin: [r, 0, 0], rotation: IDENTITY } } },
      rod: { pose: { position: cleanV(B), rotation: cleanQ(rotZ(rodAngle)) }, frames: { start: frame0, end: { origin: [l, 0, 0], rotation: IDENTITY } } },
      slider: { pose: { position: [x, e, 0], rotation: IDENTITY }, frames: { pin: frame0, rail: { origin: [0, 0, 0], rotation: rail.rotation } } },
    },
    mates: {
      jA: { type: 'revolute', a: 'ground.pivot', b: 'crank.base' },
      jB: { type: 'revolute', a: 'crank.tip', b: 'rod.start' },
      jC: { type: 'revolute', a: 'rod.end', b: 'slider.pin' },
      jS,
    },
    state: { 'jA.angle': crankDeg },
    held: ['jA.angle'],
  };
}
