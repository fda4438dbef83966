/**
 * driveSteps keeps a generator's behaviour (session 14 made it an iterator over a generator
 * of the steps, src/model/operations.ts): nothing runs before the first `next`, a start
 * that throws ends the drive, a drive closed before its first step runs nothing, and
 * closing it mid-way (a for-of's break) ends it.
 */
import { describe, expect, it } from 'vitest';
import { validateAssembly } from '../../src/assembly';
import { buildModel } from '../../src/model/build';
import { driveSteps } from '../../src/model/operations';
import { fourBarDoc } from '../../examples/fourbar';
import { ArgumentError } from '../../kernel/errors';

const fourBar = () => buildModel(validateAssembly(fourBarDoc(30)));
/** The four-bar, its `system.hold` counting its calls (the drive's start holds the coordinate). */
function countingHolds() {
  const model = fourBar();
  const holds = { count: 0 };
  const hold = model.system.hold.bind(model.system);
  model.system.hold = (v) => { holds.count++; hold(v); };
  return { model, holds };
}

describe('driveSteps', () => {
  it('runs nothing before the first next: the coordinate is held only then, and the first state is the start', () => {
    const { model, holds } = countingHolds();
    const drive = driveSteps(model, 'jA.angle', 30, 40, 10);
    expect(holds.count).toBe(0);
    const first = drive.next();
    expect(holds.count).toBe(1);
    expect(first.done).toBe(false);
    expect(first.value).toMatchObject({ value: 30, status: 'solved' });
    const rest = [...drive];
    expect(rest.map((s) => s.value)).toEqual([31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
    expect(rest.every((s) => s.status === 'solved')).toBe(true);
    expect(drive.next()).toEqual({ value: undefined, done: true });
  });

  it('throws a bad step count at the first next, not at the call, and is then done', () => {
    const model = fourBar();
    const drive = driveSteps(model, 'jA.angle', 30, 40, -1);
    expect(() => drive.next()).toThrow(ArgumentError);
    expect(drive.next()).toEqual({ value: undefined, done: true });
  });

  it('closed before its first step runs nothing; closed mid-way (break) it is done', () => {
    const { model, holds } = countingHolds();
    const closed = driveSteps(model, 'jA.angle', 30, 40, 10);
    expect(closed.return(undefined)).toEqual({ value: undefined, done: true });
    expect(closed.next()).toEqual({ value: undefined, done: true });
    expect(holds.count).toBe(0);
    const drive = driveSteps(model, 'jA.angle', 30, 40, 10);
    const seen: number[] = [];
    for (const step of drive) {
      seen.push(step.value);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual([30, 31, 32]);
    expect(drive.next()).toEqual({ value: undefined, done: true });
  });
});
