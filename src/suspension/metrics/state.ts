/**
 * One solved state, fully evaluated: positions, metrics with derivatives, the steering
 * response under the chosen hold, the `*_virtual` metrics on its axes, and the instant axis
 * of linkages that have no classic construction (multi-link, hand-assembled).
 */
import type { SuspensionModel, StateEvaluation } from '../build/model';
import { steeringResponse, responseLine, type SteeringResponse } from './steering';
import { instantAxisFromScrew } from './instant-axis';
import { packedMap } from '../../../kernel/packed-map';

export interface FullState extends StateEvaluation {
  steering: SteeringResponse;
}

export function evaluateState(sm: SuspensionModel, hold = 'layout_default'): FullState {
  const steering = steeringResponse(sm, hold);
  const n = sm.corners.length + (sm.rackHold ? 1 : 0);
  const virtualAxes = packedMap(sm.corners, (c) => {
    const axis = steering.axes.find((a) => a.side === c.roles.side);
    return axis ? responseLine(axis, n) : null;
  });
  // the screw instant axis only where a corner asks for one (its closure is not made otherwise)
  const screw = sm.corners.some((c) => c.roles.instant_axis.type === 'screw');
  const evaluation = sm.evaluate(!screw ? { virtualAxes } : {
    virtualAxes,
    instantAxis: (i, width, tangent) => {
      const axis = steering.axes.find((a) => a.side === sm.corners[i].roles.side);
      const steeringAxis = axis && axis.status === 'valid' && axis.point && axis.direction
        ? [axis.point, [axis.point[0] + axis.direction[0], axis.point[1] + axis.direction[1], axis.point[2] + axis.direction[2]]] as [number[], number[]]
        : undefined;
      return instantAxisFromScrew(sm, i, width, tangent, steeringAxis ? { steeringAxis } : { hold });
    },
  });
  // the evaluation is this call's own object: the response joins it rather than a copy
  const full = evaluation as FullState;
  full.steering = steering;
  return full;
}
