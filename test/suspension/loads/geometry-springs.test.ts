/** Springs from suspension geometry files: rates and free lengths become force elements; motion ratio and wheel rate on the generated corner. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../../src/assembly/load';
import { buildDynamics } from '../../../src/mechanics/build';
import { suspensionRates } from '../../../src/suspension/loads/rates';
import { parseGeometry, SuspensionFileError } from '../../../src/suspension/files';
import { suspensionAssembly } from '../../../src/suspension/build/template';
import { solveModel } from '../../../src/model/operations';
import * as P from '../../../kernel/pose';

const pushrod = readFileSync('examples/suspension/double_wishbone_pushrod.yaml', 'utf8');
const withSpring = (spring: string) => pushrod.replace('spring: { type: coilover }', `spring: ${spring}`);

describe('springs from geometry files', () => {
  it('a coilover rate becomes a spring between strut_top and strut_bottom (free at design unless given)', () => {
    const doc = validateAssembly(suspensionAssembly(parseGeometry(withSpring('{ type: coilover, rate: 90, preload: 200 }'))));
    expect(doc.forces).toEqual({ spring: { type: 'spring', a: 'chassis.strut_top', b: 'rocker.strut_bottom', stiffness: 90, length: Math.hypot(0, 150, 30), preload: 200 } });
    const plain = validateAssembly(suspensionAssembly(parseGeometry(pushrod)));
    expect(plain.forces).toBeUndefined();
  });

  it('bad spring fields are named', () => {
    for (const [spring, path] of [['{ type: coilover, rate: -3 }', 'spring.rate'], ['{ type: coilover, free_length: 100 }', 'spring.free_length'], ['{ type: coilover, rate: 3, stiffness: 4 }', 'spring.stiffness']]) {
      let error: unknown;
      try { parseGeometry(withSpring(spring)); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(SuspensionFileError);
      expect((error as Error).message).toContain(path);
    }
  });

  it('pushrod corner: motion ratio equals central differences of a sweep, wheel rate k·MR² with the spring at its free length', () => {
    const doc = validateAssembly({ ...suspensionAssembly(parseGeometry(withSpring('{ type: coilover, rate: 90 }'))), held: ['rack_slide.slide'] });
    const dyn = buildDynamics(doc);
    solveModel(dyn.model);
    const rates = suspensionRates(dyn, 'upright.axle_outboard', { spring: 'spring' });
    const sweep = buildDynamics(doc);
    const at = (angle: number) => {
      solveModel(sweep.model, { set: { 'lower_hinge.angle': angle }, hold: ['lower_hinge.angle'] });
      const s = sweep.system;
      const top = P.applyPoint(new Float64Array(3), s.getPose('chassis'), [0, 150, 500]);
      const bottom = P.applyPoint(new Float64Array(3), s.getPose('rocker'), [0, 300, 470]);
      const z = P.applyPoint(new Float64Array(3), s.getPose('upright'), [-20, 950, 313.426])[2];
      return { l: Math.hypot(top[0] - bottom[0], top[1] - bottom[1], top[2] - bottom[2]), z };
    };
    const h = 0.01, p = at(h), m = at(-h);
    const mr = (p.l - m.l) / (p.z - m.z);
    expect(rates.motionRatio! / mr - 1).toBeCloseTo(0, 5);
    expect(Math.abs(rates.motionRatio!)).toBeGreaterThan(0.1);
    expect(rates.wheelRate).toBeCloseTo(90 * rates.motionRatio! ** 2, 9);
  });
});
