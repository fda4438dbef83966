/**
 * `kinemate fit` commands the docs show that another test file runs itself, with the same
 * arguments and more checks of the answer (fit-examples.test.ts leaves them to it rather than
 * fitting the same file a second time: 2–3 s of CPU each), and what every documented run must
 * show: converged, exit 0, every target met to 1e-6.
 */
import { expect } from 'vitest';

export const ROLL_CENTRE_FIT = ['fit', 'examples/suspension/double_wishbone.yaml', '--targets', 'examples/sensitivity/fit_camber_roll_centre.yaml'];
export const AXLE_FIT = ['fit', 'examples/suspension/double_wishbone_axle.yaml', '--targets', 'examples/sensitivity/fit_axle_camber_gain.yaml'];
export const VEHICLE_ROLL_FIT = ['fit', 'examples/vehicles/sedan.vehicle.yaml', '--targets', 'examples/sensitivity/fit_vehicle_roll_gradient.yaml'];

/** The command (its arguments before `--out`) → the file that runs it. */
export const RUN_ELSEWHERE = new Map([
  [ROLL_CENTRE_FIT.join(' '), 'fit-roll-centre.test.ts'], [AXLE_FIT.join(' '), 'fit-axle.test.ts'], [VEHICLE_ROLL_FIT.join(' '), '../vehicle/figure-rates.test.ts'],
]);

type FitReport = { status: string; targets: { target: string; residual: number }[] };

/** A documented fit's run as the docs say it ends: converged, exit 0, each target's residual under 1e-6. */
export function expectDocumentedFit(args: readonly string[], code: number, report: FitReport): void {
  expect(report.status, `${args.join(' ')}: ${JSON.stringify(report.targets)}`).toBe('converged');
  expect(code).toBe(0);
  for (const t of report.targets) expect(Math.abs(t.residual), t.target).toBeLessThan(1e-6);
}
