/** One base error type for bad input (kernel/errors.ts): every input error carries its path and reason. */
import { describe, expect, it } from 'vitest';
import { ArgumentError, InternalError, KinemateError } from '../../kernel/errors.ts';
import { System } from '../../kernel/system.ts';
import { LU } from '../../kernel/linalg.ts';
import { MateError } from '../../mates/errors.ts';
import { addMate } from '../../mates/catalogue.ts';
import { HistoryStateError } from '../../src/reactive/history.ts';
import { driveModel } from '../../src/index.ts';
import { parseFitSpec } from '../../src/suspension/design/fit.ts';
import { DesignFileError } from '../../src/suspension/design/errors.ts';
import { readFileSync } from 'node:fs';
import { PoseFormatError, poseFromJSON } from '../../kernel/pose.ts';
import { CliError } from '../../src/cli/io.ts';
import { AssemblyError, buildModel, KinemateError as exported, ModelError, parseAssembly, parseGeometry, solveModel, SuspensionFileError } from '../../src/index.ts';
import { validateRoles, RolesError } from '../../src/suspension/build/roles.ts';
import { fourBarDoc } from '../../examples/fourbar.ts';
import { History, EditRefused } from '../../src/reactive/history.ts';
import { LoadCaseError, parseLoadCase } from '../../src/suspension/loads/loads.ts';
import { isDocumentError, LiveEditError, liveEdits } from '../../src/live/document.ts';

/** A ball joint whose two ends are on one part, added straight to the catalogue. */
function twoEndsOnOnePart(): unknown {
  const system = new System();
  const part = system.addPose('a', new Float64Array([0, 0, 0, 1, 0, 0, 0]));
  const end = { part, entity: { kind: 'point', point: new Float64Array(3) } };
  return addMate(system, 'j', { type: 'ball', a: end, b: end } as never);
}

function thrown(f: () => unknown): unknown {
  try { f(); } catch (error) { return error; }
  throw new Error('expected a throw');
}

describe('KinemateError, the base of every bad-input error', () => {
  it('each input error extends it and carries the path and the reason of its message', () => {
    const cases: [unknown, Function, string, string][] = [
      [thrown(() => parseAssembly('{"format": 3}')), AssemblyError, 'format', 'got 3; expected "kinemate.assembly/1"'],
      [thrown(() => solveModel(buildModel(fourBarDoc(30)), { set: { 'nope.angle': 1 } })), ModelError, '--set nope.angle', ''],
      [thrown(() => parseGeometry('corners: 3')), SuspensionFileError, '', ''],
      [thrown(() => validateRoles(3)), RolesError, 'suspension', 'expected an object'],
      [thrown(() => poseFromJSON({ position: [0, 0], rotation: [1, 0, 0, 0] }, 'parts.a.pose')), PoseFormatError, 'parts.a.pose.position', 'expected an array of 3 numbers'],
      [thrown(() => new History({ x: 1 }, { validate: (d) => (d.x < 0 ? 'x must be ≥ 0' : null) }).apply((d) => { d.x = -1; }, 'set x')), EditRefused, 'set x', 'x must be ≥ 0'],
      [thrown(() => parseLoadCase('[1, 2]', ['left'], 'case.yaml')), LoadCaseError, 'case.yaml', ''],
      [thrown(() => liveEdits.moveHardpoint('nodot', [0, 0, 0])({ kind: 'assembly', doc: fourBarDoc(30) } as never)), LiveEditError, 'hardpoint', 'expected "part.point", got "nodot"'],
      [thrown(() => liveEdits.moveHardpoint('crank.P', [0, Number.NaN, 0])), LiveEditError, 'crank.P', 'expected finite coordinates, got [0, NaN, 0]'],
      [thrown(() => new System(0)), ArgumentError, 'lengthScale', 'expected a positive finite number, got 0'],
      [thrown(() => driveModel(buildModel(fourBarDoc(30)), 'jA.angle', 0, 1, -1)), ArgumentError, 'steps', 'must be a whole number ≥ 0, got -1'],
      [thrown(() => twoEndsOnOnePart()), MateError, 'j', 'a mate needs two different parts'],
    ];
    for (const [error, type, path, reason] of cases) {
      expect(error).toBeInstanceOf(type);
      expect(error).toBeInstanceOf(KinemateError);
      const e = error as KinemateError;
      if (path) expect(e.path).toBe(path);
      if (reason) expect(e.reason).toBe(reason);
      // the message is the path, then the reason (a suspension file lists every problem, the first first)
      expect(e.message.startsWith(`${e.path}: ${e.reason}`)).toBe(true);
    }
    expect(exported).toBe(KinemateError);
    // the live model's test for "a document's fault, not a bug" is the same base type
    for (const [error] of cases) expect(isDocumentError(error)).toBe(true);
    expect(isDocumentError(new TypeError('x'))).toBe(false);
  });

  it('a command-line error has no path: its message is its reason', () => {
    const error = new CliError('sweep: --format must be json or csv, got "xml"');
    expect(error).toBeInstanceOf(KinemateError);
    expect([error.path, error.reason, error.message]).toEqual(['', 'sweep: --format must be json or csv, got "xml"', 'sweep: --format must be json or csv, got "xml"']);
    expect(error.name).toBe('CliError');
  });

  it('faults are not input errors', () => {
    expect(new TypeError('x')).not.toBeInstanceOf(KinemateError);
    // a broken promise of the code: a call out of order, a workspace overrun
    const overrun = thrown(() => new LU(2).factor([1, 0, 0, 0, 1, 0, 0, 0, 1], 3));
    expect(overrun).toBeInstanceOf(InternalError);
    expect(overrun).not.toBeInstanceOf(KinemateError);
    expect((overrun as Error).message).toBe('LU: size 3 exceeds the workspace (2)');
    const history = new History({ x: 1 });
    const outOfOrder = thrown(() => history.commitGesture());
    expect(outOfOrder).toBeInstanceOf(HistoryStateError);
    expect(outOfOrder).toBeInstanceOf(InternalError);
    expect(isDocumentError(outOfOrder)).toBe(false);
  });

  it('a design file error puts the file and the path in front of the reason', () => {
    const geometry = parseGeometry(readFileSync('examples/suspension/double_wishbone.yaml', 'utf8'));
    const error = thrown(() => parseFitSpec('move: { nope: { z: [-1, 1] } }\ntargets: [{ metric: camber, at: 0, value: 1 }]', geometry, 't.yaml'));
    expect(error).toBeInstanceOf(DesignFileError);
    expect(error).toBeInstanceOf(KinemateError);
    const e = error as DesignFileError;
    expect([e.fileName, e.path]).toEqual(['t.yaml', 'move.nope']);
    expect(e.message).toBe(`t.yaml: move.nope: ${e.reason}`);
  });
});
