/**
 * The steady state's figures do not depend on the body datum's stiffness (datum.ts: an
 * artificial support that holds the body's x, y and heading): its preload takes what the
 * balances hold but the pose's loads leave out (the drive the speed needs, the aligning
 * moments' yaw), so its springs carry nothing in the turn. With the yaw stiffness (and the
 * horizontal one) ten times and a tenth, the summary's figures and a step's steer and yaw-rate
 * gain stay the same to 1e-9 relative, on linear and Magic Formula tyres, at the wheels and
 * through the rack. Before the preload the Magic Formula sedan's sideslip gradient moved 7e-4
 * with the yaw stiffness (the body turning on the spring under the aligning moments' yaw).
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle, type VehicleModel } from '../../../src/suspension/vehicle/assembly';
import { plainPose, steadyLinearisation, steadyStateSweep, steadyTyres } from '../../../src/suspension/vehicle/steady-state';
import { rackSteadySweep } from '../../../src/suspension/vehicle/steady-rack';
import { understeerSensitivity, STEADY_METRICS } from '../../../src/suspension/vehicle/understeer-rates';
import { steadySpeedSensitivity } from '../../../src/suspension/vehicle/steady-speed-rates';
import { rackSensitivity } from '../../../src/suspension/vehicle/rack-rates';
import type { VehicleMetricGradient } from '../../../src/suspension/vehicle/static-gradients';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { readVehicle, SEDAN_MF } from './vehicle-sources';

/** Each text's vehicle read once (a build leaves its spec as it was): reading the files is ~20 ms a car. */
const specs = new Map<string | undefined, VehicleSpec>();
const specOf = (text: string | undefined): VehicleSpec => { let s = specs.get(text); if (!s) specs.set(text, (s = readVehicle(text))); return s; };

/** The test's seam: the datum's yaw and horizontal stiffness scaled (no file field sets them). */
function scaled(text: string | undefined, yaw: number, horizontal: number): VehicleModel {
  const m = buildVehicle(specOf(text));
  const d = m.datum as { yawStiffness: number; stiffness: number };
  d.yawStiffness *= yaw;
  d.stiffness *= horizontal;
  return m;
}

/** The summary's figures and the 40 km/h step's steer and yaw-rate gain on a 40 m radius. */
function figures(m: VehicleModel, steer: 'wheels' | 'rack'): number[] {
  const r = steer === 'wheels' ? steadyStateSweep(m, 40, [40]) : rackSteadySweep(m, 40, [40]);
  if (r.status !== 'solved' || !r.summary) throw new Error(r.message);
  const s = r.steps[0];
  return [r.summary.understeer_gradient, r.summary.sideslip_gradient, r.summary.kinematic_steer, s.steer!, s.yaw_rate_gain!];
}

const cars = { linear: undefined, 'Magic Formula': SEDAN_MF() };

describe('the steady state without the datum\'s stiffness', () => {
  for (const [tyres, text] of Object.entries(cars)) {
    for (const steer of ['wheels', 'rack'] as const) {
      it(`${tyres} tyres, steer at the ${steer}: the figures stay with the datum's stiffness ×10 and ×0.1`, () => {
        const base = figures(scaled(text, 1, 1), steer);
        for (const [yaw, horizontal] of [[10, 1], [0.1, 1], [1, 10], [1, 0.1]]) {
          const f = figures(scaled(text, yaw, horizontal), steer);
          f.forEach((x, i) => expect(Math.abs(x - base[i]), `figure ${i} with ×${yaw} yaw, ×${horizontal} x/y: ${x} vs ${base[i]}`).toBeLessThan(1e-9 * Math.abs(base[i])));
        }
      });
    }
  }

  it('leaves the datum\'s springs nothing at the Magic Formula sedan\'s 0.3 g state on 40 m: the body keeps its heading', () => {
    const m = scaled(SEDAN_MF(), 1, 1);
    const lin = steadyLinearisation(m, steadyTyres(m), 40e3, 0.3);
    if (lin.status !== 'solved') throw new Error(lin.message);
    m.dyn.forces.assemble(new Float64Array(m.dyn.forces.size), 0, new Float64Array(m.dyn.forces.size), null, null);
    const d = m.datum, body = plainPose(m, 'body').R;
    // the preload carries the aligning moments' yaw and the tyres' drag
    expect(Math.abs(d.preload[2])).toBeGreaterThan(1e4);
    expect(Math.abs(d.preload[0])).toBeGreaterThan(100);
    expect(Math.abs(d.last.moment - d.preload[2])).toBeLessThan(1e-6 * Math.abs(d.preload[2]));
    expect(Math.abs(d.last.force[0] - d.preload[0])).toBeLessThan(1e-6 * Math.abs(d.preload[0]));
    expect(Math.abs(Math.atan2(body[3], body[0]) - d.yaw0)).toBeLessThan(1e-12);
  });

  it('and the figures\' exact gradients do not depend on it either (Magic Formula tyres, at the wheels and through the rack)', () => {
    // cg_position moves the datum's point, its preload's and its anchor; a spring rate; a rear link's pickup
    const names = ['vehicle_config.cg_position.x', 'rear.spring.rate', 'rear.lower_front_link_inboard.z'];
    const gradients = (yaw: number) => {
      const build = () => scaled(SEDAN_MF(), yaw, 1);
      const all = [understeerSensitivity(build(), names, 40, STEADY_METRICS), steadySpeedSensitivity(build(), names, ['vehicle.steer@50', 'vehicle.yaw_rate_gain@50']),
        rackSensitivity(build, names, ['vehicle.understeer_gradient@rack', 'vehicle.sideslip_gradient@rack', 'vehicle.steer@50@rack'])];
      const out: Record<string, VehicleMetricGradient> = {};
      for (const r of all) { if (r.status !== 'solved') throw new Error(r.message); Object.assign(out, r.metrics); }
      return out;
    };
    const base = gradients(1);
    // seen ≤ 6.5e-9 (the re-solved states' tolerance); before the preload 1e-6 to 3e-2 (the sideslip gradient's)
    for (const yaw of [10, 0.1]) {
      const g = gradients(yaw);
      for (const [metric, b] of Object.entries(base)) for (const n of names) {
        expect(Math.abs(g[metric].gradient[n] - b.gradient[n]), `${metric} along ${n}, ×${yaw}`).toBeLessThan(3e-8 * Math.abs(b.gradient[n]));
      }
    }
  });
});
