/** The sweep command (src/cli/sweep.ts): options parsed into SweepArgs, handed to runSweepCommand (src/cli/sweep-run.ts). */
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/io.ts';
import { InternalError } from '../../kernel/errors.ts';
import { main } from '../../src/cli/main.ts';
import { NOT_AVAILABLE, findSweepRunner, makeSweepCommand, parseSweepArgs, type SweepArgs } from '../../src/cli/sweep.ts';
import { kinemate, memoryIO } from './helpers.ts';


describe('kinemate sweep (hook)', () => {
  it('parses the contract options into SweepArgs', () => {
    const io = memoryIO();
    const args = parseSweepArgs(['geo.yaml', '--bump', '-50:50:11', '--hold', 'lower_wishbone_angle', '--format', 'csv', '--out', 'o.csv'], io);
    expect(args).toEqual({ geometry: 'geo.yaml', bump: '-50:50:11', hold: 'lower_wishbone_angle', format: 'csv', out: 'o.csv', io });
    expect(parseSweepArgs(['geo.yaml'], io).format).toBe('json');
    expect(() => parseSweepArgs(['geo.yaml', '--format', 'xml'], io)).toThrow('sweep: --format must be json or csv, got "xml"');
    expect(() => parseSweepArgs([], io)).toThrow('sweep: missing GEOMETRY file');
  });

  it('without a runner, says it is not available yet (exit 1 through main)', async () => {
    const command = makeSweepCommand(async () => undefined);
    await expect(command.run(['geo.yaml'], memoryIO())).rejects.toThrow(CliError);
    const io = memoryIO();
    expect(await main(['sweep', 'geo.yaml'], io, new Map([['sweep', command]]))).toBe(1);
    expect(io.written.stderr).toBe(`kinemate: ${NOT_AVAILABLE}\n`);
    expect(io.written.stdout).toBe('');
  });

  it('with a runner, hands it the parsed arguments and returns its exit code', async () => {
    let seen: SweepArgs | undefined;
    const command = makeSweepCommand(async () => async (args) => {
      seen = args;
      await args.io.out('{}\n');
      return 2;
    });
    const io = memoryIO();
    expect(await main(['sweep', 'geo.yaml', '--steer', '-20:20:5'], io, new Map([['sweep', command]]))).toBe(2);
    expect(seen).toMatchObject({ geometry: 'geo.yaml', steer: '-20:20:5', format: 'json' });
    expect(io.written.stdout).toBe('{}\n');
  });

  it('an Error the runner throws is one line of bad input; a TypeError is an internal error', async () => {
    const failing = (error: Error) => new Map([['sweep', makeSweepCommand(async () => async () => { throw error; })]]);
    const io = memoryIO();
    expect(await main(['sweep', 'geo.yaml'], io, failing(new Error('geo.yaml: cannot read (ENOENT)')))).toBe(1);
    expect(io.written.stderr).toBe('kinemate: geo.yaml: cannot read (ENOENT)\n');
    const bug = memoryIO();
    expect(await main(['sweep', 'geo.yaml'], bug, failing(new TypeError("Cannot read properties of undefined (reading 'x')\nsecond line")))).toBe(1);
    expect(bug.written.stderr).toBe("kinemate: internal error: Cannot read properties of undefined (reading 'x') second line (set KINEMATE_DEBUG=1 for details)\n");
    // an InternalError is a fault of the code, whatever Error it extends
    const fault = memoryIO();
    expect(await main(['sweep', 'geo.yaml'], fault, failing(new InternalError('batch: dist/batch-worker.js is missing from the package build')))).toBe(1);
    expect(fault.written.stderr).toBe('kinemate: internal error: batch: dist/batch-worker.js is missing from the package build (set KINEMATE_DEBUG=1 for details)\n');
  });

  it('finds runSweepCommand in src/cli/sweep-run.ts', async () => {
    const runner = await findSweepRunner();
    const { runSweepCommand } = await import('../../src/cli/sweep-run.ts');
    expect(runner).toBe(runSweepCommand);
  });

  it('the real command runs a suspension sweep through the hook', async () => {
    const run = await kinemate(['sweep', 'examples/suspension/double_wishbone.yaml', '--bump', '-10:10:3']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toHaveProperty('sweeps');
  });

});
