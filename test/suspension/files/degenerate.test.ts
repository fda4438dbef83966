/**
 * Issue 16, item 9: geometry that leaves the upright degenerate is refused at load, naming
 * the points. On main, the upper and lower outboard ball joints at one point loaded, and the
 * sweep reported "solved" for three steps with a not_unique steering axis, then failed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { parseGeometry, SuspensionFileError } from '../../../src/suspension/files/index.ts';

const EXAMPLES = join(import.meta.dirname, '../../../examples/suspension');

type Point = { x: number; y: number; z: number };
function edited(file: string, edit: (hardpoints: Record<string, Point>) => void): string {
  const doc = parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { hardpoints: Record<string, Point> };
  edit(doc.hardpoints);
  return stringify(doc);
}

function problemsOf(text: string): { path: string; message: string }[] {
  try {
    parseGeometry(text, 'x.yaml');
  } catch (error) {
    if (error instanceof SuspensionFileError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('degenerate uprights are refused at load', () => {
  it('upper and lower outboard ball joints at one point (double wishbone)', () => {
    const text = edited('double_wishbone.yaml', (p) => { p.upper_wishbone_outboard = { ...p.lower_wishbone_outboard }; });
    expect(problemsOf(text)).toContainEqual({
      path: 'hardpoints.upper_wishbone_outboard',
      message: 'coincident pivots: same point as lower_wishbone_outboard, so the upright hangs on one ball joint and the kingpin axis is undefined',
    });
  });

  it('the track rod end on the kingpin axis (double wishbone)', () => {
    const text = edited('double_wishbone.yaml', (p) => {
      const [l, u] = [p.lower_wishbone_outboard, p.upper_wishbone_outboard];
      p.trackrod_outboard = { x: l.x + 0.5 * (u.x - l.x), y: l.y + 0.5 * (u.y - l.y), z: l.z + 0.5 * (u.z - l.z) };
    });
    expect(problemsOf(text).map((q) => q.path)).toContain('hardpoints.trackrod_outboard');
  });

  it('every example geometry still loads', () => {
    for (const file of ['double_wishbone.yaml', 'double_wishbone_axle.yaml', 'double_wishbone_pushrod.yaml', 'macpherson.yaml', 'multi_link.yaml', 'multi_link_axle.yaml', 'trailing_arm.yaml']) {
      expect(problemsOf(readFileSync(join(EXAMPLES, file), 'utf8')), file).toEqual([]);
    }
  });
});
