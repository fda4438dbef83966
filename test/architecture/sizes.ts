/**
 * Sizes of the product's sources (issue 26): lines per file and lines per function, the
 * functions found with the TypeScript compiler's own parser (every declaration, method,
 * accessor, constructor, function expression and arrow function with a body; a function's
 * lines run from its first token to its last, nested functions included).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The product's source folders, as the layer check reads them. */
export const PRODUCT_DIRS = ['kernel', 'mates', 'src', 'viewer/src'] as const;

/** Every .ts file under the folders (declaration files left out), repository-relative with '/'. */
export function sourceFiles(root: string, dirs: readonly string[] = PRODUCT_DIRS): string[] {
  return dirs.flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.includes('node_modules'))
    .map((f) => join(dir, f).replaceAll('\\', '/')))
    .sort();
}

/** A file's lines as `wc -l` counts them (a last line without its newline counts too). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

export interface FunctionSize {
  /** `name` (a method: `Class.name`; an unnamed function: `(anonymous)`) and the line it starts on. */
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

/** Every function with a body in a source text, with its length in lines. */
export function functionSizes(text: string, fileName = 'source.ts'): FunctionSize[] {
  // JSDoc left unparsed: a function's first token skips comments either way, and the comments'
  // own parse was a sixth of the cold run over the product (Session 17)
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  const source = ts.createSourceFile(fileName, text, options, true, ts.ScriptKind.TS);
  const out: FunctionSize[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ name: nameOf(node), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name;
  let name = own && (ts.isIdentifier(own) || ts.isPrivateIdentifier(own) || ts.isStringLiteral(own)) ? own.text : null;
  if (ts.isConstructorDeclaration(node)) name = 'constructor';
  // an arrow or function expression takes the name of what it is assigned to
  if (name === null && (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent)) && ts.isIdentifier(node.parent.name)) name = node.parent.name.text;
  const owner = ts.isClassLike(node.parent) && node.parent.name ? `${node.parent.name.text}.` : '';
  return `${owner}${name ?? '(anonymous)'}`;
}

/** The files over `maxLines` lines, as `file: N lines`. */
export function longFiles(root: string, files: readonly string[], maxLines: number): string[] {
  return files.flatMap((f) => {
    const n = lineCount(readFileSync(join(root, f), 'utf8'));
    return n > maxLines ? [`${f}: ${n} lines`] : [];
  });
}

/** The functions over `maxLines` lines, as `file:line name: N lines`. */
export function longFunctions(root: string, files: readonly string[], maxLines: number): string[] {
  return files.flatMap((f) => {
    const text = readFileSync(join(root, f), 'utf8');
    // a file no longer than the limit holds no function over it: not parsed
    if (lineCount(text) <= maxLines) return [];
    return functionSizes(text, f).filter((s) => s.lines > maxLines).map((s) => `${f}:${s.line} ${s.name}: ${s.lines} lines`);
  });
}
