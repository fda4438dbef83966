/**
 * `kinemate fit` on a shimmed corner (the reference format's camber-shim setup): the fit moves
 * the file's own (authored) points, the setup is solved again from them, and the written file
 * reads back as the fitted corner. Its set-up points are never moved by the fit directly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, parseText, type Geometry } from '../../../src/suspension/files';
import { fit, fitResiduals, fittedGeometryText, type FitSpec } from '../../../src/suspension/design/fit';
import { sensitivitySweepBySide, SensitivityModel, bumpStates } from '../../../src/suspension/gradients/model';

const FILE = 'examples/suspension/double_wishbone_camber_shim.yaml';
const text = readFileSync(FILE, 'utf8');
const shimmed = parseGeometry(text, FILE);
const raw = parseText(text, FILE) as { hardpoints: Record<string, { x: number; y: number; z: number }> };

/** The file with one authored coordinate moved by d, read again (its setup solved again). */
function movedFile(name: string, axis: 'x' | 'y' | 'z', d: number): Geometry {
  const c = structuredClone(raw);
  c.hardpoints[name][axis] += d;
  return parseGeometry(JSON.stringify(c), FILE);
}

const valueAt = (g: Geometry, travel: number, metric: string) =>
  sensitivitySweepBySide(new SensitivityModel(g), bumpStates([travel], g), [metric]).steps[0].metrics![g.corners[0].side][metric]!.value;

const spec: FitSpec = {
  move: { upper_wishbone_outboard: { y: [-10, 10] }, trackrod_outboard: { z: [-20, 20] }, upper_wishbone_inboard_front: { z: [-20, 20] } },
  targets: [{ metric: 'camber', gain: [0, 25], value: -0.8 }, { metric: 'toe_angle', at: 20, value: 0.05 }],
};

describe('fit on a camber-shimmed corner', () => {
  it('moves the authored points: its gradient matches central differences of the file moved and read again', () => {
    expect(shimmed.corners[0].authored_hardpoints).toBeDefined();
    const { keys, residuals } = fitResiduals(shimmed, spec);
    const h = 1e-3;
    for (const key of keys) {
      const [name, axis] = key.split('.') as [string, 'x' | 'y' | 'z'];
      const plus = movedFile(name, axis, h), minus = movedFile(name, axis, -h);
      const gain = (g: Geometry) => valueAt(g, 25, 'camber') - valueAt(g, 0, 'camber');
      const fds = [(gain(plus) - gain(minus)) / (2 * h), (valueAt(plus, 20, 'toe_angle') - valueAt(minus, 20, 'toe_angle')) / (2 * h)];
      residuals.forEach((r, i) => {
        expect(Math.abs(r.gradient[key] - fds[i]), `${r.target} ${key}: ${r.gradient[key]} against ${fds[i]}`).toBeLessThan(1e-5 * Math.max(Math.abs(fds[i]), 1e-3));
      });
    }
  });

  it('reports and writes authored values; the written file reads back as the fitted, set-up corner', () => {
    const report = fit(shimmed, spec);
    expect(report.cost.end).toBeLessThan(report.cost.start);
    for (const [key, m] of Object.entries(report.moves)) {
      const [name, axis] = key.split('.') as [string, 'x' | 'y' | 'z'];
      expect(m.from, key).toBe(raw.hardpoints[name][axis]);
    }
    const written = parseText(fittedGeometryText(text, report, FILE), FILE) as typeof raw;
    // every authored coordinate the fit does not move is the file's own
    for (const [name, p] of Object.entries(raw.hardpoints)) {
      for (const axis of ['x', 'y', 'z'] as const) {
        const key = `${name}.${axis}`;
        expect(written.hardpoints[name][axis], key).toBe(report.moves[key] ? report.moves[key].to : p[axis]);
      }
    }
    // read back (the setup solved once, from the written authored points): the fitted corner's set-up points and targets
    const back = parseGeometry(JSON.stringify(written), FILE);
    for (const [name, p] of Object.entries(report.geometry.corners[0].hardpoints)) {
      p.forEach((v, i) => expect(Math.abs(back.corners[0].hardpoints[name][i] - v), `${name}[${i}]`).toBeLessThan(1e-9));
    }
    const gain = valueAt(back, 25, 'camber') - valueAt(back, 0, 'camber');
    expect(Math.abs(gain - report.targets[0].value)).toBeLessThan(1e-9);
  });
});
