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
import { gridBoxMesh, meshToStl, torusMesh } from '../../../src/assembly/geometry/index.ts';

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

export interface CornerDetail { tyre: [segments: number, sides: number]; box: number }

export const SMALL: CornerDetail = { tyre: [48, 16], box: 2 };
/** ~200,000 triangles: a 256 × 96 torus (49,152) and five 52 × 52 grid boxes (32,448 each). */
export const BENCH: CornerDetail = { tyre: [256, 96], box: 52 };

/** Writes corner.yaml and its STL files into `dir`; returns the yaml's path. */
export function writeCorner(dir: string, detail: CornerDetail = SMALL, extraYaml = ''): string {
  const n = detail.box;
  const c = TYRE.centre;
  const files: Record<string, ReturnType<typeof gridBoxMesh>> = {
    chassis: gridBoxMesh([600, 400, 20], n, [c[0], c[1], LINER_BOTTOM + 10]),
    upright: gridBoxMesh([60, 40, 320], n, [-10, 820, 330]),
    lower_wishbone: gridBoxMesh([60, 380, 20], n, [0, 630, 200]),
    upper_wishbone: gridBoxMesh([60, 320, 20], n, [-100, 560, 500]),
    tyre: torusMesh(TYRE.major, TYRE.minor, detail.tyre[0], detail.tyre[1], [c[0], c[1], c[2]], 'y'),
    // the damper body along z in its own file, 50 × 50 × 250 from its top
    damper: gridBoxMesh([50, 50, 250], n, [0, 0, -125]),
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
