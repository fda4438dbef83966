/**
 * An eccentric circle cam with an in-line roller follower. The cam turns on a revolute
 * `jCam` about world z at the origin; its profile is a circle of radius R = 1 whose centre
 * is e = 0.3 from the axis (along the cam's x), sampled at 72 points as a closed smooth
 * curve (a C¹ Catmull–Rom spline through the samples). The follower slides along world y
 * on a slider `jF` (its slide is the roller centre's y); its roller, radius r = 0.25, is
 * held `tangent` to the profile by the mate `contact`, whose foot parameter is
 * `contact.u` (sample i at u = i, running counter-clockwise on the cam).
 *
 * Closed form (exact circle): the roller centre lies on the circle of radius R + r about
 * the cam centre e(cos θ, sin θ), so its lift is
 *
 *   y(θ) = e sin θ + √((R + r)² − e² cos² θ).
 *
 * The spline is not exactly a circle: `profileError` measures how far it strays.
 */
import type { AssemblyDoc } from '../../src/assembly/types';
import { Curve } from '../../mates/entities';
import { DEG, IDENTITY, axesFromZX, quatFromAxes, rotZ, cleanQ, type V3 } from './geometry';

export const CAM = { R: 1, e: 0.3, roller: 0.25, samples: 72 };

/** The profile samples in the cam's frame (counter-clockwise, sample 0 at angle 0). */
export function camProfile(samples = CAM.samples): V3[] {
  const out: V3[] = [];
  for (let i = 0; i < samples; i++) {
    const a = (2 * Math.PI * i) / samples;
    out.push([CAM.e + CAM.R * Math.cos(a), CAM.R * Math.sin(a), 0]);
  }
  return out;
}

/** Follower lift (roller centre y) for cam angle θ (rad), exact circle. */
export function followerLift(theta: number): number {
  const { R, e, roller: r } = CAM;
  const c = e * Math.cos(theta);
  return e * Math.sin(theta) + Math.sqrt((R + r) ** 2 - c * c);
}

/**
 * How far the sampled smooth profile strays from the exact circle: the largest
 * | |C(u) − centre| − R | over the whole curve (dense sampling, `perSegment` points a span).
 */
export function profileError(samples = CAM.samples, perSegment = 200): number {
  const curve = new Curve(camProfile(samples), true, true);
  const out = new Float64Array(9);
  let worst = 0;
  for (let k = 0; k < samples * perSegment; k++) {
    curve.evaluate(out, k / perSegment);
    worst = Math.max(worst, Math.abs(Math.hypot(out[0] - CAM.e, out[1]) - CAM.R));
  }
  return worst;
}

export function camDoc(camDeg = 0): AssemblyDoc {
  const theta = camDeg * DEG;
  const y = followerLift(theta);
  // the guide frame: z along world y (the follower's line), x along world x
  const guide = quatFromAxes(axesFromZX([0, 1, 0], [1, 0, 0]));
  return {
    format: 'kinemate.assembly/1',
    name: 'cam-roller-follower',
    units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: {
        fixed: true,
        pose: { position: [0, 0, 0], rotation: IDENTITY },
        frames: { axis: { origin: [0, 0, 0], rotation: IDENTITY }, guide: { origin: [0, 0, 0], rotation: guide } },
      },
      cam: {
        pose: { position: [0, 0, 0], rotation: cleanQ(rotZ(theta)) },
        frames: { axis: { origin: [0, 0, 0], rotation: IDENTITY } },
        curves: { profile: { polyline: camProfile(), closed: true, smooth: true } },
      },
      follower: {
        pose: { position: [0, y, 0], rotation: IDENTITY },
        frames: { guide: { origin: [0, 0, 0], rotation: guide } },
        circles: { roller: { center: [0, 0, 0], normal: [0, 0, 1], radius: CAM.roller } },
      },
    },
    mates: {
      jCam: { type: 'revolute', a: 'ground.axis', b: 'cam.axis' },
      jF: { type: 'slider', a: 'ground.guide', b: 'follower.guide' },
      contact: { type: 'tangent', a: 'cam.profile', b: 'follower.roller' },
    },
    state: { 'jCam.angle': camDeg },
    held: ['jCam.angle'],
  };
}
