/**
 * What a click on a triangle of a part's mesh picks (geometry.md "Mates by picking";
 * seed 004: a face is a piece of a wall).
 *
 * - A face picks its whole surface: the B-rep face joined with every adjacent face of the
 *   same surface (surfaces.ts), or on a plain mesh the smooth region the triangle is in.
 *   A plane → a `plane` (normal out of the material); a cylinder or a cone → an `axis`
 *   (the surface's axis, not the clicked triangle's normal); a sphere → its centre, a `point`.
 * - With the hit point and a tolerance (a length; the viewer passes a few pixels' worth):
 *   a corner of the surface within the tolerance → a `point`; else a boundary edge of the
 *   surface within it → the whole edge run (edges.ts): a circle → a `circle` (and its
 *   centre), a straight run → an `axis` along it. A run that is neither picks the face.
 * - Every direction goes through `canonicalDirection` (direction.ts); every result says
 *   the residual of its fit (RMS distance, length unit).
 */
import type { AxisDoc, CircleDoc, PlaneDoc, Vec3Doc } from '../../types.ts';
import { GeometryError } from '../errors.ts';
import { canonicalDirection, directionTolerance } from './direction.ts';
import { boundaryEdges, edgeRuns, isCorner, runPoints, runSegments, segmentDistance, type BoundaryEdge } from './edges.ts';
import { fitCircle, fitLine } from './fit.ts';
import { DEFAULT_SMOOTH_ANGLE_DEG, initialRegions, trianglesByRegion } from './segment.ts';
import { classifyRegion, joinSurfaces, type RegionSurface } from './surfaces.ts';
import { buildTopology, type PickMesh, type Topology } from './topology.ts';
import type { Vec3T } from './vectors.ts';

export type PickedEntity =
  | { readonly kind: 'plane'; readonly plane: PlaneDoc }
  | { readonly kind: 'axis'; readonly axis: AxisDoc }
  | { readonly kind: 'circle'; readonly circle: CircleDoc; readonly centre: Vec3Doc }
  | { readonly kind: 'point'; readonly point: Vec3Doc };

export type PickedFeature = 'planar face' | 'cylindrical face' | 'conical face' | 'spherical face' | 'circular edge' | 'straight edge' | 'vertex';

export interface PickResult {
  readonly entity: PickedEntity;
  readonly feature: PickedFeature;
  /** RMS distance of the picked triangles' (or edge's) vertices from what was fitted. */
  readonly residual: number;
  /** A cylinder's, cone's (at the axis origin), sphere's or circle's radius. */
  readonly radius?: number;
  /** The picked surface's id and its triangles (for highlighting). */
  readonly surface: number;
  readonly triangles: Int32Array;
  /** An edge pick's segments, xyz pairs; a vertex pick's point. */
  readonly segments?: Float64Array;
}

export interface PickOptions {
  /** Where the ray hit the triangle, in the mesh's frame: enables edge and vertex picks. */
  readonly point?: ArrayLike<number>;
  /** How close to an edge or vertex a hit picks it (length); default 1% of the mesh's size. */
  readonly tolerance?: number;
  /** Dihedral angle (degrees) below which a plain mesh's triangles are one smooth region; default 30. */
  readonly smoothAngle?: number;
}

/**
 * Values saved in the document are rounded to 1e-10 of the mesh's size (decimal places,
 * so a centre on the axis is 0, not 3e-16) and directions to 12 places: a readable file,
 * and far below any fit's residual.
 */
const round = (x: number, digits: number): number => Number(x.toFixed(Math.min(20, Math.max(0, digits)))) + 0;
const dir3 = (v: Readonly<ArrayLike<number>>): Vec3Doc => [round(v[0], 12), round(v[1], 12), round(v[2], 12)];

/** The connectivity, surfaces and fits of one mesh, built once and kept for every pick on it. */
export class PickIndex {
  readonly topology: Topology;
  readonly surfaceOf: Int32Array;
  readonly surfaces: readonly Int32Array[];
  private readonly fits: Map<number, RegionSurface>;
  private readonly boundaries = new Map<number, Boundary>();
  private readonly runPicks = new Map<string, PickResult | null>();

  constructor(mesh: PickMesh, readonly smoothAngle = DEFAULT_SMOOTH_ANGLE_DEG) {
    this.topology = buildTopology(mesh);
    const region = initialRegions(mesh, this.topology, smoothAngle);
    const joined = joinSurfaces(this.topology, region, trianglesByRegion(region));
    this.surfaceOf = joined.surfaceOf;
    this.surfaces = joined.surfaces;
    this.fits = joined.fits;
    this.places = 10 - Math.ceil(Math.log10(this.topology.size));
  }

  /** Decimal places of saved lengths: 1e-10 of the mesh's size. */
  private readonly places: number;
  private doc3(v: Readonly<ArrayLike<number>>): Vec3Doc {
    return [round(v[0], this.places), round(v[1], this.places), round(v[2], this.places)];
  }

  surfaceFit(surface: number): RegionSurface {
    let fit = this.fits.get(surface);
    if (!fit) { fit = classifyRegion(this.topology, this.surfaces[surface]); this.fits.set(surface, fit); }
    return fit;
  }

  pick(triangle: number, options: PickOptions = {}): PickResult {
    if (!Number.isInteger(triangle) || triangle < 0 || triangle >= this.topology.triangleCount) {
      throw new GeometryError('triangleIndex', `triangle ${triangle} is not one of the mesh's ${this.topology.triangleCount} triangles`);
    }
    const surface = this.surfaceOf[triangle];
    if (options.point) {
      const p: Vec3T = [options.point[0], options.point[1], options.point[2]];
      const tol = options.tolerance ?? 0.01 * this.topology.size;
      const near = this.vertexNear(surface, p, tol) ?? this.edgeNear(surface, p, tol);
      if (near) return near;
    }
    return this.facePick(surface);
  }

  private facePick(surface: number): PickResult {
    const { fit, extent, meanNormal } = this.surfaceFit(surface);
    const base = { residual: fit.residual, surface, triangles: this.surfaces[surface] };
    const tau = directionTolerance(fit.residual, extent);
    switch (fit.kind) {
      case 'plane':
        return { ...base, feature: 'planar face', entity: { kind: 'plane', plane: { origin: this.doc3(fit.origin), normal: dir3(canonicalDirection(fit.normal, tau, meanNormal)) } } };
      case 'sphere':
        return { ...base, feature: 'spherical face', radius: fit.radius, entity: { kind: 'point', point: this.doc3(fit.center) } };
      default:
        return {
          ...base, feature: fit.kind === 'cylinder' ? 'cylindrical face' : 'conical face', radius: fit.radius,
          entity: { kind: 'axis', axis: { origin: this.doc3(fit.origin), direction: dir3(canonicalDirection(fit.direction, tau)) } },
        };
    }
  }

  /** A surface's boundary edges, their runs and its corners, found once. */
  private boundary(surface: number): Boundary {
    let b = this.boundaries.get(surface);
    if (!b) {
      const edges = boundaryEdges(this.topology, this.surfaceOf, this.surfaces[surface]);
      const { runOf, runs } = edgeRuns(edges);
      const vertices = [...new Set(edges.flatMap((e) => [e.a, e.b]))].sort((x, y) => x - y);
      b = { edges, runOf, runs, corners: vertices.filter((v) => isCorner(this.topology, this.surfaceOf, v)) };
      this.boundaries.set(surface, b);
    }
    return b;
  }

  private vertexNear(surface: number, p: Vec3T, tol: number): PickResult | null {
    const P = this.topology.points;
    let best = -1, bestD = tol;
    for (const v of this.boundary(surface).corners) {
      const d = Math.hypot(P[3 * v] - p[0], P[3 * v + 1] - p[1], P[3 * v + 2] - p[2]);
      if (d <= bestD) { best = v; bestD = d; }
    }
    if (best < 0) return null;
    const point = this.doc3([P[3 * best], P[3 * best + 1], P[3 * best + 2]]);
    return { entity: { kind: 'point', point }, feature: 'vertex', residual: 0, surface, triangles: this.surfaces[surface], segments: Float64Array.from(point) };
  }

  private edgeNear(surface: number, p: Vec3T, tol: number): PickResult | null {
    const { edges, runOf, runs } = this.boundary(surface);
    let best = -1, bestD = tol;
    edges.forEach((e, i) => {
      const d = segmentDistance(this.topology, p, e.a, e.b);
      if (d <= bestD) { best = i; bestD = d; }
    });
    if (best < 0) return null;
    const key = `${surface}:${runOf[best]}`;
    if (!this.runPicks.has(key)) this.runPicks.set(key, this.runPick(surface, runs[runOf[best]]));
    return this.runPicks.get(key)!;
  }

  /** What an edge run is: a straight run → an axis along it, a circle → a circle and its centre, else nothing. */
  private runPick(surface: number, run: readonly BoundaryEdge[]): PickResult | null {
    const points = runPoints(this.topology, run);
    const base = { surface, triangles: this.surfaces[surface], segments: runSegments(this.topology, run) };
    const floor = 1e-6 * this.topology.size;
    const line = fitLine(points);
    const extent = spanAlong(points, line.origin, line.direction);
    if (line.residual <= Math.max(floor, 1e-3 * extent)) {
      const direction = canonicalDirection(line.direction, directionTolerance(line.residual, extent));
      return { ...base, feature: 'straight edge', residual: line.residual, entity: { kind: 'axis', axis: { origin: this.doc3(line.origin), direction: dir3(direction) } } };
    }
    if (points.length / 3 < 4) return null;
    const circle = fitCircle(points);
    if (!(circle.residual <= Math.max(floor, 1e-2 * circle.radius))) return null;
    const normal = canonicalDirection(circle.normal, directionTolerance(circle.residual, 2 * circle.radius));
    const center = this.doc3(circle.center);
    return {
      ...base, feature: 'circular edge', residual: circle.residual, radius: circle.radius,
      entity: { kind: 'circle', circle: { center, normal: dir3(normal), radius: round(circle.radius, this.places) }, centre: center },
    };
  }
}

interface Boundary {
  readonly edges: readonly BoundaryEdge[];
  readonly runOf: Int32Array;
  readonly runs: readonly BoundaryEdge[][];
  readonly corners: readonly number[];
}

function spanAlong(points: Float64Array, o: Vec3T, d: Vec3T): number {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < points.length; i += 3) {
    const h = (points[i] - o[0]) * d[0] + (points[i + 1] - o[1]) * d[1] + (points[i + 2] - o[2]) * d[2];
    lo = Math.min(lo, h); hi = Math.max(hi, h);
  }
  return hi - lo;
}

const indexes = new WeakMap<object, PickIndex>();

/** The pick index of a mesh, built on first use and kept as long as the mesh object lives. */
export function pickIndexOf(mesh: PickMesh, smoothAngle = DEFAULT_SMOOTH_ANGLE_DEG): PickIndex {
  let index = indexes.get(mesh);
  if (!index || index.smoothAngle !== smoothAngle) { index = new PickIndex(mesh, smoothAngle); indexes.set(mesh, index); }
  return index;
}
