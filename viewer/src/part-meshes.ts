/**
 * Parts drawn with their CAD geometry (docs/picking.md): each part's `geometry` files,
 * read from the files the user opened with the document (matched by name), placed in the
 * part's frame and drawn at its solved pose, translucent so the points and links stay
 * visible. In assemble mode the pointer over a part shows what a click would pick (the
 * whole surface, edge or vertex, `entityFromPick`), and a click picks it.
 */
import { BufferAttribute, BufferGeometry, Color, DoubleSide, Group, LineBasicMaterial, LineSegments, Mesh, MeshLambertMaterial, Raycaster, SphereGeometry, Vector2, Vector3, type PerspectiveCamera } from 'three';
import { entityFromPick, mergeMeshes, placeMesh, readMeshBytes, formatOf, setOcctWasmUrl, type PartMesh, type PickResult } from '../../src/index.ts';
import occtWasmUrl from 'occt-import-js/dist/occt-import-js.wasm?url';

// the STEP/IGES reader's WebAssembly, served by the bundle under its own hashed name
setOcctWasmUrl(occtWasmUrl);
import type { PoseResult } from '../../src/index.ts';
import type { GeometryBodies } from './geometry-bodies';

/** What a hover or click found: the part, the triangle, the hit in the part's frame and what it picks. */
export interface SurfaceHit { readonly part: string; readonly triangle: number; readonly local: [number, number, number]; readonly result: PickResult }

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export class PartMeshes {
  readonly group = new Group();
  /** Geometry files the user opened, by base name. */
  readonly files = new Map<string, Uint8Array>();
  /** Each part's mesh in its frame; a new map object whenever the geometry was read again. */
  meshes: ReadonlyMap<string, PartMesh> = new Map();
  /** Parts whose geometry could not be read, with why (one line each). */
  readonly problems = new Map<string, string>();
  private readonly objects = new Map<string, Group>();
  private loadedKey = '';
  private readonly highlight = new Group();
  private readonly raycaster = new Raycaster();

  constructor(private readonly onChange: () => void) {
    this.group.name = 'part-meshes';
    this.highlight.name = 'pick-highlight';
  }

  /** Adds opened files (geometry beside a document). */
  addFiles(files: readonly { name: string; bytes: Uint8Array }[]): void {
    for (const f of files) this.files.set(baseName(f.name), f.bytes);
    this.loadedKey = '';
  }

  /** Reads the geometry of the document's bodies when it changed, then draws it at the poses. */
  update(bodies: GeometryBodies | null, result: PoseResult): void {
    const entries = bodies?.entries ?? [];
    const key = JSON.stringify(entries) + [...this.files.keys()].join();
    if (key !== this.loadedKey) { this.loadedKey = key; void this.load(entries); }
    this.poseOf = bodies ? (body) => bodies.poseOf(result, body) : () => undefined;
    this.place();
  }

  /** Where each body is at the pose last shown: geometry read later is drawn there at once. */
  private poseOf: (body: string) => readonly number[] | undefined = () => undefined;

  private place(): void {
    for (const [part, object] of this.objects) {
      const pose = this.poseOf(part);
      if (!pose) continue;
      object.position.set(pose[0], pose[1], pose[2]);
      object.quaternion.set(pose[4], pose[5], pose[6], pose[3]).normalize();
    }
  }

  private async load(entries: GeometryBodies['entries']): Promise<void> {
    const key = this.loadedKey;
    const meshes = new Map<string, PartMesh>(), problems = new Map<string, string>();
    for (const [part, list] of entries) {
      try {
        const placed: PartMesh[] = [];
        for (const entry of list) {
          const bytes = this.files.get(baseName(entry.file));
          if (!bytes) throw new Error(`${entry.file}: not opened with the document (open it too, or drop it on the page)`);
          placed.push(placeMesh(await readMeshBytes(bytes, entry.file), entry, formatOf(entry.file)));
        }
        meshes.set(part, mergeMeshes(placed));
      } catch (error) {
        problems.set(part, `parts.${part}.geometry: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (key !== this.loadedKey) return; // a newer document came meanwhile
    this.meshes = meshes;
    this.problems.clear();
    for (const [k, v] of problems) this.problems.set(k, v);
    this.rebuild();
    this.onChange();
  }

  private rebuild(): void {
    for (const o of this.objects.values()) { this.group.remove(o); o.traverse((c) => { if (c instanceof Mesh) c.geometry.dispose(); }); }
    this.objects.clear();
    let hue = 0.55;
    for (const [part, mesh] of this.meshes) {
      const geometry = new BufferGeometry();
      geometry.setAttribute('position', new BufferAttribute(mesh.positions, 3));
      geometry.setIndex(new BufferAttribute(mesh.indices, 1));
      geometry.computeVertexNormals();
      const material = new MeshLambertMaterial({ color: new Color().setHSL(hue, 0.25, 0.62), transparent: true, opacity: 0.55, side: DoubleSide, depthWrite: false });
      hue = (hue + 0.13) % 1;
      const object = new Group();
      object.name = `geometry:${part}`;
      const drawn = new Mesh(geometry, material);
      drawn.userData.part = part;
      object.add(drawn);
      this.objects.set(part, object);
      this.group.add(object);
    }
    this.place();
  }

  /** The part surface under the pointer (normalised device coordinates), with what a click there would pick. */
  hitAt(ndc: Vector2, camera: PerspectiveCamera, pixelsPerLength: (distance: number) => number): SurfaceHit | null {
    this.raycaster.setFromCamera(ndc, camera);
    const targets = [...this.objects.values()].map((o) => o.children[0]);
    const hit = this.raycaster.intersectObjects(targets, false)[0];
    if (!hit || hit.faceIndex == null) return null;
    const part = hit.object.userData.part as string;
    const local = hit.object.worldToLocal(hit.point.clone());
    const tolerance = 8 / pixelsPerLength(hit.distance); // 8 px on the screen
    const result = entityFromPick(this.meshes.get(part)!, hit.faceIndex, { point: [local.x, local.y, local.z], tolerance });
    return { part, triangle: hit.faceIndex, local: [local.x, local.y, local.z], result };
  }

  /** Shows what a click would pick: the surface's triangles, an edge's segments, a vertex; null clears it. */
  showHighlight(hit: SurfaceHit | null): void {
    this.highlight.parent?.remove(this.highlight);
    for (const c of [...this.highlight.children]) { this.highlight.remove(c); if (c instanceof Mesh || c instanceof LineSegments) c.geometry.dispose(); }
    if (!hit) { this.onChange(); return; }
    const mesh = this.meshes.get(hit.part)!;
    const r = hit.result;
    if (r.feature === 'vertex') {
      const ball = new Mesh(new SphereGeometry(1, 12, 8), new MeshLambertMaterial({ color: 0xffd54a, depthTest: false }));
      ball.position.set(r.segments![0], r.segments![1], r.segments![2]);
      ball.scale.setScalar(Math.max(mesh.positions.length ? 2 : 1, sizeOf(mesh) * 0.01));
      this.highlight.add(ball);
    } else if (r.segments) {
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(Float32Array.from(r.segments), 3));
      this.highlight.add(new LineSegments(g, new LineBasicMaterial({ color: 0xffd54a, depthTest: false })));
    } else {
      const positions = new Float32Array(9 * r.triangles.length);
      r.triangles.forEach((t, i) => {
        for (let k = 0; k < 3; k++) positions.set(mesh.positions.subarray(3 * mesh.indices[3 * t + k], 3 * mesh.indices[3 * t + k] + 3), 9 * i + 3 * k);
      });
      const g = new BufferGeometry();
      g.setAttribute('position', new BufferAttribute(positions, 3));
      g.computeVertexNormals();
      this.highlight.add(new Mesh(g, new MeshLambertMaterial({ color: 0xffd54a, transparent: true, opacity: 0.8, side: DoubleSide, depthWrite: false, polygonOffset: true, polygonOffsetFactor: -2 })));
    }
    this.objects.get(hit.part)?.add(this.highlight);
    this.onChange();
  }
}

function sizeOf(mesh: PartMesh): number {
  const lo = new Vector3(Infinity, Infinity, Infinity), hi = new Vector3(-Infinity, -Infinity, -Infinity), v = new Vector3();
  for (let i = 0; i < mesh.positions.length; i += 3) { v.fromArray(mesh.positions, i); lo.min(v); hi.max(v); }
  return hi.distanceTo(lo);
}
