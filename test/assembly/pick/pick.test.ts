/**
 * The pick rules against primitives whose answer is known (geometry.md "Mates by
 * picking", seed 004): a cylinder's axis from any of its faces, split or not, turned
 * anywhere; a plane from a noisy triangulated square; a circle from a tessellated rim; a
 * sphere's centre; a box's corner and straight edge; a cone's axis.
 */
import { describe, expect, it } from 'vitest';
import { PickIndex } from '../../../src/assembly/geometry/pick/pick.ts';
import { boxMesh, cylinderMesh, noisySquare, quatAbout, rotate, sphereMesh, transformed } from './primitives.ts';

const angleBetweenLines = (a: readonly number[], b: readonly number[]) => {
  const c = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (Math.hypot(a[0], a[1], a[2]) * Math.hypot(b[0], b[1], b[2]));
  return Math.acos(Math.min(1, c));
};
/** Distance of p from the line through o along d. */
const offLine = (p: readonly number[], o: readonly number[], d: readonly number[]) => {
  const v = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
  const l = Math.hypot(d[0], d[1], d[2]);
  const along = (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / l;
  return Math.sqrt(Math.max(v[0] ** 2 + v[1] ** 2 + v[2] ** 2 - along * along, 0));
};

describe('entity from a pick', () => {
  const q = quatAbout([0.3, -0.5, 0.8], 1.1);
  const t = [120, -40, 310];
  const axisDir = rotate(q, [0, 0, 1]);

  for (const split of [false, true]) {
    it(`a cylinder's axis from every triangle of its side${split ? ', the side split into two B-rep faces' : ''}`, () => {
      const mesh = transformed(cylinderMesh({ radius: 25, height: 80, segments: 24, splitSide: split }), q, t);
      const index = new PickIndex(mesh);
      for (let tri = 0; tri < 48; tri++) {
        const r = index.pick(tri);
        expect(r.feature).toBe('cylindrical face');
        if (r.entity.kind !== 'axis') throw new Error('not an axis');
        expect(angleBetweenLines(r.entity.axis.direction, axisDir)).toBeLessThan(1e-9);
        expect(offLine(t, r.entity.axis.origin, r.entity.axis.direction)).toBeLessThan(1e-6);
        expect(r.radius).toBeCloseTo(25, 9);
        expect(r.triangles.length).toBe(48); // both halves: one wall
      }
    });
  }

  it('the halves of a split cylinder are one surface, its caps two others', () => {
    const index = new PickIndex(cylinderMesh({ radius: 10, height: 20, segments: 16, splitSide: true }));
    expect(index.surfaces.length).toBe(3);
    const cap = index.pick(40); // a bottom cap triangle
    expect(cap.feature).toBe('planar face');
    if (cap.entity.kind !== 'plane') throw new Error('not a plane');
    expect(cap.entity.plane.normal).toEqual([0, 0, -1]); // out of the material, exactly
  });

  it('a plane from a triangulated square with seeded noise, the residual the noise level', () => {
    const amp = 0.05; // uniform ±0.05: RMS 0.0289 on the normal component
    const mesh = noisySquare(100, 20, amp, 7);
    const r = new PickIndex(mesh, 45).pick(123);
    expect(r.feature).toBe('planar face');
    if (r.entity.kind !== 'plane') throw new Error('not a plane');
    expect(angleBetweenLines(r.entity.plane.normal, [0, 0, 1])).toBeLessThan(1e-3);
    expect(Math.abs(r.entity.plane.origin[2])).toBeLessThan(0.01);
    expect(r.residual).toBeGreaterThan(0.02);
    expect(r.residual).toBeLessThan(0.035);
    expect(r.triangles.length).toBe(800);
  });

  it('a circle and its centre from a tessellated rim, on a plain mesh', () => {
    const mesh = transformed(cylinderMesh({ radius: 30, height: 50, segments: 32, faces: false }), q, t);
    const index = new PickIndex(mesh);
    // a point on the top rim, half-way between two vertices (a chord's midpoint)
    const mid = rotate(q, [30 * Math.cos(Math.PI / 32), 30 * Math.sin(Math.PI / 32), 50]).map((v, k) => v + t[k]);
    const r = index.pick(0, { point: mid, tolerance: 1 });
    expect(r.feature).toBe('circular edge');
    if (r.entity.kind !== 'circle') throw new Error('not a circle');
    expect(r.entity.circle.radius).toBeCloseTo(30, 9);
    const centre = rotate(q, [0, 0, 50]).map((v, k) => v + t[k]);
    for (let k = 0; k < 3; k++) expect(r.entity.circle.center[k]).toBeCloseTo(centre[k], 6);
    expect(r.entity.centre).toEqual(r.entity.circle.center);
    expect(angleBetweenLines(r.entity.circle.normal, axisDir)).toBeLessThan(1e-9);
    expect(r.segments!.length).toBe(6 * 32); // the whole rim
  });

  it('far from the rim the same triangle picks the face', () => {
    const index = new PickIndex(cylinderMesh({ radius: 30, height: 50, segments: 32, faces: false }));
    const r = index.pick(0, { point: [30, 0.5, 25], tolerance: 1 });
    expect(r.feature).toBe('cylindrical face');
  });

  it("a sphere's centre and radius, by least squares on a plain mesh", () => {
    const r = new PickIndex(sphereMesh(40, [5, -7, 11])).pick(100);
    expect(r.feature).toBe('spherical face');
    if (r.entity.kind !== 'point') throw new Error('not a point');
    expect(r.entity.point[0]).toBeCloseTo(5, 8);
    expect(r.entity.point[1]).toBeCloseTo(-7, 8);
    expect(r.entity.point[2]).toBeCloseTo(11, 8);
    expect(r.radius).toBeCloseTo(40, 8);
    expect(r.residual).toBeLessThan(1e-9);
  });

  it("a cone's axis, not a triangle's normal", () => {
    const mesh = transformed(cylinderMesh({ radius: 30, height: 40, segments: 24, cone: 0.5 }), q, t);
    const r = new PickIndex(mesh).pick(5);
    expect(r.feature).toBe('conical face');
    if (r.entity.kind !== 'axis') throw new Error('not an axis');
    expect(angleBetweenLines(r.entity.axis.direction, axisDir)).toBeLessThan(1e-8);
    expect(offLine(t, r.entity.axis.origin, r.entity.axis.direction)).toBeLessThan(1e-6);
  });

  it("a box's corner picks a point, its straight edge an axis along it", () => {
    const index = new PickIndex(boxMesh([10, 20, 30]));
    const corner = index.pick(10, { point: [9.9, 19.8, 30], tolerance: 0.5 }); // face +z (triangles 10, 11)
    expect(corner.feature).toBe('vertex');
    expect(corner.entity).toEqual({ kind: 'point', point: [10, 20, 30] });
    const edge = index.pick(10, { point: [5, 19.8, 30], tolerance: 0.5 });
    expect(edge.feature).toBe('straight edge');
    if (edge.entity.kind !== 'axis') throw new Error('not an axis');
    expect(edge.entity.axis.direction).toEqual([1, 0, 0]);
    expect(edge.entity.axis.origin).toEqual([5, 20, 30]);
  });

  it('refuses a triangle the mesh does not have', () => {
    expect(() => new PickIndex(boxMesh([1, 1, 1])).pick(12)).toThrow(/^triangleIndex: triangle 12 is not one of the mesh's 12 triangles$/);
  });
});
