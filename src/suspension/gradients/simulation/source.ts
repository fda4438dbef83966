/** A geometry file with its dynamics section: what a suspension simulation's gradients are taken of (geometry.ts, results.ts). */
import type { Geometry } from '../../files';
import type { SuspensionDynamicsSpec } from '../../dynamics/model';

export interface GeometrySource { geometry: Geometry; spec: SuspensionDynamicsSpec }
