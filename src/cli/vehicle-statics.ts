/**
 * `kinemate statics` and `kinemate equilibrium` on a vehicle file (vehicle.md: they accept
 * one): the whole car's assembly (src/suspension/vehicle/assembly.ts) settled at rest by the
 * vehicle's own Newton (as `kinemate vehicle --static` and `modes` settle it), then the
 * generic reports of src/mechanics at that pose, so the output has the fields and formats
 * these commands print for an assembly file. The tyres are contact patches added beside the
 * file's force elements, which the generic reports do not list: each is added to `forces`
 * as `<corner>_tyre`, in the format of an assembly's tyre ({ penetration, force, contact }).
 */
import type { Command } from './command.ts';
import { EXIT, toJsonText } from './io.ts';
import { loadVehicle } from './vehicle-dynamics.ts';

type IO = Parameters<Command['run']>[1];

/** Settle the vehicle file's car at rest and print statics' or equilibrium's report there. */
export async function vehicleRestCommand(command: 'statics' | 'equilibrium', file: string, io: IO): Promise<number> {
  const { spec } = await loadVehicle(file, io);
  const [{ buildVehicle }, { applyAcceleration }, { newtonEquilibrium }, { reactionsHere }, { solveModel }] = await Promise.all([
    import('../suspension/vehicle/assembly.ts'), import('../suspension/vehicle/loads.ts'), import('../suspension/vehicle/newton.ts'),
    import('../mechanics/statics.ts'), import('../model/operations.ts'),
  ]);
  const m = buildVehicle(spec);
  applyAcceleration(m, { ax: 0, ay: 0 });
  const newton = newtonEquilibrium(m);
  // the reports at the settled pose (or, on failure, the last pose Newton reached)
  const report = reactionsHere(m.dyn);
  const kin = solveModel(m.dyn.model);
  const tyres: Record<string, { penetration: number; force: number; contact: [number, number, number] }> = {};
  m.contacts.forEach((c, i) => {
    const { penetration, force, contact } = c.last; // evaluated by reactionsHere's assembly at this state
    tyres[`${m.wheels[i].corner}_tyre`] = { penetration, force, contact: [contact[0], contact[1], contact[2]] };
  });
  const forces = { ...report.forces, ...tyres };
  const solved = newton.converged && report.status === 'solved';
  const message = newton.converged ? undefined : newton.message ?? 'no equilibrium found';
  const result = command === 'statics'
    ? { ...report, status: solved ? 'solved' : newton.converged ? report.status : 'failed', dof: kin.dof, forces, ...(message ? { message } : {}) }
    : {
      ...kin, status: solved ? 'solved' : 'failed', reactions: report.reactions, drivers: report.drivers, forces,
      indeterminate: report.indeterminate, residualForce: report.unbalanced, newtonIterations: newton.iterations, loadSteps: solved ? [1] : [],
      ...(message ? { message } : {}),
    };
  await io.out(toJsonText(result));
  return solved ? EXIT.ok : EXIT.failed;
}
