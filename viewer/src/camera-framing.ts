/** Where the 3D view looks: the camera framed on a model, and the ground grid under it. */
import { GridHelper, Vector3, type PerspectiveCamera, type Scene } from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { PoseResult } from '../../src/index.ts';
import { vec } from './scene-objects';

const _a = new Vector3();

/** Point the camera at the model: a three-quarter view from the front, outside and above. */
export function frameCamera(camera: PerspectiveCamera, controls: OrbitControls, result: PoseResult): void {
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
  const dist = radius / Math.sin((camera.fov * Math.PI) / 360) * 1.02;
  camera.near = dist / 200;
  camera.far = dist * 50;
  camera.position.copy(center).addScaledVector(dir, dist);
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
}

/** The ground grid at the contact patch (or below everything): `grid` while it fits the scale and height, else a new one in its place. */
export function groundGrid(scene: Scene, grid: GridHelper | null, result: PoseResult, s: number): GridHelper {
  const groundZ = result.corners.length ? Math.min(...result.designCorners.map((c) => (c.contact ? c.contact[2] : c.wheelCenter[2] - c.tireRadius))) : Math.min(...Object.values(result.design).map((p) => p[2])) - s * 0.05;
  if (!grid || grid.userData.scale !== s || grid.position.z !== groundZ) {
    if (grid) scene.remove(grid);
    const size = s * 4;
    const step = 10 ** Math.floor(Math.log10(size / 20));
    grid = new GridHelper(Math.round(size / step) * step, Math.round(size / step), 0x3a434e, 0x262d35);
    grid.rotation.x = Math.PI / 2;
    grid.position.z = groundZ;
    grid.userData.scale = s;
    scene.add(grid);
  }
  return grid;
}
