/**
 * Issue 27 item 4, in the viewer: a sweep file that lists its values (the reference
 * format's other way) opens as a plot range when the values are evenly spaced, and is
 * refused with where it runs when they are not (the reference T-bar sweeps go there and
 * back). On main a file without steps was not taken for a sweep file at all.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDocument, readDocument, readSweepFile } from '../../viewer/src/document';
import { REPO } from '../cli/helpers';

describe('the viewer opens sweep files that list their values', () => {
  it('evenly spaced values: the same range as start, stop and steps', () => {
    const doc = defaultDocument();
    const listed = readSweepFile('b.yaml', 'version: 1\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, values: [-20, -10, 0, 10, 20] }\n', doc);
    const ranged = readSweepFile('b.yaml', 'version: 1\nsteps: 5\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, start: -20, stop: 20 }\n', doc);
    expect(ranged).toEqual({ kind: 'bump', start: -20, stop: 20, steps: 5, hold: 'layout_default' });
    expect(listed).toEqual(ranged);
  });

  it('values that go there and back are refused, saying where they run', () => {
    const path = join(REPO, 'examples/suspension/double_wishbone_axle_t_bar.yaml');
    const doc = readDocument(path, readFileSync(path, 'utf8'));
    const text = 'version: 1\ntargets:\n  - { type: point, point: wheel_center, direction: { axis: z }, values: [0, 10, 0, -10] }\n';
    expect(() => readSweepFile('updown.yaml', text, doc)).toThrow(/not evenly spaced from 0 to -10.*npx kinemate sweep <geometry file> updown\.yaml/);
  });
});
