/**
 * `simulate`: the time response of a mated assembly (dynamics.md "simulate"). The file's
 * optional `motions` and `velocities` are read here (the loader keeps them verbatim as
 * top-level fields); positions come from the kinematic solve with the motions at t = 0,
 * velocities are projected onto the velocity constraints (the size of the correction to
 * what the file gave is reported), then kernel/integrator/integrator.ts steps the DAE. Every frame
 * carries the state, velocities, energy budget (J), reactions, driver forces, element
 * reports and the largest constraint residual.
 */
import { Observable } from 'rxjs';
import { rotationMatrix } from '../../kernel/dual';
import { Integrator, IntegratorError, type IntegratorGroup, type IntegratorMethod } from '../../kernel/integrator/integrator';
import { CoordinateMotion, PointMotion, SineFunction, TableFunction, type TimeDriver, type TimeFunction } from '../../kernel/motion';
import { solve } from '../../kernel/solver/solve';
import { TyreForce } from '../../mates/forces';
import { RollingBlock } from '../../mates/rolling';
import { splitReference, type AssemblyDoc } from '../assembly/types';
import { ModelError } from '../model/build';
import { modelState, solveModel, type StateJSON } from '../model/operations';
import { buildDynamics, type DynamicsModel } from './build';
import { elementReports, mateReactions, type CoordinateReaction, type ElementReport, type RowMultipliers, type Wrench } from './statics';
import type { Vec3Tuple } from '../../kernel/vec3';
import { ArgumentError } from '../../kernel/errors';

/** Joules per internal energy unit (t·mm²/s² = N·mm). */
const JOULE = 1e-3;

export interface SimulateOptions {
  /** s. */
  duration: number;
  /** s. */
  step: number;
  method?: IntegratorMethod;
  rhoInf?: number;
  /**
   * The group poses step on; default 'R3xSO3' (translation in world axes: exact for a constant
   * acceleration, kernel/integrator/product-group.ts), which the gradients differentiate too (src/gradients/product-step.ts); 'SE3' the other.
   */
  lieGroup?: IntegratorGroup;
  /** A frame every this many steps (and the last); default 1. */
  every?: number;
  /** Called with each frame as it is made (the CLI's progress, live use). */
  onFrame?: (frame: SimulationFrame) => void;
  /** Keep the frames in the result (default true). */
  keepFrames?: boolean;
}

export interface EnergyJSON { kinetic: number; potential: number; elastic: number; dissipated: number; external: number; total: number }

export interface SimulationFrame {
  t: number;
  state: StateJSON;
  /** Coordinates in file units per second; parts: { linear (mm/s, of the part origin), angular (angle unit/s) }, world axes. */
  velocities: Record<string, number | { linear: Vec3Tuple; angular: Vec3Tuple }>;
  /** J. */
  energy: EnergyJSON;
  reactions: Record<string, Wrench | CoordinateReaction>;
  /** Held coordinates and motions: the force (N) or torque (N·mm) the driver applies. */
  drivers: Record<string, number>;
  forces: Record<string, ElementReport>;
  /** Largest |Φ| (mm). */
  residual: number;
}

export interface SimulationEvent { t: number; type: 'lift_off' | 'touch_down' | 'limit' | 'failed'; element: string; message?: string }

export interface SimulationResult {
  status: 'completed' | 'failed';
  method: IntegratorMethod;
  step: number;
  rho_inf?: number;
  frames: SimulationFrame[];
  events: SimulationEvent[];
  /** Per force element and motion: stored energy at the end + energy dissipated − work done on the assembly (J). */
  energy_by_element: Record<string, number>;
  /** total(end) − total(start), J: the numerical dissipation (negative: energy lost to the method). */
  numerical_dissipation: number;
  /** Size of the correction the projection made to the file's initial velocities (mm/s; a turn rate counts as the length scale × it). */
  velocity_projection: number;
  steps: number;
  message?: string;
}

// ---- the file's motions and initial velocities ----

type MotionSpec =
  | { id: string; coordinate: string; law: TimeFunction }
  | { id: string; point: string; axis: 0 | 1 | 2; law: TimeFunction };

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
function finite(x: unknown, path: string): number {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new ModelError(path, `expected a finite number, got ${JSON.stringify(x)}`);
  return x;
}

/** A time law in file units (values as the coordinate's or mm; a sine's phase in degrees); `k` converts values to internal units. */
function lawOf(m: Record<string, unknown>, path: string, k: number): TimeFunction {
  if ((m.sine === undefined) === (m.table === undefined)) throw new ModelError(path, 'a motion needs either "sine" or "table"');
  if (m.table !== undefined) {
    if (!Array.isArray(m.table) || m.table.length < 2) throw new ModelError(`${path}.table`, 'expected a table [[t, value], …] of at least 2 rows');
    const rows = m.table.map((row, i) => {
      if (!Array.isArray(row) || row.length !== 2) throw new ModelError(`${path}.table[${i}]`, 'expected [t, value]');
      return [finite(row[0], `${path}.table[${i}][0]`), finite(row[1], `${path}.table[${i}][1]`) * k] as const;
    });
    rows.forEach((r, i) => { if (i > 0 && !(r[0] > rows[i - 1][0])) throw new ModelError(`${path}.table[${i}][0]`, 'times must increase strictly'); });
    return new TableFunction(rows);
  }
  if (!isObject(m.sine)) throw new ModelError(`${path}.sine`, 'expected { amplitude, frequency, phase, offset }');
  const s = m.sine;
  for (const key of Object.keys(s)) if (!['amplitude', 'frequency', 'phase', 'offset'].includes(key)) throw new ModelError(`${path}.sine.${key}`, 'unknown field');
  const amplitude = finite(s.amplitude, `${path}.sine.amplitude`), frequency = finite(s.frequency, `${path}.sine.frequency`);
  const phase = s.phase === undefined ? 0 : finite(s.phase, `${path}.sine.phase`);
  const offset = s.offset === undefined ? 0 : finite(s.offset, `${path}.sine.offset`);
  return new SineFunction(amplitude * k, frequency, (phase * Math.PI) / 180, offset * k);
}

/** The file's `motions`, checked against the model. */
export function readMotions(dyn: DynamicsModel): MotionSpec[] {
  const raw = (dyn.model.doc as AssemblyDoc & { motions?: unknown }).motions;
  if (raw === undefined) return [];
  if (!isObject(raw)) throw new ModelError('motions', 'expected an object of motions');
  const out: MotionSpec[] = [];
  for (const [id, m] of Object.entries(raw)) {
    const path = `motions.${id}`;
    if (!isObject(m)) throw new ModelError(path, 'expected a motion object');
    for (const key of Object.keys(m)) if (!['coordinate', 'point', 'axis', 'sine', 'table'].includes(key)) throw new ModelError(`${path}.${key}`, 'unknown field');
    if (typeof m.coordinate === 'string') {
      const info = dyn.model.coordinates.get(m.coordinate);
      if (!info) throw new ModelError(`${path}.coordinate`, `no coordinate "${m.coordinate}"`);
      out.push({ id, coordinate: m.coordinate, law: lawOf(m, path, info.kind === 'angle' ? dyn.model.angleFactor : 1) });
    } else if (typeof m.point === 'string') {
      const ref = splitReference(m.point);
      if (!ref || !dyn.model.doc.parts[ref.owner]?.points?.[ref.name]) throw new ModelError(`${path}.point`, `no point "${m.point}"`);
      const axis = ['x', 'y', 'z'].indexOf(m.axis as string);
      if (axis < 0) throw new ModelError(`${path}.axis`, 'expected "x", "y" or "z"');
      out.push({ id, point: m.point, axis: axis as 0 | 1 | 2, law: lawOf(m, path, 1) });
    } else throw new ModelError(path, 'a motion drives a "coordinate" or a "point" with an "axis"');
  }
  return out;
}

/** The file's `velocities` as tangent velocities (internal units) and which slots were given. */
export function readVelocities(dyn: DynamicsModel, layout: Int32Array, size: number): { v0: Float64Array; given: Uint8Array } {
  const v0 = new Float64Array(size), given = new Uint8Array(size);
  const raw = (dyn.model.doc as AssemblyDoc & { velocities?: unknown }).velocities;
  if (raw === undefined) return { v0, given };
  if (!isObject(raw)) throw new ModelError('velocities', 'expected an object of initial velocities');
  const { model, system } = dyn;
  const af = model.angleFactor;
  const R = new Float64Array(9);
  for (const [name, value] of Object.entries(raw)) {
    const path = `velocities.${name}`;
    const info = model.coordinates.get(name);
    if (info) {
      const c0 = layout[info.variable];
      if (c0 < 0) continue;
      v0[c0] = finite(value, path) * (info.kind === 'angle' ? af : 1);
      given[c0] = 1;
      continue;
    }
    const part = name.endsWith('.pose') ? name.slice(0, -5) : '';
    const variable = model.parts.get(part);
    if (variable === undefined) throw new ModelError(path, `no coordinate or part pose "${name}"`);
    if (!isObject(value)) throw new ModelError(path, 'expected { "linear": [x, y, z], "angular": [x, y, z] }');
    const c0 = layout[variable];
    if (c0 < 0) continue;
    const vec = (key: string): number[] => {
      const x = value[key];
      if (x === undefined) return [0, 0, 0];
      if (!Array.isArray(x) || x.length !== 3) throw new ModelError(`${path}.${key}`, 'expected [x, y, z]');
      return x.map((c, i) => finite(c, `${path}.${key}[${i}]`));
    };
    const lin = vec('linear'), ang = vec('angular').map((x) => x * af);
    rotationMatrix(R, system.state, system.variables[variable].offset + 3);
    for (let i = 0; i < 3; i++) {
      // body axes: Rᵀ times the world vector
      v0[c0 + i] = R[i] * ang[0] + R[3 + i] * ang[1] + R[6 + i] * ang[2];
      v0[c0 + 3 + i] = R[i] * lin[0] + R[3 + i] * lin[1] + R[6 + i] * lin[2];
    }
    for (let k = 0; k < 6; k++) given[c0 + k] = 1;
  }
  return { v0, given };
}

// ---- a run ----

/** A prepared run: the model solved at t = 0 with its motions, and the integrator started. */
export interface Simulation {
  dyn: DynamicsModel;
  integrator: Integrator;
  drivers: { id: string; block: TimeDriver }[];
  velocityProjection: number;
  /** One frame at the integrator's current state. */
  frame(): SimulationFrame;
}

/** Solve the positions at t = 0 (motions included), add the motion rows, and start the integrator. */
export function prepareSimulation(source: AssemblyDoc | DynamicsModel, options: { method?: IntegratorMethod; rhoInf?: number; lieGroup?: IntegratorGroup; constraintTolerance?: number; residualTolerance?: number } = {}): Simulation {
  const dyn = 'forces' in source && 'bodies' in source ? (source as DynamicsModel) : buildDynamics(source as AssemblyDoc);
  const { model, system } = dyn;
  const motions = readMotions(dyn);
  const drivers: { id: string; block: TimeDriver }[] = [];
  const f0 = new Float64Array(3);
  // coordinates driven by a motion: hold them at f(0) for the start solve, then drive them instead
  const set: Record<string, number> = {};
  for (const m of motions) {
    if (!('coordinate' in m)) continue;
    const info = model.coordinates.get(m.coordinate)!;
    system.hold(info.variable);
    set[m.coordinate] = m.law.evaluate(0, f0)[0] / (info.kind === 'angle' ? model.angleFactor : 1);
  }
  // the file's coordinate values place the parts (held for the start solve; if they over-determine the pose, the plain solve)
  const snapshot = system.snapshot();
  const placed: number[] = [];
  for (const [name, value] of Object.entries(model.doc.state)) {
    const info = model.coordinates.get(name);
    if (!info || typeof value !== 'number' || system.isHeld(info.variable)) continue;
    system.hold(info.variable, info.kind === 'angle' ? value * model.angleFactor : value);
    placed.push(info.variable);
  }
  let solved = solveModel(model, { set });
  for (const v of placed) system.release(v);
  if (placed.length && solved.status !== 'solved') {
    system.restore(snapshot);
    solved = solveModel(model, { set });
  }
  if (solved.status !== 'solved') throw new IntegratorError(`the start pose cannot be solved: ${solved.message ?? (solved.failed ?? []).join(', ')}`);
  for (const m of motions) {
    if ('coordinate' in m) {
      const info = model.coordinates.get(m.coordinate)!;
      system.release(info.variable);
      const block = new CoordinateMotion(m.id, info.variable, m.law, system.variables[info.variable].scale);
      system.addBlock(block);
      drivers.push({ id: m.id, block });
    } else {
      const ref = splitReference(m.point)!;
      const block = new PointMotion(m.id, model.parts.get(ref.owner)!, model.doc.parts[ref.owner].points![ref.name], m.axis, m.law);
      system.addBlock(block);
      drivers.push({ id: m.id, block });
    }
  }
  if (drivers.some((d) => d.block instanceof PointMotion)) {
    const report = solve(system);
    if (!report.converged) throw new IntegratorError('the start pose cannot be solved with the motions at t = 0');
  }
  const integrator = new Integrator(system, dyn.forces, dyn.bodies.map((b) => ({ variable: b.variable, M: b.M })), drivers.map((d) => d.block), options);
  // between steps only the tyres' last evaluation is read (run's touch-down events; frames evaluate their own)
  integrator.stepEnd.readAfterStep(dyn.forces, dyn.elements.filter((e) => e.block instanceof TyreForce).map((e) => e.index));
  const { v0, given } = readVelocities(dyn, integrator.layout, integrator.size);
  const start = integrator.start(0, v0, given);
  const sim: Simulation = { dyn, integrator, drivers, velocityProjection: start.projection, frame: () => frameOf(sim) };
  return sim;
}

function frameOf(sim: Simulation): SimulationFrame {
  const { dyn, integrator: it } = sim;
  const { model, system } = dyn;
  const af = model.angleFactor;
  const e = it.energy();
  const velocities: SimulationFrame['velocities'] = {};
  const R = new Float64Array(9);
  for (const [name, v] of model.parts) {
    const c0 = it.layout[v];
    if (c0 < 0) continue;
    rotationMatrix(R, system.state, system.variables[v].offset + 3);
    const world = (o: number, k: number): Vec3Tuple => [0, 1, 2].map((i) => (R[3 * i] * it.v[c0 + o] + R[3 * i + 1] * it.v[c0 + o + 1] + R[3 * i + 2] * it.v[c0 + o + 2]) * k) as Vec3Tuple;
    velocities[`${name}.pose`] = { linear: world(3, 1), angular: world(0, 1 / af) };
  }
  for (const [name, info] of model.coordinates) {
    const c0 = it.layout[info.variable];
    if (c0 >= 0) velocities[name] = it.v[c0] / (info.kind === 'angle' ? af : 1);
  }
  const mult: RowMultipliers = { lambda: it.lambda, rowBlock: it.rowBlock, rowInBlock: it.rowInBlock, nullLambda: [] };
  const reactions = mateReactions(dyn, mult);
  const drivers: Record<string, number> = {};
  for (let row = 0; row < it.rows; row++) {
    const blk = system.block(it.rowBlock[row]);
    if (blk.owner.startsWith('hold:')) drivers[blk.owner.slice(5)] = -system.variables[blk.vars[0]].scale * it.lambda[row];
  }
  sim.drivers.forEach((d) => {
    const row = [...it.rowBlock].findIndex((b) => system.block(b) === d.block);
    drivers[d.id] = -d.block.scale * it.lambda[row];
  });
  return {
    t: it.t,
    state: modelState(model),
    velocities,
    energy: { kinetic: e.kinetic * JOULE, potential: e.potential * JOULE, elastic: e.elastic * JOULE, dissipated: e.dissipated * JOULE, external: e.external * JOULE, total: e.total * JOULE },
    reactions,
    drivers,
    forces: elementReports(dyn, it.t, it.v),
    residual: it.maxResidual(),
  };
}

/**
 * The rolling mates' contacts, each with whether the track presses its wheel now: the
 * normal force is minus the multiplier of the mate's second row (its gradient in the wheel's
 * centre is the unit normal from the track; the other rows' are along the track).
 */
function rollingContacts(sim: Simulation): { id: string; pressing: () => boolean }[] {
  const { integrator: it, dyn } = sim;
  const out: { id: string; pressing: () => boolean }[] = [];
  for (let row = 0; row < it.rows; row++) {
    const blk = dyn.system.block(it.rowBlock[row]);
    if (blk instanceof RollingBlock && it.rowInBlock[row] === 1) out.push({ id: blk.owner, pressing: () => -it.lambda[row] >= 0 });
  }
  return out;
}

/** Per file element and motion: stored energy + dissipated − work done on the assembly (J). */
function energyByElement(sim: Simulation): Record<string, number> {
  const { dyn, integrator: it } = sim;
  const out: Record<string, number> = {};
  for (const el of dyn.elements) out[el.id] = (it.blockPotential(el.index) + it.blockDissipated[el.index] - it.blockExternal[el.index]) * JOULE;
  sim.drivers.forEach((d, k) => { out[d.id] = -it.driverWork[k] * JOULE; });
  return out;
}

/**
 * The size of the step that ends the run at the duration: h itself when the duration is a
 * whole number of steps up to round-off, else what is left after the others.
 */
export function finalStep(duration: number, step: number, steps: number): number {
  const left = duration - (steps - 1) * step;
  return Math.abs(left - step) <= 1e-9 * step ? step : left;
}

/** Run the simulation to the end, calling `emit` with each frame; the result without frames unless kept. */
function run(source: AssemblyDoc | DynamicsModel, options: SimulateOptions, emit: (frame: SimulationFrame) => void): SimulationResult {
  const { duration, step } = options;
  if (!(duration > 0) || !Number.isFinite(duration)) throw new ArgumentError('duration', `expected a positive number of seconds, got ${duration}`);
  if (!(step > 0) || !Number.isFinite(step)) throw new ArgumentError('step', `expected a positive number of seconds, got ${step}`);
  const every = Math.max(1, Math.floor(options.every ?? 1));
  const method = options.method ?? 'generalized-alpha';
  const sim = prepareSimulation(source, { method, rhoInf: options.rhoInf, lieGroup: options.lieGroup ?? 'R3xSO3' });
  const it = sim.integrator;
  const frames: SimulationFrame[] = [];
  const keep = options.keepFrames ?? true;
  const push = (f: SimulationFrame) => { if (keep) frames.push(f); emit(f); options.onFrame?.(f); };
  const events: SimulationEvent[] = [];
  const tyres = sim.dyn.elements.filter((e) => e.block instanceof TyreForce);
  const contact = tyres.map((e) => (e.block as TyreForce).last.force > 0);
  const wheels = rollingContacts(sim);
  const pressing = wheels.map((w) => w.pressing());
  // coordinates with limits: an event when one reaches its limit (limits are not enforced in a run)
  const { system } = sim.dyn;
  const limited = [...sim.dyn.model.coordinates.values()].filter((c) => system.variables[c.variable].limits);
  const outside = limited.map(() => false);
  const checkLimits = () => limited.forEach((c, i) => {
    const [lo, hi] = system.variables[c.variable].limits!, x = system.getScalar(c.variable);
    const now = x < lo || x > hi;
    if (now && !outside[i]) events.push({ t: it.t, type: 'limit', element: c.name });
    outside[i] = now;
  });
  const first = sim.frame();
  const total0 = first.energy.total;
  push(first);
  const steps = Math.max(1, Math.round(duration / step));
  let status: SimulationResult['status'] = 'completed', message: string | undefined, last = first, done = 0;
  // t_k = k·h (not a running sum of h, which drifts); the last step ends exactly at the duration
  const lastStep = finalStep(duration, step, steps);
  for (let k = 1; k <= steps; k++) {
    if (!it.step(k === steps ? lastStep : step, k === steps ? duration : k * step)) {
      status = 'failed';
      message = `the step at t = ${it.t} s did not converge even at ${step / 64} s`;
      events.push({ t: it.t, type: 'failed', element: '', message });
      break;
    }
    done = k;
    if (limited.length) checkLimits();
    tyres.forEach((e, i) => {
      const now = (e.block as TyreForce).last.force > 0;
      if (now !== contact[i]) events.push({ t: it.t, type: now ? 'touch_down' : 'lift_off', element: e.id });
      contact[i] = now;
    });
    // a rolling wheel cannot lift off (the mate holds it), but a normal force turning negative says it would
    wheels.forEach((w, i) => {
      const now = w.pressing();
      if (now !== pressing[i]) events.push({ t: it.t, type: now ? 'touch_down' : 'lift_off', element: w.id });
      pressing[i] = now;
    });
    if (k % every === 0 || k === steps) { last = sim.frame(); push(last); }
  }
  if (status === 'failed' && last.t !== it.t) { last = sim.frame(); push(last); }
  return {
    status, method, step, ...(method === 'generalized-alpha' ? { rho_inf: options.rhoInf ?? 0.9 } : {}),
    frames, events,
    energy_by_element: energyByElement(sim),
    numerical_dissipation: last.energy.total - total0,
    velocity_projection: sim.velocityProjection,
    steps: done,
    ...(message ? { message } : {}),
  };
}

/** Integrate the assembly from its file state (see the `simulate` command); the frames in the result. */
export function simulate(source: AssemblyDoc | DynamicsModel, options: SimulateOptions): SimulationResult {
  return run(source, options, () => {});
}

/** The same run as an Observable of frames (live use); completes after the last frame, errors on a failed step. */
export function simulateFrames(source: AssemblyDoc | DynamicsModel, options: SimulateOptions): Observable<SimulationFrame> {
  return new Observable<SimulationFrame>((subscriber) => {
    try {
      const result = run(source, { ...options, keepFrames: false }, (f) => subscriber.next(f));
      if (result.status === 'failed') subscriber.error(new IntegratorError(result.message ?? ''));
      else subscriber.complete();
    } catch (error) {
      subscriber.error(error);
    }
  });
}
