/**
 * `kinemate sensitivity`, `kinemate fit`, `kinemate batch`: gradients of suspension metrics
 * with respect to the hardpoints, inverse design on them, and design of experiments
 * (docs/sensitivity.md).
 */
import { writeFile } from './fs-lazy.ts';
import { type ParsedArgs, onePositional, parseAssignments, parseCommandArgs, parseCount, stringOption, stringOptions } from './args.ts';
import type { Command } from './command.ts';
import { CliError, toJsonText } from './io.ts';
import { readTextFile } from './files.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { parseGeometry, sweepFromShortcut, type Geometry, type SweepSpec } from '../suspension/files/index.ts';
import { sweepSpecsOf } from './sweep-run.ts';
import { parseDoe } from '../suspension/design/batch.ts';
import { doeSweepPath, inlineDoeSweep } from '../suspension/design/doe-sweep.ts';
import { writeBatchCsv } from './batch-output.ts';
import { runBatch } from '../suspension/design/batch-pool.ts';
import { queuedBatch } from './queue-commands.ts';
import { fit, fittedGeometryText, parseFitSpec } from '../suspension/design/fit.ts';
import { SensitivityModel, sensitivityMetricsOf, sensitivitySweep, sensitivitySweepBySide, SENSITIVITY_METRICS, AXLE_SENSITIVITY_METRICS, CORNER_ROLL_CENTRE_METRICS, type MetricGradient, type SensitivityStep, type SideMetrics } from '../suspension/gradients/model.ts';
import { LoadSensitivity } from '../suspension/gradients/loads.ts';
import { AxleLoadGradients } from '../suspension/gradients/axle-loads.ts';
import { DERIVATIVE_METRICS } from '../suspension/gradients/derivatives.ts';
import { VIRTUAL_METRICS, virtualMetricsOf } from '../suspension/gradients/virtual.ts';
import { parseLoadCase } from '../suspension/loads/loads.ts';
import { curveSensitivity, parseCurveTargets, type CurveQuantity } from '../suspension/gradients/curves.ts';
import { inFileCoordinates } from '../suspension/gradients/setup.ts';
import { isVehicleText, vehicleFit, vehicleSensitivity } from './vehicle-gradients.ts';
import { compliantSensitivitySweeps } from './compliant-sensitivity.ts';

const SENSITIVITY_OPTIONS = {
  sweep: { type: 'string' },
  bump: { type: 'string' },
  steer: { type: 'string' },
  roll: { type: 'string' },
  at: { type: 'string', multiple: true },
  metric: { type: 'string', multiple: true },
  loads: { type: 'string' },
  targets: { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string' },
  parameter: { type: 'string', multiple: true },
} as const;

/** One CSV row per step, metric and hardpoint coordinate (an axle's metric named `<side>.<metric>`). */
export function sensitivityCsv(sweeps: Readonly<Record<string, { steps: (SensitivityStep | SensitivityStep<SideMetrics>)[] }>>): string {
  const lines = ['sweep,step,status,metric,value,parameter,gradient'];
  for (const [name, run] of Object.entries(sweeps)) {
    for (const step of run.steps) {
      if (!step.metrics) { lines.push(`${name},${step.index},${step.status},,,,`); continue; }
      for (const [metric, m] of flatMetrics(step.metrics)) {
        if (!m) { lines.push(`${name},${step.index},${step.status},${metric},,,`); continue; }
        for (const [key, d] of Object.entries(m.gradient)) lines.push(`${name},${step.index},${step.status},${metric},${m.value},${key},${d}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One CSV row per curve quantity and hardpoint coordinate. */
function curveCsv(quantities: readonly CurveQuantity[]): string {
  const lines = ['target,metric,side,kind,value,parameter,gradient'];
  for (const q of quantities) for (const [key, d] of Object.entries(q.gradient)) lines.push(`"${q.target}",${q.metric},${q.side ?? ''},${q.kind},${q.value},${key},${d ?? ''}`);
  return `${lines.join('\n')}\n`;
}

/** [name, gradient] pairs of a step's metrics; an axle's grouped ones as `<side>.<metric>`. */
function flatMetrics(metrics: Record<string, MetricGradient | null> | SideMetrics): [string, MetricGradient | null][] {
  const out: [string, MetricGradient | null][] = [];
  for (const [key, m] of Object.entries(metrics)) {
    if (m && !('gradient' in m)) for (const [metric, g] of Object.entries(m as Record<string, MetricGradient | null>)) out.push([`${key}.${metric}`, g]);
    else out.push([key, m as MetricGradient | null]);
  }
  return out;
}

/** The states a sensitivity run asks for: each `--at`, then the sweep given (none: the design state). */
async function sensitivitySpecs(args: ParsedArgs, geometry: Geometry): Promise<[string, SweepSpec][]> {
  const specs: [string, SweepSpec][] = [];
  for (const [key, value] of Object.entries(parseAssignments(stringOptions(args, 'at'), '--at'))) {
    if (key !== 'bump' && key !== 'steer') throw new CliError(`sensitivity: --at ${key}: expected bump=V or steer=V`);
    specs.push([`${key}=${value}`, sweepFromShortcut(key, `${value}:${value}:1`, geometry)]);
  }
  const sweepArgs = { sweep: stringOption(args, 'sweep'), bump: stringOption(args, 'bump'), steer: stringOption(args, 'steer'), roll: stringOption(args, 'roll') };
  if (sweepArgs.sweep || sweepArgs.bump || sweepArgs.steer || sweepArgs.roll || specs.length === 0) {
    const given = Object.fromEntries(Object.entries(sweepArgs).filter(([, v]) => v !== undefined));
    specs.push(...(Object.keys(given).length ? await sweepSpecsOf(given, geometry) : [['bump', sweepFromShortcut('bump', '0:0:1', geometry)] as [string, SweepSpec]]));
  }
  return specs;
}

/** Print (or write to `out`) the sweeps' gradients; exit 2 when a step failed. */
async function writeSensitivity(sweeps: Readonly<Record<string, { steps: (SensitivityStep | SensitivityStep<SideMetrics>)[] }>>, geometry: Geometry, format: string, out: string | undefined, io: Parameters<Command['run']>[1]): Promise<number> {
  const text = format === 'csv' ? sensitivityCsv(sweeps) : toJsonText({ scope: geometry.scope, sweeps });
  if (out) await writeFile(out, text);
  else await io.out(text);
  return Object.values(sweeps).some((r) => r.steps.some((s) => s.status === 'failed')) ? 2 : 0;
}

export const sensitivityCommand: Command = {
  name: 'sensitivity',
  synopsis: 'sensitivity GEOMETRY [--bump A:B:N | --steer A:B:N | --roll A:B:N | --sweep SWEEP | --at bump=V]\n' +
    '            --metric NAME [--metric NAME]... [--loads FILE] [--format json|csv] [--out FILE]\n' +
    '            sensitivity GEOMETRY --targets FILE [--format json|csv] [--out FILE]\n' +
    '            sensitivity VEHICLE.yaml [--metric NAME]... [--parameter NAME]... [--format json|csv] [--out FILE]',
  summary: 'exact gradients of suspension metrics with respect to every hardpoint coordinate',
  help: `Usage: kinemate sensitivity GEOMETRY [--bump A:B:N | --steer A:B:N | --roll A:B:N | --sweep SWEEP | --at bump=V]
                            --metric NAME [--metric NAME]... [--loads FILE] [--format json|csv] [--out FILE]
       kinemate sensitivity GEOMETRY --targets FILE [--format json|csv] [--out FILE]

Solves GEOMETRY at every step of the sweep and prints, per step, each requested metric as
{ "value": v, "gradient": { "<hardpoint>.<x|y|z>": d, ... } } in the layout of kinemate
sweep (sweeps.<id>.steps[i].metrics.<name>; an axle: metrics.<side>.<name>, over every
hardpoint of the file as left.<hardpoint>.x, right.…, center.…). d is the metric's
unit per mm of that hardpoint coordinate, exact (implicit function theorem on the solved
constraints; links keep their ends, so their lengths change with them).

Options:
  --bump A:B:N       wheel travel from A to B (mm: wheel centre z from design), rack held
  --steer A:B:N      rack travel from A to B (mm from design), wheel travel held at 0
  --roll A:B:N       an axle's roll from A to B (degrees), rack held
  --sweep SWEEP      a sweep file
  --at bump=V        one state: wheel travel V mm from design (also steer=V, rack travel).
                     Repeatable.
  --metric NAME      a metric (repeatable; none: all of them): ${SENSITIVITY_METRICS.join(', ')};
                     a corner file also ${CORNER_ROLL_CENTRE_METRICS.join(', ')} (its mirrored axle's roll
                     centre height) and ${DERIVATIVE_METRICS.join(', ')}; a steered corner or axle (per side), when
                     asked for, ${VIRTUAL_METRICS.join(', ')} (bump or steer states, the sweep's hold);
                     an axle file also the deriv_* per side, and under
                     metrics.axle ${AXLE_SENSITIVITY_METRICS.join(', ')};
                     where the file has them: torsion_bar_twist, arb_arm_angle (per side), arb_twist,
                     heave_link_length, t_bar_heave_angle, a beam axle's axle_lateral_shift, axle_steer,
                     pinion_angle_change, roll_center_linkage_y/z, the devices' deriv_* rates, a steered front axle's ackermann_percentage, toe_out_on_turns,
                     turning_radius, steering_wheel_angle, steering_ratio
  --loads FILE       a load case (as kinemate sweep --loads): adds link_force.<link id> (N, tension +)
                     for every two-force link and rack_force (N), exact gradients by second
                     derivatives of the constraints and force elements (springs, dampers,
                     torsion and anti-roll bars); an axle's grouped by side (link_force.trackrod
                     under metrics.left), rack_force under metrics.axle; when named, the
                     joints' reactions joint_force.<mate id>.<x|y|z> (N), joint_moment.… (N·mm)
                     and the elements' loads element_tension.<element> (N), element_force.<bar>.<x|y|z>,
                     element_moment.<bar>.<x|y|z>, the holds' forces hold_force.<hold> (N) and the
                     motion ratios motion_ratio.<element>.<side> (bump states)
  --targets FILE     instead of the sweep: quantities read off a metric's bump curve, as a fit's
                     targets file names them (its move is not needed): at (the value at a travel),
                     gain [a, b] (m(b) − m(a)), slope [a, b] (gain/(b − a), per mm), curve (the RMS
                     error to the given values); printed as { "targets": [ { target, metric, kind,
                     value, gradient } ] } over every hardpoint coordinate (csv: one row per target
                     and coordinate); on a compliant file the states are settled, the metrics
                     include kc.*, and the gradients are over the stiffnesses too (docs/compliance.md)
  --format json|csv  json (default) or csv: one row per step, metric and coordinate
  --out FILE         write there instead of stdout
  -h, --help         this text

With no sweep given, the design state (bump 0).

A vehicle file (kinemate vehicle; docs/vehicle.md "Gradients") instead: its figures at rest
(vehicle.<corner>.contact_load, ride_height, wheel_travel, camber, toe; vehicle.heave,
pitch, roll, front_axle_load, rear_axle_load) with exact gradients against every number of
both axle files and the body (front.left.<hardpoint>.x, front.<hardpoint>.x for both sides,
rear.spring.rate, front.anti_roll.rate, body.mass, vehicle_config.cg_position.x, ...), or
those named by --parameter NAME (repeatable); printed as metrics.<name> { value, gradient }.
--metric vehicle.heave_frequency (pitch_frequency, roll_frequency, and per axle
wheel_hop_frequency.front|rear, wheel_tramp_frequency.front|rear): the modes' frequencies
(Hz, as kinemate modes gives them), by default over the spring and bar rates and body.mass.
The steady-state ones (vehicle.understeer_gradient, vehicle.steer@V, ...) are on a 40 m
radius; @R<m> after the name takes another: vehicle.understeer_gradient@R100.

A compliant file (compliance:) is settled at each step (under --loads FILE if given): its
metrics at the deflected pose and the K&C coefficients kc.toe_per_fy, kc.camber_per_fy,
kc.lateral_stiffness, kc.toe_per_fx, kc.camber_per_fx, kc.recession_per_fx,
kc.longitudinal_stiffness, kc.toe_per_mz, kc.camber_per_mz, with gradients over every
stiffness of the file by its path (compliance.bushings.<key>.radial, compliance.links.<key>,
per N/mm) and over the hardpoints (at rest; under --loads, a load at the wheel centre or one
placed at design) (docs/compliance.md).

The metrics' definitions, units and signs: docs/metrics.md.

Exit codes: 0 done; 1 bad input; 2 a step could not be solved.
`,
  async run(argv, io) {
    const args = parseCommandArgs('sensitivity', argv, SENSITIVITY_OPTIONS);
    const path = onePositional('sensitivity', args, 'GEOMETRY file');
    const fileText = await readTextFile(path, 'geometry');
    if (isVehicleText(fileText)) return vehicleSensitivity(args, path, fileText, io);
    if (stringOptions(args, 'parameter').length) throw new CliError('sensitivity: --parameter goes with a vehicle file (a geometry file\'s gradients are over all its hardpoints)');
    const format = stringOption(args, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw new CliError(`sensitivity: --format must be json or csv, got "${format}"`);
    const metrics = stringOptions(args, 'metric');
    const targetsPath = stringOption(args, 'targets');
    refuseOverwritingInputs('sensitivity', '--out', stringOption(args, 'out'),
      [['geometry', path], ['sweep', stringOption(args, 'sweep')], ['loads', stringOption(args, 'loads')], ['targets', targetsPath]]);
    const geometry = parseGeometry(fileText, path);
    if (targetsPath) {
      const clash = ['metric', 'loads', 'sweep', 'bump', 'steer', 'roll', 'at'].filter((k) => (args.values as Record<string, unknown>)[k] !== undefined);
      if (clash.length) throw new CliError(`sensitivity: --targets names its own metrics and travels: drop ${clash.map((k) => `--${k}`).join(', ')}`);
      const quantities = inFileCoordinates(geometry, curveSensitivity(geometry, parseCurveTargets(await readTextFile(targetsPath, 'targets'), geometry, targetsPath)));
      const text = format === 'csv' ? curveCsv(quantities) : toJsonText({ scope: geometry.scope, targets: quantities });
      const out = stringOption(args, 'out');
      if (out) await writeFile(out, text);
      else await io.out(text);
      return 0;
    }
    // a compliant file: its settled states' gradients over the stiffnesses (docs/compliance.md)
    if (geometry.compliance) {
      const sweeps = await compliantSensitivitySweeps(geometry, await sensitivitySpecs(args, geometry), metrics, stringOption(args, 'loads'));
      return writeSensitivity(sweeps, geometry, format, stringOption(args, 'out'), io);
    }
    const model = new SensitivityModel(geometry);
    const loadsPath = stringOption(args, 'loads');
    const loads = loadsPath ? new LoadSensitivity(model, parseLoadCase(await readTextFile(loadsPath, 'loads'), model.sm.corners.map((c) => c.roles.side), loadsPath)) : undefined;
    const own = sensitivityMetricsOf(geometry);
    const axleLoads = loads && model.sides.length > 1 ? new AxleLoadGradients(loads) : undefined;
    const offered: readonly string[] = [...own.side, ...own.axle, ...((axleLoads ?? loads)?.names ?? []), ...((axleLoads ?? loads)?.requestable ?? []), ...virtualMetricsOf(model)];
    for (const m of metrics) {
      if (offered.includes(m)) continue;
      // the names of its own kind first: the whole list is long, and an error line is capped
      const kind = m.split('.')[0], alike = offered.filter((n) => n.split('.')[0] === kind);
      const hint = alike.length ? `of this kind: ${alike.join(', ')}; ` : m.includes('.') ? `none named ${kind}.… in this file${loads ? '' : ' without --loads FILE'}; ` : '';
      throw new CliError(`sensitivity: --metric: no gradient for "${m}" (${hint}metrics: ${offered.join(', ')}${loads ? '' : '; link forces need --loads FILE'})`);
    }
    const specs = await sensitivitySpecs(args, geometry);
    const sweeps: Record<string, { steps: (SensitivityStep | SensitivityStep<SideMetrics>)[] }> = {};
    const axle = model.sides.length > 1;
    for (const [name, spec] of specs) sweeps[name] = axle ? sensitivitySweepBySide(model, spec, metrics, 'adjoint', axleLoads) : sensitivitySweep(model, spec, metrics, 'adjoint', loads);
    // a shimmed corner's gradients over the file's points, through its setup solve (not the setup state's)
    for (const [name, run] of Object.entries(sweeps)) sweeps[name] = inFileCoordinates(geometry, run);
    return writeSensitivity(sweeps, geometry, format, stringOption(args, 'out'), io);
  },
};

export const fitCommand: Command = {
  name: 'fit',
  synopsis: 'fit    GEOMETRY --targets FILE [--out FITTED]\n       fit VEHICLE.yaml --targets FILE [--out FITTED]',
  summary: 'inverse design: move chosen hardpoints (within bounds) to meet metric targets',
  help: `Usage: kinemate fit GEOMETRY --targets FILE [--out FITTED]
       kinemate fit VEHICLE.yaml --targets FILE [--out FITTED]

Moves the hardpoint coordinates listed under "move" in FILE, each within its box (mm
relative to the file's value), so that the metric targets in FILE are met: values at
bump travels, gains between two travels, whole curves, or bands min…max (a bounded
Levenberg–Marquardt on the exact gradients of kinemate sensitivity). Writes the fitted
geometry to FITTED (default: GEOMETRY with .fitted.json) and prints a JSON report:
  status     converged | at_bounds | stalled | max_iterations
  moves      per coordinate: from, to, delta (mm)
  at_bound   coordinates that end on their box, "<hardpoint>.<axis> (low|high)"
  targets    per residual: the target, the metric's value, what was wanted, the residual
  cost       ½Σ residual² at the start and at the end
The targets file is described in docs/sensitivity.md. On a compliant file "move" also takes
stiffnesses by path (compliance.links.trackrod: [low, high], N/mm relative to the file's)
and the targets kc.* coefficients (docs/compliance.md).

A vehicle file (docs/vehicle.md "Fit"): targets on its figures at rest, moves of its numbers;
writes FITTED (default VEHICLE.fitted.json) and, beside it, each moved axle file
(FITTED stem + .front.json / .rear.json).

The metrics' definitions, units and signs: docs/metrics.md.

Exit codes: 0 converged; 1 bad input; 2 the targets could not all be met (at_bounds,
stalled, max_iterations: the fitted file is still written).
`,
  async run(argv, io) {
    const args = parseCommandArgs('fit', argv, { targets: { type: 'string' }, out: { type: 'string' } });
    const path = onePositional('fit', args, 'GEOMETRY file');
    const fileText = await readTextFile(path, 'geometry');
    if (isVehicleText(fileText)) return vehicleFit(args, path, fileText, io);
    const targetsPath = stringOption(args, 'targets');
    if (!targetsPath) throw new CliError('fit: --targets FILE is required');
    const out = stringOption(args, 'out') ?? `${path.replace(/\.(ya?ml|json)$/i, '')}.fitted.json`;
    refuseOverwritingInputs('fit', '--out', out, [['geometry', path], ['targets', targetsPath]]);
    const text = fileText;
    const geometry = parseGeometry(text, path);
    const spec = parseFitSpec(await readTextFile(targetsPath, 'targets'), geometry, targetsPath);
    const report = fit(geometry, spec);
    await writeFile(out, fittedGeometryText(text, report, path));
    const { geometry: _fitted, ...printed } = report;
    await io.out(toJsonText({ ...printed, fitted_file: out }));
    return report.status === 'converged' ? 0 : 2;
  },
};

export const batchCommand: Command = {
  name: 'batch',
  synopsis: 'batch  GEOMETRY --doe FILE [--threads N | --queue URL [--name RUN]] [--out FILE]',
  summary: 'design of experiments: sweep or simulate millions of variants of a geometry file, CSV out',
  help: `Usage: kinemate batch GEOMETRY --doe FILE [--threads N] [--out FILE]
       kinemate batch GEOMETRY --doe FILE --queue redis://HOST:PORT[/DB] [--name RUN] [--chunk N] [--out FILE]

Sweeps every variant of GEOMETRY (a corner or an axle file) that the DOE file describes
(its hardpoint coordinates, rates, masses, shims … moved on a grid, a Latin hypercube, or a
list, up to 10 000 000, generated as they go; docs/sensitivity.md) on this thread and
worker threads, one per core in all, and streams CSV in variant order: one row per variant
and step of the DOE's sweep (bump:, steer:, roll: A:B:N or sweep: FILE),
  variant, <each varied number's move>, step, status, <each swept quantity>, <each metric>
where a swept quantity is named for what it holds: bump is the step's wheel travel (mm
from the variant's design), steer the rack travel (mm), roll the axle's roll (deg).
Each row is what kinemate sweep gives for that variant's file alone. With simulate: in
the DOE, each variant's dynamics section is run instead, one row per variant:
  variant, <moves>, status, <each result: a column's @max, @min, @final, @cross=LEVEL, @rms>
A progress bar with the rate and the time left is drawn on stderr when it is a terminal.

Options:
  --doe FILE     the DOE file (vary, sampling; a sweep and metrics, or simulate)
  --threads N    sweeping threads, this one and N − 1 workers (default: one per
                 core; 0 or 1: this thread only)
  --out FILE     write the CSV there instead of stdout
  --queue URL    sweep on the workers of a Redis queue (kinemate worker) instead of here,
                 in chunks of about a second of work; the CSV is the same bytes
  --name RUN     the run's name on the queue (default: a hash of the geometry and DOE):
                 started again with the same name, the run goes on from the chunks done
  --chunk N      variants per queued chunk (default: timed here for about a second)
  -h, --help     this text

The metrics' definitions, units and signs: docs/metrics.md.

Exit codes: 0 done; 1 bad input; 2 some variant had a step that could not be solved.
`,
  async run(argv, io) {
    const args = parseCommandArgs('batch', argv, { doe: { type: 'string' }, threads: { type: 'string' }, out: { type: 'string' }, queue: { type: 'string' }, name: { type: 'string' }, chunk: { type: 'string' } });
    const path = onePositional('batch', args, 'GEOMETRY file');
    const doePath = stringOption(args, 'doe');
    if (!doePath) throw new CliError('batch: --doe FILE is required');
    const threadsText = stringOption(args, 'threads');
    refuseOverwritingInputs('batch', '--out', stringOption(args, 'out'), [['geometry', path], ['DOE', doePath]]);
    if (stringOption(args, 'queue') !== undefined) {
      if (threadsText !== undefined) throw new CliError('batch: --threads and --queue do not go together (a worker\'s threads: kinemate worker --concurrency)');
      const outPath = stringOption(args, 'out');
      return queuedBatch(args, io, { geometry: path, doe: doePath, ...(outPath !== undefined ? { out: outPath } : {}) });
    }
    for (const option of ['name', 'chunk']) if (stringOption(args, option) !== undefined) throw new CliError(`batch: --${option} goes with --queue`);
    const threads = threadsText === undefined ? undefined : parseCount(threadsText, '--threads', 0);
    const geometry = parseGeometry(await readTextFile(path, 'geometry'), path);
    const doeFileText = await readTextFile(doePath, 'DOE');
    refuseOverwritingInputs('batch', '--out', stringOption(args, 'out'), [['sweep', doeSweepPath(doeFileText, doePath)]]);
    const doeText = await inlineDoeSweep(doeFileText, doePath, (p) => readTextFile(p, 'sweep'));
    const spec = parseDoe(doeText, geometry, doePath, path);
    const outPath = stringOption(args, 'out');
    return writeBatchCsv(io, outPath, (sink) => runBatch(geometry, spec, { ...(threads !== undefined ? { threads } : {}), ...sink }));
  },
};
