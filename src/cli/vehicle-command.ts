/** `kinemate vehicle`: a whole vehicle from two axle files (docs/vehicle.md). */
import { writeFile } from './fs-lazy.ts';
import { onePositional, parseCommandArgs, stringOption } from './args.ts';
import type { Command } from './command.ts';
import { CliError, EXIT, toJsonText } from './io.ts';
import { progressLine } from './progress.ts';
import { readTextFile } from './files.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { openBeside, vehicleInputFiles } from './vehicle-inputs.ts';

/** Most states of one --ay or --ax sweep. */
const MAX_STATES = 10_001;

const UNITS = { length: 'mm', angle: 'deg', force: 'N', mass: 'kg', acceleration: 'g', gradient: 'deg/g', load_transfer: 'N/g' };
const STEADY_UNITS = { ...UNITS, radius: 'm', speed: 'km/h', yaw_rate_gain: '1/s' };

function steadyRadius(text: string | undefined): number {
  const r = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(r) || r === 0) throw new CliError(`vehicle: --radius: expected the path's radius in m (positive: a left turn, negative: a right turn), got ${JSON.stringify(text ?? null)}`);
  return r;
}

function speeds(text: string | undefined): number[] {
  if (text === undefined) throw new CliError('vehicle: --steady-state needs --speed A:B:N (km/h)');
  const v = range('--speed', text);
  if (v.some((x) => !(x > 0))) throw new CliError(`vehicle: --speed: speeds must be positive (km/h), got ${JSON.stringify(text)}`);
  return v;
}

function range(flag: string, spec: string): number[] {
  const usage = `${flag}: expected A:B:N (N states from A to B in ${flag === '--speed' ? 'km/h' : 'g'}, both ends included; N from 1 to ${MAX_STATES}), got ${JSON.stringify(spec)}`;
  const parts = spec.split(':').map((p) => p.trim());
  if (parts.length !== 3 || !/^\d+$/.test(parts[2])) throw new CliError(`vehicle: ${usage}`);
  const [a, b] = parts.slice(0, 2).map(Number), n = Number(parts[2]);
  if (!Number.isFinite(a) || !Number.isFinite(b) || n < 1 || n > MAX_STATES || (n === 1 && a !== b) || parts[0] === '' || parts[1] === '') throw new CliError(`vehicle: ${usage}`);
  return Array.from({ length: n }, (_, i) => (n === 1 ? a : Number((a + ((b - a) * i) / (n - 1)).toPrecision(12))));
}

export const vehicleCommand: Command = {
  name: 'vehicle',
  synopsis: 'vehicle VEHICLE.yaml (--static | --ay A:B:N | --ax A:B:N | --steady-state --radius R --speed A:B:N [--steer rack|wheels] [--differential locked|open] [--aligning-moments]) [--format json|csv] [--out FILE]',
  summary: 'a whole car from two axle files: loads at rest, roll and pitch gradients, load transfer, understeer',
  help: `Usage: kinemate vehicle VEHICLE.yaml (--static | --ay A:B:N | --ax A:B:N
                        | --steady-state --radius R --speed A:B:N [--steer rack|wheels]
                          [--differential locked|open] [--aligning-moments])
                        [--format json|csv] [--out FILE]

Assembles the vehicle file's two axles, its free sprung body and tyres into one
mated assembly and solves its equilibrium (docs/vehicle.md):
  --static    at rest on a flat road: corners, body, vehicle, and every spring,
              bar and bushing force (elements) and link force (links)
  --ay A:B:N  quasi-static lateral acceleration in g (+ left turn), N states:
              steps and a summary with the roll gradient (deg/g, exact at 0 g)
              and the lateral load transfer per axle (N/g)
  --ax A:B:N  braking (< 0, split by front_brake_bias) and traction (> 0, on
              driven_axle) in g: steps and a summary with the pitch gradient
              (deg/g, braking's; pitch_gradient_traction too) and the load
              transfer per axle (N/g), braking and traction, and the realised
              anti_dive, anti_lift and anti_squat (%)
  --steady-state --radius R --speed A:B:N
              steady cornering on a radius R (m; R > 0 a left turn, R < 0 a
              right turn: ay, steer, sideslip and roll change sign) at N speeds from
              A to B (km/h) with the tyres: per step ay (g), steer (deg at the
              wheels), sideslip (deg), yaw_rate_gain (1/s), drive_force (N),
              tyres.<corner>
              { slip_angle (deg), load, lateral_force (N) } and the state; a
              summary with understeer_gradient (deg/g, exact at 0 g)
  --steer rack  (with --steady-state) solve the turn for the rack's travel, not
              a steer at the wheels (--steer wheels, the default): each front
              wheel steers through the linkage (Ackermann), roll steer and
              compliance; per step rack (mm), wheel_steer.<front corner> (deg),
              steer = rack × the linkage's ratio at rest (deg), and with a
              driven_axle the driven tyres' slip_ratio and drive_force (N) at
              them, tyres.<corner>.longitudinal_force (N); summary
              rack_steer_gain (deg/mm) and kinematic_rack (mm)
  --differential open  (with --steer rack) the driven axle's differential
              open: equal drive torques on its two wheels, each its own slip
              ratio (slip_ratios.<corner>); locked (the default): one slip ratio
  --aligning-moments  (with --steer rack) the tyres' aligning moments act on
              the uprights too, so the steering's compliance (the axle files'
              compliance:) steers the wheels under them; tyres.<corner>
              .aligning_moment (N·mm). Without, they enter the yaw balance only
Every state: corners.<front_left|front_right|rear_left|rear_right> { contact_load
[Fx, Fy, Fz] (N, the road's force on the tyre), contact_point (mm), wheel_travel,
ride_height (mm), camber, toe (deg) }, body { heave (mm), pitch, roll (deg) },
vehicle { mass (kg), cg (mm) }; a state that does not converge or where a wheel
lifts gives its status and message instead. What the vehicle replaces in an axle
file is said on stderr.

Options:
  --format json|csv  output (default json; csv: one row per state, no summary)
  --out FILE         write there instead of standard output
  -h, --help         this text

Exit codes: 0 done; 1 bad input; 2 a state did not converge.

Example: kinemate vehicle examples/vehicles/sedan.vehicle.yaml --ay 0:0.8:5
`,
  async run(argv, io) {
    const args = parseCommandArgs('vehicle', argv, { static: { type: 'boolean' }, ay: { type: 'string' }, ax: { type: 'string' }, 'steady-state': { type: 'boolean' }, radius: { type: 'string' }, speed: { type: 'string' }, steer: { type: 'string' }, differential: { type: 'string' }, 'aligning-moments': { type: 'boolean' }, format: { type: 'string' }, out: { type: 'string' } });
    const file = onePositional('vehicle', args, 'VEHICLE file');
    const format = stringOption(args, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw new CliError(`vehicle: --format must be json or csv, got "${format}"`);
    const ay = stringOption(args, 'ay'), ax = stringOption(args, 'ax'), stat = args.values.static === true, steady = args.values['steady-state'] === true;
    if ([stat, ay !== undefined, ax !== undefined, steady].filter(Boolean).length !== 1) throw new CliError('vehicle: give one of --static, --ay A:B:N, --ax A:B:N, --steady-state --radius R --speed A:B:N');
    const radiusText = stringOption(args, 'radius'), speedText = stringOption(args, 'speed');
    if (!steady && (radiusText !== undefined || speedText !== undefined)) throw new CliError('vehicle: --radius and --speed go with --steady-state');
    const radius = steady ? steadyRadius(radiusText) : 0;
    const steerInput = stringOption(args, 'steer');
    if (steerInput !== undefined && !steady) throw new CliError('vehicle: --steer goes with --steady-state');
    if (steerInput !== undefined && steerInput !== 'rack' && steerInput !== 'wheels') throw new CliError(`vehicle: --steer must be rack or wheels, got "${steerInput}"`);
    const differential = stringOption(args, 'differential');
    if (differential !== undefined && steerInput !== 'rack') throw new CliError('vehicle: --differential goes with --steady-state --steer rack');
    if (differential !== undefined && differential !== 'open' && differential !== 'locked') throw new CliError(`vehicle: --differential must be open or locked, got "${differential}"`);
    const aligning = args.values['aligning-moments'] === true;
    if (aligning && steerInput !== 'rack') throw new CliError('vehicle: --aligning-moments goes with --steady-state --steer rack');
    const values = ay !== undefined ? range('--ay', ay) : ax !== undefined ? range('--ax', ax) : steady ? speeds(speedText) : [];
    const out = stringOption(args, 'out');
    refuseOverwritingInputs('vehicle', '--out', out, [['vehicle', file]]);
    const text = await readTextFile(file, 'vehicle');
    const v = await import('../suspension/vehicle/index.ts');
    const spec = v.readVehicleFile(text, file, openBeside(file));
    refuseOverwritingInputs('vehicle', '--out', out, vehicleInputFiles(file, spec));
    for (const note of spec.notes) await io.err(`kinemate: note: ${note}\n`);
    if (ax !== undefined && values.some((x) => x < 0) && spec.front_brake_bias === undefined) throw new CliError(`vehicle: "${file}" vehicle_config.front_brake_bias: braking (--ax below 0) is split by it: give it`);
    if (ax !== undefined && values.some((x) => x > 0) && spec.driven_axle === undefined) throw new CliError(`vehicle: "${file}" vehicle_config.driven_axle: traction (--ax above 0) acts on it: give it`);
    const model = v.buildVehicle(spec);
    let result: object, rows: object[], ok: boolean;
    if (stat) {
      const s = v.staticAnalysis(model);
      result = { name: spec.name, analysis: 'static', units: UNITS, ...s };
      rows = [s];
      ok = s.status === 'solved';
    } else if (steady) {
      const progress = io.stderrIsTTY && values.length > 1 ? progressLine(io, 'vehicle') : undefined;
      const onStep = progress ? (d: number, t: number) => progress.update(d, t) : undefined;
      const sweep = steerInput === 'rack' ? v.rackSteadySweep(model, radius, values, onStep, differential === 'open' ? 'open' : 'locked', aligning) : v.steadyStateSweep(model, radius, values, onStep);
      await progress?.clear();
      result = { name: spec.name, analysis: 'steady_state', units: STEADY_UNITS, ...sweep };
      rows = sweep.steps;
      ok = sweep.status === 'solved';
    } else {
      const kind = ay !== undefined ? 'ay' : 'ax';
      const progress = io.stderrIsTTY && values.length > 1 ? progressLine(io, 'vehicle') : undefined;
      const sweep = v.accelerationSweep(model, kind, values, progress ? (d, t) => progress.update(d, t) : undefined);
      await progress?.clear();
      result = { name: spec.name, analysis: kind, units: UNITS, ...sweep };
      rows = sweep.steps;
      ok = sweep.status === 'solved';
    }
    const output = format === 'json' ? toJsonText(result) : v.vehicleCsv(rows.map((r) => ({ ...r, elements: undefined, links: undefined })));
    if (out !== undefined && out !== '-') await writeFile(out, output);
    else await io.out(output);
    return ok ? EXIT.ok : EXIT.failed;
  },
};
