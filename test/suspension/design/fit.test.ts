import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files';
import { sensitivityAt } from '../../../src/suspension/gradients/model';
import { fit, fittedGeometryText, parseFitSpec, type FitSpec } from '../../../src/suspension/design/fit';

const text = readFileSync('examples/suspension/double_wishbone.yaml', 'utf8');
const design = parseGeometry(text);

describe('fit: bounded Levenberg–Marquardt on exact gradients', () => {
  it('a perturbed design is fitted back to the known one from its target values', () => {
    const at = (travel: number) => sensitivityAt(design, travel, ['camber', 'toe_angle', 'kpi']);
    const m0 = at(0), m25 = at(25), mm25 = at(-25);
    const spec: FitSpec = {
      move: { upper_wishbone_outboard: { z: [-10, 10] }, trackrod_inboard: { z: [-10, 10] }, upper_wishbone_inboard_front: { y: [-10, 10] } },
      targets: [
        { metric: 'camber', gain: [0, 25], value: m25.camber!.value - m0.camber!.value },
        { metric: 'camber', at: -25, value: mm25.camber!.value },
        { metric: 'toe_angle', curve: { at: [-25, 25], values: [mm25.toe_angle!.value, m25.toe_angle!.value] } },
        { metric: 'kpi', at: 0, value: m0.kpi!.value, weight: 0.01 },
      ],
    };
    const perturbed = structuredClone(design);
    const hp = perturbed.corners[0].hardpoints;
    hp.upper_wishbone_outboard[2] += 4; hp.trackrod_inboard[2] -= 3; hp.upper_wishbone_inboard_front[1] += 2;
    const report = fit(perturbed, spec);
    expect(report.status).toBe('converged');
    expect(report.cost.end).toBeLessThan(1e-14);
    expect(report.moves['upper_wishbone_outboard.z'].delta).toBeCloseTo(-4, 5);
    expect(report.moves['trackrod_inboard.z'].delta).toBeCloseTo(3, 5);
    expect(report.moves['upper_wishbone_inboard_front.y'].delta).toBeCloseTo(-2, 5);
    expect(report.at_bound).toEqual([]);
    expect(report.iterations).toBeLessThan(20);
    // the written file reads back with the fitted points
    const back = parseGeometry(fittedGeometryText(text, report));
    expect(back.corners[0].hardpoints.upper_wishbone_outboard[2]).toBeCloseTo(design.corners[0].hardpoints.upper_wishbone_outboard[2], 5);
  });
  it('an unreachable target stops at the bounds and says which', () => {
    const spec: FitSpec = { move: { upper_wishbone_outboard: { z: [-3, 3] } }, targets: [{ metric: 'camber', gain: [0, 25], value: -20 }] };
    const report = fit(design, spec);
    expect(report.status).toBe('at_bounds');
    expect(report.at_bound).toHaveLength(1);
    expect(report.at_bound[0]).toMatch(/^upper_wishbone_outboard\.z \((low|high)\)$/);
    expect(Math.abs(report.targets[0].residual)).toBeGreaterThan(1);
  });
  it('bad targets files are refused with the path named', () => {
    expect(() => parseFitSpec('move: { nope: { z: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]', design, 't.yaml')).toThrow(/^t\.yaml: move\.nope: no hardpoint "nope"/);
    expect(() => parseFitSpec('move: { trackrod_inboard: { z: [1, 2] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]', design, 't.yaml')).toThrow(/t\.yaml: move\.trackrod_inboard\.z: expected \[low, high\]/);
    expect(() => parseFitSpec('move: { trackrod_inboard: { z: [-1, 2] } }\ntargets: [{ metric: bogus, at: 0, value: 1 }]', design, 't.yaml')).toThrow(/t\.yaml: targets\[0\]\.metric/);
    expect(() => parseFitSpec('move: { trackrod_inboard: { z: [-1, 2] } }\ntargets: [{ metric: camber, value: 1 }]', design, 't.yaml')).toThrow(/targets\[0\]: give exactly one of at, gain, slope, curve/);
  });
});
