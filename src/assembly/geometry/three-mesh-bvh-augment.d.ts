/** three-mesh-bvh's distanceToTriangle takes two targets for the closest points (its JS does); its .d.ts leaves them out. */
import type { Vector3 } from 'three';

declare module 'three-mesh-bvh' {
  interface ExtendedTriangle {
    distanceToTriangle(other: ExtendedTriangle, target1?: Vector3 | null, target2?: Vector3 | null): number;
  }
}
