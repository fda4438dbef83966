// The built command, dist/cli.cjs, compiled with V8's code cache (dist/cli.code-cache).
//
// Most of a short command's start is V8 compiling the functions it runs (the sweep's first
// call of each solver, metric and output function), not running them. `npm run build` runs
// the command once and saves what V8 compiled; loading it back skips that work. Node 20 has
// no code cache for ES modules, so the command is also built as one CommonJS file, compiled
// here with vm.Script. A cache from another Node/V8 version (or other V8 flags) is rejected
// by V8 and the file is compiled as usual: slower, never different.
//
// Code compiled by vm.Script cannot use `import()` (Node asks for --experimental-vm-modules),
// so the build rewrites the command's dynamic imports (ESM-only packages, node: modules) to
// `__kinemateImport(…)`, which is given here.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const COMMAND_FILE = join(__dirname, '../dist/cli.cjs');
const CODE_CACHE_FILE = join(__dirname, '../dist/cli.code-cache');

/**
 * The command's `main`; `codeCache()`, V8's code cache of what has run so far; `cache`, what
 * became of dist/cli.code-cache: 'accepted', 'rejected' (another Node, other V8 flags or
 * another build) or 'none'.
 */
function loadCommand({ useCache = true } = {}) {
  // latin1: the build keeps the file ASCII (esbuild escapes the rest), which reads as a
  // one-byte string without UTF-8 decoding
  const source = readFileSync(COMMAND_FILE, 'latin1');
  let cachedData;
  if (useCache) {
    try {
      cachedData = readFileSync(CODE_CACHE_FILE);
    } catch {
      // no cache (a build that skipped it): compiled as usual
    }
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname, __kinemateImport, __kinemateLoaded) {${source}\n})`;
  const script = new Script(wrapped, { filename: COMMAND_FILE, ...(cachedData ? { cachedData } : {}) });
  const commandModule = { exports: {} };
  script.runInThisContext()(commandModule.exports, createRequire(COMMAND_FILE), commandModule, COMMAND_FILE, dirname(COMMAND_FILE), importOf, loadedModule);
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  return { main: commandModule.exports.main, codeCache: () => script.createCachedData(), cache };
}

/**
 * The command's `import()`. Node's own modules are required: an `import()` starts Node's ES
 * module loader, which costs a short command's start more than the module it loads.
 */
function importOf(specifier) {
  if (specifier.startsWith('node:')) return Promise.resolve().then(() => require(specifier));
  return import(specifier).then((namespace) => {
    imported.set(specifier, namespace);
    return namespace;
  });
}

/** Packages imported above, by name: what the command's static imports of ES-module-only packages read (scripts/build-command.mjs). */
const imported = new Map();

function loadedModule(specifier) {
  const namespace = imported.get(specifier);
  if (namespace === undefined) throw new Error(`kinemate: ${specifier} is used before it was imported (src/cli/geometry-libraries.ts)`);
  return namespace;
}

exports.loadCommand = loadCommand;
exports.COMMAND_FILE = COMMAND_FILE;
exports.CODE_CACHE_FILE = CODE_CACHE_FILE;
