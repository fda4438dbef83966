/**
 * A continuation keeps its states in its own buffers: a drive of many sub-steps takes no
 * state copy per sub-step (it took two: the accepted state and the secant's prediction),
 * and the states it moves through are those of a fresh continuation started anywhere on
 * the way (no buffer is overwritten while it is still read).
 */
import { describe, expect, it } from 'vitest';
import { Continuation, secantRatio, secantStep } from '../../kernel/continuation';
import { solve } from '../../kernel/solver/solve';
import { validateAssembly } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { fourBarDoc } from '../../examples/fourbar';

function fourBar() {
  const model = buildModel(validateAssembly(fourBarDoc(30)));
  const jA = model.coordinates.get('jA.angle')!.variable;
  const system = model.system;
  const path = new Continuation(system, (values) => system.setScalar(jA, values[0]), [system.getScalar(jA)]);
  return { system, jA, path };
}

describe('continuation buffers', () => {
  it('a 120-step drive makes no state snapshot per sub-step', () => {
    const { system, path } = fourBar();
    let snapshots = 0;
    const snapshot = system.snapshot.bind(system);
    system.snapshot = () => { snapshots++; return snapshot(); };
    const start = path.value(0);
    for (let i = 1; i <= 120; i++) expect(path.moveTo([start + (i * Math.PI) / 180]).status).toBe('reached');
    expect(snapshots).toBeLessThanOrEqual(3);
  });

  it('each sub-step starts from the secant of the last two accepted states (copies kept apart), bit for bit', () => {
    const { system, jA } = fourBar();
    const other = fourBar();
    const accepted: Float64Array[] = [];
    let seen: Float64Array | null = null;
    const path = new Continuation(system, (values) => system.setScalar(jA, values[0]), [system.getScalar(jA)], {
      correct: () => { seen ??= system.snapshot(); return solve(system); },
    });
    const start = path.value(0);
    const value = (i: number) => (i === 0 ? start : start + (i * 2 * Math.PI) / 180);
    accepted.push(path.state);
    for (let i = 1; i <= 8; i++) {
      seen = null;
      expect(path.moveTo([value(i)]).status).toBe('reached');
      if (i >= 2) {
        // what the secant of the two states accepted before this move predicts
        secantStep(other.system, accepted[i - 2], accepted[i - 1], secantRatio([value(i - 2)], [value(i - 1)], [value(i)])!);
        other.system.setScalar(other.jA, value(i));
        expect(Array.from(seen!)).toEqual(Array.from(other.system.state.subarray(0, seen!.length)));
      }
      accepted.push(path.state);
    }
  });
});
