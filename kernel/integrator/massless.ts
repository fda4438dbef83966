/** Why an integrator's augmented system is singular, in words (kernel/integrator/integrator.ts's start). */
import type { System } from '../system';
import type { IntegratorBody } from './iteration';

/** Moving pose variables without a mass block or without inertia: the usual reason the augmented system is singular. */
export function masslessNames(system: System, bodies: readonly IntegratorBody[]): string[] {
  const massive = new Set(bodies.filter((b) => b.M[0] + b.M[7] + b.M[14] > 0).map((b) => b.variable));
  const noMass = new Set(bodies.filter((b) => !(b.M[21] > 0)).map((b) => b.variable));
  const names: string[] = [];
  for (const v of system.variables) {
    if (v.fixed || v.kind !== 'pose') continue;
    if (!bodies.some((b) => b.variable === v.id) || noMass.has(v.id)) names.push(`${v.name} (no mass)`);
    else if (!massive.has(v.id)) names.push(`${v.name} (no inertia)`);
  }
  return names;
}
