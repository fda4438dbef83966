/**
 * The steady-state metrics on another radius (radius-metrics.ts: `@R<m>` after the name):
 * their values are the steady state's on that radius, and their exact gradients match
 * Richardson-extrapolated central differences of re-solved cars on it (as
 * understeer-rates.test.ts and steady-speed-rates.test.ts do on 40 m).
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { steadyLinearisation, steadySummary, steadyTyres } from '../../../src/suspension/vehicle/steady-state';
import { isRadiusMetric, radiusOf, radiusSensitivity } from '../../../src/suspension/vehicle/radius-metrics';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { fitVehicle, parseVehicleFitSpec } from '../../../src/suspension/vehicle/fit';
import { centralDifferences, extrapolatedDifferences, readVehicle } from './vehicle-sources';

const spec = readVehicle();
const DEG = 180 / Math.PI;

/** The 0 g summary's three figures on radius R (m) and the steer and yaw-rate gain at kmh on it, of the re-solved car. */
function figures(name: string, d: number, R: number, kmh: number): number[] {
  const m = buildVehicle(movedVehicleSpec(spec, name, d));
  const s = steadySummary(m, steadyTyres(m), R * 1000);
  if ('status' in s) throw new Error(s.message);
  const V = kmh / 3.6, l = steadyLinearisation(buildVehicle(movedVehicleSpec(spec, name, d)), steadyTyres(m), R * 1000, (V * V) / R / 9.80665);
  if (l.status === 'failed') throw new Error(l.message);
  return [s.understeer_gradient, s.sideslip_gradient, s.kinematic_steer, l.x0.delta * DEG, V / R / l.x0.delta];
}

describe('steady-state metrics on another radius', () => {
  const R = 100, KMH = 60;
  const metrics = [`vehicle.understeer_gradient@R${R}`, `vehicle.sideslip_gradient@R${R}`, `vehicle.kinematic_steer@R${R}`, `vehicle.steer@${KMH}@R${R}`, `vehicle.yaw_rate_gain@${KMH}@R${R}`];
  // a spring rate, the cg height (the balances' point and the datum moving), a front upright pickup
  const steps: Record<string, number> = { 'rear.spring.rate': 0.5, 'vehicle_config.cg_position.z': 2, 'front.upper_wishbone_outboard.z': 1 };
  const names = Object.keys(steps);
  const r = radiusSensitivity(() => buildVehicle(spec), names, metrics);

  it('names: today\'s without @R, a radius in m after it', () => {
    expect(radiusOf('vehicle.steer@50@R60')).toEqual({ base: 'vehicle.steer@50', radius: 60 });
    expect(radiusOf('vehicle.understeer_gradient')).toBeNull();
    expect(isRadiusMetric('vehicle.understeer_gradient@R12.5')).toBe(true);
    expect(isRadiusMetric('vehicle.roll_gradient@R40')).toBe(false);
    expect(() => radiusSensitivity(() => buildVehicle(spec), names, ['vehicle.understeer_gradient@R0'])).toThrow(/above 0/);
  });

  it('has the steady state\'s values on that radius (the kinematic steer near L/R)', () => {
    if (r.status !== 'solved') throw new Error(r.message);
    const f = figures('body.mass', 0, R, KMH);
    metrics.forEach((metric, i) => expect(r.metrics[metric].value, metric).toBeCloseTo(f[i], 8));
    // 2.5 m over 100 m: 1.432 deg, the static toe and the tyres' fight on top
    expect(Math.abs(r.metrics[metrics[2]].value - Math.atan(2.5 / R) * DEG)).toBeLessThan(0.01);
  });

  for (const name of names) {
    it(`${name}: against extrapolated central differences of re-solved cars on ${R} m`, () => {
      if (r.status !== 'solved') throw new Error(r.message);
      const h = steps[name];
      // the cg height's central differences pass at 2h and h/2 (vehicle-sources.ts); the others need Richardson's
      const fds = (name === 'vehicle_config.cg_position.z' ? centralDifferences : extrapolatedDifferences)((d) => figures(name, d, R, KMH), h);
      metrics.forEach((metric, i) => {
        const fd = fds[i];
        const exact = r.metrics[metric].gradient[name];
        // floored at 1e-12 per unit: the re-solved steer's own tolerance over the steps
        expect(Math.abs(exact - fd), `${metric}: ${exact} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd) + 1e-12);
      });
    });
  }

  it('a fit target on that radius', () => {
    const fit = parseVehicleFitSpec(`move: { rear.spring.rate: [-40, 100] }\ntargets:\n  - { metric: vehicle.understeer_gradient@R${R}, value: 0.109 }\n`, spec);
    const report = fitVehicle(spec, fit);
    expect(report.status).toBe('converged');
    const m = buildVehicle(report.spec);
    const s = steadySummary(m, steadyTyres(m), R * 1000);
    if ('status' in s) throw new Error(s.message);
    expect(s.understeer_gradient).toBeCloseTo(0.109, 8);
    expect(() => parseVehicleFitSpec('move: { rear.spring.rate: [-40, 100] }\ntargets:\n  - { metric: vehicle.understeer_gradient@R0, value: 0.1 }\n', spec)).toThrow(/radius after @R must be above 0/);
  });
});
