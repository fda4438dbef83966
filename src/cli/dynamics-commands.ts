/** `kinemate statics`, `kinemate equilibrium` and `kinemate modes`: mass and forces (docs/dynamics.md). */
import { onePositional, parseAssignments, parseCommandArgs, stringOptions } from './args.ts';
import type { Command } from './command.ts';
import { EXIT, toJsonText } from './io.ts';
import { loadModel } from './model-commands.ts';

/** The analyses, loaded when one of these commands runs (not at every start of the command). */
const dynamics = () => import('../index.ts');

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

${UNITS}
Exit codes: 0 in equilibrium; 1 bad input; 2 status "not_in_equilibrium" (a free
motion is not balanced: see unbalanced) or "failed" (the pose cannot be solved).

Example: kinemate statics examples/slider-crank-load.kinemate.json --set jA.angle=60
`,
  async run(argv, io) {
    const args = parseCommandArgs('statics', argv, { set: { type: 'string', multiple: true } });
    const file = onePositional('statics', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
    const { buildDynamics, statics } = await dynamics();
    const dyn = buildDynamics(await loadModel(file, io));
    const result = statics(dyn, { set });
    await io.out(toJsonText(result));
    return result.status === 'solved' ? EXIT.ok : EXIT.failed;
  },
};

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

${UNITS}
Exit codes: 0 solved; 1 bad input; 2 no equilibrium found (status "failed").

Example: kinemate equilibrium examples/quarter-car.kinemate.json
`,
  async run(argv, io) {
    const args = parseCommandArgs('equilibrium', argv, { set: { type: 'string', multiple: true } });
    const file = onePositional('equilibrium', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
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

Exit codes: 0 done; 1 bad input; 2 no equilibrium, or a moving part without mass or
inertia (named in "message").

Example: kinemate modes examples/quarter-car.kinemate.json
`,
  async run(argv, io) {
    const args = parseCommandArgs('modes', argv, { set: { type: 'string', multiple: true } });
    const file = onePositional('modes', args, 'MODEL file');
    const set = parseAssignments(stringOptions(args, 'set'), '--set');
    const { buildDynamics, modes } = await dynamics();
    const dyn = buildDynamics(await loadModel(file, io));
    const result = modes(dyn, { set });
    await io.out(toJsonText(result));
    return result.status === 'solved' ? EXIT.ok : EXIT.failed;
  },
};
