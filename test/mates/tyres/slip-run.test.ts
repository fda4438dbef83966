/**
 * The slipping tyre in a simulation (the kernel's integrator, as the vehicle's will run it):
 * a loaded wheel launched sideways loses its side velocity by the tyre's side force, keeps
 * rolling, and the energy budget (kinetic + potential + elastic + dissipated) balances.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../../kernel/system';
import * as P from '../../../kernel/pose';
import { ForceSet } from '../../../kernel/forces';
import { GravityBlock, spatialMass } from '../../../kernel/mass';
import { Integrator } from '../../../kernel/integrator/integrator';
import { toMatrix } from '../../../kernel/quat';
import { SlipTyreForce } from '../../../mates/tyres';
import { sampleTyre } from './sample';

describe('slipping tyre in a run', () => {
  it('a wheel sliding sideways at 10 m/s stops sliding within 0.3 s, rolls on, and the energy it lost is in the budget', () => {
    const tyre = sampleTyre();
    const mass = 0.35, g = 9806.65; // tonne, mm/s²: a quarter car on its wheel
    const sag = (mass * g) / tyre.verticalStiffness;
    const system = new System(500);
    const w = system.addPose('wheel', P.pose([0, 0, tyre.unloadedRadius - sag], [1, 0, 0, 0]));
    // heavy about x and z (the body it carries keeps it upright), a wheel's inertia about its axle
    const body = { mass, centre: [0, 0, 0], inertia: [1e9, 0, 0, 0, 700, 0, 0, 0, 1e9] };
    const forces = new ForceSet(system);
    forces.add(new GravityBlock('gravity', w, body, [0, 0, -g]));
    const element = new SlipTyreForce('tyre', w, [0, 0, 0], [0, 1, 0], tyre, { damping: 1 });
    forces.add(element);
    const integrator = new Integrator(system, forces, [{ variable: w, M: spatialMass(new Float64Array(36), body) }], []);
    const V = 10000, Vy = 500;
    integrator.start(0, Float64Array.of(0, V / (tyre.unloadedRadius - sag), 0, V, Vy, 0));
    const e0 = integrator.energy().total;
    for (let i = 0; i < 600; i++) expect(integrator.step(0.0005)).toBe(true);
    // the centre's world velocity R v (the wheel has spun round many times), its axis still along y
    const v = integrator.stepStart().v, R = toMatrix(new Float64Array(9), system.state, 3);
    const world = [0, 1, 2].map((i) => R[3 * i] * v[3] + R[3 * i + 1] * v[4] + R[3 * i + 2] * v[5]);
    expect(R[4]).toBeGreaterThan(0.999);
    expect(Math.abs(world[1])).toBeLessThan(0.1 * Vy);
    expect(world[0]).toBeGreaterThan(0.9 * V);
    expect(element.slip.load).toBeGreaterThan(0.8 * mass * g);
    const budget = integrator.energy();
    expect(budget.dissipated).toBeGreaterThan(0);
    // what sliding took is about the sideways kinetic energy; the budget balances to the
    // integrator's own error (which falls with the step: 1.5 % of it at 0.2 ms, 6.5 % at 0.5 ms, 24 % at 1 ms)
    const sideways = 0.5 * mass * Vy * Vy;
    expect(budget.dissipated / sideways).toBeGreaterThan(0.9);
    expect(budget.dissipated / sideways).toBeLessThan(1.2);
    expect(Math.abs(budget.total - e0) / budget.dissipated).toBeLessThan(0.1);
  });
});
