/**
 * The command's overview (`kinemate --help`) and each command's help list the forms the
 * docs give: `plot GEOMETRY --kc EVENT` (docs/compliance.md "K&C curves"), `fit VEHICLE.yaml`
 * (docs/vehicle.md "Fit"), and `report`'s K&C section on a compliant file. The overview
 * had neither form, and `report --help` did not say it draws K&C.
 */
import { describe, expect, it } from 'vitest';
import { runMain } from './helpers.ts';

describe('the help lists the K&C and vehicle forms the docs give', () => {
  it('kinemate --help: plot --kc and fit VEHICLE.yaml', async () => {
    const help = (await runMain(['--help'])).stdout;
    expect(help).toMatch(/or GEOMETRY --kc EVENT \[--range A:B:N\] \[--at bump=V\|steer=V\|roll=V\] --metric NAME\.\.\. --out FILE\.svg\|FILE\.png/);
    expect(help).toMatch(/\n {7,}fit VEHICLE\.yaml --targets FILE \[--out FITTED\]\n/);
    expect(help).toMatch(/K&C curves over load/);
  });

  it('fit --help and report --help', async () => {
    expect((await runMain(['fit', '--help'])).stdout).toMatch(/^Usage: kinemate fit GEOMETRY --targets FILE \[--out FITTED\]\n {7}kinemate fit VEHICLE\.yaml --targets FILE/);
    expect((await runMain(['report', '--help'])).stdout).toMatch(/compliance: section, a\n"Compliance \(K&C\)" section too/);
  });
});
