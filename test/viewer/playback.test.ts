/**
 * Simulation playback in Node (viewer/src/playback.ts, viewer/src/simulation.ts): the clock
 * and the time → frame lookup on frames whose values are known in closed form, and a real
 * run of the pendulum played back against what physics says it must show (where the bob
 * is at a quarter and a half period, its kinetic energy and the pivot force at the
 * bottom), never against a second call of the same code.
 */
import { describe, expect, it } from 'vitest';
import { poseAt } from './pose-request';
import { readFileSync } from 'node:fs';
import { Playback, SLIDER_STEPS, posedResult } from '../../src/live/view/playback.ts';
import { runSimulation, type PlaybackFrame, type SimulationHeader, type SimulationMessage } from '../../src/live/view/simulation.ts';
import { LiveViewPresenter } from '../../src/live/view/presenter.ts';
import { TEMPLATES } from '../../viewer/src/document';
import { assemblyDocument } from '../../src/live';
import { parseAssembly, validateAssembly } from '../../src/assembly';
import type { AssemblyDoc } from '../../src/assembly/types';

const ENERGY = { kinetic: 0, potential: 0, elastic: 0, dissipated: 0, external: 0, total: 0 };
const HEADER: SimulationHeader = { parts: ['p'], rods: [], loaded: [], tyres: [] };

/** Frames every 0.1 s of a part moving at 10 mm/s along x and turning 0.5 rad/s about z. */
function frames(n: number): PlaybackFrame[] {
  return Array.from({ length: n }, (_, i) => {
    const t = i / 10, half = 0.25 * t;
    return { t, poses: [[10 * t, 0, 0, Math.cos(half), 0, 0, Math.sin(half)]], energy: { ...ENERGY, kinetic: t * t }, rods: [], loaded: [], tyres: [] };
  });
}

const example = (name: string) => assemblyDocument(parseAssembly(readFileSync(new URL(`../../examples/${name}.kinemate.json`, import.meta.url), 'utf8')));

function run(doc: ReturnType<typeof example>, duration: number, step: number, every = 1): { messages: SimulationMessage[]; playback: Playback } {
  const messages: SimulationMessage[] = [];
  const playback = new Playback();
  playback.reset(duration);
  runSimulation(doc, { duration, step, every }, (m) => {
    messages.push(m);
    if (m.kind === 'start') playback.header = m.header;
    if (m.kind === 'frames') playback.append(m.frames);
    if (m.kind === 'done' || m.kind === 'error') playback.complete = true;
  }, 0);
  return { messages, playback };
}

describe('playback model', () => {
  it('finds the frames around a time and interpolates between them', () => {
    const p = new Playback();
    p.reset(1, HEADER);
    p.append(frames(11));
    expect(p.locate(0.35)).toEqual({ index: 3, fraction: expect.closeTo(0.5, 12) });
    expect(p.locate(-1)).toEqual({ index: 0, fraction: 0 });
    expect(p.locate(5)).toEqual({ index: 10, fraction: 0 });
    // a position linear in time comes back exactly; t² between frames is the chord's value
    const pose = p.posesAt(0.37).p;
    expect(pose[0]).toBeCloseTo(3.7, 12);
    expect(p.valueAt((f) => f.energy.kinetic, 0.35)).toBeCloseTo((0.09 + 0.16) / 2, 12);
    // a turn at a constant rate: the blend of two frames is the rotation half way (0.5 rad/s · 0.35 s)
    const mid = p.posesAt(0.35).p;
    expect(2 * Math.atan2(mid[6], mid[3])).toBeCloseTo(0.175, 12);
    expect(Math.hypot(mid[3], mid[4], mid[5], mid[6])).toBeCloseTo(1, 14);
  });

  it('takes the shorter arc when a frame stores the other sign of the same rotation', () => {
    const p = new Playback();
    p.reset(1, HEADER);
    const f = frames(2);
    f[1].poses[0] = f[1].poses[0].map((x, k) => (k < 3 ? x : -x));
    p.append(f);
    const mid = p.posesAt(0.05).p;
    expect(Math.abs(2 * Math.atan2(mid[6], mid[3]))).toBeCloseTo(0.025, 12);
  });

  it('the clock: play, pause, speed; at the end it waits for frames, then stops; play again starts over', () => {
    const p = new Playback();
    p.reset(2, HEADER);
    p.append(frames(6)); // up to 0.5 s computed so far
    expect(p.tick(0.1)).toBe(false); // paused: nothing moves
    p.play();
    p.tick(0.1);
    expect(p.time).toBeCloseTo(0.1, 12);
    p.speed = 0.25;
    p.tick(0.4);
    expect(p.time).toBeCloseTo(0.2, 12);
    p.pause();
    p.tick(1);
    expect(p.time).toBeCloseTo(0.2, 12);
    p.play();
    p.speed = 2;
    p.tick(1);
    // past the frames there are: it waits at the last one, still playing
    expect(p.time).toBe(0.5);
    expect(p.playing).toBe(true);
    p.append(frames(21).slice(6));
    p.tick(0.25);
    expect(p.time).toBeCloseTo(1.0, 12);
    p.complete = true;
    p.tick(10);
    expect(p.time).toBe(2);
    expect(p.playing).toBe(false);
    p.play();
    expect(p.time).toBe(0);
  });

  it('the slider maps 0…SLIDER_STEPS to 0…duration, within the frames there are', () => {
    const p = new Playback();
    p.reset(2, HEADER);
    p.append(frames(11)); // 0…1 s
    expect(p.sliderValue(0.5)).toBe(SLIDER_STEPS / 4);
    expect(p.timeOfSlider(SLIDER_STEPS / 4)).toBeCloseTo(0.5, 12);
    expect(p.timeOfSlider(SLIDER_STEPS)).toBe(1); // not computed yet: the last frame
    p.seek(7);
    expect(p.time).toBe(1);
  });
});

describe('a pendulum run played back', () => {
  // 1 kg point mass on a 1 m massless rod released from horizontal: period 2.3682463463 s (elliptic integral)
  const T = 2.3682463463, g = 9.80665;
  const { messages, playback } = run(example('pendulum'), 1.3, 0.001);

  it('streams a header, the frames and a completed run', () => {
    expect(messages[0]).toEqual({ kind: 'start', header: { parts: ['bob'], rods: [], loaded: ['bob'], tyres: [] } });
    expect(messages.at(-1)).toMatchObject({ kind: 'done', status: 'completed', steps: 1300 });
    expect(playback.frames.length).toBe(1301);
  });

  it('shows the bob at the bottom after a quarter period and across at half a period; energy and pivot force as physics says', () => {
    const base = new LiveViewPresenter().pose(poseAt(1, example('pendulum'), { travel: [], rack: 0 }));
    const at = (t: number) => posedResult(base, playback.posesAt(t)).points['bob.mass'];
    const start = at(0);
    expect(Math.abs(start[0])).toBeCloseTo(1000, 6);
    expect(start[2]).toBeCloseTo(0, 6);
    // between frames (t not on a step): the interpolation
    const bottom = at(T / 4);
    expect(Math.hypot(bottom[0], bottom[1])).toBeLessThan(1);
    expect(bottom[2]).toBeCloseTo(-1000, 0);
    const across = at(T / 2);
    expect(across[0]).toBeCloseTo(-start[0], -1); // within 5 mm
    expect(Math.abs(across[2])).toBeLessThan(1);
    // kinetic energy at the bottom m g L, the pivot force 3 m g (tension plus m v²/L)
    expect(playback.valueAt((f) => f.energy.kinetic, T / 4)).toBeCloseTo(g, 4);
    expect(playback.valueAt((f) => f.loaded[0], T / 4)).toBeCloseTo(3 * g, 3);
    expect(playback.valueAt((f) => f.loaded[0], 0)).toBeCloseTo(0, 6);
  });
});

describe('link and tyre forces from a run', () => {
  const I = { position: [0, 0, 0], rotation: [1, 0, 0, 0] };
  /** A 2 kg block on a vertical rail held by a rod to a point above (tension) or below (compression). */
  const hanging = (anchorZ: number) => assemblyDocument(validateAssembly({
    format: 'kinemate.assembly/1', name: 'block', units: { length: 'mm', angle: 'deg' },
    parts: {
      ground: { fixed: true, pose: I, frames: { rail: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } }, points: { anchor: [0, 0, anchorZ] } },
      block: { pose: I, frames: { rail: { origin: [0, 0, 0], rotation: [1, 0, 0, 0] } }, points: { eye: [0, 0, 0] }, mass: { mass: 2, centre: [0, 0, 0], inertia: [[100, 0, 0], [0, 100, 0], [0, 0, 100]] } },
    },
    mates: { rail: { type: 'slider', a: 'ground.rail', b: 'block.rail' }, rod: { type: 'distance', a: 'ground.anchor', b: 'block.eye', value: Math.abs(anchorZ) } },
    state: {}, held: [],
  } as unknown as AssemblyDoc));

  it('a rod holding a block up is in tension m g; propping it from below, in compression', () => {
    for (const [z, sign] of [[1000, 1], [-1000, -1]] as const) {
      const { playback } = run(hanging(z), 0.01, 0.001);
      expect(playback.header!.rods).toEqual(['rod']);
      expect(playback.valueAt((f) => f.rods[0], 0.005)).toBeCloseTo(sign * 2 * 9.80665, 6);
    }
  });

  it('the quarter car: its tyre spring carries the whole weight at rest on the road before the bump', () => {
    const doc = example('quarter-car-bump');
    const { playback, messages } = run(doc, 0.05, 0.001);
    expect(messages.at(-1)).toMatchObject({ kind: 'done', status: 'completed' });
    expect(playback.header!.tyres).toEqual(['tyre']);
    const d = doc.kind === 'assembly' ? doc.doc : null;
    const weight = Object.values(d!.parts).reduce((s, p) => s + ((p as { mass?: { mass: number } }).mass?.mass ?? 0), 0) * 9.80665;
    const road = (d!.parts as Record<string, { mass?: { mass: number } }>).road?.mass?.mass ?? 0;
    // compression positive; the road's own mass (if any) is below the tyre
    expect(playback.valueAt((f) => f.tyres[0], 0)).toBeCloseTo(weight - road * 9.80665, 0);
  });

  it('a run whose step fails (the slider driven past the linkage\'s reach) ends failed, with its message and the frames so far', () => {
    const d = JSON.parse(readFileSync(new URL('../../examples/slider-crank-torque.kinemate.json', import.meta.url), 'utf8'));
    // crank 50 + rod 150: the slider cannot pass 200 mm; the table reaches it at t ≈ 0.064 s
    d.motions = { push: { coordinate: 'jS.slide', table: [[0, 191.20326476671232], [0.5, 260]] } };
    const { messages, playback } = run(assemblyDocument(parseAssembly(JSON.stringify(d))), 0.5, 0.001);
    const done = messages.at(-1) as Extract<SimulationMessage, { kind: 'done' }>;
    expect(done.kind).toBe('done');
    expect(done.status).toBe('failed');
    expect(done.message).toMatch(/did not converge/);
    const reach = ((200 - 191.20326476671232) / (260 - 191.20326476671232)) * 0.5;
    expect(playback.end).toBeGreaterThan(0.03);
    expect(playback.end).toBeLessThan(reach + 0.002);
    expect(playback.frames.length).toBeGreaterThan(30);
    expect(playback.frames.every((f) => f.poses.flat().every(Number.isFinite))).toBe(true);
  });

  it('a run that cannot start says why (no frames)', () => {
    const doc = example('pendulum');
    const massless = assemblyDocument({ ...(doc.kind === 'assembly' ? doc.doc : ({} as AssemblyDoc)), parts: { ...(doc.kind === 'assembly' ? doc.doc.parts : {}), bob: { ...(doc.kind === 'assembly' ? doc.doc.parts.bob : ({} as never)), mass: undefined } } } as AssemblyDoc);
    const { messages, playback } = run(massless, 0.1, 0.001);
    expect(messages.at(-1)!.kind).toBe('error');
    expect((messages.at(-1) as { message: string }).message).toMatch(/bob|mass/);
    expect(playback.frames.length).toBe(0);
  });
});

describe('the dynamics examples as templates', () => {
  it('are offered, and every moving part is drawn through two points or more (a bob to its mass centre, a wheel to its rim)', () => {
    const dynamic = TEMPLATES.filter((t) => t.label.includes('(simulate)'));
    expect(dynamic.map((t) => t.name)).toEqual(['pendulum.kinemate.json', 'double-pendulum.kinemate.json', 'slider-crank-torque.kinemate.json', 'quarter-car-bump.kinemate.json', 'dw-corner-bump.kinemate.json', 'pinewood.kinemate.json']);
    for (const t of dynamic) {
      const r = new LiveViewPresenter().pose(poseAt(1, t.make(), { travel: [], rack: 0 }));
      expect(r.ok, t.name).toBe(true);
      for (const part of r.structure.parts) if (!part.fixed) expect(part.refs.length, `${t.name}: ${part.name}`).toBeGreaterThanOrEqual(2);
    }
    // the double pendulum's lower rod reaches its mass 1 m below its hinge; a pinewood wheel's spokes reach its 15 mm rim
    const dp = new LiveViewPresenter().pose(poseAt(1, dynamic[1].make(), { travel: [], rack: 0 }));
    const [h, m] = [dp.points['lower.hinge'], dp.points['lower.#mass']];
    expect(Math.hypot(h[0] - m[0], h[1] - m[1], h[2] - m[2])).toBeCloseTo(1000, 6);
    const pw = new LiveViewPresenter().pose(poseAt(1, dynamic[5].make(), { travel: [], rack: 0 }));
    const c = pw.points['rear.centre'];
    for (let k = 0; k < 4; k++) { const q = pw.points[`rear.rim#rim${k}`]; expect(Math.hypot(q[0] - c[0], q[1] - c[1], q[2] - c[2])).toBeCloseTo(15, 9); }
  });
});
