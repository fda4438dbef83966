/**
 * The 3D view: a pose result drawn with three.js. Objects are kept by id and moved on
 * each result (nothing is rebuilt while the structure stays the same), so a drag costs
 * a few matrix updates per frame.
 *
 * Chassis axes (ISO 8855): x forward, y left, z up; lengths in the model's unit (mm for
 * a suspension).
 */
import type { Vec3Tuple } from '../../src/index.ts';
import {
  AmbientLight, BufferGeometry, CylinderGeometry, DirectionalLight, DoubleSide, GridHelper, Group,
  HemisphereLight, MeshBasicMaterial, Mesh, OctahedronGeometry, PerspectiveCamera, Scene, SphereGeometry, Vector3, WebGLRenderer, type InstancedMesh, type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { splitReference } from '../../src/index.ts';
import type { HandleInfo, PoseResult, SweepResult } from '../../src/index.ts';
import { frameCamera, groundGrid } from './camera-framing';
import { drawCorner } from './corner-drawing';
import { drawSkeleton, InstanceBatch, TriangleBatch } from './draw-batches';
import { drawEntityLines, ENTITY_LINE_COLORS, type EntityLine } from './entity-lines';
import { softwareRenderer } from './renderer-info';
import { getObject, hideObject, UP, vec, type SceneParts } from './scene-objects';
import { brighter, COLORS, SceneMaterials } from './scene-style';
import { fillAxisSurface } from './steering-surface';

export type { EntityLine } from './entity-lines';
export { softwareRenderer } from './renderer-info';

/** Joints whose two entities may lie apart along the joint's axis. */
const SLIDING = new Set(['slider', 'cylindrical', 'pinslot']);

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
  private readonly materials: SceneMaterials;
  /** What the drawing modules draw into (the same groups, maps and batches as here). */
  private readonly parts: SceneParts;
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
    this.materials = new SceneMaterials(this.rasteriser.software);
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
      ? this.materials.lit({ color: 0xffffff })
      : this.materials.flat(0xffffff, opacity);
    this.liveTubes = new InstanceBatch(this.batches, this.unitCylinder, white(1, true), 'tubes');
    this.livePins = new InstanceBatch(this.batches, this.unitSphere, white(1, true), 'pins');
    this.ghostTubes = new InstanceBatch(this.batches, this.unitCylinder, white(0.3, false), 'ghost-tubes');
    this.baselineTubes = new InstanceBatch(this.batches, this.unitCylinder, white(0.5, false), 'baseline-tubes');
    this.handleBalls = new InstanceBatch(this.batches, this.unitSphere, white(1, true), 'handles');
    const membrane = (opacity: number, lit: boolean) => lit
      ? this.materials.lit({ color: 0xffffff, vertexColors: true, transparent: true, opacity, depthWrite: false, side: DoubleSide, forceSinglePass: true })
      : new MeshBasicMaterial({ color: 0xffffff, vertexColors: true, transparent: true, opacity, depthWrite: false, side: DoubleSide, forceSinglePass: true });
    this.liveTris = new TriangleBatch(this.batches, membrane(0.45, true), 'membranes');
    this.ghostTris = new TriangleBatch(this.batches, membrane(0.14, false), 'ghost-membranes');
    this.baselineTris = new TriangleBatch(this.batches, membrane(0.25, false), 'baseline-membranes');
    this.parts = {
      objects: this.objects, ghostObjects: this.ghostObjects, live: this.live, ghost: this.ghost, overlay: this.overlay,
      materials: this.materials, unitCylinder: this.unitCylinder, marker: this.marker,
      liveTubes: this.liveTubes, livePins: this.livePins, ghostTubes: this.ghostTubes,
    };
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
      bodies[part.name] = drawSkeleton(this.liveTubes, this.liveTris, refs.map((r) => vec(pts[r])), color, tube);
      drawSkeleton(this.ghostTubes, this.ghostTris, refs.map((r) => vec(result.design[r])).filter(Boolean), COLORS.ghost, tube * 0.6);
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
    result.corners.forEach((c, i) => drawCorner(this.parts, s, `c${i}`, c, false));
    result.designCorners.forEach((c, i) => drawCorner(this.parts, s, `g${i}`, c, true));
    if (result.rollCenter) {
      const m = getObject(this.objects, this.overlay, 'rollcenter', () => new Mesh(this.marker, this.materials.flat(COLORS.rollCenter)));
      m.position.copy(vec(result.rollCenter));
      m.scale.setScalar(s * 0.018);
    } else hideObject(this.parts, 'rollcenter');

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
          mesh = new Mesh(this.unitSphere, this.materials.solid(color));
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

    this.grid = groundGrid(this.scene, this.grid, result, s);
    // a newly opened model is framed; an edit of the same one keeps the camera
    // (and one whose size is far from the framed one's: an undo back across a switch)
    this.liveTubes.end();
    this.livePins.end();
    this.ghostTubes.end();
    this.handleBalls.end();
    this.liveTris.end();
    this.ghostTris.end();
    if ((this.frameNext && result.docKey >= this.frameNext) || Math.abs(Math.log(result.lengthScale / this.framedScale)) > Math.log(3)) { this.frameNext = 0; this.frame(result); }
    drawEntityLines(this.parts, this.scale, this.entityLines, result);
    this.options.onInvalidate();
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
        drawSkeleton(this.baselineTubes, this.baselineTris, part.refs.filter((r) => pts[r]).map((r) => vec(pts[r])), COLORS.baseline, tube);
      }
      for (const rod of result.structure.rods) {
        const a = pts[rod.a], b = pts[rod.b];
        if (a && b) this.baselineTubes.tube(vec(a), vec(b, new Vector3()), tube, COLORS.baseline);
      }
      for (const c of result.corners) {
        const ring = getObject(this.baselineObjects, this.baselineGroup, `basewheel:${c.side}`, () => new Mesh(new CylinderGeometry(c.tireRadius, c.tireRadius, c.sectionWidth, 48, 1, true), this.materials.flat(COLORS.baseline, 0.12)));
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
      this.surface = new Mesh(new BufferGeometry(), this.materials.flat(COLORS.steeringAxis, 0.13));
      this.surface.name = 'axis-surface';
      this.overlay.add(this.surface);
    }
    fillAxisSurface(this.surface.geometry, axes);
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
    frameCamera(this.camera, this.controls, result);
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
