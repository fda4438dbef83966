/**
 * The one error an assembly file can fail with, and the path notation its messages use.
 *
 * A path names the offending place in the document: `$` is the whole text (syntax
 * errors), object members are joined with `.` (`mates.tie.b`), array items take an
 * index (`parts.ground.pose.position[2]`, `held[0]`).
 */
import { KinemateError } from '../../kernel/errors.ts';

/** Where in the text a syntax error or a duplicate key sits; both 1-based. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/**
 * Thrown for every malformed assembly: bad JSON, a wrong field, a dangling reference.
 * `message` is `<path>: <reason>`, readable as it stands on a command line.
 */
export class AssemblyError extends KinemateError {
  override readonly name = 'AssemblyError';
  /** Where the problem is, e.g. `mates.tie.b`; `$` for the document as a whole. */
  declare readonly path: string;
  /** Set for problems found in the JSON text itself (syntax, duplicate keys). */
  readonly line?: number;
  readonly column?: number;

  constructor(path: string, reason: string, position?: TextPosition) {
    super(path, reason);
    if (position) {
      this.line = position.line;
      this.column = position.column;
    }
  }
}

/** The path of the document as a whole. */
export const ROOT_PATH = '$';

/** The path of member `key` of the object at `parent`. */
export function memberPath(parent: string, key: string): string {
  return parent === ROOT_PATH ? key : `${parent}.${key}`;
}

/** The path of item `index` of the array at `parent`. */
export function itemPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
}
