/**
 * A minimal STEP (AP214) writer for tests: a polyhedron with planar faces as one manifold
 * solid B-rep (points, vertices, lines, edges, loops, planes, faces, a closed shell), with
 * the product structure readers expect. Faces are vertex loops, counter-clockwise seen
 * from outside.
 */
export function polyhedronStep(vertices: readonly (readonly [number, number, number])[], faces: readonly (readonly number[])[], name = 'part'): string {
  const lines: string[] = [];
  let id = 0;
  const add = (text: string): number => {
    lines.push(`#${++id}=${text};`);
    return id;
  };
  const f = (x: number): string => (Number.isInteger(x) ? `${x}.` : `${x}`);
  const point = (p: readonly number[]): number => add(`CARTESIAN_POINT('',(${p.map(f).join(',')}))`);
  const direction = (d: readonly number[]): number => {
    const n = Math.hypot(d[0]!, d[1]!, d[2]!);
    return add(`DIRECTION('',(${d.map((x) => f(x / n)).join(',')}))`);
  };
  const vertexIds = vertices.map((v) => add(`VERTEX_POINT('',#${point(v)})`));
  const edges = new Map<string, number>();
  const edgeOf = (a: number, b: number): { edge: number; same: boolean } => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    let edge = edges.get(key);
    const [lo, hi] = a < b ? [a, b] : [b, a];
    if (edge === undefined) {
      const p = vertices[lo]!, q = vertices[hi]!;
      const d = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
      const line = add(`LINE('',#${point(p)},#${add(`VECTOR('',#${direction(d)},${f(Math.hypot(d[0]!, d[1]!, d[2]!))})`)})`);
      edge = add(`EDGE_CURVE('',#${vertexIds[lo]},#${vertexIds[hi]},#${line},.T.)`);
      edges.set(key, edge);
    }
    return { edge, same: a === lo };
  };
  const faceIds = faces.map((loop) => {
    const oriented = loop.map((a, i) => {
      const { edge, same } = edgeOf(a, loop[(i + 1) % loop.length]!);
      return add(`ORIENTED_EDGE('',*,*,#${edge},${same ? '.T.' : '.F.'})`);
    });
    const edgeLoop = add(`EDGE_LOOP('',(${oriented.map((o) => `#${o}`).join(',')}))`);
    const bound = add(`FACE_OUTER_BOUND('',#${edgeLoop},.T.)`);
    const [p0, p1, p2] = [vertices[loop[0]!]!, vertices[loop[1]!]!, vertices[loop[2]!]!];
    const u = [p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]], v = [p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]];
    const normal = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!];
    const placement = add(`AXIS2_PLACEMENT_3D('',#${point(p0)},#${direction(normal)},#${direction(u)})`);
    const plane = add(`PLANE('',#${placement})`);
    return add(`ADVANCED_FACE('',(#${bound}),#${plane},.T.)`);
  });
  const shell = add(`CLOSED_SHELL('',(${faceIds.map((x) => `#${x}`).join(',')}))`);
  const solid = add(`MANIFOLD_SOLID_BREP('${name}',#${shell})`);
  const mm = add('( LENGTH_UNIT() NAMED_UNIT(*) SI_UNIT(.MILLI.,.METRE.) )');
  const rad = add('( NAMED_UNIT(*) PLANE_ANGLE_UNIT() SI_UNIT($,.RADIAN.) )');
  const sr = add('( NAMED_UNIT(*) SI_UNIT($,.STERADIAN.) SOLID_ANGLE_UNIT() )');
  const unc = add(`UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.E-07),#${mm},'distance_accuracy_value','')`);
  const ctx = add(`( GEOMETRIC_REPRESENTATION_CONTEXT(3) GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((#${unc})) GLOBAL_UNIT_ASSIGNED_CONTEXT((#${mm},#${rad},#${sr})) REPRESENTATION_CONTEXT('',''))`);
  const origin = add(`AXIS2_PLACEMENT_3D('',#${point([0, 0, 0])},#${direction([0, 0, 1])},#${direction([1, 0, 0])})`);
  const rep = add(`ADVANCED_BREP_SHAPE_REPRESENTATION('',(#${solid},#${origin}),#${ctx})`);
  const app = add(`APPLICATION_CONTEXT('automotive design')`);
  add(`APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,#${app})`);
  const pctx = add(`PRODUCT_CONTEXT('',#${app},'mechanical')`);
  const product = add(`PRODUCT('${name}','${name}','',(#${pctx}))`);
  const formation = add(`PRODUCT_DEFINITION_FORMATION('','',#${product})`);
  const dctx = add(`PRODUCT_DEFINITION_CONTEXT('part definition',#${app},'design')`);
  const definition = add(`PRODUCT_DEFINITION('design','',#${formation},#${dctx})`);
  const shape = add(`PRODUCT_DEFINITION_SHAPE('','',#${definition})`);
  add(`SHAPE_DEFINITION_REPRESENTATION(#${shape},#${rep})`);
  return [
    'ISO-10303-21;', 'HEADER;', "FILE_DESCRIPTION((''),'2;1');",
    `FILE_NAME('${name}.step','2026-01-01T00:00:00',(''),(''),'kinemate test','','');`,
    "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));", 'ENDSEC;', 'DATA;', ...lines, 'ENDSEC;', 'END-ISO-10303-21;', '',
  ].join('\n');
}

/** A box's corners and faces (counter-clockwise from outside), `size` full sizes, centred at `centre`. */
export function boxPolyhedron(size: readonly [number, number, number], centre: readonly [number, number, number] = [0, 0, 0]): { vertices: [number, number, number][]; faces: number[][] } {
  const vertices: [number, number, number][] = [];
  for (let i = 0; i < 8; i++) vertices.push([0, 1, 2].map((k) => centre[k]! + ((i >> k) & 1 ? size[k]! / 2 : -size[k]! / 2)) as [number, number, number]);
  const faces = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
  return { vertices, faces };
}
