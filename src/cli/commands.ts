/**
 * The command table: every `kinemate <name>` subcommand, in the order `--help` lists them.
 *
 * To add a command, write a `Command` (src/cli/command.ts) and list it here.
 */
import type { Command } from './command.ts';
import { dofCommand, driveCommand, solveCommand } from './model-commands.ts';
import { sweepCommand } from './sweep.ts';
import { exportCommand, plotCommand, reportCommand } from './picture-commands.ts';
import { equilibriumCommand, modesCommand, simulateCommand, staticsCommand } from './dynamics-commands.ts';
import { batchCommand, fitCommand, sensitivityCommand } from './sensitivity-commands.ts';
import { workerCommand } from './queue-commands.ts';
import { vehicleCommand } from './vehicle-command.ts';
import { kcCommand } from './kc.ts';
import { tyreCommand } from './tyre.ts';
import { clearanceCommand, envelopeCommand } from './clearance.ts';

export const COMMANDS: ReadonlyMap<string, Command> = new Map(
  [solveCommand, dofCommand, driveCommand, sweepCommand, kcCommand, sensitivityCommand, fitCommand, batchCommand, workerCommand, staticsCommand, equilibriumCommand, modesCommand, simulateCommand, vehicleCommand, plotCommand, reportCommand, exportCommand, tyreCommand, clearanceCommand, envelopeCommand].map((command) => [command.name, command]),
);
