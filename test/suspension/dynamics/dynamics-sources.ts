/**
 * Dynamics geometries for the gradient tests. The double wishbone axle: a coilover per side
 * (its free length the design length), an upright and a lower wishbone mass per side, a
 * 250 N/mm tyre, and a 40 mm bump under the left wheel at 0.2 s.
 */
import { readFileSync } from 'node:fs';
import { parseGeometry, type Geometry } from '../../../src/suspension/files';
import { readSuspensionDynamics } from '../../../src/suspension/dynamics/model';
import type { GeometrySource } from '../../../src/suspension/gradients/simulation/geometry';

export function dwAxleDynamicsSource(): GeometrySource {
  const file = 'examples/suspension/double_wishbone_axle.yaml';
  const geometry = parseGeometry(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8'), file);
  geometry.spring = { type: 'coilover', rate: 60, damping: 3 };
  for (const c of geometry.corners) {
    const s = c.side === 'left' ? 1 : -1;
    Object.assign(c.hardpoints, { strut_bottom: [0, 700 * s, 200], strut_top: [0, 600 * s, 600] });
  }
  const spec = readSuspensionDynamics({
    masses: {
      left_upright: { mass: 20, centre: [-20, 950, 300], inertia: [1e6, 1.5e6, 1e6] }, right_upright: { mass: 20, centre: [-20, -950, 300], inertia: [1e6, 1.5e6, 1e6] },
      left_lower_wishbone: { mass: 3, centre: [0, 650, 200], inertia: [1e5, 2e4, 1e5] }, right_lower_wishbone: { mass: 3, centre: [0, -650, 200], inertia: [1e5, 2e4, 1e5] },
    },
    tyre: { stiffness: 250 }, road: { left: { bump: { height: 40, duration: 0.1, start: 0.2 } } },
  }, geometry, file);
  return { geometry, spec };
}

/** The corner example examples/suspension/double_wishbone_dynamics.yaml, its geometry and its dynamics section each edited first where given. */
export const CORNER_DYNAMICS_FILE = 'examples/suspension/double_wishbone_dynamics.yaml';
export function cornerDynamicsSource(edit?: (g: Geometry) => void, dynamics?: (d: any) => void): GeometrySource {
  const geometry = parseGeometry(readFileSync(new URL(`../../../${CORNER_DYNAMICS_FILE}`, import.meta.url), 'utf8'), CORNER_DYNAMICS_FILE);
  edit?.(geometry);
  const raw = structuredClone((geometry.raw as any).dynamics);
  dynamics?.(raw);
  return { geometry, spec: readSuspensionDynamics(raw, geometry, CORNER_DYNAMICS_FILE) };
}
