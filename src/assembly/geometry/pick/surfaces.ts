/**
 * What surface a region of triangles lies on, and which regions are one surface.
 *
 * Classifying: a plane, a cylinder, a cone and a sphere are each fitted by least squares,
 * and the first in that order (simplest first) whose residual is within 1.5 × the best
 * (plus rounding) is the answer: a noisy plane is a plane although a huge cylinder fits
 * its noise a hair better. The cone comes before the sphere because the vertices of one
 * ring of facets (two circles) lie on a sphere too; a sphere tessellated in several rings
 * is no cone.
 *
 * Joining (seed 004, "a face is a piece of a wall"): adjacent regions whose fits are the
 * same surface — a cylinder a CAD kernel split into two half faces, a plane cut by a seam —
 * are merged across their shared edges, taken in the order of their ids, and the merged
 * region is fitted again as a whole.
 */
import { facesCentre, fitPlane, fitRevolution, fitSphere, refineCylinder, type PlaneFit, type RevolutionFit, type SphereFit } from './fit.ts';
import type { Topology } from './topology.ts';
import type { Vec3T } from './vectors.ts';

export type SurfaceFit = PlaneFit | SphereFit | RevolutionFit;

export interface RegionSurface {
  readonly fit: SurfaceFit;
  /** The region's extent (its points' bounding-box diagonal). */
  readonly extent: number;
  /** The area-weighted mean facet normal (orients a plane's normal out of the material). */
  readonly meanNormal: Vec3T;
}

/** Fits read at most this many triangles of a region, evenly strided (a fine mesh fits no better). */
export const MAX_FIT_TRIANGLES = 4096;

/** Every `stride`-th triangle of a region, so that at most MAX_FIT_TRIANGLES are read. */
function sampled(triangles: ArrayLike<number>): ArrayLike<number> {
  if (triangles.length <= MAX_FIT_TRIANGLES) return triangles;
  const stride = Math.ceil(triangles.length / MAX_FIT_TRIANGLES);
  return Int32Array.from({ length: Math.ceil(triangles.length / stride) }, (_, i) => triangles[i * stride]);
}

/** The distinct vertices of some triangles (strided, see `sampled`), packed xyz, with their facets' normals and areas. */
export function regionSamples(topo: Topology, all: ArrayLike<number>) {
  const triangles = sampled(all);
  const seen = new Set<number>();
  const points: number[] = [];
  const normals = new Float64Array(3 * triangles.length), weights = new Float64Array(triangles.length);
  const meanNormal: Vec3T = [0, 0, 0];
  for (let i = 0; i < triangles.length; i++) {
    const t = triangles[i];
    for (let k = 0; k < 3; k++) {
      const v = topo.corners[3 * t + k];
      if (!seen.has(v)) { seen.add(v); points.push(topo.points[3 * v], topo.points[3 * v + 1], topo.points[3 * v + 2]); }
      normals[3 * i + k] = topo.normals[3 * t + k];
      meanNormal[k] += topo.areas[t] * topo.normals[3 * t + k];
    }
    weights[i] = topo.areas[t];
  }
  return { points: Float64Array.from(points), normals, weights, meanNormal };
}

/** The first corner of each triangle, packed xyz. */
function firstCorners(topo: Topology, triangles: ArrayLike<number>): Float64Array {
  const out = new Float64Array(3 * triangles.length);
  for (let i = 0; i < triangles.length; i++) {
    const v = topo.corners[3 * triangles[i]];
    for (let k = 0; k < 3; k++) out[3 * i + k] = topo.points[3 * v + k];
  }
  return out;
}

function extentOf(points: Float64Array): number {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3) for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], points[i + k]); hi[k] = Math.max(hi[k], points[i + k]); }
  return Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

export function classifyRegion(topo: Topology, triangles: ArrayLike<number>): RegionSurface {
  const { points, normals, weights, meanNormal } = regionSamples(topo, triangles);
  triangles = sampled(triangles);
  const plane = fitPlane(points);
  const [roughCylinder, cone] = fitRevolution(points, normals, weights);
  const cylinder = refineCylinder(points, roughCylinder);
  let sphere = fitSphere(points);
  if (!facesCentre(sphere.center, firstCorners(topo, triangles), normals)) sphere = { ...sphere, residual: Infinity };
  const candidates: SurfaceFit[] = [plane, cylinder, cone, sphere];
  const best = Math.min(...candidates.map((c) => c.residual));
  const slack = 1e-9 * topo.size;
  const fit = candidates.find((c) => c.residual <= 1.5 * best + slack) ?? plane;
  return { fit, extent: extentOf(points), meanNormal };
}

const dot = (a: Readonly<Vec3T>, b: Readonly<Vec3T>) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/** Distance of point p from the line through o along unit d. */
function offLine(p: Readonly<Vec3T>, o: Readonly<Vec3T>, d: Readonly<Vec3T>): number {
  const v: Vec3T = [p[0] - o[0], p[1] - o[1], p[2] - o[2]];
  const along = dot(v, d);
  return Math.sqrt(Math.max(dot(v, v) - along * along, 0));
}

/** Whether two fits are the same surface within a length and an angle tolerance. */
export function sameSurface(a: SurfaceFit, b: SurfaceFit, lengthTol: number, angleTol: number): boolean {
  if (a.kind !== b.kind) return false;
  const parallel = (u: Readonly<Vec3T>, v: Readonly<Vec3T>) => 1 - Math.abs(dot(u, v)) <= angleTol * angleTol / 2 + 1e-15;
  switch (a.kind) {
    case 'plane': {
      const p = b as PlaneFit;
      return parallel(a.normal, p.normal) && Math.abs(dot([p.origin[0] - a.origin[0], p.origin[1] - a.origin[1], p.origin[2] - a.origin[2]], a.normal)) <= lengthTol;
    }
    case 'sphere': {
      const s = b as SphereFit;
      return Math.hypot(a.center[0] - s.center[0], a.center[1] - s.center[1], a.center[2] - s.center[2]) <= lengthTol && Math.abs(a.radius - s.radius) <= lengthTol;
    }
    default: {
      const r = b as RevolutionFit;
      if (!parallel(a.direction, r.direction) || offLine(r.origin, a.origin, a.direction) > lengthTol) return false;
      // a's radius law evaluated at r's origin must give r's radius (and the slopes agree)
      const sameWay = Math.sign(dot(a.direction, r.direction)) || 1;
      const h = dot([r.origin[0] - a.origin[0], r.origin[1] - a.origin[1], r.origin[2] - a.origin[2]], a.direction);
      return Math.abs(a.radius + a.slope * h - r.radius) <= lengthTol && Math.abs(a.slope - sameWay * r.slope) <= angleTol;
    }
  }
}

/**
 * Merges adjacent regions that are the same surface. Returns the merged region of each
 * triangle (ids 0.. in order of their lowest original region) and the merged regions'
 * triangles.
 */
export function joinSurfaces(topo: Topology, region: Int32Array, regionTriangles: Int32Array[]): { surfaceOf: Int32Array; surfaces: Int32Array[]; fits: Map<number, RegionSurface> } {
  const fits = regionTriangles.map((tris) => classifyRegion(topo, tris));
  const parent = regionTriangles.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const pairs = new Set<number>();
  const count = regionTriangles.length;
  for (let t = 0; t < topo.triangleCount; t++) {
    for (let k = 0; k < 3; k++) {
      const u = topo.across[3 * t + k];
      if (u < 0 || region[u] === region[t]) continue;
      const a = Math.min(region[t], region[u]), b = Math.max(region[t], region[u]);
      pairs.add(a * count + b);
    }
  }
  for (const key of [...pairs].sort((x, y) => x - y)) {
    const a = Math.floor(key / count), b = key % count;
    const fa = fits[a], fb = fits[b];
    const lengthTol = Math.max(1e-6 * topo.size, 4 * (fa.fit.residual + fb.fit.residual));
    const angleTol = Math.max(1e-6, 4 * (fa.fit.residual / (fa.extent || 1) + fb.fit.residual / (fb.extent || 1)));
    if (sameSurface(fa.fit, fb.fit, lengthTol, angleTol)) {
      const ra = find(a), rb = find(b);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  const dense = new Map<number, number>();
  for (let i = 0; i < count; i++) if (!dense.has(find(i))) dense.set(find(i), dense.size);
  const surfaceOf = Int32Array.from(region, (r) => dense.get(find(r))!);
  const sizes = new Array<number>(dense.size).fill(0);
  for (const s of surfaceOf) sizes[s]++;
  const surfaces = sizes.map((n) => new Int32Array(n));
  const fill = sizes.map(() => 0);
  for (let t = 0; t < surfaceOf.length; t++) surfaces[surfaceOf[t]][fill[surfaceOf[t]]++] = t;
  // a surface that is one region keeps that region's fit
  const members = new Map<number, number>();
  for (let i = 0; i < count; i++) members.set(find(i), (members.get(find(i)) ?? 0) + 1);
  const kept = new Map<number, RegionSurface>();
  for (let i = 0; i < count; i++) if (members.get(find(i)) === 1) kept.set(dense.get(find(i))!, fits[i]);
  return { surfaceOf, surfaces, fits: kept };
}
