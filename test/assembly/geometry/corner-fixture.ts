/**
 * A double-wishbone corner with geometry on six bodies, written to a folder: the public
 * sanity geometry with a coilover (so it has a damper), and an STL per body in vehicle axes
 * at design — a torus tyre about the wheel's spin axis, boxes for the upright and wishbones,
 * a box for the damper body placed by a `frame` along the strut, and a wheelhouse liner
 * (a slab over the tyre) on the chassis, 40 mm above the tyre's top at design.
 * `detail` sets the triangle counts (the bench uses ~200,000 triangles in all).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cylinderMesh, gridBoxMesh, meshToStl, torusMesh, type PartMesh } from '../../../src/assembly/geometry/index.ts';

export const CORNER_YAML = `type: double_wishbone
side: left
units: millimeters
actuation: { type: direct, mount: lower_wishbone }
spring: { type: coilover, rate: 60 }
hardpoints:
  lower_wishbone_inboard_front: { x: 250, y: 400, z: 200 }
  lower_wishbone_inboard_rear: { x: -250, y: 450, z: 200 }
  lower_wishbone_outboard: { x: 0, y: 900, z: 200 }
  upper_wishbone_inboard_front: { x: 225, y: 350, z: 500 }
  upper_wishbone_inboard_rear: { x: -275, y: 350, z: 500 }
  upper_wishbone_outboard: { x: -25, y: 750, z: 500 }
  trackrod_inboard: { x: 50, y: 200, z: 250 }
  trackrod_outboard: { x: 150, y: 800, z: 275 }
  axle_inboard: { x: -20, y: 800, z: 308.426 }
  axle_outboard: { x: -20, y: 950, z: 313.426 }
  strut_bottom: { x: 0, y: 700, z: 200 }
  strut_top: { x: 0, y: 600, z: 600 }
config:
  steering: { type: rack }
  wheel: { offset: 0, tire: { aspect_ratio: 0.55, section_width: 270, rim_diameter: 13 } }
  axle_position: front
`;

/** The tyre: outer radius 313.6 mm (the 270/55R13's), 200 mm wide, about y through the wheel centre. */
export const TYRE = { centre: [-20, 1000, 313.426] as const, major: 213.6, minor: 100 };
/** The liner's underside, mm: 40 above the tyre's top at design. */
export const LINER_BOTTOM = TYRE.centre[2] + TYRE.major + TYRE.minor + 40;

/**
 * `box`: grid boxes of box × box quads a face (12·box² triangles); `tube`: instead, the
 * arms, the upright and the damper as capped cylinders of tube[0] segments × tube[1] rings
 * (a CAD tessellation: curved faces fine, flat caps fanned), the liner still a grid box.
 */
export interface CornerDetail { tyre: [segments: number, sides: number]; box: number; tube?: [segments: number, rings: number] }

export const SMALL: CornerDetail = { tyre: [48, 16], box: 2 };
/**
 * ~200,000 triangles as CAD tessellates: a 256 × 96 torus tyre (49,152), a 52 × 52-grid
 * liner (32,448), and the upright, both wishbones and the damper as 256 × 64 capped tubes
 * (33,280 each).
 */
export const BENCH: CornerDetail = { tyre: [256, 96], box: 52, tube: [256, 64] };

/** A tube (capped cylinder) from `a` to `b`, or the grid box `box` when no tube detail is asked. */
function tube(a: readonly number[], b: readonly number[], radius: number, detail: CornerDetail, box: PartMesh): PartMesh {
  if (!detail.tube) return box;
  const d = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const len = Math.hypot(d[0]!, d[1]!, d[2]!);
  const z = d.map((x) => x / len);
  const mesh = cylinderMesh(radius, len, detail.tube[0], detail.tube[1]);
  // an orthonormal frame with z along a → b
  const x0 = Math.abs(z[0]!) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const dot = x0[0]! * z[0]! + x0[1]! * z[1]! + x0[2]! * z[2]!;
  const xr = [x0[0]! - dot * z[0]!, x0[1]! - dot * z[1]!, x0[2]! - dot * z[2]!];
  const xn = Math.hypot(xr[0]!, xr[1]!, xr[2]!);
  const x = xr.map((v) => v / xn);
  const y = [z[1]! * x[2]! - z[2]! * x[1]!, z[2]! * x[0]! - z[0]! * x[2]!, z[0]! * x[1]! - z[1]! * x[0]!];
  const p = mesh.positions;
  const out = new Float32Array(p.length);
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = a[k]! + x[k]! * p[i]! + y[k]! * p[i + 1]! + z[k]! * p[i + 2]!;
  }
  return { positions: out, indices: mesh.indices };
}

/** Writes corner.yaml and its STL files into `dir`; returns the yaml's path. */
export function writeCorner(dir: string, detail: CornerDetail = SMALL, extraYaml = ''): string {
  const n = detail.box;
  const c = TYRE.centre;
  const files: Record<string, ReturnType<typeof gridBoxMesh>> = {
    chassis: gridBoxMesh([600, 400, 20], n, [c[0], c[1], LINER_BOTTOM + 10]),
    upright: tube([-10, 820, 170], [-10, 820, 490], 25, detail, gridBoxMesh([60, 40, 320], n, [-10, 820, 330])),
    lower_wishbone: tube([0, 440, 200], [0, 820, 200], 15, detail, gridBoxMesh([60, 380, 20], n, [0, 630, 200])),
    upper_wishbone: tube([-100, 400, 500], [-100, 720, 500], 15, detail, gridBoxMesh([60, 320, 20], n, [-100, 560, 500])),
    tyre: torusMesh(TYRE.major, TYRE.minor, detail.tyre[0], detail.tyre[1], [c[0], c[1], c[2]], 'y'),
    // the damper body along z in its own file, 50 × 50 × 250 from its top
    damper: tube([0, 0, 0], [0, 0, -250], 25, detail, gridBoxMesh([50, 50, 250], n, [0, 0, -125])),
  };
  for (const [name, mesh] of Object.entries(files)) writeFileSync(join(dir, `${name}.stl`), meshToStl(mesh));
  // turn z (down the file's body) onto the strut, top (0, 600, 600) toward bottom (0, 700, 200)
  const d = [0, 100, -400];
  const len = Math.hypot(...d);
  const [dx, dy, dz] = d.map((x) => x / len) as [number, number, number];
  // shortest arc from (0, 0, -1) to d: the file's −z is the strut direction
  const qw = 1 - dz, qx = -dy, qy = dx, qz = 0;
  const qn = Math.hypot(qw, qx, qy, qz);
  const yaml = `${CORNER_YAML}geometry:
  chassis: [ { file: chassis.stl } ]
  upright: [ { file: upright.stl } ]
  lower_wishbone: [ { file: lower_wishbone.stl } ]
  upper_wishbone: [ { file: upper_wishbone.stl } ]
  tyre: [ { file: tyre.stl } ]
  damper: [ { file: damper.stl, frame: { origin: [0, 600, 600], rotation: [${qw / qn}, ${qx / qn}, ${qy / qn}, ${qz / qn}] } } ]
${extraYaml}`;
  const file = join(dir, 'corner.yaml');
  writeFileSync(file, yaml);
  return file;
}
