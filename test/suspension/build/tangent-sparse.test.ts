/**
 * The sparse tangent route (kernel/tangent-sparse.ts) on the suspension topologies: the
 * derivative tangent (hub heights and rack) and the steering tangent (rack and the layout
 * holds) equal the dense QR route to 1e-12 at states along a sweep, and the large axles
 * take the sparse route by default.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { SPARSE_TANGENT_MIN_UNKNOWNS, tangentSpace, type TangentSpace } from '../../../kernel/analysis';
import type { ResidualBlock } from '../../../kernel/system';

const examples = new URL('../../../examples/suspension/', import.meta.url);
const load = (file: string): SuspensionModel => new SuspensionModel(suspensionAssembly(parseGeometry(readFileSync(new URL(file, examples), 'utf8'))));

function targetSets(sm: SuspensionModel): ResidualBlock[][] {
  const derivative: ResidualBlock[] = sm.corners.map((c) => c.wheelCenterZ);
  if (sm.rackHold) derivative.push(sm.rackHold);
  const sets = [derivative];
  if (sm.rackHold) {
    const steering: ResidualBlock[] = [sm.rackHold];
    sm.corners.forEach((c, i) => {
      const id = c.roles.holds.default;
      if (typeof id === 'string') steering.push(...(sm.holdBlocks(i, id) ?? []));
    });
    sets.push(steering);
  }
  return sets;
}

/** Largest |sparse − dense| over the largest |dense| entry, over every rate of a tangent. */
function relativeDifference(sparse: TangentSpace, dense: TangentSpace): number {
  let worst = 0;
  dense.rates.forEach((d, j) => {
    const s = sparse.rates[j]!;
    let largest = 0, diff = 0;
    for (let i = 0; i < d!.length; i++) { largest = Math.max(largest, Math.abs(d![i])); diff = Math.max(diff, Math.abs(d![i] - s[i])); }
    worst = Math.max(worst, diff / largest);
  });
  return worst;
}

const CASES: [string, 'bump' | 'roll' | 'steer', string][] = [
  ['double_wishbone_axle_u_bar.yaml', 'roll', '-3:3:4'],
  ['double_wishbone_axle_u_bar.yaml', 'steer', '-20:20:3'],
  ['double_wishbone_axle_t_bar.yaml', 'bump', '-40:40:3'],
  ['double_wishbone_axle_heave_link.yaml', 'roll', '-3:3:3'],
  ['double_wishbone_axle.yaml', 'roll', '-3:3:3'],
  ['double_wishbone.yaml', 'bump', '-50:50:3'],
  ['double_wishbone_pushrod.yaml', 'bump', '-50:50:3'],
  ['macpherson.yaml', 'steer', '-20:20:3'],
  ['multi_link.yaml', 'bump', '-40:40:3'],
  ['solid_axle_watts.yaml', 'roll', '-3:3:3'],
  ['semi_trailing_arm_axle.yaml', 'bump', '-40:40:3'],
];

describe('sparse tangent on the suspension topologies', () => {
  for (const [file, kind, range] of CASES) {
    it(`${file}, ${kind} ${range}: equals the dense route to 1e-12`, () => {
      const sm = load(file);
      const system = sm.model.system;
      let states = 0;
      runSweep(sm, sweepFromShortcut(kind, range), {
        noSteering: true,
        onSolvedState: () => {
          states++;
          for (const targets of targetSets(sm)) {
            const dense = tangentSpace(system, targets, { route: 'dense' });
            const sparse = tangentSpace(system, targets, { route: 'sparse' });
            expect(dense.status).toBe('unique');
            expect(sparse.route).toBe('sparse');
            expect(sparse.mobility).toBe(dense.mobility);
            expect(sparse.targetRank).toBe(dense.targetRank);
            expect(relativeDifference(sparse, dense)).toBeLessThan(1e-12);
            for (let j = 0; j < targets.length; j++) expect(Math.abs(sparse.projectionRatios[j] - dense.projectionRatios[j])).toBeLessThan(1e-12);
          }
        },
      });
      expect(states).toBeGreaterThan(1);
    });
  }

  it('the axle with a U-bar takes the sparse route by default, a corner the dense one', () => {
    const axle = load('double_wishbone_axle_u_bar.yaml');
    runSweep(axle, sweepFromShortcut('roll', '1:1:1'), { noSteering: true });
    const [targets] = targetSets(axle);
    const tangent = tangentSpace(axle.model.system, targets);
    expect(tangent.size).toBeGreaterThan(SPARSE_TANGENT_MIN_UNKNOWNS);
    expect(tangent.route).toBe('sparse');
    const corner = load('multi_link.yaml');
    runSweep(corner, sweepFromShortcut('bump', '10:10:1'), { noSteering: true });
    expect(tangentSpace(corner.model.system, targetSets(corner)[0]).route).toBe('dense');
  });
});
