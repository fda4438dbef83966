/**
 * The ride frequencies' and the wheel hops' and tramps' exact gradients (frequency-rates.ts: dω² = φᵀ(K̇_r − ω² Ṁ_r)φ with the
 * rest state's own move, the basis' turn and the mass pieces) against Richardson-extrapolated
 * central differences of the modes of re-solved vehicles.
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { solveVehicle } from '../../../src/suspension/vehicle/analysis';
import { readFileSync } from 'node:fs';
import type { VehicleSpec } from '../../../src/suspension/vehicle/file';
import { FREQUENCY_METRICS, frequencyMode, frequencySensitivity } from '../../../src/suspension/vehicle/frequency-rates';
import { modesAtRest, vehicleModes, type VehicleMode } from '../../../src/suspension/vehicle/modes';
import { movedVehicleSpec } from '../../../src/suspension/vehicle/parameters';
import { extrapolatedDifferences, readVehicle } from './vehicle-sources';

const spec = readVehicle();

/** The modes' summary (named by modes.ts' energy rule, not by frequencyMode) of the vehicle with one number moved. */
function frequencies(name: string, d: number, of: VehicleSpec = spec): Record<string, number> {
  const r = vehicleModes(buildVehicle(movedVehicleSpec(of, name, d)));
  if (r.status !== 'solved') throw new Error(r.message);
  const out: Record<string, number> = { 'vehicle.heave_frequency': r.summary.heave_frequency!, 'vehicle.pitch_frequency': r.summary.pitch_frequency!, 'vehicle.roll_frequency': r.summary.roll_frequency! };
  for (const a of ['front', 'rear'] as const) {
    out[`vehicle.wheel_hop_frequency.${a}`] = r.summary.wheel_hop_frequency[a]!;
    out[`vehicle.wheel_tramp_frequency.${a}`] = r.summary.wheel_tramp_frequency[a]!;
  }
  return out;
}

/** (4 D(h) − D(2h)) / 3 of central differences: the step's h² error gone. */
function extrapolated(name: string, h: number, of: VehicleSpec = spec): Record<string, number> {
  const [p1, m1, p2, m2] = [h, -h, 2 * h, -2 * h].map((d) => frequencies(name, d, of));
  return Object.fromEntries(Object.keys(p1).map((k) => [k, (4 * (p1[k] - m1[k]) / (2 * h) - (p2[k] - m2[k]) / (4 * h)) / 3]));
}

describe('the ride frequencies as metrics', () => {
  // a spring rate, a bar rate, the body's mass (its centre and inertia moving too), its cg height, a chassis
  // pickup (a link's length row, half its mass on the body), an inboard pivot (its hinge axis turning), an
  // upright pickup (masses placed from points); the wheel hops' own: the front springs on their rocker, an upright's mass
  const steps: Record<string, number> = {
    'rear.spring.rate': 0.5, 'front.spring.rate': 0.5, 'front.dynamics.masses.upright.mass': 0.1, 'front.anti_roll.rate': 500, 'body.mass': 2.5, 'vehicle_config.cg_position.z': 2, 'vehicle_config.cg_position.x': 2,
    'rear.lower_front_link_inboard.z': 1, 'front.upper_wishbone_inboard_front.z': 1, 'front.upper_wishbone_outboard.z': 1,
    // the body's own inertia (the mass matrix's rate only) and the wheels' mass (a part of its own on its bearing, its cylinder's inertia growing with it)
    'body.inertia.xx': 2e6, 'body.inertia.yy': 5e6, 'body.inertia.xz': 2e6, 'front.dynamics.masses.wheel.mass': 0.2, 'rear.dynamics.masses.wheel.mass': 0.2,
  };
  const names = Object.keys(steps);
  const r = frequencySensitivity(buildVehicle(spec), names);

  it('values are the modes\' summary', () => {
    if (r.status !== 'solved') throw new Error(r.message);
    const f = frequencies('body.mass', 0);
    for (const metric of FREQUENCY_METRICS) expect(r.metrics[metric].value).toBe(f[metric]);
  });

  for (const name of names) {
    it(`${name}: every frequency against extrapolated central differences`, () => {
      if (r.status !== 'solved') throw new Error(r.message);
      const fd = extrapolated(name, steps[name]);
      for (const metric of FREQUENCY_METRICS) {
        const exact = r.metrics[metric].gradient[name];
        // floored at the re-solved modes' round-off over the step (1e-12 of the frequency): a rear spring barely moves the front hop
        expect(Math.abs(exact - fd[metric]), `${metric}: ${exact} vs ${fd[metric]}`).toBeLessThan(1e-6 * Math.abs(fd[metric]) + 1e-12 * r.metrics[metric].value / steps[name]);
      }
    });
  }
});

/** The names modes.ts gives a vehicle's modes. */
function modeNames(of: VehicleSpec): string[] {
  const r = vehicleModes(buildVehicle(of));
  if (r.status !== 'solved') throw new Error(r.message);
  return r.modes.map((m) => m.name);
}

describe('the wheel hop and tramp frequencies', () => {
  // the live rear axle: its hop (the beam rising) and tramp (the beam rolling) are the axle's own parts' energy
  const solid = readVehicle(readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8'));
  const steps: Record<string, number> = { 'rear.spring.rate': 0.5, 'rear.dynamics.masses.axle.mass': 0.25, 'rear.upper_link_chassis.z': 1, 'rear.lower_link_axle.x': 1 };
  const names = Object.keys(steps);
  const wheel = FREQUENCY_METRICS.filter((m) => m.startsWith('vehicle.wheel_'));
  const r = frequencySensitivity(buildVehicle(solid), names, wheel);

  it('a beam axle: the summary\'s values, and the metrics\' gradients against extrapolated central differences', () => {
    if (r.status !== 'solved') throw new Error(r.message);
    const f = frequencies('body.mass', 0, solid);
    for (const metric of wheel) expect(r.metrics[metric].value).toBe(f[metric]);
    for (const name of names) {
      const fd = extrapolated(name, steps[name], solid);
      for (const metric of wheel) {
        const exact = r.metrics[metric].gradient[name];
        // floored at the re-solved modes' round-off over the step, as above: the rear axle's mass barely moves the front tramp (~7e-5 Hz/kg)
        expect(Math.abs(exact - fd[metric]), `${name} ${metric}: ${exact} vs ${fd[metric]}`).toBeLessThan(1e-6 * Math.abs(fd[metric]) + 1e-12 * r.metrics[metric].value / steps[name]);
      }
    }
  });

  it('a car off its centre line: modes names the rear wheels\' modes by corner, the metrics still find the hop and the tramp, gradients against differences', () => {
    const off = movedVehicleSpec(spec, 'vehicle_config.cg_position.y', 60);
    const names = modeNames(off);
    expect(names).toContain('wheel_hop_rear_left');
    expect(names).not.toContain('wheel_hop_rear');
    const g = frequencySensitivity(buildVehicle(off), ['rear.spring.rate'], wheel);
    if (g.status !== 'solved') throw new Error(g.message);
    const h = 0.5;
    const by = (d: number) => {
      const moved = buildVehicle(movedVehicleSpec(off, 'rear.spring.rate', d));
      if (solveVehicle(moved, { ax: 0, ay: 0 }).status !== 'solved') throw new Error('no rest state');
      const at = modesAtRest(moved);
      if (typeof at === 'string') throw new Error(at);
      return wheel.map((metric) => at.modes[frequencyMode(at, metric) as number].frequency);
    };
    const fds = extrapolatedDifferences(by, h);
    wheel.forEach((metric, i) => {
      const fd = fds[i], exact = g.metrics[metric].gradient['rear.spring.rate'];
      expect(Math.abs(exact - fd), `${metric}: ${exact} vs ${fd}`).toBeLessThan(1e-6 * Math.abs(fd) + 1e-12 * g.metrics[metric].value / h);
    });
    // the rear hop (left and right together) above its tramp, as on the symmetric car
    expect(g.metrics['vehicle.wheel_hop_frequency.rear'].value).toBeGreaterThan(g.metrics['vehicle.wheel_tramp_frequency.rear'].value);
  });

  it('found by the shape\'s phase and the axle\'s energy share, whatever the order and the names', () => {
    const mode = (name: string, energy: Record<string, number>): VehicleMode => ({ name, frequency: 1, damping_ratio: 0, energy, body: { heave: 0, pitch: 0, roll: 0 } });
    // a hop mixed with its side's tramp (a car off its centre line): 85 % of the energy on one side, its modes.ts name one corner's
    const modes = [mode('rigid', { lateral: 1 }), mode('heave', { heave: 0.95, rear_left: 0.03, rear_right: 0.02 }),
      mode('wheel_hop_rear_left', { rear_left: 0.8, rear_right: 0.14 }), mode('wheel_hop_rear_right', { rear_left: 0.1, rear_right: 0.85 })];
    const rises = [{ rear_left: 1, rear_right: 1 }, { rear_left: 1, rear_right: 1 }, { rear_left: 1, rear_right: 0.4 }, { rear_left: -0.35, rear_right: 1 }];
    expect(frequencyMode({ modes, rises }, 'vehicle.wheel_hop_frequency.rear')).toBe(2);
    expect(frequencyMode({ modes, rises }, 'vehicle.wheel_tramp_frequency.rear')).toBe(3);
    // the same modes in another order: the same shapes chosen
    expect(frequencyMode({ modes: [modes[3], modes[2], modes[1]], rises: [rises[3], rises[2], rises[1]] }, 'vehicle.wheel_hop_frequency.rear')).toBe(1);
    expect(frequencyMode({ modes, rises }, 'vehicle.wheel_hop_frequency.front')).toMatch(/no wheel hop mode of the front axle/);
  });
});

describe('a wheel with its own inertia in the file', () => {
  // the sedan's front wheels given their inertia (kg·mm², spin about y): its diagonal entries become numbers, and the mass no longer grows it
  const given = readVehicle(undefined, (path, text) => (path.endsWith('double_wishbone_axle_front.yaml') ? text.replace('wheel: 14', 'wheel: { mass: 14, inertia: [700e3, 1200e3, 700e3] }') : text));
  const steps: Record<string, number> = { 'front.dynamics.masses.wheel.inertia.x': 5e4, 'front.dynamics.masses.wheel.inertia.y': 5e4, 'front.dynamics.masses.wheel.mass': 0.2 };
  const names = Object.keys(steps);
  const metrics = ['vehicle.pitch_frequency', 'vehicle.roll_frequency', 'vehicle.wheel_hop_frequency.front', 'vehicle.wheel_tramp_frequency.front'];
  const r = frequencySensitivity(buildVehicle(given), names, metrics);

  for (const name of names) {
    it(`${name}: against extrapolated central differences of re-solved cars`, () => {
      if (r.status !== 'solved') throw new Error(r.message);
      const fd = extrapolated(name, steps[name], given);
      for (const metric of metrics) {
        const exact = r.metrics[metric].gradient[name];
        expect(Math.abs(exact - fd[metric]), `${metric}: ${exact} vs ${fd[metric]}`).toBeLessThan(1e-6 * Math.abs(fd[metric]) + 1e-12 * r.metrics[metric].value / steps[name]);
      }
    });
  }
});
