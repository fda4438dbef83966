/**
 * The names a simulation's gradient is asked in, as the CLI writes them: parameters
 * (`spring.stiffness`, `body.mass`, a hardpoint, an element's number) and results
 * (`PART[.POINT].position.z@max`, `ELEMENT.tension`, `reactions.MATE.force.x`, …).
 */
import { parseCoefficient } from './parameters/coefficients';
import { parseHardpoint } from './parameters/hardpoints';
import { canonicalResultName } from '../mechanics/result-names';
import { DynamicSensitivityError } from './errors';
import type { DynamicParameter, DynamicResult } from './types';

/**
 * Parameter names as the CLI writes them: `spring.stiffness`, `body.mass`, `body.inertia.z`, `body.centre.x`,
 * and hardpoints `body.frontAxle.x` (an entity's position; `body.points.centre.x` where the name is also a mass parameter's).
 */
export function parseParameter(name: string): DynamicParameter {
  // PART.points.centre.x is a point's coordinate; PART.centre.x the mass centre's
  const long = /^[^.]+\.(points|frames|axes|planes|circles)\.[^.]+\.[xyz]$/.test(name) ? parseHardpoint(name) : null;
  if (long) return long;
  const m = /^(.+)\.(stiffness|damping|friction|mass|inertia\.[xyz]|centre\.[xyz])$/.exec(name);
  if (!m) {
    const hp = parseHardpoint(name) ?? parseCoefficient(name);
    if (hp) return hp;
    throw new DynamicSensitivityError(`parameter "${name}": expected ELEMENT.stiffness, ELEMENT.damping, ELEMENT.friction, PART.mass, PART.inertia.x|y|z, PART.centre.x|y|z, a hardpoint PART.ENTITY.x|y|z or an element's number ELEMENT.FIELD[.x|y|z], ELEMENT.FIELD[i]`);
  }
  const [, owner, what] = m;
  if (what === 'stiffness' || what === 'damping' || what === 'friction') return { kind: what, element: owner };
  if (what === 'mass') return { kind: 'mass', part: owner };
  const axis = 'xyz'.indexOf(what.slice(-1)) as 0 | 1 | 2;
  return { kind: what.startsWith('inertia') ? 'inertia' : 'centre', part: owner, axis };
}

/**
 * Result names: `PART[.POINT].position.z`, `PART[.POINT].velocity.x`, with an optional `@max`,
 * `@min` (default: the final value) or `@cross=LEVEL` (the time the coordinate first passes LEVEL).
 * The names are the registry's (mechanics/result-names.ts); the CSV's short spellings
 * (`PART.z`, `driver.NAME`) are read as their canonical names.
 */
export function parseResult(written: string): DynamicResult {
  const name = canonicalResultName(written);
  const tension = /^([^.@]+)\.tension(?:@(final|max|min))?$/.exec(name);
  if (tension) return { part: tension[1], quantity: 'tension', axis: 0, at: (tension[2] ?? 'final') as DynamicResult['at'] };
  const reaction = /^reactions\.([^.@]+)\.(force|moment)\.([xyz])(?:@(final|max|min))?$/.exec(name);
  if (reaction) return { part: reaction[1], quantity: 'reaction', axis: 0, reaction: { kind: reaction[2] as 'force' | 'moment', mate: reaction[1], axis: 'xyz'.indexOf(reaction[3]) as 0 | 1 | 2 }, at: (reaction[4] ?? 'final') as DynamicResult['at'] };
  // a part or element named `drivers` keeps its own results
  const driver = /^drivers\.(?!(?:[^.@]+\.)?(?:position|velocity)\.[xyz](?:@|$)|force(?:\.[xyz])?(?:@|$))([^@]+?)(?:@(final|max|min))?$/.exec(name);
  if (driver) return { part: driver[1], quantity: 'reaction', axis: 0, reaction: { kind: 'driver', name: driver[1] }, at: (driver[2] ?? 'final') as DynamicResult['at'] };
  const force = /^([^.@]+)\.force(?:\.([xyz]))?(?:@(final|max|min))?$/.exec(name);
  if (force) return { part: force[1], quantity: 'force', axis: 0, ...(force[2] ? { component: 'xyz'.indexOf(force[2]) as 0 | 1 | 2 } : {}), at: (force[3] ?? 'final') as DynamicResult['at'] };
  const m = /^([^.]+)(?:\.([^.@]+))?\.(position|velocity)\.([xyz])(?:@(final|max|min|cross=([-+0-9.eE]+)))?$/.exec(name);
  if (!m || (m[6] !== undefined && !Number.isFinite(Number(m[6])))) {
    throw new DynamicSensitivityError(`result "${written}": expected PART[.POINT].position.x|y|z or PART[.POINT].velocity.x|y|z, optionally @max, @min or @cross=LEVEL, or ELEMENT.tension, optionally @max or @min, or ELEMENT.force, ELEMENT.force.x|y|z (a tyre's load, a bushing's or drag's force, a coordinate spring's or friction's; @max, @min), or a frame's reactions.MATE.force.x|y|z, reactions.MATE.moment.x|y|z or drivers.NAME (@max, @min)`);
  }
  const at = (m[6] !== undefined ? 'crossing' : m[5] ?? 'final') as DynamicResult['at'];
  return { part: m[1], ...(m[2] ? { point: m[2] } : {}), quantity: m[3] as 'position' | 'velocity', axis: 'xyz'.indexOf(m[4]) as 0 | 1 | 2, at, ...(m[6] !== undefined ? { level: Number(m[6]) } : {}) };
}



/** A parameter's name as parseParameter reads it (for messages). */
export function parameterName(p: DynamicParameter): string {
  switch (p.kind) {
    case 'combined': return p.name;
    case 'hardpoint': return `${p.part}.${p.group ? `${p.group}.` : ''}${p.entity}.${'xyz'[p.axis]}`;
    case 'mass': return `${p.part}.mass`;
    case 'inertia': case 'centre': return `${p.part}.${p.kind}.${'xyz'[p.axis]}`;
    case 'coefficient': return `${p.element}.${p.field}`;
    default: return `${p.element}.${p.kind}`;
  }
}
