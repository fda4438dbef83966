/**
 * A two-force link's reaction stiffness in closed form (mates/tension-stiffness.ts)
 * against the dual pass of a PointToPointForce with a constant law (what reduce() ran per
 * link before): random non-unit poses and points, both parts free and either fixed; and the
 * DW corner's rates take no dual pass for their three links, nor since for the spring (its K
 * in closed form too: test/mates/closed-stiffness.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';
import * as P from '../../kernel/pose';
import { PointToPointForce } from '../../mates/forces';
import type { Law } from '../../mates/law';
import { addTensionStiffness } from '../../mates/tension-stiffness';
import { parseAssembly } from '../../src/assembly/load';
import { buildDynamics } from '../../src/mechanics/build';
import { equilibrium } from '../../src/mechanics/equilibrium';
import { reactionsHere } from '../../src/mechanics/statics';
import { suspensionRates } from '../../src/suspension/loads/rates';
import { rng } from '../util/rng';
import { between, quat, vec } from '../util/random-pose';

const constant = (T: number): Law => ({ evaluate: (_x, out) => { out[0] = T; out[1] = 0; return out; } });

describe('constant tension stiffness in closed form', () => {
  it('is the dual pass of a constant-law point-to-point force (random poses; either part fixed)', () => {
    for (let k = 0; k < 30; k++) {
      const r = rng(9100 + 13 * k);
      const system = new System(100);
      const a = system.addPose('A', P.pose(vec(r, 200), quat(r)));
      const b = system.addPose('B', P.pose(vec(r, 200), quat(r)));
      const pa = vec(r, 50), pb = vec(r, 50), T = between(r, -3000, 3000);
      const offsets = Int32Array.of(system.variables[a].offset, system.variables[b].offset);
      const Kd = new Float64Array(144);
      new PointToPointForce('e', a, pa, b, pb, constant(T), null).evaluate(system.state, offsets, new Float64Array(12), 0, new Float64Array(12), Kd, null);
      // slots: both free, a fixed, b fixed (the fixed part's rows and columns stay zero)
      for (const [ca, cb] of [[0, 6], [-1, 0], [0, -1]] as const) {
        const n = ca >= 0 && cb >= 0 ? 12 : 6;
        const K = new Float64Array(n * n);
        addTensionStiffness(K, n, system.state, T, offsets[0], ca, pa, offsets[1], cb, pb);
        const scale = Math.max(...Kd.map(Math.abs));
        expect(scale).toBeGreaterThan(0);
        for (let i = 0; i < 12; i++) for (let j = 0; j < 12; j++) {
          const gi = i < 6 ? ca : cb, gj = j < 6 ? ca : cb;
          if (gi < 0 || gj < 0) continue;
          expect(Math.abs(K[(gi + (i % 6)) * n + gj + (j % 6)] - Kd[i * 12 + j]), `#${k} (${ca},${cb}) K[${i},${j}]`).toBeLessThanOrEqual(1e-12 * scale);
        }
      }
    }
  });

  it("the DW corner's rates run no dual pass: none for its three links nor its spring", () => {
    const dyn = buildDynamics(parseAssembly(readFileSync('examples/dw-corner-braking.kinemate.json', 'utf8')));
    expect(equilibrium(dyn).status).toBe('solved');
    reactionsHere(dyn);
    // compute is protected: the count goes through the prototype as a plain object
    const proto = PointToPointForce.prototype as unknown as { compute(this: unknown, ...args: unknown[]): void };
    const compute = proto.compute;
    let passes = 0;
    proto.compute = function (this: unknown, ...args: unknown[]) { passes++; return compute.apply(this, args); };
    try {
      suspensionRates(dyn, 'upright.contact', { spring: 'spring' });
    } finally {
      proto.compute = compute;
    }
    expect(passes).toBe(0);
  });
});
