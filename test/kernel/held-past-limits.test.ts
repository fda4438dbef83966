/**
 * System.heldPastLimits reads the holds from a list kept beside the map (session 14: an
 * indexed loop instead of the map's iterator, docs/solver-warm-up.md): the list must follow
 * every hold and release, in the order the holds were made, as the map's iteration did.
 */
import { describe, expect, it } from 'vitest';
import { System } from '../../kernel/system';

describe('System.heldPastLimits', () => {
  it('names the held coordinates past their limits in hold order, through releases and holds again', () => {
    const system = new System(1);
    const a = system.addScalar('a', 0.5, { limits: [0, 1] });
    const b = system.addScalar('b', 0.5, { limits: [0, 1] });
    const c = system.addScalar('c', 0.5, { limits: [0, 1] });
    const free = system.addScalar('free', 5);
    expect(system.heldPastLimits(0)).toBeNull();
    system.hold(c, 2); // past its upper limit
    system.hold(free, 9); // no limits: never named
    system.hold(a, -1); // past its lower limit
    system.hold(b, 0.25); // within
    expect(system.heldPastLimits(0)).toEqual(['c', 'a']);
    system.setScalar(b, 3);
    expect(system.heldPastLimits(0)).toEqual(['c', 'a', 'b']);
    system.release(a);
    expect(system.heldPastLimits(0)).toEqual(['c', 'b']);
    system.release(a); // not held: nothing changes
    expect(system.heldPastLimits(0)).toEqual(['c', 'b']);
    system.hold(a, 1.5);
    expect(system.heldPastLimits(0)).toEqual(['c', 'b', 'a']);
    // a tolerance (a length, divided by the scale) lets a hold just past its limit pass
    expect(system.heldPastLimits(0.6)).toEqual(['c', 'b']);
    system.release(c);
    system.release(b);
    system.release(free);
    expect(system.heldPastLimits(0)).toEqual(['a']);
  });
});
