/**
 * The work of `kinemate clearance` and `kinemate envelope` (parsed in ./clearance.ts):
 * the document and its geometry read, the sweep, grid or drive run, the output written.
 * Loaded only when one of them runs (it brings three and three-mesh-bvh).
 */
import { dirname, isAbsolute, join } from 'node:path';
import { KinemateError } from '../../kernel/errors.ts';
import type { AssemblyDoc } from '../assembly/types.ts';
import type { GeometryDoc } from '../assembly/geometry/doc.ts';
import { fileSource, loadDocumentGeometry } from '../assembly/geometry/load.ts';
import { GeometryError } from '../assembly/geometry/errors.ts';
import type { PartMesh } from '../assembly/geometry/mesh.ts';
import { ClearanceSet, parsePairs, pairKey, summarize, unjoinedPairs, type Pair } from '../assembly/geometry/clearance-set.ts';
import type { PairClearance } from '../assembly/geometry/clearance.ts';
import { buildModel } from '../model/build.ts';
import { driveClearance, joinedPartPairs } from '../mechanics/clearance.ts';
import type { Geometry, SweepSpec } from '../suspension/files/index.ts';
import { SuspensionModel } from '../suspension/build/model.ts';
import { suspensionBodies, type SuspensionBodies } from '../suspension/clearance/bodies.ts';
import { gridSweep, parseGrid, type GridState } from '../suspension/clearance/grid.ts';
import { sweepClearance } from '../suspension/clearance/sweep.ts';
import { loadSuspension, sweepSpecsOf } from './sweep-run.ts';
import { readTextFile } from './files.ts';
import { parseAssembly } from '../assembly/load.ts';
import { refuseOverwritingInputs, type InputFile } from './no-overwrite.ts';
import { progressLine } from './progress.ts';
import type { CliIO } from './io.ts';
import { writeFile } from './fs-lazy.ts';

export interface ClearanceArgs {
  readonly geometry: string;
  readonly sweep?: string;
  readonly bump?: string;
  readonly steer?: string;
  readonly grid?: string;
  readonly drive?: { coordinate: string; from: number; to: number; steps: number };
  readonly pairs?: string;
  readonly min?: number;
  readonly failUnder?: number;
  readonly format: 'json' | 'csv';
  readonly out?: string;
  readonly io: CliIO;
}

/** Exit code when a clearance is below `--fail-under`. */
export const EXIT_UNDER = 3;

/** The document's part geometry: entries per body, in the order the file lists them. */
export function geometryEntries(doc: AssemblyDoc, geometry: Geometry | null): Record<string, readonly GeometryDoc[]> {
  if (geometry) return geometry.part_geometry ?? {};
  const out: Record<string, readonly GeometryDoc[]> = {};
  for (const [name, part] of Object.entries(doc.parts)) if (part.geometry && part.geometry.length > 0) out[name] = part.geometry;
  return out;
}

/** Every body's mesh, or the first file that cannot be used as a one-line error naming it. */
export async function readMeshes(file: string, entries: Record<string, readonly GeometryDoc[]>): Promise<Map<string, PartMesh>> {
  if (Object.keys(entries).length === 0) throw new KinemateError('geometry', `${file} has no part geometry (a "geometry" list on parts, or a geometry section keyed by part name)`);
  const { meshes, errors } = await loadDocumentGeometry(entries, fileSource(dirname(file)));
  if (errors.length > 0) throw errors[0]!;
  return new Map(meshes);
}

/** The mesh files the document's geometry names (relative to its folder): an output goes over none of them. */
export function meshInputFiles(file: string, entries: Record<string, readonly GeometryDoc[]>): InputFile[] {
  return Object.entries(entries).flatMap(([part, list]) => list.map((e): InputFile => [`"${part}" geometry`, isAbsolute(e.file) ? e.file : join(dirname(file), e.file)]));
}

/** The suspension's bodies that carry geometry; a name that is no body is refused with the file named, as the section's other errors are. */
function bodiesIn(file: string, sm: SuspensionModel, names: readonly string[]): SuspensionBodies {
  try {
    return suspensionBodies(sm, names);
  } catch (error) {
    if (error instanceof GeometryError) throw new GeometryError(`"${file}": ${error.path}`, error.reason);
    throw error;
  }
}

type State = { index: number; status?: string; drivers?: Record<string, number>; pairs?: Record<string, PairClearance> } & Record<string, unknown>;

export async function runClearanceCommand(args: ClearanceArgs): Promise<number> {
  refuseOverwritingInputs('clearance', '--out', args.out, [['geometry', args.geometry], ['sweep', args.sweep]]);
  const progress = args.io.stderrIsTTY ? progressLine(args.io, 'clearance') : undefined;
  const onProgress = progress?.update;
  let states: State[];
  let pairs: readonly Pair[];
  if (args.drive) {
    const doc = parseAssembly(await readTextFile(args.geometry, 'model', 'JSON'));
    const entries = geometryEntries(doc, null);
    refuseOverwritingInputs('clearance', '--out', args.out, meshInputFiles(args.geometry, entries));
    const meshes = await readMeshes(args.geometry, entries);
    const names = [...meshes.keys()];
    pairs = args.pairs ? parsePairs(args.pairs, names) : unjoinedPairs(names, joinedPartPairs(doc));
    const set = new ClearanceSet(meshes, pairs);
    const d = args.drive;
    states = driveClearance(buildModel(doc), set, d.coordinate, d.from, d.to, d.steps, onProgress).map((s) => ({ ...s }));
  } else {
    const { doc, geometry } = await loadSuspension(args.geometry);
    const entries = geometryEntries(doc, geometry);
    refuseOverwritingInputs('clearance', '--out', args.out, meshInputFiles(args.geometry, entries));
    const meshes = await readMeshes(args.geometry, entries);
    const names = [...meshes.keys()];
    const sm = new SuspensionModel(doc);
    const bodies = bodiesIn(args.geometry, sm, names);
    pairs = args.pairs ? parsePairs(args.pairs, names) : unjoinedPairs(names, bodies.joined);
    const set = new ClearanceSet(meshes, pairs);
    states = await suspensionStates(args, sm, geometry, set, bodies, onProgress);
  }
  await progress?.clear();
  const summary = summarize(states, pairs, args.min);
  const text = args.format === 'csv' ? clearanceCsv(states, pairs) : `${JSON.stringify({ states, summary }, null, 2)}\n`;
  if (args.out) await writeFile(args.out, text);
  else await args.io.out(text);
  if (args.failUnder !== undefined && Object.values(summary).some((s) => s.min_distance < args.failUnder!)) return EXIT_UNDER;
  return 0;
}

/** The states of `--grid`, or of the sweeps `--sweep`/`--bump`/`--steer` ask for (one after another, indexed on). */
async function suspensionStates(args: ClearanceArgs, sm: SuspensionModel, geometry: Geometry | null, set: ClearanceSet, bodies: SuspensionBodies, onProgress?: (done: number, total: number) => void): Promise<State[]> {
  const runs: { spec: SweepSpec; grid?: Partial<GridState>[] }[] = [];
  if (args.grid) {
    const g = parseGrid(args.grid);
    const grid = gridSweep(g.bump, g.steer, geometry ?? undefined);
    runs.push({ spec: grid.spec, grid: grid.states });
  } else {
    for (const [kind, spec] of await sweepSpecsOf(args, geometry)) {
      const values = spec.targets.find((t) => !t.hold);
      const labels = kind === 'bump' || kind === 'steer' ? valuesOf(values, spec.steps).map((v) => ({ [kind]: v })) : undefined;
      runs.push({ spec, ...(labels ? { grid: labels } : {}) });
    }
  }
  const total = runs.reduce((s, r) => s + r.spec.steps, 0);
  const states: State[] = [];
  for (const run of runs) {
    const offset = states.length;
    const part = sweepClearance(sm, run.spec, set, bodies, {
      ...(run.grid ? { grid: run.grid } : {}),
      ...(onProgress ? { onProgress: (k: number) => onProgress(offset + k, total) } : {}),
    });
    for (const s of part) states.push({ ...s, index: offset + s.index });
  }
  return states;
}

function valuesOf(target: SweepSpec['targets'][number] | undefined, steps: number): number[] {
  if (!target || target.hold) return [];
  const t = target;
  if (t.values) return [...t.values];
  return steps === 1 ? [t.start] : Array.from({ length: steps }, (_, i) => t.start + ((t.stop - t.start) * i) / (steps - 1));
}

/** One row per state and pair: index, the state's values, pair, distance, touching, both points. */
export function clearanceCsv(states: readonly State[], pairs: readonly Pair[]): string {
  const valueKeys = [...new Set(states.flatMap((s) => Object.keys(s).filter((k) => typeof s[k] === 'number' && k !== 'index')))];
  const driverKeys = [...new Set(states.flatMap((s) => Object.keys(s.drivers ?? {})))];
  const lines = [['index', 'status', ...valueKeys, ...driverKeys, 'pair', 'distance', 'touching', 'a_x', 'a_y', 'a_z', 'b_x', 'b_y', 'b_z'].join(',')];
  for (const s of states) {
    const head = [s.index, s.status ?? 'solved', ...valueKeys.map((k) => s[k] ?? ''), ...driverKeys.map((k) => s.drivers?.[k] ?? '')];
    for (const pair of pairs) {
      const c = s.pairs?.[pairKey(pair)];
      lines.push([...head, pairKey(pair), ...(c ? [c.distance, c.touching, ...c.a_point, ...c.b_point] : ['', '', '', '', '', '', '', ''])].join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

export interface EnvelopeArgs {
  readonly geometry: string;
  readonly grid: string;
  readonly part: string;
  readonly voxel?: number;
  readonly out?: string;
  readonly io: CliIO;
}

export async function runEnvelopeCommand(args: EnvelopeArgs): Promise<number> {
  refuseOverwritingInputs('envelope', '--out', args.out, [['geometry', args.geometry]]);
  const { doc, geometry } = await loadSuspension(args.geometry);
  const entries = geometryEntries(doc, geometry);
  refuseOverwritingInputs('envelope', '--out', args.out, meshInputFiles(args.geometry, entries));
  if (!entries[args.part]) {
    throw new KinemateError('--part', `no geometry on "${args.part}"; bodies with geometry: ${Object.keys(entries).join(', ') || 'none'}`);
  }
  const meshes = await readMeshes(args.geometry, { [args.part]: entries[args.part]! });
  const sm = new SuspensionModel(doc);
  const bodies = bodiesIn(args.geometry, sm, [args.part]);
  const g = parseGrid(args.grid);
  const grid = gridSweep(g.bump, g.steer, geometry ?? undefined);
  const progress = args.io.stderrIsTTY ? progressLine(args.io, 'envelope') : undefined;
  const { suspensionEnvelope } = await import('../suspension/clearance/envelope.ts');
  const env = suspensionEnvelope(sm, grid, bodies, args.part, meshes.get(args.part)!, {
    ...(args.voxel !== undefined ? { voxel: args.voxel } : {}),
    ...(progress ? { onProgress: progress.update } : {}),
  });
  await progress?.clear();
  if (args.out) {
    const { meshToGlb, meshToStl } = await import('../assembly/geometry/write.ts');
    await writeFile(args.out, /\.glb$/i.test(args.out) ? await meshToGlb(env.mesh, `${args.part} envelope`) : meshToStl(env.mesh, `kinemate envelope of ${args.part}`));
  }
  const summary = {
    part: args.part, states: env.poses.length, failed: env.failed, voxel: env.voxel, growth: env.growth,
    triangles: env.mesh.indices.length / 3, ...(args.out ? { out: args.out } : {}),
  };
  await args.io.out(`${JSON.stringify(summary, null, 2)}\n`);
  return 0;
}
