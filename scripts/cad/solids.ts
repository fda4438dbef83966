/**
 * The simple solids the CAD example is made of — boxes and cylinders, placed anywhere —
 * as B-rep descriptions (for the STEP writer) and as triangle meshes (for STL). A
 * cylinder's side is two half faces, as some CAD kernels write it: picking must join them.
 */
export type V3 = [number, number, number];

export const add = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: V3, s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const unit = (a: V3): V3 => scale(a, 1 / Math.hypot(a[0], a[1], a[2]));

/** A unit vector square to unit d (the world axis d runs least along, made square). */
export function across(d: V3): V3 {
  const a = d.map(Math.abs);
  const k = a[0] <= a[1] && a[0] <= a[2] ? 0 : a[1] <= a[2] ? 1 : 2;
  const e: V3 = [0, 0, 0];
  e[k] = 1;
  return unit(sub(e, scale(d, dot(d, e))));
}

/** A box: centre, orthonormal right-handed axes (ex, ey, ez) and half sizes along them. */
export interface Box { kind: 'box'; centre: V3; axes: [V3, V3, V3]; half: V3 }
/**
 * A cylinder from `base` along unit `axis` for `length`, radius `radius`; `ref` ⟂ axis is
 * where its seams are. With `inner`, a tube: a bore of that radius through it (a tyre).
 */
export interface Cylinder { kind: 'cylinder'; base: V3; axis: V3; ref: V3; radius: number; length: number; inner?: number }
export type Solid = Box | Cylinder;

/** A box whose long axis runs from a to b (with `width` along `side` and `depth` across both). */
export function barBox(a: V3, b: V3, width: number, depth: number, side: V3 = [0, 0, 1]): Box {
  const ex = unit(sub(b, a));
  let ey = sub(side, scale(ex, dot(side, ex)));
  if (Math.hypot(...ey) < 1e-9) ey = across(ex);
  ey = unit(ey);
  const ez = cross(ex, ey);
  return { kind: 'box', centre: scale(add(a, b), 0.5), axes: [ex, ey, ez], half: [Math.hypot(...sub(b, a)) / 2, width / 2, depth / 2] };
}

/** A cylinder between two points. */
export function rodCylinder(a: V3, b: V3, radius: number): Cylinder {
  const axis = unit(sub(b, a));
  return { kind: 'cylinder', base: a, axis, ref: across(axis), radius, length: Math.hypot(...sub(b, a)) };
}

/** A box's corner at signs (sx, sy, sz) ∈ {−1, 1}³. */
export function boxCorner(b: Box, s: V3): V3 {
  let p = b.centre;
  for (let k = 0; k < 3; k++) p = add(p, scale(b.axes[k], s[k] * b.half[k]));
  return p;
}

/** The faces of a box: outward normal axis index and sign, with its corners counter-clockwise seen from outside. */
export function boxFaces(): { axis: number; sign: 1 | -1; corners: V3[] }[] {
  const out: { axis: number; sign: 1 | -1; corners: V3[] }[] = [];
  for (let i = 0; i < 3; i++) {
    const j = (i + 1) % 3, k = (i + 2) % 3;
    for (const sign of [1, -1] as const) {
      const loop: [number, number][] = [[-1, -1], [1, -1], [1, 1], [-1, 1]];
      if (sign < 0) loop.reverse();
      out.push({ axis: i, sign, corners: loop.map(([a, b]) => { const s: V3 = [0, 0, 0]; s[i] = sign; s[j] = a; s[k] = b; return s; }) });
    }
  }
  return out;
}

/** A point on a cylinder at angle θ (from `ref`, right-handed about the axis) and height h. */
export function cylinderPoint(c: Cylinder, theta: number, h: number): V3 {
  const w = cross(c.axis, c.ref);
  return add(add(c.base, scale(c.axis, h)), add(scale(c.ref, c.radius * Math.cos(theta)), scale(w, c.radius * Math.sin(theta))));
}

/** Triangles (outward winding) of a solid; a cylinder in `segments` around. */
export function triangles(s: Solid, segments = 48): V3[][] {
  const out: V3[][] = [];
  if (s.kind === 'box') {
    for (const f of boxFaces()) {
      const p = f.corners.map((c) => boxCorner(s, c));
      out.push([p[0], p[1], p[2]], [p[0], p[2], p[3]]);
    }
    return out;
  }
  const top = add(s.base, scale(s.axis, s.length));
  const bore = s.inner ? { ...s, radius: s.inner } : null;
  for (let i = 0; i < segments; i++) {
    const t0 = (2 * Math.PI * i) / segments, t1 = (2 * Math.PI * (i + 1)) / segments;
    const a = cylinderPoint(s, t0, 0), b = cylinderPoint(s, t1, 0), c = cylinderPoint(s, t1, s.length), d = cylinderPoint(s, t0, s.length);
    out.push([a, b, c], [a, c, d]);
    if (!bore) { out.push([s.base, b, a], [top, d, c]); continue; }
    const ai = cylinderPoint(bore, t0, 0), bi = cylinderPoint(bore, t1, 0), ci = cylinderPoint(bore, t1, s.length), di = cylinderPoint(bore, t0, s.length);
    out.push([ai, ci, bi], [ai, di, ci]); // the bore faces the axis
    out.push([ai, bi, b], [ai, b, a], [di, d, c], [di, c, ci]); // the annular ends
  }
  return out;
}

/** A binary STL of some solids' triangles. */
export function stlBytes(solids: readonly Solid[], segments = 48): Uint8Array {
  const tris = solids.flatMap((s) => triangles(s, segments));
  const buf = new ArrayBuffer(84 + 50 * tris.length);
  const view = new DataView(buf);
  new TextEncoder().encodeInto('binary STL written by scripts/make-cad-example.ts', new Uint8Array(buf, 0, 80));
  view.setUint32(80, tris.length, true);
  tris.forEach((t, i) => {
    const o = 84 + 50 * i;
    const n = unit(cross(sub(t[1], t[0]), sub(t[2], t[0])));
    [n, ...t].forEach((v, j) => v.forEach((x, k) => view.setFloat32(o + 12 * j + 4 * k, x, true)));
  });
  return new Uint8Array(buf);
}
