/**
 * Compliance against closed forms derived by hand (docs/compliance.md), in the linear limit:
 * - an arm on two bushings (at y = ±b, axis along y; kept in its plane) with a force F along y at its tip
 *   (x = L): the bushings carry F/2 each axially, so the arm slides F/(2 k_a); the moment
 *   L·F about z is carried by the radial couple 2 b² k_r θ and the conical rates 2 k_c θ, so
 *   θ = L F / (2 b² k_r + 2 k_c) and the tip moves F/(2 k_a) + L θ;
 * - a multi-link upright on five axially compliant links: the 6×6 stiffness Σ k_i J_i J_iᵀ
 *   of the links' Plücker lines J_i = (d_i, b_i × d_i), with the wheel pad's row
 *   (e_z, c × e_z) as a constraint, gives the wheel's translation and turn under a load;
 * - work equals stored energy: ½ F·Δx at the load equals the energy in the bushings and links.
 */
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../../src/assembly/load.ts';
import { buildDynamics } from '../../../src/mechanics/build.ts';
import { equilibrium } from '../../../src/mechanics/equilibrium.ts';
import { parseGeometry } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { runKc } from '../../../src/suspension/compliance/kc.ts';
import { tireRadius } from '../../../src/suspension/files/index.ts';
import { dwCompliance, example, stateAt } from './helpers.ts';

const DEG = Math.PI / 180;

/** Solve A x = b (small dense, Gaussian elimination with pivoting). */
function solveDense(A: number[][], b: number[]): number[] {
  const n = b.length, M = A.map((r, i) => [...r, b[i]]);
  for (let k = 0; k < n; k++) {
    let p = k;
    for (let i = k + 1; i < n; i++) if (Math.abs(M[i][k]) > Math.abs(M[p][k])) p = i;
    [M[k], M[p]] = [M[p], M[k]];
    for (let i = k + 1; i < n; i++) { const f = M[i][k] / M[k][k]; for (let j = k; j <= n; j++) M[i][j] -= f * M[k][j]; }
  }
  const x = new Array(n).fill(0);
  for (let i = n - 1; i >= 0; i--) { let s = M[i][n]; for (let j = i + 1; j < n; j++) s -= M[i][j] * x[j]; x[i] = s / M[i][i]; }
  return x;
}
const cross = (a: number[], b: number[]) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

describe('compliance against closed forms', () => {
  it('an arm on two bushings with a force at its tip: deflection and rotation by hand', () => {
    const b = 150, L = 400, F = 1, ka = 900, kr = 6000, kc = 50; // N/mm, N·mm/deg
    const q: [number, number, number, number] = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]; // frame x along world y
    const frame = (y: number) => ({ origin: [0, y, 0], rotation: q });
    const doc = parseAssembly(JSON.stringify({
      format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' }, state: {}, held: [],
      // the arm kept in the plane z = 0, where the answer lies (the tip force has no out-of-plane part)
      mates: { plane: { type: 'planar', a: 'chassis.plane', b: 'arm.plane' } },
      parts: {
        chassis: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { front: frame(b), rear: frame(-b), plane: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } } },
        arm: { pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { front: frame(b), rear: frame(-b), plane: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } }, points: { tip: [L, 0, 0] } },
      },
      forces: {
        front: { type: 'bushing', a: 'chassis.front', b: 'arm.front', stiffness: [ka, kr, kr], rotational_stiffness: [1000, kc, kc] },
        rear: { type: 'bushing', a: 'chassis.rear', b: 'arm.rear', stiffness: [ka, kr, kr], rotational_stiffness: [1000, kc, kc] },
        load: { type: 'force', at: 'arm.tip', vector: [0, F, 0] },
      },
    }));
    const dyn = buildDynamics(doc);
    // every load here is carried by the elements (no constraint): the balance is measured against F
    const eq = equilibrium(dyn, { forceScale: F });
    expect(eq.status, eq.message).toBe("solved");
    const theta = (L * F) / (2 * b * b * kr + 2 * kc / DEG);
    const pose = dyn.system.getPose(dyn.model.parts.get('arm')!);
    const qz = 2 * Math.atan2(pose[6], pose[3]); // turn about z (the arm turns about z only)
    expect(Math.abs(qz - theta) / theta).toBeLessThan(1e-4);
    const tipY = pose[1] + Math.sin(qz) * L;
    expect(Math.abs(tipY - (F / (2 * ka) + L * theta)) / (F / (2 * ka) + L * theta)).toBeLessThan(1e-4);
  });

  it('a multi-link upright on five axially compliant links against the 6×6 stiffness of their Plücker lines', () => {
    const k: Record<string, number> = { upper_front_link: 3000, upper_rear_link: 2500, lower_front_link: 5000, lower_rear_link: 4500, trackrod: 8000 };
    const text = example('multi_link.yaml').replace('mount: lower_rear_link', 'mount: upright')
      + `compliance:\n  links:\n${Object.entries(k).map(([id, v]) => `    ${id}: ${v}`).join('\n')}\n`;
    const g = parseGeometry(text);
    const hp = g.corners[0].hardpoints;
    const F = [0, 1, 0];
    const run = runKc(new SuspensionModel(suspensionAssembly(g)), 'lateral', { range: [1, 1, 1] });
    const step = run.steps[0];
    expect(step.status).toBe('solved');
    // closed form: min ½ xᵀ K6 x − wᵀ x with the wheel centre's z held; x = (t, ω) about the world origin
    const K6 = Array.from({ length: 6 }, () => new Array(6).fill(0));
    for (const [id, ki] of Object.entries(k)) {
      const a = hp[`${id}_inboard`], bo = hp[`${id}_outboard`];
      const d = [bo[0] - a[0], bo[1] - a[1], bo[2] - a[2]], l = Math.hypot(d[0], d[1], d[2]);
      const u = d.map((x) => x / l), J = [...u, ...cross(bo, u)];
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) K6[i][j] += ki * J[i] * J[j];
    }
    const wc = hp.axle_outboard, c = [wc[0], wc[1], wc[2] - tireRadius(g.wheel.tire)];
    const w = [...F, ...cross(c, F)];
    const gz = [0, 0, 1, ...cross(wc, [0, 0, 1])];
    const A = [...K6.map((row, i) => [...row, gz[i]]), [...gz, 0]];
    const x = solveDense(A, [...w, 0]);
    const t = x.slice(0, 3), om = x.slice(3, 6);
    const move = t.map((ti, i) => ti + cross(om, wc)[i]);
    const got = step.wheel_center_displacement as number[], turn = step.wheel_rotation as number[];
    const scale = Math.hypot(...move), turnScale = Math.hypot(...om) / DEG;
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(got[i] - move[i])).toBeLessThan(1e-4 * scale);
      expect(Math.abs(turn[i] - om[i] / DEG)).toBeLessThan(1e-4 * turnScale);
    }
    // and the summary's exact lateral stiffness is the same linear response at the contact centre
    const contactY = t[1] + cross(om, c)[1];
    expect(Math.abs((run.summary as { lateral_stiffness: number }).lateral_stiffness - 1 / contactY) * contactY).toBeLessThan(1e-6);
  });

  it('work equals stored energy for a small load', () => {
    const s = stateAt(example('double_wishbone.yaml') + dwCompliance(), 0);
    const F: [number, number, number] = [4, 10, 0];
    s.sm.model.system.restore(s.rigid);
    s.state.setLoad(0, { force: F, moment: [0, 0, 0], at: 'contact_patch' });
    s.state.placeLoads();
    const before = s.state.loadPointNow(0);
    expect(s.state.settle(false).status).toBe('solved');
    const after = s.state.loadPointNow(0);
    const work = 0.5 * F.reduce((acc, f, i) => acc + f * (after[i] - before[i]), 0);
    const report = s.state.loads();
    const rates: Record<string, [number, number, number, number]> = { // axial, radial, torsional, conical
      lower_wishbone_inboard_front: [1600, 8000, 0, 2000], lower_wishbone_inboard_rear: [800, 4000, 0, 1000],
      upper_wishbone_inboard_front: [1000, 5000, 0, 0], upper_wishbone_inboard_rear: [1000, 5000, 0, 0],
    };
    let energy = 0;
    for (const [pickup, b] of Object.entries(report.bushings as Record<string, { translation: number[]; rotation: number[] }>)) {
      const [ka, kr, kt, kc] = rates[pickup];
      const [t, r] = [b.translation, b.rotation];
      energy += 0.5 * (ka * t[0] ** 2 + kr * t[1] ** 2 + kr * t[2] ** 2) + 0.5 * DEG * (kt * r[0] ** 2 + kc * r[1] ** 2 + kc * r[2] ** 2);
    }
    energy += report.links.trackrod ** 2 / (2 * 30000);
    expect(work).toBeGreaterThan(0);
    expect(Math.abs(work - energy) / work).toBeLessThan(1e-4);
  });
});
