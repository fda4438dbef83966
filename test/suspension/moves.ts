import { parseGeometry, parseText, sweepFromShortcut, type Geometry, type SweepSpec } from '../../src/suspension/files';
import { suspensionAssembly } from '../../src/suspension/build/template';
import { SuspensionModel } from '../../src/suspension/build/model';
import { runSweep, type StepResult } from '../../src/suspension/sweep/sweep';
import { SweepLoads, type LoadCase, type StateLoads } from '../../src/suspension/loads/loads';

/**
 * The geometry with the hardpoint coordinate a gradient key names moved by d: `<name>.x`
 * on a corner file, `left.<name>.x` / `right.…` / `center.…` on an axle.
 */
export function movedHardpoint(g: Geometry, key: string, d: number): Geometry {
  const parts = key.split('.');
  const c = { x: 0, y: 1, z: 2 }[parts[parts.length - 1] as 'x' | 'y' | 'z'];
  const out = plainCopy(g);
  const points = parts.length === 2 ? out.corners[0].hardpoints : parts[0] === 'center' ? out.center! : out.corners.find((k) => k.side === parts[0])!.hardpoints;
  points[parts[parts.length - 2]][c] += d;
  return out;
}

/**
 * A deep copy of plain data (a parsed geometry: objects, arrays, numbers, strings), as
 * structuredClone makes it but ~10× faster: the checks copy a geometry per moved coordinate,
 * thousands of times a file. Anything else (a typed array, a Map) goes through structuredClone.
 */
function plainCopy<T>(x: T): T {
  if (x === null || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map(plainCopy) as T;
  if (Object.getPrototypeOf(x) !== Object.prototype) return structuredClone(x);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x)) out[k] = plainCopy((x as Record<string, unknown>)[k]);
  return out as T;
}

/**
 * An exact gradient entry's error against a central difference: relative to the entry,
 * floored at 1e-3 of the metric's largest entry (a driven metric's are all zero) and at
 * `floor`.
 */
export function gradientError(exact: number, fd: number, gradient: Readonly<Record<string, number>>, floor: number): number {
  const scale = Math.max(Math.abs(fd), 1e-3 * Math.max(...Object.values(gradient).map(Math.abs)), floor);
  return Math.abs(exact - fd) / scale;
}

/**
 * The whole pipeline: a fresh model from the geometry, solved at the state, its loads evaluated as `kinemate sweep --loads` does
 * (without the sweep's metrics and steering response, which the loads do not read: a third of the time; the loads are the same bit for bit).
 * Kept per load case by the geometry's text and the state (read-only to callers): checks of different metrics at one
 * state (an axle's tensions, then its bar's force) re-solve the same moved geometries once.
 * `rates` (the wheel rates and motion ratios, `rates` in the output): only where the check reads them, since they are a
 * third of the loads' own evaluation; without them `rates` is null and every other value the same bit for bit (they are
 * evaluated last, from the same solved state). A kept evaluation with rates serves a call without.
 */
export function loadsOf(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, rates = false): StateLoads {
  let byCase = solvedLoads.get(lc);
  if (!byCase) solvedLoads.set(lc, (byCase = new Map()));
  const key = `${kind} ${at} ${JSON.stringify(g)}`;
  let out = byCase.get(key);
  if (!out || (rates && !out.rates)) byCase.set(key, (out = solvedLoadsOf(g, kind, at, lc, rates)));
  return out;
}
let solvedLoads = new WeakMap<LoadCase, Map<string, StateLoads>>();

const noMetrics = () => ({});

/** `kinemate sweep --loads`' evaluation with the rates left out (`rates: null`): the rest is SweepLoads' own. */
class LoadsWithoutRates extends SweepLoads {
  override rates(): null {
    return null;
  }
}

function solvedLoadsOf(g: Geometry, kind: 'bump' | 'roll', at: number, lc: LoadCase, rates: boolean): StateLoads {
  const sm = new SuspensionModel(suspensionAssembly(g));
  const loads = rates ? new SweepLoads(sm, lc) : new LoadsWithoutRates(sm, lc);
  let out: StateLoads | null = null;
  runSweep(sm, sweepFromShortcut(kind, `${at}:${at}:1`, g), { metrics: noMetrics, onSolvedState: () => { out = loads.evaluate(); } });
  if (!out) throw new Error('not solved');
  return out;
}

/**
 * `kinemate sweep`'s metrics (the full evaluation: derivatives, steering response, *_virtual) at
 * the spec's one state of a fresh model, kept by the spec and the geometry's text (read-only to
 * callers): checks of different metrics at one state (an axle's device metrics and its *_virtual,
 * devices.test.ts; the bar axles' checks of several topics, bar-axles.test.ts) re-solve each moved
 * geometry once.
 */
export function sweptMetrics(g: Geometry, spec: SweepSpec): object {
  return sweptStep(g, spec).metrics!;
}

/** The solved step (positions and metrics) sweptMetrics keeps. */
export function sweptStep(g: Geometry, spec: SweepSpec): StepResult {
  const key = `${JSON.stringify(spec)} ${JSON.stringify(g)}`;
  let out = swept.get(key);
  if (!out) {
    const step = runSweep(new SuspensionModel(suspensionAssembly(g)), spec).steps[0];
    if (step.status !== 'solved') throw new Error(`not solved: ${step.message ?? ''}`);
    swept.set(key, (out = step));
  }
  return out;
}
const swept = new Map<string, StepResult>();

/**
 * Drops every kept re-solve (loadsOf, sweptMetrics, sweptStep). Each file that keeps them calls it
 * after its tests (`afterAll(forgetKept)`): a worker's files share this module, and the kept results
 * would otherwise stay on the heap through every later file.
 */
export function forgetKept(): void {
  swept.clear();
  solvedLoads = new WeakMap();
}

/** The axle file of a corner file (the right side its mirror), written in the axle format. */
export function axleFromCornerText(text: string): Geometry {
  const raw = parseText(text) as Record<string, any>;
  const { cg_position, wheelbase, axle_position, camber_shim, length_shims, ...config } = raw.config;
  // a corner's setup is the axle's left one (the right side's is its mirror)
  const setup = camber_shim || length_shims ? { left_setup: { ...(camber_shim ? { camber_shim } : {}), ...(length_shims ? { length_shims } : {}) } } : {};
  return parseGeometry(JSON.stringify({
    scope: 'axle', type: raw.type, units: raw.units,
    vehicle_config: { cg_position, wheelbase },
    axle_config: { axle_position, ...config, ...setup, actuation: raw.actuation, spring: raw.spring, anti_roll: { type: 'none' }, heave_link: { type: 'none' } },
    hardpoints: { left: raw.hardpoints },
  }));
}
