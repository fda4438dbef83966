/**
 * kinemate fit on a compliant file (src/suspension/design/fit.ts with compliance/fit-rates.ts):
 * stiffnesses as moved numbers beside the hardpoints, kc.* coefficients as targets. The
 * residuals' gradients against central differences of the residuals re-solved with the
 * numbers moved; the example fit converges and its written file, read again, meets the target.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { fit, fitResiduals, fittedGeometryText, parseFitSpec } from '../../../src/suspension/design/fit.ts';
import { kcCoefficients } from '../../../src/suspension/compliance/coefficients.ts';
import { REPO } from '../../cli/helpers.ts';
import { example, settleUnder, stateAt } from './helpers.ts';

const TEXT = example('double_wishbone_compliant.yaml');
const DW = parseGeometry(TEXT);
const spec = (text: string) => parseFitSpec(text, DW, 't.yaml');

describe('fit on a compliant file', () => {
  it('every residual gradient, over stiffnesses and (for a state at rest) hardpoints, against central differences', () => {
    const s = spec(`move:
  compliance.bushings.lower_wishbone_inboard_rear.radial: [-1000, 1000]
  compliance.links.trackrod: [-1000, 1000]
targets:
  - { metric: kc.toe_per_fy, at: 0, value: 0 }
  - { metric: kc.recession_per_fx, at: 0, value: 0 }
`);
    const at = fitResiduals(DW, s);
    for (const key of at.keys) {
      const h = 5;
      const [p, m] = [fitResiduals(DW, s, { [key]: h }), fitResiduals(DW, s, { [key]: -h })];
      at.residuals.forEach((r, i) => {
        const fd = (p.residuals[i].value - m.residuals[i].value) / (2 * h);
        expect(Math.abs(r.gradient[key] - fd), `${r.target} ${key}`).toBeLessThan(1e-5 * Math.abs(fd) + 1e-12);
        expect(Math.abs(fd)).toBeGreaterThan(1e-9);
      });
    }
    // a state metric at rest: its hardpoint gradient is the rigid kinematics' (the stiffness's is 0)
    const k = spec(`move:
  trackrod_inboard: { z: [-5, 5] }
  compliance.links.trackrod: [-1000, 1000]
targets:
  - { metric: toe_angle, at: 20, value: 0 }
`);
    const r = fitResiduals(DW, k).residuals[0];
    const toe = (d: number) => { const t = TEXT.replace('trackrod_inboard: { x: 50, y: 200, z: 250 }', `trackrod_inboard: { x: 50, y: 200, z: ${250 + d} }`); return settleUnder(stateAt(t, 20), [0, 0, 0]).toe_angle as number; };
    const fd = (toe(1e-3) - toe(-1e-3)) / 2e-3;
    expect(Math.abs(r.gradient['trackrod_inboard.z'] - fd)).toBeLessThan(1e-6 * Math.abs(fd));
    expect(Math.abs(r.gradient['compliance.links.trackrod'])).toBeLessThan(1e-15);
  });

  it('the example converges, and its fitted file read again has the wanted toe per kN', () => {
    const path = join(REPO, 'examples/sensitivity/fit_kc_toe.yaml');
    const report = fit(DW, parseFitSpec(readFileSync(path, 'utf8'), DW, path));
    expect(report.status).toBe('converged');
    const fitted = stateAt(fittedGeometryText(TEXT, report));
    settleUnder(fitted, [0, 0, 0]);
    const c = kcCoefficients(fitted.state)[0]!;
    expect(c.toe_per_fy).toBeCloseTo(0.02, 6);
    expect(c.lateral_stiffness).toBeGreaterThanOrEqual(2500);
    expect(report.moves['compliance.bushings.lower_wishbone_inboard_rear.radial'].from).toBe(4000);
  });

  it('hardpoints for the coefficients at design: the example converges and kinemate kc on its fitted file has the wanted stiffness', () => {
    const path = join(REPO, 'examples/sensitivity/fit_kc_lateral_stiffness.yaml');
    const report = fit(DW, parseFitSpec(readFileSync(path, 'utf8'), DW, path));
    expect(report.status).toBe('converged');
    expect(Math.abs(report.moves['upper_wishbone_outboard.z'].delta)).toBeGreaterThan(1);
    const fitted = stateAt(fittedGeometryText(TEXT, report));
    settleUnder(fitted, [0, 0, 0]);
    const c = kcCoefficients(fitted.state)[0]!;
    expect(c.lateral_stiffness).toBeCloseTo(2900, 5);
    expect(c.toe_per_fy).toBeLessThanOrEqual(0.044 + 1e-9);
  });

  it('refuses an unknown stiffness and a box below zero, naming the path; takes hardpoint moves for a coefficient away from design', () => {
    expect(() => spec('move:\n  compliance.links.trackrd: [-1, 1]\ntargets:\n  - { metric: kc.toe_per_fy, at: 0, value: 0 }\n')).toThrow(/t\.yaml: move\.compliance\.links\.trackrd: no stiffness "compliance\.links\.trackrd"/);
    expect(() => spec('move:\n  compliance.links.trackrod: [-30000, 1]\ntargets:\n  - { metric: kc.toe_per_fy, at: 0, value: 0 }\n')).toThrow(/move\.compliance\.links\.trackrod: the box reaches 0/);
    // away from design too (the coefficients' hardpoint gradients under the springs' preload: compliance/coefficient-rates.ts)
    expect(() => spec('move:\n  trackrod_inboard: { z: [-1, 1] }\ntargets:\n  - { metric: kc.toe_per_fy, at: 10, value: 0 }\n')).not.toThrow();
    expect(() => spec('move:\n  trackrod_inboard: { z: [-1, 1] }\ntargets:\n  - { metric: kc.toe_per_fy, at: 0, value: 0 }\n')).not.toThrow();
  });
});
