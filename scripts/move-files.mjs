/**
 * Moves files by an old → new path map (`git mv`) and rewrites every path that points at a
 * moved file, or that a moved file holds: relative specifiers in code (imports, `import()`,
 * `vi.mock`, `new URL(…, import.meta.url)`, template prefixes such as `../../examples/${x}`)
 * and repository paths written out (`src/dynamics/build.ts` in comments, docs and scripts).
 * Made for the layout of issue 26 (scripts/layout-moves.mjs is its map); on a branch made
 * before that layout, run with --rewrite-only to fix the paths of files added there.
 *
 * Usage: node scripts/move-files.mjs MAP.mjs [--rewrite-only] [--dry-run]
 *   MAP.mjs default-exports { 'old/path.ts': 'new/path.ts', … } (repository-relative).
 * Without --rewrite-only the moves are committed alone first (so git's rename detection
 * follows them), then the rewritten files are written, uncommitted, for review. Review the
 * diff: test/viewer/imports.test.ts's sample specifiers are rewritten too (check them out again).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const CODE_DIRS = ['kernel', 'mates', 'src', 'viewer', 'test', 'bench', 'examples', 'scripts', 'bin'];
const TEXT_DIRS = ['docs'];
const ROOT_FILES = ['vite.config.ts', 'vitest.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
const CODE_EXT = new Set(['.ts', '.mts', '.mjs', '.js', '.cjs', '.tsx']);
const TEXT_EXT = new Set([...CODE_EXT, '.md', '.json', '.html', '.yaml']);

const [mapFile, ...flags] = process.argv.slice(2);
if (!mapFile) {
  console.error('usage: node scripts/move-files.mjs MAP.mjs [--rewrite-only] [--dry-run]');
  process.exit(1);
}
const rewriteOnly = flags.includes('--rewrite-only');
const dryRun = flags.includes('--dry-run');
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const map = (await import(pathToFileURL(resolve(mapFile)).href)).default;
const abs = (p) => resolve(root, p);
const moved = new Map(Object.entries(map).map(([a, b]) => [abs(a), abs(b)]));
// after a move (--rewrite-only) a file's old path no longer exists: its new one does
const isFile = (p) => ['', '.ts', '.mts', '.mjs', '.js'].some((ext) => moved.has(p + ext) || existsSync(p + ext));

const oldPlace = new Map([...moved].map(([from, to]) => [to, from]));

/** Where a file is now (before the move) and where it will be. */
function places(file) {
  if (!rewriteOnly) return { before: file, after: moved.get(file) ?? file };
  // --rewrite-only: files already at their new place; their own paths are unchanged
  return { before: file, after: file };
}

/**
 * --rewrite-only on a file at a moved place whose text came from the old place (a merge took
 * the other side's lines): a specifier that finds nothing from here is read from the old place.
 */
function readFrom(fromDir, spec, file) {
  const old = oldPlace.get(file);
  const found = (dir) => isFile(resolve(dir, spec).replace(/\/$/, ''));
  if (!rewriteOnly || old === undefined || found(fromDir) || !found(dirname(old))) return fromDir;
  return dirname(old);
}

/** The moved target of a relative specifier, or null when it points at nothing moved. */
function target(fromDir, spec) {
  const base = resolve(fromDir, spec);
  for (const ext of ['', '.ts', '.mts', '.mjs', '.js']) {
    const hit = moved.get(base + ext);
    if (hit !== undefined) return ext === '' ? hit : hit.slice(0, -ext.length);
  }
  return null;
}

function relativeSpec(fromDir, to, trailingSlash) {
  let spec = relative(fromDir, to) || '.';
  if (!spec.startsWith('.')) spec = `./${spec}`;
  return trailingSlash && !spec.endsWith('/') ? `${spec}/` : spec;
}

const log = [];

function rewriteCode(text, before, after) {
  const fromNew = dirname(after);
  return text.replace(/(['"`])(\.{1,2}\/[^'"`$\s]*)(?=['"`$])/g, (whole, quote, spec) => {
    const fromOld = readFrom(dirname(before), spec, before);
    const moves = target(fromOld, spec);
    if (moves === null && fromOld === fromNew) return whole;
    const destination = moves ?? resolve(fromOld, spec);
    const next = relativeSpec(fromNew, destination, spec.endsWith('/'));
    if (next === spec) return whole;
    if (moves === null && !isFile(destination.replace(/\/$/, ''))) log.push(`  ${relative(root, after)}: ${spec} → ${next} (target not found; relative to the file assumed)`);
    return quote + next;
  });
}

/** Repository paths written out (`src/dynamics/build.ts`), longest first. */
const written = [...Object.entries(map)].sort((a, b) => b[0].length - a[0].length);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const writtenPattern = new RegExp(`(?<![\\w./-])(${written.map(([a]) => escape(a)).join('|')})(?![\\w-])`, 'g');

function rewriteWritten(text) {
  return text.replace(writtenPattern, (old) => map[old]);
}

function listFiles() {
  const out = execFileSync('git', ['ls-files', '--', ...CODE_DIRS, ...TEXT_DIRS, ...ROOT_FILES], { cwd: root, encoding: 'utf8' });
  // the map and this script name the old paths on purpose
  const own = new Set([abs(mapFile), abs('scripts/move-files.mjs'), abs('docs/architecture.md')]);
  return out.split('\n').filter(Boolean).map(abs).filter((f) => TEXT_EXT.has(extname(f)) && existsSync(f) && !own.has(f));
}

const updates = new Map();
for (const file of listFiles()) {
  const { before, after } = places(file);
  const text = readFileSync(file, 'utf8');
  let next = CODE_EXT.has(extname(file)) ? rewriteCode(text, before, after) : text;
  next = rewriteWritten(next);
  if (next !== text || after !== before) updates.set(after, next);
}

if (dryRun) {
  for (const [file] of updates) console.log(relative(root, file));
  console.log(log.join('\n'));
  process.exit(0);
}
if (!rewriteOnly) {
  for (const [from, to] of moved) {
    mkdirSync(dirname(to), { recursive: true });
    execFileSync('git', ['mv', relative(root, from), relative(root, to)], { cwd: root });
  }
  execFileSync('git', ['commit', '-q', '--no-verify', '-m', `Move only (${moved.size} files, scripts/move-files.mjs ${relative(root, resolve(mapFile))}): contents unchanged, so rename detection follows them; the next commit rewrites the paths`], { cwd: root });
}
for (const [file, text] of updates) writeFileSync(join(file), text);
console.log(`${moved.size} moves, ${updates.size} files rewritten`);
if (log.length) console.log(log.join('\n'));
