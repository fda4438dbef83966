#!/usr/bin/env node
// The `kinemate` command. In the installed package it runs the built JavaScript
// (dist/cli.cjs, from `npm run build`, loaded by ./load-command.js with its code cache). In
// a clone of the repository (src/ beside it) it runs the TypeScript sources through tsx, so
// a fresh clone works after `npm ci` and the command never runs a build older than the sources.
// CommonJS (bin/package.json): an ES module entry costs a start Node's module loader, which
// the built command does not otherwise need.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

async function commandMain() {
  const source = join(__dirname, '../src/cli/main.ts');
  if (existsSync(source) && process.env.KINEMATE_BUILT !== '1') {
    const { register } = await import('tsx/esm/api');
    register();
    return (await import(pathToFileURL(source).href)).main;
  }
  return require('./load-command.js').loadCommand().main;
}

// `main` resolves once its output is written (handed to the OS), so the process exits at
// once: a natural exit would first tear the heap down, which a short command pays for.
commandMain().then(async (main) => {
  process.exit(await main(process.argv.slice(2)));
});
