/**
 * `kinemate sensitivity VEHICLE` and `kinemate fit VEHICLE`: the vehicle's figures at rest
 * as metrics, with exact gradients against the numbers of both axle files and the body
 * (docs/vehicle.md "Gradients" and "Fit"). sensitivity-commands.ts hands a vehicle file here.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { writeFile } from './fs-lazy.ts';
import { stringOption, stringOptions, type ParsedArgs } from './args.ts';
import { CliError, EXIT, toJsonText, type CliIO } from './io.ts';
import { readTextFile } from './files.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { openBeside, vehicleInputFiles } from './vehicle-inputs.ts';
import { progressLine } from './progress.ts';
import { parseText } from '../suspension/files/read.ts';
import { setNumberAtPath } from '../suspension/compliance/fit-rates.ts';
import type { VehicleSpec } from '../suspension/vehicle/file.ts';

/** Whether a file's text is a vehicle file (a top-level `vehicle:` format number, YAML or JSON). */
export function isVehicleText(text: string): boolean {
  if (!/^\s*"?vehicle"?\s*:/m.test(text)) return false;
  try {
    const raw = parseText(text, 'file');
    return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'vehicle' in raw;
  } catch { return false; }
}

/** The vehicle file read; `check` (the refusal to write over an input) runs before its notes are printed. */
async function readSpec(file: string, text: string, io: CliIO, check: (spec: VehicleSpec) => void): Promise<VehicleSpec> {
  const v = await import('../suspension/vehicle/index.ts');
  const spec = v.readVehicleFile(text, file, openBeside(file));
  check(spec);
  for (const note of spec.notes) await io.err(`kinemate: note: ${note}\n`);
  return spec;
}

/** `sensitivity VEHICLE [--metric NAME]... [--parameter NAME]... [--format json|csv] [--out FILE]`. */
export async function vehicleSensitivity(args: ParsedArgs, file: string, text: string, io: CliIO): Promise<number> {
  const values = args.values as Record<string, unknown>;
  const clash = ['sweep', 'bump', 'steer', 'roll', 'at', 'loads', 'targets'].filter((k) => values[k] !== undefined);
  if (clash.length) throw new CliError(`sensitivity: a vehicle file is taken at rest: drop ${clash.map((k) => `--${k}`).join(', ')}`);
  const format = stringOption(args, 'format') ?? 'json';
  if (format !== 'json' && format !== 'csv') throw new CliError(`sensitivity: --format must be json or csv, got "${format}"`);
  const out = stringOption(args, 'out');
  const spec = await readSpec(file, text, io, (s) => refuseOverwritingInputs('sensitivity', '--out', out, vehicleInputFiles(file, s)));
  const v = await import('../suspension/vehicle/index.ts');
  const metrics = stringOptions(args, 'metric');
  const steadyAsked = metrics.filter((m) => v.STEADY_METRICS.includes(m)), speedAsked = metrics.filter((m) => v.SPEED_METRIC.test(m));
  const frequencyAsked = metrics.filter((m) => v.FREQUENCY_METRICS.includes(m)), radiusAsked = metrics.filter((m) => v.isRadiusMetric(m));
  const rackAsked = metrics.filter((m) => v.isRackMetric(m));
  for (const m of metrics) if (!v.STATIC_METRICS.includes(m) && !v.GRADIENT_METRICS.includes(m) && !v.STEADY_METRICS.includes(m) && !v.SPEED_METRIC.test(m) && !frequencyAsked.includes(m) && !radiusAsked.includes(m) && !rackAsked.includes(m)) throw new CliError(`sensitivity: --metric: no vehicle metric "${m}" (at rest: ${v.STATIC_METRICS.join(', ')}; gradient figures: ${[...v.GRADIENT_METRICS, ...v.STEADY_METRICS, 'vehicle.steer@V', 'vehicle.yaw_rate_gain@V'].join(', ')}, the steady-state ones on a radius other than ${v.UNDERSTEER_RADIUS} m with @R<m> after them, through the rack with @rack at the end (then @open: an open differential, @aligning: the aligning moments on the pose); ride frequencies: ${v.FREQUENCY_METRICS.join(', ')})`);
  const staticAsked = metrics.length ? metrics.filter((m) => v.STATIC_METRICS.includes(m)) : [...v.STATIC_METRICS];
  const gradientAsked = metrics.filter((m) => v.GRADIENT_METRICS.includes(m));
  const asked = stringOptions(args, 'parameter');
  const all = v.vehicleParameterNames(spec);
  const model = v.buildVehicle(spec);
  const parts: Awaited<ReturnType<typeof v.vehicleStaticSensitivity>>[] = [];
  const progress = io.stderrIsTTY ? progressLine(io, 'sensitivity') : undefined;
  // at rest by default every number but the body's inertia and the wheels' moments (their gradients there are exact zeros: the quasi-static loads have no rotational part)
  if (staticAsked.length) parts.push(v.vehicleStaticSensitivity(model, asked.length ? asked : all.filter((n) => !n.startsWith('body.inertia.') && !/\.wheel\.(spin|transverse)_inertia$/.test(n)), staticAsked, progress ? (d, t) => progress.update(d, t) : undefined));
  await progress?.clear();
  // a gradient figure's gradients: over the named numbers, or by default the bars' rates (every number takes seconds)
  if (gradientAsked.length) parts.push(v.vehicleGradientSensitivity(model, asked.length ? asked : all.filter((n) => n.endsWith('.anti_roll.rate')), gradientAsked));
  // the steady-state figures' (on the skid pad's radius, docs/vehicle.md): the same default numbers
  if (steadyAsked.length) parts.push(v.understeerSensitivity(v.buildVehicle(spec), asked.length ? asked : all.filter((n) => n.endsWith('.anti_roll.rate')), v.UNDERSTEER_RADIUS, steadyAsked));
  if (speedAsked.length) parts.push(v.steadySpeedSensitivity(v.buildVehicle(spec), asked.length ? asked : all.filter((n) => n.endsWith('.anti_roll.rate')), speedAsked));
  // the same on other radii (`@R<m>`)
  if (radiusAsked.length) parts.push(v.radiusSensitivity(() => v.buildVehicle(spec), asked.length ? asked : all.filter((n) => n.endsWith('.anti_roll.rate')), radiusAsked));
  // the same steered through the rack (`@rack`, `--steady-state --steer rack`'s figures)
  if (rackAsked.length) parts.push(v.rackSensitivity(() => v.buildVehicle(spec), asked.length ? asked : all.filter((n) => n.endsWith('.anti_roll.rate')), rackAsked));
  // the ride frequencies' (modes at rest): by default over the spring and bar rates and the body's mass
  if (frequencyAsked.length) parts.push(v.frequencySensitivity(v.buildVehicle(spec), asked.length ? asked : all.filter((n) => /\.(spring|anti_roll)\.rate$/.test(n) || n === 'body.mass'), frequencyAsked));
  const failed = parts.find((p) => p.status !== 'solved');
  const result = failed ?? { status: 'solved' as const, metrics: Object.assign({}, ...parts.map((p) => (p.status === 'solved' ? p.metrics : {}))) as Record<string, { value: number; gradient: Record<string, number> }> };
  let output: string;
  if (result.status !== 'solved') output = toJsonText({ scope: 'vehicle', name: spec.name, state: 'rest', ...result });
  else if (format === 'csv') {
    const lines = ['metric,value,parameter,gradient'];
    for (const [metric, m] of Object.entries(result.metrics)) for (const [p, d] of Object.entries(m.gradient)) lines.push(`${metric},${m.value},${p},${d}`);
    output = `${lines.join('\n')}\n`;
  } else output = toJsonText({ scope: 'vehicle', name: spec.name, state: 'rest', units: unitsFor(v.VEHICLE_METRIC_UNITS, steadyAsked.length + speedAsked.length + radiusAsked.length + rackAsked.length > 0, frequencyAsked), ...result });
  if (out !== undefined && out !== '-') await writeFile(out, output);
  else await io.out(output);
  return result.status === 'solved' ? EXIT.ok : EXIT.failed;
}

/** The units printed: the figures' at rest, the steady-state ones' and the frequencies' only when asked (the other outputs stay as they were). */
function unitsFor(base: Record<string, string>, steady: boolean, frequency: readonly string[]): Record<string, string> {
  const wheel = (k: string) => (frequency.some((m) => m.startsWith(`vehicle.wheel_${k}_frequency.`)) ? { [`wheel_${k}_frequency`]: 'Hz' } : {});
  return {
    ...base,
    ...(steady ? { understeer_gradient: 'deg/g', sideslip_gradient: 'deg/g', kinematic_steer: 'deg', steer: 'deg', yaw_rate_gain: '1/s' } : {}),
    ...(frequency.length ? { heave_frequency: 'Hz', pitch_frequency: 'Hz', roll_frequency: 'Hz', ...wheel('hop'), ...wheel('tramp') } : {}),
  };
}

/** `fit VEHICLE --targets FILE [--out FITTED]`: the fitted vehicle file and, beside it, each moved axle file. */
export async function vehicleFit(args: ParsedArgs, file: string, text: string, io: CliIO): Promise<number> {
  const targetsPath = stringOption(args, 'targets');
  if (!targetsPath) throw new CliError('fit: --targets FILE is required');
  const out = stringOption(args, 'out') ?? `${file.replace(/\.(ya?ml|json)$/i, '')}.fitted.json`;
  const stem = out.replace(/\.(ya?ml|json)$/i, '');
  const axleOut = { front: `${stem}.front.json`, rear: `${stem}.rear.json` };
  const spec = await readSpec(file, text, io, (s) => {
    const inputs = [...vehicleInputFiles(file, s), ['targets', targetsPath] as const];
    for (const o of [out, axleOut.front, axleOut.rear]) refuseOverwritingInputs('fit', '--out', o, inputs);
  });
  const v = await import('../suspension/vehicle/index.ts');
  const fitSpec = v.parseVehicleFitSpec(await readTextFile(targetsPath, 'targets'), spec, targetsPath);
  for (const name of Object.keys(fitSpec.move)) if (!writable(name, spec)) throw new CliError(`fit: "${targetsPath}" move.${name}: the fit writes back hardpoints, spring.rate, anti_roll.rate, compliance rates, the wheels' spin_inertia and transverse_inertia, body.mass, vehicle_config.cg_position and steering.rack_stiffness (and a corner file's hardpoints only on both sides)`);
  const report = v.fitVehicle(spec, fitSpec);
  const written: Record<string, string> = {};
  const vehicleRaw = parseText(text, file) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const axle of ['front', 'rear'] as const) {
    const moved = Object.entries(report.moves).filter(([n, m]) => n.startsWith(`${axle}.`) && m.delta !== 0);
    if (!moved.length) { vehicleRaw[axle] = relative(dirname(out), spec[axle].path) || basename(spec[axle].path); continue; }
    const raw = parseText(readFileSync(spec[axle].path, 'utf8'), spec[axle].path) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const [n, m] of moved) {
      // a wheel's moment: the value written (the cylinder's where the file gave none), the wheel made a mapping if it was a mass
      const moment = /^dynamics\.masses\.wheel\.(spin_inertia|transverse_inertia)$/.exec(n.slice(axle.length + 1));
      if (moment) {
        const w = raw.dynamics.masses.wheel, from = v.wheelMoments(spec[axle].dynamics.masses.wheel!, spec[axle].geometry);
        raw.dynamics.masses.wheel = { ...(typeof w === 'number' ? { mass: w } : w), [moment[1]]: (moment[1] === 'spin_inertia' ? from.Ia : from.Ip) + m.delta };
      } else moveAxleNumber(raw, n.slice(axle.length + 1), m.delta, spec[axle].geometry.scope === 'axle');
    }
    await writeFile(axleOut[axle], `${JSON.stringify(raw, null, 2)}\n`);
    written[axle] = axleOut[axle];
    vehicleRaw[axle] = relative(dirname(out), axleOut[axle]);
  }
  for (const [n, m] of Object.entries(report.moves)) {
    if (n === 'body.mass') vehicleRaw.body.mass += m.delta;
    if (n === 'steering.rack_stiffness') vehicleRaw.steering.rack_stiffness += m.delta;
    const c = /^vehicle_config\.cg_position\.([xyz])$/.exec(n);
    if (c) addToPoint(vehicleRaw.vehicle_config.cg_position, c[1], m.delta);
  }
  await writeFile(out, `${JSON.stringify(vehicleRaw, null, 2)}\n`);
  const { spec: _fitted, ...printed } = report;
  await io.out(toJsonText({ ...printed, fitted_file: out, fitted_axle_files: written }));
  return report.status === 'converged' ? EXIT.ok : EXIT.failed;
}

/** Whether the fit can write the number back into its file: a one-sided move needs both sides written in an axle file. */
function writable(name: string, spec: VehicleSpec): boolean {
  if (name === 'body.mass' || name.startsWith('vehicle_config.cg_position.') || name === 'steering.rack_stiffness') return true;
  const axle = name.split('.')[0] as 'front' | 'rear', r = name.slice(axle.length + 1);
  if (r === 'spring.rate' || r === 'anti_roll.rate' || /^dynamics\.masses\.wheel\.(spin|transverse)_inertia$/.test(r)) return true;
  if (r.startsWith('dynamics.') || r.startsWith('spring.')) return false;
  const side = /^(left|right)\./.exec(r);
  if (!side) return true;
  const raw = parseText(readFileSync(spec[axle].path, 'utf8'), spec[axle].path) as { scope?: string; hardpoints?: Record<string, unknown> };
  return raw.scope === 'axle' && raw.hardpoints?.left !== undefined && raw.hardpoints?.right !== undefined;
}

/** Add d to a point's coordinate, written { x, y, z } or [x, y, z]. */
function addToPoint(p: Record<string, number> | number[], axis: string, d: number): void {
  if (Array.isArray(p)) p['xyz'.indexOf(axis)] += d;
  else p[axis] += d;
}

/** One number of an axle (or corner) file moved by d in its raw document. */
function moveAxleNumber(raw: Record<string, any>, name: string, d: number, axleScope: boolean): void { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (name === 'spring.rate') { raw.axle_config.spring.rate += d; return; }
  // a bushing's or compliant link's rate, at its path in the file (a key may hold a dot: `links.left.trackrod`)
  if (name.startsWith('compliance.')) { setNumberAtPath(raw, name, (v) => v + d); return; }
  if (name === 'anti_roll.rate') { raw.axle_config.anti_roll.rate += d; return; }
  const parts = name.split('.'), axis = parts[parts.length - 1], hp = parts[parts.length - 2];
  if (parts.length === 3) { addToPoint(raw.hardpoints[parts[0]][hp], axis, d); return; }
  if (raw.scope === 'axle' && axleScope) {
    addToPoint(raw.hardpoints.left[hp], axis, d);
    // an axle file without a right side mirrors its left
    if (raw.hardpoints.right?.[hp] !== undefined) addToPoint(raw.hardpoints.right[hp], axis, axis === 'y' ? -d : d);
  } else addToPoint(raw.hardpoints[hp], axis, d);
}
