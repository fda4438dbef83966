/**
 * The envelope: closed (every edge shared by exactly two triangles, positions welded) and
 * holding every vertex of the part at every sampled pose (ray parity on the result), for a
 * box swept along a turn and for the tyre of the fixture corner over a bump × steer grid.
 */
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { boxMesh, torusMesh, fileSource, loadPartGeometry, type PartMesh } from '../../../src/assembly/geometry/index.ts';
import { surfaceSamples, sweptEnvelope } from '../../../src/assembly/geometry/envelope.ts';
import { ClearanceBody, isInside, poseMatrix, type PoseArray } from '../../../src/assembly/geometry/clearance.ts';
import { isClosedMesh } from '../../../src/assembly/geometry/closed.ts';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { suspensionBodies } from '../../../src/suspension/clearance/bodies.ts';
import { gridSweep } from '../../../src/suspension/clearance/grid.ts';
import { suspensionEnvelope } from '../../../src/suspension/clearance/envelope.ts';
import { Matrix4 } from 'three';
import { writeCorner, SMALL } from './corner-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'kinemate-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Vertices of `mesh` at any of `poses` that `envelope` does not hold. */
function outside(envelope: PartMesh, mesh: PartMesh, poses: readonly PoseArray[]): number {
  const body = new ClearanceBody(envelope);
  const m = new Matrix4();
  const v = new Vector3();
  let count = 0;
  for (const pose of poses) {
    poseMatrix(pose, m);
    for (let i = 0; i < mesh.positions.length; i += 3) {
      if (!isInside(body, v.fromArray(mesh.positions, i).applyMatrix4(m))) count++;
    }
  }
  return count;
}

describe('envelope', () => {
  it('a box turned and lifted: closed, holding every vertex, and no bigger than grown by its bound', () => {
    const box = boxMesh([40, 20, 10]);
    const poses: number[][] = [];
    for (let i = 0; i < 7; i++) {
      const a = (i / 6) * (Math.PI / 3);
      poses.push([0, 0, 3 * i, Math.cos(a / 2), 0, 0, Math.sin(a / 2)]);
    }
    const env = sweptEnvelope(box, poses, { voxel: 2 });
    expect(isClosedMesh(env.mesh)).toBe(true);
    expect(outside(env.mesh, box, poses)).toBe(0);
    // the swept solid lies within z ∈ [−5, 23]: the envelope no further than growth beyond it
    const zs = Array.from(env.mesh.positions).filter((_, i) => i % 3 === 2);
    expect(Math.min(...zs)).toBeGreaterThanOrEqual(-5 - env.growth);
    expect(Math.max(...zs)).toBeLessThanOrEqual(23 + env.growth);
    expect(Math.min(...zs)).toBeLessThan(-5);
    // a point well outside the swept box (past its far corner) is outside the envelope
    expect(isInside(new ClearanceBody(env.mesh), new Vector3(0, 40, 10))).toBe(false);
  });

  it('the tyre over a 3 × 3 bump × steer grid of the fixture corner', async () => {
    const file = writeCorner(dir, SMALL);
    const geometry = parseGeometry(readFileSync(file, 'utf8'), file);
    const sm = new SuspensionModel(suspensionAssembly(geometry));
    const bodies = suspensionBodies(sm, ['tyre']);
    const tyre = await loadPartGeometry(geometry.part_geometry!.tyre!, fileSource(dir));
    const env = suspensionEnvelope(sm, gridSweep([-40, 0, 40], [-15, 0, 15], geometry), bodies, 'tyre', tyre, { voxel: 12 });
    expect(env.poses).toHaveLength(9);
    expect(env.failed).toBe(0);
    expect(isClosedMesh(env.mesh)).toBe(true);
    expect(outside(env.mesh, tyre, env.poses)).toBe(0);
    // the states differ: steer turned the tyre (its pose's quaternion leaves the identity)
    expect(new Set(env.poses.map((p) => p[6]!.toFixed(4))).size).toBeGreaterThan(1);
  });

  it('a mesh as STL stores it (each triangle its own three corners) gives the same envelope, each position sampled once', () => {
    const welded = torusMesh(40, 12, 24, 10);
    const idx = welded.indices;
    const positions = new Float32Array(3 * idx.length);
    for (let t = 0; t < idx.length; t++) for (let k = 0; k < 3; k++) positions[3 * t + k] = welded.positions[3 * idx[t]! + k]!;
    const soup: PartMesh = { positions, indices: Uint32Array.from(idx.keys()) };
    const h = 4;
    expect(surfaceSamples(soup, h).length).toBe(surfaceSamples(welded, h).length);
    const poses: PoseArray[] = [[0, 0, 0, 1, 0, 0, 0], [5, 2, 9, 0.99, 0.1, 0, 0.05]];
    const a = sweptEnvelope(soup, poses, { voxel: h }), b = sweptEnvelope(welded, poses, { voxel: h });
    expect(a.mesh.indices.length).toBeGreaterThan(0);
    expect(a.mesh.positions.length).toBe(b.mesh.positions.length);
    expect(a.mesh.positions.every((x, i) => x === b.mesh.positions[i])).toBe(true);
    expect(a.mesh.indices.every((x, i) => x === b.mesh.indices[i])).toBe(true);
  });
});
