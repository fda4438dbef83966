/**
 * Writes the double-wishbone corner with CAD geometry on six parts (docs/picking.md):
 * upright, lower and upper wishbones, tyre, damper body and a wheelhouse liner, each as a
 * STEP file (an AP214 B-rep of boxes and cylinders, written here) and as a binary STL,
 * and two suspension geometry files using them (examples/cad/). Nothing is downloaded.
 *
 * The liner is placed from the kinematics: over a bump × steer grid (−50…+50 mm wheel
 * travel, −30…+30 mm rack), the tyre's reach along a direction up, forward and inboard is
 * largest at full bump and full lock, and the liner's face is put there, 1 mm into the
 * tyre's reach (the STL tyre is a polygon inside the round one): the tyre touches it at
 * full bump and lock and clears it everywhere else.
 *
 *   npx tsx scripts/make-cad-example.ts     (then check: npx vitest run test/examples/cad-example.test.ts)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseGeometry, parseSweep, runSweep, suspensionAssembly, SuspensionModel } from '../src/index.ts';
import { add, barBox, dot, rodCylinder, scale, stlBytes, sub, unit, type Solid, type V3 } from './cad/solids.ts';
import { stepText } from './cad/step.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = `${ROOT}examples/cad/`;
const SOURCE = `${ROOT}examples/suspension/double_wishbone_dynamics.yaml`;

const text = readFileSync(SOURCE, 'utf8');
const geometry = parseGeometry(text, SOURCE);
const hp = geometry.corners[0].hardpoints as Record<string, V3>;
const tyreRadius = 13 * 25.4 / 2 + 0.55 * 270; // 313.6 mm (config.wheel.tire)
const tyreWidth = 270;

// ---- the parts at design, in chassis coordinates (every part is at the identity pose at design) ----
const wheelCentre = hp.axle_outboard;
const spin = unit(sub(hp.axle_outboard, hp.axle_inboard));
// a tube: the rim's 13 in barrel is free inside it (the lower ball joint sits there)
const tyre = { ...rodCylinder(add(wheelCentre, scale(spin, -tyreWidth / 2)), add(wheelCentre, scale(spin, tyreWidth / 2)), tyreRadius), inner: (13 * 25.4) / 2 };
const upright: Solid[] = [
  barBox(hp.lower_wishbone_outboard, hp.upper_wishbone_outboard, 60, 40, [1, 0, 0]),
  rodCylinder(hp.axle_inboard, hp.axle_outboard, 25), // spindle
  barBox(hp.trackrod_outboard, add(hp.trackrod_outboard, [-120, 60, 20]), 30, 20), // steering arm
];
const wishbone = (w: 'lower' | 'upper'): Solid[] => [
  rodCylinder(hp[`${w}_wishbone_inboard_front`], hp[`${w}_wishbone_outboard`], 12),
  rodCylinder(hp[`${w}_wishbone_inboard_rear`], hp[`${w}_wishbone_outboard`], 12),
];
// the damper body: the upper 220 mm of the strut below its top mount (the suspension file's
// `damper` body hangs from the chassis end and turns to point at the other end)
const strutAxis = unit(sub(hp.strut_top, hp.strut_bottom));
const damper: Solid[] = [rodCylinder(add(hp.strut_top, scale(strutAxis, -250)), add(hp.strut_top, scale(strutAxis, -30)), 25)];

// ---- the tyre's reach over the bump × steer grid ----
const BUMP = [-50, 50], RACK = [-30, 30], N = 11;
function tyreStates(): { bump: number; rack: number; centre: V3; spin: V3 }[] {
  const sm = new SuspensionModel(suspensionAssembly(geometry));
  const out: { bump: number; rack: number; centre: V3; spin: V3 }[] = [];
  for (let j = 0; j < N; j++) {
    const rack = RACK[0] + ((RACK[1] - RACK[0]) * j) / (N - 1);
    const spec = parseSweep(`version: 1\nsteps: ${N}\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, mode: relative, start: ${BUMP[0]}, stop: ${BUMP[1]} }\n  - { type: actuator_position, actuator: rack, direction: { axis: y }, mode: relative, start: ${rack}, stop: ${rack} }\n`);
    runSweep(sm, spec).steps.forEach((s, i) => {
      if (s.status !== 'solved' || !s.positions) throw new Error(`the sweep failed at bump step ${i}, rack ${rack}`);
      const c = s.positions.wheel_center, a = s.positions.axle_inboard;
      out.push({ bump: BUMP[0] + ((BUMP[1] - BUMP[0]) * i) / (N - 1), rack, centre: c, spin: unit(sub(c, a)) });
    });
  }
  return out;
}
/** How far a cylinder (the tyre) reaches along unit d: its support function. */
const reach = (centre: V3, axis: V3, d: V3) => dot(centre, d) + tyreRadius * Math.sqrt(Math.max(0, 1 - dot(axis, d) ** 2)) + (tyreWidth / 2) * Math.abs(dot(axis, d));

const states = tyreStates();
let best: { d: V3; corner: (typeof states)[number]; top: number; margin: number } | null = null;
for (const dx of [-0.6, -0.3, 0, 0.3, 0.6]) {
  for (const dy of [-0.6, -0.3, 0, 0.3]) {
    const d = unit([dx, dy, 1]);
    const values = states.map((s) => reach(s.centre, s.spin, d));
    const top = Math.max(...values);
    const corner = states[values.indexOf(top)];
    const isExtreme = corner.bump === BUMP[1] && Math.abs(corner.rack) === RACK[1];
    const others = states.filter((s) => s.bump < BUMP[1] || Math.abs(s.rack) < RACK[1]).map((s) => reach(s.centre, s.spin, d));
    const margin = top - Math.max(...others);
    if (isExtreme && (!best || margin > best.margin)) best = { d, corner, top, margin };
  }
}
if (!best) throw new Error('no direction makes full bump and lock the tyre\'s furthest reach');
const { d, corner, top, margin } = best;
// the liner: a 300 × 300 × 4 mm panel whose face is square to d at the tyre's reach less 1 mm
const touch = 1;
const contact = (() => {
  // the tyre's farthest point along d at that state: centre + R·(d's part across the spin axis) + w/2·(sign) spin
  const acrossSpin = unit(sub(d, scale(corner.spin, dot(d, corner.spin))));
  return add(add(corner.centre, scale(acrossSpin, tyreRadius)), scale(corner.spin, (tyreWidth / 2) * Math.sign(dot(corner.spin, d))));
})();
const faceCentre = add(contact, scale(d, -touch));
const liner: Solid[] = [barBox(faceCentre, add(faceCentre, scale(d, 4)), 300, 300)];

const parts: Record<string, Solid[]> = {
  upright, lower_wishbone: wishbone('lower'), upper_wishbone: wishbone('upper'), tyre: [tyre], damper, wheelhouse_liner: liner,
};
mkdirSync(`${OUT}step`, { recursive: true });
mkdirSync(`${OUT}stl`, { recursive: true });
for (const [name, solids] of Object.entries(parts)) {
  writeFileSync(`${OUT}step/${name}.step`, stepText(name, solids));
  writeFileSync(`${OUT}stl/${name}.stl`, stlBytes(solids, name === 'tyre' ? 64 : 24));
}

const suspensionFile = (format: 'step' | 'stl') => `# The double-wishbone corner of double_wishbone_dynamics.yaml with CAD geometry on six parts
# (docs/picking.md), written by scripts/make-cad-example.ts: ${format.toUpperCase()} files in ./${format}/.
# The tyre touches the wheelhouse liner at full bump (+50 mm) and full lock (rack ${corner.rack > 0 ? '+' : ''}${corner.rack} mm),
# ${touch} mm into the liner there; ${margin.toFixed(1)} mm clear of it at the next state of the grid.
#   kinemate clearance examples/cad/double_wishbone_${format}.yaml --grid bump=-50:50:11,steer=-30:30:11
${text.split('\n').filter((l) => !l.startsWith('#')).join('\n').trimEnd()}
geometry:
  upright: [{ file: ${format}/upright.${format} }]
  lower_wishbone: [{ file: ${format}/lower_wishbone.${format} }]
  damper: [{ file: ${format}/damper.${format} }]
  upper_wishbone: [{ file: ${format}/upper_wishbone.${format} }]
  tyre: [{ file: ${format}/tyre.${format} }]
  chassis: [{ file: ${format}/wheelhouse_liner.${format} }]
`;
writeFileSync(`${OUT}double_wishbone_step.yaml`, suspensionFile('step'));
// the same corner as an assembly (the template's parts and mates), with the wheel a loose
// part to mount by picking: its tread's axis and the spindle's, a revolute
const cornerDoc = suspensionAssembly(geometry, 'double wishbone corner with CAD parts');
const withGeometry = (part: string, files: string[]) => ({ ...cornerDoc.parts[part], geometry: files.map((f) => ({ file: `stl/${f}.stl` })) });
const assembly = {
  ...cornerDoc,
  parts: {
    ...cornerDoc.parts,
    // an assembly has no damper body of its own: it hangs from the chassis here, not turning
    chassis: withGeometry('chassis', ['wheelhouse_liner', 'damper']),
    upright: withGeometry('upright', ['upright']),
    lower_wishbone: withGeometry('lower_wishbone', ['lower_wishbone']),
    upper_wishbone: withGeometry('upper_wishbone', ['upper_wishbone']),
    // beside the corner, outboard, until it is mounted
    wheel: { pose: { position: [0, 250, 0], rotation: [1, 0, 0, 0] }, points: { centre: wheelCentre }, geometry: [{ file: 'stl/tyre.stl' }] },
  },
};
writeFileSync(`${OUT}double_wishbone_stl.kinemate.json`, `${JSON.stringify(assembly, null, 2)}\n`);
writeFileSync(`${OUT}double_wishbone_stl.yaml`, suspensionFile('stl'));
console.log(`liner square to [${d.map((x) => x.toFixed(3))}] at full bump and rack ${corner.rack} mm; reach ${top.toFixed(1)} mm, ${margin.toFixed(1)} mm more than at any other state; files in ${OUT}`);
