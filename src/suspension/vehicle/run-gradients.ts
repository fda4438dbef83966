/**
 * `simulate --gradient` on a vehicle file (docs/vehicle-dynamics.md): the exact gradients of a
 * run's results over a road, by the simulation gradients' tangent integration
 * (src/gradients/run.ts, direct or adjoint), with the parameters and results an assembly file
 * names (the run's assembly: `front_left_spring.stiffness`, `body.mass`,
 * `body.position.z@max`, …). The run starts at the car's rest, which moves with the numbers:
 * the start is differentiated as a static equilibrium ('equilibrium'), with the quasi-static
 * datum's stiffness added to that balance alone (what the rest solve holds the body's x, y
 * and yaw by: a free car has no stiffness there, and its rest would not be isolated). Runs
 * on the moving road (a step steer, a brake, a drive) start rolling, not at rest: refused.
 */
import { ForceSet } from '../../../kernel/forces';
import { simulationGradients, type DynamicGradients, type DynamicParameter, type DynamicResult, type GradientOptions } from '../../gradients/run';
import { BodyDatum } from './datum';
import { VehicleInputError } from './errors';
import type { VehicleSimulationModel } from './simulate';

export function vehicleSimulationGradients(model: VehicleSimulationModel, parameters: readonly DynamicParameter[], results: readonly DynamicResult[],
  options: Omit<GradientOptions, 'start' | 'startHold'>, method?: 'adjoint' | 'direct'): DynamicGradients {
  const { run, dyn } = model;
  if (run.steer || run.torques.length) throw new VehicleInputError('--gradient', `a run on the moving road (${run.steer ? 'steer' : run.torques[0].kind}) starts rolling, not at rest: its gradients are not done yet (a run over a road is)`);
  const d = model.vehicle.datum;
  const hold = new ForceSet(dyn.system);
  hold.add(new BodyDatum(dyn.model.parts.get('body')!, d.centre, d.anchor, d.yaw0, d.stiffness, d.yawStiffness));
  const startHold = (K: Float64Array) => {
    const n = hold.size;
    hold.assemble(new Float64Array(n), 0, new Float64Array(n), K, null);
  };
  return simulationGradients(dyn, parameters, results, { ...options, start: 'equilibrium', startHold }, method);
}
