/** `kinemate statics`, `equilibrium`, `modes` and `simulate`: mass, forces and time response (docs/dynamics.md). */
import { writeFile } from './fs-lazy.ts';
import type { SimulateOptions, SimulationFrame, SimulationResult } from '../index.ts';
import { onePositional, parseAssignments, parseCommandArgs, parseCount, parseNumber, requiredOption, stringOption, stringOptions } from './args.ts';
import type { Command } from './command.ts';
import { CliError, EXIT, toJsonText } from './io.ts';
import { loadModel, progressLine } from './model-commands.ts';
import { refuseOverwritingInputs } from './no-overwrite.ts';
import { geometryGradients, geometryTextOf, simulateGeometry } from './suspension-simulate.ts';
import { isVehicleInput, prepareVehicleRun, simulateVehicleRun, vehicleModesCommand } from './vehicle-dynamics.ts';
import type { DynamicParameter, DynamicResult } from '../index.ts';

/**
 * The analyses, loaded when one of these commands runs (not at every start of the command):
 * the modules themselves, not src/index.ts, which would bring the whole library (the live
 * model, the viewer's presenters) into the command's bundle.
 */
async function dynamics() {
  const [build, statics, equilibrium, modes, simulate, integrator, gradients] = await Promise.all([
    import('../mechanics/build.ts'), import('../mechanics/statics.ts'), import('../mechanics/equilibrium.ts'), import('../mechanics/modes.ts'),
    import('../mechanics/simulate.ts'), import('../../kernel/integrator/integrator.ts'), import('../gradients/run.ts'),
  ]);
  return {
    buildDynamics: build.buildDynamics, statics: statics.statics, equilibrium: equilibrium.equilibrium, modes: modes.modes, simulate: simulate.simulate,
    IntegratorError: integrator.IntegratorError, simulationGradients: gradients.simulationGradients, parseParameter: gradients.parseParameter,
    parseResult: gradients.parseResult, DynamicSensitivityError: gradients.DynamicSensitivityError,
  };
}

const UNITS =
  'Units: lengths mm, forces N, moments and torques N·mm (a driver on an angle: N·mm),\n' +
  'angles in the file\'s unit; world axes.';

export const staticsCommand: Command = {
  name: 'statics',
  synopsis: 'statics MODEL [--set COORD=VALUE]...',
  summary: 'reactions of every mate, driver and force element holding the solved pose',
  help: `Usage: kinemate statics MODEL [--set COORD=VALUE]...

Solves the pose (as solve), then the reactions that hold it still under the file's
gravity and forces, and prints { status, dof, state, reactions, drivers, forces,
indeterminate, unbalanced } as JSON:
  reactions      per mate: { on, at, force, moment }, the wrench the mate exerts on
                 its b part, the moment about its b entity (a coupling: { on, value },
                 the generalized force on its b coordinate)
  drivers        per held coordinate: the force (N) or torque (N·mm) it applies
  forces         per force element: { length, rate, tension } for springs and dampers
                 (tension pulls the ends together), a bushing's wrench on its b part and
                 deflection, a tyre's penetration and force, an applied load
  indeterminate  mates whose reactions a redundant assembly leaves open (their values
                 are the minimum-norm split, not a fact)
  unbalanced     the generalized force no mate or driver balances, per free coordinate
                 or "<part>.pose" ({ force, moment }); empty when in equilibrium

Options:
  --set COORD=VALUE  as for solve (a held coordinate is driven there). Repeatable.
  -h, --help         this text

MODEL may also be a vehicle file (*.vehicle.yaml, or a file whose top level has
vehicle:, docs/vehicle-dynamics.md): the car is settled at rest first (the state of
kinemate vehicle VEHICLE.yaml --static; --set refused), then the reactions there; forces
gains each tyre's contact as <corner>_tyre { penetration, force (N, vertical), contact }.

${UNITS}
Exit codes: 0 in equilibrium; 1 bad input; 2 status "not_in_equilibrium" (a free
motion is not balanced: see unbalanced) or "failed" (the pose cannot be solved).

Example: kinemate statics examples/slider-crank-load.kinemate.json --set jA.angle=60
         kinemate statics examples/vehicles/solid_axle.vehicle.yaml
`,
  async run(argv, io) {
    const args = parseCommandArgs('statics', argv, { set: { type: 'string', multiple: true } });
    const file = onePositional('statics', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
    if (await isVehicleInput(file)) return vehicleAtRest('statics', file, set, io);
    const { buildDynamics, statics } = await dynamics();
    const dyn = buildDynamics(await loadModel(file, io));
    const result = statics(dyn, { set });
    await io.out(toJsonText(result));
    return result.status === 'solved' ? EXIT.ok : EXIT.failed;
  },
};

/** statics and equilibrium on a vehicle file: the car settled at rest (vehicle-statics.ts); --set has nothing to hold there. */
async function vehicleAtRest(command: 'statics' | 'equilibrium', file: string, set: Record<string, number>, io: Parameters<Command['run']>[1]): Promise<number> {
  if (Object.keys(set).length) throw new CliError(`${command}: --set does not apply to a vehicle file (its state is the car at rest)`);
  const { vehicleRestCommand } = await import('./vehicle-statics.ts');
  return vehicleRestCommand(command, file, io);
}

export const equilibriumCommand: Command = {
  name: 'equilibrium',
  synopsis: 'equilibrium MODEL [--set COORD=VALUE]...',
  summary: 'find the pose where gravity and the forces balance (held coordinates stay held)',
  help: `Usage: kinemate equilibrium MODEL [--set COORD=VALUE]...

Starting from the file's pose, finds the pose where the free generalized forces
vanish (Newton on the constraint manifold, step limits, load stepping when needed),
held coordinates kept, and prints the solve fields (status, converged, iterations,
maxResidual, dof, redundant, conflicting, atLimit, state) plus reactions, drivers,
forces, indeterminate (as statics), residualForce (what is left unbalanced: empty
when solved), newtonIterations and loadSteps (the load fractions solved in turn).
A failure keeps the last good pose.

Options:
  --set COORD=VALUE  as for solve. Repeatable.
  -h, --help         this text

MODEL may also be a vehicle file (*.vehicle.yaml, or a file whose top level has
vehicle:, docs/vehicle-dynamics.md): the car settled at rest on a flat road by the
vehicle's Newton (the state of kinemate vehicle VEHICLE.yaml --static; --set refused;
newtonIterations its iterations); forces gains each tyre's contact as <corner>_tyre
{ penetration, force (N, vertical), contact }.

${UNITS}
Exit codes: 0 solved; 1 bad input; 2 no equilibrium found (status "failed").

Example: kinemate equilibrium examples/quarter-car.kinemate.json
         kinemate equilibrium examples/vehicles/sedan.vehicle.yaml
`,
  async run(argv, io) {
    const args = parseCommandArgs('equilibrium', argv, { set: { type: 'string', multiple: true } });
    const file = onePositional('equilibrium', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
    if (await isVehicleInput(file)) return vehicleAtRest('equilibrium', file, set, io);
    const { buildDynamics, equilibrium } = await dynamics();
    const dyn = buildDynamics(await loadModel(file, io));
    const result = equilibrium(dyn, { set });
    await io.out(toJsonText(result));
    return result.status === 'solved' ? EXIT.ok : EXIT.failed;
  },
};

export const modesCommand: Command = {
  name: 'modes',
  synopsis: 'modes  MODEL [--set COORD=VALUE]...',
  summary: 'natural frequencies, damping ratios and mode shapes about the equilibrium',
  help: `Usage: kinemate modes MODEL [--set COORD=VALUE]...

Finds the equilibrium (as kinemate equilibrium), linearises the mechanism on its
constraint manifold there (held coordinates kept) and prints { status, modes,
equilibrium } as JSON: modes lowest first, each { frequency (Hz, undamped),
damping_ratio, shape }, the shape giving every free coordinate (file units) and every
moving part's { translation (mm), rotation (angle unit) } of its origin in world axes,
scaled so the largest component is 1. A motion with negative stiffness (an unstable
equilibrium) has frequency 0 and "unstable": its growth rate in 1/s.

Options:
  --set COORD=VALUE  as for solve. Repeatable.
  -h, --help         this text

MODEL may also be a vehicle file (*.vehicle.yaml, or a file whose top level has
vehicle:, docs/vehicle-dynamics.md): the whole car's modes at rest, each named by where its energy is (heave, pitch, roll,
wheel_hop_<axle>, wheel_tramp_<axle>; rigid for x, y and yaw at 0 Hz), with
{ frequency, damping_ratio, energy shares, body { heave, pitch, roll } } and a summary
of heave_frequency, pitch_frequency, roll_frequency, wheel_hop_frequency and
wheel_tramp_frequency per axle.

Exit codes: 0 done; 1 bad input; 2 no equilibrium, or a moving part without mass or
inertia (named in "message").

Example: kinemate modes examples/quarter-car.kinemate.json
         kinemate modes examples/vehicles/sedan.vehicle.yaml
`,
  async run(argv, io) {
    const args = parseCommandArgs('modes', argv, { set: { type: 'string', multiple: true } });
    const file = onePositional('modes', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
    if (await isVehicleInput(file)) {
      if (Object.keys(set).length) throw new CliError('modes: --set does not apply to a vehicle file (its modes are at rest)');
      return vehicleModesCommand(file, io);
    }
    const { buildDynamics, modes } = await dynamics();
    const dyn = buildDynamics(await loadModel(file, io));
    const result = modes(dyn, { set });
    await io.out(toJsonText(result));
    return result.status === 'solved' ? EXIT.ok : EXIT.failed;
  },
};

/** Most steps one run may take (--duration / --step): a run longer than this is refused before it starts. */
export const MAX_SIMULATE_STEPS = 10_000_000;

export const simulateCommand: Command = {
  name: 'simulate',
  synopsis: 'simulate MODEL --duration T --step H [--method M] [--rho-inf R] [--every K] [--format json|csv] [--out FILE] [--gradient PARAM... --result NAME... [--gradient-method adjoint|direct]]',
  summary: 'time response under gravity, forces and motions, with reactions and the energy budget',
  help: `Usage: kinemate simulate MODEL --duration T --step H [--method generalized-alpha|backward-euler]
                         [--rho-inf R] [--every K] [--format json|csv] [--out FILE]
                         [--gradient PARAM]... [--result NAME]...
                         [--gradient-method adjoint|direct]

Integrates the assembly in time from its file state (positions from the kinematic
solve, the file's "velocities" projected onto the mates, accelerations and reactions
consistent) under gravity, the force elements and the file's "motions", and prints
{ status, method, step, rho_inf, frames, events, energy_by_element,
numerical_dissipation, velocity_projection, steps }:
  frames   one every K steps and the last: { t (s), state, velocities (coordinate
           units/s; parts: linear mm/s, angular angle unit/s, world axes), energy
           { kinetic, potential, elastic, dissipated, external, total } (J),
           reactions (as statics), drivers (held coordinates and motions: N or N·mm),
           forces (as statics, with rates), residual (largest |constraint|, mm) }
  total    kinetic + potential + elastic + dissipated − external: constant but for
           the method's numerical dissipation, printed as numerical_dissipation
  events   { t, type: lift_off | touch_down | limit | failed, element } (a limit is
           reported when a coordinate passes it, not enforced)
A step that does not converge is halved (6 times at most); then the run stops with a
"failed" event and the frames so far.

MODEL may also be a suspension geometry file (YAML, or JSON with hardpoints) with a
"dynamics" section (masses, sprung_mass, tyre, road, start, drop: docs/dynamics.md
"Suspension dynamics"): its template assembly runs with a tyre on a driven road under
each wheel, settled on the road first unless "start: design", and every frame gains
"suspension": per side wheel_travel, suspension_travel (mm), camber, toe_angle (deg),
road (mm), tyre_force (N), tyre_penetration; per spring or damper length, travel, rate,
tension; per two-force link its axial force; chassis_heave with a sprung mass. The CSV
appends these columns.

Options:
  --duration T       seconds to simulate (required)
  --step H           time step in seconds (required); T / H at most ${MAX_SIMULATE_STEPS} steps
  --method M         generalized-alpha (default; index 3, on the Lie group) or
                     backward-euler (first order, numerically damped)
  --rho-inf R        generalized-α's high-frequency damping, 0..1 (default 0.9;
                     1: none, energy kept)
  --every K          a frame every K steps (default 1)
  --format json|csv  output format (default json); csv: t, coordinates, part origins,
                     energy, drivers, spring tensions, tyre forces, rolling mates'
                     normal forces, residual; on a vehicle file then its view's
                     corners.<corner>.…, body.heave|pitch|roll, vehicle.…, roads.<corner>
  --out FILE         write the output to FILE instead of stdout. Frames are not kept:
                     CSV rows are written as they are computed; JSON's frames wait in a
                     temporary file (its status comes first) until the run ends. On a
                     terminal a progress bar counts the steps on stderr
  --gradient PARAM   instead of frames, print { result, value, t, gradient: { PARAM: d } }:
                     d(result)/d(PARAM), exact for the discrete integrator (docs/sensitivity.md).
                     PARAM: a force element's number as the file names it: ELEMENT.stiffness,
                     ELEMENT.damping, ELEMENT.friction; a spring's .length, .preload, .curve[i]
                     (a table row's value); a bushing's .stiffness.x|y|z, .rotational_stiffness.x,
                     .damping.x, .rotational_damping.x; a tyre's .stiffness, .damping, .radius,
                     .ground; a drag's .cd, .area, .density; a force's or torque's .vector.x|y|z,
                     .scale.table[i], .scale.amplitude|frequency|phase|offset. PART.mass, PART.inertia.x|y|z,
                     PART.centre.x|y|z, in the file's units, and hardpoints PART.ENTITY.x|y|z
                     (a point's, or a frame's, axis', plane's origin, a circle's centre, mm
                     in the part's frame; PART.points.NAME.x where NAME is also a mass
                     parameter's, as "centre"). Repeatable. On a geometry file: its own
                     numbers, HARDPOINT.x|y|z (left.HARDPOINT.x on an axle), spring.rate,
                     spring.damping, spring.free_length, dynamics.masses.PART.mass|centre.x|
                     inertia.x, dynamics.sprung_mass, dynamics.tyre.stiffness|damping,
                     dynamics.road.bump.height|duration|start (dynamics.road.left.… on an axle).
                     On a vehicle file (a run over a road): its run's assembly's numbers,
                     as an assembly's (front_left_spring.stiffness, front_left_tyre.stiffness,
                     body.mass), the car's rest moving with them (docs/vehicle-dynamics.md).
  --result NAME      with --gradient: PART[.POINT].position.x|y|z or …velocity.x|y|z (mm,
                     mm/s, world axes) at the end, or @max, @min, or @cross=LEVEL (the
                     time the coordinate first passes LEVEL, s), or ELEMENT.tension (N; a
                     spring's, damper's, springdamper's; @max, @min), or ELEMENT.force (N: a
                     tyre's load, a drag's or bushing's force, a coordinate spring's or
                     friction's; ELEMENT.force.x|y|z a bushing's or drag's world component;
                     @max, @min), or a frame's reactions.MATE.force.x|y|z (N) and
                     reactions.MATE.moment.x|y|z (N·mm about its printed at) or
                     drivers.NAME (N or N·mm; @max, @min). On a geometry file also its printed columns: wheel_travel,
                     camber, toe_angle, suspension_travel, road, tyre_force, tyre_penetration
                     (left.camber on an axle), ELEMENT.length, ELEMENT.travel, link.ID,
                     chassis_heave (@max, @min). Repeatable: one run for
                     all; with two or more the output is { status, method, gradient_method,
                     step, steps, results: { NAME: { value, t, gradient } } }
  --gradient-method M  adjoint (one backward sweep over the stored steps, whatever the
                     number of parameters; each step solved once per result) or direct
                     (forward sensitivity, one column per parameter, all results read off
                     it); default adjoint with more parameters than results, else direct.
                     The same numbers to round-off; printed as gradient_method
  -h, --help         this text

${UNITS}
Exit codes: 0 done; 1 bad input; 2 the start cannot be solved or a step failed.

MODEL may also be a vehicle file (*.vehicle.yaml, or a file whose top level has vehicle:,
docs/vehicle-dynamics.md): the whole car from rest over its \`road\` (per side, the rear wheels wheelbase / speed behind the
front, or per wheel: a bump, a table, a sine, an ISO 8608 random road) or through its
\`steer\` (a step at the rack at a speed, the tyres slipping), each frame with a
\`vehicle\` view (corners, body, vehicle as \`kinemate vehicle\` prints, and roads).

Example: kinemate simulate examples/pendulum.kinemate.json --duration 2 --step 0.001 --every 10
         kinemate simulate examples/quarter-car-bump.kinemate.json --duration 1 --step 0.001 --gradient spring.stiffness --gradient body.mass --result body.position.z@max
         kinemate simulate examples/suspension/double_wishbone_dynamics.yaml --duration 0.6 --step 0.0005 --every 20 --format csv
`,
  async run(argv, io) {
    const args = parseCommandArgs('simulate', argv, {
      duration: { type: 'string' }, step: { type: 'string' }, method: { type: 'string' }, 'rho-inf': { type: 'string' },
      every: { type: 'string' }, format: { type: 'string' }, out: { type: 'string' },
      gradient: { type: 'string', multiple: true }, result: { type: 'string', multiple: true }, 'gradient-method': { type: 'string' },
    });
    const file = onePositional('simulate', args, 'MODEL file');
    const duration = parseNumber(requiredOption('simulate', args, 'duration', 'a duration in seconds'), '--duration');
    const step = parseNumber(requiredOption('simulate', args, 'step', 'a time step in seconds'), '--step');
    if (!(duration > 0)) throw new CliError(`simulate: --duration must be positive, got ${duration}`);
    if (!(step > 0)) throw new CliError(`simulate: --step must be positive, got ${step}`);
    const steps = Math.max(1, Math.round(duration / step));
    if (!(steps <= MAX_SIMULATE_STEPS)) throw new CliError(`simulate: --duration ${duration} at --step ${step} is ${steps} steps; at most ${MAX_SIMULATE_STEPS}: a shorter --duration or a longer --step`);
    const method = stringOption(args, 'method') ?? 'generalized-alpha';
    if (method !== 'generalized-alpha' && method !== 'backward-euler') throw new CliError(`simulate: --method must be generalized-alpha or backward-euler, got "${method}"`);
    const rhoText = stringOption(args, 'rho-inf');
    const rhoInf = rhoText === undefined ? undefined : parseNumber(rhoText, '--rho-inf');
    if (rhoInf !== undefined && !(rhoInf >= 0 && rhoInf <= 1)) throw new CliError(`simulate: --rho-inf must be between 0 and 1, got ${rhoInf}`);
    const everyText = stringOption(args, 'every');
    const every = everyText === undefined ? 1 : parseCount(everyText, '--every', 1);
    const format = stringOption(args, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw new CliError(`simulate: --format must be json or csv, got "${format}"`);
    const out = stringOption(args, 'out');
    refuseOverwritingInputs('simulate', '--out', out, [['model', file]]);
    const gradients = stringOptions(args, 'gradient'), resultNames = stringOptions(args, 'result');
    const gradientMethod = stringOption(args, 'gradient-method');
    if (gradientMethod !== undefined && gradientMethod !== 'adjoint' && gradientMethod !== 'direct') throw new CliError(`simulate: --gradient-method must be adjoint or direct, got "${gradientMethod}"`);
    if (gradientMethod !== undefined && !gradients.length) throw new CliError('simulate: --gradient-method needs --gradient PARAM and --result NAME');
    const isVehicle = await isVehicleInput(file);
    if (gradients.length || resultNames.length) return simulateGradient(file, io, gradients, resultNames, { duration, step, method, rhoInf }, out, gradientMethod, isVehicle);
    const { buildDynamics, simulate, IntegratorError } = await dynamics();
    const { frameWriter, fileSink, stdoutSink } = await import('./simulation-output.ts');
    // a vehicle file and a suspension geometry with a dynamics section run through their own bridges
    const vehicle = isVehicle ? await prepareVehicleRun(file, io, out) : null;
    const geometryText = vehicle ? null : await geometryTextOf(file);
    const dyn = vehicle ? vehicle.dyn : geometryText === null ? buildDynamics(await loadModel(file, io)) : null;
    const progress = io.stderrIsTTY ? progressLine(io, 'simulate') : undefined;
    // frames are written as they come, not kept: a long run's memory stays bounded
    const writer = frameWriter(format, out ? fileSink(out) : stdoutSink(io), dyn === null);
    let result: SimulationResult;
    try {
      const options: SimulateOptions = { duration, step, method, rhoInf, every, keepFrames: false, onFrame: (f: SimulationFrame) => {
        writer.frame(f);
        progress?.update(Math.round(f.t / step), steps);
      } };
      result = vehicle ? await simulateVehicleRun(vehicle, options) : dyn ? simulate(dyn, options) : await simulateGeometry(file, geometryText!, options);
    } catch (error) {
      writer.discard();
      await progress?.clear();
      if (error instanceof IntegratorError) {
        await io.out(toJsonText({ status: 'failed', message: error.message }));
        return EXIT.failed;
      }
      throw error;
    }
    await progress?.clear();
    await writer.end(result);
    return result.status === 'completed' ? EXIT.ok : EXIT.failed;
  },
};

/** `simulate --gradient`: the exact gradients of the results instead of the frames (one run for all). */
async function simulateGradient(file: string, io: Parameters<Command['run']>[1], names: string[], resultNames: string[],
  options: { duration: number; step: number; method: 'generalized-alpha' | 'backward-euler'; rhoInf?: number }, out: string | undefined,
  gradientMethod: 'adjoint' | 'direct' | undefined, isVehicle = false): Promise<number> {
  if (!names.length) throw new CliError('simulate: --result needs at least one --gradient PARAM');
  if (!resultNames.length) throw new CliError('simulate: --gradient needs --result NAME (e.g. body.position.z@max)');
  const twice = resultNames.find((r, i) => resultNames.indexOf(r) !== i);
  if (twice !== undefined) throw new CliError(`simulate: --result "${twice}" is given twice`);
  const { simulationGradients, parseParameter, parseResult, DynamicSensitivityError, IntegratorError } = await dynamics();
  // a geometry file names its own numbers (sensitivity-geometry.ts): resolved when built; a vehicle
  // file's run is an assembly, named as one (docs/vehicle-dynamics.md)
  const vehicle = isVehicle ? await prepareVehicleRun(file, io, out) : null;
  const geometryText = vehicle ? null : await geometryTextOf(file);
  let parameters, results;
  try {
    parameters = geometryText === null ? names.map(parseParameter) : names;
    results = geometryText === null ? resultNames.map(parseResult) : resultNames; // a geometry's (wheel_travel too) read when built
  } catch (error) {
    if (error instanceof DynamicSensitivityError) throw new CliError(`simulate: ${error.message}`);
    throw error;
  }
  const model = geometryText === null && !vehicle ? await loadModel(file, io) : null;
  const vehicleGradients = vehicle ? (await import('../suspension/vehicle/run-gradients.ts')).vehicleSimulationGradients : null;
  // the adjoint's backward sweep pays off with more parameters than results
  const how = gradientMethod ?? (parameters.length > results.length ? 'adjoint' : 'direct');
  // on a terminal: the forward pass's line, then the adjoint sweep's in its place
  const forward = io.stderrIsTTY ? progressLine(io, 'simulate') : undefined, backward = io.stderrIsTTY ? progressLine(io, 'adjoint') : undefined;
  let swept = false;
  const onProgress = forward && backward ? (pass: 'forward' | 'backward', done: number, total: number) => {
    if (pass === 'forward') { forward.update(done, total); return; }
    if (!swept) { swept = true; void forward.clear(); }
    backward.update(done, total);
  } : undefined;
  let g;
  try {
    g = vehicle ? vehicleGradients!(vehicle, parameters as DynamicParameter[], results as DynamicResult[], { ...options, onProgress }, how)
      : model ? simulationGradients(model, parameters as DynamicParameter[], results as DynamicResult[], { ...options, onProgress }, how) : await geometryGradients(file, geometryText!, names, results, { ...options, onProgress }, how);
    if (!swept) await forward?.clear();
    await backward?.clear();
  } catch (error) {
    if (!swept) await forward?.clear();
    await backward?.clear();
    if (error instanceof DynamicSensitivityError) throw new CliError(`simulate: ${error.message}`);
    if (error instanceof IntegratorError) { await io.out(toJsonText({ status: 'failed', message: error.message })); return EXIT.failed; }
    throw error;
  }
  const gradientOf = (r: { gradient: number[] }) => Object.fromEntries(names.map((n, j) => [n, r.gradient[j]]));
  const head = { status: 'completed', method: options.method, gradient_method: how, step: options.step, steps: g.steps };
  // one result: its fields at the top (the layout before several were allowed); several: keyed by name
  const text = toJsonText(results.length === 1
    ? { ...head, result: resultNames[0], value: g.results[0].value, t: g.results[0].t, gradient: gradientOf(g.results[0]) }
    : { ...head, results: Object.fromEntries(resultNames.map((name, r) => [name, { value: g.results[r].value, t: g.results[r].t, gradient: gradientOf(g.results[r]) }])) });
  if (out) await writeFile(out, text); else await io.out(text);
  return EXIT.ok;
}
