/**
 * Gradients of set-up (shimmed) corners over the file's own points: `kinemate sensitivity`
 * on the camber-shimmed double wishbone, every metric it prints and every coordinate,
 * against central differences of the file re-read (its setup re-solved) and re-swept; and
 * the setup solve's own derivative (setup-sensitivity.ts) against re-read files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sweepFromShortcut, validateGeometry, type Geometry } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { inFileCoordinates, setupRows } from '../../../src/suspension/gradients/setup';
import { SensitivityModel, sensitivitySweepBySide, type SideMetrics } from '../../../src/suspension/gradients/model';
import { main } from '../../../src/cli/main';
import { memoryIO, tempFolder } from '../../cli/helpers';
import { axleFromCornerText, gradientError } from '../moves';

type Doc = { hardpoints: Record<string, { x: number; y: number; z: number }>; config: Record<string, any>; actuation: Record<string, string> };
type Printed = { value: number; gradient: Record<string, number> } | null;

const tmp = tempFolder();
afterAll(() => tmp.remove());
const raw = (name: string) => parse(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')) as Doc;
const AXES = ['x', 'y', 'z'] as const;
const H = 1e-3;
const BUMP = 15;

/** The file with one authored coordinate (`<hardpoint>.<axis>`) moved by d. */
function moved(doc: Doc, key: string, d: number): Doc {
  const [name, axis] = key.split('.') as [string, 'x' | 'y' | 'z'];
  const out = structuredClone(doc);
  out.hardpoints[name][axis] += d;
  return out;
}

/** What `kinemate sweep --bump B:B:1` prints for the file, and its mirrored axle's roll centres (a corner's roll_center_*). */
function sweptMetrics(doc: Doc): Record<string, number | null> {
  const solveAt = (g: Geometry) => runSweep(new SuspensionModel(suspensionAssembly(g)), sweepFromShortcut('bump', `${BUMP}:${BUMP}:1`, g)).steps[0];
  const corner = solveAt(validateGeometry(structuredClone(doc)));
  const axle = solveAt(axleFromCornerText(JSON.stringify(doc)));
  expect(corner.status).toBe('solved');
  const rc = (axle.metrics as unknown as { axle: Record<string, number | null> }).axle;
  return { ...(corner.metrics as Record<string, number | null>), roll_center_z: rc.roll_center_z, roll_center_kinematic_z: rc.roll_center_kinematic_z };
}

/** `kinemate sensitivity FILE --at bump=B` on the file, as printed. */
async function printed(doc: Doc, name: string): Promise<Record<string, Printed>> {
  const file = tmp.file(name);
  writeFileSync(file, JSON.stringify(doc));
  const io = memoryIO();
  expect(await main(['sensitivity', file, '--at', `bump=${BUMP}`], io)).toBe(0);
  return (JSON.parse(io.written.stdout) as { sweeps: Record<string, { steps: { metrics: Record<string, Printed> }[] }> }).sweeps[`bump=${BUMP}`].steps[0].metrics;
}

describe('gradients over a shimmed file\'s own points (issue 27 item 2)', () => {
  it('camber shim at 5 mm and 1 mm (designed at 3): every printed metric, every coordinate, against the file re-read and re-swept', async () => {
    for (const thickness of [5, 1]) {
      const doc = raw('double_wishbone_camber_shim');
      doc.config.camber_shim.setup_thickness = thickness;
      const metrics = await printed(doc, `shim-${thickness}.json`);
      const keys = Object.keys(doc.hardpoints).flatMap((n) => AXES.map((a) => `${n}.${a}`));
      const at = sweptMetrics(doc);
      const names = Object.keys(metrics);
      // what the file defines has a gradient; what it does not (no damper, no rocker, no anti-geometry) is null in both
      for (const m of names) expect(metrics[m] === null, `${m} null`).toBe(at[m] === null || at[m] === undefined);
      const live = names.filter((m) => metrics[m] !== null);
      expect(live.length).toBeGreaterThanOrEqual(26);
      for (const m of live) expect(metrics[m]!.value, m).toBeCloseTo(at[m]!, 6);
      let checked = 0, worst = 0;
      for (const key of keys) {
        const plus = sweptMetrics(moved(doc, key, H)), minus = sweptMetrics(moved(doc, key, -H));
        for (const m of live) {
          const fd = ((plus[m] as number) - (minus[m] as number)) / (2 * H);
          const exact = metrics[m]!.gradient[key];
          const err = gradientError(exact, fd, metrics[m]!.gradient, 1e-6);
          if (err > 2e-4) throw new Error(`thickness ${thickness}: ${m} ${key}: printed ${exact}, differences ${fd}`);
          worst = Math.max(worst, err);
          checked++;
        }
      }
      expect(checked).toBe(live.length * keys.length);
      expect(worst).toBeLessThan(2e-4);
    }
  });

  it('an axle with its own points and a shim per side (5 mm left, 1 mm right): each side through its own setup, against the file re-read', () => {
    const shim = raw('double_wishbone_camber_shim').config.camber_shim;
    const d = parse(readFileSync('examples/suspension/double_wishbone_axle_steering.yaml', 'utf8')) as { hardpoints: Record<string, Doc['hardpoints']>; axle_config: Record<string, unknown> };
    const mirror = (p: { x: number; y: number; z: number }, dx = 0) => ({ x: p.x + dx, y: -p.y, z: p.z });
    // the right side not a mirror (x moved 1 mm), so the two setups differ
    d.hardpoints.right = Object.fromEntries(Object.entries(d.hardpoints.left).map(([k, p]) => [k, mirror(p, 1)]));
    d.axle_config.left_setup = { camber_shim: shim };
    d.axle_config.right_setup = { camber_shim: { ...shim, shim_face_point_a: mirror(shim.shim_face_point_a), shim_face_point_b: mirror(shim.shim_face_point_b), shim_face_normal: mirror(shim.shim_face_normal), setup_thickness: 1 } };
    const g = validateGeometry(structuredClone(d));
    const spec = sweepFromShortcut('bump', '10:10:1', g);
    const exact = inFileCoordinates(g, sensitivitySweepBySide(new SensitivityModel(g), spec, ['camber', 'toe_angle', 'kpi', 'roll_center_kinematic_z'])).steps[0].metrics as SideMetrics;
    const swept = (doc: typeof d) => runSweep(new SuspensionModel(suspensionAssembly(validateGeometry(structuredClone(doc)))), spec, { noSteering: true }).steps[0].metrics as unknown as Record<string, Record<string, number>>;
    let worst = 0, checked = 0;
    for (const side of ['left', 'right']) for (const name of Object.keys(d.hardpoints[side])) for (const axis of AXES) {
      const key = `${side}.${name}.${axis}`;
      const plus = structuredClone(d), minus = structuredClone(d);
      plus.hardpoints[side][name][axis] += H; minus.hardpoints[side][name][axis] -= H;
      const vp = swept(plus), vm = swept(minus);
      for (const [group, ms] of Object.entries(exact)) for (const [m, e] of Object.entries(ms)) {
        if (!e) continue;
        const fd = (vp[group][m] - vm[group][m]) / (2 * H);
        const err = gradientError(e.gradient[key], fd, e.gradient, 1e-6);
        if (err > 2e-4) throw new Error(`${group}.${m} ${key}: exact ${e.gradient[key]}, differences ${fd}`);
        worst = Math.max(worst, err);
        checked++;
      }
    }
    // camber, toe, kpi per side and the axle's kinematic roll centre, over both sides' 30 coordinates
    expect(checked).toBe(7 * 60);
    expect(worst).toBeLessThan(2e-4);
  });

  it('the setup solve\'s derivative ∂s/∂a against re-read files: camber, track-rod and pushrod shims, pushrod on the upright or the lower wishbone', () => {
    const shim = raw('double_wishbone_camber_shim').config.camber_shim;
    for (const mount of ['upright', 'lower_wishbone']) {
      const doc = raw('double_wishbone_pushrod');
      Object.assign(doc.config, { camber_shim: shim, length_shims: { pushrod: 2, trackrod: 0.5 } });
      doc.actuation.mount = mount;
      const g = validateGeometry(structuredClone(doc));
      const rows = setupRows(g, g.corners[0]);
      // the upright's points, the ball joint and the rocker's points move with the setup
      expect(rows.has('upper_wishbone_outboard.y') && rows.has('axle_outboard.z') && rows.has('pushrod_inboard.x')).toBe(true);
      const h = 1e-4;
      let worst = 0;
      for (const key of Object.keys(doc.hardpoints).flatMap((n) => AXES.map((a) => `${n}.${a}`))) {
        const sp = validateGeometry(moved(doc, key, h)).corners[0].hardpoints, sm = validateGeometry(moved(doc, key, -h)).corners[0].hardpoints;
        for (const name of Object.keys(sp)) AXES.forEach((a, i) => {
          const out = `${name}.${a}`;
          const exact = rows.has(out) ? (rows.get(out)!.get(key) ?? 0) : out === key ? 1 : 0;
          worst = Math.max(worst, Math.abs((sp[name][i] - sm[name][i]) / (2 * h) - exact));
        });
      }
      expect(worst, mount).toBeLessThan(1e-7);
    }
  });
});
