/**
 * One registry of a simulation's result names (src/mechanics/result-names.ts): the CSV's
 * short spellings read as the canonical names (an algebraic law over any names), and a CSV
 * column and the gradient result of the same name read the same number off the same run.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAssembly } from '../../src/assembly/load';
import { csvColumns } from '../../src/cli/simulation-csv';
import { parseParameter, parseResult, simulationGradients } from '../../src/gradients/run';
import { simulate } from '../../src/mechanics/simulate';
import { canonicalResultName, csvColumn, resultName, type Axis } from '../../src/mechanics/result-names';

/** A name part: letters, digits and underscores (no dot, no @). */
const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
const axis = fc.constantFrom<Axis>(0, 1, 2);
const suffix = fc.constantFrom('', '@max', '@min', '@final', '@cross=12.5');
/** A driver's name: a motion id or a held coordinate (`jA.angle`), never one of a part's own words. */
const driverName = fc.tuple(word, fc.option(word, { nil: undefined }))
  .map(([a, b]) => (b === undefined ? a : `${a}.${b}`))
  .filter((n) => !/^(?:[xyz]|tension|normal|force|position|velocity)(?:\.|$)|\.(?:position|velocity)$|^force\.[xyz]$/.test(n) && !/^[^.]+\.(?:position|velocity)$/.test(n));

describe('result names', () => {
  it("a part coordinate's CSV column reads as its canonical position name", () => {
    fc.assert(fc.property(word.filter((w) => w !== 'drivers'), axis, suffix, (part, a, s) => {
      expect(canonicalResultName(`${csvColumn.position(part, a)}${s}`)).toBe(`${resultName.position(part, a)}${s}`);
      expect(parseResult(`${csvColumn.position(part, a)}${s}`)).toEqual(parseResult(`${resultName.position(part, a)}${s}`));
    }));
  });

  it("a driver's CSV column reads as its canonical drivers. name", () => {
    fc.assert(fc.property(driverName, fc.constantFrom('', '@max', '@min'), (name, s) => {
      expect(parseResult(`${csvColumn.driver(name)}${s}`)).toEqual(parseResult(`${resultName.driver(name)}${s}`));
      expect(parseResult(`${resultName.driver(name)}${s}`).reaction).toEqual({ kind: 'driver', name });
    }));
  });

  it('canonical names are fixed points, and a part or element named driver keeps its own results', () => {
    fc.assert(fc.property(word, axis, word, (part, a, point) => {
      for (const name of [resultName.position(part, a), resultName.velocity(part, a, point), resultName.tension(part), resultName.force(part, a),
        resultName.reaction(part, 'moment', a), resultName.driver(point)]) expect(canonicalResultName(name)).toBe(name);
    }));
    expect(parseResult('driver.x')).toMatchObject({ part: 'driver', quantity: 'position', axis: 0 });
    expect(parseResult('driver.tension')).toMatchObject({ part: 'driver', quantity: 'tension' });
    expect(parseResult('driver.hub.velocity.z@max')).toMatchObject({ part: 'driver', point: 'hub', quantity: 'velocity', axis: 2, at: 'max' });
    expect(parseResult('drivers.x')).toMatchObject({ quantity: 'reaction', reaction: { kind: 'driver', name: 'x' } });
    expect(parseResult('drivers.position.x')).toMatchObject({ part: 'drivers', quantity: 'position', axis: 0 });
    // a name that is neither stays refused, under the name as written
    expect(() => parseResult('body.w')).toThrow(/^result "body\.w": expected/);
  });

  it('a CSV column and the gradient result of its name read the same value off the same run', () => {
    const doc = parseAssembly(readFileSync('examples/quarter-car-bump.kinemate.json', 'utf8'));
    const options = { duration: 0.02, step: 1e-3 };
    const run = simulate(doc, options);
    const cols = csvColumns(run.frames[0], false);
    const header = cols.header.split(',');
    const last = cols.row(run.frames.at(-1)!).split(',').map(Number);
    const names = ['body.z', 'wheel.z', 'driver.bump'];
    for (const n of names) expect(header).toContain(n);
    const g = simulationGradients(doc, [parseParameter('body.mass')], names.map(parseResult), options, 'direct');
    names.forEach((n, i) => {
      const csv = last[header.indexOf(n)];
      expect(Math.abs(g.results[i].value - csv)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(csv)));
    });
  });
});
