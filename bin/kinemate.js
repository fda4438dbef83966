#!/usr/bin/env node
// The `kinemate` command. In the installed package it runs the built JavaScript
// (dist/cli.cjs, from `npm run build`, loaded by ./load-command.js with its code cache). In
// a clone of the repository (src/ beside it) it runs the TypeScript sources through tsx, so
// a fresh clone works after `npm ci` and the command never runs a build older than the sources.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
let main;
if (existsSync(source) && process.env.KINEMATE_BUILT !== '1') {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(source.href));
} else {
  ({ main } = (await import('./load-command.js')).loadCommand());
}
process.exitCode = await main(process.argv.slice(2));
