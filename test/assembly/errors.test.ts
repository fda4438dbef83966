import { describe, expect, it } from 'vitest';
import { AssemblyError, ROOT_PATH, itemPath, memberPath } from '../../src/assembly/errors.ts';

describe('AssemblyError', () => {
  it('puts the path in front of the reason', () => {
    const error = new AssemblyError('mates.tie.b', 'no entity "tip" on part "rocker"');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('AssemblyError');
    expect(error.message).toBe('mates.tie.b: no entity "tip" on part "rocker"');
    expect([error.path, error.reason, error.line, error.column]).toEqual([
      'mates.tie.b', 'no entity "tip" on part "rocker"', undefined, undefined,
    ]);
    expect(String(error)).toBe('AssemblyError: mates.tie.b: no entity "tip" on part "rocker"');
  });

  it('carries a text position when it has one', () => {
    const error = new AssemblyError('$', 'invalid JSON', { line: 3, column: 7 });
    expect([error.line, error.column]).toEqual([3, 7]);
  });
});

describe('paths', () => {
  it('joins members with dots and indexes items, with no prefix for the root', () => {
    expect(memberPath(ROOT_PATH, 'mates')).toBe('mates');
    expect(memberPath(memberPath('mates', 'tie'), 'b')).toBe('mates.tie.b');
    expect(itemPath('held', 0)).toBe('held[0]');
    expect(itemPath(ROOT_PATH, 2)).toBe('$[2]');
  });
});
