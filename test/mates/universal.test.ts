/**
 * The universal joint as CAD users expect it (Onshape's convention): the shafts are the
 * two frames' z axes, the cross's pins are a's x axis and b's y axis, and two frames placed
 * together with the same orientation are an assembled joint with 2 degrees of freedom.
 * Checked against the Cardan joint's closed form through a driven turn.
 */
import { describe, expect, it } from 'vitest';
import { axesFromZX, quatFromAxes, type V3 } from '../../examples/mechanisms/geometry';
import { validateAssembly, type AssemblyDoc } from '../../src/assembly/index.ts';
import { buildModel, dofModel, driveModel, solveModel } from '../../src/index.ts';

const frame = (origin: V3, z: V3, x: V3) => ({ origin, rotation: quatFromAxes(axesFromZX(z, x)) });

describe('universal between two frames placed together', () => {
  for (const rotation of [[1, 0, 0, 0], [0.9, 0.1, -0.2, 0.3]]) {
    it(`solves where it stands with 2 DOF, neither redundant nor conflicting (frame rotation ${rotation.join(', ')})`, () => {
      const f = { origin: [10, -20, 5], rotation };
      const doc = validateAssembly({
        format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
        parts: {
          ground: { fixed: true, pose: { position: [0, 0, 0], rotation: [1, 0, 0, 0] }, frames: { u: f } },
          shaft: { pose: { position: [3, 4, -2], rotation: [0.8, 0.6, 0, 0] }, frames: { u: f } },
        },
        mates: { cross: { type: 'universal', a: 'ground.u', b: 'shaft.u' } },
      });
      // the shaft's frame placed on the ground's: its pose is the ground's
      const placed = { ...doc, parts: { ...doc.parts, shaft: { ...doc.parts.shaft, pose: { position: [0, 0, 0] as [number, number, number], rotation: [1, 0, 0, 0] as [number, number, number, number] } } } };
      const model = buildModel(placed);
      const solved = solveModel(model);
      expect(solved.status).toBe('solved');
      expect(solved.iterations).toBe(0);
      expect(solved.redundant).toEqual([]);
      expect(solved.conflicting).toEqual([]);
      const dof = dofModel(model);
      expect(dof.dof).toBe(2);
      expect(dof.parts.shaft).toBe(2);
      // from a pose away from it, the shaft is pulled onto the joint and still turns 2 ways
      const far = buildModel(doc);
      expect(solveModel(far).status).toBe('solved');
      expect(dofModel(far).dof).toBe(2);
    });
  }
});

/**
 * A Cardan joint at a bend β: the input shaft on world x, the output shaft at β from it in
 * the xy plane, both on revolutes to the ground, joined by a universal whose frames are
 * placed together. The input pin (a's x) starts in the shafts' plane, so the output angle
 * is tan θ₂ = tan θ₁ / cos β.
 */
function cardanDoc(betaDeg: number): AssemblyDoc {
  const b = (betaDeg * Math.PI) / 180;
  const input: V3 = [1, 0, 0], output: V3 = [Math.cos(b), Math.sin(b), 0], O: V3 = [0, 0, 0];
  const still = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
  return validateAssembly({
    format: 'kinemate.assembly/1', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: still, frames: { in: frame(O, input, [0, 1, 0]), out: frame(O, output, [0, 0, 1]) } },
      input: { pose: still, frames: { bearing: frame(O, input, [0, 1, 0]), yoke: frame(O, input, [0, 1, 0]) } },
      // the output yoke: z the shaft, y the pin (world z at the start), x = y × z
      output: { pose: still, frames: { bearing: frame(O, output, [0, 0, 1]), yoke: frame(O, output, [-Math.sin(b), Math.cos(b), 0]) } },
    },
    mates: {
      j1: { type: 'revolute', a: 'ground.in', b: 'input.bearing' },
      j2: { type: 'revolute', a: 'ground.out', b: 'output.bearing' },
      cross: { type: 'universal', a: 'input.yoke', b: 'output.yoke' },
    },
    held: ['j1.angle'],
  });
}

describe('a Cardan joint through a driven turn', () => {
  for (const beta of [20, 45]) {
    it(`follows tan θ₂ = tan θ₁ / cos β at β = ${beta}° for a whole turn of the input`, () => {
      const model = buildModel(cardanDoc(beta));
      expect(dofModel(model).dof).toBe(1);
      const turn = driveModel(model, 'j1.angle', 0, 360, 72);
      expect(turn.steps.map((s) => s.status).every((s) => s === 'solved')).toBe(true);
      const cb = Math.cos((beta * Math.PI) / 180);
      let worst = 0, maxLead = 0;
      for (const step of turn.steps) {
        const t1 = ((step.state['j1.angle'] as number) * Math.PI) / 180;
        const t2 = ((step.state['j2.angle'] as number) * Math.PI) / 180;
        // the closed form as a residual that holds on every quadrant: sin θ₂ cos θ₁ cos β = cos θ₂ sin θ₁, on the same branch
        const expected = Math.atan2(Math.sin(t1), Math.cos(t1) * cb);
        const wrapped = Math.atan2(Math.sin(t2 - expected), Math.cos(t2 - expected));
        worst = Math.max(worst, Math.abs(wrapped));
        maxLead = Math.max(maxLead, Math.abs(t2 - t1));
      }
      expect(worst).toBeLessThan(1e-9);
      // the output really runs unevenly (a straight joint would not): its lead over the
      // input peaks at atan((1 − cos β) / (2 √cos β)), a few degrees at these bends
      expect(maxLead).toBeGreaterThan(0.5 * Math.atan((1 - cb) / (2 * Math.sqrt(cb))));
      // a whole turn in is a whole turn out
      expect(turn.steps.at(-1)!.state['j2.angle'] as number).toBeCloseTo(360, 6);
    });
  }
});
