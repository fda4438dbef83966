/**
 * The groups' column map (kernel/solver/groups.ts colMapOf): one map shared by every group
 * of a structure (a map per group cost groups × variables: 2000 chains of 10 links held
 * 320 MB), each group's vars at their own columns, fixed vars at −1; a drag of one chain
 * among many still moves that chain alone.
 */
import { describe, expect, it } from 'vitest';
import { groupsOf } from '../../../kernel/solver/solve';
import { colMapOf } from '../../../kernel/solver/groups';
import { solve } from '../../../kernel/solver/solve';
import * as P from '../../../kernel/pose';
import { buildModel } from '../../../src/model/build';
import { validateAssembly } from '../../../src/assembly';
import { manyChainsDoc } from '../../../bench/models';

describe('group column maps', () => {
  it('one map per structure, each group at its own columns', () => {
    const model = buildModel(validateAssembly(manyChainsDoc(30, 4, 0.1)));
    const system = model.system;
    const { groups } = groupsOf(system);
    expect(groups.length).toBe(30);
    const first = colMapOf(system, groups[0]);
    for (const g of groups) {
      const map = colMapOf(system, g);
      expect(map).toBe(first);
      g.vars.forEach((v, i) => expect(map[v]).toBe(g.cols[i]));
    }
    for (const v of system.variables) if (v.fixed) expect(first[v.id]).toBe(-1);
  });

  it('a drag among many chains moves the pulled chain only, and reaches toward its target', () => {
    const model = buildModel(validateAssembly(manyChainsDoc(30, 4, 0.1)));
    const system = model.system;
    solve(system);
    const before = system.snapshot();
    const tip = model.parts.get('g15_link4')!;
    const p = P.applyPoint(new Float64Array(3), system.getPose(tip), [1, 0, 0]);
    const target = [p[0] - 0.2, p[1] + 0.3, 0];
    const report = solve(system, { pulls: [{ variable: tip, point: [1, 0, 0], target }] });
    expect(report.converged).toBe(true);
    const q = P.applyPoint(new Float64Array(3), system.getPose(tip), [1, 0, 0]);
    expect(Math.hypot(q[0] - target[0], q[1] - target[1])).toBeLessThan(Math.hypot(p[0] - target[0], p[1] - target[1]));
    for (const v of system.variables) {
      const moved = [0, 1, 2, 3, 4, 5, 6].slice(0, v.kind === 'pose' ? 7 : 1).some((k) => system.state[v.offset + k] !== before[v.offset + k]);
      expect(moved, v.name).toBe(v.name.startsWith('g15_'));
    }
  });
});
