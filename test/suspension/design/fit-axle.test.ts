/** Inverse design on an axle: symmetric moves (left point and its mirror), targets per side or both. */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { mirrorHardpoints, parseGeometry, type Geometry } from '../../../src/suspension/files';
import { sensitivitySweepBySide, SensitivityModel, bumpStates } from '../../../src/suspension/gradients/model';
import { fit, fitResiduals, fittedGeometryText, parseFitSpec, type FitSpec } from '../../../src/suspension/design/fit';
import { main } from '../../../src/cli/main';
import { memoryIO, tempFolder } from '../../cli/helpers';
import { AXLE_FIT, expectDocumentedFit } from './documented-fits';

const AXLE = 'examples/suspension/double_wishbone_axle.yaml';
const text = readFileSync(AXLE, 'utf8');
const design = parseGeometry(text);
const tmp = tempFolder();
afterAll(() => tmp.remove());

/** The symmetric move by hand: the left point by d along the axis, the right by d mirrored. */
function symmetricMove(g: Geometry, name: string, axis: 'x' | 'y' | 'z', d: number): Geometry {
  const out = structuredClone(g);
  const c = { x: 0, y: 1, z: 2 }[axis];
  if (name.startsWith('center.')) out.center![name.slice(7)][c] += d;
  else for (const corner of out.corners) corner.hardpoints[name][c] += corner.side === 'right' && c === 1 ? -d : d;
  return out;
}

/** Metric values per side at the travels, of the geometry as it is (values only). */
function valuesAt(g: Geometry, travels: number[], metrics: string[]) {
  const run = sensitivitySweepBySide(new SensitivityModel(g), bumpStates(travels, g), metrics);
  return (travel: number, side: string, m: string) => run.steps[travels.indexOf(travel)].metrics![side][m]!.value;
}

describe('fit on an axle: symmetric left/right moves', () => {
  it('a symmetric parameter\'s gradient is the left one plus the mirrored right one, and matches central differences of the symmetric move', () => {
    const spec: FitSpec = {
      move: { upper_wishbone_outboard: { y: [-9, 9], z: [-9, 9] }, trackrod_inboard: { x: [-9, 9], y: [-9, 9] }, lower_wishbone_inboard_rear: { y: [-9, 9] } },
      targets: [
        { metric: 'camber', gain: [0, 25], value: -1 },
        { metric: 'toe_angle', at: 20, value: 0, side: 'right' },
        { metric: 'kpi', at: -15, value: 0, side: 'left', weight: 2 },
      ],
    };
    const { keys, residuals } = fitResiduals(design, spec);
    expect(keys).toEqual(['upper_wishbone_outboard.y', 'upper_wishbone_outboard.z', 'trackrod_inboard.x', 'trackrod_inboard.y', 'lower_wishbone_inboard_rear.y']);
    expect(residuals.map((r) => r.target)).toEqual(['targets[0] left camber gain 0…25', 'targets[0] right camber gain 0…25', 'targets[1] right toe_angle at 20', 'targets[2] left kpi at -15']);
    // the sum rule, from the per-side gradients of every hardpoint
    const at = sensitivitySweepBySide(new SensitivityModel(design), bumpStates([20], design), ['toe_angle']).steps[0].metrics!.right.toe_angle!;
    expect(residuals[2].gradient['trackrod_inboard.y']).toBeCloseTo(at.gradient['left.trackrod_inboard.y'] - at.gradient['right.trackrod_inboard.y'], 12);
    expect(residuals[2].gradient['trackrod_inboard.x']).toBeCloseTo(at.gradient['left.trackrod_inboard.x'] + at.gradient['right.trackrod_inboard.x'], 12);
    // every entry against central differences of the re-solved, symmetrically moved axle
    const h = 1e-3;
    const unweighted = (g: Geometry) => {
      const v = valuesAt(g, [-15, 0, 20, 25], ['camber', 'toe_angle', 'kpi']);
      return [v(25, 'left', 'camber') - v(0, 'left', 'camber'), v(25, 'right', 'camber') - v(0, 'right', 'camber'), v(20, 'right', 'toe_angle'), v(-15, 'left', 'kpi')]; // before the weight, as fitResiduals gives them
    };
    let worst = 0;
    for (const key of keys) {
      const [name, axis] = key.split('.') as [string, 'x' | 'y' | 'z'];
      const plus = unweighted(symmetricMove(design, name, axis, h)), minus = unweighted(symmetricMove(design, name, axis, -h));
      residuals.forEach((r, i) => {
        const fd = (plus[i] - minus[i]) / (2 * h);
        const err = Math.abs(r.gradient[key] - fd) / Math.max(Math.abs(fd), 1e-4);
        worst = Math.max(worst, err);
        if (err > 1e-5) throw new Error(`${r.target} ${key}: exact ${r.gradient[key]}, differences ${fd}`);
      });
    }
    expect(worst).toBeLessThan(1e-5);
    // the y moves really couple the sides: a mirrored pair of contributions, not one side's
    expect(Math.abs(residuals[2].gradient['trackrod_inboard.y'])).toBeGreaterThan(1e-4);
  });

  it('a symmetrically perturbed axle is fitted back to the known design, exactly symmetric, and written in its mirrored layout', () => {
    const v = valuesAt(design, [-25, 0, 25], ['camber', 'toe_angle', 'kpi']);
    const spec: FitSpec = {
      move: { upper_wishbone_outboard: { z: [-10, 10] }, trackrod_inboard: { z: [-10, 10] }, upper_wishbone_inboard_front: { y: [-10, 10] } },
      targets: [
        { metric: 'camber', gain: [0, 25], value: v(25, 'left', 'camber') - v(0, 'left', 'camber') },
        { metric: 'camber', at: -25, value: v(-25, 'right', 'camber'), side: 'right' },
        { metric: 'toe_angle', curve: { at: [-25, 25], values: [v(-25, 'left', 'toe_angle'), v(25, 'left', 'toe_angle')] }, side: 'left' },
        { metric: 'kpi', at: 0, value: v(0, 'left', 'kpi'), weight: 0.01, side: 'both' },
      ],
    };
    let perturbed = symmetricMove(design, 'upper_wishbone_outboard', 'z', 4);
    perturbed = symmetricMove(perturbed, 'trackrod_inboard', 'z', -3);
    perturbed = symmetricMove(perturbed, 'upper_wishbone_inboard_front', 'y', 2);
    const report = fit(perturbed, spec);
    expect(report.status).toBe('converged');
    expect(report.cost.end).toBeLessThan(1e-14);
    expect(report.moves['left.upper_wishbone_outboard.z'].delta).toBeCloseTo(-4, 5);
    expect(report.moves['right.upper_wishbone_outboard.z'].delta).toBeCloseTo(-4, 5);
    expect(report.moves['left.trackrod_inboard.z'].delta).toBeCloseTo(3, 5);
    expect(report.moves['left.upper_wishbone_inboard_front.y'].delta).toBeCloseTo(-2, 5);
    expect(report.moves['right.upper_wishbone_inboard_front.y'].delta).toBeCloseTo(2, 5);
    expect(report.moves['right.upper_wishbone_inboard_front.y'].to).toBeCloseTo(design.corners[1].hardpoints.upper_wishbone_inboard_front[1], 5);
    expect(report.at_bound).toEqual([]);
    // symmetry exactly: the right corner is the mirror of the left, bit for bit
    const [left, right] = report.geometry.corners;
    expect(right.hardpoints).toEqual(mirrorHardpoints(left.hardpoints));
    // the file keeps its layout (left only: the right is still the mirror) and reads back as fitted
    const written = fittedGeometryText(text, report);
    expect(Object.keys((JSON.parse(written) as { hardpoints: object }).hardpoints)).toEqual(['left']);
    const back = parseGeometry(written);
    expect(back.corners[0].hardpoints).toEqual(left.hardpoints);
    expect(back.corners[1].hardpoints).toEqual(right.hardpoints);
  });

  it('an explicit right side is written back on its own, moved mirrored', () => {
    const raw = JSON.parse(JSON.stringify(design.raw)) as { hardpoints: { left: Record<string, unknown>; right?: unknown } };
    raw.hardpoints.right = Object.fromEntries(Object.entries(design.corners[1].hardpoints).map(([n, [x, y, z]]) => [n, { x, y, z }]));
    const src = JSON.stringify(raw);
    const g = parseGeometry(src);
    // reachable by construction: the camber of the axle with that point 3 mm further out
    const wanted = valuesAt(symmetricMove(g, 'upper_wishbone_inboard_front', 'y', 3), [25], ['camber'])(25, 'left', 'camber');
    const report = fit(g, { move: { upper_wishbone_inboard_front: { y: [-20, 20] } }, targets: [{ metric: 'camber', at: 25, value: wanted, side: 'left' }] });
    expect(report.status).toBe('converged');
    const back = parseGeometry(fittedGeometryText(src, report));
    expect(back.corners[1].hardpoints.upper_wishbone_inboard_front[1]).toBe(-back.corners[0].hardpoints.upper_wishbone_inboard_front[1]);
    expect(back.corners[0].hardpoints.upper_wishbone_inboard_front[1] - design.corners[0].hardpoints.upper_wishbone_inboard_front[1]).toBeCloseTo(3, 5);
  });

  it('bad axle target fields are refused with the path named; a corner refuses side', () => {
    const move = 'move: { trackrod_inboard: { z: [-1, 1] } }\n';
    expect(() => parseFitSpec(`${move}targets: [{ metric: camber, at: 0, value: 1, side: middle }]`, design, 'a.yaml')).toThrow(/^a\.yaml: targets\[0\]\.side: expected left, right or both/);
    expect(() => parseFitSpec('move: { left.trackrod_inboard: { z: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]', design, 'a.yaml')).toThrow(/^a\.yaml: move\.left\.trackrod_inboard: no hardpoint "left\.trackrod_inboard" .*moved on both sides/);
    expect(() => parseFitSpec('move: { center.nope: { z: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]', design, 'a.yaml')).toThrow(/^a\.yaml: move\.center\.nope: no hardpoint/);
    const corner = parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));
    expect(() => parseFitSpec(`${move}targets: [{ metric: camber, at: 0, value: 1, side: left }]`, corner, 'c.yaml')).toThrow(/^c\.yaml: targets\[0\]\.side: a corner has one side/);
    expect(parseFitSpec(`${move}targets: [{ metric: camber, at: 0, value: 1, side: right }]`, design, 'a.yaml').targets[0].side).toBe('right');
  });

  it('an axle-level (centre) point moves alone; its gradient matches central differences', () => {
    const g = parseGeometry(readFileSync('examples/suspension/double_wishbone_axle_u_bar.yaml', 'utf8'));
    const name = Object.keys(g.center!)[0];
    const spec = parseFitSpec(`move: { center.${name}: { z: [-5, 5] }, lower_wishbone_outboard: { y: [-5, 5] } }\ntargets: [{ metric: camber, at: 20, value: 0 }]`, g, 'u.yaml');
    const { residuals } = fitResiduals(g, spec);
    const h = 1e-3;
    for (const [key, nm, axis] of [[`center.${name}.z`, `center.${name}`, 'z'], ['lower_wishbone_outboard.y', 'lower_wishbone_outboard', 'y']] as const) {
      const p = valuesAt(symmetricMove(g, nm, axis, h), [20], ['camber']), m = valuesAt(symmetricMove(g, nm, axis, -h), [20], ['camber']);
      residuals.forEach((r, i) => {
        const side = ['left', 'right'][i];
        const fd = (p(20, side, 'camber') - m(20, side, 'camber')) / (2 * h);
        expect(Math.abs(r.gradient[key] - fd)).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd)) + 1e-8);
      });
    }
  });

  it('kinemate fit on the axle example writes a mirrored-layout file that reads back as reported', async () => {
    const out = tmp.file('axle.fitted.json');
    const io = memoryIO();
    // the docs' command (documented-fits.ts: fit-examples.test.ts leaves its run to this file)
    const code = await main([...AXLE_FIT, '--out', out], io);
    expect(io.written.stderr).toBe('');
    const report = JSON.parse(io.written.stdout) as { status: string; moves: Record<string, { to: number }>; targets: { target: string; value: number; residual: number }[] };
    expectDocumentedFit(AXLE_FIT, code, report);
    expect(report.targets[0].target).toBe('targets[0] left camber gain 0…25');
    expect(report.targets[0].value).toBeLessThan(-0.99);
    const written = readFileSync(out, 'utf8');
    expect(Object.keys((JSON.parse(written) as { hardpoints: object }).hardpoints)).toEqual(['left']);
    const back = parseGeometry(written);
    expect(back.corners[1].hardpoints.upper_wishbone_inboard_rear[1]).toBe(report.moves['right.upper_wishbone_inboard_rear.y'].to);
    // the reported camber gain is that of the written file, on both sides
    const v = valuesAt(back, [0, 25], ['camber']);
    expect(v(25, 'right', 'camber') - v(0, 'right', 'camber')).toBeCloseTo(report.targets[1].value, 9);
    // a bad side is refused with the targets file and the path
    const bad = tmp.file('bad.yaml');
    writeFileSync(bad, 'move: { trackrod_inboard: { z: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1, side: 2 }]\n');
    const io2 = memoryIO();
    expect(await main(['fit', AXLE, '--targets', bad], io2)).toBe(1);
    expect(io2.written.stderr).toContain(`${bad}: targets[0].side: expected left, right or both`);
  });
});
