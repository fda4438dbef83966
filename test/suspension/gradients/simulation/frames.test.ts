/**
 * `simulate GEOMETRY --gradient` by the hardpoints an anti-roll bar's bushing frames are built
 * along (src/suspension/gradients/simulation/frames.ts): the frame's turn against differences of the
 * built frame; every entry against central differences of whole re-runs (the number moved in
 * the read geometry, rebuilt, re-run) at two steps, to 1e-4 relative; adjoint = direct to
 * 1e-10; and the turn shown necessary: without it the same comparison fails.
 *
 * The runs start at design (`start: design`): a settled start's re-runs carry the
 * equilibrium's own 1e-7 balance tolerance, which is 1e-4 of these entries at δ = 1e-3 mm;
 * and at the symmetric rest the bar carries no moment, so the settled pose does not see its
 * frames' turn.
 * The two steps: 5e-3 s in `npm run test:fast`, 2.5e-3 s in the fine-steps project (test/gradients/steps.ts),
 * which runs only the tests checked at both steps.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeOnce, itOnce, stepsOf } from '../../../gradients/steps';
import { parseGeometry } from '../../../../src/suspension/files';
import { readSuspensionDynamics, suspensionDynamicsAssembly } from '../../../../src/suspension/dynamics/model';
import { geometryParameter, movedGeometrySource, type GeometrySource } from '../../../../src/suspension/gradients/simulation/geometry';
import { frameTurn } from '../../../../src/suspension/gradients/simulation/frames';
import type { CombinedParameter } from '../../../../src/gradients/run';
import type { HardpointParameter } from '../../../../src/gradients/parameters/hardpoints';
import { toMatrix } from '../../../../kernel/quat';
import { differences, directEqualsAdjoint, errors, withParameters, type Case, type Differences } from './geometry-fd';

/** An anti-roll bar axle as a dynamics geometry: upright and lower wishbone masses, a bump under the left wheel, at design. */
function barAxle(file: string, rate: number | null, height: number): GeometrySource {
  const geometry = parseGeometry(readFileSync(new URL(`../../../../${file}`, import.meta.url), 'utf8'), file);
  if (rate !== null) geometry.devices!.anti_roll_rate = rate;
  const side = (s: number) => ({
    upright: { mass: 20, centre: [-20, 950 * s, 300], inertia: [1e6, 1.5e6, 1e6] }, lower_wishbone: { mass: 3, centre: [0, 650 * s, 200], inertia: [1e5, 2e4, 1e5] },
  });
  const masses = Object.fromEntries([['left', 1], ['right', -1]].flatMap(([px, s]) => Object.entries(side(s as number)).map(([k, v]) => [`${px}_${k}`, v])));
  const spec = readSuspensionDynamics({ masses, tyre: { stiffness: 250 }, road: { left: { bump: { height, duration: 0.1, start: 0.0123 } } }, start: 'design' }, geometry, file);
  return { geometry, spec };
}

const U_BAR: Case = {
  source: barAxle('examples/suspension/double_wishbone_axle_u_bar_rates.yaml', null, 40),
  results: ['left_upright.wheel_centre.position.z@max', 'right_upright.wheel_centre.position.z@max', 'right_upright.wheel_centre.position.z'], duration: 0.1,
};
const U_NAMES = ['center.arb_u_bar_axis_a', 'center.arb_u_bar_axis_b'].flatMap((p) => ['x', 'y', 'z'].map((a) => `${p}.${a}`));
const D = 1e-3;
const fds = new Map<number, Differences>();
const uFd = (step: number) => { if (!fds.has(step)) fds.set(step, differences(U_BAR, U_NAMES, step, () => D)); return fds.get(step)!; };

describeOnce('a frame built along hardpoints: its turn', () => {
  it('the twist turns each axis as the built frame turns (central differences of Builder.frame, U-bar and T-bar)', () => {
    const tBar = barAxle('examples/suspension/double_wishbone_axle_t_bar.yaml', 30000, 10);
    const cases: [GeometrySource, string, string, string[]][] = [
      [U_BAR.source, 'left_arb_arm', 'arb_torsion', U_NAMES],
      [tBar, 't_bar', 'stem', ['center.arb_t_bar_pivot.y', 'center.arb_t_bar_pivot.z', 'left.droplink_t_bar.x', 'left.droplink_t_bar.z', 'right.droplink_t_bar.y']],
    ];
    let turned = 0;
    for (const [source, part, frame, names] of cases) {
      const doc = suspensionDynamicsAssembly(source.geometry, source.spec).doc;
      const axes = (s: GeometrySource) => toMatrix(new Float64Array(9), suspensionDynamicsAssembly(s.geometry, s.spec).doc.parts[part].frames![frame].rotation as unknown as number[]);
      for (const name of names) {
        const w = frameTurn(source.geometry, doc, part, frame, name)?.omega ?? [0, 0, 0];
        const R0 = axes(source), hi = axes(movedGeometrySource(source, name, 1e-5)!), lo = axes(movedGeometrySource(source, name, -1e-5)!);
        for (let j = 0; j < 3; j++) {
          const a = [R0[j], R0[3 + j], R0[6 + j]], rate = [w[1] * a[2] - w[2] * a[1], w[2] * a[0] - w[0] * a[2], w[0] * a[1] - w[1] * a[0]];
          for (let i = 0; i < 3; i++) expect(Math.abs(rate[i] - (hi[3 * i + j] - lo[3 * i + j]) / 2e-5), `${name} axis ${j}`).toBeLessThan(1e-9);
        }
        if (w.some((x) => x !== 0)) turned++;
      }
    }
    expect(turned).toBeGreaterThanOrEqual(6);
  });
});

describe('the U-bar\'s axis points (both arms\' bushing frames turn)', () => {
  for (const step of stepsOf(0.005, 0.0025)) {
    it(`every coordinate against re-runs, adjoint = direct (h = ${step})`, () => {
      const g = directEqualsAdjoint(U_BAR, U_NAMES, step);
      const err = errors(g, uFd(step));
      if (process.env.SHOW) console.log(JSON.stringify({ step, g, err }));
      err.forEach((row, r) => row.forEach((e, j) => expect(e, `${U_BAR.results[r]} / ${U_NAMES[j]}`).toBeLessThan(1e-4)));
    });
  }

  itOnce('the frames\' turn is exact but does not reach the motion: it only tips the bar\'s moment into the hinges', () => {
    const step = 0.005;
    const params = U_NAMES.map((n) => geometryParameter(U_BAR.source, n));
    // x and z of either end turn both arms' frames; y runs along the bar
    expect(params.map((p) => p.parts.filter(({ parameter: q }) => (q as HardpointParameter).frameTurn).length)).toEqual([2, 0, 2, 2, 0, 2]);
    // the arms turn only about the bar's axis, the frames' x: a turn ω of both frames keeps θ_x and (ω × x)·x = 0
    errors(withParameters(U_BAR, withoutTurn(params), step), uFd(step)).flat().forEach((e) => expect(e).toBeLessThan(1e-4));
  });
});

/** The parameters without the frames' turn (a frame that only turns dropped). */
const withoutTurn = (params: CombinedParameter[]): CombinedParameter[] => params.map((p) => ({
  ...p, parts: p.parts.filter(({ parameter: q }) => !((q as HardpointParameter).frameTurn && (q as HardpointParameter).still))
    .map(({ parameter: q, weight }) => ({ parameter: { ...q, frameTurn: undefined }, weight })),
}));

describeOnce('the T-bar\'s pivot and droplink ends (the stem frames on the chassis and the bar turn)', () => {
  const c: Case = { source: barAxle('examples/suspension/double_wishbone_axle_t_bar.yaml', 30000, 10), results: ['left_upright.wheel_centre.position.z@max', 'right_upright.wheel_centre.position.z@max'], duration: 0.1 };
  const names = ['center.arb_t_bar_pivot.x', 'center.arb_t_bar_pivot.z', 'left.droplink_t_bar.z', 'right.droplink_t_bar.x', 'right.droplink_t_bar.z'];
  it('against re-runs, adjoint = direct (h = 0.005); leaving out the stem\'s turn fails them', () => {
    const step = 0.005;
    // the stem's frames turn with the pivot's and the ends' z; the crossbar midpoint moves by half an end's move
    const params = names.map((n) => geometryParameter(c.source, n));
    expect(params.map((p) => p.parts.filter(({ parameter: q }) => (q as HardpointParameter).frameTurn).length)).toEqual([0, 2, 2, 0, 2]);
    expect(params[3].parts.find(({ parameter: q }) => (q as HardpointParameter).entity === 'crossbar_midpoint')?.weight).toBe(0.5);
    const fd = differences(c, names, step, () => D);
    const g = directEqualsAdjoint(c, names, step);
    const err = errors(g, fd), bad = errors(withParameters(c, withoutTurn(params), step), fd);
    if (process.env.SHOW) console.log(JSON.stringify({ g, err, bad }));
    err.forEach((row, r) => row.forEach((e, j) => expect(e, `${c.results[r]} / ${names[j]}`).toBeLessThan(1e-4)));
    // the stem turns the bar's stiff axis against the bar's roll: the left wheel's peak misses
    [1, 2, 4].forEach((j) => expect(bad[0][j], names[j]).toBeGreaterThan(1e-3));
  });
});
