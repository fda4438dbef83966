/** Shared set-up of the compliance tests: a geometry text to a compliant state at the design position. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseGeometry, sweepFromShortcut, sweepValues } from '../../../src/suspension/files/index.ts';
import { suspensionAssembly } from '../../../src/suspension/build/template.ts';
import { SuspensionModel } from '../../../src/suspension/build/model.ts';
import { sweepDrivers } from '../../../src/suspension/sweep/sweep.ts';
import { CompliantState } from '../../../src/suspension/compliance/state.ts';
import { REPO } from '../../cli/helpers.ts';

export const example = (name: string): string => readFileSync(join(REPO, 'examples', 'suspension', name), 'utf8');

/** The double wishbone corner with bushings at its four inboard pickups and a compliant track rod, stiffnesses × `scale`. */
export function dwCompliance(scale = 1): string {
  return `compliance:
  bushings:
    lower_wishbone_inboard_front: { radial: ${8000 * scale}, axial: ${1600 * scale}, conical: ${2000 * scale} }
    lower_wishbone_inboard_rear: { radial: ${4000 * scale}, axial: ${800 * scale}, conical: ${1000 * scale} }
    upper_wishbone_inboard_front: { radial: ${5000 * scale}, axial: ${1000 * scale} }
    upper_wishbone_inboard_rear: { radial: ${5000 * scale}, axial: ${1000 * scale} }
  links:
    trackrod: ${30000 * scale}
`;
}

/** A compliant state held at bump (mm) with the rack held; returns it with the rigid pose's snapshot. */
export function stateAt(text: string, bump = 0): { sm: SuspensionModel; state: CompliantState; rigid: Float64Array } {
  const g = parseGeometry(text);
  const sm = new SuspensionModel(suspensionAssembly(g));
  const state = new CompliantState(sm);
  const drivers = sweepDrivers(sm, sweepFromShortcut('bump', `${bump}:${bump}:1`, g));
  sm.resetToDesign();
  drivers.forEach((d) => { d.block.target = d.targetOf(sweepValues(d.source, 1)[0]); });
  const solved = sm.solveWith(drivers.map((d) => d.block));
  if (!solved.converged) throw new Error('the position cannot be reached');
  return { sm, state, rigid: sm.model.system.snapshot() };
}

/** Settle under one wheel load at corner 0 from the rigid pose; the metrics at the deflected pose. */
export function settleUnder(s: ReturnType<typeof stateAt>, force: [number, number, number], moment: [number, number, number] = [0, 0, 0], at: 'contact_patch' | 'wheel_center' = 'contact_patch'): Record<string, number | null> {
  s.sm.model.system.restore(s.rigid);
  s.state.setLoad(0, { force, moment, at });
  const r = s.state.settle();
  if (r.status !== 'solved') throw new Error(r.message);
  const ev = s.sm.evaluate({ derivatives: false });
  const m = (ev.metrics as Record<string, number | null>);
  return { ...m, contact_y: ev.positions.wheel_contact_centre[1], contact_x: ev.positions.wheel_contact_centre[0], wc_x: ev.positions.wheel_center[0] };
}
