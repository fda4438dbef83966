/**
 * The 3D view: a pose result drawn with three.js. Objects are kept by id and moved on
 * each result (nothing is rebuilt while the structure stays the same), so a drag costs
 * a few matrix updates per frame.
 *
 * Chassis axes (ISO 8855): x forward, y left, z up; lengths in the model's unit (mm for
 * a suspension).
 */
import {
  AmbientLight, BufferAttribute, BufferGeometry, Color, CylinderGeometry, DirectionalLight, DoubleSide, FrontSide, GridHelper, Group,
  HemisphereLight, InstancedMesh, LatheGeometry, Matrix4, Line, LineDashedMaterial, Mesh, MeshBasicMaterial, MeshLambertMaterial, MeshStandardMaterial, type MeshLambertMaterialParameters,
  OctahedronGeometry, PerspectiveCamera, Quaternion, Scene, SphereGeometry, Vector2, Vector3, WebGLRenderer, type Material, type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { splitReference } from '../../src/assembly/types';
import type { CornerGeometry, HandleInfo, PoseResult, SweepResult } from './engine';
import type { Vec3Tuple } from '../../src/index';

const COLORS = {
  chassisHandle: 0xff8c1a,
  pullHandle: 0x27c3d9,
  rackHandle: 0xb36bff,
  part: 0x8fa3b8,
  wishbone: 0x5b7fa6,
  upright: 0xa9b4c2,
  rod: 0xd9d9d9,
  trackrod: 0x7fd46b,
  rack: 0x9b7fe0,
  damper: 0xf2c94c,
  steeringAxis: 0xff5a5a,
  ghost: 0x7d8a99,
  failed: 0xff2b2b,
  ic: 0x3ddc84,
  rollCenter: 0xff4fd8,
  screw: 0xff9de2,
  baseline: 0xffc24d,
  anchor: 0x4a5563,
  tyre: 0x262a30,
  rim: 0xb8c0cc,
  hover: 0xffffff,
  selected: 0xffe066,
};

/** Joints whose two entities may lie apart along the joint's axis. */
const SLIDING = new Set(['slider', 'cylindrical', 'pinslot']);

/** A colour a third of the way to white (a hovered handle). */
function brighter(color: number): number {
  return _c.setHex(color).lerp(_white, 1 / 3).getHex();
}
const _white = new Color(0xffffff);

const _a = new Vector3();
const _b = new Vector3();
const _q = new Quaternion();
const UP = new Vector3(0, 1, 0);

const vec = (p: Vec3Tuple, out = new Vector3()) => out.set(p[0], p[1], p[2]);

/** An axis, a frame (its z axis) or a plane (its normal) of a part, drawn as a line through its handle (`ref`) while assembling; `direction` in the part's own frame. */
export interface EntityLine {
  ref: string;
  part: string;
  kind: 'axis' | 'frame' | 'plane';
  direction: Vec3Tuple;
}

const ENTITY_LINE_COLORS: Record<EntityLine['kind'], number> = { axis: 0xffd166, frame: 0xff9f43, plane: 0x7bdff2 };

const _m = new Matrix4();
const _s = new Vector3();
const _c = new Color();

/**
 * Many copies of one shape (tubes, pins) in a single draw call: an InstancedMesh
 * refilled on every update, a colour per copy. A software rasteriser (SwiftShader, what
 * headless Chromium and GPU-less machines get) pays ~0.1 ms per draw call, so a linkage
 * of 40 separate tubes cost more than its pixels; drawn this way it is one call.
 * Whatever an update does not add is not drawn.
 */
class InstanceBatch {
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
 * Whether WebGL runs on a software rasteriser (SwiftShader, llvmpipe, Microsoft Basic
 * Render): headless Chromium, virtual machines, computers without a GPU driver. There a
 * frame's cost is its pixels and draw calls on the CPU, shared with the solver.
 */
export function softwareRenderer(): { software: boolean; name: string } {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return { software: false, name: 'no WebGL' };
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = `${String(gl.getParameter(gl.RENDERER))} ${info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : ''}`.trim();
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { software: /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name), name };
  } catch {
    return { software: false, name: 'unknown' };
  }
}

/**
 * Loose triangles (the wishbones' membranes) in one draw call: one mesh whose vertex
 * buffer is refilled on every update, a colour per triangle. See {@link InstanceBatch}.
 */
class TriangleBatch {
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

export interface SceneOptions {
  /** Draw a frame now (the owner's render loop calls this when something changed). */
  onInvalidate: () => void;
}

export class SceneView {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera: PerspectiveCamera;
  readonly controls: OrbitControls;
  /** Handle meshes, the only pickable objects. */
  readonly handles: Mesh[] = [];
  private readonly live = new Group();
  private readonly ghost = new Group();
  private readonly overlay = new Group();
  private readonly handleGroup = new Group();
  /** The pinned baseline's pose (what-if comparison), amber. */
  private readonly baselineGroup = new Group();
  private readonly baselineObjects = new Map<string, Object3D>();
  private readonly objects = new Map<string, Object3D>();
  private readonly ghostObjects = new Map<string, Object3D>();
  private readonly unitCylinder = new CylinderGeometry(1, 1, 1, 14, 1);
  private readonly unitSphere = new SphereGeometry(1, 14, 9);
  private readonly marker = new OctahedronGeometry(1, 0);
  private readonly materials = new Map<string, Material>();
  private grid: GridHelper | null = null;
  private shapeKey = '';
  /** Bodies drawn per moving part in the last update (see partBodies). */
  private bodies: Record<string, number> = {};
  /** Frame the first result of this document key or a later one (0: none pending). */
  frameNext = 1;
  private framedScale = 1;
  private scale = 1;
  private surface: Mesh | null = null;
  private failed = new Set<string>();
  /** One draw call each: the moving linkage's tubes and pins, the ghost's, the baseline's. */
  private readonly batches = new Group();
  private readonly liveTubes: InstanceBatch;
  private readonly livePins: InstanceBatch;
  private readonly ghostTubes: InstanceBatch;
  private readonly baselineTubes: InstanceBatch;
  private readonly handleBalls: InstanceBatch;
  private readonly liveTris: TriangleBatch;
  private readonly ghostTris: TriangleBatch;
  private readonly baselineTris: TriangleBatch;
  /** Handle info by mesh. */
  readonly handleInfo = new Map<Object3D, HandleInfo>();
  private hovered: Object3D | null = null;
  /** Handles picked in assemble mode (by ref), shown larger and lit. */
  readonly selected = new Set<string>();
  last: PoseResult | null = null;
  /** A colour for a rod (distance mate) or a moving part instead of its own (a simulation's link forces); null keeps its own. */
  tint: ((kind: 'rod' | 'part', id: string) => number | null) | null = null;

  /** What draws: a GPU, or a software rasteriser (no multisampling, lighter drags). */
  readonly rasteriser = softwareRenderer();
  private readonly pixelRatio = Math.min(2, window.devicePixelRatio || 1);
  private interactive = false;

  constructor(readonly container: HTMLElement, private readonly options: SceneOptions) {
    // multisampling multiplies a software rasteriser's fill cost; a GPU does it for free
    this.renderer = new WebGLRenderer({ antialias: !this.rasteriser.software });
    this.renderer.setPixelRatio(this.pixelRatio);
    this.renderer.setClearColor(0x15191f);
    container.appendChild(this.renderer.domElement);
    this.renderer.domElement.style.touchAction = 'none';
    this.camera = new PerspectiveCamera(40, 1, 1, 100000);
    this.camera.up.set(0, 0, 1);
    this.scene.add(new HemisphereLight(0xdde8ff, 0x30363d, 1.6));
    this.scene.add(new AmbientLight(0xffffff, 0.35));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(2, 3, 4);
    this.scene.add(sun);
    this.scene.add(this.ghost, this.live, this.overlay, this.handleGroup, this.baselineGroup, this.batches);
    // instance colours multiply the material's: white materials, the colour per copy
    const white = (opacity: number, lit: boolean) => lit
      ? this.lit({ color: 0xffffff })
      : this.flat(0xffffff, opacity);
    this.liveTubes = new InstanceBatch(this.batches, this.unitCylinder, white(1, true), 'tubes');
    this.livePins = new InstanceBatch(this.batches, this.unitSphere, white(1, true), 'pins');
    this.ghostTubes = new InstanceBatch(this.batches, this.unitCylinder, white(0.3, false), 'ghost-tubes');
    this.baselineTubes = new InstanceBatch(this.batches, this.unitCylinder, white(0.5, false), 'baseline-tubes');
    this.handleBalls = new InstanceBatch(this.batches, this.unitSphere, white(1, true), 'handles');
    const membrane = (opacity: number, lit: boolean) => lit
      ? this.lit({ color: 0xffffff, vertexColors: true, transparent: true, opacity, depthWrite: false, side: DoubleSide, forceSinglePass: true })
      : new MeshBasicMaterial({ color: 0xffffff, vertexColors: true, transparent: true, opacity, depthWrite: false, side: DoubleSide, forceSinglePass: true });
    this.liveTris = new TriangleBatch(this.batches, membrane(0.45, true), 'membranes');
    this.ghostTris = new TriangleBatch(this.batches, membrane(0.14, false), 'ghost-membranes');
    this.baselineTris = new TriangleBatch(this.batches, membrane(0.25, false), 'baseline-membranes');
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => this.options.onInvalidate());
    this.controls.addEventListener('start', () => this.setInteractive(true));
    this.controls.addEventListener('end', () => this.setInteractive(false));
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  resize(): void {
    const w = Math.max(1, this.container.clientWidth), h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.renderer.domElement.style.width = `${w}px`;
    this.renderer.domElement.style.height = `${h}px`;
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.options.onInvalidate();
  }

  render(): void {
    this.renderer.render(this.scene, this.camera);
    for (const f of this.afterRender) f();
  }

  /** Called after each render (overlays placing HTML labels over the canvas). */
  readonly afterRender: (() => void)[] = [];

  /**
   * During a gesture (a drag, an orbit) on a software rasteriser, draw at half the
   * resolution: a quarter of the pixels, so the linkage keeps up with the pointer; the
   * full-resolution frame comes back when the gesture ends. On a GPU nothing changes.
   */
  setInteractive(on: boolean): void {
    if (on === this.interactive || !this.rasteriser.software) return;
    this.interactive = on;
    this.renderer.setPixelRatio(this.pixelRatio * (on ? 0.5 : 1));
    this.options.onInvalidate();
  }

  private material(key: string, make: () => Material): Material {
    let m = this.materials.get(key);
    if (!m) { m = make(); this.materials.set(key, m); }
    return m;
  }
  private solid(color: number, opts: { opacity?: number; emissive?: number; frontOnly?: boolean } = {}): Material {
    return this.material(`s${color}:${opts.opacity ?? 1}:${opts.emissive ?? 0}:${opts.frontOnly ?? false}`, () => this.lit({
      color, transparent: (opts.opacity ?? 1) < 1, opacity: opts.opacity ?? 1, side: opts.frontOnly ? FrontSide : DoubleSide,
      emissive: new Color(opts.emissive ?? 0), depthWrite: (opts.opacity ?? 1) >= 1,
      // a translucent double-sided surface in one pass, not back faces then front (twice
      // the fill for a tyre that covers a third of the view)
      forceSinglePass: true,
    }));
  }
  /**
   * A lit surface: physically based on a GPU; Lambert on a software rasteriser, where the
   * PBR fragment shader was most of a frame's cost (a few shaded pixels, not the fill).
   */
  private lit(params: MeshLambertMaterialParameters): Material {
    return this.rasteriser.software ? new MeshLambertMaterial(params) : new MeshStandardMaterial({ roughness: 0.55, metalness: 0.15, ...params });
  }

  private flat(color: number, opacity = 1): Material {
    return this.material(`f${color}:${opacity}`, () => new MeshBasicMaterial({ color, transparent: opacity < 1, opacity, depthWrite: opacity >= 1, side: DoubleSide, forceSinglePass: true }));
  }

  private getObject<T extends Object3D>(map: Map<string, Object3D>, group: Group, id: string, make: () => T): T {
    let o = map.get(id) as T | undefined;
    if (!o) { o = make(); o.name = id; map.set(id, o); group.add(o); }
    o.visible = true;
    return o;
  }

  private clear(): void {
    for (const g of [this.live, this.ghost, this.overlay, this.handleGroup]) {
      for (const child of [...g.children]) {
        g.remove(child);
        child.traverse((o) => { const m = o as Mesh; if (m.geometry && m.geometry !== this.unitCylinder && m.geometry !== this.unitSphere && m.geometry !== this.marker) m.geometry.dispose(); });
      }
    }
    this.objects.clear();
    this.ghostObjects.clear();
    this.handles.length = 0;
    this.handleInfo.clear();
    this.surface = null;
    this.hovered = null;
  }

  /** Draw a pose result (the last good pose, failures in red). */
  update(result: PoseResult): void {
    this.last = result;
    const shapeKey = JSON.stringify([result.structure.handles.map((h) => h.ref), result.structure.rods.map((r) => r.id), result.structure.parts.map((p) => p.name), result.designCorners.map((c) => [c.tireRadius, c.sectionWidth])]);
    const reshaped = shapeKey !== this.shapeKey;
    if (reshaped) { this.clear(); this.shapeKey = shapeKey; }
    this.scale = result.lengthScale;
    this.failed = new Set(result.failed);
    const s = this.scale;
    const tube = s * 0.006, pin = s * 0.011;

    const pts = result.points;
    const P = (ref: string, out = new Vector3()) => (pts[ref] ? vec(pts[ref], out) : null);
    this.liveTubes.begin();
    this.livePins.begin();
    this.ghostTubes.begin();
    this.handleBalls.begin();
    this.liveTris.begin();
    this.ghostTris.begin();

    // parts: a skeleton of tubes from the centroid to each point, a membrane for three
    const bodies: Record<string, number> = {};
    this.bodies = bodies;
    for (const part of result.structure.parts) {
      if (part.fixed) {
        // a fixed part's points are its anchor handles
        continue;
      }
      const refs = part.refs.filter((r) => pts[r]);
      const color = this.tint?.('part', part.name) ?? (part.name.includes('wishbone') || part.name.includes('arm') ? COLORS.wishbone : part.name.includes('upright') ? COLORS.upright : part.name === 'rack' ? COLORS.rack : COLORS.part);
      bodies[part.name] = this.drawSkeleton(this.liveTubes, this.liveTris, refs.map((r) => vec(pts[r])), color, tube);
      this.drawSkeleton(this.ghostTubes, this.ghostTris, refs.map((r) => vec(result.design[r])).filter(Boolean), COLORS.ghost, tube * 0.6);
    }
    // the rack: a bar along y from its point to the centreline
    const rackRef = result.structure.handles.find((h) => h.kind === 'rack')?.ref;
    if (rackRef && pts[rackRef]) {
      const a = vec(pts[rackRef]);
      const b = a.clone(); b.y = 0;
      this.liveTubes.tube(a, b.y === a.y ? a.clone().setY(a.y - s * 0.1) : b, tube * 1.5, COLORS.rack);
    }
    // rods (distance mates)
    for (const rod of result.structure.rods) {
      const a = P(rod.a), b = P(rod.b, new Vector3());
      if (!a || !b) continue;
      const failed = this.failed.has(rod.id);
      const color = failed ? COLORS.failed : (this.tint?.('rod', rod.id) ?? (rod.id.includes('trackrod') ? COLORS.trackrod : rod.id.includes('pushrod') ? COLORS.damper : COLORS.rod));
      this.liveTubes.tube(a, b, failed ? tube * 1.8 : tube * 1.2, color);
      for (const ref of [rod.a, rod.b]) { const part = splitReference(ref)?.owner; if (part !== undefined && part in bodies) bodies[part]++; }
      const ga = result.design[rod.a], gb = result.design[rod.b];
      if (ga && gb) this.ghostTubes.tube(vec(ga), vec(gb, new Vector3()), tube * 0.6, COLORS.ghost);
    }
    // joints: a pin at each joint, red when its mate fails
    for (const j of result.structure.joints) {
      const a = P(j.at);
      if (!a) continue;
      const failed = this.failed.has(j.id);
      this.livePins.at(a, failed ? pin * 1.6 : pin * 0.8, failed ? COLORS.failed : 0x59626e);
      // a sliding joint's two frames lie apart along its axis: the bar between them is
      // the visible link (a Stewart platform's legs, a slider's stroke)
      const b = SLIDING.has(j.type) ? P(j.to, new Vector3()) : null;
      if (b && b.distanceTo(a) > tube) this.liveTubes.tube(a, b, tube * (failed ? 1.8 : 1.4), failed ? COLORS.failed : COLORS.rod);
    }
    // suspension: wheels, steering axes, dampers, instant centres
    result.corners.forEach((c, i) => this.drawCorner(`c${i}`, c, false));
    result.designCorners.forEach((c, i) => this.drawCorner(`g${i}`, c, true));
    if (result.rollCenter) {
      const m = this.getObject(this.objects, this.overlay, 'rollcenter', () => new Mesh(this.marker, this.flat(COLORS.rollCenter)));
      m.position.copy(vec(result.rollCenter));
      m.scale.setScalar(s * 0.018);
    } else this.hide('rollcenter');

    // handles
    for (const h of result.structure.handles) {
      const ref = h.ref;
      let mesh = this.objects.get(`handle:${ref}`) as Mesh | undefined;
      if (!mesh) {
        if (h.kind === 'wheel') {
          // the tyre itself is the wheel's handle
          mesh = this.objects.get(`tyre:c${h.corner ?? 0}`) as Mesh | undefined;
          if (!mesh) continue;
          this.objects.set(`handle:${ref}`, mesh);
        } else {
          const color = h.kind === 'hardpoint' ? COLORS.chassisHandle : h.kind === 'rack' ? COLORS.rackHandle : h.kind === 'anchor' ? COLORS.anchor : COLORS.pullHandle;
          // an undrawn pick proxy (layer 1: the ray sees it, the camera does not); the
          // handle is drawn in the handles batch
          mesh = new Mesh(this.unitSphere, this.solid(color));
          mesh.layers.set(1);
          mesh.userData.color = color;
          mesh.name = `handle:${ref}`;
          this.objects.set(`handle:${ref}`, mesh);
          this.handleGroup.add(mesh);
        }
        mesh.userData.handle = h;
        this.handles.push(mesh);
        this.handleInfo.set(mesh, h);
      }
      mesh.userData.handle = h;
      if (h.kind === 'wheel') {
        const c = result.corners[h.corner ?? 0];
        if (c) mesh.userData.grabPoint = vec(c.wheelCenter);
        mesh.userData.dragAxis = new Vector3(0, 0, 1);
        continue;
      }
      const p = P(ref);
      if (!p) continue;
      mesh.position.copy(p);
      mesh.scale.setScalar(pin * (h.kind === 'hardpoint' || h.kind === 'anchor' ? 1.25 : 1.1) * (mesh === this.hovered || this.selected.has(ref) ? 1.35 : 1));
      if (mesh.userData.color !== undefined) {
        // an axis, frame or plane being assembled takes its entity line's colour
        const line = this.entityLines.find((l) => l.ref === ref);
        const color = line ? ENTITY_LINE_COLORS[line.kind] : (mesh.userData.color as number);
        this.handleBalls.at(p, mesh.scale.x, this.selected.has(ref) ? COLORS.selected : mesh === this.hovered ? brighter(color) : color);
      }
      mesh.userData.grabPoint = undefined;
      mesh.userData.dragAxis = h.kind === 'rack' ? new Vector3(0, 1, 0) : h.kind === 'pull' && result.suspension ? new Vector3(0, 0, 1) : null;
    }

    // ground grid at the contact patch (or below everything)
    const groundZ = result.corners.length ? Math.min(...result.designCorners.map((c) => (c.contact ? c.contact[2] : c.wheelCenter[2] - c.tireRadius))) : Math.min(...Object.values(result.design).map((p) => p[2])) - s * 0.05;
    if (!this.grid || this.grid.userData.scale !== s || this.grid.position.z !== groundZ) {
      if (this.grid) this.scene.remove(this.grid);
      const size = s * 4;
      const step = 10 ** Math.floor(Math.log10(size / 20));
      this.grid = new GridHelper(Math.round(size / step) * step, Math.round(size / step), 0x3a434e, 0x262d35);
      this.grid.rotation.x = Math.PI / 2;
      this.grid.position.z = groundZ;
      this.grid.userData.scale = s;
      this.scene.add(this.grid);
    }
    // a newly opened model is framed; an edit of the same one keeps the camera
    // (and one whose size is far from the framed one's: an undo back across a switch)
    this.liveTubes.end();
    this.livePins.end();
    this.ghostTubes.end();
    this.handleBalls.end();
    this.liveTris.end();
    this.ghostTris.end();
    if ((this.frameNext && result.docKey >= this.frameNext) || Math.abs(Math.log(result.lengthScale / this.framedScale)) > Math.log(3)) { this.frameNext = 0; this.frame(result); }
    this.drawEntityLines(result);
    this.options.onInvalidate();
  }

  private hide(id: string): void {
    const o = this.objects.get(id) ?? this.ghostObjects.get(id);
    if (o) o.visible = false;
  }

  /** A part as a skeleton: tubes between its points (from the centroid past three), a membrane for three. Returns how many bodies (tubes, membranes) it drew. */
  private drawSkeleton(tubes: InstanceBatch, tris: TriangleBatch, points: Vector3[], color: number, radius: number): number {
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


  private drawCorner(id: string, c: CornerGeometry, ghost: boolean): void {
    const map = ghost ? this.ghostObjects : this.objects;
    const group = ghost ? this.ghost : this.live;
    const s = this.scale;
    const wc = vec(c.wheelCenter);
    const spin = new Vector3(c.spin[0], c.spin[1], c.spin[2]);
    _q.setFromUnitVectors(UP, spin);
    const rimR = Math.max(c.tireRadius * 0.55, c.tireRadius - c.sectionWidth * 0.6);
    const tyre = this.getObject(map, group, `tyre:${id}`, () => {
      // the ghost: the tread's band only, faint (a few dozen triangles, not the full section)
      if (ghost) return new Mesh(new CylinderGeometry(c.tireRadius, c.tireRadius, c.sectionWidth, 32, 1, true), this.flat(COLORS.ghost, 0.1));
      // a rounded tyre section turned about the spin axis (lathe about y)
      const w = c.sectionWidth / 2, R = c.tireRadius, r0 = rimR;
      const prof: Vector2[] = [];
      const bulge = Math.min(w, (R - r0) / 2) * 0.9;
      prof.push(new Vector2(r0, -w * 0.92));
      for (let k = 0; k <= 8; k++) { const t = (k / 8) * (Math.PI / 2); prof.push(new Vector2(R - bulge + bulge * Math.sin(t), -w + bulge - bulge * Math.cos(t))); }
      for (let k = 0; k <= 8; k++) { const t = (k / 8) * (Math.PI / 2); prof.push(new Vector2(R - bulge + bulge * Math.cos(t), w - bulge + bulge * Math.sin(t))); }
      prof.push(new Vector2(r0, w * 0.92));
      const g = new LatheGeometry(prof, 40);
      return new Mesh(g, this.solid(COLORS.tyre, { opacity: 0.62, frontOnly: true }));
    });
    tyre.position.copy(wc);
    tyre.quaternion.copy(_q);
    if (!ghost) {
      // the rim as a thin ring at the bead, so the upright inside stays visible
      const rim = this.getObject(map, group, `rim:${id}`, () => new Mesh(new CylinderGeometry(rimR, rimR, c.sectionWidth * 0.78, 40, 1, true), this.solid(COLORS.rim, { opacity: 0.18 })));
      rim.position.copy(wc);
      rim.quaternion.copy(_q);
      this.livePins.at(wc, s * 0.012, COLORS.rim); // the hub
    }
    // physical steering axis, extended to the ground and above the upper point
    if (c.steeringAxis) {
      const a = vec(c.steeringAxis[0]), b = vec(c.steeringAxis[1], new Vector3());
      const d = b.clone().sub(a);
      const groundZ = c.contact ? c.contact[2] : c.wheelCenter[2] - c.tireRadius;
      const t0 = Math.abs(d.z) > 1e-9 ? (groundZ - a.z) / d.z : -0.5;
      const lo = a.clone().addScaledVector(d, Math.min(t0, 0));
      const hi = a.clone().addScaledVector(d, 1.25);
      (ghost ? this.ghostTubes : this.liveTubes).tube(lo, hi, s * (ghost ? 0.0025 : 0.004), ghost ? COLORS.ghost : COLORS.steeringAxis);
      if (!ghost && c.contact) {
        // where the axis meets the ground: against the contact centre, scrub and trail
        this.livePins.at(lo, s * 0.01, COLORS.steeringAxis);
      }
    }
    if (c.damper) {
      (ghost ? this.ghostTubes : this.liveTubes).tube(vec(c.damper[0]), vec(c.damper[1], new Vector3()), s * (ghost ? 0.008 : 0.014), ghost ? COLORS.ghost : COLORS.damper);
    }
    if (ghost) return;
    // the virtual steering axis: the steering response's screw axis (on a double wishbone
    // it lies on the physical one; on a multi-link it is the only one)
    const screwId = `screw:${id}`;
    if (c.screwAxis) {
      const line = this.getObject(this.objects, this.overlay, screwId, () => {
        const g = new BufferGeometry();
        g.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
        return new Line(g, new LineDashedMaterial({ color: COLORS.screw, dashSize: s * 0.015, gapSize: s * 0.01 }));
      });
      const { point: p, direction: d } = c.screwAxis;
      const h = c.tireRadius * 1.1;
      const pos = line.geometry.getAttribute('position') as BufferAttribute;
      pos.setXYZ(0, p[0] - d[0] * h, p[1] - d[1] * h, p[2] - d[2] * h);
      pos.setXYZ(1, p[0] + d[0] * h, p[1] + d[1] * h, p[2] + d[2] * h);
      pos.needsUpdate = true;
      line.computeLineDistances();
      line.geometry.computeBoundingSphere();
    } else this.hide(screwId);
    // instant centres (side and front view) and the front-view swing arm to the contact patch
    for (const [key, p] of [['svic', c.svic], ['fvic', c.fvic]] as const) {
      const mid = `${key}:${id}`;
      if (!p || !Number.isFinite(p[0] + p[1] + p[2]) || Math.hypot(p[0] - wc.x, p[1] - wc.y, p[2] - wc.z) > s * 20) { this.hide(mid); this.hide(`${mid}:arm`); continue; }
      const m = this.getObject(this.objects, this.overlay, mid, () => new Mesh(this.marker, this.flat(COLORS.ic)));
      m.position.copy(vec(p));
      m.scale.setScalar(s * 0.014);
      if (c.contact) {
        const line = this.getObject(this.objects, this.overlay, `${mid}:arm`, () => {
          const g = new BufferGeometry();
          g.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
          return new Line(g, new LineDashedMaterial({ color: COLORS.ic, dashSize: s * 0.02, gapSize: s * 0.012 }));
        });
        const pos = line.geometry.getAttribute('position') as BufferAttribute;
        pos.setXYZ(0, c.contact[0], c.contact[1], c.contact[2]);
        pos.setXYZ(1, p[0], p[1], p[2]);
        pos.needsUpdate = true;
        line.computeLineDistances();
        line.geometry.computeBoundingSphere();
      }
    }
  }

  /**
   * The pinned baseline beside the current design (what-if comparison): its linkage and
   * wheel, amber and translucent, where it stood when pinned. Null removes it.
   */
  setBaseline(result: PoseResult | null): void {
    for (const child of [...this.baselineGroup.children]) {
      this.baselineGroup.remove(child);
      const m = child as Mesh;
      if (m.geometry && m.geometry !== this.unitCylinder && m.geometry !== this.unitSphere) m.geometry.dispose();
    }
    this.baselineObjects.clear();
    this.baselineTubes.begin();
    this.baselineTris.begin();
    if (result) {
      const s = result.lengthScale, tube = s * 0.005;
      const pts = result.points;
      for (const part of result.structure.parts) {
        if (part.fixed) continue;
        this.drawSkeleton(this.baselineTubes, this.baselineTris, part.refs.filter((r) => pts[r]).map((r) => vec(pts[r])), COLORS.baseline, tube);
      }
      for (const rod of result.structure.rods) {
        const a = pts[rod.a], b = pts[rod.b];
        if (a && b) this.baselineTubes.tube(vec(a), vec(b, new Vector3()), tube, COLORS.baseline);
      }
      for (const c of result.corners) {
        const ring = this.getObject(this.baselineObjects, this.baselineGroup, `basewheel:${c.side}`, () => new Mesh(new CylinderGeometry(c.tireRadius, c.tireRadius, c.sectionWidth, 48, 1, true), this.flat(COLORS.baseline, 0.12)));
        ring.position.copy(vec(c.wheelCenter));
        ring.quaternion.setFromUnitVectors(UP, new Vector3(c.spin[0], c.spin[1], c.spin[2]));
      }
    }
    this.baselineTubes.end();
    this.baselineTris.end();
    this.options.onInvalidate();
  }

  /** The surface the physical steering axis sweeps through the bump sweep. */
  updateSweep(sweep: SweepResult | null): void {
    const axes = sweep ? sweep.axes.filter((a): a is [Vec3Tuple, Vec3Tuple] => a !== null) : [];
    if (axes.length < 2) { if (this.surface) this.surface.visible = false; this.options.onInvalidate(); return; }
    if (!this.surface) {
      this.surface = new Mesh(new BufferGeometry(), this.flat(COLORS.steeringAxis, 0.13));
      this.surface.name = 'axis-surface';
      this.overlay.add(this.surface);
    }
    const n = axes.length;
    const pos = new Float32Array(n * 2 * 3);
    axes.forEach(([a, b], i) => {
      // extend each axis like the drawn one
      const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      pos.set([a[0] - 0.3 * d[0], a[1] - 0.3 * d[1], a[2] - 0.3 * d[2]], i * 6);
      pos.set([a[0] + 1.25 * d[0], a[1] + 1.25 * d[1], a[2] + 1.25 * d[2]], i * 6 + 3);
    });
    const index: number[] = [];
    for (let i = 0; i + 1 < n; i++) index.push(2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 1, 2 * i + 3, 2 * i + 2);
    const g = this.surface.geometry;
    g.setAttribute('position', new BufferAttribute(pos, 3));
    g.setIndex(index);
    g.computeBoundingSphere();
    this.surface.visible = true;
    this.options.onInvalidate();
  }

  setHovered(object: Object3D | null): void {
    this.hovered = object;
    if (this.last) this.update(this.last);
  }

  /** Point the camera at the model: a three-quarter view from the front, outside and above. */
  frame(result: PoseResult): void {
    this.framedScale = result.lengthScale;
    const pts = Object.values(result.design);
    if (pts.length === 0) return;
    const lo = new Vector3(Infinity, Infinity, Infinity), hi = new Vector3(-Infinity, -Infinity, -Infinity);
    for (const p of pts) { lo.min(vec(p, _a)); hi.max(vec(p, _a)); }
    for (const c of result.designCorners) { lo.min(vec(c.wheelCenter, _a).subScalar(c.tireRadius)); hi.max(vec(c.wheelCenter, _a).addScalar(c.tireRadius)); }
    const center = lo.clone().add(hi).multiplyScalar(0.5);
    const radius = Math.max(hi.clone().sub(lo).length() / 2, 1e-6);
    const side = result.corners.length && result.corners[0].wheelCenter[1] < 0 ? -1 : 1;
    // a suspension from the front, inboard and above (the linkage in front of the wheel,
    // not hidden by it); anything else mostly from above
    const dir = result.suspension ? new Vector3(1.15, -1.05 * side, 0.62).normalize() : new Vector3(0.25, -0.9, 1.6).normalize();
    const dist = radius / Math.sin((this.camera.fov * Math.PI) / 360) * 1.02;
    this.camera.near = dist / 200;
    this.camera.far = dist * 50;
    this.camera.position.copy(center).addScaledVector(dir, dist);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(center);
    this.controls.update();
  }

  // ------------------------------------------------------------ entity lines (assemble mode)

  private entityLines: readonly EntityLine[] = [];

  /**
   * Axes, frames and planes to show as what they are while assembling: a line through the
   * handle along the axis (a frame's z axis, a plane's normal), and the handle in the
   * line's colour, so an axis is told from a point before it is picked. An empty list
   * removes them (the handles take their usual colours again).
   */
  setEntityLines(lines: readonly EntityLine[]): void {
    this.entityLines = lines;
    if (this.last) this.update(this.last);
    else this.options.onInvalidate();
  }

  /** Draws the entity lines at the result's part poses (called at the end of {@link update}). */
  private drawEntityLines(result: PoseResult): void {
    const shown = new Set<string>();
    const s = this.scale;
    for (const line of this.entityLines) {
      const at = result.points[line.ref];
      if (!at) continue;
      const id = `eline:${line.ref}`;
      shown.add(id);
      const color = ENTITY_LINE_COLORS[line.kind];
      const pose = result.poses[line.part];
      // poses are [x, y, z, w, qx, qy, qz]; three's Quaternion takes (x, y, z, w)
      const turn = pose ? new Quaternion(pose[4], pose[5], pose[6], pose[3]).normalize() : new Quaternion();
      const d = new Vector3(line.direction[0], line.direction[1], line.direction[2]).normalize().applyQuaternion(turn);
      // an axis or a frame's z: a line through the handle both ways; a plane's normal: one way, shorter
      const length = s * (line.kind === 'plane' ? 0.05 : 0.24);
      const mesh = this.getObject(this.objects, this.overlay, id, () => new Mesh(this.unitCylinder, this.solid(color, { emissive: 0x222200 })));
      mesh.position.copy(vec(at)).addScaledVector(d, line.kind === 'plane' ? length / 2 : 0);
      mesh.quaternion.setFromUnitVectors(new Vector3(0, 1, 0), d);
      mesh.scale.set(s * 0.0035, length, s * 0.0035);
    }
    for (const [id, o] of this.objects) if (id.startsWith('eline:') && !shown.has(id)) o.visible = false;
  }

  /** Bodies drawn for each moving part in the last update: its skeleton's tubes and membrane, and the rods that end on it (for tests: no part left undrawn). */
  partBodies(): Record<string, number> {
    return { ...this.bodies };
  }

  /** How many copies each batch draws now (for tests: a big linkage grows them past their first size). */
  batchCounts(): Record<string, number> {
    return Object.fromEntries(this.batches.children.map((o) => [o.name, (o as InstancedMesh).isInstancedMesh ? (o as InstancedMesh).count : ((o as Mesh).geometry.drawRange.count === Infinity ? 0 : (o as Mesh).geometry.drawRange.count / 3)]));
  }

  /** Where a world point lands on the page (CSS pixels), for tests and the benchmark. */
  toScreen(p: Vec3Tuple): { x: number; y: number } {
    const v = vec(p).project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
  }
}
