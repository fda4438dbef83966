/** Shared fixtures and tools for the assembly tests. */

import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { AssemblyError } from '../../src/assembly/index.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The fixtures' text, read once: the fuzz tests take a fresh copy a run (thousands a file). */
const texts = new Map<string, string>();

export function fixtureText(name: 'four-bar' | 'kitchen-sink'): string {
  let text = texts.get(name);
  if (text === undefined) texts.set(name, (text = readFileSync(new URL(`./fixtures/${name}.kinemate.json`, import.meta.url), 'utf8')));
  return text;
}

/** A fresh, mutable copy of a fixture as plain JSON. */
export function fixture(name: 'four-bar' | 'kitchen-sink'): { [key: string]: Json } {
  const value: unknown = JSON.parse(fixtureText(name));
  return value as { [key: string]: Json };
}

/** Sets (or with `undefined`, deletes) the member at `path`, creating no intermediate objects. */
export function edit<T extends Json>(doc: T, path: readonly (string | number)[], value: unknown): T {
  let target: unknown = doc;
  for (const key of path.slice(0, -1)) target = (target as Record<string | number, unknown>)[key];
  const container = target as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete container[last];
  else container[last] = value;
  return doc;
}

/** Every number in a value, in a fixed traversal order. */
export function numbersOf(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (Array.isArray(value)) for (const item of value as unknown[]) numbersOf(item, out);
  else if (typeof value === 'object' && value !== null) for (const member of Object.values(value)) numbersOf(member, out);
  return out;
}

/** Bit-exact equality of two number lists: Object.is tells -0 from 0, and doubles are otherwise equal only when their bits are. */
export function expectSameNumbers(actual: readonly number[], expected: readonly number[]): void {
  expect(actual.length).toBe(expected.length);
  const differing = expected.flatMap((n, i) => (Object.is(n, actual[i]) ? [] : [`#${i}: ${actual[i]} ≠ ${n}`]));
  expect(differing).toEqual([]);
}

/** Runs `load` and returns the AssemblyError it throws; fails the test if it throws anything else or nothing. */
export function errorOf(load: () => unknown): AssemblyError {
  try {
    load();
  } catch (error) {
    if (error instanceof AssemblyError) return error;
    throw error;
  }
  throw new Error('expected an AssemblyError, but the document loaded');
}
