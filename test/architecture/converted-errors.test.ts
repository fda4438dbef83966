/**
 * Throws converted from plain errors to KinemateError subclasses (issue 26) keep the messages
 * users read: a caller can now tell bad input with one `instanceof KinemateError`, and the
 * text is what the plain error said.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ArgumentError, KinemateError } from '../../kernel/errors';
import { parseParameter, parseResult, simulationGradient } from '../../src/gradients/run';
import { DesignFileError } from '../../src/suspension/design/errors';
import { parseGeometry } from '../../src/suspension/files';
import { parseCurveTargets } from '../../src/suspension/gradients/curves';

/** What `fn` throws (fails when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try { fn(); } catch (error) { return error; }
  throw new Error('expected a throw');
}

describe('converted throws', () => {
  it('a gradient run with no duration is an ArgumentError naming both options', () => {
    const doc = JSON.parse(readFileSync('examples/pendulum.kinemate.json', 'utf8'));
    const error = thrown(() => simulationGradient(doc, [parseParameter('bob.mass')], parseResult('bob.position.z'), { duration: 0, step: 1e-3 }));
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as ArgumentError).path).toBe('duration and step');
    expect((error as Error).message).toBe('duration and step: expected positive numbers of seconds');
  });

  it('a curve targets file that is not a mapping is a DesignFileError with file, path and reason', () => {
    const g = parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));
    const error = thrown(() => parseCurveTargets('[1, 2]', g, 'my-targets.yaml'));
    expect(error).toBeInstanceOf(DesignFileError);
    expect(error).toBeInstanceOf(KinemateError);
    expect((error as Error).message).toBe('my-targets.yaml: (top): expected a mapping with targets');
    // a target the geometry lacks goes through the same path
    const bad = thrown(() => parseCurveTargets('targets: [{ metric: nope, at: 0, value: 1 }]', g, 't.yaml'));
    expect(bad).toBeInstanceOf(DesignFileError);
    expect((bad as Error).message).toMatch(/^t\.yaml: targets\[0\]/);
  });
});
