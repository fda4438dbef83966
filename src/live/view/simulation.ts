/**
 * A time simulation for the viewer: the library's `simulate()` run on the current
 * document, each frame reduced to plain data the page can play back (part poses, the
 * energy budget, link and tyre forces) and handed out in batches as it is made. No DOM:
 * it runs in the simulation worker (`simulation.worker.ts`) and, for tests, in Node.
 */
import { compileDocument } from '../document.ts';
import { simulate, type SimulationFrame, type SimulationEvent, type EnergyJSON } from '../../mechanics/simulate.ts';
import { splitReference, type AssemblyDoc, type PoseDoc } from '../../assembly/types.ts';
import type { LiveDocument } from '../document.ts';

export interface SimulationSettings {
  /** s. */
  duration: number;
  /** s. */
  step: number;
  /** A frame every this many steps (and the last). */
  every: number;
  rhoInf?: number;
}

/** What every frame of a run lists, in this order. */
export interface SimulationHeader {
  /** The moving parts whose poses a frame carries. */
  parts: string[];
  /** Distance mates (two-point links): a frame carries their axial force, N, tension positive. */
  rods: string[];
  /** Moving parts with mates: a frame carries the largest joint force on each, N. */
  loaded: string[];
  /** Tyres: `tyre` elements and springs named as tyres; a frame carries their vertical (compressive) force, N. */
  tyres: string[];
}

/** One frame as plain data. */
export interface PlaybackFrame {
  t: number;
  /** Per header part: position (x, y, z), then rotation (w, x, y, z). */
  poses: number[][];
  energy: EnergyJSON;
  rods: number[];
  loaded: number[];
  tyres: number[];
}

export type SimulationMessage =
  | { kind: 'start'; header: SimulationHeader }
  | { kind: 'frames'; frames: PlaybackFrame[] }
  | { kind: 'done'; status: 'completed' | 'failed'; message: string | null; events: SimulationEvent[]; steps: number }
  | { kind: 'error'; message: string };

const isWrench = (r: unknown): r is { on: string; at: number[]; force: number[] } => typeof r === 'object' && r !== null && 'force' in r && Array.isArray((r as { force: unknown }).force);

/** Whether an element reports a tyre's force, and its compressive value (N). */
function tyreForce(id: string, report: unknown): number | null {
  const r = report as Record<string, unknown>;
  if (typeof r.penetration === 'number' && typeof r.force === 'number') return r.force;
  // a tyre modelled as a spring (the quarter car's, the corner's): its compression
  if (/tyre|tire/i.test(id) && typeof r.tension === 'number') return -r.tension;
  return null;
}

function split(ref: string): [string, string] {
  const r = splitReference(ref);
  return r ? [r.owner, r.name] : [ref, ''];
}

/** A point's world position at a frame (its part's pose there, or the file's pose of a fixed part). */
function worldPoint(doc: AssemblyDoc, state: SimulationFrame['state'], ref: string): number[] | null {
  const [part, name] = split(ref);
  const p = doc.parts[part];
  const local = p?.points?.[name] ?? p?.frames?.[name]?.origin;
  if (!local) return null;
  const pose = (state[`${part}.pose`] as PoseDoc | undefined) ?? p.pose;
  const [w, x, y, z] = pose.rotation;
  const [vx, vy, vz] = local;
  // v + 2w(q × v) + 2 q × (q × v)
  const cx = y * vz - z * vy, cy = z * vx - x * vz, cz = x * vy - y * vx;
  return [
    pose.position[0] + vx + 2 * (w * cx + y * cz - z * cy),
    pose.position[1] + vy + 2 * (w * cy + z * cx - x * cz),
    pose.position[2] + vz + 2 * (w * cz + x * cy - y * cx),
  ];
}

/** The frame-independent lists of a run, from the assembly and its first frame. */
export function headerOf(doc: AssemblyDoc, first: SimulationFrame): SimulationHeader {
  const parts = Object.keys(doc.parts).filter((p) => `${p}.pose` in first.state);
  const rods: string[] = [];
  const loaded = new Set<string>();
  for (const [id, m] of Object.entries(doc.mates)) {
    const mm = m as { type: string; a?: unknown; b?: unknown };
    if (typeof mm.a !== 'string' || typeof mm.b !== 'string' || !isWrench(first.reactions[id])) continue;
    if (mm.type === 'distance') rods.push(id);
    for (const ref of [mm.a, mm.b]) { const part = split(ref)[0]; if (parts.includes(part)) loaded.add(part); }
  }
  const tyres = Object.entries(first.forces).filter(([id, r]) => tyreForce(id, r) !== null).map(([id]) => id);
  return { parts, rods, loaded: [...loaded], tyres };
}

/** Each header rod's axial force at a frame (N, tension positive). */
export function rodForces(doc: AssemblyDoc, header: SimulationHeader, frame: SimulationFrame): number[] {
  return header.rods.map((id) => {
    // the reaction is the force on the mate's b point: pulling it toward a is tension
    const m = doc.mates[id] as { a: string; b: string };
    const r = frame.reactions[id] as { force: number[]; tension?: number };
    if (typeof r.tension === 'number') return r.tension;
    const a = worldPoint(doc, frame.state, m.a), b = worldPoint(doc, frame.state, m.b);
    if (!a || !b) return 0;
    const d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
    const l = Math.hypot(d[0], d[1], d[2]) || 1;
    return (r.force[0] * d[0] + r.force[1] * d[1] + r.force[2] * d[2]) / l;
  });
}

/** Each header loaded part's largest joint force at a frame (N). */
export function partLoads(doc: AssemblyDoc, header: SimulationHeader, frame: SimulationFrame): number[] {
  return header.loaded.map((part) => {
    let most = 0;
    for (const [id, m] of Object.entries(doc.mates)) {
      const mm = m as { a?: unknown; b?: unknown };
      const r = frame.reactions[id];
      if (!isWrench(r) || typeof mm.a !== 'string' || typeof mm.b !== 'string') continue;
      if (split(mm.a)[0] !== part && split(mm.b)[0] !== part) continue;
      most = Math.max(most, Math.hypot(r.force[0], r.force[1], r.force[2]));
    }
    return most;
  });
}

/** A library frame as playback data. */
export function playbackFrame(doc: AssemblyDoc, header: SimulationHeader, frame: SimulationFrame): PlaybackFrame {
  const poses = header.parts.map((p) => { const pose = frame.state[`${p}.pose`] as PoseDoc; return [...pose.position, ...pose.rotation]; });
  const tyres = header.tyres.map((id) => tyreForce(id, frame.forces[id]) ?? 0);
  return { t: frame.t, poses, energy: { ...frame.energy }, rods: rodForces(doc, header, frame), loaded: partLoads(doc, header, frame), tyres };
}

/**
 * Runs the library's simulation of a document, sending `start`, then `frames` batches
 * (at most every `batchMs` of wall time, and the rest at the end), then `done`; or
 * `error` when the run cannot start (no masses, a start pose that cannot be solved).
 * A failed step ends with `done` status `failed`, its message, and the frames so far.
 */
export function runSimulation(document: LiveDocument, settings: SimulationSettings, send: (message: SimulationMessage) => void, batchMs = 50): void {
  let header: SimulationHeader | null = null;
  let doc: AssemblyDoc | null = null;
  let batch: PlaybackFrame[] = [];
  let last = now();
  const flush = () => { if (batch.length) { send({ kind: 'frames', frames: batch }); batch = []; } last = now(); };
  try {
    doc = compileDocument(document).assembly;
    const assembly = doc;
    const result = simulate(assembly, {
      duration: settings.duration, step: settings.step, every: settings.every, keepFrames: false,
      ...(settings.rhoInf !== undefined ? { rhoInf: settings.rhoInf } : {}),
      onFrame: (frame) => {
        if (!header) { header = headerOf(assembly, frame); send({ kind: 'start', header }); }
        batch.push(playbackFrame(assembly, header, frame));
        if (now() - last >= batchMs) flush();
      },
    });
    flush();
    send({ kind: 'done', status: result.status, message: result.message ?? null, events: result.events, steps: result.steps });
  } catch (error) {
    flush();
    send({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());
