/**
 * The vehicle's quasi-static states against identities any correct answer satisfies: the
 * contact loads carry the weight (and the d'Alembert load of a lateral acceleration), the
 * moments about x and y balance with the deflected positions, a symmetric car does not
 * roll at rest; and the exact gradients at 0 g against central differences of re-solved
 * states (the product never differences).
 */
import { describe, expect, it } from 'vitest';
import { buildVehicle } from '../../../src/suspension/vehicle/assembly';
import { accelerationSweep, solveVehicle, staticAnalysis, type SolvedState } from '../../../src/suspension/vehicle/analysis';
import { CORNERS } from '../../../src/suspension/vehicle/assembly';
import { readFileSync } from 'node:fs';
import { readVehicle } from './vehicle-sources';

const g = 9.80665;
const spec = readVehicle();

/** Σ over the tyres of (x − o) × F and ΣF, with the weight (and −m a) at the solved centre of mass. */
function balance(s: SolvedState, ax: number, ay: number) {
  const W = s.vehicle.mass * g;
  const F = [0, 0, 0], M = [0, 0, 0];
  const add = (x: readonly number[], f: readonly number[]) => {
    for (let i = 0; i < 3; i++) F[i] += f[i];
    M[0] += x[1] * f[2] - x[2] * f[1]; M[1] += x[2] * f[0] - x[0] * f[2]; M[2] += x[0] * f[1] - x[1] * f[0];
  };
  for (const c of CORNERS) add(s.corners[c].contact_point, s.corners[c].contact_load);
  add(s.vehicle.cg, [-W * ax, -W * ay, -W]);
  return { F, M, W };
}

describe('vehicle statics', () => {
  const m = buildVehicle(spec);
  const rest = staticAnalysis(m);

  it('solves at rest; the contact loads sum to the weight and nothing horizontal', () => {
    expect(rest.status).toBe('solved');
    const s = rest as SolvedState;
    const { F, W } = balance(s, 0, 0);
    expect(Math.abs(F[2]) / W).toBeLessThan(1e-9);
    expect(Math.abs(F[0]) + Math.abs(F[1])).toBeLessThan(1e-9 * W);
    // every mass counted: the body and the files' part, wheel and link masses
    const unsprung = [spec.front, spec.rear].reduce((sum, a) => sum + 2 * Object.values(a.dynamics.masses).reduce((t, x) => t + x.mass, 0) + 2 * Object.values(a.dynamics.links).reduce((t, x) => t + x, 0), 0);
    expect(s.vehicle.mass).toBeCloseTo(spec.body.mass + unsprung, 9);
  });

  it('balances the moments about x and y at the deflected positions', () => {
    const s = rest as SolvedState;
    const { M, W } = balance(s, 0, 0);
    expect(Math.abs(M[0]) / (W * 1000)).toBeLessThan(1e-8);
    expect(Math.abs(M[1]) / (W * 1000)).toBeLessThan(1e-8);
    // the body has sunk and pitched: positions are not the design ones
    expect(Math.abs(s.body.heave)).toBeGreaterThan(1);
  });

  it('a symmetric car does not roll at rest and loads both sides alike', () => {
    const s = rest as SolvedState;
    expect(Math.abs(s.body.roll)).toBeLessThan(1e-8);
    for (const axle of ['front', 'rear'] as const) {
      const l = s.corners[`${axle}_left`], r = s.corners[`${axle}_right`];
      expect(Math.abs(l.contact_load[2] - r.contact_load[2]) / l.contact_load[2]).toBeLessThan(1e-9);
      expect(l.camber).toBeCloseTo(r.camber, 9);
      expect(l.toe).toBeCloseTo(r.toe, 9);
    }
  });

  it('under a lateral acceleration the tyres react the d\'Alembert load, in proportion to their loads, moments balanced', () => {
    const s = solveVehicle(m, { ax: 0, ay: 0.5 });
    expect(s.status).toBe('solved');
    const st = s as SolvedState;
    const { F, M, W } = balance(st, 0, 0.5);
    for (let i = 0; i < 3; i++) expect(Math.abs(F[i]) / W).toBeLessThan(1e-9);
    expect(Math.abs(M[0]) / (W * 1000)).toBeLessThan(1e-8);
    expect(Math.abs(M[1]) / (W * 1000)).toBeLessThan(1e-8);
    for (const c of CORNERS) expect(st.corners[c].contact_load[1]).toBeCloseTo(0.5 * st.corners[c].contact_load[2], 9);
    // a left turn rolls the body right side down and loads the right wheels
    expect(st.body.roll).toBeGreaterThan(0);
    expect(st.corners.front_right.contact_load[2]).toBeGreaterThan(st.corners.front_left.contact_load[2]);
  });

  it('braking splits the brake force by the bias and pitches the nose down', () => {
    const s = solveVehicle(m, { ax: -0.5, ay: 0 }) as SolvedState;
    expect(s.status).toBe('solved');
    const { F, M, W } = balance(s, -0.5, 0);
    for (let i = 0; i < 3; i++) expect(Math.abs(F[i]) / W).toBeLessThan(1e-9);
    expect(Math.abs(M[1]) / (W * 1000)).toBeLessThan(1e-8);
    const front = s.corners.front_left.contact_load[0] + s.corners.front_right.contact_load[0];
    expect(front / (-0.5 * W)).toBeCloseTo(spec.front_brake_bias!, 9);
    expect(s.body.pitch).toBeGreaterThan((rest as SolvedState).body.pitch);
  });
});

describe('exact gradients at 0 g', () => {
  const h = 0.01;
  /** Central difference of a sweep at ±h (test only). */
  const central = (kind: 'ay' | 'ax', read: (s: SolvedState) => number, values: [number, number] = [h, -h]) => {
    const r = accelerationSweep(buildVehicle(spec), kind, values);
    const [a, b] = r.steps as SolvedState[];
    return { fd: (read(a) - read(b)) / (values[0] - values[1]), summary: r.summary! };
  };

  it('roll gradient and lateral load transfer match central differences of re-solved states', () => {
    const roll = central('ay', (s) => s.body.roll);
    const summary = roll.summary as { roll_gradient: number; lateral_load_transfer: { front: number; rear: number } };
    expect(summary.roll_gradient).toBeGreaterThan(0);
    expect(Math.abs(summary.roll_gradient - roll.fd) / roll.fd).toBeLessThan(1e-4);
    const lt = central('ay', (s) => (s.corners.front_right.contact_load[2] - s.corners.front_left.contact_load[2]) / 2);
    expect(Math.abs(summary.lateral_load_transfer.front - lt.fd) / lt.fd).toBeLessThan(1e-4);
  });

  it('pitch gradient under braking matches a second-order one-sided difference (braking is the side below 0 g)', () => {
    const r = accelerationSweep(buildVehicle(spec), 'ax', [0, -h, -2 * h]);
    const [p0, p1, p2] = (r.steps as SolvedState[]).map((s) => s.body.pitch);
    const fd = (3 * p0 - 4 * p1 + p2) / (2 * h);
    const summary = r.summary as { pitch_gradient: number; longitudinal_load_transfer: { braking: { front: number } } };
    expect(summary.pitch_gradient).toBeLessThan(0);
    expect(Math.abs(summary.pitch_gradient - fd) / Math.abs(fd)).toBeLessThan(1e-3);
    const [f0, f1, f2] = (r.steps as SolvedState[]).map((s) => s.corners.front_left.contact_load[2] + s.corners.front_right.contact_load[2]);
    const lt = (3 * f0 - 4 * f1 + f2) / (2 * h);
    expect(Math.abs(summary.longitudinal_load_transfer.braking.front - lt) / Math.abs(lt)).toBeLessThan(1e-3);
  });
});

describe('a car with a live rear axle', () => {
  it('stands on its four wheels: the loads carry the weight, moments balanced, no roll', () => {
    const s = staticAnalysis(buildVehicle(readVehicle(readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8')))) as SolvedState;
    expect(s.status).toBe('solved');
    const { F, M, W } = balance(s, 0, 0);
    expect(Math.abs(F[2]) / W).toBeLessThan(1e-9);
    expect(Math.abs(M[1]) / (W * 1000)).toBeLessThan(1e-8);
    expect(Math.abs(s.body.roll)).toBeLessThan(1e-8);
  });

  it('sits on its coil-overs: the rear travel is the sprung load over the rate, and halves when the rate doubles', () => {
    // vertical coil-overs on the beam move as the wheels do in heave (motion ratio 1), so
    // the travel is (corner load − the corner's share of beam and wheel weight) / rate, to
    // within what the links' arcs and the body's pitch add; before the beam's springs were
    // built, the rate changed nothing and the body hung on the links at 7.8° of pitch
    const text = readFileSync('examples/vehicles/solid_axle.vehicle.yaml', 'utf8');
    const rest = (rate: number) => staticAnalysis(buildVehicle(readVehicle(text, (path, t) =>
      path.endsWith('solid_axle_four_link_rates.yaml') ? t.replace('rate: 60 }', `rate: ${rate} }`) : t))) as SolvedState;
    const soft = rest(60), stiff = rest(120);
    const unsprung = (45 / 2 + 16) * g;
    const sprung = soft.corners.rear_left.contact_load[2] - unsprung;
    expect(soft.corners.rear_left.wheel_travel / (sprung / 60)).toBeGreaterThan(0.9);
    expect(soft.corners.rear_left.wheel_travel / (sprung / 60)).toBeLessThan(1.05);
    expect(soft.corners.rear_left.wheel_travel / stiff.corners.rear_left.wheel_travel).toBeCloseTo(2, 1);
    expect(Math.abs(soft.body.pitch)).toBeLessThan(2);
  });
});
