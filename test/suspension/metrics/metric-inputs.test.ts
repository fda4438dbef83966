/**
 * A state's evaluation seeds one dual per point and hands the same dual to every metric that
 * names the point (the corner's metrics, instant axis, damper, rocker, devices): no metric may
 * write into its inputs. Checked over full sweeps of examples with every kind of device.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseGeometry, sweepFromShortcut } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { validateAssembly } from '../../../src/assembly';
import { SuspensionModel } from '../../../src/suspension/build/model';
import { runSweep } from '../../../src/suspension/sweep/sweep';
import type { DualVec3 } from '../../../kernel/dual';

const load = (name: string) => new SuspensionModel(validateAssembly(suspensionAssembly(parseGeometry(readFileSync(`examples/suspension/${name}.yaml`, 'utf8')))));

describe('metric inputs', () => {
  const cases: [string, 'bump' | 'roll', string][] = [
    ['double_wishbone', 'bump', '-30:30:3'],
    ['double_wishbone_axle_u_bar', 'roll', '-2:2:3'],
    ['double_wishbone_axle_t_bar', 'roll', '-2:2:3'],
    ['double_wishbone_axle_heave_link', 'bump', '-20:20:3'],
    ['trailing_arm_torsion_bar', 'bump', '-20:20:3'],
    ['solid_axle_panhard', 'roll', '-2:2:3'],
    ['macpherson', 'bump', '-30:30:3'],
  ];
  for (const [name, kind, range] of cases) {
    it(`are left as seeded through every metric: ${name}`, () => {
      const sm = load(name);
      const seeded: { dual: DualVec3; v: number[]; d: number[] }[] = [];
      const pointDual = sm.pointDual.bind(sm);
      sm.pointDual = (...args: Parameters<SuspensionModel['pointDual']>) => {
        const dual = pointDual(...args);
        seeded.push({ dual, v: Array.from(dual.v), d: Array.from(dual.d) });
        return dual;
      };
      let states = 0;
      runSweep(sm, sweepFromShortcut(kind, range), {
        onSolvedState: () => {
          // the points the metrics read (a corner's others are positions only, no dual): 9 or more
          expect(seeded.length).toBeGreaterThan(8);
          for (const s of seeded) {
            expect(Array.from(s.dual.v)).toEqual(s.v);
            expect(Array.from(s.dual.d)).toEqual(s.d);
          }
          // derivatives were seeded (a sweep's state has its hub-z and rack rates)
          expect(seeded.some((s) => s.d.some((x) => x !== 0))).toBe(true);
          seeded.length = 0;
          states++;
        },
      });
      expect(states).toBe(3);
    });
  }
});
