/**
 * The wheels' moments about their own axes (`spin_inertia`, `transverse_inertia`,
 * src/suspension/dynamics/wheel-inertia.ts) as numbers of the vehicle: the ride frequencies'
 * exact gradients against Richardson differences of cars read again with the number moved, with
 * the cylinder's moments and with a file's; and the corner dynamics' build holding them.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { FREQUENCY_METRICS, frequencySensitivity } from '../../../src/suspension/vehicle/frequency-rates';
import { movedVehicleSpec, vehicleParameterNames } from '../../../src/suspension/vehicle/parameters';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { readSuspensionDynamics, suspensionDynamicsAssembly } from '../../../src/suspension/dynamics/model';
import { validateGeometry } from '../../../src/suspension/files/geometry';
import { parseText } from '../../../src/suspension/files/read';
import { centralDifferences, extrapolatedDifferences, readVehicle } from './vehicle-sources';

const sedan = readVehicle();
/** The sedan with its front wheels' spin moment given (the transverse one still the cylinder's). */
const given = readVehicle(undefined, (path, t) => (path.endsWith('double_wishbone_axle_front.yaml') ? t.replace('wheel: 14', 'wheel: { mass: 14, spin_inertia: 600000 }') : t));

function frequencies(spec: VehicleSpec, params: string[]) {
  const r = frequencySensitivity(buildVehicle(spec), params);
  if (r.status !== 'solved') throw new Error(r.message);
  return r.metrics;
}

describe('the wheels\' moments as numbers of the vehicle', () => {
  it('are offered where the file gives no 3 × 3 inertia', () => {
    const names = vehicleParameterNames(sedan);
    for (const n of ['front.dynamics.masses.wheel.spin_inertia', 'rear.dynamics.masses.wheel.transverse_inertia']) expect(names).toContain(n);
    expect(names).not.toContain('front.dynamics.masses.wheel.inertia.x');
  });

  // measured: 1e-9..5e-7 of the largest rate (the rear's, a front moment's, ~1e-13 Hz per kg·mm²: checked absolutely)
  const cars = { 'the cylinder\'s': sedan, 'a file\'s spin moment': given };
  it.each([
    ['the cylinder\'s', 'front.dynamics.masses.wheel.spin_inertia', 1000],
    ['the cylinder\'s', 'rear.dynamics.masses.wheel.transverse_inertia', 1000],
    ['a file\'s spin moment', 'front.dynamics.masses.wheel.spin_inertia', 1000],
    ['a file\'s spin moment', 'front.dynamics.masses.wheel.mass', 0.05], // the given moment stays, the transverse grows
    ['a file\'s spin moment', 'front.left.axle_inboard.x', 0.05], // the moments turn with the spin axis
  ] as const)('%s: %s, every ride frequency against differences', (what, name, h) => {
    const spec = cars[what];
    const exact = frequencies(spec, [name]);
    // the cylinder's moments: central differences pass at 2h and h/2 (vehicle-sources.ts); the file's need Richardson's
    const fd = (what === 'the cylinder\'s' ? centralDifferences : extrapolatedDifferences)((d) => { const m = frequencies(movedVehicleSpec(spec, name, d), []); return FREQUENCY_METRICS.map((k) => m[k].value); }, h);
    const scale = Math.max(...fd.map(Math.abs));
    FREQUENCY_METRICS.forEach((k, i) => expect(Math.abs(exact[k].gradient[name] - fd[i]), `${name} → ${k}`).toBeLessThan(1e-6 * scale));
  });

  it('the corner dynamics build the wheel from its moments about its own axis', () => {
    const file = 'examples/suspension/double_wishbone_axle_front.yaml';
    const raw = parseText(readFileSync(file, 'utf8'), file) as Record<string, Record<string, unknown>>;
    const geometry = validateGeometry(raw, file);
    const dyn = (wheel: unknown) => ({ ...raw.dynamics, masses: { ...(raw.dynamics.masses as object), wheel }, tyre: { stiffness: 250 } });
    const inertia = (wheel: unknown) => suspensionDynamicsAssembly(geometry, readSuspensionDynamics(dyn(wheel), geometry, file)).doc.parts.left_upright.mass!.inertia;
    const a = inertia(14), b = inertia({ mass: 14, spin_inertia: (14 * 313.6 ** 2) / 2 + 1000 });
    // 1000 kg·mm² more about the spin axis s: the upright's inertia gains 1000 s sᵀ
    const hp = geometry.corners[0].hardpoints, d = [0, 1, 2].map((k) => hp.axle_outboard[k] - hp.axle_inboard[k]), l = Math.hypot(...d), s = d.map((x) => x / l);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(b[i][j] - a[i][j]).toBeCloseTo(1000 * s[i] * s[j], 6);
  });
});
