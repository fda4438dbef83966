/**
 * The CAD example (scripts/make-cad-example.ts, examples/cad/): its STEP files are B-reps
 * a STEP reader (occt-import-js, through the geometry layer) reads face by face, a pick on
 * either half of the tyre's split side gives the wheel's spin axis through its centre, the
 * STL files hold the same parts, and the tyre touches the wheelhouse liner at full bump and
 * full lock and nowhere else on the grid (its vertices against the liner's face, moved by
 * the upright's solved pose).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMeshBytes } from '../../src/assembly/geometry/read.ts';
import { produce } from 'immer';
import {
  addMate, addPickedEntity, buildModel, dofModel, entityFromPick, parseAssembly, parseGeometry, parseSweep, pickedEntityName, runSweep, suspensionAssembly, SuspensionModel,
} from '../../src/index.ts';
import type { PartMesh } from '../../src/assembly/geometry/mesh.ts';

const dir = new URL('../../examples/cad/', import.meta.url);
const read = (path: string) => readMeshBytes(readFileSync(new URL(path, dir)), path);

type V = [number, number, number];
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V): V => { const l = Math.hypot(...a); return [a[0] / l, a[1] / l, a[2] / l]; };
/** An orthonormal frame (rows) from three points. */
const frameOf = (a: V, b: V, c: V): V[] => { const x = unit(sub(b, a)); const z = unit(cross(x, sub(c, a))); return [x, cross(z, x), z]; };

describe('the CAD example', () => {
  it('every STEP file is a B-rep the reader reads face by face: boxes 6 faces, cylinders 4 (the side in two halves), the tyre (a tube) 6', async () => {
    const faces: Record<string, number> = { upright: 16, tyre: 6, wheelhouse_liner: 6 };
    for (const part of ['upright', 'tyre', 'wheelhouse_liner']) { // the other three are the same two kinds of solid
      const mesh = await read(`step/${part}.step`);
      expect(mesh.faces?.length, part).toBe(faces[part]);
      expect(mesh.indices.length / 3).toBeLessThan(2000);
    }
  }, 60_000);

  it("a pick on either half of the tyre's side is the spin axis through the wheel centre, both halves one wall", async () => {
    const tyre = await read('step/tyre.step');
    const spin = unit([0, 150, 5]); // axle_inboard → axle_outboard
    for (const t of [0, tyre.faces![1].first]) {
      const r = entityFromPick(tyre, t);
      expect(r.feature).toBe('cylindrical face');
      if (r.entity.kind !== 'axis') throw new Error('not an axis');
      expect(Math.abs(dot(unit(r.entity.axis.direction as V), spin))).toBeGreaterThan(1 - 1e-9);
      const off = sub(r.entity.axis.origin as V, [-20, 950, 313.426]);
      expect(Math.hypot(...cross(off, spin))).toBeLessThan(1e-3);
      expect(r.triangles.length).toBe(tyre.faces![0].count + tyre.faces![1].count);
      expect(r.radius).toBeCloseTo(313.6, 2);
    }
  }, 60_000);

  it("a STEP part's circular edge: the spindle's outer rim picked from its end face is a circle of radius 25 about the wheel centre", async () => {
    // occt-import-js gives triangles per B-rep face and no edge curves: the rim is the
    // boundary between the end face and the side (its two half faces one wall), fitted
    const upright = await read('step/upright.step');
    const outboard: V = [-20, 950, 313.426], spin = unit([0, 150, 5]);
    const corner = (t: number, k: number): V => {
      const v = 3 * upright.indices[3 * t + k]!;
      return [upright.positions[v]!, upright.positions[v + 1]!, upright.positions[v + 2]!];
    };
    // a triangle of the spindle's end face (all three corners in its plane), and a corner of it on the rim
    const triangles = Array.from({ length: upright.indices.length / 3 }, (_, t) => t);
    const cap = triangles.find((t) => [0, 1, 2].every((k) => Math.abs(dot(sub(corner(t, k), outboard), spin)) < 1e-3))!;
    expect(cap).toBeDefined();
    const rim = [0, 1, 2].map((k) => corner(cap, k)).find((p) => Math.abs(Math.hypot(...sub(p, outboard)) - 25) < 1e-3)!;
    const mid = [0, 1, 2].map((c) => (corner(cap, 0)[c]! + corner(cap, 1)[c]! + corner(cap, 2)[c]!) / 3) as V;
    // a click a hair inside the face from the rim, on its edge rather than on the corner
    const edgePoint = (p: V): V => [0, 1, 2].map((c) => p[c]! + 0.02 * (mid[c]! - p[c]!)) as V;
    const other = [0, 1, 2].map((k) => corner(cap, k)).find((p) => p !== rim && Math.abs(Math.hypot(...sub(p, outboard)) - 25) < 1e-3);
    const hit = other ? edgePoint([0, 1, 2].map((c) => (rim[c]! + other[c]!) / 2) as V) : edgePoint(rim);
    const r = entityFromPick(upright, cap, { point: hit, tolerance: 0.5 });
    expect(r.feature).toBe('circular edge');
    if (r.entity.kind !== 'circle') throw new Error('not a circle');
    expect(r.entity.circle.radius).toBeCloseTo(25, 3);
    for (let c = 0; c < 3; c++) expect(r.entity.circle.center[c]).toBeCloseTo(outboard[c]!, 3);
    expect(r.entity.centre).toEqual(r.entity.circle.center);
    expect(Math.abs(dot(unit(r.entity.circle.normal as V), spin))).toBeGreaterThan(1 - 1e-9);
    // the whole rim: its segments go all the way round
    const n = r.segments!.length / 6;
    expect(n).toBeGreaterThanOrEqual(16);
  }, 60_000);

  it('the corner as an assembly: the loose wheel mounted on the spindle by picking the tread and the spindle, DOF 8 → 3 (bump, steer, spin)', async () => {
    let doc = parseAssembly(readFileSync(new URL('double_wishbone_stl.kinemate.json', dir), 'utf8'));
    expect(dofModel(buildModel(doc)).dof).toBe(8);
    const [tyre, upright] = [await read('stl/tyre.stl'), await read('stl/upright.stl')];
    const tread = entityFromPick(tyre, 0);
    expect([tread.feature, tread.radius?.toFixed(1)]).toEqual(['cylindrical face', '313.6']);
    // the spindle: the upright's cylinder of radius 25
    const spindle = Array.from({ length: upright.indices.length / 3 }, (_, t) => entityFromPick(upright, t)).find((r) => r.feature === 'cylindrical face' && Math.abs(r.radius! - 25) < 1e-3)!;
    expect(spindle).toBeDefined();
    const a = pickedEntityName(doc.parts.upright, spindle.entity), b = pickedEntityName(doc.parts.wheel, tread.entity);
    doc = produce(doc, addPickedEntity('upright', a, spindle.entity));
    doc = produce(doc, addPickedEntity('wheel', b, tread.entity));
    doc = produce(doc, addMate('wheel_bearing', { type: 'revolute', a: `upright.${a}`, b: `wheel.${b}` }));
    expect(dofModel(buildModel(doc)).dof).toBe(3);
  }, 60_000);

  it('the tyre touches the liner at full bump and full lock and clears it everywhere else on the grid', async () => {
    const [tyre, liner] = [await read('stl/tyre.stl'), await read('stl/wheelhouse_liner.stl')];
    // the liner's face towards the tyre: the plane of its triangles whose normal points most down
    const face = linerFace(liner);
    const text = readFileSync(new URL('double_wishbone_stl.yaml', dir), 'utf8');
    const geometry = parseGeometry(text.slice(0, text.indexOf('\ngeometry:')));
    const sm = new SuspensionModel(suspensionAssembly(geometry));
    const hp = geometry.corners[0].hardpoints as Record<string, V>;
    const design = frameOf(hp.axle_inboard, hp.axle_outboard, hp.lower_wishbone_outboard);
    const least: { rack: number; bump: number; gap: number }[] = [];
    for (const rack of [-30, -24, 0, 30]) {
      const spec = parseSweep(`version: 1\nsteps: 6\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: relative, start: 0, stop: 50 }\n  - { type: actuator_position, actuator: rack, direction: { axis: y }, mode: relative, start: ${rack}, stop: ${rack} }\n`);
      runSweep(sm, spec).steps.forEach((s, i) => {
        const p = s.positions as Record<string, V>;
        const now = frameOf(p.axle_inboard, p.axle_outboard, p.lower_wishbone_outboard);
        least.push({ rack, bump: i * 10, gap: minGap(tyre, design, now, hp.axle_inboard, p.axle_inboard, face) });
      });
    }
    const touching = least.filter((s) => s.gap <= 0);
    expect(touching.map((s) => [s.bump, s.rack])).toEqual([[50, -30]]);
    expect(touching[0].gap).toBeGreaterThan(-1.5);
    expect(Math.min(...least.filter((s) => s.gap > 0).map((s) => s.gap))).toBeGreaterThan(0.5);
  }, 60_000);
});

function linerFace(liner: PartMesh): { n: V; o: V } {
  let best: { n: V; o: V } | null = null;
  for (let t = 0; t < liner.indices.length / 3; t++) {
    const v = [0, 1, 2].map((k) => Array.from(liner.positions.subarray(3 * liner.indices[3 * t + k], 3 * liner.indices[3 * t + k] + 3)) as V);
    const n = unit(cross(sub(v[1], v[0]), sub(v[2], v[0])));
    if (!best || n[2] < best.n[2]) best = { n, o: v[0] };
  }
  return best!;
}

/** The least distance of the tyre's vertices (moved from the design frame to the current one) in front of the liner's face; negative inside. */
function minGap(tyre: PartMesh, design: V[], now: V[], p0: V, p1: V, face: { n: V; o: V }): number {
  let least = Infinity;
  for (let i = 0; i < tyre.positions.length; i += 3) {
    const local = [0, 1, 2].map((r) => dot(design[r], sub(Array.from(tyre.positions.subarray(i, i + 3)) as V, p0)));
    const world: V = [0, 1, 2].map((k) => p1[k] + local[0] * now[0][k] + local[1] * now[1][k] + local[2] * now[2][k]) as V;
    least = Math.min(least, dot(sub(world, face.o), face.n));
  }
  return least;
}
