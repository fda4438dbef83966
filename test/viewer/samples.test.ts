/** The viewer's timing samples stay bounded however long the page is open (issue 11 item 7). */
import { describe, expect, it } from 'vitest';
import { recordSample, SAMPLE_CAP } from '../../viewer/src/samples';

describe('viewer timing samples', () => {
  it('keep the newest SAMPLE_CAP values in order, in the same array', () => {
    const list: number[] = [];
    for (let i = 0; i < 5; i++) recordSample(list, i, 3);
    expect(list).toEqual([2, 3, 4]);
    const long: number[] = [];
    for (let i = 0; i < 10 * SAMPLE_CAP + 7; i++) recordSample(long, i);
    expect(long.length).toBe(SAMPLE_CAP);
    expect(long[0]).toBe(9 * SAMPLE_CAP + 7);
    expect(long.at(-1)).toBe(10 * SAMPLE_CAP + 6);
    expect(long.every((v, i) => i === 0 || v === long[i - 1] + 1)).toBe(true);
  });
});
