/**
 * The envelope of a suspension body (the tyre by default) over a bump × steer grid: the
 * grid's sweep run as clearance runs it, the body's pose kept at every solved state, then
 * the swept volume (src/assembly/geometry/envelope.ts).
 */
import type { SuspensionModel } from '../build/model.ts';
import { runSweep } from '../sweep/sweep.ts';
import type { PartMesh } from '../../assembly/geometry/mesh.ts';
import { sweptEnvelope, type Envelope, type EnvelopeOptions } from '../../assembly/geometry/envelope.ts';
import type { SuspensionBodies } from './bodies.ts';
import type { GridSweep } from './grid.ts';
import { GeometryError } from '../../assembly/geometry/errors.ts';

export interface SuspensionEnvelope extends Envelope {
  /** The body's pose at every solved state of the grid (world, [tx, ty, tz, qw, qx, qy, qz]). */
  poses: Float64Array[];
  /** States of the grid that did not solve (left out of the envelope). */
  failed: number;
}

export function suspensionEnvelope(sm: SuspensionModel, grid: GridSweep, bodies: SuspensionBodies, body: string, mesh: PartMesh, options: EnvelopeOptions & { onProgress?: (done: number, total: number) => void } = {}): SuspensionEnvelope {
  const poses: Float64Array[] = [];
  const run = runSweep(sm, grid.spec, {
    metrics: () => ({}),
    onSolvedState: () => { poses.push(Float64Array.from(bodies.poseOf(body))); },
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  const failed = run.steps.filter((s) => s.status !== 'solved').length;
  if (poses.length === 0) throw new GeometryError('--grid', 'no state of the grid solved');
  return { ...sweptEnvelope(mesh, poses, options), poses, failed };
}
