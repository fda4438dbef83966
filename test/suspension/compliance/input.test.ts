/**
 * `compliance:` read strictly (issue 28): every bad entry is one line naming its path — an
 * unknown pickup or link (with the nearest name), a pickup no pivot uses, a link carrying
 * another pickup, a negative, non-finite or all-zero stiffness, a zero axis, a typo key —
 * and what is read is what the template builds (sides, mirrored axes, overrides). Through
 * the real CLI: a bad file exits 1 with one line; `kc` prints the contract's JSON shape.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseGeometry, type SuspensionFileError } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { example } from './helpers.ts';
import { parseLoadCase } from '../../../src/suspension/loads/loads.ts';
import { REPO, runMain, tempFolder } from '../../cli/helpers.ts';

const DW = example('double_wishbone.yaml');
const ML_AXLE = example('multi_link_axle.yaml');

function problemsOf(text: string): string[] {
  try { parseGeometry(text, 'g.yaml'); } catch (error) { return (error as SuspensionFileError).problems.map((p) => `${p.path}: ${p.message}`); }
  return [];
}
const bushing = (line: string) => `${DW}compliance:\n  bushings:\n    ${line}\n`;

describe('compliance: bad input, one line each with its path', () => {
  it.each([
    [bushing('lower_wishbone_inboard_frnt: { radial: 8000, axial: 1500 }'), 'compliance.bushings.lower_wishbone_inboard_frnt: no pickup "lower_wishbone_inboard_frnt" on a double_wishbone (did you mean lower_wishbone_inboard_front?)'],
    [bushing('trackrod_inboard: { radial: 8000, axial: 1500 }'), 'compliance.bushings.trackrod_inboard: no pivot uses this pickup (bushings go at lower_wishbone_inboard_front, lower_wishbone_inboard_rear, upper_wishbone_inboard_front or upper_wishbone_inboard_rear)'],
    [bushing('lower_wishbone_inboard_front: { radial: -8000, axial: 1500 }'), 'compliance.bushings.lower_wishbone_inboard_front.radial: must be ≥ 0 (got -8000)'],
    [bushing('lower_wishbone_inboard_front: { radial: .inf, axial: 1500 }'), 'compliance.bushings.lower_wishbone_inboard_front.radial: expected a finite number, got Infinity'],
    [bushing('lower_wishbone_inboard_front: { radial: 0, axial: 0 }'), 'compliance.bushings.lower_wishbone_inboard_front: zero stiffness along every direction: a bushing must carry something'],
    [bushing('lower_wishbone_inboard_front: { radial: 8000, axial: 1500, axis: [0, 0, 0] }'), 'compliance.bushings.lower_wishbone_inboard_front.axis: an axis of zero length'],
    [bushing('lower_wishbone_inboard_front: { radial: 8000, axial: 1500, axis: upper_wishbone_outbord }'), 'compliance.bushings.lower_wishbone_inboard_front.axis: no hardpoint "upper_wishbone_outbord" (did you mean upper_wishbone_outboard?)'],
    [bushing('lower_wishbone_inboard_front: { radial: 8000, axail: 1500 }'), 'compliance.bushings.lower_wishbone_inboard_front.axail: unknown field (did you mean axial?) (expected radial, axial, torsional, conical, axis or damping)'],
    [`${DW}compliance:\n  links:\n    trackrd: 4000\n`, 'compliance.links.trackrd: no link "trackrd" on this double_wishbone (did you mean trackrod?)'],
    [`${DW}compliance:\n  links:\n    trackrod: 0\n`, 'compliance.links.trackrod: must be > 0 N/mm (got 0); leave the link out to keep it rigid'],
    [`${DW}compliance:\n  links:\n    left.trackrod: 4000\n`, 'compliance.links.left.trackrod: a corner file has one side: write "trackrod" without "left."'],
    [`${ML_AXLE}compliance:\n  links:\n    lower_rear_link: 4000\n`, 'compliance.links.lower_rear_link: the lower_rear_link carries strut_bottom (the spring\'s lower end), so it is not a two-force link and cannot be a spring'],
    [`${DW}complaince:\n  links: {}\n`, 'complaince: unknown section (did you mean compliance?): refused rather than ignored'],
  ])('%#', (text, expected) => {
    expect(problemsOf(text)).toEqual([expected]);
  });
});

describe('loads files: where the load acts', () => {
  it('at: wheel_center or contact_patch (the default); anything else refused with its path', () => {
    expect(parseLoadCase('each: { force: [3000, 0, 0], at: wheel_center }', ['left']).each.at).toBe('wheel_center');
    expect(parseLoadCase('left: { force: [0, 3000, 0] }', ['left']).left.at).toBeUndefined();
    expect(() => parseLoadCase('left: { force: [0, 1, 0], at: hub }', ['left'], 'l.yaml')).toThrow('l.yaml: left.at: expected contact_patch or wheel_center, got "hub"');
  });
});

describe('compliance: what the template builds', () => {
  it('a bushed wishbone pickup becomes a bushing along the pivot axis, the other a ball; a compliant link a spring of its design length', () => {
    const doc = suspensionAssembly(parseGeometry(bushing('lower_wishbone_inboard_front: { radial: 8000, axial: 1500, conical: 20 }') + '  links:\n    trackrod: 40000\n'));
    expect(doc.mates.lower_hinge).toBeUndefined();
    expect(doc.mates.upper_hinge).toBeDefined();
    expect(doc.mates.lower_wishbone_inboard_rear_ball).toEqual({ type: 'ball', a: 'chassis.lower_wishbone_inboard_rear', b: 'lower_wishbone.lower_wishbone_inboard_rear' });
    expect(doc.forces!.lower_wishbone_inboard_front_bushing).toMatchObject({ type: 'bushing', stiffness: [1500, 8000, 8000], rotational_stiffness: [0, 20, 20] });
    // the frame's x points from the front pickup to the rear one: (-500, 50, 0) normalised
    const q = doc.parts.chassis.frames!.lower_wishbone_inboard_front_bushing.rotation;
    const x = [q[0] ** 2 + q[1] ** 2 - q[2] ** 2 - q[3] ** 2, 2 * (q[1] * q[2] + q[0] * q[3]), 2 * (q[1] * q[3] - q[0] * q[2])];
    const l = Math.hypot(500, 50);
    expect(x[0]).toBeCloseTo(-500 / l, 12); expect(x[1]).toBeCloseTo(50 / l, 12); expect(x[2]).toBeCloseTo(0, 12);
    expect(doc.mates.trackrod).toBeUndefined();
    expect(doc.forces!.trackrod).toMatchObject({ type: 'spring', stiffness: 40000, length: Math.hypot(100, 600, 25) });
    // the hinge angle hold went with the hinge; the layout default falls back
    const holds = (doc.suspension as { corners: { holds: Record<string, unknown> }[] }).corners[0].holds;
    expect(holds.lower_wishbone_angle).toBeUndefined();
    expect(holds.default).toBe('upper_wishbone_angle');
  });

  it('on an axle a key without a side sets both (a vector axis mirrored), left./right. one side, whatever the order', () => {
    const g = parseGeometry(`${ML_AXLE}compliance:\n  links:\n    left.trackrod: 7000\n    trackrod: 8000\n`);
    expect(g.compliance!.corners.map((c) => c.links.trackrod)).toEqual([7000, 8000]);
    const dw = parseGeometry(`${example('double_wishbone_axle.yaml')}compliance:\n  bushings:\n    lower_wishbone_inboard_front: { radial: 8000, axial: 1500, axis: [1, 2, 3] }\n`);
    expect(dw.compliance!.corners.map((c) => (c.bushings.lower_wishbone_inboard_front.axis as { vector: number[] }).vector)).toEqual([[1, 2, 3], [1, -2, 3]]);
  });
});

describe('kinemate kc through the CLI', () => {
  it('prints the contract JSON for the compliant corner; plot --kc draws the curve; report has a K&C page; a bad file exits 1 with one line naming the path', async () => {
    const run = await runMain(['kc', `${REPO}examples/suspension/double_wishbone_compliant.yaml`, '--event', 'lateral', '--range', '-2000:2000:3']);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.event).toBe('lateral');
    expect(out.steps.map((s: { load: number }) => s.load)).toEqual([-2000, 0, 2000]);
    const step = out.steps[2];
    expect(Object.keys(step)).toEqual(['status', 'load', 'metrics', 'wheel_center_displacement', 'wheel_rotation', 'bushings', 'loads']);
    expect(Object.keys(step.bushings).sort()).toEqual(['lower_wishbone_inboard_front', 'lower_wishbone_inboard_rear', 'upper_wishbone_inboard_front', 'upper_wishbone_inboard_rear']);
    expect(Object.keys(step.bushings.lower_wishbone_inboard_front)).toEqual(expect.arrayContaining(['force', 'moment', 'translation', 'rotation']));
    expect(typeof step.loads.links.trackrod).toBe('number');
    // the middle step carries no load: the rigid figures, nothing deflected
    expect(Math.hypot(...out.steps[1].wheel_center_displacement)).toBeLessThan(1e-9);
    expect(Object.keys(out.summary)).toEqual(['toe_per_fy', 'camber_per_fy', 'lateral_stiffness', 'toe_per_fx', 'camber_per_fx', 'recession_per_fx', 'longitudinal_stiffness', 'toe_per_mz', 'camber_per_mz']);
    const folder = tempFolder();
    try {
      const file = folder.file('bad.yaml');
      writeFileSync(file, bushing('lower_wishbone_inboard_front: { radial: 8000, axial: -1 }'));
      const bad = await runMain(['kc', file, '--event', 'lateral']);
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim().split('\n')).toHaveLength(1);
      expect(bad.stderr).toContain('compliance.bushings.lower_wishbone_inboard_front.axial: must be ≥ 0 (got -1)');
      // plot --kc: the K&C curve against the event's load
      const svg = folder.file('kc.svg');
      const plot = await runMain(['plot', `${REPO}examples/suspension/double_wishbone_compliant.yaml`, '--kc', 'braking', '--range', '-2000:0:3', '--metric', 'toe_angle', '--out', svg]);
      expect(plot.code).toBe(0);
      expect(readFileSync(svg, 'utf8')).toContain('Fx at the contact patch (N)');
      // report: a K&C page with the same coefficients kc prints
      const html = folder.file('r.html');
      expect((await runMain(['report', `${REPO}examples/suspension/double_wishbone_compliant.yaml`, '--bump', '-10:10:3', '--out', html])).code).toBe(0);
      expect(readFileSync(html, 'utf8')).toContain(`<tr data-coefficient="toe_per_fy"><td>toe_per_fy</td><td class="muted">deg/kN</td><td><span data-value="${out.summary.toe_per_fy}">`);
      const rigid = await runMain(['kc', `${REPO}examples/suspension/double_wishbone.yaml`, '--event', 'lateral']);
      expect(rigid.code).toBe(1);
      expect(rigid.stderr).toMatch(/has no compliance: section/);
    } finally {
      folder.remove();
    }
  });
});
