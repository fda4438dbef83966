/**
 * Every package the lockfile installs accepts the oldest Node the project's `engines`
 * promises (a Node 20), so `npm ci` on it warns no EBADENGINE (issue 27 item 11: vega-lite
 * 6.5.0 wanted Node ≥ 22). The ranges are read with a small evaluator of the forms npm
 * packages use (>=, ^, ~, x.*, ||), not a copy of semver.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Version = [number, number, number];
const root = new URL('../../', import.meta.url);
const json = (file: string) => JSON.parse(readFileSync(new URL(file, root), 'utf8'));

/** "20.19" → [20, 19, 0]; a missing or wildcard part reads 0, with how many parts were given. */
function parseVersion(text: string): { v: Version; parts: number } {
  const parts = text.replace(/^v/, '').split('.').filter((p) => p !== '' && p !== '*' && p.toLowerCase() !== 'x');
  const v = [0, 1, 2].map((i) => Number(parts[i] ?? 0)) as Version;
  if (v.some((n) => !Number.isInteger(n))) throw new Error(`not a version: "${text}"`);
  return { v, parts: parts.length };
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Whether `v` satisfies one comparator (">=20", "^20.19.0", "~1.2", "6.*", "<24"). */
function satisfiesOne(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?(.*)$/.exec(comparator)!;
  const { v: w, parts } = parseVersion(m[2]);
  const c = compare(v, w);
  switch (m[1]) {
    case '>=': return c >= 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    case '<': return c < 0;
    case '^': return c >= 0 && (w[0] > 0 ? v[0] === w[0] : v[0] === 0 && v[1] === w[1]);
    case '~': return c >= 0 && v[0] === w[0] && (parts < 2 || v[1] === w[1]);
    default: return v.slice(0, parts).every((n, i) => n === w[i]);
  }
}

/** A range: alternatives joined by ||, each comparators joined by spaces (">= 10" is one comparator). */
function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version).v;
  return range.split('||').some((alt) => alt.trim().replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1').split(/\s+/).every((c) => satisfiesOne(v, c)));
}

describe('engines', () => {
  const promised: string = json('package.json').engines.node;
  const floor = /^>=\s*(\d+(\.\d+){0,2})$/.exec(promised)?.[1];

  it('the package promises a Node 20 as its oldest', () => {
    expect(floor, `engines.node "${promised}" should read ">=20…"`).toBeDefined();
    expect(parseVersion(floor!).v[0]).toBe(20);
  });

  it('reads the range forms the lockfile uses', () => {
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.0.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.0.0', '>=22')).toBe(false);
    expect(satisfies('20.0.0', '>= 10.*')).toBe(true);
    expect(satisfies('20.0.0', '6.* || 8.* || >= 10.*')).toBe(true);
    expect(satisfies('20.0.0', '^10 || ^12 || ^13.7 || ^14 || >=15.0.1')).toBe(true);
    expect(satisfies('9.0.0', '^8.16.0 || ^10.6.0 || >=11.0.0')).toBe(false);
    expect(satisfies('1.2.9', '~1.2.3')).toBe(true);
    expect(satisfies('1.3.0', '~1.2.3')).toBe(false);
  });

  it('every locked package accepts that Node (npm ci warns no EBADENGINE)', () => {
    const packages: Record<string, { version?: string; engines?: { node?: unknown } }> = json('package-lock.json').packages;
    const refusing = Object.entries(packages)
      .filter(([path, p]) => path !== '' && typeof p.engines?.node === 'string' && !satisfies(floor!, p.engines.node as string))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${p.engines!.node as string}`);
    expect(refusing).toEqual([]);
  });

  it('dependencies are pinned exactly', () => {
    const pkg = json('package.json');
    const loose = Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).filter(([, v]) => !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(v as string));
    expect(loose).toEqual([]);
  });
});
