import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TestScheduler } from 'rxjs/testing';
import {
  Observable,
  Subject,
  asapScheduler,
  defer,
  firstValueFrom,
  from,
  lastValueFrom,
  map,
  merge,
  observeOn,
  of,
  range,
  tap,
  throwError,
  timer,
  toArray,
  type SchedulerLike,
} from 'rxjs';
import {
  defaultFrameScheduler,
  lastGood,
  latestPerFrame,
  solveLatest,
  type SolveOutcome,
  type WithLastGood,
} from '../../src/reactive/scheduler.ts';

function testScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** 50 marble keys and the values 0..49 they stand for. */
const KEYS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX'.split('');
const VALUES: Record<string, number> = Object.fromEntries(KEYS.map((k, i) => [k, i]));

/** A solve that takes `frames` virtual frames and doubles its input; records its calls. */
function slowDouble(ts: SchedulerLike, frames: number, calls: number[]) {
  return (input: number): Observable<number> =>
    defer(() => {
      calls.push(input);
      return timer(frames, ts).pipe(map(() => input * 2));
    });
}

const ok = (input: number, output: number): SolveOutcome<number, number> => ({ kind: 'ok', input, output });

describe('latestPerFrame', () => {
  it('50 edits in one frame give one emission, the last value', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const edits = cold(`(${KEYS.join('')})`, VALUES);
      expectObservable(edits.pipe(latestPerFrame(ts))).toBe('x', { x: 49 });
    });
  });

  it('observeOn would pass all 50 (why auditTime and not observeOn)', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const edits = cold(`(${KEYS.join('')})`, VALUES);
      expectObservable(edits.pipe(observeOn(ts))).toBe(`(${KEYS.join('')})`, VALUES);
    });
  });

  it('emits once per frame that had edits, each time the newest', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const edits = cold('(abc)-d--(ef)|', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
      // A group "(abc)" is one frame (it takes 5 characters of the timeline).
      expectObservable(edits.pipe(latestPerFrame(ts))).toBe('c-----d--f---|', { c: 3, d: 4, f: 6 });
    });
  });

  it('leading: the first value of a quiet frame goes out at once, the newest of the rest when the frame comes', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const edits = cold('(abc)-d--(ef)|', { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 });
      expectObservable(edits.pipe(latestPerFrame(ts, { leading: true }))).toBe('(ac)--d--(ef)|', { a: 1, c: 3, d: 4, e: 5, f: 6 });
    });
  });

  it('leading: 50 edits in one frame give two emissions at most (the first and the last), never 50', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const edits = cold(`(${KEYS.join('')})`, VALUES);
      expectObservable(edits.pipe(latestPerFrame(ts, { leading: true }))).toBe('(ax)', { a: 0, x: 49 });
    });
  });

  it('50 edits in one frame through solveLatest give one solve, with the last value', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    ts.run(({ cold, expectObservable }) => {
      const edits = cold(`(${KEYS.join('')})`, VALUES);
      const solved = edits.pipe(latestPerFrame(ts), solveLatest(slowDouble(ts, 1, calls)));
      expectObservable(solved).toBe('-x', { x: ok(49, 98) });
    });
    expect(calls).toEqual([49]);
  });

  it('defaults to asapScheduler in Node (no requestAnimationFrame) and coalesces a synchronous burst', async () => {
    expect(typeof globalThis.requestAnimationFrame).toBe('undefined');
    expect(defaultFrameScheduler()).toBe(asapScheduler);
    const values = await lastValueFrom(range(0, 50).pipe(latestPerFrame(), toArray()));
    expect(values).toEqual([49]);
  });
});

describe('solveLatest', () => {
  it('a slow solve (5 frames) never queues: first input, then only the newest at each completion', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    ts.run(({ cold, expectObservable }) => {
      // One edit every frame for 20 frames (values 0..19).
      const edits = cold(KEYS.slice(0, 20).join(''), VALUES);
      const solve = (input: number) =>
        defer(() => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          return slowDouble(ts, 5, calls)(input).pipe(tap({ complete: () => inFlight-- }));
        });
      const solved = edits.pipe(latestPerFrame(ts), solveLatest(solve));
      expectObservable(solved).toBe('-----a----b----c----d----e', {
        a: ok(0, 0),
        b: ok(4, 8),
        c: ok(9, 18),
        d: ok(14, 28),
        e: ok(19, 38),
      });
    });
    // Completion at frame 5 comes before the frame's own edit is audited, so the newest
    // pending input then is 4; and so on. 20 edits, 5 solves, the last one the last edit.
    expect(calls).toEqual([0, 4, 9, 14, 19]);
    expect(maxInFlight).toBe(1);
  });

  it('an idle solver starts at once; a busy one keeps only the newest pending input', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    ts.run(({ hot, expectObservable }) => {
      const inputs = hot('a-bc--------e', { a: 1, b: 2, c: 3, e: 5 });
      const solved = inputs.pipe(solveLatest(slowDouble(ts, 4, calls)));
      // 1 starts at once (frame 0); 2 and 3 arrive while it runs: 3 replaces 2 and
      // starts when 1 ends (frame 4); 5 arrives while idle and starts at once (frame 12).
      expectObservable(solved).toBe('----a---b-------c', { a: ok(1, 2), b: ok(3, 6), c: ok(5, 10) });
    });
    expect(calls).toEqual([1, 3, 5]);
  });

  it('completes only after the solve in flight and the pending input are solved', () => {
    const ts = testScheduler();
    const calls: number[] = [];
    ts.run(({ cold, expectObservable }) => {
      const inputs = cold('abc|', { a: 1, b: 2, c: 3 });
      expectObservable(inputs.pipe(solveLatest(slowDouble(ts, 4, calls)))).toBe('----a---(b|)', {
        a: ok(1, 2),
        b: ok(3, 6),
      });
    });
    expect(calls).toEqual([1, 3]);
  });

  it('an erroring solve yields an error value and later solves still run', () => {
    const ts = testScheduler();
    const failure = new Error('singular Jacobian');
    ts.run(({ cold, expectObservable }) => {
      const inputs = cold('a-b-c-d', { a: 1, b: 2, c: 3, d: 4 });
      const solve = (input: number): Observable<number> => {
        if (input === 2) return throwError(() => failure);
        if (input === 3) throw new TypeError('thrown synchronously');
        return timer(1, ts).pipe(map(() => input * 10));
      };
      expectObservable(inputs.pipe(solveLatest(solve))).toBe('-ab-c--d', {
        a: ok(1, 10),
        b: { kind: 'error', input: 2, error: failure },
        c: { kind: 'error', input: 3, error: new TypeError('thrown synchronously') },
        d: ok(4, 40),
      });
    });
  });

  it('passes a source error on at once and unsubscribes the solve in flight', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const inner = cold('-----x|', { x: 99 });
      const inputs = cold('a-#', { a: 1 });
      expectObservable(inputs.pipe(solveLatest(() => inner))).toBe('--#');
      expectSubscriptions(inner.subscriptions).toBe('^-!');
    });
  });

  it('unsubscribing unsubscribes the solve in flight', () => {
    const ts = testScheduler();
    ts.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const inner = cold('-----x|', { x: 99 });
      const inputs = hot('a', { a: 1 });
      expectObservable(inputs.pipe(solveLatest(() => inner)), '---!').toBe('');
      expectSubscriptions(inner.subscriptions).toBe('^--!');
    });
  });

  it('forwards every value of an Observable solve (progress), in order', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const inputs = cold('a', { a: 1 });
      const solve = (input: number) => cold('-p-q|', { p: input + 0.5, q: input + 1 });
      expectObservable(inputs.pipe(solveLatest(solve))).toBe('-p-q', { p: ok(1, 1.5), q: ok(1, 2) });
    });
  });

  it('handles synchronous solves without recursion (100 000 inputs, every one solved)', async () => {
    let calls = 0;
    const outcomes = await lastValueFrom(
      range(0, 100_000).pipe(
        solveLatest((i: number) => {
          calls++;
          return of(i);
        }),
        toArray(),
      ),
    );
    expect(calls).toBe(100_000);
    expect(outcomes[99_999]).toEqual(ok(99_999, 99_999));
  });

  it('handles an input pushed from inside an outcome handler (re-entrancy)', () => {
    const inputs = new Subject<number>();
    const solvedInputs: number[] = [];
    inputs.pipe(solveLatest((i: number) => of(i))).subscribe((outcome) => {
      solvedInputs.push(outcome.input);
      if (outcome.input < 5) inputs.next(outcome.input + 1);
    });
    inputs.next(0);
    expect(solvedInputs).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('works with Promise solves in real time: one in flight, the newest pending next', async () => {
    const inputs = new Subject<number>();
    const calls: number[] = [];
    const releases: Array<() => void> = [];
    const solve = (i: number) =>
      new Promise<number>((resolve, reject) => {
        calls.push(i);
        releases.push(() => (i === 3 ? reject(new Error('no')) : resolve(i * 2)));
      });
    const done = firstValueFrom(inputs.pipe(solveLatest(solve), toArray()));
    inputs.next(1);
    inputs.next(2);
    inputs.next(3);
    expect(calls).toEqual([1]);
    releases[0]();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([1, 3]);
    inputs.next(4);
    inputs.complete();
    releases[1]();
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toEqual([1, 3, 4]);
    releases[2]();
    const outcomes = await done;
    expect(outcomes).toEqual([ok(1, 2), { kind: 'error', input: 3, error: new Error('no') }, ok(4, 8)]);
  });

  it('property: any burst, any solve durations, one in flight, newest pending only, final outcome = solve(final input)', () => {
    const burstArb = fc.array(
      fc.record({
        gap: fc.integer({ min: 0, max: 3 }), // frames after the previous edit (0: same frame)
        duration: fc.integer({ min: 0, max: 6 }), // frames the solve takes (0: synchronous)
        fails: fc.boolean(),
      }),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(burstArb, (edits) => {
        type LogEntry = { kind: 'frame' | 'start' | 'end'; input: number; time: number };
        const log: LogEntry[] = [];
        const outcomes: SolveOutcome<number, number>[] = [];
        const expectedOutput = (i: number) => i * 10 + 1;
        const ts = testScheduler();
        ts.run(() => {
          let time = 0;
          const timed = edits.map((edit, input) => {
            time += edit.gap;
            return timer(time, ts).pipe(map(() => input));
          });
          const solve = (input: number): Observable<number> => {
            log.push({ kind: 'start', input, time: ts.now() });
            const { duration, fails } = edits[input];
            const result$ = duration === 0 ? of(input) : timer(duration, ts).pipe(map(() => input));
            return result$.pipe(
              map((i) => {
                if (fails) throw new Error(`failed ${i}`);
                return expectedOutput(i);
              }),
              tap({
                complete: () => log.push({ kind: 'end', input, time: ts.now() }),
                error: () => log.push({ kind: 'end', input, time: ts.now() }),
              }),
            );
          };
          merge(...timed)
            .pipe(
              latestPerFrame(ts),
              tap((input) => log.push({ kind: 'frame', input, time: ts.now() })),
              solveLatest(solve),
            )
            .subscribe((o) => outcomes.push(o));
        });

        const frames = log.filter((e) => e.kind === 'frame');
        const starts = log.filter((e) => e.kind === 'start');
        // latestPerFrame: at most one emission per frame, increasing, ending on the last edit.
        for (let k = 1; k < frames.length; k++) {
          expect(frames[k].time).toBeGreaterThan(frames[k - 1].time);
          expect(frames[k].input).toBeGreaterThan(frames[k - 1].input);
        }
        expect(frames[frames.length - 1].input).toBe(edits.length - 1);

        // Replay the log against the rule: one in flight, one pending slot, newest wins.
        let busy = false;
        let newestFrame = -1;
        let lastStarted = -1;
        for (let k = 0; k < log.length; k++) {
          const entry = log[k];
          const next = log[k + 1];
          if (entry.kind === 'frame') {
            newestFrame = entry.input;
            // Idle: the solve starts at once with it.
            if (!busy) expect(next).toMatchObject({ kind: 'start', input: entry.input });
          } else if (entry.kind === 'start') {
            expect(busy).toBe(false); // never two in flight
            expect(entry.input).toBe(newestFrame); // always the newest input, never an older queued one
            expect(entry.input).toBeGreaterThan(lastStarted); // each input solved at most once
            busy = true;
            lastStarted = entry.input;
          } else {
            expect(busy).toBe(true);
            expect(entry.input).toBe(lastStarted);
            busy = false;
            // A newer input is pending: it starts at once; none pending: stay idle.
            if (newestFrame > lastStarted) expect(next).toMatchObject({ kind: 'start', input: newestFrame });
            else expect(next?.kind ?? 'frame').toBe('frame');
          }
        }
        expect(busy).toBe(false);
        expect(starts.length).toBeLessThanOrEqual(frames.length);

        // Outcomes in solve order, one per solve; the final one is the final input's.
        expect(outcomes.map((o) => o.input)).toEqual(starts.map((s) => s.input));
        const last = edits.length - 1;
        const finalOutcome = outcomes[outcomes.length - 1];
        if (edits[last].fails) {
          expect(finalOutcome).toEqual({ kind: 'error', input: last, error: new Error(`failed ${last}`) });
        } else {
          expect(finalOutcome).toEqual(ok(last, expectedOutput(last)));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('lastGood', () => {
  type State = { readonly converged: boolean; readonly pose: number };
  const good = (s: State) => s.converged;

  it('keeps the previous good output when a solve errors or does not converge', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      const failure = new Error('diverged');
      const a: SolveOutcome<number, State> = { kind: 'ok', input: 1, output: { converged: true, pose: 10 } };
      const b: SolveOutcome<number, State> = { kind: 'error', input: 2, error: failure };
      const c: SolveOutcome<number, State> = { kind: 'ok', input: 3, output: { converged: false, pose: 999 } };
      const d: SolveOutcome<number, State> = { kind: 'ok', input: 4, output: { converged: true, pose: 40 } };
      const outcomes = cold('abcd', { a, b, c, d });
      const expected: Record<string, WithLastGood<number, State>> = {
        a: { latest: a, good: true, lastGood: a.output, lastGoodInput: 1 },
        b: { latest: b, good: false, lastGood: a.output, lastGoodInput: 1 },
        c: { latest: c, good: false, lastGood: a.output, lastGoodInput: 1 },
        d: { latest: d, good: true, lastGood: d.output, lastGoodInput: 4 },
      };
      expectObservable(outcomes.pipe(lastGood(good))).toBe('abcd', expected);
    });
  });

  it('starts from the initial good output; every ok output is good by default', async () => {
    const initial: State = { converged: true, pose: 0 };
    const failure: SolveOutcome<number, State> = { kind: 'error', input: 1, error: 'x' };
    const [first] = await lastValueFrom(of(failure).pipe(lastGood(good, initial), toArray()));
    expect(first).toEqual({ latest: failure, good: false, lastGood: initial, lastGoodInput: null });

    const notConverged: SolveOutcome<number, State> = { kind: 'ok', input: 2, output: { converged: false, pose: 5 } };
    const [second] = await lastValueFrom(of(notConverged).pipe(lastGood(), toArray()));
    expect(second.good).toBe(true);
    expect(second.lastGood).toEqual({ converged: false, pose: 5 });
  });

  it('property: lastGood is always the newest good output so far', async () => {
    const outcomeArb = fc.oneof(
      fc.record({ kind: fc.constant('ok' as const), input: fc.nat(), output: fc.record({ converged: fc.boolean(), pose: fc.integer() }) }),
      fc.record({ kind: fc.constant('error' as const), input: fc.nat(), error: fc.string() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(outcomeArb, { maxLength: 30 }), async (outcomes) => {
        const emitted = await lastValueFrom(from(outcomes).pipe(lastGood(good), toArray()));
        expect(emitted).toHaveLength(outcomes.length);
        let expected: State | null = null;
        outcomes.forEach((o, k) => {
          if (o.kind === 'ok' && o.output.converged) expected = o.output;
          expect(emitted[k].latest).toBe(o);
          expect(emitted[k].lastGood).toBe(expected);
        });
      }),
    );
  });

  it('end to end: edits per frame, one solve in flight, failures keep the last good state', () => {
    const ts = testScheduler();
    ts.run(({ cold, expectObservable }) => {
      // Inputs are geometry values; the "solver" fails to converge beyond 100.
      const edits = cold('(ab)-(cd)-e', { a: 10, b: 20, c: 150, d: 200, e: 30 });
      const solve = (x: number) => timer(1, ts).pipe(map((): State => ({ converged: x <= 100, pose: x / 10 })));
      const view = edits.pipe(
        latestPerFrame(ts),
        solveLatest(solve),
        lastGood(good),
        map((v) => v.lastGood?.pose),
      );
      // Frame 0 → solve(20) → pose 2; frame 5 → solve(200) fails → still 2; frame 10 → solve(30) → 3.
      expectObservable(view).toBe('-a----b----c', { a: 2, b: 2, c: 3 });
    });
  });
});
