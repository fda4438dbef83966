/**
 * Batched drawing: many tubes, pins and triangles in a few draw calls, and a part drawn
 * as a skeleton of them.
 */
import { BufferAttribute, BufferGeometry, Color, InstancedMesh, Matrix4, Mesh, Quaternion, Vector3, type Group, type Material } from 'three';

const _a = new Vector3();
const _b = new Vector3();
const _q = new Quaternion();
const _m = new Matrix4();
const _s = new Vector3();
const _c = new Color();
const UP = new Vector3(0, 1, 0);

/**
 * Many copies of one shape (tubes, pins) in a single draw call: an InstancedMesh
 * refilled on every update, a colour per copy. A software rasteriser (SwiftShader, what
 * headless Chromium and GPU-less machines get) pays ~0.1 ms per draw call, so a linkage
 * of 40 separate tubes cost more than its pixels; drawn this way it is one call.
 * Whatever an update does not add is not drawn.
 */
export class InstanceBatch {
  mesh: InstancedMesh;
  private n = 0;

  constructor(private readonly parent: Group, private readonly geometry: BufferGeometry, private readonly material: Material, name: string, private capacity = 64) {
    this.mesh = this.make(name);
  }

  private make(name: string): InstancedMesh {
    const mesh = new InstancedMesh(this.geometry, this.material, this.capacity);
    mesh.name = name;
    mesh.count = 0;
    // the copies span the model: culling the batch as one object would gain nothing
    mesh.frustumCulled = false;
    this.parent.add(mesh);
    return mesh;
  }

  begin(): void {
    this.n = 0;
  }

  private push(matrix: Matrix4, color: number): void {
    if (this.n === this.capacity) {
      // grow: a new mesh with twice the room, the copies so far carried over
      const old = this.mesh;
      this.capacity *= 2;
      this.mesh = this.make(old.name);
      for (let i = 0; i < this.n; i++) {
        old.getMatrixAt(i, _m); this.mesh.setMatrixAt(i, _m);
        old.getColorAt(i, _c); this.mesh.setColorAt(i, _c);
      }
      this.parent.remove(old);
      old.dispose();
    }
    this.mesh.setMatrixAt(this.n, matrix);
    this.mesh.setColorAt(this.n, _c.setHex(color));
    this.n++;
  }

  /** A unit cylinder (height 1 along y) stretched between two points. */
  tube(a: Vector3, b: Vector3, radius: number, color: number): void {
    const d = _b.copy(b).sub(a);
    const len = d.length();
    _a.copy(a).addScaledVector(d, 0.5);
    if (len > 0) _q.setFromUnitVectors(UP, d.multiplyScalar(1 / len)); else _q.identity();
    this.push(_m.compose(_a, _q, _s.set(radius, Math.max(len, 1e-9), radius)), color);
  }

  /** A unit shape scaled by `radius` at a point. */
  at(p: Vector3, radius: number, color: number): void {
    this.push(_m.compose(p, _q.identity(), _s.setScalar(radius)), color);
  }

  end(): void {
    this.mesh.count = this.n;
    this.mesh.instanceMatrix.needsUpdate = true;
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
  }
}

/**
 * Loose triangles (the wishbones' membranes) in one draw call: one mesh whose vertex
 * buffer is refilled on every update, a colour per triangle. See {@link InstanceBatch}.
 */
export class TriangleBatch {
  readonly mesh: Mesh;
  private position = new Float32Array(9 * 8);
  private color = new Float32Array(9 * 8);
  private n = 0;

  constructor(parent: Group, material: Material, name: string) {
    this.mesh = new Mesh(new BufferGeometry(), material);
    this.mesh.name = name;
    this.mesh.frustumCulled = false;
    this.allocate();
    parent.add(this.mesh);
  }

  private allocate(): void {
    const g = this.mesh.geometry;
    g.setAttribute('position', new BufferAttribute(this.position, 3));
    g.setAttribute('color', new BufferAttribute(this.color, 3));
  }

  begin(): void {
    this.n = 0;
  }

  add(a: Vector3, b: Vector3, c: Vector3, color: number): void {
    if ((this.n + 1) * 9 > this.position.length) {
      const grow = (old: Float32Array) => { const x = new Float32Array(old.length * 2); x.set(old); return x; };
      this.position = grow(this.position);
      this.color = grow(this.color);
      this.mesh.geometry.dispose();
      this.allocate();
    }
    _c.setHex(color);
    const o = this.n * 9;
    [a, b, c].forEach((p, k) => {
      this.position[o + 3 * k] = p.x; this.position[o + 3 * k + 1] = p.y; this.position[o + 3 * k + 2] = p.z;
      this.color[o + 3 * k] = _c.r; this.color[o + 3 * k + 1] = _c.g; this.color[o + 3 * k + 2] = _c.b;
    });
    this.n++;
  }

  end(): void {
    const g = this.mesh.geometry;
    g.setDrawRange(0, this.n * 3);
    g.getAttribute('position').needsUpdate = true;
    g.getAttribute('color').needsUpdate = true;
    this.mesh.visible = this.n > 0;
  }
}

/** A part as a skeleton: tubes between its points (from the centroid past three), a membrane for three. Returns how many bodies (tubes, membranes) it drew. */
export function drawSkeleton(tubes: InstanceBatch, tris: TriangleBatch, points: Vector3[], color: number, radius: number): number {
  if (points.length === 0) return 0;
  const centroid = new Vector3();
  for (const p of points) centroid.add(p);
  centroid.multiplyScalar(1 / points.length);
  const edges: [Vector3, Vector3][] = [];
  if (points.length === 2) edges.push([points[0], points[1]]);
  else if (points.length === 3) edges.push([points[0], points[1]], [points[1], points[2]], [points[2], points[0]]);
  else if (points.length > 3) for (const p of points) edges.push([centroid, p]);
  for (const [a, b] of edges) tubes.tube(a, b, radius, color);
  if (points.length === 3) tris.add(points[0], points[1], points[2], color);
  return edges.length + (points.length === 3 ? 1 : 0);
}
