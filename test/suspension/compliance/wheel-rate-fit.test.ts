/**
 * `kc.wheel_rate` as a `fit` target (src/suspension/design/fit.ts, docs/compliance.md "Fit"):
 * the residuals' gradients, over a hardpoint and a link's rate, against central differences of
 * the residuals re-solved with the number moved; the command fits a pickup to a wanted compliant
 * wheel rate, and `kinemate kc --event vertical` on the fitted file has it. The corner: the
 * pushrod double wishbone on two bushings and a compliant pushrod, its coilover at 90 N/mm.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { fitResiduals, parseFitSpec } from '../../../src/suspension/design/fit.ts';
import { main } from '../../../src/cli/main.ts';
import { memoryIO, tempFolder } from '../../cli/helpers.ts';

const rigidText = readFileSync(new URL('../../../examples/suspension/double_wishbone_pushrod.yaml', import.meta.url), 'utf8').replace('spring: { type: coilover }', 'spring: { type: coilover, rate: 90 }');
const FILE = `${rigidText}compliance:\n  bushings:\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1600 }\n    lower_wishbone_inboard_rear: { radial: 4000, axial: 800 }\n  links:\n    pushrod: 20000\n`;
const G = parseGeometry(FILE);

describe('kc.wheel_rate as a fit target', () => {
  it('its residual gradients at design and 20 mm in bump equal central differences of the re-solved residuals', () => {
    const spec = parseFitSpec(`move:
  pushrod_outboard: { z: [-5, 5] }
  compliance.links.pushrod: [-5000, 5000]
targets:
  - { metric: kc.wheel_rate, at: 0, value: 1.25 }
  - { metric: kc.wheel_rate, gain: [0, 20], value: 0 }
`, G, 't.yaml');
    const at = fitResiduals(G, spec);
    expect(at.residuals.map((r) => r.target)).toEqual(['targets[0] kc.wheel_rate at 0', 'targets[1] kc.wheel_rate gain 0…20']);
    // Richardson-extrapolated central differences, (4 D(h) − D(2h)) / 3; over the link's rate the re-settled rate's own
    // noise bounds them (seen ±2e-5, as wheel-rate-gradients.test.ts finds), over the pickup 1e-5
    for (const [key, h, tol] of [['pushrod_outboard.z', 0.05, 1e-5], ['compliance.links.pushrod', 1000, 5e-5]] as const) {
      const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map((d) => fitResiduals(G, spec, { [key]: d }).residuals);
      at.residuals.forEach((r, i) => {
        const fd = (4 * (p1[i].value - m1[i].value) / (2 * h) - (p2[i].value - m2[i].value) / (4 * h)) / 3;
        expect(Math.abs(r.gradient[key] - fd), `${r.target} ${key}: ${r.gradient[key]} vs ${fd}`).toBeLessThan(tol * Math.abs(fd));
        expect(Math.abs(fd)).toBeGreaterThan(1e-9);
      });
    }
  });

  it('kinemate fit moves a pickup to the wanted rate; kinemate kc --event vertical on the fitted file has it', async () => {
    const tmp = tempFolder();
    try {
      const geometry = tmp.file('pushrod_compliant.yaml'), targets = tmp.file('targets.yaml'), out = tmp.file('fitted.yaml');
      writeFileSync(geometry, FILE);
      writeFileSync(targets, 'move:\n  pushrod_outboard: { z: [-15, 15] }\ntargets:\n  - { metric: kc.wheel_rate, at: 0, value: 1.25 }\n');
      const io = memoryIO();
      expect(await main(['fit', geometry, '--targets', targets, '--out', out], io)).toBe(0);
      const report = JSON.parse(io.written.stdout) as { status: string; iterations: number; moves: Record<string, { from: number; delta: number }> };
      expect(report.status).toBe('converged');
      expect(report.moves['pushrod_outboard.z'].from).toBe(240);
      expect(Math.abs(report.moves['pushrod_outboard.z'].delta)).toBeGreaterThan(1);
      const kc = memoryIO();
      expect(await main(['kc', out, '--event', 'vertical', '--range', '0:0:1'], kc)).toBe(0);
      const rate = (JSON.parse(kc.written.stdout) as { steps: { wheel_rate: number }[] }).steps[0].wheel_rate;
      expect(Math.abs(rate - 1.25)).toBeLessThan(1e-8);
    } finally {
      tmp.remove();
    }
  });
});
