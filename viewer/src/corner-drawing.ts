/**
 * A suspension corner in the 3D view: the tyre and rim, the physical and virtual steering
 * axes, the damper, the instant centres and swing arms; its design pose as a faint ghost.
 */
import { BufferAttribute, BufferGeometry, CylinderGeometry, LatheGeometry, Line, LineDashedMaterial, Mesh, Quaternion, Vector2, Vector3 } from 'three';
import type { CornerGeometry } from '../../src/index.ts';
import { getObject, hideObject, UP, vec, type SceneParts } from './scene-objects';
import { COLORS } from './scene-style';

const _q = new Quaternion();

/** Draws corner `id` (`ghost`: its design pose) at length scale `s`. */
export function drawCorner(parts: SceneParts, s: number, id: string, c: CornerGeometry, ghost: boolean): void {
  const map = ghost ? parts.ghostObjects : parts.objects;
  const group = ghost ? parts.ghost : parts.live;
  const wc = vec(c.wheelCenter);
  const spin = new Vector3(c.spin[0], c.spin[1], c.spin[2]);
  _q.setFromUnitVectors(UP, spin);
  const rimR = Math.max(c.tireRadius * 0.55, c.tireRadius - c.sectionWidth * 0.6);
  const tyre = getObject(map, group, `tyre:${id}`, () => {
    // the ghost: the tread's band only, faint (a few dozen triangles, not the full section)
    if (ghost) return new Mesh(new CylinderGeometry(c.tireRadius, c.tireRadius, c.sectionWidth, 32, 1, true), parts.materials.flat(COLORS.ghost, 0.1));
    // a rounded tyre section turned about the spin axis (lathe about y)
    const w = c.sectionWidth / 2, R = c.tireRadius, r0 = rimR;
    const prof: Vector2[] = [];
    const bulge = Math.min(w, (R - r0) / 2) * 0.9;
    prof.push(new Vector2(r0, -w * 0.92));
    for (let k = 0; k <= 8; k++) { const t = (k / 8) * (Math.PI / 2); prof.push(new Vector2(R - bulge + bulge * Math.sin(t), -w + bulge - bulge * Math.cos(t))); }
    for (let k = 0; k <= 8; k++) { const t = (k / 8) * (Math.PI / 2); prof.push(new Vector2(R - bulge + bulge * Math.cos(t), w - bulge + bulge * Math.sin(t))); }
    prof.push(new Vector2(r0, w * 0.92));
    const g = new LatheGeometry(prof, 40);
    return new Mesh(g, parts.materials.solid(COLORS.tyre, { opacity: 0.62, frontOnly: true }));
  });
  tyre.position.copy(wc);
  tyre.quaternion.copy(_q);
  if (!ghost) {
    // the rim as a thin ring at the bead, so the upright inside stays visible
    const rim = getObject(map, group, `rim:${id}`, () => new Mesh(new CylinderGeometry(rimR, rimR, c.sectionWidth * 0.78, 40, 1, true), parts.materials.solid(COLORS.rim, { opacity: 0.18 })));
    rim.position.copy(wc);
    rim.quaternion.copy(_q);
    parts.livePins.at(wc, s * 0.012, COLORS.rim); // the hub
  }
  // physical steering axis, extended to the ground and above the upper point
  if (c.steeringAxis) {
    const a = vec(c.steeringAxis[0]), b = vec(c.steeringAxis[1], new Vector3());
    const d = b.clone().sub(a);
    const groundZ = c.contact ? c.contact[2] : c.wheelCenter[2] - c.tireRadius;
    const t0 = Math.abs(d.z) > 1e-9 ? (groundZ - a.z) / d.z : -0.5;
    const lo = a.clone().addScaledVector(d, Math.min(t0, 0));
    const hi = a.clone().addScaledVector(d, 1.25);
    (ghost ? parts.ghostTubes : parts.liveTubes).tube(lo, hi, s * (ghost ? 0.0025 : 0.004), ghost ? COLORS.ghost : COLORS.steeringAxis);
    if (!ghost && c.contact) {
      // where the axis meets the ground: against the contact centre, scrub and trail
      parts.livePins.at(lo, s * 0.01, COLORS.steeringAxis);
    }
  }
  if (c.damper) {
    (ghost ? parts.ghostTubes : parts.liveTubes).tube(vec(c.damper[0]), vec(c.damper[1], new Vector3()), s * (ghost ? 0.008 : 0.014), ghost ? COLORS.ghost : COLORS.damper);
  }
  if (ghost) return;
  // the virtual steering axis: the steering response's screw axis (on a double wishbone
  // it lies on the physical one; on a multi-link it is the only one)
  const screwId = `screw:${id}`;
  if (c.screwAxis) {
    const line = getObject(parts.objects, parts.overlay, screwId, () => {
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
  } else hideObject(parts, screwId);
  // instant centres (side and front view) and the front-view swing arm to the contact patch
  for (const [key, p] of [['svic', c.svic], ['fvic', c.fvic]] as const) {
    const mid = `${key}:${id}`;
    if (!p || !Number.isFinite(p[0] + p[1] + p[2]) || Math.hypot(p[0] - wc.x, p[1] - wc.y, p[2] - wc.z) > s * 20) { hideObject(parts, mid); hideObject(parts, `${mid}:arm`); continue; }
    const m = getObject(parts.objects, parts.overlay, mid, () => new Mesh(parts.marker, parts.materials.flat(COLORS.ic)));
    m.position.copy(vec(p));
    m.scale.setScalar(s * 0.014);
    if (c.contact) {
      const line = getObject(parts.objects, parts.overlay, `${mid}:arm`, () => {
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
