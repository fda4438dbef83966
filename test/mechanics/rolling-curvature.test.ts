/**
 * The rolling contact's second derivatives (tangent mode, mates/rolling.ts curveAlongS): the
 * derivative of each Jacobian entry of the wheel-on-curve rows along a direction of the
 * state, against central differences of the Jacobian itself, entry by entry. Directions
 * taken one at a time — the contact's arc length alone (the track's curvature terms: C'',
 * C''' and d(du/ds)/ds), the wheel's twist alone, the track's twist alone — and all together;
 * at points in the pinewood track's easement (curvature up to 5e-4 /mm), on its ramp and on
 * the flat.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withTangents } from '../../kernel/dual';
import { retract } from '../../kernel/pose';
import { RollingOnCurveBlock } from '../../mates/rolling';
import { buildDynamics } from '../../src/mechanics/build';
import { wheelOnTrack } from '../mates/rolling-models';

const doc = JSON.parse(readFileSync(new URL('../../examples/pinewood.kinemate.json', import.meta.url), 'utf8'));

const bumpy = wheelOnTrack({
  radius: 15, centre: [60, 30],
  // uneven spacing (the speed |C'| varies along a span: d(du/ds)/ds matters) and tight bumps (C''' matters)
  track: { points: [[0, 0], [40, 5], [150, -10], [170, 12], [320, 0], [350, 30], [500, -5], [520, 0]] },
});

for (const [model, file, positions] of [
  // the easement (curvature 8e-5 … 5e-4 /mm), the straight ramp, the flat
  ['the pinewood track', doc, [2250, 2500, 2760, 3000, 3250, 1000, 6000]],
  ['a bumpy, unevenly spaced spline', bumpy, [30, 80, 160, 220, 330, 400, 505]],
] as const) describe(`rolling on a curve (${model}): exact second derivatives along the track`, () => {
  const dyn = buildDynamics(file as never), sys = dyn.system;
  const b = [...Array(sys.blockCount).keys()].find((i) => sys.block(i) instanceof RollingOnCurveBlock)!;
  const blk = sys.block(b) as RollingOnCurveBlock, offsets = sys.blockOffsets(b);
  const ws = blk.wheelSide, wheelOff = offsets[ws], trackOff = offsets[1 - ws], uOff = offsets[2];
  const wheelCol = 6 * ws, trackCol = 6 * (1 - ws), sCol = 12;
  const rows = blk.rows, n = 13;
  const res = new Float64Array(rows), jac = new Float64Array(rows * n);

  /** A state with the contact at arc length s and the wheel's centre just off the track there (rows near, not at, zero). */
  const stateAt = (s: number) => {
    const st = Float64Array.from(sys.state);
    const e = blk.track.curve.evaluate(new Float64Array(12), blk.track.parameterAt(s));
    const l = Math.hypot(e[3], e[5]);
    const nx = -e[5] / l, nz = e[3] / l; // the track lies in x–z, the wheel above it
    st[uOff] = s + 0.2;
    st[wheelOff] = e[0] + (blk.radius + 0.3) * nx + 0.1; st[wheelOff + 2] = e[2] + (blk.radius + 0.3) * nz;
    return st;
  };
  const jacobianAt = (st: Float64Array) => { blk.evaluate(st, offsets, res, jac); return Float64Array.from(jac); };
  const moved = (st: Float64Array, dir: Dir, eps: number) => {
    const out = Float64Array.from(st);
    retract(out, out, dir.wheel.map((x) => x * eps), wheelOff, wheelOff);
    retract(out, out, dir.track.map((x) => x * eps), trackOff, trackOff);
    out[uOff] += eps * dir.s;
    return out;
  };
  interface Dir { wheel: number[]; track: number[]; s: number }
  const zero = [0, 0, 0, 0, 0, 0];
  // turns scaled so that each moves the contact about as far as the shifts (the track's origin is metres away)
  const wheel = [0.03, -0.08, 0.02, 0.6, -0.4, 0.9], track = [-2e-4, 5e-4, 1e-4, 0.7, 0.3, -0.5];
  const dirs: Record<string, Dir> = {
    'the arc length': { wheel: zero, track: zero, s: 1 },
    'the wheel\'s twist': { wheel, track: zero, s: 0 },
    'the track\'s twist': { wheel: zero, track, s: 0 },
    'all at once': { wheel, track, s: 1.3 },
  };

  for (const [label, dir] of Object.entries(dirs)) {
    it(`along ${label}: every Jacobian entry's derivative equals central differences of the Jacobian`, () => {
      let curvatureSeen = 0;
      for (const s0 of positions) {
        const u = blk.track.parameterAt(s0);
        const s = blk.track.arcLength(Math.floor(u) + 0.5); // mid-span, away from the spline's knots
        const st = stateAt(s);
        const tangent = withTangents({
          pose: (col) => (col === wheelCol ? dir.wheel : col === trackCol ? dir.track : null),
          local: () => null,
          scalar: (col) => (col === sCol ? dir.s : 0),
        }, () => { blk.evaluate(st, offsets, res, jac); return blk.duals().map((d) => ({ v: d.t!.v, d: Float64Array.from(d.t!.d) })); });
        const eps = 1e-4, jp = jacobianAt(moved(st, dir, eps)), jm = jacobianAt(moved(st, dir, -eps)), j0 = jacobianAt(st);
        for (let r = 0; r < rows; r++) {
          const scale = Math.max(1, ...Array.from(j0.subarray(r * n, r * n + n), Math.abs));
          // the value's tangent: the Jacobian along the direction (first order)
          let along = 0;
          for (let k = 0; k < 6; k++) along += j0[r * n + wheelCol + k] * dir.wheel[k] + j0[r * n + trackCol + k] * dir.track[k];
          along += j0[r * n + sCol] * dir.s;
          expect(Math.abs(tangent[r].v - along)).toBeLessThan(1e-9 * scale);
          for (let k = 0; k < n; k++) {
            const fd = (jp[r * n + k] - jm[r * n + k]) / (2 * eps);
            expect(Math.abs(tangent[r].d[k] - fd), `row ${r} column ${k} at s = ${s.toFixed(1)}`).toBeLessThan(1e-6 * scale);
            if (k === sCol && dir.s !== 0 && r === 1) curvatureSeen = Math.max(curvatureSeen, Math.abs(fd));
          }
        }
      }
      // the normal row's s column changes with s only through the curvature: seen well above the tolerance
      if (dir.s !== 0) expect(curvatureSeen).toBeGreaterThan(1e-4);
    });
  }
});
