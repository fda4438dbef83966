/**
 * A STEP file (ISO 10303-21, AP214 "automotive_design") of simple solids as an advanced
 * B-rep: planes and cylindrical surfaces bounded by lines and circles, every edge shared
 * by two faces in opposite senses, every loop counter-clockwise seen from outside.
 * Enough for any STEP reader (checked with occt-import-js); no product structure beyond
 * the one product the shape belongs to.
 */
import { add, boxCorner, boxFaces, cylinderPoint, scale, sub, unit, type Box, type Cylinder, type Solid, type V3 } from './solids.ts';

class StepData {
  private lines: string[] = [];
  add(entity: string): string {
    this.lines.push(`#${this.lines.length + 1}=${entity};`);
    return `#${this.lines.length}`;
  }
  text(): string { return this.lines.join('\n'); }
}

const num = (x: number): string => {
  const s = (Math.abs(x) < 1e-12 ? 0 : x).toPrecision(15).replace(/\.?0+$/, '').replace(/\.?0+e/, 'e');
  return /[.eE]/.test(s) ? s.replace('e', 'E') : `${s}.`;
};
const tuple = (v: readonly number[]) => `(${v.map(num).join(',')})`;

class BrepWriter {
  constructor(private readonly d: StepData) {}
  point(p: V3) { return this.d.add(`CARTESIAN_POINT('',${tuple(p)})`); }
  direction(v: V3) { return this.d.add(`DIRECTION('',${tuple(unit(v))})`); }
  placement(origin: V3, z: V3, x: V3) { return this.d.add(`AXIS2_PLACEMENT_3D('',${this.point(origin)},${this.direction(z)},${this.direction(x)})`); }
  vertex(p: V3) { return this.d.add(`VERTEX_POINT('',${this.point(p)})`); }
  lineEdge(a: string, b: string, pa: V3, pb: V3) {
    const v = sub(pb, pa);
    const line = this.d.add(`LINE('',${this.point(pa)},${this.d.add(`VECTOR('',${this.direction(v)},${num(Math.hypot(...v))})`)})`);
    return this.d.add(`EDGE_CURVE('',${a},${b},${line},.T.)`);
  }
  arcEdge(a: string, b: string, centre: V3, axis: V3, ref: V3, radius: number) {
    const circle = this.d.add(`CIRCLE('',${this.placement(centre, axis, ref)},${num(radius)})`);
    return this.d.add(`EDGE_CURVE('',${a},${b},${circle},.T.)`);
  }
  loop(edges: [string, boolean][]) {
    return this.d.add(`EDGE_LOOP('',(${edges.map(([e, s]) => this.d.add(`ORIENTED_EDGE('',*,*,${e},${s ? '.T.' : '.F.'})`)).join(',')}))`);
  }
  /** A face: its outer loop, any holes (loops the other way round), on a surface whose normal points out (`sameSense`) or in. */
  face(edges: [string, boolean][], surface: string, holes: [string, boolean][][] = [], sameSense = true) {
    const bounds = [this.d.add(`FACE_OUTER_BOUND('',${this.loop(edges)},.T.)`), ...holes.map((h) => this.d.add(`FACE_BOUND('',${this.loop(h)},.T.)`))];
    return this.d.add(`ADVANCED_FACE('',(${bounds.join(',')}),${surface},${sameSense ? '.T.' : '.F.'})`);
  }
  solid(faces: string[]) {
    return this.d.add(`MANIFOLD_SOLID_BREP('',${this.d.add(`CLOSED_SHELL('',(${faces.join(',')}))`)})`);
  }

  box(b: Box): string {
    const vertexAt = new Map<string, { id: string; p: V3 }>();
    const vertex = (s: V3) => {
      const key = s.join();
      if (!vertexAt.has(key)) { const p = boxCorner(b, s); vertexAt.set(key, { id: this.vertex(p), p }); }
      return vertexAt.get(key)!;
    };
    const edges = new Map<string, string>();
    const faces = boxFaces().map((f) => {
      const loop: [string, boolean][] = f.corners.map((s, i) => {
        const t = f.corners[(i + 1) % 4];
        const [ks, kt] = [s.join(), t.join()];
        const forward = ks < kt;
        const key = forward ? `${ks}|${kt}` : `${kt}|${ks}`;
        if (!edges.has(key)) {
          const [from, to] = forward ? [vertex(s), vertex(t)] : [vertex(t), vertex(s)];
          edges.set(key, this.lineEdge(from.id, to.id, from.p, to.p));
        }
        return [edges.get(key)!, forward];
      });
      const normal = scale(b.axes[f.axis], f.sign);
      const centre = add(b.centre, scale(normal, b.half[f.axis]));
      return this.face(loop, this.d.add(`PLANE('',${this.placement(centre, normal, b.axes[(f.axis + 1) % 3])})`));
    });
    return this.solid(faces);
  }

  /** A cylindrical wall of radius r: its arcs (two per rim, seams at θ = 0 and π) and seam lines. */
  private wall(c: Cylinder, r: number) {
    const at = { ...c, radius: r };
    const top = add(c.base, scale(c.axis, c.length));
    const P0a = cylinderPoint(at, 0, 0), P0b = cylinderPoint(at, Math.PI, 0), P1a = cylinderPoint(at, 0, c.length), P1b = cylinderPoint(at, Math.PI, c.length);
    const [v0a, v0b, v1a, v1b] = [P0a, P0b, P1a, P1b].map((p) => this.vertex(p));
    const minusRef = scale(c.ref, -1);
    return {
      A0: this.arcEdge(v0a, v0b, c.base, c.axis, c.ref, r), B0: this.arcEdge(v0b, v0a, c.base, c.axis, minusRef, r),
      A1: this.arcEdge(v1a, v1b, top, c.axis, c.ref, r), B1: this.arcEdge(v1b, v1a, top, c.axis, minusRef, r),
      Sa: this.lineEdge(v0a, v1a, P0a, P1a), Sb: this.lineEdge(v0b, v1b, P0b, P1b),
      surface: () => this.d.add(`CYLINDRICAL_SURFACE('',${this.placement(c.base, c.axis, c.ref)},${num(r)})`),
    };
  }

  /** Two half faces (θ ∈ [0, π], [π, 2π]) outside, the same inside a tube's bore, two (annular) ends. */
  cylinder(c: Cylinder): string {
    const top = add(c.base, scale(c.axis, c.length));
    const o = this.wall(c, c.radius);
    const faces = [
      this.face([[o.A0, true], [o.Sb, true], [o.A1, false], [o.Sa, false]], o.surface()),
      this.face([[o.B0, true], [o.Sa, true], [o.B1, false], [o.Sb, false]], o.surface()),
    ];
    const bottomPlane = () => this.d.add(`PLANE('',${this.placement(c.base, scale(c.axis, -1), c.ref)})`);
    const topPlane = () => this.d.add(`PLANE('',${this.placement(top, c.axis, c.ref)})`);
    if (!c.inner) {
      faces.push(this.face([[o.B0, false], [o.A0, false]], bottomPlane()), this.face([[o.A1, true], [o.B1, true]], topPlane()));
      return this.solid(faces);
    }
    const i = this.wall(c, c.inner);
    // the bore's faces point at the axis: the outer wall's loops the other way round, on the same kind of surface, sense reversed
    faces.push(
      this.face([[i.Sa, true], [i.A1, true], [i.Sb, false], [i.A0, false]], i.surface(), [], false),
      this.face([[i.Sb, true], [i.B1, true], [i.Sa, false], [i.B0, false]], i.surface(), [], false),
      this.face([[o.B0, false], [o.A0, false]], bottomPlane(), [[[i.A0, true], [i.B0, true]]]),
      this.face([[o.A1, true], [o.B1, true]], topPlane(), [[[i.B1, false], [i.A1, false]]]),
    );
    return this.solid(faces);
  }
}

/** The text of a STEP file holding `solids` as one product named `name` (mm). */
export function stepText(name: string, solids: readonly Solid[]): string {
  const d = new StepData();
  const app = d.add(`APPLICATION_CONTEXT('automotive_design')`);
  d.add(`APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,${app})`);
  const product = d.add(`PRODUCT('${name}','${name}','',(${d.add(`PRODUCT_CONTEXT('',${app},'mechanical')`)}))`);
  const formation = d.add(`PRODUCT_DEFINITION_FORMATION('','',${product})`);
  const definition = d.add(`PRODUCT_DEFINITION('design','',${formation},${d.add(`PRODUCT_DEFINITION_CONTEXT('part definition',${app},'design')`)})`);
  const shape = d.add(`PRODUCT_DEFINITION_SHAPE('','',${definition})`);
  const length = d.add(`(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.))`);
  const angle = d.add(`(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.))`);
  const solidAngle = d.add(`(NAMED_UNIT(*)SI_UNIT($,.STERADIAN.)SOLID_ANGLE_UNIT())`);
  const accuracy = d.add(`UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-07),${length},'distance_accuracy_value','confusion accuracy')`);
  const context = d.add(`(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((${accuracy}))GLOBAL_UNIT_ASSIGNED_CONTEXT((${length},${angle},${solidAngle}))REPRESENTATION_CONTEXT('',''))`);
  const w = new BrepWriter(d);
  const items = solids.map((s) => (s.kind === 'box' ? w.box(s) : w.cylinder(s)));
  const origin = w.placement([0, 0, 0], [0, 0, 1], [1, 0, 0]);
  const rep = d.add(`ADVANCED_BREP_SHAPE_REPRESENTATION('${name}',(${[origin, ...items].join(',')}),${context})`);
  d.add(`SHAPE_DEFINITION_REPRESENTATION(${shape},${rep})`);
  return [
    'ISO-10303-21;', 'HEADER;',
    `FILE_DESCRIPTION(('${name}: simple solids written by scripts/make-cad-example.ts'),'2;1');`,
    `FILE_NAME('${name}.step','2026-01-01T00:00:00',('kinemate'),('kinemate'),'kinemate','scripts/make-cad-example.ts','');`,
    `FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));`,
    'ENDSEC;', 'DATA;', d.text(), 'ENDSEC;', 'END-ISO-10303-21;', '',
  ].join('\n');
}
