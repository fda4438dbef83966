/**
 * A geometry's hardpoints as gradient parameters: `<hardpoint>.<x|y|z>` keys in the file's
 * order, and the lookups from a model point back to its hardpoint (by value, by the file's own
 * array where two hardpoints coincide, and the derived points that move with some).
 */
import type { AssemblyDoc } from '../../assembly/types';
import type { Geometry } from '../files';
import { axisTipSource, entitySource } from '../build/template';
import { localSource } from '../build/point-terms';
import { SensitivityError } from './types';

const AXES = ['x', 'y', 'z'] as const;

export function valueKey(p: ArrayLike<number>): string {
  return `${p[0]},${p[1]},${p[2]}`;
}

export class HardpointIndex {
  /** `<hardpoint>.<x|y|z>`, three per hardpoint in the file's order. */
  readonly keys: string[];
  readonly names: string[];
  private readonly values: Float64Array;
  private readonly byValue = new Map<string, number>();
  /** Hardpoint index by the file's own point array (identity): coincident hardpoints told apart. */
  private readonly bySource = new Map<readonly number[], number>();
  /** Points that are not hardpoints but move with some (a T-bar's crossbar midpoint): hardpoint index and weight. */
  private readonly derived = new Map<string, [number, number][]>();
  /** Builds a gradient record from g in key order (made once: recordMaker). */
  private makeRecord: ((g: Float64Array) => Record<string, number>) | null = null;

  constructor(geometry: Geometry, doc: AssemblyDoc) {
    // a corner: its hardpoints by name; an axle: `left.<name>`, `right.<name>`, `center.<name>`
    const groups: [string, Record<string, readonly number[]>][] = geometry.scope === 'axle'
      ? [...geometry.corners.map((c): [string, Record<string, readonly number[]>] => [`${c.side}.`, c.hardpoints]), ...(geometry.center ? [['center.', geometry.center] as [string, Record<string, readonly number[]>]] : [])]
      : [['', geometry.corners[0].hardpoints]];
    const points = groups.flatMap(([prefix, hp]) => Object.entries(hp).map(([name, p]): [string, readonly number[]] => [prefix + name, p]));
    this.names = points.map(([name]) => name);
    this.values = new Float64Array(points.length * 3);
    this.keys = [];
    points.forEach(([name, p], j) => {
      for (let c = 0; c < 3; c++) { this.values[3 * j + c] = p[c]; this.keys.push(`${name}.${AXES[c]}`); }
      const key = valueKey(p);
      // two hardpoints at one place: a point there says which by its source (at)
      this.byValue.set(key, this.byValue.has(key) ? -2 : j);
      this.bySource.set(p, j);
    });
    // a T-bar's crossbar midpoint (on the centre plane) is the mean of its two droplink ends
    const mid = doc.parts.t_bar?.points?.crossbar_midpoint;
    const ends = ['left.droplink_t_bar', 'right.droplink_t_bar'].map((n) => this.names.indexOf(n));
    if (mid && ends.every((j) => j >= 0)) this.derived.set(valueKey(mid), ends.map((j) => [j, 0.5]));
  }

  /** Hardpoint j's position in the file (a design point, mm). */
  position(j: number): [number, number, number] { return [this.values[3 * j], this.values[3 * j + 1], this.values[3 * j + 2]]; }

  /**
   * Hardpoint index of a local point (one of the file's values), −1 when none. Where two
   * hardpoints share the place, the one the template copied this point from (by identity:
   * the model's local → the document's array → the file's hardpoint array).
   */
  at(p: ArrayLike<number>): number {
    const j = this.byValue.get(valueKey(p));
    if (j !== -2) return j ?? -1;
    return this.bySourceOf(entitySource.get((localSource.get(p as object) ?? p) as object), p);
  }

  /** Hardpoint index of an axis's tip (origin + direction D), −1 when none; coincident hardpoints: the one the template took the direction to. */
  tipAt(D: readonly number[], tip: number[]): number {
    const tv = this.byValue.get(valueKey(tip));
    return tv === -2 ? this.bySourceOf(axisTipSource.get(D), tip) : tv ?? -1;
  }

  /** The hardpoints a derived point moves with, and its share of each (none for other points). */
  derivedShares(p: ArrayLike<number>): readonly [number, number][] {
    return this.derived.get(valueKey(p)) ?? [];
  }

  /** `{ "<hardpoint>.<x|y|z>": g[k] }` in key order. */
  record(g: Float64Array): Record<string, number> {
    return (this.makeRecord ??= recordMaker(this.keys))(g);
  }

  /** The hardpoint of a file array (an entity's source), or the refusal where there is none. */
  private bySourceOf(source: readonly number[] | undefined, p: ArrayLike<number>): number {
    const k = source ? this.bySource.get(source) : undefined;
    if (k === undefined) throw new SensitivityError(`sensitivity: two hardpoints at (${Array.from(p).join(', ')}); move one so each point is unambiguous`);
    return k;
  }
}

/**
 * A function returning `{ [keys[k]]: g[k] }` in key order. Seventeen records of ~30 keys are
 * made per state: storing by a key read from a list goes through V8's megamorphic keyed-store
 * path (~30 ns a key), while an object literal with the keys written out is built from one
 * boilerplate, several times faster; so the literal is compiled once per key list. The keys
 * are quoted by JSON.stringify (hardpoint names are the file's); `__proto__` would set the
 * prototype in a literal, so such a list takes the plain loop.
 */
export function recordMaker(keys: readonly string[]): (g: Float64Array) => Record<string, number> {
  const plain = (g: Float64Array): Record<string, number> => {
    const out: Record<string, number> = {};
    for (let k = 0; k < keys.length; k++) Object.defineProperty(out, keys[k], { value: g[k], enumerable: true, writable: true, configurable: true });
    return out;
  };
  if (keys.includes('__proto__')) return plain;
  try {
    return new Function('g', `return { ${keys.map((k, i) => `${JSON.stringify(k)}: g[${i}]`).join(', ')} };`) as (g: Float64Array) => Record<string, number>;
  } catch {
    return plain; // a page whose Content-Security-Policy forbids compiling code (EvalError): the same records, slower
  }
}
