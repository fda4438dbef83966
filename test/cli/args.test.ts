/** Option parsing (src/cli/args.ts): strict parseArgs with kinemate's messages, and the value parsers. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  onePositional, parseAssignments, parseCommandArgs, parseCount, parseNumber, requiredOption, stringOptions, wantsHelp,
} from '../../src/cli/args.ts';
import { CliError } from '../../src/cli/io.ts';

const DRIVE = { coordinate: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, steps: { type: 'string' } } as const;

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as Error).message;
  }
  throw new Error('expected a CliError');
}

describe('parseCommandArgs', () => {
  it('takes a negative number after a space as the value of a string option', () => {
    const args = parseCommandArgs('drive', ['m.json', '--from', '-30', '--to', '-.5', '--steps', '3'], DRIVE);
    expect(args.values).toMatchObject({ from: '-30', to: '-.5', steps: '3' });
    expect(args.positionals).toEqual(['m.json']);
  });

  it('still refuses an option where a value belongs', () => {
    expect(messageOf(() => parseCommandArgs('drive', ['--from', '--to', '1'], DRIVE))).toBe(
      'drive: --from needs a value (write --from=VALUE for a value starting with "-")',
    );
  });

  it('names an unknown option and lists the known ones', () => {
    expect(messageOf(() => parseCommandArgs('drive', ['m.json', '--form', '1'], DRIVE))).toBe(
      'drive: unknown option --form; drive takes --coordinate, --from, --to, --steps, --help',
    );
    expect(messageOf(() => parseCommandArgs('dof', ['-x'], {}))).toBe('dof: unknown option -x; dof takes --help');
  });

  it('refuses a missing value and a value given to a flag', () => {
    expect(messageOf(() => parseCommandArgs('drive', ['m.json', '--steps'], DRIVE))).toBe('drive: --steps needs a value');
    expect(messageOf(() => parseCommandArgs('dof', ['--help=yes'], {}))).toBe('dof: --help does not take a value');
  });

  it('keeps repeated options in order, and arguments after -- as positionals', () => {
    const args = parseCommandArgs('solve', ['--set', 'a.angle=1', 'm.json', '--set', 'b.angle=2', '--', '--odd-name.json'], { set: { type: 'string', multiple: true } });
    expect(stringOptions(args, 'set')).toEqual(['a.angle=1', 'b.angle=2']);
    expect(args.positionals).toEqual(['m.json', '--odd-name.json']);
  });

  it('positionals and required options', () => {
    const none = parseCommandArgs('drive', [], DRIVE);
    expect(messageOf(() => onePositional('drive', none, 'MODEL file'))).toBe('drive: missing MODEL file (see kinemate drive --help)');
    expect(messageOf(() => requiredOption('drive', none, 'from', 'A'))).toBe('drive: --from A is required');
    const two = parseCommandArgs('dof', ['a', 'b'], {});
    expect(messageOf(() => onePositional('dof', two, 'MODEL file'))).toBe('dof: unexpected argument "b"; dof takes one MODEL file');
  });

  it('wantsHelp looks before -- only', () => {
    expect(wantsHelp(['m.json', '-h'])).toBe(true);
    expect(wantsHelp(['m.json', '--', '--help'])).toBe(false);
  });
});

describe('value parsers', () => {
  it('parseNumber reads decimal numbers and nothing else', () => {
    expect(parseNumber('30', '--from')).toBe(30);
    expect(parseNumber('-12.5', '--from')).toBe(-12.5);
    expect(parseNumber('.5', '--from')).toBe(0.5);
    expect(parseNumber('1e-3', '--from')).toBe(0.001);
    for (const bad of ['', ' ', 'abc', '0x10', 'Infinity', '-Infinity', 'NaN', '1e400', '1,5', '3deg']) {
      expect(messageOf(() => parseNumber(bad, '--from'))).toBe(`--from: expected a number, got "${bad}"`);
    }
  });

  it('parseNumber reads back every finite double exactly as JavaScript prints it', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(parseNumber(String(x), 'v')).toBe(x === 0 ? 0 : x); // String(-0) is "0"
      }),
    );
  });

  it('parseCount reads whole numbers at or above the minimum', () => {
    expect(parseCount('36', '--steps', 1)).toBe(36);
    for (const bad of ['0', '-1', '2.5', '1e3', 'x', '', '99999999999999999999']) {
      expect(messageOf(() => parseCount(bad, '--steps', 1))).toBe(`--steps: expected a whole number ≥ 1, got "${bad}"`);
    }
  });

  it('parseAssignments reads COORD=VALUE once per coordinate', () => {
    expect(parseAssignments(['jA.angle=90', 'slider.slide=-2.5'], '--set')).toEqual({ 'jA.angle': 90, 'slider.slide': -2.5 });
    expect(messageOf(() => parseAssignments(['jA.angle'], '--set'))).toBe('--set jA.angle: expected COORD=VALUE, e.g. --set jA.angle=90');
    expect(messageOf(() => parseAssignments(['=3'], '--set'))).toBe('--set =3: expected COORD=VALUE, e.g. --set jA.angle=90');
    expect(messageOf(() => parseAssignments(['jA.angle=1', 'jA.angle=1'], '--set'))).toBe('--set jA.angle: given more than once');
    expect(messageOf(() => parseAssignments(['jA.angle='], '--set'))).toBe('--set jA.angle: expected a number, got ""');
  });
});
