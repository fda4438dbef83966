/**
 * `kinemate export --gltf`: the file read back with the library that wrote it
 * (@gltf-transform/core) holds every part as a node with a keyframe per state, and those
 * keyframes are the solver's poses: to 32-bit float rounding in the glTF keyframes (glTF's
 * only float type), to 1e-6 mm and 1e-9 per quaternion component in the exact copy kept in
 * each node's extras. Positions are also checked against `kinemate sweep`'s own points.
 */
import { readFileSync } from 'node:fs';
import { WebIO, type Document, type Node as GltfNode } from '@gltf-transform/core';
import { validateBytes } from 'gltf-validator';
import { AnimationMixer, LoopOnce, Vector3 } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { afterAll, describe, expect, it } from 'vitest';
import { buildModel, driveModel, modelState, parseGeometry, simulate, runSweep, suspensionAssembly, sweepFromShortcut, SuspensionModel, type AssemblyDoc, type StateJSON } from '../../src/index.ts';
import { parseAssembly } from '../../src/assembly/index.ts';
import { REPO, tempFolder } from '../cli/helpers.ts';
import { DW, run, sweepJson } from './helpers.ts';

const temp = tempFolder();
afterAll(() => temp.remove());

type V3 = [number, number, number];
type Q = [number, number, number, number];

/** q · p · q⁻¹ + t, with q = [x, y, z, w] (glTF order), by the rotation matrix. */
function apply(t: ArrayLike<number>, q: ArrayLike<number>, p: ArrayLike<number>): V3 {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const m = [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
  return [0, 1, 2].map((r) => t[r] + m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2]) as V3;
}

interface Track { times: Float32Array; translation: Float32Array; rotation: Float32Array; extras: { positions: V3[]; rotations: Q[] } }

function tracks(doc: Document): Map<string, Track> {
  const out = new Map<string, Track>();
  const [animation] = doc.getRoot().listAnimations();
  for (const channel of animation.listChannels()) {
    const node = channel.getTargetNode()!;
    const name = node.getName();
    const entry = out.get(name) ?? { extras: (node.getExtras() as { kinemate: Track['extras'] }).kinemate } as Track;
    entry.times = channel.getSampler()!.getInput()!.getArray() as Float32Array;
    entry[channel.getTargetPath() as 'translation' | 'rotation'] = channel.getSampler()!.getOutput()!.getArray() as Float32Array;
    out.set(name, entry);
  }
  return out;
}

/** The solver's poses of every moving part at each state of a sweep, by the library API (values only, as the export runs it). */
function sweepPoses(doc: AssemblyDoc, kind: 'bump' | 'steer', range: string): StateJSON[] {
  const model = new SuspensionModel(doc);
  const states: StateJSON[] = [];
  runSweep(model, sweepFromShortcut(kind, range), { valuesOnly: true, onProgress: () => { states.push(modelState(model.model)); } });
  return states;
}

/** Checks every keyframe of every posed part against the solver's states (mm → m in the file). */
function expectKeyframes(track: Map<string, Track>, states: readonly StateJSON[], parts: readonly string[], metresPerUnit: number): void {
  for (const part of parts) {
    const t = track.get(part)!;
    expect(t, part).toBeDefined();
    expect(t.translation.length).toBe(3 * states.length);
    states.forEach((state, i) => {
      const pose = state[`${part}.pose`] as { position: V3; rotation: Q };
      const [w, x, y, z] = pose.rotation;
      const norm = Math.hypot(w, x, y, z);
      const rotation = [x / norm, y / norm, z / norm, w / norm];
      const exact = t.extras.rotations[i];
      const sign = Math.sign(exact[0] * w + exact[1] * x + exact[2] * y + exact[3] * z) || 1;
      // the exact copy: 1e-6 mm, 1e-9 per quaternion component (up to the sign of q)
      for (let k = 0; k < 3; k++) expect(Math.abs(t.extras.positions[i][k] - pose.position[k]), `${part} #${i} position`).toBeLessThan(1e-6);
      for (let k = 0; k < 4; k++) expect(Math.abs(sign * exact[k] - pose.rotation[k]), `${part} #${i} rotation`).toBeLessThan(1e-9);
      // the glTF keyframes: the same numbers, rounded once to 32 bits
      const keySign = Math.sign(t.rotation[4 * i] * rotation[0] + t.rotation[4 * i + 1] * rotation[1] + t.rotation[4 * i + 2] * rotation[2] + t.rotation[4 * i + 3] * rotation[3]);
      for (let k = 0; k < 3; k++) expect(t.translation[3 * i + k], `${part} #${i} translation`).toBe(Math.fround(pose.position[k] * metresPerUnit));
      for (let k = 0; k < 4; k++) expect(t.rotation[4 * i + k], `${part} #${i} rotation key`).toBe(Math.fround(keySign * rotation[k]));
    });
  }
}

describe('kinemate export --gltf', () => {
  it('a bump sweep: every part a node keyed at the solver poses; the points land on kinemate sweep\'s', async () => {
    const out = temp.file('dw.glb');
    expect(await run(['export', DW, '--bump', '-50:50:21', '--gltf', out])).toMatchObject({ code: 0, stderr: '' });
    const doc = await new WebIO().readBinary(new Uint8Array(readFileSync(out)));
    const assembly = suspensionAssembly(parseGeometry(readFileSync(DW, 'utf8')));
    const nodes = new Map(doc.getRoot().listNodes().map((node) => [node.getName(), node] as [string, GltfNode]));
    // named after the assembly's parts and links; wheel and tyre on the upright; meshes where promised
    for (const name of [...Object.keys(assembly.parts), 'trackrod', 'upright_wheel', 'upright_tyre']) expect(nodes.has(name), name).toBe(true);
    for (const name of ['lower_wishbone', 'upper_wishbone', 'upright', 'trackrod', 'upright_wheel', 'upright_tyre']) expect(nodes.get(name)!.getMesh(), name).not.toBeNull();
    expect(nodes.get('upright_wheel')!.getParentNode()!.getName()).toBe('upright');
    const track = tracks(doc);
    expect([...track.keys()].sort()).toEqual(['lower_wishbone', 'rack', 'trackrod', 'upper_wishbone', 'upright']);
    expect(Array.from(track.get('upright')!.times)).toEqual(Array.from({ length: 21 }, (_, i) => Math.fround(i / 25)));
    const moving = Object.keys(assembly.parts).filter((p) => !assembly.parts[p].fixed);
    expectKeyframes(track, sweepPoses(assembly, 'bump', '-50:50:21'), moving, 0.001);
    // independent of the pose bookkeeping: each part's points, carried by its keyframes, are where kinemate sweep says
    const steps = (await sweepJson(DW, ['--bump', '-50:50:21'])).sweeps.bump.steps;
    let checked = 0;
    for (const part of moving) {
      const t = track.get(part)!;
      for (const [name, local] of Object.entries(assembly.parts[part].points ?? {})) {
        const reported = steps[0].positions[name.replace(/^.*?(trackrod_inboard)$/, '$1')];
        if (reported === undefined || /inboard_(front|rear)$/.test(name)) continue;
        steps.forEach((step, i) => {
          const keyed = apply([t.translation[3 * i], t.translation[3 * i + 1], t.translation[3 * i + 2]], t.rotation.subarray(4 * i, 4 * i + 4), local.map((v) => v * 0.001));
          const exactQ = t.extras.rotations[i];
          const exact = apply(t.extras.positions[i], [exactQ[1], exactQ[2], exactQ[3], exactQ[0]], local);
          for (let k = 0; k < 3; k++) {
            expect(Math.abs(keyed[k] * 1000 - step.positions[name][k]), `${part}.${name} #${i}`).toBeLessThan(5e-4);
            expect(Math.abs(exact[k] - step.positions[name][k]), `${part}.${name} #${i} exact`).toBeLessThan(1e-6);
          }
          checked++;
        });
      }
    }
    expect(checked).toBeGreaterThanOrEqual(21 * 7);
    // the track rod's node runs from its inboard to its outboard ball at every state
    const rod = track.get('trackrod')!;
    const length = (assembly.mates.trackrod as { value: number }).value;
    steps.forEach((step, i) => {
      const q = rod.rotation.subarray(4 * i, 4 * i + 4), p = rod.translation.subarray(3 * i, 3 * i + 3);
      const [a, b] = [apply(p, q, [0, 0, 0]), apply(p, q, [length * 0.001, 0, 0])];
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(a[k] * 1000 - step.positions.trackrod_inboard[k])).toBeLessThan(5e-4);
        expect(Math.abs(b[k] * 1000 - step.positions.trackrod_outboard[k])).toBeLessThan(5e-4);
      }
    });
  }, 60_000);

  it('loads in three.js\'s glTF loader: named meshes, one clip, and at each keyframe time the wheel is where kinemate sweep says', async () => {
    const out = temp.file('three.glb');
    expect((await run(['export', DW, '--bump', '-50:50:11', '--gltf', out, '--fps', '10'])).code).toBe(0);
    const bytes = readFileSync(out);
    const gltf = await new GLTFLoader().parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '');
    const meshes: string[] = [];
    gltf.scene.traverse((object) => { if ((object as { isMesh?: boolean }).isMesh) meshes.push(object.name); });
    expect(meshes.sort()).toEqual(['chassis', 'lower_wishbone', 'rack', 'trackrod', 'upper_wishbone', 'upright', 'upright_tyre', 'upright_wheel']);
    expect(gltf.animations).toHaveLength(1);
    expect(gltf.animations[0].duration).toBeCloseTo(1, 6);
    const mixer = new AnimationMixer(gltf.scene);
    const action = mixer.clipAction(gltf.animations[0]).setLoop(LoopOnce, 1);
    action.clampWhenFinished = true; // at the end, stay at the last state rather than wrap to the first
    action.play();
    const upright = gltf.scene.getObjectByName('upright')!;
    const assembly = suspensionAssembly(parseGeometry(readFileSync(DW, 'utf8')));
    const local = assembly.parts.upright.points!.axle_outboard;
    const steps = (await sweepJson(DW, ['--bump', '-50:50:11'])).sweeps.bump.steps;
    steps.forEach((step, i) => {
      mixer.setTime(i / 10);
      gltf.scene.updateMatrixWorld(true);
      const world = upright.localToWorld(new Vector3(local[0] * 0.001, local[1] * 0.001, local[2] * 0.001));
      const [x, y, z] = step.positions.axle_outboard;
      // metres, y up: (x, y, z) in the model is (x, z, −y) in the file
      expect(Math.abs(world.x * 1000 - x)).toBeLessThan(1e-3);
      expect(Math.abs(world.y * 1000 - z)).toBeLessThan(1e-3);
      expect(Math.abs(world.z * 1000 + y)).toBeLessThan(1e-3);
    });
  });

  it('a drive of any assembly: each part keyed at the poses kinemate drive reports', async () => {
    const model = `${REPO}examples/four-bar.kinemate.json`;
    const out = temp.file('fourbar.glb');
    expect(await run(['export', model, '--drive', 'jA.angle', '--from', '30', '--to', '390', '--steps', '24', '--gltf', out, '--fps', '12'])).toMatchObject({ code: 0, stderr: '' });
    const doc = await new WebIO().readBinary(new Uint8Array(readFileSync(out)));
    const assembly = parseAssembly(readFileSync(model, 'utf8'));
    const states = driveModel(buildModel(assembly), 'jA.angle', 30, 390, 24).steps.map((s) => s.state);
    const track = tracks(doc);
    const moving = Object.keys(assembly.parts).filter((p) => !assembly.parts[p].fixed);
    expect(moving.length).toBeGreaterThan(1);
    expect(track.get(moving[0])!.times[24]).toBeCloseTo(2, 6);
    expectKeyframes(track, states, moving, 0.001);
  }, 60_000);

  it('a simulation: each part keyed at the simulated poses, at the simulation\'s own times', async () => {
    const model = `${REPO}examples/pendulum.kinemate.json`;
    const out = temp.file('pendulum.glb');
    // 50 pictures a second of a 2 ms step: a frame every 10 steps, 0.02 s apart
    expect(await run(['export', model, '--simulate', '0.5', '--step', '0.002', '--gltf', out, '--fps', '50'])).toMatchObject({ code: 0, stderr: '' });
    const doc = await new WebIO().readBinary(new Uint8Array(readFileSync(out)));
    const assembly = parseAssembly(readFileSync(model, 'utf8'));
    const frames = simulate(assembly, { duration: 0.5, step: 0.002, every: 10 }).frames;
    expect(frames.length).toBe(26);
    const track = tracks(doc);
    const moving = Object.keys(assembly.parts).filter((p) => !assembly.parts[p].fixed);
    expect(moving.length).toBeGreaterThan(0);
    const times = track.get(moving[0])!.times;
    frames.forEach((f, i) => expect(times[i]).toBeCloseTo(f.t, 6));
    expectKeyframes(track, frames.map((f) => f.state), moving, 0.001);
    // the bob swings: its rotation turns between the first and the last frame
    const first = track.get(moving[0])!.extras.rotations[0], last = track.get(moving[0])!.extras.rotations[25];
    expect(Math.abs(first[0] * last[0] + first[1] * last[1] + first[2] * last[2] + first[3] * last[3])).toBeLessThan(0.99);
    expect((await run(['export', model, '--simulate', '0.5', '--drive', 'x', '--gltf', out])).stderr).toContain('--drive does not go with --simulate');
  }, 60_000);

  it('passes the Khronos glTF validator with no error and no warning (sweeps of every kind of linkage, a drive)', async () => {
    const cases: [string, string[]][] = [
      ['dw', [DW, '--steer', '-20:20:9']],
      ['pushrod', [`${REPO}examples/suspension/double_wishbone_pushrod.yaml`, '--bump', '-30:30:7']],
      ['multilink-axle', [`${REPO}examples/suspension/multi_link_axle.yaml`, '--roll', '-2:2:5']],
      ['macpherson', [`${REPO}examples/suspension/macpherson.yaml`]],
      ['trailing', [`${REPO}examples/suspension/trailing_arm.yaml`]],
      ['fourbar', [`${REPO}examples/four-bar.kinemate.json`, '--drive', 'jA.angle', '--from', '0', '--to', '90', '--steps', '6']],
      ['pendulum', [`${REPO}examples/pendulum.kinemate.json`, '--simulate', '0.2', '--step', '0.004']],
    ];
    for (const [name, args] of cases) {
      const out = temp.file(`${name}.glb`);
      expect((await run(['export', ...args, '--gltf', out])).code, name).toBe(0);
      const report = await validateBytes(new Uint8Array(readFileSync(out)));
      expect(report.issues.messages, name).toEqual([]);
      expect(report.info?.animationCount, name).toBe(1);
    }
  }, 60_000);

  it('keeps the last good pose at a step that could not be solved (exit 2)', async () => {
    const out = temp.file('beyond.glb');
    expect((await run(['export', DW, '--bump', '0:600:7', '--gltf', out])).code).toBe(2);
    const track = tracks(await new WebIO().readBinary(new Uint8Array(readFileSync(out))));
    const upright = track.get('upright')!;
    const z = (i: number) => upright.translation[3 * i + 2];
    expect(z(4)).toBeGreaterThan(z(3)); // still climbing at the last solved step
    expect([z(5), z(6)]).toEqual([z(4), z(4)]); // the failed ones stay there
  });

  it('refuses a missing folder, a wrong extension and a missing --gltf', async () => {
    const missing = await run(['export', DW, '--gltf', temp.file('none/x.glb')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`kinemate: export: --gltf "${temp.file('none/x.glb')}": the folder "${temp.file('none')}" does not exist\n`);
    expect((await run(['export', DW, '--gltf', temp.file('x.gltf')])).stderr).toBe(`kinemate: export: --gltf "${temp.file('x.gltf')}": the file must end in .glb\n`);
    expect((await run(['export', DW])).stderr).toBe('kinemate: export: --gltf FILE.glb is required\n');
  });
});
